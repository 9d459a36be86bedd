//! Iterative deepening in the midgame search: the best move, every move's value for the
//! analysis, the best of some moves for the book; aspiration windows, lazy SMP helper
//! threads, the principal line, and the hand-off to the endgame solver near the end.

use super::state::{INF, Limits, MidgameSearch, MoveValue, NO_VALUE, SearchResult, SearchSource};
use crate::board::{Board, Move, Square};
use crate::eval::{Evaluate, SCALE};
use crate::search::endgame::{Solution, SolveMode, Stopped};
use crate::search::tt::NO_MOVE;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

/// From this depth up, a search with several threads allowed runs helpers (lazy SMP);
/// shallower ones end before threads would pay for their start.
const LAZY_SMP_MIN_DEPTH: u32 = 6;

/// Where a value proven by a solve in `mode` comes from.
fn solved_source(mode: SolveMode) -> SearchSource {
    match mode {
        SolveMode::Exact => SearchSource::Exact,
        SolveMode::Wld => SearchSource::Wld,
    }
}

/// A solve's answer as the search reports it: its first move, value and proven line;
/// `None` when it proved no move.
fn solved_move(s: Solution, mode: SolveMode) -> Option<MoveValue> {
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
    /// The value of `board` searched to `limits.depth` (or solved, near the end).
    pub fn value(&mut self, board: Board, limits: Limits) -> Result<i32, Stopped> {
        Ok(self.best_move(board, limits, |_| {})?.best.value)
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
            return self.without_a_move(board, limits, start);
        }
        let mut best: Option<MoveValue> = None;
        // Proven values first when the end is near.
        if n <= limits.exact_empties.max(limits.wld_empties) {
            let mode = if n <= limits.exact_empties {
                SolveMode::Exact
            } else {
                SolveMode::Wld
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
                self.solve_at_the_end(board, &mut best, progress)?;
                break;
            }
            let r =
                self.with_lazy_helpers(board, depth, guess, |s| s.aspiration(board, depth, guess));
            let Ok((value, sq)) = r else {
                if best.is_some() && self.timed_out() {
                    self.keep_partial_iteration(board, depth, &mut best, progress);
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

    /// [`best_move`](Self::best_move) where the side to move has no move: the game is
    /// over, or a forced pass and the search of the position after it.
    fn without_a_move(
        &mut self,
        board: Board,
        limits: Limits,
        start: Instant,
    ) -> Result<SearchResult, Stopped> {
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
        let mut r = self.best_move_dyn(board.passed(), limits, &mut |_| {})?;
        r.best.value = -r.best.value;
        r.best.pv.insert(0, Move::Pass);
        r.best.mv = Move::Pass;
        Ok(r)
    }

    /// The iterations reach the end of the game: the solver proves the value and the
    /// line, into `best` (left as it is when a timed search runs out of time first).
    fn solve_at_the_end(
        &mut self,
        board: Board,
        best: &mut Option<MoveValue>,
        progress: &mut dyn FnMut(&MoveValue),
    ) -> Result<(), Stopped> {
        // A timed search far from the end stops here: its selective iterations
        // are cheap at depth (87% at 52 empties: depth 44 in 9.3 s, from
        // scratch), so a 30 s move reached depth 52 and started an exact solve
        // of 52 empties, whose ordering searches (18 plies there) did not look at
        // the deadline: the move took 986 s.
        if self.deadline.is_some()
            && board.empty_count() > TIMED_SOLVE_MAX_EMPTIES
            && best.is_some()
        {
            return Ok(());
        }
        // A timed search proves the win (or draw) first: a win/draw/loss solve
        // costs a fraction of an exact one, so it finishes in a move's time
        // from more empties, and a proven win is worth more to the result than
        // the deepest selective value. A proven loss leaves the search's move
        // (the one likeliest to lose by least).
        if self.deadline.is_some() && best.is_some() {
            match self.solver.solve(board, SolveMode::Wld, true) {
                Ok(s) => {
                    if s.score >= 0
                        && let Some(result) = solved_move(s, SolveMode::Wld)
                    {
                        progress(&result);
                        *best = Some(result);
                    }
                }
                Err(_) if self.timed_out() => return Ok(()),
                Err(e) => return Err(e),
            }
        }
        let s = match self.solver.solve(board, SolveMode::Exact, true) {
            Ok(s) => s,
            Err(_) if best.is_some() && self.timed_out() => return Ok(()),
            Err(e) => return Err(e),
        };
        // (As above: a solve that proved no move leaves the last iteration's.)
        if let Some(result) = solved_move(s, SolveMode::Exact) {
            progress(&result);
            *best = Some(result);
        }
        Ok(())
    }

    /// A timed search out of time in the iteration at `depth`: keeps `best`, the last
    /// finished iteration's move, unless this one had already found a move better than
    /// its first (the last iteration's best).
    fn keep_partial_iteration(
        &mut self,
        board: Board,
        depth: u32,
        best: &mut Option<MoveValue>,
        progress: &mut dyn FnMut(&MoveValue),
    ) {
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
            *best = Some(result);
        }
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
        for mode in [SolveMode::Wld, SolveMode::Exact] {
            let limit = if mode == SolveMode::Exact {
                limits.exact_empties
            } else {
                limits.wld_empties
            };
            if children_empties > limit {
                continue;
            }
            if mode == SolveMode::Wld && children_empties <= limits.exact_empties {
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

    /// Root search with a window around `guess`, widened on failure.
    pub(super) fn aspiration(
        &mut self,
        board: Board,
        depth: u32,
        guess: i32,
    ) -> Result<(i32, u32), Stopped> {
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
}
