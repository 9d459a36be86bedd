//! The midgame search's state and its answer types, the static values it keeps move by
//! move, and the stop flag and deadline.

use crate::board::cpu::{Cpu, Fast};
use crate::board::{Board, Move};
use crate::eval::{EvalState, Evaluate, SCALE};
use crate::search::endgame::EndgameSolver;
use crate::search::probcut::{self, NO_CUT, ProbCutModel};
use crate::search::tt::NO_SELECTIVITY;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use web_time::Instant;

/// Beyond any value.
pub(super) const INF: i32 = 65 * SCALE;

/// How deep and how long to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Midgame depth in plies.
    pub depth: u32,
    /// Solve exactly from this many empties down.
    pub exact_empties: u32,
    /// Solve win/draw/loss from this many empties down (at least `exact_empties`).
    pub wld_empties: u32,
    /// Stop after this long (the last finished iteration's result is kept).
    pub time: Option<Duration>,
}

impl Limits {
    /// A search to `depth` plies, no endgame solving, no time limit.
    pub const fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            exact_empties: 0,
            wld_empties: 0,
            time: None,
        }
    }
}

/// Where a value comes from, weakest first.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum SearchSource {
    /// A depth-limited search (`depth` plies).
    Midgame {
        /// Plies searched.
        depth: u32,
    },
    /// Proven win/draw/loss; the value is +1, 0 or -1 times `SCALE`.
    Wld,
    /// The proven final disc difference.
    Exact,
}

/// The value of one move (or of a position) and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move (a pass when the side to move has none).
    pub mv: Move,
    /// In 1/`SCALE` discs, from the mover's view.
    pub value: i32,
    /// Where `value` comes from.
    pub source: SearchSource,
    /// The principal line starting with `mv`.
    pub pv: Vec<Move>,
}

/// The result of a search for the best move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move, its value and its line.
    pub best: MoveValue,
    /// Nodes searched, the endgame solver's included.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
}

/// The midgame search (see the module doc) on the evaluation `E`, with the endgame solver
/// it hands the end of the game to; both share one transposition table, kept from one
/// search to the next.
pub struct MidgameSearch<E: Evaluate + Clone> {
    /// The evaluation (a handle: cloned into helper threads). When it is a pattern
    /// evaluation ([`Evaluate::patterns`]) the search keeps its indices in `state` move
    /// by move instead of evaluating each position from scratch.
    pub(super) eval: E,
    /// The pattern indices of the position `pvs` is searching (kept only with `patterns`).
    pub(super) state: EvalState,
    pub(super) solver: EndgameSolver,
    pub(super) nodes: u64,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) stopped: bool,
    pub(super) deadline: Option<Instant>,
    pub(super) poll_countdown: u32,
    /// Index into [`probcut::LEVELS`], or [`probcut::NO_CUT`].
    pub(super) selectivity: usize,
    pub(super) probcut: ProbCutModel,
    /// The token for the fast copy of the search, if this CPU has what it is compiled for.
    pub(super) fast_path: Option<Fast>,
    /// Empties and depth of the root of the iteration being searched: the one node
    /// with both (a pass keeps them, but the root is never searched with no move).
    pub(super) root: (u32, u32),
    /// The move of the iteration being searched that beat the first one searched at the
    /// root (usually the last iteration's best), with its value (a lower bound if its
    /// re-search was cut short): what a timed search that runs out of time in the
    /// middle of an iteration plays instead of the last finished iteration's move.
    pub(super) root_partial: Option<(u8, i32)>,
    /// The values each root move got in the iteration being searched (fail-soft bounds
    /// for the moves a null window refuted; `NO_VALUE` if not searched), and those of
    /// the iteration before, which order the root's moves.
    pub(super) root_values: [i32; 64],
    pub(super) root_order: [i32; 64],
}

/// A root move not searched yet (see `root_values`).
pub(super) const NO_VALUE: i32 = i32::MIN;

impl<E: Evaluate + Clone> MidgameSearch<E> {
    /// A search with a table of about `16 << hash_bits` bytes, sharing `stop` with its
    /// endgame solver, which orders its moves with `eval`'s [`Evaluate::ordering`].
    pub fn new(eval: &E, hash_bits: u32, stop: Arc<AtomicBool>) -> Self {
        MidgameSearch {
            eval: eval.clone(),
            state: EvalState::new(&Board::START),
            solver: EndgameSolver::with_stop(hash_bits, stop.clone(), eval.ordering()),
            nodes: 0,
            stop,
            stopped: false,
            deadline: None,
            poll_countdown: 0,
            selectivity: NO_CUT,
            probcut: ProbCutModel::default(),
            fast_path: Fast::detect(),
            root: (0, 0),
            root_partial: None,
            root_values: [NO_VALUE; 64],
            root_order: [NO_VALUE; 64],
        }
    }

    /// Sets the ProbCut level: an index into [`probcut::LEVELS`] (surer as it grows), or
    /// [`NO_CUT`] for a full-width search.
    pub fn set_selectivity(&mut self, level: usize) {
        self.selectivity = level.min(NO_CUT);
    }

    /// Replaces the ProbCut model (the default is the shipped `coeffs/probcut.json`).
    pub fn set_probcut_model(&mut self, model: ProbCutModel) {
        self.probcut = model;
    }

    /// How many threads the search (and its endgame solver) may use (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.solver.set_threads(threads);
    }

    /// How many threads the search may use.
    pub fn threads(&self) -> usize {
        self.solver.threads()
    }

    /// The ProbCut level: an index into [`probcut::LEVELS`], or [`NO_CUT`].
    pub fn selectivity(&self) -> usize {
        self.selectivity
    }

    /// Confidence in percent of the current selectivity (100 without ProbCut).
    pub fn confidence(&self) -> u32 {
        probcut::LEVELS.get(self.selectivity).map_or(100, |l| l.1)
    }

    /// The evaluation the search was made with.
    pub fn evaluation(&self) -> &E {
        &self.eval
    }

    /// The endgame solver, for solving a position directly on the search's table; any time
    /// limit a timed search left on it is cleared first.
    pub fn solver(&mut self) -> &mut EndgameSolver {
        // A solve asked for directly has no time limit (a timed search's may be left).
        self.solver.set_deadline(None);
        &mut self.solver
    }

    /// Nodes of the midgame search plus those of the endgame solver.
    pub fn nodes(&self) -> u64 {
        self.nodes + self.solver.nodes()
    }

    /// A one-thread search on the same evaluation and table, stopping when `stop` is set.
    pub(super) fn helper(&self, stop: Arc<AtomicBool>) -> Self {
        MidgameSearch {
            eval: self.eval.clone(),
            state: EvalState::new(&Board::START),
            solver: self.solver.sharing_table(stop.clone()),
            nodes: 0,
            stop,
            stopped: false,
            deadline: None,
            poll_countdown: 0,
            selectivity: self.selectivity,
            probcut: self.probcut,
            fast_path: self.fast_path,
            root: (0, 0),
            root_partial: None,
            root_values: [NO_VALUE; 64],
            root_order: [NO_VALUE; 64],
        }
    }

    pub(super) fn begin(&mut self, limits: Limits) {
        self.stopped = false;
        // No node is the root until `aspiration` names one: searches that start at the
        // root's children (`analyze_moves`, `best_among`) keep no root bookkeeping.
        self.root = (0, 0);
        self.deadline = limits.time.map(|t| Instant::now() + t);
        // The solves inside the iterations (where they reach the end of the game) keep the
        // time per move too: at 0.05 s a move the faster midgame reached the end at 24-25
        // empties and its unbounded exact solve took up to 2-3 s (the match against the
        // release 5df6568 took 0.069 s a move against 0.038).
        self.solver.set_deadline(self.deadline);
        self.solver.table().new_search();
    }

    pub(super) fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    #[inline]
    pub(super) fn poll_stop(&mut self) -> bool {
        if self.poll_countdown == 0 {
            self.poll_countdown = 4096;
            if self.stop.load(Ordering::Relaxed) || self.timed_out() {
                self.stopped = true;
            }
        } else {
            self.poll_countdown -= 1;
        }
        self.stopped
    }

    /// Starts keeping the pattern indices from `b`, where a search begins.
    #[inline]
    pub(super) fn set_root(&mut self, b: &Board) {
        if self.eval.patterns().is_some() {
            self.state = EvalState::new(b);
        }
    }

    /// The static value of `b`, the position `pvs` is at.
    #[inline(always)]
    pub(super) fn static_value<K: Cpu>(&self, cpu: K, b: &Board) -> i32 {
        match self.eval.patterns() {
            Some(e) => {
                debug_assert_eq!(e.evaluate_state(&self.state), e.evaluate(b));
                e.evaluate_state_on(cpu, &self.state)
            }
            None => self.eval.evaluate(b),
        }
    }

    /// The static value of `b` after `sq` flipping `f`, without playing it; `replies`:
    /// the child's count of legal moves, if the caller has it.
    #[inline(always)]
    pub(super) fn child_value<K: Cpu>(
        &self,
        cpu: K,
        b: &Board,
        sq: u32,
        f: u64,
        replies: Option<u32>,
    ) -> i32 {
        match self.eval.patterns() {
            Some(e) => e.evaluate_after_on(cpu, &self.state, sq, f, replies),
            None => self.eval.evaluate(&b.after(sq, f)),
        }
    }

    #[inline(always)]
    pub(super) fn play(&mut self, sq: u32, f: u64) {
        if self.eval.patterns().is_some() {
            self.state.make_move(sq, f);
        }
    }

    #[inline(always)]
    pub(super) fn undo(&mut self, sq: u32, f: u64) {
        if self.eval.patterns().is_some() {
            self.state.undo_move(sq, f);
        }
    }

    #[inline(always)]
    pub(super) fn pass(&mut self) {
        if self.eval.patterns().is_some() {
            self.state.pass();
        }
    }

    /// The table's selectivity byte for the current level (higher is surer).
    #[inline]
    pub(super) fn table_selectivity(&self) -> u8 {
        if self.selectivity >= NO_CUT {
            NO_SELECTIVITY
        } else {
            self.selectivity as u8
        }
    }
}
