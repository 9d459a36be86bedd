//! Self-play training data: games Okapi plays against itself from random openings, each
//! position labelled by Okapi's own search, kept in an append-only store that grows in
//! resumable chunks (`okapi train selfplay`; the fitter reads it with
//! [`read_samples`] alongside WTHOR).
//!
//! A game: `random_plies` (drawn in `options.random_plies`) uniformly random moves from
//! the start, then moves chosen by a fixed-depth search with a little temperature (each
//! move's depth-`d` value, a move drawn with weight `exp((value - best) / temperature)`),
//! and perfect play from `exact_empties` empties on. Every position before the end is
//! labelled by the value of a search from it: the depth-`d` value, or the exact final
//! disc difference once `exact_empties` or fewer squares are empty. Game `i` of seed `s`
//! depends only on `(s, i)` and the options: the same call writes the same bytes.
//!
//! # Store format (little-endian)
//!
//! The 8-byte magic `OKAPISP1`, then one record per game:
//!
//! | bytes | field |
//! |---|---|
//! | 2 | length of the rest of the record |
//! | 8 | seed |
//! | 4 | game index under that seed |
//! | 8, 8 | start position: the side to move's discs, the other side's discs |
//! | 1 | 1 if Black is to move at the start, else 0 |
//! | 1 | `n`, the number of moves (passes included) |
//! | `n` | the moves: square 0..63 (a1 = 0, b1 = 1, …, h8 = 63) or 64 for a pass |
//! | `3n` | the label of the position before each move: value (i16, 1/128 disc, side to move's view), then the search depth (255 = exact) |
//!
//! The position after the last move is the end of the game (its value is its final
//! score). A record cut short (a run killed while writing) is dropped when the store is
//! next appended to; the reader refuses it.
//!
//! # Shards
//!
//! A run of `games` games from index `first` can be split across machines: shard `k` of
//! `n` ([`append_shard`]) plays the games of the run whose index is `k` modulo `n` into a
//! *part* of its own, and [`merge_parts`] appends the games of all the parts, in game
//! order, to the store: the bytes the whole run writes there. A part is the magic
//! `OKAPISS1`, a header saying which run and shard it is (below), then records as in a
//! store:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | seed |
//! | 4, 4 | the run's first game index and number of games |
//! | 4, 4 | shard index (0-based), shard count |
//! | 4, 4 | random plies, fewest and most |
//! | 4, 4 | depth, exact empties |
//! | 8 | temperature (f64) |
//! | 4 | hash bits |

use anyhow::{Context, Result, bail, ensure};
use okapi_core::binary::check_header;
use okapi_core::board::{Board, Move, Square};
use okapi_core::eval::{Evaluator, SCALE};
use okapi_core::search::{Limits, MidgameSearch, SearchSource};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The first bytes of a store (the last one is the format version).
pub const MAGIC: &[u8; 8] = b"OKAPISP1";
/// The first bytes of a shard's part (the last one is the format version).
pub const PART_MAGIC: &[u8; 8] = b"OKAPISS1";
const PART_HEADER_LEN: usize = 8 + 8 + 4 * 4 + 4 * 4 + 8 + 4;
/// The depth byte of an exact label.
pub const EXACT: u8 = u8::MAX;
const PASS: u8 = 64;

/// How the games are played and labelled.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayOptions {
    pub seed: u64,
    /// Games to add.
    pub games: u32,
    /// Random moves at the start: a number drawn from this range, bounds included.
    pub random_plies: (u32, u32),
    /// Depth of the searches that choose the moves and label the positions.
    pub depth: u32,
    /// From this many empties on, labels are exact and play is perfect.
    pub exact_empties: u32,
    /// In discs: how much worse a move may be and still be played now and then.
    pub temperature: f64,
    /// Transposition table of about `16 << hash_bits` bytes (fresh for each game).
    pub hash_bits: u32,
}

impl Default for SelfPlayOptions {
    fn default() -> Self {
        SelfPlayOptions {
            seed: 1,
            games: 1,
            random_plies: (8, 20),
            depth: 8,
            exact_empties: 14,
            temperature: 1.0,
            hash_bits: 20,
        }
    }
}

/// A position's label: the value of a search from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    /// In 1/[`SCALE`] disc, from the side to move's view.
    pub value: i16,
    /// Depth of the search, or [`EXACT`].
    pub depth: u8,
}

impl Label {
    pub fn is_exact(&self) -> bool {
        self.depth == EXACT
    }
}

/// One stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayGame {
    pub seed: u64,
    pub index: u32,
    pub start: Board,
    pub black_to_move: bool,
    pub moves: Vec<Move>,
    /// The label of the position before each move.
    pub labels: Vec<Label>,
}

impl SelfPlayGame {
    /// The positions before each move with their labels (`None` if a stored move is
    /// illegal: the store is damaged).
    pub fn positions(&self) -> Option<Vec<(Board, Label)>> {
        let mut b = self.start;
        let mut out = Vec::with_capacity(self.moves.len());
        for (mv, label) in self.moves.iter().zip(&self.labels) {
            out.push((b, *label));
            b = match mv {
                Move::Pass if b.moves() == 0 && !b.is_game_over() => b.passed(),
                Move::Pass => return None,
                Move::Play(sq) => b.play(sq.index())?,
            };
        }
        Some(out)
    }

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

/// Plays game `index` of `options.seed`.
pub fn play_game(eval: &Arc<Evaluator>, options: &SelfPlayOptions, index: u32) -> SelfPlayGame {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    rng.set_stream(index as u64);
    let (lo, hi) = options.random_plies;
    let random_plies = rng.random_range(lo.min(hi)..=hi.max(lo));
    let mut search = MidgameSearch::new(eval, options.hash_bits, Arc::new(AtomicBool::new(false)));
    let start = Board::START;
    let mut b = start;
    let mut moves = Vec::new();
    let mut labels = Vec::new();
    let depth = options.depth.max(1);
    while !b.is_game_over() {
        let ply = moves.len() as u32;
        let legal = b.moves();
        let exact = b.empty_count() <= options.exact_empties;
        let (mv, value, label_depth) = if legal == 0 || exact || ply < random_plies {
            // The search's own move and value (a forced pass is searched after it).
            let limits = Limits {
                depth,
                exact_empties: options.exact_empties,
                wld_empties: options.exact_empties,
                time: None,
            };
            let r = search
                .best_move(b, limits, |_| {})
                .expect("nothing stops the search");
            let label_depth = match r.best.source {
                SearchSource::Exact => EXACT,
                SearchSource::Midgame { depth } => depth.min(254) as u8,
                SearchSource::Wld => unreachable!("win/draw/loss from the exact limit only"),
            };
            let mv = if legal != 0 && !exact {
                // Random opening move.
                let k = rng.random_range(0..legal.count_ones());
                let mut m = legal;
                for _ in 0..k {
                    m &= m - 1;
                }
                Move::Play(Square::new(m.trailing_zeros()))
            } else {
                r.best.mv
            };
            (mv, r.best.value, label_depth)
        } else {
            // Every move's depth-`d` value; one drawn with the temperature.
            let d = depth.min(b.empty_count() - 1);
            let mut values: Vec<(Move, i32)> = Vec::new();
            search
                .analyze_moves(b, Limits::depth(d), |m| {
                    if m.source == (SearchSource::Midgame { depth: d }) {
                        values.push((m.mv, m.value));
                    }
                })
                .expect("nothing stops the search");
            values.sort_by_key(|&(m, _)| match m {
                Move::Play(sq) => sq.index(),
                Move::Pass => 64,
            });
            let best = values.iter().map(|v| v.1).max().expect("a legal move");
            let t = options.temperature.max(1e-6) * SCALE as f64;
            let weights: Vec<f64> = values
                .iter()
                .map(|&(_, v)| ((v - best) as f64 / t).exp())
                .collect();
            let mut x = rng.random::<f64>() * weights.iter().sum::<f64>();
            let mut chosen = values[values.len() - 1].0;
            for (w, &(m, _)) in weights.iter().zip(&values) {
                if x < *w {
                    chosen = m;
                    break;
                }
                x -= w;
            }
            (chosen, best, d.min(254) as u8)
        };
        moves.push(mv);
        labels.push(Label {
            value: value.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: label_depth,
        });
        b = match mv {
            Move::Pass => b.passed(),
            Move::Play(sq) => b.play(sq.index()).expect("the search plays legal moves"),
        };
    }
    SelfPlayGame {
        seed: options.seed,
        index,
        start,
        black_to_move: true,
        moves,
        labels,
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
fn parse(bytes: &[u8]) -> Result<(Vec<SelfPlayGame>, usize)> {
    if bytes.is_empty() {
        return Ok((Vec::new(), 0));
    }
    check_header(bytes, MAGIC, None, MAGIC.len(), "a self-play store")?;
    let mut at = MAGIC.len();
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
fn read_store(path: &Path) -> Result<Vec<u8>> {
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
    let mut count = games.len();
    for index in first..first + options.games {
        let game = play_game(eval, options, index);
        let mut record = Vec::new();
        game.encode(&mut record);
        file.write_all(&record)?;
        file.flush()?;
        count += 1;
        progress(&game);
    }
    file.sync_all()?;
    Ok(count)
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

/// Which run a part belongs to and which share of it it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct PartHeader {
    /// The run's options: `games` counts the games of the whole run, all shards.
    pub options: SelfPlayOptions,
    /// Index of the run's first game.
    pub first: u32,
    /// 0-based.
    pub shard_index: u32,
    pub shard_count: u32,
}

impl PartHeader {
    /// The game indices of this shard's share, in order.
    pub fn share(&self) -> impl Iterator<Item = u32> + use<> {
        let (k, n) = (self.shard_index, self.shard_count.max(1));
        let end = self.first as u64 + self.options.games as u64;
        (self.first as u64..end)
            .filter(move |i| i % n as u64 == k as u64)
            .map(|i| i as u32)
    }

    fn shard_name(&self) -> String {
        format!("{}/{}", self.shard_index + 1, self.shard_count)
    }

    /// The run in words, for messages.
    fn describe(&self) -> String {
        let o = &self.options;
        format!(
            "shard {} of games {}..{} of seed {} (depth {}, exact from {}, {}-{} random plies, temperature {}, hash bits {})",
            self.shard_name(),
            self.first,
            self.first as u64 + o.games as u64,
            o.seed,
            o.depth,
            o.exact_empties,
            o.random_plies.0,
            o.random_plies.1,
            o.temperature,
            o.hash_bits
        )
    }

    fn to_bytes(&self) -> Vec<u8> {
        let o = &self.options;
        let mut h = Vec::with_capacity(PART_HEADER_LEN);
        h.extend_from_slice(PART_MAGIC);
        h.extend_from_slice(&o.seed.to_le_bytes());
        for x in [
            self.first,
            o.games,
            self.shard_index,
            self.shard_count,
            o.random_plies.0,
            o.random_plies.1,
            o.depth,
            o.exact_empties,
        ] {
            h.extend_from_slice(&x.to_le_bytes());
        }
        h.extend_from_slice(&o.temperature.to_bits().to_le_bytes());
        h.extend_from_slice(&o.hash_bits.to_le_bytes());
        debug_assert_eq!(h.len(), PART_HEADER_LEN);
        h
    }

    /// The header at the start of a part's bytes.
    fn parse(bytes: &[u8]) -> Result<PartHeader> {
        ensure!(
            !bytes.starts_with(MAGIC),
            "not a self-play shard part: it is a store"
        );
        check_header(
            bytes,
            PART_MAGIC,
            None,
            PART_HEADER_LEN,
            "a self-play shard part",
        )?;
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
        let header = PartHeader {
            options: SelfPlayOptions {
                seed: u64_at(8),
                games: u32_at(20),
                random_plies: (u32_at(32), u32_at(36)),
                depth: u32_at(40),
                exact_empties: u32_at(44),
                temperature: f64::from_bits(u64_at(48)),
                hash_bits: u32_at(56),
            },
            first: u32_at(16),
            shard_index: u32_at(24),
            shard_count: u32_at(28),
        };
        ensure!(
            header.shard_index < header.shard_count,
            "the header names shard {} of {}",
            header.shard_index + 1,
            header.shard_count
        );
        Ok(header)
    }
}

/// A part's header, its games and how many bytes its whole records take (a record cut
/// short at the end is left out).
fn parse_part(bytes: &[u8]) -> Result<(PartHeader, Vec<SelfPlayGame>, usize)> {
    let header = PartHeader::parse(bytes)?;
    let mut at = PART_HEADER_LEN;
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
    // The games must be the first of the share, in order.
    for (g, want) in games.iter().zip(header.share()) {
        ensure!(
            g.seed == header.options.seed && g.index == want,
            "holds game {} of seed {} where {} expects game {want}",
            g.index,
            g.seed,
            header.describe()
        );
    }
    ensure!(
        games.len() <= header.share().count(),
        "holds more games than its share"
    );
    Ok((header, games, at))
}

/// A part's header and games: refused if it is damaged or its last record cut short.
pub fn read_part(bytes: &[u8]) -> Result<(PartHeader, Vec<SelfPlayGame>)> {
    let (header, games, whole) = parse_part(bytes)?;
    ensure!(
        whole == bytes.len(),
        "the last record is cut short at byte {whole} of {} (run its shard again to finish it)",
        bytes.len()
    );
    Ok((header, games))
}

/// Plays shard `header.shard_index` of `header.shard_count`'s share of the run (the games
/// `first..first + options.games` of `options.seed` whose index is the shard's modulo the
/// count) into the part at `path`, each game written as soon as it is over. A part that
/// already holds some of them (a run killed, or done in steps) goes on after them; a part
/// of another run or shard is refused. Returns the number of games in the part (its
/// whole share).
pub fn append_shard(
    path: &Path,
    eval: &Arc<Evaluator>,
    header: &PartHeader,
    progress: &mut dyn FnMut(&SelfPlayGame),
) -> Result<usize> {
    ensure!(
        header.shard_index < header.shard_count,
        "shard {} of {} does not exist",
        header.shard_index + 1,
        header.shard_count
    );
    let bytes = read_store(path)?;
    let (games, whole) = if bytes.is_empty() {
        (Vec::new(), 0)
    } else {
        let (found, games, whole) =
            parse_part(&bytes).with_context(|| path.display().to_string())?;
        ensure!(
            found == *header,
            "{} holds {}; this run is {}: give it another file",
            path.display(),
            found.describe(),
            header.describe()
        );
        (games, whole)
    };
    let mut file = open_to_append(path, whole)?;
    if whole == 0 {
        file.write_all(&header.to_bytes())?;
    }
    let share: Vec<u32> = header.share().collect();
    for &index in &share[games.len()..] {
        let game = play_game(eval, &header.options, index);
        let mut record = Vec::new();
        game.encode(&mut record);
        file.write_all(&record)?;
        file.flush()?;
        progress(&game);
    }
    file.sync_all()?;
    Ok(share.len())
}

/// Why the parts of a sharded run cannot be merged; each names the file at fault.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("no parts to merge")]
    NoParts,
    #[error("{file} does not belong with {first}: {file} is {this}, {first} is {that}")]
    OtherRun {
        file: String,
        first: String,
        this: String,
        that: String,
    },
    #[error("{file} and {other} are both shard {shard}")]
    Duplicate {
        file: String,
        other: String,
        shard: String,
    },
    #[error(
        "shard {shard} is missing: no part given is that shard (the parts are of {count} shards)"
    )]
    Missing { shard: String, count: u32 },
    #[error(
        "{file}: shard {shard} holds {held} of the {share} games of its share: run it again to finish it"
    )]
    Unfinished {
        file: String,
        shard: String,
        held: usize,
        share: usize,
    },
    #[error(
        "{store} {has}, so the whole run would begin at game {next} of seed {seed}; the parts begin at game {first} (give the shards --first {next})"
    )]
    WrongStart {
        store: String,
        has: String,
        seed: u64,
        next: u32,
        first: u32,
    },
}

/// What [`merge_parts`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Games appended, and games in the store after.
    pub added: usize,
    pub total: usize,
}

/// Appends the games of the parts of one sharded run (`(file name, bytes)`, any order) to
/// the store at `store`, in game order: the store then holds the bytes the whole run,
/// unsharded, would have written. Refused, naming the file, unless the parts are every
/// shard of one run, each finished, and the run begins where the store's games of its
/// seed end.
pub fn merge_parts(store: &Path, parts: &[(String, Vec<u8>)]) -> Result<Merged> {
    let mut read = Vec::with_capacity(parts.len());
    for (name, bytes) in parts {
        let (header, games) = read_part(bytes).with_context(|| name.clone())?;
        read.push((name, header, games));
    }
    let Some((first_name, first, _)) = read.first() else {
        return Err(MergeError::NoParts.into());
    };
    let run = |h: &PartHeader| PartHeader {
        shard_index: 0,
        ..h.clone()
    };
    let mut by_shard: std::collections::HashMap<u32, &str> = Default::default();
    for (name, header, games) in &read {
        if run(header) != run(first) {
            return Err(MergeError::OtherRun {
                file: name.to_string(),
                first: first_name.to_string(),
                this: header.describe(),
                that: first.describe(),
            }
            .into());
        }
        if let Some(other) = by_shard.insert(header.shard_index, name) {
            return Err(MergeError::Duplicate {
                file: name.to_string(),
                other: other.to_string(),
                shard: header.shard_name(),
            }
            .into());
        }
        let share = header.share().count();
        if games.len() != share {
            return Err(MergeError::Unfinished {
                file: name.to_string(),
                shard: header.shard_name(),
                held: games.len(),
                share,
            }
            .into());
        }
    }
    if let Some(k) = (0..first.shard_count).find(|k| !by_shard.contains_key(k)) {
        return Err(MergeError::Missing {
            shard: format!("{}/{}", k + 1, first.shard_count),
            count: first.shard_count,
        }
        .into());
    }
    let mut bytes = read_store(store)?;
    let (existing, whole) = parse(&bytes).with_context(|| store.display().to_string())?;
    let seed = first.options.seed;
    let next = next_index(&existing, seed);
    if next != first.first {
        let held = existing.iter().filter(|g| g.seed == seed).count();
        return Err(MergeError::WrongStart {
            store: store.display().to_string(),
            has: if held == 0 {
                format!("has no game of seed {seed}")
            } else {
                format!("has games of seed {seed} up to game {}", next - 1)
            },
            seed,
            next,
            first: first.first,
        }
        .into());
    }
    // As the unsharded run does: a cut-short last record goes, a new store gets its magic.
    bytes.truncate(whole);
    if bytes.is_empty() {
        bytes.extend_from_slice(MAGIC);
    }
    let mut games: Vec<&SelfPlayGame> = read.iter().flat_map(|(_, _, g)| g).collect();
    games.sort_by_key(|g| g.index);
    for g in &games {
        g.encode(&mut bytes);
    }
    if let Some(dir) = store.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    okapi_core::formats::write_atomic(store, &bytes)
        .with_context(|| format!("cannot write {}", store.display()))?;
    Ok(Merged {
        added: games.len(),
        total: existing.len() + games.len(),
    })
}

/// Opens `path` (creating it and its folder) to append after its first `keep` bytes: what
/// lies beyond them, a record cut short by a killed run, is dropped.
fn open_to_append(path: &Path, keep: usize) -> Result<std::fs::File> {
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
