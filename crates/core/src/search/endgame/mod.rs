//! The endgame solver: exact score or win/draw/loss, with a proven line.
//!
//! Layers, from the root down, one file each:
//! - this file: the solver's API, the selective passes, the root (a sequence of
//!   null-window searches) and the proof of the line;
//! - `nws`: the principal variation search and the null-window search with the
//!   transposition table, the stability cut-off, ProbCut in the selective passes and the
//!   split points of the parallel search;
//! - `order`: move ordering (hash move, then fewest opponent replies with corners
//!   counted twice, then the mover's discs made safe at the corners, then quadrant
//!   parity; an evaluation search on top from `SORT_SEARCH_EMPTIES`);
//! - `leaf`: the shallow searches on the evaluation that order the moves, guess the
//!   score and test ProbCut's cuts;
//! - `last`: from `SHALLOW_EMPTIES` empties down, no table and no move list; the last
//!   four empties with fixed squares;
//! - `parallel` (with `split_point`): Young Brothers Wait on several threads;
//! - `state`: the solver's state and the answer types.
//!
//! From `SELECTIVE_PASSES_EMPTIES` up, [`EndgameSolver::solve`] first runs selective
//! passes (ProbCut on the evaluation's shallow searches, surer each pass) whose best
//! moves order the exact pass; their table entries carry their level, so they never
//! stand in for exact bounds.
//!
//! With [`EndgameSolver::set_threads`] above 1, solves from `PARALLEL_MIN_EMPTIES` up
//! run on several threads that share the table, by Young Brothers Wait; the null-window
//! search opens the split points.
//!
//! Scores are final disc differences from the side to move's view with the empties
//! given to the winner, so every score is even. Null-window functions take `alpha`
//! and answer with a fail-soft value: `> alpha` means a lower bound, `<= alpha` an
//! upper bound.

mod last;
mod leaf;
mod nws;
mod order;
mod parallel;
mod split_point;
mod state;
#[cfg(test)]
mod tests;

use crate::board::cpu::Portable;
use crate::board::{Board, Move, Square};
use crate::search::ordering::{Candidate, MoveList};
use crate::search::probcut::NO_CUT;
use crate::search::tt::{NO_MOVE, NO_SELECTIVITY};
use last::parity_of;
use leaf::{ByBoard, NoPoll, leaf_search};
use order::fill_endgame;
use parallel::ChildSearch;
pub(crate) use state::INF;
pub use state::{EndgameSolver, Solution, SolveMode, Stopped};
use web_time::Instant;

/// From this many empties up, [`EndgameSolver::solve`] runs selective passes first.
const SELECTIVE_PASSES_EMPTIES: u32 = 18;
/// The ProbCut levels of those passes (73%, 87%, 95%, 99%). Measured on FFO 40-49 by
/// nodes: no passes 1.56 G; levels 1,3: -3% on 40-44; 0,2: 1.13 G; these: 1.11 G.
const SELECTIVE_PASS_LEVELS: &[usize] = &[0, 1, 2, 3];

impl EndgameSolver {
    /// Runs `search` on one thread, or with helper threads when they are allowed and the
    /// position has enough empties to be worth them.
    fn run<R>(&mut self, board: Board, search: impl FnOnce(&mut Self) -> R) -> R {
        if self.threads > 1
            && self.pool.is_none()
            && board.empty_count() >= self.parallel_min_empties
        {
            let child: ChildSearch = EndgameSolver::dispatch_nws;
            self.with_helpers(child, search)
        } else {
            search(self)
        }
    }

    /// Solves `board` (side-relative). With `line`, also proves a line to the end.
    pub fn solve(
        &mut self,
        board: Board,
        mode: SolveMode,
        line: bool,
    ) -> Result<Solution, Stopped> {
        let start = Instant::now();
        let nodes_before = self.nodes;
        self.stopped = false;
        self.thread_nodes.clear();
        self.tt.new_search();
        let (score, proven) = self
            .run(board, |s| s.solve_and_prove(board, mode, line))
            .ok_or(Stopped)?;
        Ok(Solution {
            score,
            best_move: proven.first().copied(),
            line: if line { proven } else { vec![] },
            nodes: self.nodes - nodes_before,
            elapsed: start.elapsed(),
        })
    }

    /// The score of `board` and a proven line (its first move only, unless `line`);
    /// `None` if stopped.
    fn solve_and_prove(
        &mut self,
        board: Board,
        mode: SolveMode,
        line: bool,
    ) -> Option<(i32, Vec<Move>)> {
        if let (score, Some(proven)) = self.solve_and_prove_once(board, mode, line)? {
            return Some((score, proven));
        }
        // No move kept the value the search found: a bound the table held disagreed with
        // it. A console playing 0.015 s a move answered a pass with a move on the board
        // this way once in about 2,000 games. The solve is done again on an
        // empty table, which holds only what this solve proves.
        self.tt.clear();
        let (score, proven) = self.solve_and_prove_once(board, mode, line)?;
        debug_assert!(
            proven.is_some(),
            "no move keeps the proven value, even on an empty table"
        );
        Some((score, proven.unwrap_or_default()))
    }

    /// [`solve_and_prove`](Self::solve_and_prove) once: the score and the line, `None`
    /// for the line if no move kept the score somewhere along it.
    fn solve_and_prove_once(
        &mut self,
        board: Board,
        mode: SolveMode,
        line: bool,
    ) -> Option<(i32, Option<Vec<Move>>)> {
        let (alpha, beta) = match mode {
            SolveMode::Exact => (-64, 64),
            SolveMode::Wld => (-1, 1),
        };
        let guess = self.selective_passes(board, alpha, beta);
        let value = self.root(board, alpha, beta, guess);
        if self.stopped {
            return None;
        }
        let score = match mode {
            SolveMode::Exact => value,
            SolveMode::Wld => value.signum(),
        };
        let proven = if line || !board.is_game_over() {
            self.prove_line(board, mode, score, line)
        } else {
            Some(vec![])
        };
        if self.stopped {
            return None;
        }
        Some((score, proven))
    }

    /// The value of `board` in the window (`alpha`, `beta`): exact inside, a bound outside.
    pub fn search_window(&mut self, board: Board, alpha: i32, beta: i32) -> Result<i32, Stopped> {
        self.stopped = false;
        let v = self.run(board, |s| s.root(board, alpha, beta, None));
        if self.stopped { Err(Stopped) } else { Ok(v) }
    }

    /// Is the value of `board` above `alpha`? Answers with a fail-soft bound.
    pub fn null_window(&mut self, board: Board, alpha: i32) -> Result<i32, Stopped> {
        self.stopped = false;
        let n = board.empty_count();
        let v = self.run(board, |s| s.dispatch_nws(board, alpha, n));
        if self.stopped { Err(Stopped) } else { Ok(v) }
    }

    /// Selective searches before the exact one, surer each time (as Edax does): their
    /// best moves, kept in the table, order the exact search, and their value is its
    /// first guess. Their bounds are tagged with their level and never cut an exact search.
    fn selective_passes(&mut self, board: Board, alpha: i32, beta: i32) -> Option<i32> {
        if board.empty_count() < SELECTIVE_PASSES_EMPTIES || self.evaluator.is_none() {
            return None;
        }
        let mut guess = None;
        for &level in SELECTIVE_PASS_LEVELS {
            self.endcut = level;
            self.tag = level as u8;
            let v = self.root(board, alpha, beta, guess);
            if self.stopped {
                break;
            }
            guess = Some(v);
        }
        self.endcut = NO_CUT;
        self.tag = NO_SELECTIVITY;
        guess
    }

    /// The value of `board` in (`alpha`, `beta`): null-window probes for a wide window,
    /// the principal variation search for a narrow one.
    fn root(&mut self, board: Board, alpha: i32, beta: i32, guess: Option<i32>) -> i32 {
        if beta - alpha > 2 {
            // Null-window probes converge with fewer nodes than a full-window PVS here
            // (FFO 40-45: -12% to -25%).
            return self.root_mtd(board, alpha, beta, guess);
        }
        self.dispatch_pvs(board, alpha, beta)
    }

    /// The value in (`alpha`, `beta`) by a sequence of null-window searches.
    fn root_mtd(&mut self, board: Board, alpha: i32, beta: i32, guess: Option<i32>) -> i32 {
        let n = board.empty_count();
        let (mut lo, mut hi) = (alpha, beta);
        // First test just below the guess, or the evaluation's estimate (scores are even,
        // tests odd); without either: is it a draw or better?
        let mut test = match guess.or_else(|| self.estimate(board)) {
            Some(g) => (g - g.rem_euclid(2) - 1).clamp(alpha + 1, beta - 1) | 1,
            None => -1,
        };
        let mut going_up;
        loop {
            let v = self.dispatch_nws(board, test, n);
            if self.stopped {
                return 0;
            }
            if v > test {
                lo = v;
                going_up = true;
            } else {
                hi = v;
                going_up = false;
            }
            // Converged, or proven outside the window (fail-soft bound). Exact bounds are
            // even, so `hi - lo == 1` only happens in a selective pass, whose ProbCut
            // answers odd bounds: its value is a guess anyway.
            if lo + 1 >= hi || lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            // scores are even: test odd values between the bounds
            test = if going_up { lo + 1 } else { hi - 1 };
            if test <= lo || test >= hi {
                test = (lo + hi) / 2;
                if test % 2 == 0 {
                    test -= 1;
                }
            }
        }
    }

    /// Walks down from the root keeping the value, proving each move with a null-window
    /// search: the line is optimal (exact) or semi-optimal (WLD) by construction. `None`
    /// if at some position no move keeps the value (the table misled the search); when
    /// stopped, the line so far.
    fn prove_line(
        &mut self,
        board: Board,
        mode: SolveMode,
        score: i32,
        full: bool,
    ) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut b = board;
        let mut value = score; // exact score, or WLD sign, for the side to move at b
        loop {
            let mv = b.moves();
            if mv == 0 {
                if b.passed().moves() == 0 {
                    break;
                }
                line.push(Move::Pass);
                b = b.passed();
                value = -value;
                continue;
            }
            let order = self.ordered_moves(b, mv);
            let mut chosen = None;
            for c in &order {
                let child = b.after(c.sq, c.flipped);
                let n = child.empty_count();
                let keeps = match mode {
                    // child value is at most -value; optimal iff it is not above -value
                    SolveMode::Exact => self.dispatch_nws(child, -value, n) <= -value,
                    SolveMode::Wld => match value {
                        1 => self.dispatch_nws(child, -1, n) <= -1,
                        0 => self.dispatch_nws(child, 0, n) <= 0,
                        _ => true, // the loser may play anything
                    },
                };
                if self.stopped {
                    return Some(line);
                }
                if keeps {
                    chosen = Some((c.sq, c.flipped));
                    break;
                }
            }
            let (sq, f) = chosen?;
            line.push(Move::Play(Square::new(sq)));
            b = b.after(sq, f);
            value = -value;
            if !full {
                break;
            }
        }
        Some(line)
    }

    /// Legal moves in the order a line tries them: the table's move first, then by the
    /// ordering heuristic; with [`set_canonical_lines`](Self::set_canonical_lines), by
    /// the heuristic alone.
    fn ordered_moves(&mut self, b: Board, mv: u64) -> Vec<Candidate> {
        let hash_move = if self.canonical_lines {
            NO_MOVE
        } else {
            self.tt.probe(b.key(), 0, 0).map_or(NO_MOVE, |p| p.best)
        };
        let mut list = MoveList::new();
        fill_endgame(
            &mut list,
            b,
            mv,
            hash_move,
            parity_of(b.empties()),
            Portable,
        );
        let mut list = list.as_mut_slice().to_vec();
        list.sort_by_key(|c| std::cmp::Reverse(c.value));
        list
    }

    /// The evaluation's estimate of the final disc difference by a shallow search, if
    /// there is an evaluation.
    fn estimate(&mut self, b: Board) -> Option<i32> {
        const GUESS_DEPTH: u32 = 6;
        let e = self.evaluator.clone()?;
        let depth = GUESS_DEPTH.min(b.empty_count());
        let v = leaf_search(
            self.fast_path,
            b,
            depth,
            -INF * 128,
            INF * 128,
            &mut ByBoard(|x: Board| e.evaluate(&x)),
            128,
            &mut self.nodes,
            &mut NoPoll,
        );
        Some((v as f64 / 128.0).round() as i32)
    }
}
