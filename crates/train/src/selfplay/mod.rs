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
//! A run of `games` games from index `first` can be split across machines
//! ([`okapi_core::shard`]): shard `k` of `n` ([`append_shard`]) plays the games of the run
//! whose index is `k` modulo `n` into a *part* of its own, and [`merge_parts`] appends the
//! games of all the parts, in game order, to the store: the bytes the whole run writes
//! there. A part is the magic
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

//!
//! The module's parts: the games and how they are played (here), the store's records and
//! files (`store.rs`), the shards' parts and their merge (`parts.rs`).

mod parts;
mod store;

pub use parts::{Merged, PartHeader, append_shard, merge_parts, read_part};
pub use store::{
    MAX_STORE, SelfPlaySample, append, next_index, read_data_file, read_games, read_samples,
};

use okapi_core::board::{Board, Move, Square};
use okapi_core::eval::{Evaluator, SCALE};
use okapi_core::search::{Limits, MidgameSearch, SearchSource};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The first bytes of a store (the last one is the format version).
pub const MAGIC: &[u8; 8] = b"OKAPISP1";
/// The first bytes of a shard's part (the last one is the format version).
pub const PART_MAGIC: &[u8; 8] = b"OKAPISS1";
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
            hash_bits: okapi_core::search::DEFAULT_HASH_BITS,
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
