//! Search: the endgame solver (exact and win/draw/loss), the midgame search, the
//! transposition table, move ordering and ProbCut (stable discs are in [`crate::board::stability`]).

pub mod endgame;
pub mod level;
pub mod level_ratings;
pub mod midgame;
mod mobility_eval;
pub mod ordering;
mod parallel;
pub mod probcut;
pub mod tt;

pub use endgame::{EndgameSolver, Solution, SolveMode, Stopped};
pub use midgame::{Evaluate, Limits, MidgameSearch, MoveValue, SCALE, SearchResult, SearchSource};
pub use mobility_eval::MobilityEval;

/// The threads a search uses by default: all the cores this process may run on.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads per core a search may be given. More threads than cores search no faster
/// (they take turns), and far more make every move slow: 1024 threads on this 2-core
/// machine took 90 s for a depth-8 move (issue 26's outside probe), well under a second
/// with 2. Four per core leaves room for tests of thread counts above the cores.
pub const THREADS_PER_CORE: usize = 4;

/// The most threads a search may be given on this machine.
pub fn max_threads() -> usize {
    available_threads().saturating_mul(THREADS_PER_CORE)
}

/// A number of threads from a command line or a settings file, checked against
/// `1..=max` (`max` is [`max_threads`] outside tests): the number, or the message saying
/// what is allowed and why.
pub fn check_threads(n: usize, max: usize) -> Result<usize, String> {
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "give a number of threads from 1 to {max} ({THREADS_PER_CORE} per core of this machine's {}; more only slows the search)",
            max / THREADS_PER_CORE
        ))
    }
}

#[cfg(test)]
mod thread_bound_tests {
    use super::*;

    #[test]
    fn threads_are_bounded_by_the_cores() {
        assert_eq!(check_threads(1, 8), Ok(1));
        assert_eq!(check_threads(8, 8), Ok(8));
        let err = check_threads(1024, 8).unwrap_err();
        assert_eq!(
            err,
            "give a number of threads from 1 to 8 (4 per core of this machine's 2; more only slows the search)"
        );
        assert!(check_threads(0, 8).is_err());
        assert!(max_threads() >= THREADS_PER_CORE);
    }
}
