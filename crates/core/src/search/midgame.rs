//! The midgame search: principal variation search with iterative deepening, aspiration
//! windows, the transposition table shared with the endgame solver, and the hand-off to
//! exact or win/draw/loss solving when the search reaches the end of the game.
//!
//! Values are in 1/128 of a disc from the side to move's view ([`SCALE`]); exact endgame
//! values are disc differences times `SCALE`.

use super::endgame::{EndgameSolver, Stopped};
use super::ordering::{Candidate, MoveList, pick_best};
use super::probcut::{self, NO_CUT, ProbCutModel};
use super::tt::{NO_MOVE, NO_SELECTIVITY};
use crate::board::{Board, Move, Square, moves};
#[cfg(target_arch = "x86_64")]
use crate::board::{flips_avx2, moves_avx2};
use crate::eval::EvalState;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// From this depth up, a search with several threads allowed runs helpers (lazy SMP);
/// shallower ones end before threads would pay for their start.
const LAZY_SMP_MIN_DEPTH: u32 = 6;

/// Evaluation units per disc.
pub const SCALE: i32 = 128;
/// Beyond any value.
const INF: i32 = 65 * SCALE;

/// A static evaluation: the side to move's expected final disc difference, in 1/[`SCALE`]
/// discs.
pub trait Evaluate: Send + Sync {
    /// The side to move's expected final disc difference, in 1/[`SCALE`] discs.
    fn evaluate(&self, board: &Board) -> i32;

    /// The pattern evaluation behind this one, if it is one: searches that keep its
    /// indices up to date move by move ([`crate::eval::EvalState`]) ask for it.
    fn patterns(&self) -> Option<&crate::eval::Evaluator> {
        None
    }

    /// The pattern evaluation the endgame solver of a search on this evaluation orders
    /// its moves with (`None`: mobility and corners).
    fn ordering(&self) -> Option<Arc<crate::eval::Evaluator>> {
        None
    }
}

/// The pattern evaluation, as the searches use it: through its one shared handle, so
/// that the endgame solver a search builds orders its moves with the same weights (the
/// impl lives here, with the trait, so that `eval` needs nothing from `search`). A bare
/// `Evaluator` is deliberately not an [`Evaluate`]: a search on it could not hand its
/// weights to its solver.
impl Evaluate for Arc<crate::eval::Evaluator> {
    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        crate::eval::Evaluator::evaluate(self, board)
    }

    fn patterns(&self) -> Option<&crate::eval::Evaluator> {
        Some(self)
    }

    fn ordering(&self) -> Option<Arc<crate::eval::Evaluator>> {
        Some(self.clone())
    }
}

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
    eval: E,
    /// The pattern indices of the position `pvs` is searching (kept only with `patterns`).
    state: EvalState,
    solver: EndgameSolver,
    nodes: u64,
    stop: Arc<AtomicBool>,
    stopped: bool,
    deadline: Option<Instant>,
    poll_countdown: u32,
    /// Index into [`probcut::LEVELS`], or [`probcut::NO_CUT`].
    selectivity: usize,
    probcut: ProbCutModel,
    /// The CPU has what [`pvs_fast`](Self::pvs_fast) is compiled for.
    fast_path: bool,
    /// Empties and depth of the root of the iteration being searched: the one node
    /// with both (a pass keeps them, but the root is never searched with no move).
    root: (u32, u32),
    /// The move of the iteration being searched that beat the first one searched at the
    /// root (usually the last iteration's best), with its value (a lower bound if its
    /// re-search was cut short): what a timed search that runs out of time in the
    /// middle of an iteration plays instead of the last finished iteration's move.
    root_partial: Option<(u8, i32)>,
    /// The values each root move got in the iteration being searched (fail-soft bounds
    /// for the moves a null window refuted; `NO_VALUE` if not searched), and those of
    /// the iteration before, which order the root's moves.
    root_values: [i32; 64],
    root_order: [i32; 64],
}

/// A root move not searched yet (see `root_values`).
const NO_VALUE: i32 = i32::MIN;

/// Where a value proven by a solve in `mode` comes from.
fn solved_source(mode: super::SolveMode) -> SearchSource {
    match mode {
        super::SolveMode::Exact => SearchSource::Exact,
        super::SolveMode::Wld => SearchSource::Wld,
    }
}

/// A solve's answer as the search reports it: its first move, value and proven line;
/// `None` when it proved no move.
fn solved_move(s: super::endgame::Solution, mode: super::SolveMode) -> Option<MoveValue> {
    Some(MoveValue {
        mv: s.best_move?,
        value: s.score * SCALE,
        source: solved_source(mode),
        pv: s.line,
    })
}

/// A timed search whose iterations reach the end solves it only from this many empties
/// down (where an exact solve can finish in a move's time and its ordering searches, 7
/// plies at 30 empties, stay short); farther from the end it plays its deepest
/// selective iteration.
const TIMED_SOLVE_MAX_EMPTIES: u32 = 30;

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
            fast_path: super::endgame::cpu_has_fast_path(),
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

    /// The value of `board` searched to `limits.depth` (or solved, near the end).
    pub fn value(&mut self, board: Board, limits: Limits) -> Result<i32, Stopped> {
        Ok(self.best_move(board, limits, |_| {})?.best.value)
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

    /// The best move and its value, by iterative deepening up to `limits`; each finished
    /// iteration is reported to `progress`.
    pub fn best_move(
        &mut self,
        board: Board,
        limits: Limits,
        mut progress: impl FnMut(&MoveValue),
    ) -> Result<SearchResult, Stopped> {
        self.best_move_dyn(board, limits, &mut progress)
    }

    fn best_move_dyn(
        &mut self,
        board: Board,
        limits: Limits,
        progress: &mut dyn FnMut(&MoveValue),
    ) -> Result<SearchResult, Stopped> {
        let start = Instant::now();
        let nodes0 = self.nodes();
        self.begin(limits);
        let n = board.empty_count();
        if board.moves() == 0 {
            if board.is_game_over() {
                let best = MoveValue {
                    mv: Move::Pass,
                    value: board.final_score() * SCALE,
                    source: SearchSource::Exact,
                    pv: vec![],
                };
                return Ok(SearchResult {
                    best,
                    nodes: 0,
                    elapsed: start.elapsed(),
                });
            }
            // A forced pass: search the position after it.
            let mut r = self.best_move_dyn(board.passed(), limits, &mut |_| {})?;
            r.best.value = -r.best.value;
            r.best.pv.insert(0, Move::Pass);
            r.best.mv = Move::Pass;
            return Ok(r);
        }
        let mut best: Option<MoveValue> = None;
        // Proven values first when the end is near.
        if n <= limits.exact_empties.max(limits.wld_empties) {
            let mode = if n <= limits.exact_empties {
                super::SolveMode::Exact
            } else {
                super::SolveMode::Wld
            };
            // The level's own solving depths are proven whatever the time.
            let s = self.solver().solve(board, mode, true)?;
            // The board has a move, so a solve proves one (it solves again when the
            // table misled it); should it not, the search below still answers with a
            // move, never a pass (which the side to move may not play).
            if let Some(result) = solved_move(s, mode) {
                progress(&result);
                return Ok(SearchResult {
                    best: result,
                    nodes: self.nodes() - nodes0,
                    elapsed: start.elapsed(),
                });
            }
        }
        let mut guess = self.eval.evaluate(&board);
        self.root_values = [NO_VALUE; 64];
        for depth in 1..=limits.depth.min(n) {
            if depth >= n {
                // A timed search far from the end stops here: its selective iterations
                // are cheap at depth (87% at 52 empties: depth 44 in 9.3 s, from
                // scratch), so a 30 s move reached depth 52 and started an exact solve
                // of 52 empties, whose ordering searches (18 plies there) do not look at
                // the deadline: the move took 986 s (session 17's ladder).
                if self.deadline.is_some() && n > TIMED_SOLVE_MAX_EMPTIES && best.is_some() {
                    break;
                }
                // A timed search proves the win (or draw) first: a win/draw/loss solve
                // costs a fraction of an exact one, so it finishes in a move's time
                // from more empties, and a proven win is worth more to the result than
                // the deepest selective value. A proven loss leaves the search's move
                // (the one likeliest to lose by least).
                if self.deadline.is_some() && best.is_some() {
                    match self.solver.solve(board, super::SolveMode::Wld, true) {
                        Ok(s) => {
                            if s.score >= 0
                                && let Some(result) = solved_move(s, super::SolveMode::Wld)
                            {
                                progress(&result);
                                best = Some(result);
                            }
                        }
                        Err(_) if self.timed_out() => break,
                        Err(e) => return Err(e),
                    }
                }
                // The search reaches the end: the solver proves the value and the line.
                let s = match self.solver.solve(board, super::SolveMode::Exact, true) {
                    Ok(s) => s,
                    Err(_) if best.is_some() && self.timed_out() => break,
                    Err(e) => return Err(e),
                };
                // (As above: a solve that proved no move leaves the last iteration's.)
                let Some(result) = solved_move(s, super::SolveMode::Exact) else {
                    break;
                };
                progress(&result);
                best = Some(result);
                break;
            }
            let r =
                self.with_lazy_helpers(board, depth, guess, |s| s.aspiration(board, depth, guess));
            let Ok((value, sq)) = r else {
                if best.is_some() && self.timed_out() {
                    // Keep the last finished iteration, unless this one had already
                    // found a move better than its first (the last iteration's best).
                    if let Some((sq, value)) = self.root_partial.take()
                        && best
                            .as_ref()
                            .is_some_and(|b| b.mv != Move::Play(Square::new(sq as u32)))
                    {
                        let mut pv = vec![Move::Play(Square::new(sq as u32))];
                        if let Some(next) = board.play(sq as u32) {
                            pv.extend(self.principal_variation(next, depth - 1));
                        }
                        let result = MoveValue {
                            mv: pv[0],
                            value,
                            source: SearchSource::Midgame { depth },
                            pv,
                        };
                        progress(&result);
                        best = Some(result);
                    }
                    break;
                }
                return Err(Stopped);
            };
            guess = value;
            let pv = self.principal_variation(board, depth);
            let mv = Move::Play(Square::new(sq));
            let result = MoveValue {
                mv,
                value,
                source: SearchSource::Midgame { depth },
                pv,
            };
            progress(&result);
            best = Some(result);
            if self.timed_out() {
                break;
            }
        }
        let best = best.ok_or(Stopped)?;
        Ok(SearchResult {
            best,
            nodes: self.nodes() - nodes0,
            elapsed: start.elapsed(),
        })
    }

    /// Values of every legal move, deepening one ply at a time and reporting each move's
    /// value as soon as it is known at the new depth. Each value is exact at its depth
    /// (searched with a full window). Ends with proven values when the end is within
    /// `limits.exact_empties` / `wld_empties`, or when `limits` or the stop flag say so.
    pub fn analyze_moves(
        &mut self,
        board: Board,
        limits: Limits,
        mut report: impl FnMut(&MoveValue),
    ) -> Result<(), Stopped> {
        self.begin(limits);
        let n = board.empty_count();
        let mut list: Vec<(u32, u64, i32)> = Vec::new();
        let mut m = board.moves();
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = board.flips(sq);
            list.push((sq, f, -self.eval.evaluate(&board.after(sq, f))));
        }
        let max_depth = limits.depth.min(n.saturating_sub(1));
        for depth in 1..=max_depth {
            if n - 1 <= limits.exact_empties.max(limits.wld_empties) {
                break;
            }
            list.sort_by_key(|item| std::cmp::Reverse(item.2));
            for item in list.iter_mut() {
                let child = board.after(item.0, item.1);
                let v = self.with_lazy_helpers(child, depth - 1, -item.2, |s| {
                    s.set_root(&child);
                    s.pvs(child, depth - 1, -INF, INF)
                });
                if self.stopped {
                    // Out of time (not stopped) after a finished depth: every move has
                    // a value already, as `limits.time` promises.
                    if depth > 1 && self.timed_out() && !self.stop.load(Ordering::Relaxed) {
                        return Ok(());
                    }
                    return Err(Stopped);
                }
                item.2 = -v;
                let mut pv = vec![Move::Play(Square::new(item.0))];
                pv.extend(self.principal_variation(child, depth - 1));
                report(&MoveValue {
                    mv: pv[0],
                    value: -v,
                    source: SearchSource::Midgame { depth },
                    pv,
                });
            }
            if self.timed_out() {
                return Ok(());
            }
        }
        // Proven values for each move.
        let children_empties = n - 1;
        for mode in [super::SolveMode::Wld, super::SolveMode::Exact] {
            let limit = if mode == super::SolveMode::Exact {
                limits.exact_empties
            } else {
                limits.wld_empties
            };
            if children_empties > limit {
                continue;
            }
            if mode == super::SolveMode::Wld && children_empties <= limits.exact_empties {
                continue; // exact comes at once
            }
            list.sort_by_key(|item| std::cmp::Reverse(item.2));
            for item in list.iter_mut() {
                let child = board.after(item.0, item.1);
                // The level's own solving depths are proven whatever the time.
                let s = self.solver().solve(child, mode, true)?;
                item.2 = -s.score * SCALE;
                let mut pv = vec![Move::Play(Square::new(item.0))];
                pv.extend(s.line);
                report(&MoveValue {
                    mv: pv[0],
                    value: -s.score * SCALE,
                    source: solved_source(mode),
                    pv,
                });
            }
        }
        Ok(())
    }

    /// The best of the legal moves in `allowed` and its value, by iterative deepening to
    /// `limits.depth` (the end of the game is solved exactly when the depth reaches it;
    /// `exact_empties`, `wld_empties` and `time` are not used). `None` when no legal move
    /// is allowed. The opening book values the moves that leave it with this: one search
    /// for all of them, the moves it already knows left out.
    pub fn best_among(
        &mut self,
        board: Board,
        allowed: u64,
        limits: Limits,
    ) -> Result<Option<MoveValue>, Stopped> {
        self.begin(Limits {
            time: None,
            ..limits
        });
        let n = board.empty_count();
        let mut list: Vec<(u32, u64, i32)> = Vec::new();
        let mut m = board.moves() & allowed;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = board.flips(sq);
            list.push((sq, f, -self.eval.evaluate(&board.after(sq, f))));
        }
        if list.is_empty() {
            return Ok(None);
        }
        let mut best = None;
        for depth in 1..=limits.depth.clamp(1, n) {
            // Best first: the previous depth's values order this one.
            list.sort_by_key(|item| std::cmp::Reverse(item.2));
            let mut alpha = -INF;
            let mut best_here = (list[0].0, -INF);
            for (i, item) in list.iter_mut().enumerate() {
                let child = board.after(item.0, item.1);
                self.set_root(&child);
                let v = if i == 0 {
                    -self.pvs(child, depth - 1, -INF, INF)
                } else {
                    let v = -self.pvs(child, depth - 1, -alpha - 1, -alpha);
                    if v > alpha {
                        -self.pvs(child, depth - 1, -INF, -alpha)
                    } else {
                        v
                    }
                };
                if self.stopped {
                    return Err(Stopped);
                }
                // A move that fails low keeps its bound: good enough to order the next depth.
                item.2 = v;
                if v > alpha {
                    alpha = v;
                    best_here = (item.0, v);
                }
            }
            let mut pv = vec![Move::Play(Square::new(best_here.0))];
            let child = board.after(best_here.0, board.flips(best_here.0));
            pv.extend(self.principal_variation(child, depth - 1));
            let source = if depth >= n {
                SearchSource::Exact
            } else {
                SearchSource::Midgame { depth }
            };
            best = Some(MoveValue {
                mv: pv[0],
                value: best_here.1,
                source,
                pv,
            });
        }
        Ok(best)
    }

    /// Runs `search` (of `board` to `depth`) on this thread while, if more threads are
    /// allowed and the search is deep enough, helper threads search the same position on
    /// the same table, from `depth` and one ply deeper, deepening until `search` is done
    /// (lazy SMP): what they store orders and cuts the main search. Only this thread's
    /// result counts; the helpers' nodes are added to this search's.
    fn with_lazy_helpers<R>(
        &mut self,
        board: Board,
        depth: u32,
        guess: i32,
        search: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let threads = self.solver.threads();
        let n = board.empty_count();
        if threads <= 1 || depth < LAZY_SMP_MIN_DEPTH || depth >= n {
            return search(self);
        }
        let done = Arc::new(AtomicBool::new(false));
        let helpers: Vec<Self> = (1..threads).map(|_| self.helper(done.clone())).collect();
        let (result, helper_nodes) = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .into_iter()
                .enumerate()
                .map(|(i, mut h)| {
                    scope.spawn(move || {
                        // Every other helper a ply deeper: it fills the table ahead.
                        let mut d = depth + (i as u32 + 1) % 2;
                        while d < n && h.aspiration(board, d, guess).is_ok() {
                            d += 1;
                        }
                        h.nodes()
                    })
                })
                .collect();
            // Sets `done` however `search` ends, so that the scope can join the helpers.
            struct Done<'a>(&'a AtomicBool);
            impl Drop for Done<'_> {
                fn drop(&mut self) {
                    self.0.store(true, Ordering::Relaxed);
                }
            }
            let signal = Done(&done);
            let result = search(self);
            drop(signal);
            let nodes: u64 = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .sum();
            (result, nodes)
        });
        self.nodes += helper_nodes;
        result
    }

    /// A one-thread search on the same evaluation and table, stopping when `stop` is set.
    fn helper(&self, stop: Arc<AtomicBool>) -> Self {
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

    fn begin(&mut self, limits: Limits) {
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

    fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Root search with a window around `guess`, widened on failure.
    fn aspiration(&mut self, board: Board, depth: u32, guess: i32) -> Result<(i32, u32), Stopped> {
        let mut delta = 2 * SCALE;
        let (mut alpha, mut beta) = ((guess - delta).max(-INF), (guess + delta).min(INF));
        self.set_root(&board);
        self.root = (board.empty_count(), depth);
        self.root_partial = None;
        // The last iteration's values order this one's moves (from its second).
        self.root_order = self.root_values;
        self.root_values = [NO_VALUE; 64];
        loop {
            let v = self.pvs(board, depth, alpha, beta);
            if self.stopped {
                return Err(Stopped);
            }
            if v <= alpha && alpha > -INF {
                alpha = (v - delta).max(-INF);
            } else if v >= beta && beta < INF {
                beta = (v + delta).min(INF);
            } else {
                let best = self
                    .solver
                    .table()
                    .probe(board.key(), 0, 0)
                    .map_or(NO_MOVE, |p| p.best);
                return Ok((v, best as u32));
            }
            delta *= 2;
        }
    }

    /// Follows the table's best moves from `board` for at most `depth` plies.
    fn principal_variation(&mut self, board: Board, depth: u32) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut b = board;
        for _ in 0..depth {
            if b.moves() == 0 {
                if b.is_game_over() {
                    break;
                }
                pv.push(Move::Pass);
                b = b.passed();
                continue;
            }
            let Some(p) = self.solver.table().probe(b.key(), 0, 0) else {
                break;
            };
            let Some(next) = b.play(p.best as u32) else {
                break;
            };
            pv.push(Move::Play(Square::new(p.best as u32)));
            b = next;
        }
        pv
    }

    #[inline]
    fn poll_stop(&mut self) -> bool {
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

    /// Principal variation search to `depth` plies; fail-soft.
    #[inline]
    fn pvs(&mut self, b: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.fast_path {
            // SAFETY: `fast_path` is set only when the CPU has these features.
            return unsafe { self.pvs_fast(b, depth, alpha, beta) };
        }
        self.pvs_portable(b, depth, alpha, beta)
    }

    #[inline(never)]
    fn pvs_portable(&mut self, b: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.pvs_body::<false>(b, depth, alpha, beta)
    }

    /// [`pvs`](Self::pvs) compiled with AVX2: the AVX2 move generator and flips, and the
    /// pattern index updates on whole 256-bit registers.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,avx2")]
    #[inline(never)]
    fn pvs_fast(&mut self, b: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.pvs_body::<true>(b, depth, alpha, beta)
    }

    /// The recursion from inside [`pvs_body`](Self::pvs_body): the same copy again.
    #[inline(always)]
    fn pvs_same<const FAST: bool>(&mut self, b: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if FAST {
            // SAFETY: the fast copy runs only where `fast_path` said the CPU can.
            return unsafe { self.pvs_fast(b, depth, alpha, beta) };
        }
        self.pvs_portable(b, depth, alpha, beta)
    }

    #[inline(always)]
    fn pvs_body<const FAST: bool>(
        &mut self,
        b: Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.poll_stop() {
            return 0;
        }
        let n = b.empty_count();
        if depth >= n {
            // The search reaches the end: solve it, in discs.
            let (da, db) = (
                alpha.div_euclid(SCALE),
                (beta + SCALE - 1).div_euclid(SCALE),
            );
            let (da, db) = (da.clamp(-65, 64), db.clamp(-64, 65));
            return match self.solver.search_window(b, da, db) {
                Ok(v) => v * SCALE,
                Err(_) => {
                    self.stopped = true;
                    0
                }
            };
        }
        if depth == 0 {
            return self.static_value::<FAST>(&b);
        }
        let key = b.key();
        let selectivity = self.table_selectivity();
        let mut hash_move = NO_MOVE;
        if let Some(p) = self.solver.table().probe(key, depth as u8, selectivity) {
            let (lower, upper) = table_bounds(p, n);
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            hash_move = p.best;
        }
        let mv = gen_moves::<FAST>(&b);
        if mv == 0 {
            if gen_moves::<FAST>(&b.passed()) == 0 {
                return b.final_score() * SCALE;
            }
            self.pass();
            let v = -self.pvs_same::<FAST>(b.passed(), depth, -beta, -alpha);
            self.pass();
            return v;
        }
        // Multi-ProbCut, at null-window nodes.
        if self.selectivity < NO_CUT
            && depth >= probcut::MIN_DEPTH
            && beta - alpha == 1
            && let Some(v) = self.probcut::<FAST>(b, depth, alpha, beta)
        {
            return v;
        }
        let at_root = (n, depth) == self.root;
        let mut moves = MoveList::new();
        // At depth 1, each child's count of legal moves: the ordering counts them, and
        // the child's evaluation (a mobility term) need not count them again.
        let mut child_moves = [0u8; 64];
        let mut m = mv;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = gen_flips::<FAST>(&b, sq);
            if depth >= 2 {
                // The child will probe the table: start loading its bucket now.
                self.solver.table().prefetch(b.after(sq, f).key());
            }
            let value = if depth == 1 {
                let r = gen_moves::<FAST>(&b.after(sq, f));
                child_moves[sq as usize] = r.count_ones() as u8;
                if sq as u8 == hash_move {
                    i32::MAX
                } else {
                    -reply_value(r)
                }
            } else if sq as u8 == hash_move {
                i32::MAX
            } else if at_root && self.root_order[sq as usize] != NO_VALUE {
                self.root_order[sq as usize]
            } else if depth >= 3 {
                // The child's static value, and few replies for the opponent.
                -self.child_value::<FAST>(&b, sq, f, None) - SCALE * replies::<FAST>(b, sq, f)
            } else {
                -replies::<FAST>(b, sq, f)
            };
            moves.push(Candidate {
                sq,
                flipped: f,
                value,
            });
        }
        let list = moves.as_mut_slice();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        for i in 0..list.len() {
            pick_best(&mut list[i..]);
            let Candidate { sq, flipped: f, .. } = list[i];
            let v = if depth == 1 {
                // The children are leaves: valued one ply ahead, as `pvs` would (a node
                // each, a second one for a re-search), without playing the move.
                let replies = child_moves[sq as usize] as u32;
                let v = -self.leaf::<FAST>(&b, sq, f, replies);
                if i > 0 && v > alpha && v < beta {
                    -self.leaf::<FAST>(&b, sq, f, replies)
                } else {
                    v
                }
            } else {
                let child = b.after(sq, f);
                self.play(sq, f);
                let v = if i == 0 {
                    -self.pvs_same::<FAST>(child, depth - 1, -beta, -alpha)
                } else {
                    let mut v = -self.pvs_same::<FAST>(child, depth - 1, -alpha - 1, -alpha);
                    if v > alpha {
                        // Only the root keeps it: better than every move before it at
                        // this depth, the first (the last iteration's best) included.
                        let before = self.root_partial;
                        if at_root && !self.stopped {
                            self.root_partial = Some((sq as u8, v));
                        }
                        if v < beta {
                            v = -self.pvs_same::<FAST>(child, depth - 1, -beta, -alpha);
                            if at_root && !self.stopped {
                                // The re-search may contradict the null window's verdict.
                                self.root_partial = if v > alpha {
                                    Some((sq as u8, v))
                                } else {
                                    before
                                };
                            }
                        }
                    }
                    v
                };
                self.undo(sq, f);
                v
            };
            if self.stopped {
                return 0;
            }
            if at_root {
                self.root_values[sq as usize] = v;
            }
            if v > best {
                best = v;
                best_sq = sq as u8;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        // After a fail-low every move is only bounded: the "best" of them means nothing
        // and would lead principal lines astray, so the table keeps the move it had.
        let best_move = if best > alpha0 { best_sq } else { NO_MOVE };
        self.solver
            .table()
            .store(key, depth as u8, selectivity, alpha0, beta, best, best_move);
        best
    }

    /// Starts keeping the pattern indices from `b`, where a search begins.
    #[inline]
    fn set_root(&mut self, b: &Board) {
        if self.eval.patterns().is_some() {
            self.state = EvalState::new(b);
        }
    }

    /// The static value of `b`, the position `pvs` is at.
    #[inline(always)]
    fn static_value<const FAST: bool>(&self, b: &Board) -> i32 {
        match self.eval.patterns() {
            Some(e) => {
                debug_assert_eq!(e.evaluate_state(&self.state), e.evaluate(b));
                #[cfg(target_arch = "x86_64")]
                if FAST {
                    // SAFETY: the fast copy runs only where `fast_path` said the CPU can.
                    return unsafe { e.evaluate_state_avx2(&self.state) };
                }
                e.evaluate_state(&self.state)
            }
            None => self.eval.evaluate(b),
        }
    }

    /// The static value of `b` after `sq` flipping `f`, without playing it; `replies`:
    /// the child's count of legal moves, if the caller has it.
    #[inline(always)]
    fn child_value<const FAST: bool>(
        &self,
        b: &Board,
        sq: u32,
        f: u64,
        replies: Option<u32>,
    ) -> i32 {
        match self.eval.patterns() {
            Some(e) => {
                #[cfg(target_arch = "x86_64")]
                if FAST {
                    // SAFETY: as in `static_value`.
                    return unsafe { e.evaluate_after_avx2(&self.state, sq, f, replies) };
                }
                let _ = replies;
                e.evaluate_after(&self.state, sq, f)
            }
            None => self.eval.evaluate(&b.after(sq, f)),
        }
    }

    /// A depth-0 node under `b` (the move `sq` flipping `f`, `replies` the child's count
    /// of legal moves): what `pvs` does for it. The child has at least one empty square
    /// (its parent had two), so it is evaluated.
    #[inline(always)]
    fn leaf<const FAST: bool>(&mut self, b: &Board, sq: u32, f: u64, replies: u32) -> i32 {
        self.nodes += 1;
        if self.poll_stop() {
            return 0;
        }
        self.child_value::<FAST>(b, sq, f, Some(replies))
    }

    #[inline(always)]
    fn play(&mut self, sq: u32, f: u64) {
        if self.eval.patterns().is_some() {
            self.state.make_move(sq, f);
        }
    }

    #[inline(always)]
    fn undo(&mut self, sq: u32, f: u64) {
        if self.eval.patterns().is_some() {
            self.state.undo_move(sq, f);
        }
    }

    #[inline(always)]
    fn pass(&mut self) {
        if self.eval.patterns().is_some() {
            self.state.pass();
        }
    }

    /// The table's selectivity byte for the current level (higher is surer).
    #[inline]
    fn table_selectivity(&self) -> u8 {
        if self.selectivity >= NO_CUT {
            NO_SELECTIVITY
        } else {
            self.selectivity as u8
        }
    }

    /// Tries to predict a fail-high or fail-low of a `depth` search by a shallow one.
    #[inline(always)]
    fn probcut<const FAST: bool>(
        &mut self,
        b: Board,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let shallow = probcut::shallow_depth(depth);
        let sigma = self.probcut.sigma(b.empty_count(), shallow, depth);
        let margin = (probcut::LEVELS[self.selectivity].0 * sigma as f64) as i32;
        // The static value gates each test: a cut is unlikely on the far side of it, and
        // a failed test is pure cost.
        let static_value = self.static_value::<FAST>(&b);
        let high = beta + margin;
        if high < INF && static_value >= beta {
            let v = if shallow == 0 {
                static_value
            } else {
                self.pvs_same::<FAST>(b, shallow, high - 1, high)
            };
            if self.stopped {
                return Some(0);
            }
            if v >= high {
                return Some(beta);
            }
        }
        let low = alpha - margin;
        if low > -INF && static_value <= alpha {
            let v = if shallow == 0 {
                static_value
            } else {
                self.pvs_same::<FAST>(b, shallow, low, low + 1)
            };
            if self.stopped {
                return Some(0);
            }
            if v <= low {
                return Some(alpha);
            }
        }
        None
    }
}

/// Legal moves of `b`, with the AVX2 generator in the fast copy of the search.
#[inline(always)]
fn gen_moves<const FAST: bool>(b: &Board) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: only the fast copy, compiled with AVX2, asks for it.
        return unsafe { moves_avx2(b.player, b.opponent) };
    }
    moves(b.player, b.opponent)
}

/// Discs flipped by playing `sq` on `b`, as [`gen_moves`] chooses.
#[inline(always)]
fn gen_flips<const FAST: bool>(b: &Board, sq: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: as in `gen_moves`.
        return unsafe { flips_avx2(b.player, b.opponent, sq) };
    }
    b.flips(sq)
}

/// Bounds of a table entry in midgame units. Entries as deep as the empties are the
/// endgame solver's, in discs; the midgame stores only shallower ones, in 1/`SCALE`.
#[inline]
fn table_bounds(p: super::tt::Probe, empties: u32) -> (i32, i32) {
    let scale = if p.depth as u32 >= empties { SCALE } else { 1 };
    let lower = if p.lower == i16::MIN as i32 {
        -INF
    } else {
        p.lower * scale
    };
    let upper = if p.upper == i16::MAX as i32 {
        INF
    } else {
        p.upper * scale
    };
    (lower, upper)
}

/// Opponent replies after playing `sq` (corners twice): fewer is usually better.
#[inline(always)]
fn replies<const FAST: bool>(b: Board, sq: u32, f: u64) -> i32 {
    reply_value(gen_moves::<FAST>(&b.after(sq, f)))
}

/// [`replies`] of the opponent's moves `r`.
#[inline(always)]
fn reply_value(r: u64) -> i32 {
    (r.count_ones() + (r & 0x8100_0000_0000_0081).count_ones()) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position of a 0.05 s match game at 25 empties whose exact solve takes about
    /// 72 million nodes (2 s here).
    fn hard_25_empties() -> Board {
        let line = "c4c3d3c5d6f4f3e6c6d7b3e3f5g4g6f6b4a4a5a6b5c7g5h5c8b6e7h6f2e8g3a3d8b8h4";
        let mut b = Board::START;
        for k in 0..line.len() / 2 {
            let sq = crate::board::Square::parse(&line[2 * k..2 * k + 2]).unwrap();
            b = b.play(sq.index()).unwrap();
        }
        assert_eq!(b.empty_count(), 25);
        b
    }

    /// `b` played on (the first legal move each time) down to 12 empties: a quick solve.
    fn twelve_empties_later(mut b: Board) -> Board {
        while b.empty_count() > 12 {
            let m = b.moves();
            b = if m == 0 {
                b.passed()
            } else {
                b.play(m.trailing_zeros()).unwrap()
            };
        }
        b
    }

    /// With the worst move searched first at the root (as the table's move), an
    /// iteration records the move that beat it, which is the iteration's best; with the
    /// best searched first, nothing beats it and nothing is recorded. A timed search
    /// stopped in the middle of an iteration plays the recorded move.
    #[test]
    fn an_iteration_records_the_move_that_beat_the_first_one() {
        let b = {
            let mut b = Board::START;
            for m in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
                b = b
                    .play(crate::board::Square::parse(m).unwrap().index())
                    .unwrap();
            }
            b
        };
        let eval = crate::eval::Evaluator::shipped();
        let mut s = MidgameSearch::new(&eval, 16, Arc::new(AtomicBool::new(false)));
        s.set_selectivity(NO_CUT);
        let depth = 6;
        // Each move's value at depth - 1 after it: the worst of them first.
        let mut values = Vec::new();
        let mut m = b.moves();
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let v = -s
                .value(b.play(sq).unwrap(), Limits::depth(depth - 1))
                .unwrap();
            values.push((v, sq));
        }
        values.sort();
        let (worst, best) = (values[0].1, values[values.len() - 1].1);
        assert_ne!(worst, best);
        for (first, expect_record) in [(worst, true), (best, false)] {
            s.solver.table().clear();
            s.solver
                .table()
                .store(b.key(), 0, 0, -INF, INF, 0, first as u8);
            s.begin(Limits::depth(depth));
            let (value, mv) = s.aspiration(b, depth, 0).unwrap();
            if expect_record {
                assert_eq!(s.root_partial, Some((mv as u8, value)), "first {first}");
            } else {
                assert_eq!(s.root_partial, None, "first {first}, best {mv}");
            }
        }
    }

    #[test]
    fn a_passed_deadline_stops_a_solve_and_no_deadline_does_not() {
        let b = hard_25_empties();
        let mut solver = EndgameSolver::new(16, Some(crate::eval::Evaluator::shipped()));
        solver.set_deadline(Some(Instant::now()));
        let start = Instant::now();
        assert!(
            solver
                .solve(b, super::super::SolveMode::Exact, false)
                .is_err()
        );
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "{:?}",
            start.elapsed()
        );
        // A small solve after the deadline is cleared finishes.
        solver.set_deadline(None);
        let small = twelve_empties_later(b);
        assert!(
            solver
                .solve(small, super::super::SolveMode::Exact, false)
                .is_ok()
        );
    }

    #[test]
    fn a_time_per_move_holds_when_the_iterations_reach_the_end() {
        // The level's own solving depths (exact_empties, wld_empties) are below the
        // position: only the time limit bounds the search. Here its iterations reach 25
        // plies, the end of the game, within the 0.3 s, and the exact solve they started
        // then took 2.07 s before solves kept the deadline (0.39 s since); a slower
        // machine that does not reach the end passes without showing anything.
        let (mut search, limits) = time_only(2, Duration::from_millis(300));
        let start = Instant::now();
        let r = search.best_move(hard_25_empties(), limits, |_| {}).unwrap();
        let took = start.elapsed();
        assert!(took < Duration::from_millis(1000), "took {took:?}");
        let Move::Play(sq) = r.best.mv else {
            panic!("a move was expected, not {:?}", r.best.mv)
        };
        assert!(hard_25_empties().moves() & (1u64 << sq.index()) != 0);
        // The solver left by a timed search solves without a limit when asked directly.
        let small = twelve_empties_later(hard_25_empties());
        std::thread::sleep(Duration::from_millis(10));
        assert!(
            search
                .solver()
                .solve(small, super::super::SolveMode::Exact, false)
                .is_ok()
        );
    }

    /// A timed search whose iterations reach the end but whose time cannot hold the
    /// exact solve plays a move proven to keep the win (or draw): it solves win/draw/loss
    /// first, which costs a fraction of the exact solve. Before, it played its deepest
    /// selective iteration's move, a guess.
    #[test]
    fn a_timed_search_short_of_the_exact_solve_plays_a_proven_win() {
        use super::super::SolveMode;
        // 24 empties, the side to move wins by 4: win/draw/loss in 0.35 s here, the
        // exact solve in 2.0 s (both on an empty table, beside two matches).
        let b = hard_25_empties().play(11).unwrap();
        let mut plain = EndgameSolver::new(16, Some(crate::eval::Evaluator::shipped()));
        let start = Instant::now();
        assert_eq!(plain.solve(b, SolveMode::Wld, false).unwrap().score, 1);
        let wld_time = start.elapsed();
        // Time for the iterations and the win/draw/loss solve, not for the exact solve
        // (a machine that solves it anyway in this time passes without showing it).
        let time = wld_time * 3 + Duration::from_millis(200);
        let (mut search, limits) = time_only(1, time);
        let r = search.best_move(b, limits, |_| {}).unwrap();
        assert!(
            matches!(r.best.source, SearchSource::Wld | SearchSource::Exact),
            "{:?} after {time:?} (win/draw/loss alone {wld_time:?})",
            r.best.source
        );
        let Move::Play(sq) = r.best.mv else {
            panic!("a move was expected, not {:?}", r.best.mv)
        };
        let after = b.play(sq.index()).expect("a legal move");
        plain.table().clear();
        let reply = plain.solve(after, SolveMode::Wld, false).unwrap();
        assert_eq!(reply.score, -1, "{sq:?} does not keep the win");
    }

    /// A search with the shipped evaluation at ProbCut level `selectivity`, and limits
    /// where only `time` bounds it (no solving depths of its own).
    fn time_only(
        selectivity: usize,
        time: Duration,
    ) -> (MidgameSearch<Arc<crate::eval::Evaluator>>, Limits) {
        let eval = crate::eval::Evaluator::shipped();
        let mut search = MidgameSearch::new(&eval, 16, Arc::new(AtomicBool::new(false)));
        search.set_selectivity(selectivity);
        let limits = Limits {
            depth: 60,
            exact_empties: 0,
            wld_empties: 0,
            time: Some(time),
        };
        (search, limits)
    }

    #[test]
    fn a_timed_search_far_from_the_end_does_not_start_a_solve() {
        // At 36 empties ProbCut's iterations at 87% reach depth 35 in about 0.7 s here;
        // the iteration after would be an exact solve of 36 empties, which the 20 s
        // would not finish: the search ends with depth 35 instead (it took the whole
        // 20 s before). A machine too slow to reach depth 35 passes without showing it.
        let board = crate::board::Position::parse(
            "------------O-----XOOO-O---OOOO--O-OOOXX--OOXOX---OXOO----XX-O-- X",
        )
        .unwrap()
        .board();
        let n = board.empty_count();
        assert_eq!(n, 36);
        let (mut search, limits) = time_only(1, Duration::from_secs(20));
        let start = Instant::now();
        let mut last = (0, Duration::ZERO);
        let r = search
            .best_move(board, limits, |v| {
                if let SearchSource::Midgame { depth } = v.source {
                    last = (depth, start.elapsed());
                }
            })
            .unwrap();
        let took = start.elapsed();
        assert_ne!(r.best.source, SearchSource::Exact);
        if last.0 == n - 1 {
            assert!(
                took - last.1 < Duration::from_secs(2),
                "depth {} at {:?}, then {took:?} in all",
                n - 1,
                last.1
            );
        }
    }

    // Disc difference plus mobility, enough to test the search machinery.
    use super::super::MobilityEval as TestEval;
    use crate::board::random::ongoing_positions as positions;

    fn minimax(b: Board, depth: u32) -> i32 {
        let n = b.empty_count();
        if depth >= n {
            let mut s = EndgameSolver::new(12, Some(crate::eval::Evaluator::shipped()));
            return s
                .solve(b, super::super::SolveMode::Exact, false)
                .unwrap()
                .score
                * SCALE;
        }
        if depth == 0 {
            return TestEval.evaluate(&b);
        }
        let mv = b.moves();
        if mv == 0 {
            if b.passed().moves() == 0 {
                return b.final_score() * SCALE;
            }
            return -minimax(b.passed(), depth);
        }
        let mut best = -INF;
        let mut m = mv;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            best = best.max(-minimax(b.after(sq, b.flips(sq)), depth - 1));
        }
        best
    }

    #[test]
    fn search_value_is_the_minimax_value() {
        for (empties, depths) in [(40, vec![1, 2, 3]), (12, vec![2, 3]), (4, vec![3, 5])] {
            for b in positions(empties as u64 + 1, 12, empties) {
                for &d in &depths {
                    let mut s = MidgameSearch::new(&TestEval, 14, Arc::new(AtomicBool::new(false)));
                    let r = s.best_move(b, Limits::depth(d), |_| {}).unwrap();
                    assert_eq!(
                        r.best.value,
                        minimax(b, d.min(b.empty_count())),
                        "depth {d}, {b:?}"
                    );
                    // The best move really has that value.
                    if let Move::Play(sq) = r.best.mv {
                        let child = b.play(sq.index()).unwrap();
                        assert_eq!(
                            -minimax(child, d.min(b.empty_count()) - 1),
                            r.best.value,
                            "depth {d} empties {} {b:?} {:?}",
                            b.empty_count(),
                            r.best
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn analysis_reports_every_move_at_every_depth_then_exact() {
        let b = positions(9, 1, 14)[0];
        let mut s = MidgameSearch::new(&TestEval, 16, Arc::new(AtomicBool::new(false)));
        let mut seen = vec![];
        let limits = Limits {
            depth: 3,
            exact_empties: 13,
            wld_empties: 13,
            time: None,
        };
        s.analyze_moves(b, limits, |mv| seen.push(mv.clone()))
            .unwrap();
        let legal = b.moves().count_ones() as usize;
        // depth 1..3 (children have 13 empties = exact limit, so no midgame at all)
        assert_eq!(seen.len(), legal);
        let mut solver = EndgameSolver::new(16, Some(crate::eval::Evaluator::shipped()));
        for mv in &seen {
            assert_eq!(mv.source, SearchSource::Exact);
            let Move::Play(sq) = mv.mv else { panic!() };
            let child = b.play(sq.index()).unwrap();
            let want = -solver
                .solve(child, super::super::SolveMode::Exact, false)
                .unwrap()
                .score
                * SCALE;
            assert_eq!(mv.value, want);
        }
        let b = positions(10, 1, 30)[0];
        let mut seen = vec![];
        s.analyze_moves(b, Limits::depth(3), |mv| seen.push(mv.clone()))
            .unwrap();
        assert_eq!(seen.len(), 3 * b.moves().count_ones() as usize);
        for mv in &seen {
            let SearchSource::Midgame { depth } = mv.source else {
                panic!()
            };
            let Move::Play(sq) = mv.mv else { panic!() };
            let child = b.play(sq.index()).unwrap();
            if depth <= 2 {
                assert_eq!(mv.value, -minimax(child, depth - 1), "depth {depth}");
            }
        }
    }

    #[test]
    fn portable_and_fast_copies_search_the_same_tree() {
        if !super::super::endgame::cpu_has_fast_path() {
            return;
        }
        let eval = crate::eval::Evaluator::shipped();
        for b in positions(5, 4, 34) {
            for sel in [NO_CUT, 1] {
                let run = |fast| {
                    let mut s = MidgameSearch::new(&eval, 16, Arc::new(AtomicBool::new(false)));
                    s.fast_path = fast;
                    s.set_selectivity(sel);
                    let r = s.best_move(b, Limits::depth(8), |_| {}).unwrap();
                    (r.best, s.nodes())
                };
                assert_eq!(run(false), run(true), "{b:?}");
            }
        }
    }

    /// Plays `pv` from `b`: every move must be legal.
    fn replay_pv(b: Board, pv: &[Move]) {
        let mut b = b;
        for mv in pv {
            b = match mv {
                Move::Pass => {
                    assert_eq!(b.moves(), 0, "a pass with moves in {pv:?}");
                    b.passed()
                }
                Move::Play(sq) => b.play(sq.index()).expect("illegal move in the line"),
            };
        }
    }

    /// The level's own solve at the end: a table holding a wrong bound at the root once
    /// made it prove no move, and the search answered a pass with moves on the board
    /// (a console at 0.015 s a move, session 18). It must answer the solve's best move.
    #[test]
    fn a_lying_table_never_makes_the_endgame_answer_a_pass() {
        let eval = crate::eval::Evaluator::shipped();
        for (i, b) in crate::board::random::random_positions(77, 4, 14)
            .into_iter()
            .enumerate()
        {
            if b.moves() == 0 {
                continue;
            }
            let mut s = MidgameSearch::new(&eval, 16, Arc::new(AtomicBool::new(false)));
            let limits = Limits {
                depth: 10,
                exact_empties: 14,
                wld_empties: 14,
                time: None,
            };
            let want = s.solver().solve(b, crate::search::SolveMode::Exact, false);
            let want = want.unwrap().score * SCALE;
            s.solver().table().clear();
            s.solver().table().store(
                b.key(),
                b.empty_count() as u8,
                super::super::tt::NO_SELECTIVITY,
                -64,
                64,
                64,
                NO_MOVE,
            );
            let r = s.best_move(b, limits, |_| {}).unwrap();
            let Move::Play(sq) = r.best.mv else {
                panic!("position {i}: answered {:?}", r.best.mv);
            };
            assert!(
                b.moves() >> sq.index() & 1 != 0,
                "position {i}: illegal {sq}"
            );
            assert_eq!(r.best.value, want, "position {i}");
        }
    }

    #[test]
    fn two_threads_give_legal_moves_and_sane_values() {
        let eval = crate::eval::Evaluator::shipped();
        let new = |threads| {
            let mut s = MidgameSearch::new(&eval, 18, Arc::new(AtomicBool::new(false)));
            s.set_threads(threads);
            s
        };
        let (mut one, mut two) = (new(1), new(2));
        assert_eq!(two.threads(), 2);
        for b in positions(21, 4, 34) {
            let a = one.best_move(b, Limits::depth(10), |_| {}).unwrap();
            let p = two.best_move(b, Limits::depth(10), |_| {}).unwrap();
            let Move::Play(sq) = p.best.mv else {
                panic!("no move: {:?}", p.best)
            };
            assert!(b.moves() >> sq.index() & 1 != 0, "illegal {sq:?}");
            assert_eq!(p.best.pv[0], p.best.mv);
            replay_pv(b, &p.best.pv);
            assert_eq!(p.best.source, SearchSource::Midgame { depth: 10 });
            // The helpers search a ply deeper and share the table, so the value can be
            // one thread's at depth 10 or 11, or between (under load the helper's share
            // varies: a full-suite run once gave 16 against -502 at depth 10 alone);
            // a little beyond those, not much.
            let deeper = one.best_move(b, Limits::depth(11), |_| {}).unwrap();
            let (lo, hi) = (
                a.best.value.min(deeper.best.value),
                a.best.value.max(deeper.best.value),
            );
            assert!(
                p.best.value >= lo - 4 * SCALE && p.best.value <= hi + 4 * SCALE,
                "{} against {} .. {} on one thread at depths 10 and 11",
                p.best.value,
                a.best.value,
                deeper.best.value
            );
            // Every move's value at each depth, on two threads.
            let mut seen = 0;
            two.analyze_moves(b, Limits::depth(7), |mv| {
                assert!(mv.value.abs() <= 64 * SCALE);
                replay_pv(b, &mv.pv);
                seen += 1;
            })
            .unwrap();
            assert_eq!(seen, 7 * b.moves().count_ones());
        }
        // Near the end both solve: the same proven value.
        for b in positions(22, 3, 20) {
            let limits = Limits {
                depth: 10,
                exact_empties: 20,
                wld_empties: 20,
                time: None,
            };
            let a = one.best_move(b, limits, |_| {}).unwrap();
            let p = two.best_move(b, limits, |_| {}).unwrap();
            assert_eq!((a.best.value, a.best.source), (p.best.value, p.best.source));
            replay_pv(b, &p.best.pv);
        }
    }

    #[test]
    fn stop_ends_a_search_on_two_threads() {
        let eval = crate::eval::Evaluator::shipped();
        let stop = Arc::new(AtomicBool::new(false));
        let mut s = MidgameSearch::new(&eval, 18, stop.clone());
        s.set_threads(2);
        let b = positions(3, 1, 40)[0];
        let t = std::thread::spawn({
            let stop = stop.clone();
            move || {
                std::thread::sleep(Duration::from_millis(200));
                stop.store(true, Ordering::Relaxed);
                Instant::now()
            }
        });
        let r = s.analyze_moves(b, Limits::depth(60), |_| {});
        let answered = Instant::now();
        let stopped_at = t.join().unwrap();
        assert_eq!(r, Err(Stopped));
        let delay = answered.saturating_duration_since(stopped_at);
        // The stop must reach the helper thread (one that missed it would search on for
        // minutes). The bound is not a latency figure (tens of microseconds on an idle
        // machine): a runner loaded twentyfold took up to 0.3 s to schedule the threads.
        assert!(delay < Duration::from_secs(2), "{delay:?}");
        // Usable again once the flag is down.
        stop.store(false, Ordering::Relaxed);
        assert!(s.best_move(b, Limits::depth(8), |_| {}).is_ok());
    }

    #[test]
    fn stop_ends_the_search() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut s = MidgameSearch::new(&TestEval, 16, stop.clone());
        let b = positions(3, 1, 40)[0];
        let t = std::thread::spawn({
            let stop = stop.clone();
            move || {
                std::thread::sleep(Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            }
        });
        let r = s.analyze_moves(b, Limits::depth(60), |_| {});
        t.join().unwrap();
        assert_eq!(r, Err(Stopped));
    }
}
