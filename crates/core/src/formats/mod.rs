//! File formats, one module per format, each with one reader and one writer:
//!
//! | format | module | reader | writer |
//! |---|---|---|---|
//! | Okapi game JSON (version 2: the move tree; reads version 1) | [`okapi_json`] | [`okapi_json::read`] | [`okapi_json::write`] |
//! | GGF (GGS / NBoard games) | [`ggf`] | [`ggf::read`] | [`ggf::write`] |
//! | transcripts (`f5d6c3`, `1. f5 d6`) | [`transcript`] | [`transcript::read`] | [`transcript::write`] |
//! | board strings (64 squares and the side) | `board::Position` | [`Position::parse`](crate::board::Position::parse) | [`Position::to_board_string`](crate::board::Position::to_board_string) |
//! | scrZebra endgame scripts | [`script`] | [`script::parse_script`] | [`script::format_result`] |
//! | Edax OBF test files | [`obf`] | [`obf::parse_file`] | — |
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
//! Game files are told apart by content ([`read_game`]): JSON starts with `{`, GGF holds
//! `(;`, anything else is a transcript.

pub mod ggf;
pub mod obf;
pub mod okapi_json;
pub mod records;
pub mod script;
pub mod transcript;

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

/// Reading a user's file failed.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
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
/// `/dev/zero`) is refused after reading just past the limit.
pub fn read_capped(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.into(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    read_capped_from(file, limit).map_err(|e| match e {
        CapError::Io(source) => io(source),
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
    /// Anything else is read as a transcript, and this one is not.
    #[error(transparent)]
    Transcript(#[from] transcript::TranscriptError),
}

/// Reads a game, telling the format by its content: JSON (`{`), GGF (`(;`) or a
/// transcript.
pub fn read_game(text: &str) -> Result<Game, GameFileError> {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.is_empty() {
        return Err(GameFileError::Empty);
    }
    Ok(if t.starts_with('{') {
        okapi_json::read(t)?
    } else if t.contains("(;") {
        ggf::read(t)?
    } else {
        transcript::read(t)?
    })
}

/// Reads a game file (at most [`MAX_GAME_FILE`]); see [`read_game`].
pub fn load_game(path: &Path) -> Result<Game, GameFileError> {
    let bytes = read_capped(path, MAX_GAME_FILE)?;
    read_game(&String::from_utf8_lossy(&bytes))
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
    write_atomic(path, write_game(game, format).as_bytes())
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
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
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
}
