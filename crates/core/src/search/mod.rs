//! Search: the endgame solver (exact and win/draw/loss), the midgame search, the
//! transposition table, move ordering and ProbCut (stable discs are in [`crate::board::stability`]).

pub mod endgame;
pub mod midgame;
mod mobility_eval;
pub mod ordering;
pub mod probcut;
pub mod tt;

pub use crate::eval::{Evaluate, SCALE};
pub use endgame::{EndgameSolver, Solution, SolveMode, Stopped};
pub use midgame::{Limits, MidgameSearch, MoveValue, SearchResult, SearchSource};
pub use mobility_eval::MobilityEval;

/// The threads a search uses by default: all the cores this process may run on (the
/// most a front end may give is `okapi_engine::EngineConfig`'s rule).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
