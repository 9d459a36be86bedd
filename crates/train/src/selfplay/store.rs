//! The store: a self-play store's records ([`SelfPlayGame::encode`]), reading a store
//! or part file, and appending games to a store as they are played.

use super::{EXACT, Label, MAGIC, PASS, SelfPlayGame, SelfPlayOptions, play_game};
use anyhow::{Context, Result, bail, ensure};
use okapi_core::binary::check_header;
use okapi_core::board::{Board, Move, Square};
use okapi_core::eval::{Evaluator, SCALE};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

impl SelfPlayGame {
    /// Appends the record (length prefix included) to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let n = self.moves.len();
        assert!(
            n <= 255 && self.labels.len() == n,
            "a game has at most 255 moves"
        );
        let len = 8 + 4 + 16 + 1 + 1 + 4 * n;
        out.extend_from_slice(&(len as u16).to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend_from_slice(&self.index.to_le_bytes());
        out.extend_from_slice(&self.start.player.to_le_bytes());
        out.extend_from_slice(&self.start.opponent.to_le_bytes());
        out.push(self.black_to_move as u8);
        out.push(n as u8);
        out.extend(self.moves.iter().map(|m| match m {
            Move::Play(sq) => sq.index() as u8,
            Move::Pass => PASS,
        }));
        for l in &self.labels {
            out.extend_from_slice(&l.value.to_le_bytes());
            out.push(l.depth);
        }
    }

    /// Decodes the record at the start of `bytes`: the game and the bytes it took;
    /// `Ok(None)` if `bytes` ends inside the record.
    fn decode(bytes: &[u8]) -> Result<Option<(SelfPlayGame, usize)>> {
        if bytes.len() < 2 {
            return Ok(None);
        }
        let len = u16::from_le_bytes([bytes[0], bytes[1]]) as usize;
        let Some(r) = bytes.get(2..2 + len) else {
            return Ok(None);
        };
        ensure!(len >= 30, "record of {len} bytes is too short");
        let u64_at = |i: usize| u64::from_le_bytes(r[i..i + 8].try_into().unwrap());
        let n = r[29] as usize;
        ensure!(
            len == 30 + 4 * n,
            "record length {len} does not fit {n} moves"
        );
        let mut moves = Vec::with_capacity(n);
        for &m in &r[30..30 + n] {
            moves.push(match m {
                PASS => Move::Pass,
                0..=63 => Move::Play(Square::new(m as u32)),
                _ => bail!("move byte {m} is no square"),
            });
        }
        let labels = r[30 + n..]
            .chunks_exact(3)
            .map(|c| Label {
                value: i16::from_le_bytes([c[0], c[1]]),
                depth: c[2],
            })
            .collect();
        let (player, opponent) = (u64_at(12), u64_at(20));
        ensure!(player & opponent == 0, "start position has a square twice");
        let game = SelfPlayGame {
            seed: u64_at(0),
            index: u32::from_le_bytes(r[8..12].try_into().unwrap()),
            start: Board::new(player, opponent),
            black_to_move: r[28] != 0,
            moves,
            labels,
        };
        Ok(Some((game, 2 + len)))
    }
}

/// The games of a store (an empty list if it does not exist). A damaged or cut-short
/// store is an error.
pub fn read_games(path: &Path) -> Result<Vec<SelfPlayGame>> {
    let bytes = read_store(path)?;
    let (games, whole) = parse(&bytes).with_context(|| path.display().to_string())?;
    ensure!(
        whole == bytes.len(),
        "{}: the last record is cut short at byte {whole} of {}",
        path.display(),
        bytes.len()
    );
    Ok(games)
}

/// The games of a store's bytes and how many bytes the whole records take.
pub(super) fn parse(bytes: &[u8]) -> Result<(Vec<SelfPlayGame>, usize)> {
    if bytes.is_empty() {
        return Ok((Vec::new(), 0));
    }
    check_header(bytes, MAGIC, None, MAGIC.len(), "a self-play store")?;
    read_records(bytes, MAGIC.len())
}

/// The games of the records from byte `at` of a store's or part's bytes, and how many
/// bytes the whole records take (a record cut short at the end is left out; any other
/// damage is an error, see [`check_tail`]).
pub(super) fn read_records(bytes: &[u8], mut at: usize) -> Result<(Vec<SelfPlayGame>, usize)> {
    let mut games = Vec::new();
    while at < bytes.len() {
        match SelfPlayGame::decode(&bytes[at..]).with_context(|| format!("record at byte {at}"))? {
            Some((g, used)) => {
                games.push(g);
                at += used;
            }
            None => break,
        }
    }
    check_tail(&bytes[at..], at, games.len())?;
    Ok((games, at))
}

/// The longest record: 30 bytes of game, 4 a move (a move byte and a 3-byte label), at
/// most 255 moves (the count is a byte).
const MAX_RECORD: usize = 2 + 30 + 4 * 255;

/// What follows the whole records must be the start of one record cut short (a run
/// killed while writing it): shorter than its stated length, a length a record can have,
/// and its move count agreeing when it got that far. Anything else is damage inside the
/// store, and dropping it would drop every game after it (one corrupted length lost 5 of
/// 6 games), so it is refused.
fn check_tail(tail: &[u8], at: usize, games: usize) -> Result<()> {
    if tail.len() < 2 {
        return Ok(());
    }
    let len = u16::from_le_bytes([tail[0], tail[1]]) as usize;
    let plausible = len >= 30
        && (len - 30).is_multiple_of(4)
        && 2 + len <= MAX_RECORD
        && tail.len() < 2 + len
        && tail.get(2 + 29).is_none_or(|&n| len == 30 + 4 * n as usize);
    ensure!(
        plausible,
        "damaged after game {games}: the record at byte {at} states a length of {len} bytes, which {} bytes of store do not fit as one record cut short; nothing was changed (copy the store aside and cut it at byte {at} to keep the first {games} games)",
        tail.len()
    );
    Ok(())
}

/// The most bytes a store or part may hold: about 16 million games.
pub const MAX_STORE: u64 = 4 << 30;

/// A store's or part's bytes (none if it does not exist). A device or other special file
/// is refused before reading (`/dev/zero` would never end), and so is a file over
/// [`MAX_STORE`].
pub(super) fn read_store(path: &Path) -> Result<Vec<u8>> {
    read_data_file(path, MAX_STORE, "a store is a file games are appended to")
}

/// The bytes of a data file the training keeps and grows (stores, caches), none if it
/// does not exist yet. A device or other special file is refused before it is read, with
/// `why` saying what the file should be, and so is a file over `limit` bytes.
pub fn read_data_file(path: &Path, limit: u64, why: &str) -> Result<Vec<u8>> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        Ok(m) if !m.is_file() => bail!("{} is not a regular file ({why})", path.display()),
        Ok(_) => {}
    }
    Ok(okapi_core::formats::read_capped(path, limit)?)
}

/// A labelled training position from a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlaySample {
    pub board: Board,
    pub label: Label,
}

/// Every position of every game of a store with its label, the end of each game (its
/// final score, exact) included.
pub fn read_samples(path: &Path) -> Result<Vec<SelfPlaySample>> {
    let mut out = Vec::new();
    for g in read_games(path)? {
        let positions = g.positions().with_context(|| {
            format!(
                "{}: game {} of seed {} has an illegal move",
                path.display(),
                g.index,
                g.seed
            )
        })?;
        let mut last = g.start;
        for (board, label) in positions {
            out.push(SelfPlaySample { board, label });
            last = board;
        }
        if let Some(mv) = g.moves.last() {
            let end = match mv {
                Move::Pass => last.passed(),
                Move::Play(sq) => last.play(sq.index()).expect("checked by positions()"),
            };
            out.push(SelfPlaySample {
                board: end,
                label: Label {
                    value: (end.final_score() * SCALE) as i16,
                    depth: EXACT,
                },
            });
        }
    }
    Ok(out)
}

/// Plays `options.games` games, indices following those of `options.seed` already in
/// the store, and appends each to the store as soon as it is over (a killed run keeps
/// its finished games; a record it cut short is dropped on the next call). Returns the
/// number of games in the store.
pub fn append(
    path: &Path,
    eval: &Arc<Evaluator>,
    options: &SelfPlayOptions,
    progress: &mut dyn FnMut(&SelfPlayGame),
) -> Result<usize> {
    let bytes = read_store(path)?;
    let (games, whole) = parse(&bytes).with_context(|| path.display().to_string())?;
    // Drop a cut-short last record; write the header of a new store.
    let keep = if bytes.is_empty() { 0 } else { whole };
    let mut file = open_to_append(path, keep)?;
    if keep == 0 {
        file.write_all(MAGIC)?;
    }
    let first = next_index(&games, options.seed);
    play_into(
        &mut file,
        eval,
        options,
        first..first + options.games,
        progress,
    )?;
    Ok(games.len() + options.games as usize)
}

/// Plays the games `indices` of `options.seed` and appends each to `file` as soon as it
/// is over (flushed, so a killed run keeps its finished games), then syncs the file.
pub(super) fn play_into(
    file: &mut std::fs::File,
    eval: &Arc<Evaluator>,
    options: &SelfPlayOptions,
    indices: impl IntoIterator<Item = u32>,
    progress: &mut dyn FnMut(&SelfPlayGame),
) -> Result<()> {
    for index in indices {
        let game = play_game(eval, options, index);
        let mut record = Vec::new();
        game.encode(&mut record);
        file.write_all(&record)?;
        file.flush()?;
        progress(&game);
    }
    file.sync_all()?;
    Ok(())
}

/// The index the next game of `seed` gets in a store holding `games`: one past the
/// highest there, 0 if there is none.
pub fn next_index(games: &[SelfPlayGame], seed: u64) -> u32 {
    games
        .iter()
        .filter(|g| g.seed == seed)
        .map(|g| g.index + 1)
        .max()
        .unwrap_or(0)
}

/// Opens `path` (creating it and its folder) to append after its first `keep` bytes: what
/// lies beyond them, a record cut short by a killed run, is dropped.
pub(super) fn open_to_append(path: &Path, keep: usize) -> Result<std::fs::File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.set_len(keep as u64)?;
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0))?;
    Ok(file)
}
