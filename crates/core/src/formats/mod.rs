//! File formats, one module per format, each with one reader and one writer:
//!
//! | format | module | reader | writer |
//! |---|---|---|---|
//! | Okapi game JSON (version 2: the move tree; reads version 1) | [`okapi_json`] | [`okapi_json::read`] | [`okapi_json::write`] |
//! | GGF (GGS / NBoard games) | [`ggf`] | [`ggf::read`] | [`ggf::write`] |
//! | transcripts (`f5d6c3`, `1. f5 d6`) | [`transcript`] | [`transcript::read`] | [`transcript::write`] |
//! | board strings in scripts and OBF (64 squares, the side; strict, with columns) | `board::Position` | [`Position::parse`](crate::board::Position::parse) | [`Position::to_board_string`](crate::board::Position::to_board_string) |
//! | board strings as people exchange them (`X`/`O`, `*`/`O`, `b`/`w`, spaced, diagrams) | [`board_text`] | [`board_text::read`] | [`board_text::write`] |
//! | scrZebra endgame scripts | [`script`] | [`script::parse_script`] | [`script::format_result`] |
//! | Edax OBF test files | [`obf`] | [`obf::parse_file`] | — |
//! | test positions with known answers (FFO scripts, OBF) | [`test_positions`] | [`test_positions::read`] | — |
//! | WTHOR, PGN-like text, Logistello games | [`records`] | `wthor::parse`, `pgn::parse`, `logbook::parse` | [`records::wthor::write`] |
//!
//! Board strings have their one home in `board::Position` (the board layer needs them for
//! its own tests and diagrams); every format here that holds a board reads it through
//! `Position::parse`.
//!
//! Formats read and write; they never search (solving script positions is
//! `engine::script_solve`). This module imports only `board` and `game`.
//!
//! Every reader of a user's file goes through [`read_capped`], so a huge or endless file
//! (`/dev/zero`) ends at once with "file too large (over N MB)" instead of filling memory.
//!
//! Games and positions from files and the clipboard are told apart by content, in one
//! place ([`detect`], [`read_any`]): JSON starts with `{`, GGF holds `(;`, a board string
//! is mostly square characters ([`board_text::looks_like_board`]), a transcript holds
//! moves (`f5`); anything else is refused as none of them.

pub mod board_text;
pub mod ggf;
pub mod obf;
pub mod okapi_json;
pub mod records;
pub mod script;
pub mod test_positions;
pub mod transcript;

use crate::board::Position;
use crate::game::Game;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The most a game file may hold (a game is a few kB; a tree of many variations, a few
/// hundred kB).
pub const MAX_GAME_FILE: u64 = 16 << 20;
/// The most a script or OBF file may hold (a line per position; FFO's are 5 kB).
pub const MAX_SCRIPT_FILE: u64 = 64 << 20;
/// The most a game-record file may hold, compressed or not (a WTHOR year is under 1 MB,
/// `logbook.gam` about 20 MB unpacked, the PGN exports a few MB).
pub const MAX_RECORD_FILE: u64 = 256 << 20;
/// The most an opening book or weights file may hold.
pub const MAX_BOOK_FILE: u64 = 512 << 20;

/// A place in a text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TextPos {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl TextPos {
    /// The line and column of byte offset `at` in `text` (clamped to the text; an offset
    /// inside a character counts as that character).
    pub fn of(text: &str, at: usize) -> TextPos {
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        TextPos {
            line,
            column: before[line_start..].chars().count() + 1,
        }
    }
}

impl fmt::Display for TextPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// How a saved game's comment names the game's opening, on a line of its own at the end
/// (`Opening: Rose`): in formats with a comment and no place of their own for it (GGF).
pub const OPENING_NOTE: &str = "Opening: ";

/// The game's comment with a last line naming the opening of its main line
/// ([`crate::game::openings::opening_of_main_line`]), if it has one.
pub fn comment_with_opening(game: &Game) -> String {
    let Some(opening) = crate::game::openings::opening_of_main_line(game) else {
        return game.comment.clone();
    };
    let note = format!("{OPENING_NOTE}{}", opening.name);
    if game.comment.is_empty() {
        note
    } else {
        format!("{}\n{note}", game.comment)
    }
}

/// `comment` without the last line [`comment_with_opening`] adds, when that line names
/// `game`'s own opening (the name follows from the moves, so it is written again on the
/// next save: nothing is lost). A last line naming anything else is the person's own and
/// stays.
pub fn comment_without_opening(comment: &str, game: &Game) -> String {
    let (before, last) = match comment.rfind('\n') {
        Some(i) => (&comment[..i], &comment[i + 1..]),
        None => ("", comment),
    };
    let ours = crate::game::openings::opening_of_main_line(game)
        .is_some_and(|o| last.strip_prefix(OPENING_NOTE) == Some(o.name));
    if ours {
        before.to_string()
    } else {
        comment.to_string()
    }
}

/// Reading a user's file failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    // The reason is in the message and not also the error's source: a front end that
    // prints the chain of sources (anyhow's `{:#}`) said it twice.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: std::io::Error,
    },
    /// The file holds more than the limit: refused before it fills memory.
    #[error("{path}: file too large (over {} MB)", limit >> 20)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
    },
}

/// Reads at most `limit` bytes of `path`; a longer file (or an endless one such as
/// `/dev/zero`) is refused after reading just past the limit. A FIFO no program writes
/// to reads as empty at once rather than waiting for a writer for ever (a pipe given as
/// `<(command)` is read as it comes).
pub fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |reason| ReadError::Io {
        path: path.into(),
        reason,
    };
    let file = open_without_waiting(path, false).map_err(io)?;
    read_capped_from(file, limit).map_err(|e| match e {
        CapError::Io(reason) => io(reason),
        CapError::TooLarge => ReadError::TooLarge {
            path: path.into(),
            limit,
        },
    })
}

/// Why [`read_capped_from`] stopped.
#[derive(Debug)]
pub enum CapError {
    /// Reading failed.
    Io(std::io::Error),
    /// The stream holds more than the limit.
    TooLarge,
}

/// Reads a stream to its end, refusing more than `limit` bytes (a gzip bomb, a device).
pub fn read_capped_from(reader: impl Read, limit: u64) -> Result<Vec<u8>, CapError> {
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(CapError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(CapError::TooLarge);
    }
    Ok(bytes)
}

/// The formats a game can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Okapi's JSON: the whole tree, values, seats, cursor.
    OkapiJson,
    /// GGF: one line (the current line, when the app saves).
    Ggf,
    /// A transcript of the current line, passes left out.
    Transcript,
}

impl Format {
    /// Does the format keep every line of the record (not just one)?
    pub fn keeps_variations(self) -> bool {
        self == Format::OkapiJson
    }

    /// The format's name in messages ("GGF keeps one line").
    pub fn name(self) -> &'static str {
        match self {
            Format::Ggf => "GGF",
            Format::Transcript => "a transcript",
            Format::OkapiJson => "Okapi JSON",
        }
    }

    /// Does the file name say Okapi JSON in so many words (`.json`, in any case)? Unlike
    /// [`Format::of_path`], a name without an ending is not taken as JSON.
    pub fn is_json(path: &Path) -> bool {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    }

    /// The format a file name asks for: `.ggf`, `.txt`/`.trn` transcripts, anything else
    /// Okapi JSON.
    pub fn of_path(path: &Path) -> Format {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        match ext.as_str() {
            "ggf" => Format::Ggf,
            "txt" | "trn" => Format::Transcript,
            _ => Format::OkapiJson,
        }
    }
}

/// What a reader left out of a file it read, and why: the file is read, but not all of
/// it, and the player is told (the app beside the file's name, the command line on
/// stderr).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadWarning {
    /// Proven values (a move's, a best move's, a solve's line) that the game's own moves
    /// refute: a damaged or hostile file. Left out, so no view shows a false proof; the
    /// engine proves anew.
    #[error(
        "{count} proven value{} contradict{} the game's end and {} not read",
        if *count == 1 { "" } else { "s" },
        if *count == 1 { "s" } else { "" },
        if *count == 1 { "was" } else { "were" }
    )]
    RefutedProofs {
        /// How many were left out.
        count: usize,
    },
}

impl ReadWarning {
    /// The warning for `count` refuted proofs left out: none for none.
    pub fn refuted_proofs(count: usize) -> Vec<ReadWarning> {
        (count > 0)
            .then_some(ReadWarning::RefutedProofs { count })
            .into_iter()
            .collect()
    }
}

/// Why a game file was not read.
#[derive(Debug, thiserror::Error)]
pub enum GameFileError {
    /// The file could not be read (see [`ReadError`]).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file holds nothing but blanks.
    #[error("the file is empty")]
    Empty,
    /// It starts with `{` but is not a game in Okapi's JSON.
    #[error(transparent)]
    Json(#[from] okapi_json::JsonError),
    /// It holds `(;` but is not a GGF game.
    #[error(transparent)]
    Ggf(#[from] ggf::GgfError),
    /// It holds moves (`f5`), but they do not play as a transcript.
    #[error("as a transcript: {0}")]
    Transcript(#[from] transcript::TranscriptError),
    /// It looks like a board string (mostly square characters), but is not one.
    #[error("as a board string: {0}")]
    Board(#[from] board_text::BoardTextError),
    /// Nothing in it looks like a game or a board: prose, or another format.
    #[error(
        "it is none of: a transcript (f5d6c3...), a board string (64 squares and the side to move), a GGF game, an Okapi JSON game"
    )]
    Unrecognised,
}

/// What a text holds, told by its content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Okapi's JSON game (starts with `{`).
    OkapiJson,
    /// A GGF game (holds `(;`).
    Ggf,
    /// A board string ([`board_text`]).
    Board,
    /// A transcript of moves ([`transcript`]).
    Transcript,
}

impl Kind {
    /// The kind's name in messages ("Pasted a board string.").
    pub fn name(self) -> &'static str {
        match self {
            Kind::OkapiJson => "an Okapi JSON game",
            Kind::Ggf => "a GGF game",
            Kind::Board => "a board string",
            Kind::Transcript => "a transcript",
        }
    }
}

/// Tells what a text holds: JSON starts with `{`, GGF holds `(;`, a board string is
/// mostly square characters, a transcript holds a move (`f5`, `F5`) or a pass (`--`, `PA`).
/// None for an empty text or prose.
pub fn detect(text: &str) -> Option<Kind> {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.is_empty() {
        None
    } else if t.starts_with('{') {
        Some(Kind::OkapiJson)
    } else if t.contains("(;") {
        Some(Kind::Ggf)
    } else if board_text::looks_like_board(t) {
        Some(Kind::Board)
    } else if has_move(t) {
        Some(Kind::Transcript)
    } else {
        None
    }
}

/// Does the text hold a square name (`f5`) or a pass (`--`, `pa`, `ps`)?
fn has_move(t: &str) -> bool {
    let b = t.as_bytes();
    b.windows(2).any(|w| {
        let (c, r) = (w[0].to_ascii_lowercase(), w[1].to_ascii_lowercase());
        matches!(
            (c, r),
            (b'a'..=b'h', b'1'..=b'8') | (b'-', b'-') | (b'p', b'a') | (b'p', b's')
        )
    })
}

/// What [`read_any`] read: a game, or a position to start from.
#[derive(Clone, Debug)]
pub enum Contents {
    /// A game, and the format it was in. Boxed: a game is 265 bytes, a position 32
    /// (clippy's large_enum_variant).
    Game(Box<Game>, Kind),
    /// A position to start from.
    Board(Position),
}

impl Contents {
    /// What was read as a game (a board is a game with no moves yet).
    pub fn into_game(self) -> Game {
        match self {
            Contents::Game(game, _) => *game,
            Contents::Board(position) => Game::new(position),
        }
    }

    /// What the text was.
    pub fn kind(&self) -> Kind {
        match self {
            Contents::Game(_, kind) => *kind,
            Contents::Board(_) => Kind::Board,
        }
    }
}

/// The one entry point for a game or position of unknown format (a file, the clipboard):
/// tells the format ([`detect`]) and reads it with that format's reader; an error says
/// what the text looked like and what is wrong with it.
pub fn read_any(text: &str) -> Result<Contents, GameFileError> {
    read_any_warned(text).map(|(contents, _)| contents)
}

/// [`read_any`], with what the reader left out ([`ReadWarning`]). Only Okapi JSON holds
/// proofs: GGF's values are a program's estimates, kept as written.
pub fn read_any_warned(text: &str) -> Result<(Contents, Vec<ReadWarning>), GameFileError> {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.is_empty() {
        return Err(GameFileError::Empty);
    }
    Ok(match detect(t).ok_or(GameFileError::Unrecognised)? {
        Kind::OkapiJson => {
            let (game, _, warnings) = okapi_json::read_warned(t)?;
            (Contents::Game(Box::new(game), Kind::OkapiJson), warnings)
        }
        Kind::Ggf => (Contents::Game(Box::new(ggf::read(t)?), Kind::Ggf), vec![]),
        Kind::Transcript => (
            Contents::Game(Box::new(transcript::read(t)?), Kind::Transcript),
            vec![],
        ),
        Kind::Board => (Contents::Board(board_text::read(t)?), vec![]),
    })
}

/// Reads a game or a position (a game from it), telling the format by its content
/// ([`read_any`]).
pub fn read_game(text: &str) -> Result<Game, GameFileError> {
    read_any(text).map(Contents::into_game)
}

/// Reads a game or board file (at most [`MAX_GAME_FILE`]); see [`read_any`]. A FIFO or
/// a socket is refused unread ([`check_not_a_pipe`]).
pub fn load_any(path: &Path) -> Result<Contents, GameFileError> {
    load_any_warned(path).map(|(contents, _)| contents)
}

/// [`load_any`], with what the reader left out ([`ReadWarning`]).
pub fn load_any_warned(path: &Path) -> Result<(Contents, Vec<ReadWarning>), GameFileError> {
    check_not_a_pipe(path)?;
    let bytes = read_capped(path, MAX_GAME_FILE)?;
    read_any_warned(&String::from_utf8_lossy(&bytes))
}

/// Reads a game file, or a board file as a game from that position; see [`read_any`].
pub fn load_game(path: &Path) -> Result<Game, GameFileError> {
    load_any(path).map(Contents::into_game)
}

/// [`load_game`], with what the reader left out ([`ReadWarning`]).
pub fn load_game_warned(path: &Path) -> Result<(Game, Vec<ReadWarning>), GameFileError> {
    load_any_warned(path).map(|(contents, warnings)| (contents.into_game(), warnings))
}

/// Reads the app's autosave of the game in progress (Okapi JSON, at most
/// [`MAX_GAME_FILE`]) with where the game is saved.
pub fn load_game_in_progress(path: &Path) -> Result<(Game, okapi_json::SavedState), GameFileError> {
    check_not_a_pipe(path)?;
    let bytes = read_capped(path, MAX_GAME_FILE)?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(GameFileError::Empty);
    }
    Ok(okapi_json::read_with_state(text)?)
}

/// Writes the app's autosave of the game in progress with where the game is saved.
pub fn save_game_in_progress(
    game: &Game,
    state: &okapi_json::SavedState,
    path: &Path,
) -> std::io::Result<()> {
    let text = with_line_ends(&okapi_json::write_with_state(game, state), LINE_END);
    write_atomic(path, text.as_bytes())
}

/// The game as a file of `format`. A one-line format writes the current line (the line
/// on screen, which after Undo and a new move is the game played), not the main line.
pub fn write_game(game: &Game, format: Format) -> String {
    match format {
        Format::OkapiJson => okapi_json::write(game),
        Format::Ggf => ggf::write(&game.with_current_line_as_main()) + "\n",
        Format::Transcript => transcript::write(game) + "\n",
    }
}

/// The line end of the text files Okapi writes for people and their other programs (saved
/// games, a script's results): CRLF on Windows, as scrZebra and Notepad write there, LF
/// elsewhere. Every reader takes both, on every platform.
pub const LINE_END: &str = if cfg!(windows) { "\r\n" } else { "\n" };

/// `text` with its line ends as `end`: each LF not already after a CR becomes `end`
/// (`"\r\n"` or `"\n"`; a CRLF stays as it is when `end` is CRLF, and loses its CR when
/// it is LF).
pub fn with_line_ends(text: &str, end: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32);
    let mut rest = text;
    while let Some(i) = rest.find('\n') {
        let line = &rest[..i];
        out.push_str(line.strip_suffix('\r').unwrap_or(line));
        out.push_str(end);
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    out
}

/// Writes the game atomically in the format its file name asks for ([`Format::of_path`]).
/// A game from a set-up position is refused as a transcript: a transcript holds moves
/// from the standard start only, so the file would not open again (or open as another
/// game).
pub fn save_game(game: &Game, path: &Path) -> std::io::Result<()> {
    let format = Format::of_path(path);
    if format == Format::Transcript && game.start() != crate::board::Position::start() {
        return Err(std::io::Error::other(
            "a transcript holds moves from the standard start only; save a game from a set-up position as .ggf or .json",
        ));
    }
    let text = with_line_ends(&write_game(game, format), LINE_END);
    write_atomic(path, text.as_bytes())
}

/// Are `a` and `b` the same file: the same device and inode (a hard link or another name
/// of it counts), or, where that is not known, the same canonical path? A missing file
/// is nobody's twin. Writers refuse an output that is one of their inputs: it would be
/// truncated before it is read.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    }
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, then renames it over
/// `path`: a crash leaves the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file written in steps that takes the place of `path` only when it is complete
/// ([`AtomicFile::commit`]): it is written to a temporary file beside `path`
/// (`.NAME.PID.tmp`), synced, then renamed over it. Until then `path` is as it was: a run
/// killed half-way (or failing on a full disk) leaves the previous complete file, and
/// what it had written is in the temporary file (a failure, noticed, removes it).
///
/// A symbolic link is kept: the file it points to is the one replaced. A `path` that is
/// no regular file (a device such as `/dev/null` or `/dev/full`, a FIFO, `/dev/stdout`)
/// is written in place, never replaced; a FIFO no program reads is refused at once
/// rather than waited on.
///
/// The one way Okapi writes a file: saved games, settings, the databases and books, and
/// a script's results.
pub struct AtomicFile {
    /// The file replaced (the link's target when `path` is a symbolic link).
    path: PathBuf,
    /// The temporary file; `None` when `path` is written in place (no regular file).
    tmp: Option<PathBuf>,
    file: Option<std::fs::File>,
}

/// What a chain of symbolic links at `path` ends on (`path` itself when it is no link); a
/// link to a missing file ends on the name the file will have.
pub fn link_target(path: &Path) -> PathBuf {
    let mut at = path.to_path_buf();
    // As many links as the system follows itself.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&at) {
                Ok(target) => {
                    at = match at.parent() {
                        Some(dir) if target.is_relative() => dir.join(target),
                        _ => target,
                    }
                }
                Err(_) => break,
            },
            _ => break,
        }
    }
    at
}

/// Is `path` there and neither a regular file nor a folder (a device, a FIFO, a socket),
/// links followed?
pub fn is_special_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Refuses a FIFO or a socket where a file of Okapi's is read (a game, the settings, the
/// autosave): opening one waits for a writer, and what comes through is no file.
pub fn check_not_a_pipe(path: &Path) -> Result<(), ReadError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if let Ok(m) = std::fs::metadata(path)
            && (m.file_type().is_fifo() || m.file_type().is_socket())
        {
            return Err(ReadError::Io {
                path: path.into(),
                reason: std::io::Error::other("not a regular file (a FIFO or a socket)"),
            });
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Opens `path` for reading, or for writing in place, without waiting on a FIFO: one
/// with no writer reads as empty; one with no reader is refused for writing (opening it
/// plainly would wait for the other end for ever).
fn open_without_waiting(path: &Path, write: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(!write).write(write);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path);
    #[cfg(unix)]
    let file = file.map_err(|e| {
        if write && e.raw_os_error() == Some(libc::ENXIO) {
            std::io::Error::other(format!(
                "{} is a FIFO that no program is reading",
                path.display()
            ))
        } else {
            e
        }
    });
    let file = file?;
    #[cfg(unix)]
    {
        // Reads and writes wait again as they should (a pipe with nothing yet, or full,
        // is not an error).
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function owns, with flags it read.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
    }
    Ok(file)
}

impl AtomicFile {
    /// Creates the temporary file beside `path` (beside the file a link points to), or
    /// opens `path` in place when it is no regular file.
    pub fn create(path: &Path) -> std::io::Result<AtomicFile> {
        let path = link_target(path);
        if is_special_file(&path) {
            let file = open_without_waiting(&path, true)?;
            return Ok(AtomicFile {
                path,
                tmp: None,
                file: Some(file),
            });
        }
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .ok_or_else(|| std::io::Error::other("the path names no file"))?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = dir.join(tmp_name);
        let file = std::fs::File::create(&tmp)?;
        Ok(AtomicFile {
            path,
            tmp: Some(tmp),
            file: Some(file),
        })
    }

    /// The file being written: the temporary file, or the file itself when it is written
    /// in place.
    pub fn temporary_path(&self) -> &Path {
        self.tmp.as_deref().unwrap_or(&self.path)
    }

    /// The open temporary file (to cut back a line that failed half-way, say).
    pub fn file(&mut self) -> &mut std::fs::File {
        self.file.as_mut().expect("open until committed")
    }

    /// Syncs the file and puts it in the place of `path`.
    pub fn commit(mut self) -> std::io::Result<()> {
        let file = self.file.take().expect("open until committed");
        let Some(tmp) = self.tmp.take() else {
            // Written in place: a device has nothing to sync or rename.
            return Ok(());
        };
        let result = file.sync_all().and_then(|()| {
            drop(file);
            std::fs::rename(&tmp, &self.path)
        });
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file().flush()
    }
}

impl Drop for AtomicFile {
    /// Not committed (an error on the way): the temporary file goes, `path` stays.
    fn drop(&mut self) {
        if self.file.take().is_some()
            && let Some(tmp) = &self.tmp
        {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_warning_says_how_many_were_left_out() {
        use super::ReadWarning;
        assert_eq!(ReadWarning::refuted_proofs(0), []);
        let said = |count| ReadWarning::refuted_proofs(count)[0].to_string();
        assert_eq!(
            said(1),
            "1 proven value contradicts the game's end and was not read"
        );
        assert_eq!(
            said(3),
            "3 proven values contradict the game's end and were not read"
        );
    }

    #[test]
    fn a_format_is_named_and_json_is_told_by_its_ending() {
        use super::Format;
        use std::path::Path;
        assert_eq!(Format::Ggf.name(), "GGF");
        assert_eq!(Format::Transcript.name(), "a transcript");
        assert_eq!(Format::OkapiJson.name(), "Okapi JSON");
        assert!(Format::is_json(Path::new("games/a.JSON")));
        assert!(Format::is_json(Path::new("a.json")));
        assert!(!Format::is_json(Path::new("a")), "no ending is not JSON");
        assert!(!Format::is_json(Path::new("a.ggf")));
        assert_eq!(Format::of_path(Path::new("a")), Format::OkapiJson);
    }

    #[test]
    fn text_files_get_the_platform_line_end() {
        assert_eq!(with_line_ends("a\nb\n", "\r\n"), "a\r\nb\r\n");
        assert_eq!(with_line_ends("a\r\nb\nc", "\r\n"), "a\r\nb\r\nc");
        assert_eq!(with_line_ends("a\r\nb\r\n", "\n"), "a\nb\n");
        assert_eq!(with_line_ends("", "\r\n"), "");
        assert_eq!(with_line_ends("no end", "\r\n"), "no end");
        assert_eq!(LINE_END, if cfg!(windows) { "\r\n" } else { "\n" });
    }

    use super::*;
    use crate::board::Move;

    #[test]
    fn text_positions() {
        let t = "ab\ncdé\nf";
        assert_eq!(TextPos::of(t, 0), TextPos { line: 1, column: 1 });
        assert_eq!(TextPos::of(t, 3), TextPos { line: 2, column: 1 });
        assert_eq!(TextPos::of(t, 7), TextPos { line: 2, column: 4 });
        assert_eq!(TextPos::of(t, 6), TextPos { line: 2, column: 3 });
        assert_eq!(TextPos::of(t, 99), TextPos { line: 3, column: 2 });
        assert_eq!(TextPos::of(t, 3).to_string(), "line 2, column 1");
    }

    #[test]
    fn hard_links_and_other_names_are_the_same_file() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b, c) = (
            tmp.path().join("a"),
            tmp.path().join("b"),
            tmp.path().join("c"),
        );
        std::fs::write(&a, "x").unwrap();
        std::fs::write(&c, "x").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        assert!(same_file(&a, &b));
        assert!(same_file(&a, &tmp.path().join(".").join("a")));
        assert!(!same_file(&a, &c));
        assert!(!same_file(&a, &tmp.path().join("missing")));
    }

    #[test]
    fn endless_files_are_refused_quickly() {
        let start = std::time::Instant::now();
        let err = load_game(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(err.contains("file too large (over 16 MB)"), "{err}");
        assert!(start.elapsed().as_secs() < 5);
        let err = read_capped(Path::new("/nonexistent/x"), 10).unwrap_err();
        assert!(err.to_string().contains("cannot read"), "{err}");
    }

    /// A symbolic link (a settings file kept in a dotfiles folder) stays a link: the file
    /// it points to is replaced, the link is not.
    #[cfg(unix)]
    #[test]
    fn an_atomic_write_keeps_a_symbolic_link() {
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real").join("settings.json");
        std::fs::create_dir(real.parent().unwrap()).unwrap();
        std::fs::write(&real, "old").unwrap();
        let link = tmp.path().join("settings.json");
        std::os::unix::fs::symlink("real/settings.json", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        // A link to a file not there yet makes the file where it points.
        let dangling = tmp.path().join("later.json");
        std::os::unix::fs::symlink("real/later.json", &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert!(
            std::fs::symlink_metadata(&dangling)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(tmp.path().join("real/later.json")).unwrap(),
            "made"
        );
    }

    /// A device or a FIFO named as the output is written in place, never replaced by a
    /// plain file (as root that turned `/dev/full` into one), and a FIFO nobody reads is
    /// refused at once.
    #[cfg(unix)]
    #[test]
    fn an_atomic_write_writes_through_devices_and_fifos() {
        use std::os::unix::fs::FileTypeExt;
        write_atomic(Path::new("/dev/null"), b"gone").unwrap();
        assert!(
            std::fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        let err = write_atomic(Path::new("/dev/full"), b"x").unwrap_err();
        assert_eq!(err.raw_os_error(), Some(libc::ENOSPC), "{err}");
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("out");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo on a path in a fresh folder.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let start = std::time::Instant::now();
        let err = write_atomic(&fifo, b"x").unwrap_err().to_string();
        assert!(err.contains("no program is reading"), "{err}");
        assert!(start.elapsed().as_secs() < 5);
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        // The reader opens the FIFO when its thread runs: try until it has.
        let mut tries = 0;
        while let Err(e) = write_atomic(&fifo, b"through") {
            tries += 1;
            assert!(tries < 500, "{e}");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(reader.join().unwrap(), "through");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn games_are_told_by_content_and_saved_atomically() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let g = transcript::read("f5d6c3d3c4f4f6").unwrap();
        for name in ["g.okapi.json", "g.ggf", "g.txt"] {
            let p = dir.join(name);
            save_game(&g, &p).unwrap();
            let back = load_game(&p).unwrap();
            assert_eq!(back.moves(), g.moves(), "{name}");
        }
        let leftovers: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
        assert!(matches!(read_game("  \n"), Err(GameFileError::Empty)));
        // A set-up game is refused as a transcript (it would not open again), not as GGF.
        let setup =
            Game::new(crate::board::Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap());
        let err = save_game(&setup, &dir.join("s.txt"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("standard start only"), "{err}");
        assert!(!dir.join("s.txt").exists());
        save_game(&setup, &dir.join("s.ggf")).unwrap();
        assert_eq!(
            load_game(&dir.join("s.ggf")).unwrap().start(),
            setup.start()
        );
        assert_eq!(
            read_game("\u{feff}f5").unwrap().moves(),
            vec![Move::parse("f5").unwrap()]
        );
    }

    #[test]
    fn any_text_is_told_apart_and_read_with_its_reader() {
        let g = transcript::read("f5d6c3").unwrap();
        let p = g.position();
        let cases: Vec<(String, Kind)> = vec![
            ("f5d6c3".into(), Kind::Transcript),
            ("F5 D6 C3".into(), Kind::Transcript),
            ("1. f5 d6 2. c3".into(), Kind::Transcript),
            ("1.f5 2.d6 3.c3\n".into(), Kind::Transcript),
            (write_game(&g, Format::Ggf), Kind::Ggf),
            (write_game(&g, Format::OkapiJson), Kind::OkapiJson),
            (p.to_board_string(), Kind::Board),
            (p.to_string(), Kind::Board),
        ];
        for (text, kind) in cases {
            assert_eq!(detect(&text), Some(kind), "{text}");
            let read = read_any(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(read.kind(), kind);
            assert_eq!(read.into_game().position(), p, "{text}");
        }
        // Prose and nothing are refused plainly; a wrong board says what is wrong.
        for prose in ["hello", "Dear all, see you at the club"] {
            let e = read_any(prose).unwrap_err();
            assert!(matches!(e, GameFileError::Unrecognised), "{prose}: {e}");
            assert!(
                e.to_string().starts_with("it is none of: a transcript"),
                "{e}"
            );
        }
        assert!(matches!(read_any(" \n"), Err(GameFileError::Empty)));
        let e = read_any(&format!("{} X", "-".repeat(68))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "as a board string: a board has 64 squares, this has 68"
        );
        let e = read_any("f5 d6 a1").unwrap_err();
        assert!(e.to_string().starts_with("as a transcript: move 3"), "{e}");
    }

    #[test]
    fn a_board_file_opens_as_a_game_from_that_position() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("board.txt");
        let p = transcript::read("f5d6c3d3").unwrap().position();
        std::fs::write(&path, format!("{}\n", p.to_board_string())).unwrap();
        let g = load_game(&path).unwrap();
        assert_eq!((g.start(), g.len()), (p, 0));
        assert!(matches!(load_any(&path).unwrap(), Contents::Board(q) if q == p));
    }
}
