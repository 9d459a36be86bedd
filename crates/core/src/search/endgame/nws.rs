//! The endgame solver's principal variation and null-window searches: the table, the
//! stability cut-off, ProbCut in the selective passes, move ordering (hash move, then
//! fastest-first, then an evaluation search on top from `SORT_SEARCH_EMPTIES`), enhanced
//! transposition cut-offs, and the split points of the parallel search. From
//! `SHALLOW_EMPTIES` down they hand over to the last empties ([`super::last`]).

use super::last::{parity_of, stability_cutoff};
use super::leaf::{LeafValue, NoPoll, Patterns, leaf_search};
use super::order::{SORT_SEARCH_EMPTIES, fill_endgame, order_value_and_replies};
use super::parallel::ChildSearch;
use super::state::{EndgameSolver, INF};
use crate::board::Board;
use crate::board::cpu::{Cpu, Portable, fast_copies};
use crate::eval::SCALE;
use crate::search::ordering::{Candidate, ChildMoves, MOVES_UNKNOWN, MoveList, pick_best};
use crate::search::probcut::{self, NO_CUT};
use crate::search::tt::NO_MOVE;

/// At or below this many empties, search without table or move list. (FFO 40-49: 7
/// gave 1.04 G nodes, 6 with `nws` at 7 0.86 G and faster, 5 0.77 G and slower.)
const SHALLOW_EMPTIES: u32 = 6;
/// From this many empties up, `nws` uses the transposition table; below, it still
/// orders by mobility, which saves far more nodes there than the table, whose cache
/// misses cost more than the nodes it saves. (FFO 40-49, one thread, with the
/// transposition cut-offs from 12: 8 gave 479 M nodes, 9 506 M in about 0.96 of the
/// time, 10 532 M and no faster than 9.)
const TABLE_EMPTIES: u32 = 9;
/// From this many empties up, try transposition cut-offs on children first: a probe of
/// every child's bucket, whose cache misses the prefetch hides only in part. (FFO 40-49,
/// one thread, table from 8: 10 gave 471 M nodes, 12 479 M in about 0.94 of the time,
/// 11 and 13 in between, 14 489 M.)
const ETC_EMPTIES: u32 = 12;
/// ProbCut is tried in selective passes from this many empties up. (FFO 40-49, ETC from
/// 10: 12 gave 1.086 G nodes, 10 gave 1.042 G in the same time; 14 was worse.)
const ENDCUT_MIN_EMPTIES: u32 = 10;

/// Depth of the shallow search that predicts the exact score at `n` empties. (FFO 40-44:
/// depths 0/2/4 by band 129 M nodes, 2/4/6 114 M, 4/6/8 154 M with slower nodes.)
#[inline]
fn endcut_depth(n: u32) -> u32 {
    if n < 16 {
        2
    } else if n < 22 {
        4
    } else {
        6
    }
}

impl EndgameSolver {
    fast_copies! {
        fn pvs(b: Board, alpha: i32, beta: i32, n: u32) -> i32 = pvs_body, pvs_portable, pvs_fast, pvs_wide;
        fn nws(b: Board, alpha: i32, n: u32, known_moves: u64) -> i32 = nws_body, nws_portable, nws_fast, nws_wide;
    }

    /// The null-window search of `board` at `n` empties, in the copy this CPU runs.
    pub(super) fn dispatch_nws(&mut self, board: Board, alpha: i32, n: u32) -> i32 {
        match self.fast_path {
            Some(cpu) => self.nws(cpu, board, alpha, n, MOVES_UNKNOWN),
            None => self.nws(Portable, board, alpha, n, MOVES_UNKNOWN),
        }
    }

    /// The principal variation search of `board`, in the copy this CPU runs.
    pub(super) fn dispatch_pvs(&mut self, board: Board, alpha: i32, beta: i32) -> i32 {
        let n = board.empty_count();
        match self.fast_path {
            Some(cpu) => self.pvs(cpu, board, alpha, beta, n),
            None => self.pvs(Portable, board, alpha, beta, n),
        }
    }

    /// Selective cut-off (ProbCut) in a selective pass: a shallow search with the
    /// evaluation predicts the exact score; when it lies far enough outside the null
    /// window, the node is taken to fail the same way.
    fn endgame_probcut(&mut self, b: Board, alpha: i32, n: u32) -> Option<i32> {
        let e = self.evaluator.clone()?;
        let depth = endcut_depth(n);
        let sigma = self.probcut.sigma(n, depth, n) as f64;
        let margin = (probcut::LEVELS[self.endcut].0 * sigma) as i32;
        let high = (alpha + 1) * SCALE + margin;
        let low = alpha * SCALE - margin;
        let leaf = &mut Patterns::new(&e, b, 1);
        self.probcut_tests(b, depth, alpha, high, low, leaf)
    }

    /// ProbCut's two tests, with `leaf` standing at `b` (both searches leave it there):
    /// is the shallow value at least `high`, so the node fails high, or at most `low`?
    fn probcut_tests<L: LeafValue>(
        &mut self,
        b: Board,
        depth: u32,
        alpha: i32,
        high: i32,
        low: i32,
        leaf: &mut L,
    ) -> Option<i32> {
        let fast = self.fast_path;
        if high < 64 * SCALE
            && leaf_search(
                fast,
                b,
                depth,
                high - 1,
                high,
                leaf,
                SCALE,
                &mut self.nodes,
                &mut NoPoll,
            ) >= high
        {
            return Some(alpha + 1);
        }
        if low > -64 * SCALE
            && leaf_search(
                fast,
                b,
                depth,
                low,
                low + 1,
                leaf,
                SCALE,
                &mut self.nodes,
                &mut NoPoll,
            ) <= low
        {
            return Some(alpha);
        }
        None
    }

    /// Principal variation search, full window at PV nodes.
    #[inline(always)]
    fn pvs_body<K: Cpu>(&mut self, cpu: K, b: Board, mut alpha: i32, beta: i32, n: u32) -> i32 {
        self.nodes += 1;
        if self.poll_stop() {
            return 0;
        }
        let mv = b.moves();
        if mv == 0 {
            if b.passed().moves() == 0 {
                return b.final_score();
            }
            return -self.pvs(cpu, b.passed(), -beta, -alpha, n);
        }
        let key = b.key();
        let depth = n as u8;
        let hash_move = self
            .tt
            .probe(key, depth, self.tag)
            .map_or(NO_MOVE, |p| p.best);
        let parity = parity_of(b.empties());
        let mut moves = MoveList::new();
        fill_endgame(&mut moves, b, mv, hash_move, parity, cpu);
        let list = moves.as_mut_slice();
        let count = list.len();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        for i in 0..count {
            pick_best(&mut list[i..count]);
            let c = list[i];
            let child = b.after(c.sq, c.flipped);
            let v = if i == 0 {
                -self.pvs(cpu, child, -beta, -alpha, n - 1)
            } else {
                let mut v = -self.nws(cpu, child, -alpha - 1, n - 1, MOVES_UNKNOWN);
                if v > alpha && v < beta {
                    v = -self.pvs(cpu, child, -beta, -alpha, n - 1);
                }
                v
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = c.sq as u8;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.tt
            .store(key, depth, self.tag, alpha0, beta, best, best_sq);
        best
    }

    /// Null-window search with the transposition table. `known_moves`: the side to move's
    /// legal moves when the caller has generated them (its ordering counted them), else
    /// [`MOVES_UNKNOWN`].
    #[inline(always)]
    fn nws_body<K: Cpu>(&mut self, cpu: K, b: Board, alpha: i32, n: u32, known_moves: u64) -> i32 {
        if n <= SHALLOW_EMPTIES {
            return self.shallow(cpu, b, alpha, n, parity_of(b.empties()), known_moves);
        }
        self.nodes += 1;
        if self.poll_stop() {
            return 0;
        }
        if let Some(bound) = stability_cutoff(b, alpha, n) {
            return bound;
        }
        let depth = n as u8;
        let mut hash_move = NO_MOVE;
        let use_table = n >= TABLE_EMPTIES;
        let key = if use_table { b.key() } else { 0 };
        if use_table && let Some(p) = self.tt.probe(key, depth, self.tag) {
            if p.lower > alpha {
                return p.lower;
            }
            if p.upper <= alpha {
                return p.upper;
            }
            hash_move = p.best;
        }
        if self.endcut < NO_CUT
            && n >= ENDCUT_MIN_EMPTIES
            && let Some(v) = self.endgame_probcut(b, alpha, n)
        {
            return v;
        }
        let mv = if known_moves != MOVES_UNKNOWN {
            known_moves
        } else {
            cpu.moves(b.player, b.opponent)
        };
        if mv == 0 {
            if cpu.moves(b.opponent, b.player) == 0 {
                return b.final_score();
            }
            return -self.nws(cpu, b.passed(), -alpha - 1, n, MOVES_UNKNOWN);
        }
        let mut best = -INF;
        let mut best_sq = NO_MOVE;
        let mut others = mv;
        // The hash move alone, before the other moves' flips and the ordering work: it
        // often refutes, and then none of that is needed.
        if hash_move != NO_MOVE && mv >> hash_move & 1 != 0 {
            let sq = hash_move as u32;
            let v = -self.nws(
                cpu,
                b.after(sq, cpu.flips(b.player, b.opponent, sq)),
                -alpha - 1,
                n - 1,
                MOVES_UNKNOWN,
            );
            if self.stopped {
                return 0;
            }
            best = v;
            best_sq = hash_move;
            others = mv & !(1 << sq);
            if v > alpha || others == 0 {
                // (A hash move means the table is in use.)
                self.tt
                    .store(key, depth, self.tag, alpha, alpha + 1, best, best_sq);
                return best;
            }
        }
        let mut moves = MoveList::new();
        let mut child_moves = ChildMoves::new();
        if let Some(v) =
            self.order_children(cpu, b, alpha, n, key, others, &mut moves, &mut child_moves)
        {
            return v;
        }
        let (v, sq) = self.search_moves(cpu, b, alpha, n, moves.as_mut_slice(), &child_moves, best);
        if self.stopped {
            return 0;
        }
        if v > best {
            best = v;
            best_sq = sq;
        }
        if use_table {
            self.tt
                .store(key, depth, self.tag, alpha, alpha + 1, best, best_sq);
        }
        best
    }

    /// Fills `list` with the moves `others` of `b` in the null-window search's order
    /// (fastest-first, then the evaluation's searches from `SORT_SEARCH_EMPTIES` up), or
    /// answers at once with an enhanced transposition cut-off: a child the table already
    /// knows to refute `alpha`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn order_children<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        alpha: i32,
        n: u32,
        key: u64,
        others: u64,
        moves: &mut MoveList,
        child_moves: &mut ChildMoves,
    ) -> Option<i32> {
        let depth = n as u8;
        let parity = parity_of(b.empties());
        let mut m = others;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let flipped = cpu.flips(b.player, b.opponent, sq);
            moves.push(Candidate {
                sq,
                flipped,
                value: 0,
            });
        }
        let list = moves.as_mut_slice();
        // The other children's table buckets are fetched all at once, so that their
        // cache misses overlap each other and the ordering work below instead of
        // stalling the probes one by one. (Not before the hash move, which mostly
        // refutes alone: those fetches were wasted and held up its own.)
        if n > TABLE_EMPTIES {
            for c in list.iter() {
                self.tt.prefetch(b.after(c.sq, c.flipped).key());
            }
        }
        for c in list.iter_mut() {
            let (value, replies) = order_value_and_replies(cpu, b, c.sq, c.flipped, parity);
            c.value = value;
            child_moves.set(c.sq, replies);
        }
        // Enhanced transposition cut-off: a child already known to refute. (After the
        // hash move and the ordering values, so that the prefetched buckets have come.)
        if n >= ETC_EMPTIES {
            for c in list.iter() {
                let child = b.after(c.sq, c.flipped);
                if let Some(p) = self.tt.probe(child.key(), depth - 1, self.tag)
                    && -p.upper > alpha
                {
                    self.tt
                        .store(key, depth, self.tag, alpha, alpha + 1, -p.upper, c.sq as u8);
                    return Some(-p.upper);
                }
            }
        }
        if n >= SORT_SEARCH_EMPTIES {
            self.sort_by_shallow_search(b, list, n);
        }
        None
    }

    /// Searches the moves of `list` best first until one refutes `alpha`; `best`: the
    /// value of the hash move searched before them (`-INF` if none). Once a move is
    /// searched without a cut, the others (two or more) may go to idle threads (Young
    /// Brothers Wait). The best value and its move (`NO_MOVE` if none beat `best`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_moves<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        alpha: i32,
        n: u32,
        list: &mut [Candidate],
        child_moves: &ChildMoves,
        mut best: i32,
    ) -> (i32, u8) {
        let count = list.len();
        let mut best_sq = NO_MOVE;
        for i in 0..count {
            if n >= self.split_min_empties
                && best > -INF
                && i + 1 < count
                && self.pool.as_ref().is_some_and(|p| p.has_idle())
            {
                let search: ChildSearch = EndgameSolver::dispatch_nws;
                let (v, sq) = self.split(b, alpha, n, &mut list[i..count], search);
                if self.stopped {
                    return (0, NO_MOVE);
                }
                if v > best {
                    best = v;
                    best_sq = sq;
                }
                break;
            }
            pick_best(&mut list[i..count]);
            let c = list[i];
            let v = -self.nws(
                cpu,
                b.after(c.sq, c.flipped),
                -alpha - 1,
                n - 1,
                child_moves.get(c.sq),
            );
            if self.stopped {
                return (0, NO_MOVE);
            }
            if v > best {
                best = v;
                best_sq = c.sq as u8;
                if v > alpha {
                    break;
                }
            }
        }
        (best, best_sq)
    }
}
