//! The endgame solver's shallow searches on an evaluation: alpha-beta to a few plies,
//! to order moves at high empties, to guess the score and to test ProbCut's cuts.

use crate::board::Board;
use crate::board::cpu::{Cpu, Fast, Portable, fast_copies};
use crate::eval::{EvalState, Evaluator};
use crate::search::ordering::{Candidate, MoveList, pick_best};
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

/// The values at the leaves of [`leaf_search`], told of every move on the way down so
/// that an evaluation can keep its state up to date instead of starting from scratch.
pub(super) trait LeafValue {
    fn play(&mut self, _sq: u32, _flipped: u64) {}
    fn undo(&mut self, _sq: u32, _flipped: u64) {}
    fn pass(&mut self) {}
    /// The value of `b`, the position the search stands at, computed in `cpu`'s copy.
    fn value<K: Cpu>(&mut self, cpu: K, b: Board) -> i32;
    /// The value of `child`, the position after playing `sq` flipping `flipped`.
    #[inline(always)]
    fn value_after<K: Cpu>(&mut self, cpu: K, sq: u32, flipped: u64, child: Board) -> i32 {
        self.play(sq, flipped);
        let v = self.value(cpu, child);
        self.undo(sq, flipped);
        v
    }
}

/// Takes a child's value `v` into a fail-soft search's `best` and `alpha`: true when it
/// reaches `beta` and the other moves need no search.
#[inline(always)]
fn cuts(v: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

/// Leaves valued by a function of the board alone.
pub(super) struct ByBoard<F: FnMut(Board) -> i32>(pub(super) F);

impl<F: FnMut(Board) -> i32> LeafValue for ByBoard<F> {
    #[inline(always)]
    fn value<K: Cpu>(&mut self, _cpu: K, b: Board) -> i32 {
        (self.0)(b)
    }
}

/// Leaves valued by the pattern evaluation (divided by `divisor`), its indices kept in
/// `state` move by move.
pub(super) struct Patterns<'e> {
    ev: &'e Evaluator,
    state: EvalState,
    divisor: i32,
}

impl<'e> Patterns<'e> {
    pub(super) fn new(ev: &'e Evaluator, b: Board, divisor: i32) -> Patterns<'e> {
        Patterns {
            ev,
            state: EvalState::new(&b),
            divisor,
        }
    }
}

impl LeafValue for Patterns<'_> {
    // Inlined into the search's copies, so that the fast one updates and reads the
    // pattern indices with AVX2 and counts the terms' moves with its generator.
    #[inline(always)]
    fn play(&mut self, sq: u32, flipped: u64) {
        self.state.make_move(sq, flipped);
    }
    #[inline(always)]
    fn undo(&mut self, sq: u32, flipped: u64) {
        self.state.undo_move(sq, flipped);
    }
    #[inline(always)]
    fn pass(&mut self) {
        self.state.pass();
    }
    #[inline(always)]
    fn value<K: Cpu>(&mut self, cpu: K, _b: Board) -> i32 {
        self.ev.evaluate_state_on(cpu, &self.state) / self.divisor
    }
    #[inline(always)]
    fn value_after<K: Cpu>(&mut self, cpu: K, sq: u32, flipped: u64, _child: Board) -> i32 {
        self.ev
            .evaluate_after_on(cpu, &self.state, sq, flipped, None)
            / self.divisor
    }
}

/// Leaf searches this deep or deeper look at the stop flag and the deadline at their
/// nodes of this depth and more. Ordering searches are this deep from 32 empties
/// ([`sort_depth`](super::order::sort_depth)); at 44 empties a solve went on for 167 s
/// after the stop, in its 14-ply ordering searches (at 36 empties 0.8 s, at 40 7 s).
/// Shallower searches, a few milliseconds at most, run without the test (FFO's solves,
/// at 29 empties and below, never reach it).
pub(super) const LEAF_POLL_DEPTH: u32 = 8;

/// Whether a [`leaf_search`] must stop.
pub(super) trait LeafPoll {
    /// Called at each node with its depth; true once the search must give up.
    fn stopped(&mut self, depth: u32) -> bool;
}

/// A leaf search that runs to its end.
pub(super) struct NoPoll;

impl LeafPoll for NoPoll {
    #[inline(always)]
    fn stopped(&mut self, _depth: u32) -> bool {
        false
    }
}

/// A leaf search that gives up when the solver's stop flag is raised or its deadline
/// passes (looked at in nodes of [`LEAF_POLL_DEPTH`] and more).
pub(super) struct StopPoll<'a> {
    pub(super) flag: &'a AtomicBool,
    pub(super) deadline: Option<Instant>,
    pub(super) hit: bool,
}

impl LeafPoll for StopPoll<'_> {
    #[inline(always)]
    fn stopped(&mut self, depth: u32) -> bool {
        if !self.hit && depth >= LEAF_POLL_DEPTH {
            self.hit = self.flag.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.hit
    }
}

/// From this depth up, [`leaf_search`] orders its moves by their evaluations.
const LEAF_ORDER_DEPTH: u32 = 4;

/// One [`leaf_search`]: what stays the same from node to node.
struct LeafSearch<'a, L, P> {
    leaf: &'a mut L,
    /// A finished game is worth its final score times this.
    end_scale: i32,
    nodes: u64,
    poll: &'a mut P,
}

/// Alpha-beta to `depth` plies on the values `leaf` gives; a finished game is worth its
/// final score times `end_scale`. Counts its nodes in `nodes`. Takes the fast copy when
/// `fast_path` holds the token.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) fn leaf_search<L: LeafValue, P: LeafPoll>(
    fast_path: Option<Fast>,
    b: Board,
    depth: u32,
    alpha: i32,
    beta: i32,
    leaf: &mut L,
    end_scale: i32,
    nodes: &mut u64,
    poll: &mut P,
) -> i32 {
    let mut s = LeafSearch {
        leaf,
        end_scale,
        nodes: 0,
        poll,
    };
    let v = match fast_path {
        Some(cpu) => s.search(cpu, b, depth, alpha, beta),
        None => s.search(Portable, b, depth, alpha, beta),
    };
    *nodes += s.nodes;
    v
}

impl<L: LeafValue, P: LeafPoll> LeafSearch<'_, L, P> {
    fast_copies! {
        fn search(b: Board, depth: u32, alpha: i32, beta: i32) -> i32
            = search_body, search_portable, search_fast, search_wide;
    }

    #[inline(always)]
    fn search_body<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.poll.stopped(depth) {
            return 0;
        }
        if depth == 0 {
            return self.leaf.value(cpu, b);
        }
        let mv = cpu.moves(b.player, b.opponent);
        if mv == 0 {
            if cpu.moves(b.opponent, b.player) == 0 {
                return b.final_score() * self.end_scale;
            }
            self.leaf.pass();
            let v = -self.search(cpu, b.passed(), depth, -beta, -alpha);
            self.leaf.pass();
            return v;
        }
        if depth >= LEAF_ORDER_DEPTH {
            return self.ordered(cpu, b, mv, depth, alpha, beta);
        }
        let mut best = i32::MIN + 1;
        let mut m = mv;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = cpu.flips(b.player, b.opponent, sq);
            let v = if depth == 1 {
                // A leaf: valued straight from here, with no move made and undone.
                self.nodes += 1;
                -self.leaf.value_after(cpu, sq, f, b.after(sq, f))
            } else {
                self.leaf.play(sq, f);
                let v = -self.search(cpu, b.after(sq, f), depth - 1, -beta, -alpha);
                self.leaf.undo(sq, f);
                v
            };
            if cuts(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }

    /// The moves `mv` of `b`, deep enough to be worth ordering: best evaluated child first.
    #[inline(always)]
    fn ordered<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        mv: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut moves = MoveList::new();
        let mut m = mv;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let f = cpu.flips(b.player, b.opponent, sq);
            self.nodes += 1;
            let value = -self.leaf.value_after(cpu, sq, f, b.after(sq, f));
            moves.push(Candidate {
                sq,
                flipped: f,
                value,
            });
        }
        let mut best = i32::MIN + 1;
        let list = moves.as_mut_slice();
        for i in 0..list.len() {
            pick_best(&mut list[i..]);
            let c = list[i];
            self.leaf.play(c.sq, c.flipped);
            let v = -self.search(cpu, b.after(c.sq, c.flipped), depth - 1, -beta, -alpha);
            self.leaf.undo(c.sq, c.flipped);
            if cuts(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }
}
