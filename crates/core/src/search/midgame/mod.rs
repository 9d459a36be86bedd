//! The midgame search: principal variation search with iterative deepening, aspiration
//! windows, Multi-ProbCut, the transposition table shared with the endgame solver, and
//! the hand-off to exact or win/draw/loss solving when the search reaches the end of the
//! game.
//!
//! - `deepening`: iterative deepening (the best move, the analysis of every move, the
//!   best of some moves), aspiration windows, lazy SMP helper threads, principal lines;
//! - `pvs`: the principal variation search;
//! - `probcut`: Multi-ProbCut;
//! - `state`: the search's state, its answer types and the static values it keeps
//!   move by move.
//!
//! Values are in 1/128 of a disc from the side to move's view ([`SCALE`]); exact endgame
//! values are disc differences times `SCALE`.

mod deepening;
mod probcut;
mod pvs;
mod state;
#[cfg(test)]
mod tests;

#[cfg(doc)]
use crate::eval::SCALE;
pub use state::{Limits, MidgameSearch, MoveValue, SearchResult, SearchSource};
