//! Search: the endgame solver (exact and win/draw/loss), the midgame search, the
//! transposition table they share (its size is [`HASH_BITS`] bits, [`DEFAULT_HASH_BITS`]
//! unless a front end is told otherwise), the playing levels and the ProbCut model.

mod endgame;
mod midgame;
mod mobility_eval;
mod ordering;
pub mod probcut;
mod tt;

pub use crate::eval::{Evaluate, SCALE};
pub use endgame::{EndgameSolver, Solution, SolveMode, Stopped};
pub use midgame::{Limits, MidgameSearch, MoveValue, SearchResult, SearchSource};
pub use mobility_eval::MobilityEval;
pub use tt::{DEFAULT_HASH_BITS, HASH_BITS, live_table_bytes};

/// The threads a search uses by default: all the cores this process may run on (the
/// most a front end may give is `okapi_engine::EngineConfig`'s rule).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
