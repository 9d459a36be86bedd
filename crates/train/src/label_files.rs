//! Label files: the games Okapi already has, each position valued by Okapi's own search
//! (`okapi train label`), kept beside the games rather than as boards.
//!
//! A *source* is a list of games in a fixed order: the game records `okapi train eval`
//! reads from `--data DIR` ([`Source::records`]), or a self-play store
//! ([`Source::selfplay`]). A label file holds, for each game of one shard of the source
//! (`--shard K/N`: the games whose number `i` has `i mod N == K - 1`, as
//! [`okapi_core::shard`] splits every sharded job), one byte per position before a move:
//! the value of the search from it as the side to move's disc difference, or
//! [`UNLABELLED`]. So a label is a byte, not a 16-byte board, and the whole record
//! source (7.7 million positions) takes under 8 MB.
//!
//! Each position is searched alone (the table cleared, one thread), so its value depends
//! only on the board, the search settings and the evaluation; positions at or below the
//! exact empties are solved exactly, which depends on nothing else either. A board met
//! again in the shard (under any symmetry) takes the value found the first time. The same
//! source, settings and shard therefore give the same bytes, whatever the threads or the
//! stops and restarts on the way.
//!
//! # Writing
//!
//! The shard's games are labelled in chunks; after each, the whole file is written again
//! to a temporary file and renamed over the old one, so a run that is killed leaves the
//! last complete chunk, and the next run with the same settings continues after it.
//!
//! # Format (little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8, 2 | the magic `OKAPILB1`, the format version (1) |
//! | 1 | source kind: 0 the game records, 1 a self-play store |
//! | 1, 1, 1 | search depth, exact empties, ProbCut level (5: none) |
//! | 1, 1 | the positions labelled: fewest and most empties |
//! | 4, 8 | the source's number of games and its checksum ([`Source::checksum`]) |
//! | 8 | the fingerprint of the evaluation that searched, and of the ProbCut model if it cut ([`search_print`]) |
//! | 4, 4 | shard index (0-based), shard count |
//! | 4 | games of the shard labelled so far |
//! | per game | its number of positions `n` (1 byte), then `n` labels (i8) |
//! | 8 | FNV-1a of every byte before it |

use crate::search_labels::fingerprint;
use anyhow::{Context, Result, bail, ensure};
use okapi_core::binary::{FNV_OFFSET, check_header, fnv1a};
use okapi_core::board::Board;
use okapi_core::board::symmetry::canonical;
use okapi_core::eval::{Evaluator, SCALE};
use okapi_core::search::probcut::NO_CUT;
use okapi_core::search::{Limits, MidgameSearch};
use okapi_core::shard::Shard;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The first bytes of a label file.
pub const MAGIC: &[u8; 8] = b"OKAPILB1";
/// The format version this build reads and writes.
pub const VERSION: u16 = 1;
/// The label of a position not searched (outside the empties labelled).
pub const UNLABELLED: i8 = i8::MIN;
const HEADER_LEN: usize = 8 + 2 + 1 + 3 + 2 + 4 + 8 + 8 + 4 + 4 + 4;
const CHECKSUM_LEN: usize = 8;
/// The midgame searches' table: 1 MB, cleared before each position.
const MIDGAME_HASH_BITS: u32 = 16;
/// The exact solves' table: 16 MB, kept (an exact value does not depend on it), so the
/// solves along a game, done from its end, help each other.
const EXACT_HASH_BITS: u32 = 20;
/// The most bytes a label file may hold (the record source's labels take under 8 MB).
pub const MAX_LABEL_FILE: u64 = 1 << 30;

/// Where a source's games come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// The game records of `--data DIR`, in [`Source::records`]' order.
    Records,
    /// A self-play store, in its games' order.
    SelfPlay,
}

impl SourceKind {
    fn byte(self) -> u8 {
        match self {
            SourceKind::Records => 0,
            SourceKind::SelfPlay => 1,
        }
    }

    fn name(byte: u8) -> &'static str {
        match byte {
            0 => "the game records",
            1 => "a self-play store",
            _ => "an unknown source",
        }
    }
}

/// Games to label: each game's positions before each move, from the side to move's view.
#[derive(Clone, Debug)]
pub struct Source {
    pub kind: SourceKind,
    pub games: Vec<Vec<Board>>,
    /// FNV-1a of every game's position count and boards: a label file made from another
    /// source (or the same files read otherwise) does not match it.
    pub checksum: u64,
}

impl Source {
    /// A source of these games.
    pub fn new(kind: SourceKind, games: Vec<Vec<Board>>) -> Source {
        let mut hash = FNV_OFFSET;
        for g in &games {
            hash = fnv1a(hash, &(g.len() as u32).to_le_bytes());
            for b in g {
                hash = fnv1a(hash, &b.player.to_le_bytes());
                hash = fnv1a(hash, &b.opponent.to_le_bytes());
            }
        }
        Source {
            kind,
            games,
            checksum: hash,
        }
    }

    /// The game records of `data` (WTHOR `.wtb` 1977–2018, PGN 2019–2025, Logistello's
    /// book games), numbered in that order, held-out years included.
    pub fn records(data: &Path) -> Result<Source> {
        let games = crate::records::record_games(data)?
            .iter()
            .map(|g| {
                let mut pos: Vec<Board> = g.positions().iter().map(|p| p.board).collect();
                pos.pop(); // the final position: no move is made from it
                pos
            })
            .collect();
        Ok(Source::new(SourceKind::Records, games))
    }

    /// The games of a self-play store, in its order.
    pub fn selfplay(store: &Path) -> Result<Source> {
        ensure!(
            store.exists(),
            "cannot read {}: no such file",
            store.display()
        );
        let mut games = Vec::new();
        for g in crate::selfplay::read_games(store)? {
            let pos = g.positions().with_context(|| {
                format!(
                    "{}: game {} of seed {} has an illegal move",
                    store.display(),
                    g.index,
                    g.seed
                )
            })?;
            games.push(pos.into_iter().map(|(b, _)| b).collect());
        }
        Ok(Source::new(SourceKind::SelfPlay, games))
    }

    /// Positions in all the games.
    pub fn positions(&self) -> usize {
        self.games.iter().map(Vec::len).sum()
    }
}

/// The search that labels, and which positions it labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelSearch {
    /// Depth in plies of the midgame search.
    pub depth: u32,
    /// Positions with at most this many empties are solved exactly.
    pub exact_empties: u32,
    /// The ProbCut level ([`okapi_core::search::probcut::LEVELS`]), [`NO_CUT`] for a
    /// full-width search.
    pub selectivity: usize,
    /// Positions with this many empties, bounds included, are labelled.
    pub empties: (u32, u32),
}

impl Default for LabelSearch {
    fn default() -> Self {
        LabelSearch {
            depth: 8,
            exact_empties: 20,
            selectivity: NO_CUT,
            empties: (0, 60),
        }
    }
}

/// The fingerprint a label file keeps of what searched: the evaluation's
/// ([`fingerprint`]), and with ProbCut the error model's too (its cuts change values).
pub fn search_print(eval: &Evaluator, search: &LabelSearch) -> u64 {
    let print = fingerprint(eval);
    if search.selectivity >= NO_CUT {
        return print;
    }
    let m = okapi_core::search::probcut::ProbCutModel::default();
    [m.k, m.a, m.b, m.c]
        .iter()
        .fold(print, |h, x| fnv1a(h, &x.to_le_bytes()))
}

/// What a label file says about itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabelHeader {
    /// [`SourceKind`] as a byte.
    pub source_kind: u8,
    pub source_games: u32,
    pub source_checksum: u64,
    pub search: LabelSearch,
    /// [`search_print`]: the evaluation that searched, and the ProbCut model if it cut.
    pub eval_print: u64,
    pub shard: Shard,
    /// Games of the shard labelled so far.
    pub done: u32,
}

/// A label file: its header and the labels of the shard's first `done` games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelFile {
    pub header: LabelHeader,
    pub labels: Vec<Vec<i8>>,
}

/// How many of the source's games a shard owns.
fn shard_games(shard: Shard, games: usize) -> usize {
    (games + shard.count - 1 - shard.index) / shard.count
}

impl LabelFile {
    /// Whether every game of the shard is labelled.
    pub fn is_complete(&self) -> bool {
        self.labels.len() == shard_games(self.header.shard, self.header.source_games as usize)
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let h = &self.header;
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.push(h.source_kind);
        out.push(h.search.depth.min(255) as u8);
        out.push(h.search.exact_empties.min(255) as u8);
        out.push(h.search.selectivity.min(255) as u8);
        out.push(h.search.empties.0.min(255) as u8);
        out.push(h.search.empties.1.min(255) as u8);
        out.extend_from_slice(&h.source_games.to_le_bytes());
        out.extend_from_slice(&h.source_checksum.to_le_bytes());
        out.extend_from_slice(&h.eval_print.to_le_bytes());
        out.extend_from_slice(&(h.shard.index as u32).to_le_bytes());
        out.extend_from_slice(&(h.shard.count as u32).to_le_bytes());
        out.extend_from_slice(&(self.labels.len() as u32).to_le_bytes());
        for g in &self.labels {
            out.push(g.len() as u8);
            out.extend(g.iter().map(|&v| v as u8));
        }
        let sum = fnv1a(FNV_OFFSET, &out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a label file's bytes; a damaged file (its checksum does not match, or its
    /// parts do not add up) is an error saying so.
    pub fn decode(bytes: &[u8]) -> Result<LabelFile> {
        check_header(
            bytes,
            MAGIC,
            Some(VERSION),
            HEADER_LEN + CHECKSUM_LEN,
            "an Okapi label file",
        )?;
        let body = &bytes[..bytes.len() - CHECKSUM_LEN];
        let stored = u64::from_le_bytes(bytes[body.len()..].try_into().expect("8 bytes"));
        let computed = fnv1a(FNV_OFFSET, body);
        ensure!(
            stored == computed,
            "damaged: its checksum is {stored:016x} but its bytes sum to {computed:016x} (a copy cut short or changed; label the shard again)"
        );
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(body[i..i + 8].try_into().expect("8 bytes"));
        let (index, count) = (u32_at(36) as usize, u32_at(40) as usize);
        let shard = Shard::new(index, count).map_err(|e| anyhow::anyhow!("damaged: {e}"))?;
        let header = LabelHeader {
            source_kind: body[10],
            search: LabelSearch {
                depth: body[11] as u32,
                exact_empties: body[12] as u32,
                selectivity: body[13] as usize,
                empties: (body[14] as u32, body[15] as u32),
            },
            source_games: u32_at(16),
            source_checksum: u64_at(20),
            eval_print: u64_at(28),
            shard,
            done: u32_at(44),
        };
        ensure!(
            header.done as usize <= shard_games(shard, header.source_games as usize),
            "damaged: {} games labelled, more than shard {shard} of {} games has",
            header.done,
            header.source_games
        );
        let mut labels = Vec::with_capacity(header.done as usize);
        let mut at = HEADER_LEN;
        for g in 0..header.done {
            let Some(&n) = body.get(at) else {
                bail!("damaged: it ends before game {} of {}", g + 1, header.done);
            };
            let Some(values) = body.get(at + 1..at + 1 + n as usize) else {
                bail!("damaged: it ends inside game {} of {}", g + 1, header.done);
            };
            labels.push(values.iter().map(|&v| v as i8).collect());
            at += 1 + n as usize;
        }
        ensure!(
            at == body.len(),
            "damaged: {} bytes after its {} games",
            body.len() - at,
            header.done
        );
        Ok(LabelFile { header, labels })
    }

    /// Reads a label file (`Ok(None)` if there is none).
    pub fn read(path: &Path) -> Result<Option<LabelFile>> {
        let bytes = crate::selfplay::read_data_file(
            path,
            MAX_LABEL_FILE,
            "a label file is written by `okapi train label`",
        )?;
        if bytes.is_empty() {
            return Ok(None);
        }
        LabelFile::decode(&bytes)
            .map(Some)
            .with_context(|| path.display().to_string())
    }

    /// Why this file's labels are not of `source` (another source, or the same files
    /// changed since), or `Ok`.
    pub fn check_source(&self, source: &Source) -> Result<()> {
        let h = &self.header;
        ensure!(
            h.source_kind == source.kind.byte(),
            "labels {}, not {}",
            SourceKind::name(h.source_kind),
            SourceKind::name(source.kind.byte())
        );
        ensure!(
            h.source_games as usize == source.games.len() && h.source_checksum == source.checksum,
            "labels a source of {} games with checksum {:016x}; this one has {} games, checksum {:016x} (the games changed since it was labelled)",
            h.source_games,
            h.source_checksum,
            source.games.len(),
            source.checksum
        );
        for (k, labels) in self.labels.iter().enumerate() {
            let game = h.shard.index + k * h.shard.count;
            ensure!(
                labels.len() == source.games[game].len(),
                "game {game} has {} labels for {} positions",
                labels.len(),
                source.games[game].len()
            );
        }
        Ok(())
    }
}

/// How `okapi train label` runs.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    pub search: LabelSearch,
    pub shard: Shard,
    /// Threads searching at once (the labels do not depend on it).
    pub threads: usize,
    /// Games labelled between two writes of the file.
    pub chunk_games: usize,
    /// Stop after writing this many chunks (the rest is left for the next run).
    pub max_chunks: Option<usize>,
}

/// A label: the search value in 1/[`SCALE`] discs, rounded to a disc.
fn disc_label(value: i32) -> i8 {
    ((value as f64 / SCALE as f64).round() as i32).clamp(-64, 64) as i8
}

/// Searches one position: exactly at or below `exact_empties` empties (on `exact`, whose
/// table is kept), else to `depth` on `midgame` with its table cleared first.
fn search_position(
    midgame: &mut MidgameSearch<Arc<Evaluator>>,
    exact: &mut MidgameSearch<Arc<Evaluator>>,
    board: Board,
    search: &LabelSearch,
) -> i8 {
    if board.is_game_over() {
        return board.final_score() as i8;
    }
    let limits = Limits {
        depth: search.depth.max(1),
        exact_empties: search.exact_empties,
        wld_empties: search.exact_empties,
        time: None,
    };
    let searcher = if board.empty_count() <= search.exact_empties {
        exact
    } else {
        midgame.solver().table().clear();
        midgame
    };
    disc_label(
        searcher
            .value(board, limits)
            .expect("nothing stops the search"),
    )
}

/// Searches `boards` on `threads` threads, each a contiguous run of them.
fn search_all(
    boards: &[Board],
    eval: &Arc<Evaluator>,
    search: &LabelSearch,
    threads: usize,
) -> Vec<i8> {
    let mut values = vec![0i8; boards.len()];
    if boards.is_empty() {
        return values;
    }
    let per = boards.len().div_ceil(threads.max(1));
    std::thread::scope(|scope| {
        for (out, part) in values.chunks_mut(per).zip(boards.chunks(per)) {
            scope.spawn(move || {
                let stop = Arc::new(AtomicBool::new(false));
                let mut midgame = MidgameSearch::new(eval, MIDGAME_HASH_BITS, stop.clone());
                midgame.set_selectivity(search.selectivity);
                let mut exact = MidgameSearch::new(eval, EXACT_HASH_BITS, stop);
                for (o, b) in out.iter_mut().zip(part) {
                    *o = search_position(&mut midgame, &mut exact, *b, search);
                }
            });
        }
    });
    values
}

/// What a labelling run did.
#[derive(Clone, Debug)]
pub struct LabelRun {
    pub file: LabelFile,
    /// Games labelled by an earlier run.
    pub resumed: usize,
    /// Positions this run searched (boards met before in the shard are not searched).
    pub searched: usize,
    /// Positions this run labelled.
    pub labelled: usize,
    pub seconds: f64,
}

/// Labels shard `options.shard` of `source` into the label file `out`, continuing after
/// the games a file made with the same settings already holds; writes the file after
/// each chunk of games (atomically). `progress` gets a line after each chunk.
pub fn label_shard(
    source: &Source,
    eval: &Arc<Evaluator>,
    options: &LabelOptions,
    out: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<LabelRun> {
    let search = options.search;
    ensure!(
        search.empties.0 <= search.empties.1,
        "the empties labelled, {}-{}, are no range",
        search.empties.0,
        search.empties.1
    );
    let header = LabelHeader {
        source_kind: source.kind.byte(),
        source_games: source.games.len() as u32,
        source_checksum: source.checksum,
        search,
        eval_print: search_print(eval, &search),
        shard: options.shard,
        done: 0,
    };
    let mut file = match LabelFile::read(out)? {
        None => LabelFile {
            header,
            labels: Vec::new(),
        },
        Some(old) => {
            old.check_source(source)
                .with_context(|| format!("{} cannot be continued", out.display()))?;
            let same = LabelHeader {
                done: 0,
                ..old.header
            } == header;
            ensure!(
                same,
                "{} was made with other settings (depth {}, exact from {}, ProbCut level {}, empties {}-{}, shard {}, evaluation {:016x}) than these (depth {}, exact from {}, ProbCut level {}, empties {}-{}, shard {}, evaluation {:016x}): give another file or the same settings",
                out.display(),
                old.header.search.depth,
                old.header.search.exact_empties,
                old.header.search.selectivity,
                old.header.search.empties.0,
                old.header.search.empties.1,
                old.header.shard,
                old.header.eval_print,
                search.depth,
                search.exact_empties,
                search.selectivity,
                search.empties.0,
                search.empties.1,
                options.shard,
                header.eval_print
            );
            old
        }
    };
    let resumed = file.labels.len();
    let mine: Vec<usize> = (options.shard.index..source.games.len())
        .step_by(options.shard.count)
        .collect();
    // The values of the boards met so far in the shard, by symmetry-canonical board.
    let mut known: HashMap<(u64, u64), i8> = HashMap::new();
    for (&g, labels) in mine.iter().zip(&file.labels) {
        for (b, &v) in source.games[g].iter().zip(labels) {
            if v != UNLABELLED {
                let c = canonical(b).0;
                known.entry((c.player, c.opponent)).or_insert(v);
            }
        }
    }
    let start = Instant::now();
    let (mut searched, mut labelled) = (0usize, 0usize);
    let (lo, hi) = search.empties;
    for (c, chunk) in mine[resumed..]
        .chunks(options.chunk_games.max(1))
        .enumerate()
    {
        if options.max_chunks.is_some_and(|m| c >= m) {
            break;
        }
        // The boards to search, each once, a game's from its end (the exact solves
        // along a game share their table).
        let mut todo = Vec::new();
        let mut queued = std::collections::HashSet::new();
        for &g in chunk {
            for b in source.games[g].iter().rev() {
                let c = canonical(b).0;
                let key = (c.player, c.opponent);
                if (lo..=hi).contains(&b.empty_count())
                    && !known.contains_key(&key)
                    && queued.insert(key)
                {
                    todo.push(c);
                }
            }
        }
        let values = search_all(&todo, eval, &search, options.threads);
        searched += todo.len();
        for (b, v) in todo.iter().zip(values) {
            known.insert((b.player, b.opponent), v);
        }
        for &g in chunk {
            let labels: Vec<i8> = source.games[g]
                .iter()
                .map(|b| {
                    if (lo..=hi).contains(&b.empty_count()) {
                        let c = canonical(b).0;
                        known[&(c.player, c.opponent)]
                    } else {
                        UNLABELLED
                    }
                })
                .collect();
            labelled += labels.iter().filter(|&&v| v != UNLABELLED).count();
            file.labels.push(labels);
        }
        file.header.done = file.labels.len() as u32;
        okapi_core::formats::write_atomic(out, &file.encode())
            .with_context(|| format!("writing {}", out.display()))?;
        let secs = start.elapsed().as_secs_f64();
        let done = file.labels.len() - resumed;
        let left = mine.len() - file.labels.len();
        progress(&format!(
            "{}: {} of {} games ({} this run), {searched} positions searched, {:.0} a second, {:.0} s, about {:.0} s to go",
            out.display(),
            file.labels.len(),
            mine.len(),
            done,
            searched as f64 / secs.max(1e-9),
            secs,
            secs / done.max(1) as f64 * left as f64
        ));
    }
    Ok(LabelRun {
        file,
        resumed,
        searched,
        labelled,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The labels of a source gathered from label files: the shards of one labelling or
/// more (in any order; unfinished ones give the games they hold).
#[derive(Clone, Debug)]
pub struct LabelSet {
    /// The labellings, in the order their files were given; a position labelled by
    /// more than one takes the value of the last (the refit from the end lays the
    /// relabelled phases over the labels of the others).
    pub labellings: Vec<Labelling>,
    /// Each game's labels, `None` for a game no file labels yet.
    pub games: Vec<Option<Vec<i8>>>,
}

/// One labelling of a [`LabelSet`]: files made with the same settings and evaluation,
/// shards of one split of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelling {
    pub search: LabelSearch,
    /// [`search_print`] of the files.
    pub eval_print: u64,
    /// How many shards the source was split into, and how many of them are given.
    pub shard_count: usize,
    pub shards: usize,
    /// Positions this labelling labels in the games given.
    pub labelled: usize,
}

impl Labelling {
    /// The labelling in words, for reports.
    pub fn describe(&self) -> String {
        let s = &self.search;
        format!(
            "depth {}, exact from {} empties, ProbCut level {}, empties {}-{}, evaluation {:016x}; {} of {} shards, {} positions",
            s.depth,
            s.exact_empties,
            s.selectivity,
            s.empties.0,
            s.empties.1,
            self.eval_print,
            self.shards,
            self.shard_count,
            self.labelled
        )
    }
}

impl LabelSet {
    /// Games labelled.
    pub fn labelled_games(&self) -> usize {
        self.games.iter().filter(|g| g.is_some()).count()
    }
}

/// Reads the label files `paths` of `source` and gathers their labels by game. Files made
/// with the same settings, evaluation and shard count are shards of one labelling (each
/// shard once); files of other labellings are laid over the earlier ones in the order
/// given: each position they label takes their value, the others keep theirs. So the
/// labels of some phases, made again with other weights (`okapi train label --empties
/// A-B --weights W`), combine with a labelling of every phase.
pub fn read_label_set(paths: &[impl AsRef<Path>], source: &Source) -> Result<LabelSet> {
    ensure!(!paths.is_empty(), "no label file given");
    // The same labelling but for the shard's index and progress.
    let key = |h: &LabelHeader| LabelHeader {
        shard: Shard::new(0, h.shard.count).expect("a shard count"),
        done: 0,
        ..*h
    };
    let mut labellings: Vec<(LabelHeader, HashMap<usize, String>, Labelling)> = Vec::new();
    let mut games: Vec<Option<Vec<i8>>> = vec![None; source.games.len()];
    let mut files = Vec::new();
    for path in paths {
        let path = path.as_ref();
        let name = path.display().to_string();
        let file =
            LabelFile::read(path)?.with_context(|| format!("cannot read {name}: no such file"))?;
        file.check_source(source).with_context(|| name.clone())?;
        let h = file.header;
        let at = match labellings.iter().position(|(k, _, _)| *k == key(&h)) {
            Some(at) => at,
            None => {
                labellings.push((
                    key(&h),
                    HashMap::new(),
                    Labelling {
                        search: h.search,
                        eval_print: h.eval_print,
                        shard_count: h.shard.count,
                        shards: 0,
                        labelled: 0,
                    },
                ));
                labellings.len() - 1
            }
        };
        let (_, seen, labelling) = &mut labellings[at];
        if let Some(other) = seen.insert(h.shard.index, name.clone()) {
            bail!(
                "{name} and {other} are both shard {} of one labelling",
                h.shard
            );
        }
        labelling.shards += 1;
        files.push((at, file));
    }
    // Lay the labellings in order, each over the ones before it.
    for layer in 0..labellings.len() {
        for (_, file) in files.iter().filter(|(at, _)| *at == layer) {
            let h = &file.header;
            for (k, labels) in file.labels.iter().enumerate() {
                let game = &mut games[h.shard.index + k * h.shard.count];
                let values = game.get_or_insert_with(|| vec![UNLABELLED; labels.len()]);
                for (v, &l) in values.iter_mut().zip(labels) {
                    if l != UNLABELLED {
                        *v = l;
                        labellings[layer].2.labelled += 1;
                    }
                }
            }
        }
    }
    Ok(LabelSet {
        labellings: labellings.into_iter().map(|(_, _, l)| l).collect(),
        games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A few games along fixed move choices, whole (60 moves or until no one can move).
    fn source() -> Source {
        let games = (0..7u32)
            .map(|game| {
                let mut boards = crate::test_games::fixed_game(game);
                boards.retain(|b| b.moves() != 0);
                boards
            })
            .collect();
        Source::new(SourceKind::SelfPlay, games)
    }

    fn options(shard: Shard) -> LabelOptions {
        LabelOptions {
            search: LabelSearch {
                depth: 3,
                exact_empties: 8,
                selectivity: NO_CUT,
                empties: (0, 60),
            },
            shard,
            threads: 1,
            chunk_games: 1,
            max_chunks: None,
        }
    }

    fn run(source: &Source, options: &LabelOptions, out: &Path) -> Result<LabelRun> {
        label_shard(source, &Evaluator::shipped(), options, out, &mut |_| {})
    }

    #[test]
    fn the_same_shard_gives_the_same_bytes_after_a_kill_and_on_more_threads() {
        let source = source();
        let dir = tempfile::tempdir().unwrap();
        let whole = dir.path().join("whole.okl");
        let shard = Shard::new(1, 2).unwrap();
        let done = run(&source, &options(shard), &whole).unwrap();
        assert!(done.file.is_complete());
        assert_eq!(done.file.labels.len(), 3);
        let bytes = std::fs::read(&whole).unwrap();
        // Labels are the search's values: every exact one is the solver's, and the
        // positions beyond are labelled too.
        let e = Evaluator::shipped();
        let mut solver = MidgameSearch::new(&e, 16, Arc::new(AtomicBool::new(false)));
        let g = &source.games[1];
        let last = g.len() - 1;
        let limits = Limits {
            depth: 60,
            exact_empties: 60,
            wld_empties: 60,
            time: None,
        };
        assert_eq!(
            done.file.labels[0][last] as i32 * SCALE,
            solver.value(g[last], limits).unwrap()
        );
        assert!(done.file.labels[0].iter().all(|&v| v != UNLABELLED));

        // A run killed after one chunk, then resumed: the same bytes.
        let killed = dir.path().join("killed.okl");
        let mut first = options(shard);
        first.max_chunks = Some(1);
        let part = run(&source, &first, &killed).unwrap();
        assert_eq!(part.file.labels.len(), 1);
        assert!(!part.file.is_complete());
        let mut second = options(shard);
        second.threads = 2;
        second.chunk_games = 2;
        let rest = run(&source, &second, &killed).unwrap();
        assert_eq!(rest.resumed, 1);
        assert_eq!(std::fs::read(&killed).unwrap(), bytes);
        // A finished file is left as it is.
        let again = run(&source, &options(shard), &killed).unwrap();
        assert_eq!((again.resumed, again.searched), (3, 0));
        assert_eq!(std::fs::read(&killed).unwrap(), bytes);
    }

    #[test]
    fn the_shards_together_are_the_whole() {
        let source = source();
        let dir = tempfile::tempdir().unwrap();
        let mut opts = options(Shard::WHOLE);
        opts.search.empties = (10, 50);
        run(&source, &opts, &dir.path().join("all.okl")).unwrap();
        let all = read_label_set(&[dir.path().join("all.okl")], &source).unwrap();
        assert_eq!(all.labelled_games(), 7);
        let mut parts = Vec::new();
        for k in [2, 0, 1] {
            let path = dir.path().join(format!("part{k}.okl"));
            opts.shard = Shard::new(k, 3).unwrap();
            run(&source, &opts, &path).unwrap();
            parts.push(path);
        }
        let union = read_label_set(&parts, &source).unwrap();
        assert_eq!(union.games, all.games);
        // Positions outside the empties are not labelled.
        for (g, labels) in source.games.iter().zip(&all.games) {
            for (b, &v) in g.iter().zip(labels.as_ref().unwrap()) {
                assert_eq!(v == UNLABELLED, !(10..=50).contains(&b.empty_count()));
            }
        }
        // A shard given twice is refused.
        let err = read_label_set(&[&parts[0], &parts[0]], &source).unwrap_err();
        assert!(
            err.to_string()
                .contains("are both shard 3/3 of one labelling"),
            "{err}"
        );
        assert_eq!(union.labellings.len(), 1);
        assert_eq!(
            (union.labellings[0].shards, union.labellings[0].shard_count),
            (3, 3)
        );
        // Missing shards leave their games unlabelled.
        let some = read_label_set(&parts[..1], &source).unwrap();
        assert_eq!(some.labelled_games(), 2);
    }

    /// The refit from the end: some phases labelled again with other weights, laid over
    /// a labelling of every phase.
    #[test]
    fn a_labelling_of_some_phases_with_other_weights_is_laid_over_the_others() {
        let source = source();
        let dir = tempfile::tempdir().unwrap();
        let mut opts = options(Shard::WHOLE);
        opts.search.exact_empties = 0;
        let all = dir.path().join("all.okl");
        run(&source, &opts, &all).unwrap();
        // Other weights: the shipped ones halved.
        let shipped = okapi_core::eval::weights::WeightFile::from_bytes(
            &std::fs::read(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../coeffs/okapi-eval.bin"
            ))
            .unwrap(),
        )
        .unwrap();
        let mut halved = shipped.clone();
        halved.weights.iter_mut().for_each(|w| *w /= 2);
        halved.bias.iter_mut().for_each(|w| *w /= 2);
        let weights = dir.path().join("halved.bin");
        std::fs::write(&weights, halved.to_bytes()).unwrap();
        let other = Arc::new(Evaluator::load(&weights).unwrap());
        assert_ne!(fingerprint(&other), fingerprint(&Evaluator::shipped()));
        let mut band = opts.clone();
        band.search.empties = (20, 30);
        let mut parts = Vec::new();
        for k in 0..2 {
            band.shard = Shard::new(k, 2).unwrap();
            let path = dir.path().join(format!("band{k}.okl"));
            label_shard(&source, &other, &band, &path, &mut |_| {}).unwrap();
            parts.push(path);
        }
        let base = read_label_set(&[&all], &source).unwrap();
        let only_band = read_label_set(&parts, &source).unwrap();
        let layered = read_label_set(&[&all, &parts[1], &parts[0]], &source).unwrap();
        assert_eq!(layered.labellings.len(), 2);
        assert_eq!(layered.labellings[1].search.empties, (20, 30));
        assert_eq!(layered.labellings[1].shards, 2);
        let mut changed = 0;
        for (g, game) in source.games.iter().enumerate() {
            let (b, o, l) = (
                base.games[g].as_ref().unwrap(),
                only_band.games[g].as_ref().unwrap(),
                layered.games[g].as_ref().unwrap(),
            );
            for (i, board) in game.iter().enumerate() {
                let in_band = (20..=30).contains(&board.empty_count());
                assert_eq!(l[i], if in_band { o[i] } else { b[i] }, "game {g} ply {i}");
                changed += usize::from(in_band && o[i] != b[i]);
            }
        }
        // The other weights searched to other values.
        assert!(changed > 0);
        // Given the other way round, the band is covered by the labelling of every phase.
        let under = read_label_set(&[&parts[0], &parts[1], &all], &source).unwrap();
        assert_eq!(under.games, base.games);
    }

    #[test]
    fn the_probcut_model_is_part_of_a_selective_labelling() {
        let e = Evaluator::shipped();
        let mut search = options(Shard::WHOLE).search;
        assert_eq!(search_print(&e, &search), fingerprint(&e));
        search.selectivity = 2;
        assert_ne!(search_print(&e, &search), fingerprint(&e));
    }

    #[test]
    fn a_damaged_or_mismatching_file_is_refused() {
        let source = source();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.okl");
        run(&source, &options(Shard::WHOLE), &path).unwrap();
        let good = std::fs::read(&path).unwrap();
        // One byte changed in the labels.
        let mut bad = good.clone();
        bad[HEADER_LEN + 5] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        let err = format!(
            "{:#}",
            run(&source, &options(Shard::WHOLE), &path).unwrap_err()
        );
        assert!(err.contains("labels.okl: damaged: its checksum"), "{err}");
        // Cut short.
        std::fs::write(&path, &good[..good.len() - 3]).unwrap();
        let err = format!("{:#}", read_label_set(&[&path], &source).unwrap_err());
        assert!(err.contains("damaged"), "{err}");
        // Another source: the same games but one.
        std::fs::write(&path, &good).unwrap();
        let mut games = source.games.clone();
        games[3].pop();
        let other = Source::new(SourceKind::SelfPlay, games);
        let err = format!("{:#}", read_label_set(&[&path], &other).unwrap_err());
        assert!(
            err.contains("the games changed since it was labelled"),
            "{err}"
        );
        let err = format!(
            "{:#}",
            run(&other, &options(Shard::WHOLE), &path).unwrap_err()
        );
        assert!(err.contains("cannot be continued"), "{err}");
        // Other settings.
        let mut deeper = options(Shard::WHOLE);
        deeper.search.depth = 4;
        let err = format!("{:#}", run(&source, &deeper, &path).unwrap_err());
        assert!(
            err.contains("was made with other settings (depth 3"),
            "{err}"
        );
        // Not a label file at all.
        std::fs::write(&path, b"OKAPISP1 a self-play store").unwrap();
        let err = format!("{:#}", read_label_set(&[&path], &source).unwrap_err());
        assert!(err.contains("not an Okapi label file"), "{err}");
    }
}
