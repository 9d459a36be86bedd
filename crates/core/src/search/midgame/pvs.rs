//! The midgame's principal variation search: fail-soft, with the transposition table,
//! Multi-ProbCut at null-window nodes, and the hand-off to the endgame solver where the
//! depth reaches the end of the game.

use super::state::{INF, MidgameSearch, NO_VALUE};
use crate::board::Board;
use crate::board::cpu::{Cpu, Portable, fast_copies};
use crate::eval::{Evaluate, SCALE};
use crate::search::ordering::{Candidate, MoveList, pick_best};
use crate::search::probcut::{self, NO_CUT};
use crate::search::tt::{NO_MOVE, Probe};

impl<E: Evaluate + Clone> MidgameSearch<E> {
    /// Principal variation search to `depth` plies, in the copy this CPU runs; fail-soft.
    #[inline]
    pub(super) fn pvs(&mut self, b: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        match self.fast_path {
            Some(cpu) => self.pvs_on(cpu, b, depth, alpha, beta),
            None => self.pvs_on(Portable, b, depth, alpha, beta),
        }
    }

    fast_copies! {
        // (The fast copy also updates the pattern indices on whole 256-bit registers.)
        #[inline(never)]
        fn pvs_on(b: Board, depth: u32, alpha: i32, beta: i32) -> i32
            = pvs_body, pvs_portable, pvs_fast, pvs_wide;
    }

    #[inline(always)]
    fn pvs_body<K: Cpu>(&mut self, cpu: K, b: Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.poll_stop() {
            return 0;
        }
        let n = b.empty_count();
        if depth >= n {
            return self.solve_in_window(b, alpha, beta);
        }
        if depth == 0 {
            return self.static_value(cpu, &b);
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
        let mv = cpu.moves(b.player, b.opponent);
        if mv == 0 {
            if cpu.moves(b.opponent, b.player) == 0 {
                return b.final_score() * SCALE;
            }
            self.pass();
            let v = -self.pvs_on(cpu, b.passed(), depth, -beta, -alpha);
            self.pass();
            return v;
        }
        // Multi-ProbCut, at null-window nodes.
        if self.selectivity < NO_CUT
            && depth >= probcut::MIN_DEPTH
            && beta - alpha == 1
            && let Some(v) = self.probcut(cpu, b, depth, alpha, beta, |s, b, d, a, be| {
                s.pvs_on(cpu, b, d, a, be)
            })
        {
            return v;
        }
        let at_root = (n, depth) == self.root;
        let mut moves = MoveList::new();
        // At depth 1, each child's count of legal moves: the ordering counts them, and
        // the child's evaluation (a mobility term) need not count them again.
        let mut child_moves = [0u8; 64];
        self.order_moves(
            cpu,
            b,
            depth,
            mv,
            hash_move,
            at_root,
            &mut moves,
            &mut child_moves,
        );
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
                let v = -self.leaf(cpu, &b, sq, f, replies);
                if i > 0 && v > alpha && v < beta {
                    -self.leaf(cpu, &b, sq, f, replies)
                } else {
                    v
                }
            } else {
                self.search_child(cpu, b, sq, f, depth, alpha, beta, i == 0, at_root)
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

    /// Where the search reaches the end: the solver's value in the window, in discs
    /// times `SCALE`.
    #[inline(always)]
    fn solve_in_window(&mut self, b: Board, alpha: i32, beta: i32) -> i32 {
        let (da, db) = (
            alpha.div_euclid(SCALE),
            (beta + SCALE - 1).div_euclid(SCALE),
        );
        let (da, db) = (da.clamp(-65, 64), db.clamp(-64, 65));
        match self.solver.search_window(b, da, db) {
            Ok(v) => v * SCALE,
            Err(_) => {
                self.stopped = true;
                0
            }
        }
    }

    /// Fills `moves` with the moves `mv` of `b` and their ordering values: the hash move
    /// first; at the root, the last iteration's values; from depth 3 the child's static
    /// value and few replies; below, few replies (at depth 1 counted into `child_moves`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn order_moves<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        depth: u32,
        mv: u64,
        hash_move: u8,
        at_root: bool,
        moves: &mut MoveList,
        child_moves: &mut [u8; 64],
    ) {
        let mut m = mv;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = cpu.flips(b.player, b.opponent, sq);
            if depth >= 2 {
                // The child will probe the table: start loading its bucket now.
                self.solver.table().prefetch(b.after(sq, f).key());
            }
            let value = if depth == 1 {
                let child = b.after(sq, f);
                let r = cpu.moves(child.player, child.opponent);
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
                -self.child_value(cpu, &b, sq, f, None) - SCALE * replies(cpu, b, sq, f)
            } else {
                -replies(cpu, b, sq, f)
            };
            moves.push(Candidate {
                sq,
                flipped: f,
                value,
            });
        }
    }

    /// The value of the move `sq` flipping `f` from `b`: a full window for the first
    /// move, a null window for the others, searched again in the full one when it fails
    /// high. At the root, keeps the move that beat the first one (`root_partial`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_child<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        sq: u32,
        f: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        first: bool,
        at_root: bool,
    ) -> i32 {
        let child = b.after(sq, f);
        self.play(sq, f);
        let v = if first {
            -self.pvs_on(cpu, child, depth - 1, -beta, -alpha)
        } else {
            let mut v = -self.pvs_on(cpu, child, depth - 1, -alpha - 1, -alpha);
            if v > alpha {
                // Only the root keeps it: better than every move before it at
                // this depth, the first (the last iteration's best) included.
                let before = self.root_partial;
                if at_root && !self.stopped {
                    self.root_partial = Some((sq as u8, v));
                }
                if v < beta {
                    v = -self.pvs_on(cpu, child, depth - 1, -beta, -alpha);
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
    }

    /// A depth-0 node under `b` (the move `sq` flipping `f`, `replies` the child's count
    /// of legal moves): what `pvs` does for it. The child has at least one empty square
    /// (its parent had two), so it is evaluated.
    #[inline(always)]
    fn leaf<K: Cpu>(&mut self, cpu: K, b: &Board, sq: u32, f: u64, replies: u32) -> i32 {
        self.nodes += 1;
        if self.poll_stop() {
            return 0;
        }
        self.child_value(cpu, b, sq, f, Some(replies))
    }
}

/// Bounds of a table entry in midgame units. Entries as deep as the empties are the
/// endgame solver's, in discs; the midgame stores only shallower ones, in 1/`SCALE`.
#[inline]
fn table_bounds(p: Probe, empties: u32) -> (i32, i32) {
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
fn replies(cpu: impl Cpu, b: Board, sq: u32, f: u64) -> i32 {
    let child = b.after(sq, f);
    reply_value(cpu.moves(child.player, child.opponent))
}

/// [`replies`] of the opponent's moves `r`.
#[inline(always)]
fn reply_value(r: u64) -> i32 {
    (r.count_ones() + (r & 0x8100_0000_0000_0081).count_ones()) as i32
}
