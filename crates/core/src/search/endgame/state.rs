//! The endgame solver's state: its table, node count, stop flag, ProbCut pass and
//! threads, and the answer types. The searches are in the files beside this one.

use super::split_point::{Pool, SplitPoint};
use crate::board::Move;
use crate::board::cpu::Fast;
use crate::search::probcut::{NO_CUT, ProbCutModel};
use crate::search::tt::{NO_SELECTIVITY, TranspositionTable};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// Beyond any score.
pub(crate) const INF: i32 = 100;

/// What a solve proves.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, serde::Serialize, serde::Deserialize)]
pub enum SolveMode {
    /// The exact final disc difference.
    Exact,
    /// Only win, draw or loss.
    Wld,
}

/// The answer for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Exact: final disc difference for the side to move. WLD: 1 win, 0 draw, -1 loss.
    pub score: i32,
    /// First move of the line (`None` if the game is over).
    pub best_move: Option<Move>,
    /// A proven line: optimal (exact) or semi-optimal (WLD), to the end of the game.
    pub line: Vec<Move>,
    /// Nodes the solve searched, all its threads together.
    pub nodes: u64,
    /// Wall time of the solve.
    pub elapsed: Duration,
}

/// The search was stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search was stopped")]
pub struct Stopped;

/// The endgame solver (see the module doc). It keeps its transposition table from one
/// solve to the next, so consecutive solves along a game reuse each other's work.
///
/// ```
/// use okapi_core::board::Position;
/// use okapi_core::eval::Evaluator;
/// use okapi_core::search::{EndgameSolver, SolveMode};
/// // FFO #2: 14 empties, Black to move; a4 wins by 10.
/// let pos = Position::parse(
///     "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X",
/// )
/// .unwrap();
/// let mut solver = EndgameSolver::new(20, Some(Evaluator::shipped()));
/// let exact = solver.solve(pos.board(), SolveMode::Exact, true).unwrap();
/// assert_eq!(exact.score, 10);
/// assert_eq!(exact.best_move.unwrap().to_string(), "a4");
/// assert_eq!(exact.line.first(), exact.best_move.as_ref());
/// // Win/draw/loss only: a search in the window (-1, 1).
/// let wld = solver.solve(pos.board(), SolveMode::Wld, false).unwrap();
/// assert_eq!(wld.score, 1);
/// ```
pub struct EndgameSolver {
    /// Shared with the helper threads of a parallel solve.
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) nodes: u64,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) stopped: bool,
    /// Give up at this time as if stopped (a midgame search with a time per move sets it
    /// for the solves inside its iterations); helpers of a parallel solve inherit it.
    pub(super) deadline: Option<Instant>,
    /// The node count at which the stop flag is polled next. Counted in nodes, those of
    /// the ordering searches included: at high empties one search node can cost
    /// thousands of them, and a count of search nodes alone let a Stop wait 100 ms.
    pub(super) next_poll: u64,
    /// The evaluation that orders moves at high empties;
    /// [`quick_eval`](super::order::quick_eval) without one.
    pub(super) evaluator: Option<Arc<crate::eval::Evaluator>>,
    /// ProbCut level of the current pass (an index into
    /// [`LEVELS`](crate::search::probcut::LEVELS)), or
    /// [`NO_CUT`] for the exact search.
    pub(super) endcut: usize,
    /// The table's selectivity tag for the current pass: the ProbCut level, or
    /// [`NO_SELECTIVITY`] when exact, so selective bounds never cut an exact search.
    pub(super) tag: u8,
    pub(super) probcut: ProbCutModel,
    /// The token for the fast copy of the search functions, if this CPU has what it is
    /// compiled for.
    pub(super) fast_path: Option<Fast>,
    /// Threads a solve may use (1: the deterministic one-thread search).
    pub(super) threads: usize,
    /// Lines (and the best move) try moves in an order that depends on the position alone.
    pub(super) canonical_lines: bool,
    /// The threads of the parallel search under way, if any (see [`super::parallel`]).
    pub(super) pool: Option<Arc<Pool>>,
    /// The innermost split point this thread works under: a cut there or above it makes
    /// the work useless.
    pub(super) split: Option<Arc<SplitPoint>>,
    /// Nodes of each thread in the last parallel search (this one first).
    pub(super) thread_nodes: Vec<u64>,
    /// Nodes with at least this many empties may become split points
    /// ([`SPLIT_MIN_EMPTIES`]; lower in tests, to split often).
    pub(super) split_min_empties: u32,
    /// Searches from this many empties up use the helper threads
    /// ([`PARALLEL_MIN_EMPTIES`]; lower in tests).
    pub(super) parallel_min_empties: u32,
}

impl EndgameSolver {
    /// A solver with a table of about `16 << hash_bits` bytes that orders its moves at
    /// high empties with `evaluator`'s shallow searches and runs its selective passes on
    /// it (`None`: mobility and corners, no selective passes; about 3x the nodes on FFO
    /// 40-49). Programs that want the shipped weights pass
    /// `Some(Evaluator::shipped())`.
    pub fn new(hash_bits: u32, evaluator: Option<Arc<crate::eval::Evaluator>>) -> EndgameSolver {
        EndgameSolver::with_stop(hash_bits, Arc::new(AtomicBool::new(false)), evaluator)
    }

    /// A solver that gives up when `stop` becomes true (see [`EndgameSolver::new`]).
    pub fn with_stop(
        hash_bits: u32,
        stop: Arc<AtomicBool>,
        evaluator: Option<Arc<crate::eval::Evaluator>>,
    ) -> EndgameSolver {
        EndgameSolver {
            tt: Arc::new(TranspositionTable::with_bits(hash_bits)),
            nodes: 0,
            stop,
            stopped: false,
            deadline: None,
            next_poll: 0,
            evaluator,
            endcut: NO_CUT,
            tag: NO_SELECTIVITY,
            probcut: ProbCutModel::default(),
            fast_path: Fast::detect(),
            threads: 1,
            canonical_lines: false,
            pool: None,
            split: None,
            thread_nodes: Vec::new(),
            split_min_empties: SPLIT_MIN_EMPTIES,
            parallel_min_empties: PARALLEL_MIN_EMPTIES,
        }
    }

    /// A solver for a helper thread: the same table, stop flag, evaluation and ProbCut
    /// model, one thread, working in `pool`.
    pub(super) fn helper(&self, pool: Arc<Pool>) -> EndgameSolver {
        let mut helper = self.sharing_table(self.stop.clone());
        helper.pool = Some(pool);
        helper
    }

    /// A one-thread solver on the same table that stops with `stop`, for a helper thread
    /// of the midgame search.
    pub(crate) fn sharing_table(&self, stop: Arc<AtomicBool>) -> EndgameSolver {
        EndgameSolver {
            tt: self.tt.clone(),
            nodes: 0,
            stop,
            stopped: false,
            deadline: self.deadline,
            next_poll: 0,
            evaluator: self.evaluator.clone(),
            endcut: NO_CUT,
            tag: NO_SELECTIVITY,
            probcut: self.probcut,
            fast_path: self.fast_path,
            threads: 1,
            canonical_lines: self.canonical_lines,
            pool: None,
            split: None,
            thread_nodes: Vec::new(),
            split_min_empties: self.split_min_empties,
            parallel_min_empties: self.parallel_min_empties,
        }
    }

    /// How many threads a solve may use (at least 1). One thread is deterministic: the
    /// same nodes and lines on every run.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Runs the portable copy of the search even where this machine has a fast one (the
    /// AVX2 or AVX-512 copy, SIMD128 in the browser): both search the same tree, the
    /// same nodes, which the browser build's check compares.
    pub fn use_portable_copy(&mut self) {
        self.fast_path = None;
    }

    /// How many threads a solve may use.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Makes the best move and the line the same whatever the table holds, and so the
    /// same with any number of threads: among several optimal moves, the first in the
    /// ordering heuristic's order (which depends on the position alone), not the table's
    /// move, which on several threads depends on their timing. Scripts use it, since
    /// their file must be the same for any `-n`. It costs the proofs of the moves tried
    /// before the one the search found: FFO 40-49 on one thread, 686,407,707 nodes
    /// against 660,578,386 and 21.1 s against 19.5 s (two runs each), so interactive
    /// solves and the bench keep the table's move first.
    pub fn set_canonical_lines(&mut self, canonical: bool) {
        self.canonical_lines = canonical;
    }

    /// Makes the solves give up (`Stopped`) once `deadline` has passed, as the stop flag
    /// does; `None`: no time limit. Polled with the flag, every 16,384 nodes (well under a
    /// millisecond).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Has the stop flag been raised or the deadline passed?
    pub(super) fn should_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The flag that stops the solves when set: raise it from another thread to cut a solve
    /// short (the solve answers [`Stopped`]).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The transposition table (shared with the threads of a parallel solve).
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Nodes searched since the solver was made (or last reset), by all its threads.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Nodes of each thread in the last search that used several threads (this thread
    /// first); empty if none did.
    pub fn thread_nodes(&self) -> &[u64] {
        &self.thread_nodes
    }
}

impl EndgameSolver {
    // The parallel search's access to a thread's state (see `super::parallel`).

    pub(super) fn pool(&self) -> Option<&Arc<Pool>> {
        self.pool.as_ref()
    }

    pub(super) fn set_pool(&mut self, pool: Option<Arc<Pool>>) {
        self.pool = pool;
    }

    pub(super) fn split_point(&self) -> Option<&Arc<SplitPoint>> {
        self.split.as_ref()
    }

    pub(super) fn replace_split_point(
        &mut self,
        sp: Option<Arc<SplitPoint>>,
    ) -> Option<Arc<SplitPoint>> {
        std::mem::replace(&mut self.split, sp)
    }

    /// The ProbCut pass under way: (`endcut`, table tag).
    pub(super) fn pass(&self) -> (usize, u8) {
        (self.endcut, self.tag)
    }

    pub(super) fn set_pass(&mut self, endcut: usize, tag: u8) {
        self.endcut = endcut;
        self.tag = tag;
    }

    pub(super) fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Stopped by the stop flag, or made useless by a cut at a split point above.
    pub(super) fn refresh_stopped(&mut self) {
        // The poll interval depends on being under a split point: poll at the next node.
        self.next_poll = self.nodes;
        self.stopped = self.should_stop() || self.split.as_ref().is_some_and(|sp| sp.aborted());
    }

    /// Adds the helper threads' nodes after a parallel search.
    pub(super) fn add_helper_nodes(&mut self, nodes: u64, per_thread: Vec<u64>) {
        self.nodes += nodes;
        self.thread_nodes = per_thread;
    }

    /// Has the search been stopped? Looks at the stop flag every so many nodes.
    #[inline]
    pub(super) fn poll_stop(&mut self) -> bool {
        if self.nodes >= self.next_poll {
            self.poll();
        }
        self.stopped
    }

    /// Reads the stop flag and, under a split point, whether a cut there or above has
    /// made this thread's work useless: the latter much more often, since the threads
    /// waste their time until they see it.
    #[cold]
    fn poll(&mut self) {
        self.next_poll = self.nodes
            + match self.split {
                None => 1 << 14,
                Some(_) => SPLIT_POLL_NODES,
            };
        if self.should_stop() || self.split.as_ref().is_some_and(|sp| sp.aborted()) {
            self.stopped = true;
        }
    }
}

/// Under a split point, a thread looks for a cut above it every this many nodes (some
/// microseconds).
pub(super) const SPLIT_POLL_NODES: u64 = 64;

/// From this many empties up, a solve with several threads allowed uses them (below, the
/// solve takes about as long as starting a thread).
pub(super) const PARALLEL_MIN_EMPTIES: u32 = 16;
/// Nodes with at least this many empties may become split points. (FFO 40-44 on two
/// threads: 71.0 M nodes, against 70.8 M from 10 and 71.6 M from 14, the helper's
/// waiting the same within the noise of a loaded machine; from 12, 1,100 to 2,800 split
/// points per position of 10 to 20 M nodes, so their cost is small.)
pub(super) const SPLIT_MIN_EMPTIES: u32 = 12;
