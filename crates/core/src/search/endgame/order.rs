//! Move ordering in the endgame solver: fastest-first (few opponent replies, corners
//! counted twice), the mover's discs made safe at the corners, quadrant parity; on top,
//! from `SORT_SEARCH_EMPTIES` up, a shallow search on the evaluation.

use super::last::{CORNERS, QUADRANT_BIT, XC_SQUARES};
use super::leaf::{ByBoard, LEAF_POLL_DEPTH, LeafValue, NoPoll, Patterns, StopPoll, leaf_search};
use super::state::EndgameSolver;
use crate::board::cpu::{Cpu, Portable};
use crate::board::{Board, moves};
use crate::search::ordering::{Candidate, MoveList};

/// From this many empties up, moves are ordered by a shallow search (at 14-15 empties by
/// the children's evaluations alone). FFO 40-49 with the weight below: 16 gave 810 M
/// nodes; since the last ply's evaluation is made without a move and its undo, 14 gives
/// 751 M in less time (29.1 s against 30.6 s, best of 3), 15 781 M, 13 740 M and 12 732 M
/// more slowly.
pub(super) const SORT_SEARCH_EMPTIES: u32 = 14;
/// Weight of the shallow search's value against the fastest-first value (a disc of
/// evaluation is 4 units, a reply 1024). (FFO 40-49, ordering searches from 16 empties:
/// 256 gave 876 M nodes, 128 855 M, 96 830 M, 64 866 M, 32 1.09 G; from 14: 160 814 M,
/// 96 751 M, 64 809 M.)
const SORT_SEARCH_WEIGHT: i32 = 96;
/// Pattern evaluations (1/128 disc) are divided by this to come to [`quick_eval`]'s scale.
pub(super) const PATTERN_EVAL_DIVISOR: i32 = 32;

/// Depth of the ordering search: the child's evaluation alone below 16 empties, one ply
/// at 16-18 empties, one more every 3 empties up to 23, then one more every 2 empties
/// (4 plies at 24-25, 5 at 26-27, 6 at 28-29). Deeper ordering pays where the subtrees
/// are large. One thread, nodes (FFO 40-49 / 50-59 / 24 WTHOR 2015-16 positions at
/// 24 and 26 empties): one more every 4 empties (the rule before) 661 M / 19.85 G /
/// 3.12 G; every 3: 681 M / 17.83 G / 3.00 G; every 3 then every 2 from 24 (this rule)
/// 646 M / 17.86 G / 2.97 G. The child's evaluation alone up to 19 empties gave
/// 971 M on FFO 40-49 (an earlier release).
#[inline]
pub(super) fn sort_depth(n: u32) -> u32 {
    match n {
        0..16 => 0,
        16..24 => (n - 16) / 3 + 1,
        _ => (n - 24) / 2 + 4,
    }
}

/// A cheap evaluation for ordering: mobility (corners double), corners held, and
/// potential mobility, from the side to move's view.
#[inline(always)]
pub(super) fn quick_eval(b: Board) -> i32 {
    let mp = moves(b.player, b.opponent);
    let mo = moves(b.opponent, b.player);
    let mob = (mp.count_ones() + (mp & CORNERS).count_ones()) as i32
        - (mo.count_ones() + (mo & CORNERS).count_ones()) as i32;
    let corners =
        (b.player & CORNERS).count_ones() as i32 - (b.opponent & CORNERS).count_ones() as i32;
    let pot = crate::board::potential_moves(b.player, b.opponent).count_ones() as i32
        - crate::board::potential_moves(b.opponent, b.player).count_ones() as i32;
    4 * mob + 8 * corners + pot
}

impl EndgameSolver {
    /// Orders moves by a shallow search with [`quick_eval`] on top of fastest-first.
    pub(super) fn sort_by_shallow_search(&mut self, b: Board, list: &mut [Candidate], n: u32) {
        let depth = sort_depth(n);
        let evaluator = self.evaluator.clone();
        match evaluator.as_deref() {
            // The children's pattern indices by update from the parent's rather than from
            // scratch at every leaf.
            Some(e) => self.sort_children(
                b,
                list,
                depth,
                &mut Patterns::new(e, b, PATTERN_EVAL_DIVISOR),
            ),
            None => self.sort_children(b, list, depth, &mut ByBoard(quick_eval)),
        }
    }

    /// Adds each child's value by a `depth`-ply search on `leaf`'s values to its ordering
    /// value (`leaf` stands at `b`).
    fn sort_children<L: LeafValue>(
        &mut self,
        b: Board,
        list: &mut [Candidate],
        depth: u32,
        leaf: &mut L,
    ) {
        // Deep ordering searches (from 32 empties) look at the stop flag and the deadline
        // themselves; the shallower ones (FFO's) run as they always did.
        let mut poll = StopPoll {
            flag: &self.stop,
            deadline: self.deadline,
            hit: false,
        };
        for c in list.iter_mut() {
            if c.value == i32::MAX {
                continue;
            }
            let child = b.after(c.sq, c.flipped);
            let e = if depth == 0 {
                self.nodes += 1;
                -leaf.value_after(Portable, c.sq, c.flipped, child)
            } else {
                leaf.play(c.sq, c.flipped);
                let (fast, nodes) = (self.fast_path, &mut self.nodes);
                let e = if depth >= LEAF_POLL_DEPTH {
                    -leaf_search(
                        fast, child, depth, -10_000, 10_000, leaf, 100, nodes, &mut poll,
                    )
                } else {
                    -leaf_search(
                        fast,
                        child,
                        depth,
                        -10_000,
                        10_000,
                        leaf,
                        100,
                        nodes,
                        &mut NoPoll,
                    )
                };
                leaf.undo(c.sq, c.flipped);
                e
            };
            if poll.hit {
                // The order no longer matters: the search unwinds from the next node.
                self.stopped = true;
                return;
            }
            c.value += e * SORT_SEARCH_WEIGHT;
        }
    }
}

/// Weight in [`order_value`] of each of the mover's discs that [`corner_stability`]
/// counts (a reply is 1024). (FFO 40-49 nodes: none 700 M, 64 680 M, 256 661 M, 512
/// 696 M, 1024 790 M; FFO 20-39: 103 M, 100 M, 98 M, 102 M.)
const CORNER_STABILITY_WEIGHT: i32 = 256;

/// Ordering value of playing `sq` (higher first): few opponent replies above all,
/// corner replies counting double; then the mover's discs made safe at the corners;
/// then odd quadrants; then a little for corners and against X/C-squares. (Few
/// potential replies last, as a tie-break, changed FFO 40-49's nodes by 0.01% and
/// cost 1% of the time.)
#[inline(always)]
pub(super) fn order_value(cpu: impl Cpu, b: Board, sq: u32, flipped: u64, parity: u32) -> i32 {
    order_value_and_replies(cpu, b, sq, flipped, parity).0
}

/// [`order_value`], and the opponent's replies it counted: the child's legal moves,
/// which its own search then need not generate again.
#[inline(always)]
pub(super) fn order_value_and_replies(
    cpu: impl Cpu,
    b: Board,
    sq: u32,
    flipped: u64,
    parity: u32,
) -> (i32, u64) {
    let child = b.after(sq, flipped);
    let replies = cpu.moves(child.player, child.opponent);
    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let mut v = -mobility * 1024 + corner_stability(child.opponent) * CORNER_STABILITY_WEIGHT;
    if parity & QUADRANT_BIT[sq as usize] != 0 {
        v += 128;
    }
    if CORNERS >> sq & 1 != 0 {
        v += 128;
    } else if XC_SQUARES >> sq & 1 != 0 {
        v -= 64;
    }
    (v, replies)
}

/// The mover's corners and the edge discs next to them: a cheap part of its stable discs.
#[inline(always)]
fn corner_stability(p: u64) -> i32 {
    let stable = ((0x0100_0000_0000_0001 & p) << 1
        | (0x8000_0000_0000_0080 & p) >> 1
        | (0x0000_0000_0000_0081 & p) << 8
        | (0x8100_0000_0000_0000 & p) >> 8
        | CORNERS)
        & p;
    stable.count_ones() as i32
}

/// Fills `list` with the legal moves and their fastest-first ordering values, the hash
/// move first.
#[inline(always)]
pub(super) fn fill_endgame(
    list: &mut MoveList,
    b: Board,
    mv: u64,
    hash_move: u8,
    parity: u32,
    cpu: impl Cpu,
) {
    let mut m = mv;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let f = cpu.flips(b.player, b.opponent, sq);
        let value = if sq as u8 == hash_move {
            i32::MAX
        } else {
            order_value(cpu, b, sq, f, parity)
        };
        list.push(Candidate {
            sq,
            flipped: f,
            value,
        });
    }
}
