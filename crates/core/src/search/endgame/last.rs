//! The last empties of the endgame solver: from `SHALLOW_EMPTIES` down, a null-window
//! search with no table and no move list (the stability cut-off down to 4 empties):
//! empties are tried straight from bitboards, odd-parity quadrants first, corners first
//! and X/C-squares last; then `solve4` .. `solve1` with fixed squares. A square with no
//! opponent disc next to it is skipped without computing its flips.

use super::state::{EndgameSolver, INF};
use crate::board::cpu::{Cpu, fast_copies};
use crate::board::stability::stable_discs_at_least;
use crate::board::{Board, NEIGHBOURS, last_flip_count};
use crate::search::ordering::MOVES_UNKNOWN;

/// Takes a child's value `v` into a null-window search's `best`: true when it beats
/// `alpha`, which ends the search (the window's upper side is `alpha + 1`).
#[inline(always)]
fn raises(v: i32, best: &mut i32, alpha: i32) -> bool {
    if v > *best {
        *best = v;
    }
    v > alpha
}

pub(super) const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares and C-squares: usually the worst moves.
pub(super) const XC_SQUARES: u64 = 0x42C3_0000_0000_C342;

/// Bit of the quadrant a square lies in (a1-d4, e1-h4, a5-d8, e5-h8).
pub(super) const QUADRANT_BIT: [u32; 64] = {
    let mut q = [0u32; 64];
    let mut s = 0;
    while s < 64 {
        let col = s % 8;
        let row = s / 8;
        q[s] = 1 << ((row >= 4) as usize * 2 + (col >= 4) as usize);
        s += 1;
    }
    q
};

/// Squares of the quadrants named by a 4-bit set.
pub(super) const QUADRANT_MASK: [u64; 16] = {
    const Q: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];
    let mut m = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut j = 0;
        while j < 4 {
            if i >> j & 1 != 0 {
                m[i] |= Q[j];
            }
            j += 1;
        }
        i += 1;
    }
    m
};

/// The quadrants holding an odd number of `empties`, as a 4-bit set.
#[inline(always)]
pub(super) fn parity_of(empties: u64) -> u32 {
    (empties & QUADRANT_MASK[1]).count_ones() & 1
        | ((empties & QUADRANT_MASK[2]).count_ones() & 1) << 1
        | ((empties & QUADRANT_MASK[4]).count_ones() & 1) << 2
        | ((empties & QUADRANT_MASK[8]).count_ones() & 1) << 3
}

/// The stability cut-off is tried when alpha is at least this high (by empties): below,
/// the opponent would need more stable discs than such positions have. Never below 4
/// empties, where the last-empties code is cheaper than the test. (FFO 40-49, one
/// thread: 2n + 4 gave 565 M nodes, 2n - 4 480 M in 0.965 of the time, 2n - 8 a little
/// faster again; without the cut-off 855 M nodes.)
const STABILITY_THRESHOLD: [i32; 65] = {
    let mut t = [INF; 65];
    let mut n = 4;
    while n <= 64 {
        let v = 2 * n as i32 - 8;
        t[n] = if v < 64 { v } else { 64 };
        n += 1;
    }
    t
};

/// The stability cut-off: the opponent's stable discs cap the score at `n` empties; a
/// cap at or below `alpha` is the answer (an upper bound). The count stops once the
/// cap is low enough, so the bound may be looser than all the stable discs would give.
#[inline(always)]
pub(super) fn stability_cutoff(b: Board, alpha: i32, n: u32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[n as usize] {
        return None;
    }
    // The cap 64 - 2 * stable is at most alpha once the stable discs reach this many.
    let need = (64 - alpha + 1).div_euclid(2).max(0) as u32;
    let stable = stable_discs_at_least(b.opponent, b.player, need)?;
    Some(64 - 2 * stable.count_ones() as i32)
}

impl EndgameSolver {
    fast_copies! {
        pub(super) fn shallow(b: Board, alpha: i32, n: u32, parity: u32, known_moves: u64) -> i32
            = shallow_body, shallow_portable, shallow_fast, shallow_wide;
        fn solve4(b: Board, alpha: i32, n: u32, empties: u64, parity: u32) -> i32
            = solve4_body, solve4_portable, solve4_fast, solve4_wide;
        fn solve3(b: Board, alpha: i32, x1: u32, x2: u32, x3: u32) -> i32
            = solve3_body, solve3_portable, solve3_fast, solve3_wide;
        fn solve2(b: Board, alpha: i32, x1: u32, x2: u32) -> i32
            = solve2_body, solve2_portable, solve2_fast, solve2_wide;
    }

    /// Null-window search near the end: no table, no move list. `known_moves`: the side
    /// to move's legal moves when the caller has generated them, else [`MOVES_UNKNOWN`].
    #[inline(always)]
    fn shallow_body<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        alpha: i32,
        n: u32,
        parity: u32,
        known_moves: u64,
    ) -> i32 {
        let empties = b.empties();
        if let Some(bound) = stability_cutoff(b, alpha, n) {
            self.nodes += 1;
            return bound;
        }
        if n <= 4 {
            return self.solve4(cpu, b, alpha, n, empties, parity);
        }
        self.nodes += 1;
        let odd = QUADRANT_MASK[parity as usize];
        let mut best = -INF;
        // Known moves spare the tries of the squares where no disc would flip.
        let squares = if known_moves != MOVES_UNKNOWN {
            known_moves
        } else {
            empties
        };
        for set in [
            squares & odd & CORNERS,
            squares & odd & !XC_SQUARES & !CORNERS,
            squares & odd & XC_SQUARES,
            squares & !odd & CORNERS,
            squares & !odd & !XC_SQUARES & !CORNERS,
            squares & !odd & XC_SQUARES,
        ] {
            let mut s = set;
            while s != 0 {
                let sq = s.trailing_zeros();
                s &= s - 1;
                let f = flips_near(cpu, b.player, b.opponent, sq);
                if f == 0 {
                    continue;
                }
                let v = -self.shallow(
                    cpu,
                    b.after(sq, f),
                    -alpha - 1,
                    n - 1,
                    parity ^ QUADRANT_BIT[sq as usize],
                    MOVES_UNKNOWN,
                );
                if raises(v, &mut best, alpha) {
                    return v;
                }
            }
        }
        if best == -INF {
            if cpu.moves(b.opponent, b.player) == 0 {
                return b.final_score();
            }
            return -self.shallow(cpu, b.passed(), -alpha - 1, n, parity, MOVES_UNKNOWN);
        }
        best
    }

    /// Four (or fewer) empties: the squares in odd quadrants first.
    #[inline(always)]
    fn solve4_body<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        alpha: i32,
        n: u32,
        empties: u64,
        parity: u32,
    ) -> i32 {
        let mut sq = [0u32; 4];
        let mut k = 0;
        let odd = QUADRANT_MASK[parity as usize];
        for set in [empties & odd, empties & !odd] {
            let mut s = set;
            while s != 0 {
                sq[k] = s.trailing_zeros();
                s &= s - 1;
                k += 1;
            }
        }
        match n {
            4 => {}
            3 => return self.solve3(cpu, b, alpha, sq[0], sq[1], sq[2]),
            2 => return self.solve2(cpu, b, alpha, sq[0], sq[1]),
            1 => {
                self.nodes += 1;
                return solve1(b, sq[0]);
            }
            _ => return b.final_score(),
        }
        self.nodes += 1;
        let [s0, s1, s2, s3] = sq;
        let mut best = -INF;
        for (x, r) in [
            (s0, [s1, s2, s3]),
            (s1, [s0, s2, s3]),
            (s2, [s0, s1, s3]),
            (s3, [s0, s1, s2]),
        ] {
            let f = flips_near(cpu, b.player, b.opponent, x);
            if f != 0 {
                let v = -self.solve3(cpu, b.after(x, f), -alpha - 1, r[0], r[1], r[2]);
                if raises(v, &mut best, alpha) {
                    return v;
                }
            }
        }
        if best == -INF {
            let o = b.passed();
            if sq
                .iter()
                .all(|&x| flips_near(cpu, o.player, o.opponent, x) == 0)
            {
                return b.final_score();
            }
            return -self.solve4(cpu, o, -alpha - 1, 4, empties, parity);
        }
        best
    }

    #[inline(always)]
    fn solve3_body<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        alpha: i32,
        x1: u32,
        x2: u32,
        x3: u32,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for (x, y, z) in [(x1, x2, x3), (x2, x1, x3), (x3, x1, x2)] {
            let f = flips_near(cpu, b.player, b.opponent, x);
            if f != 0 {
                let v = -self.solve2(cpu, b.after(x, f), -alpha - 1, y, z);
                if raises(v, &mut best, alpha) {
                    return v;
                }
            }
        }
        if best == -INF {
            let o = b.passed();
            let legal = |x| flips_near(cpu, o.player, o.opponent, x) != 0;
            if !legal(x1) && !legal(x2) && !legal(x3) {
                return b.final_score();
            }
            return -self.solve3(cpu, o, -alpha - 1, x1, x2, x3);
        }
        best
    }

    #[inline(always)]
    fn solve2_body<K: Cpu>(&mut self, cpu: K, b: Board, alpha: i32, x1: u32, x2: u32) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let f = flips_near(cpu, b.player, b.opponent, x1);
        if f != 0 {
            self.nodes += 1;
            best = -solve1(b.after(x1, f), x2);
            if best > alpha {
                return best;
            }
        }
        let f = flips_near(cpu, b.player, b.opponent, x2);
        if f != 0 {
            self.nodes += 1;
            let v = -solve1(b.after(x2, f), x1);
            if v > best {
                best = v;
            }
        }
        if best == -INF {
            // The player passes; the opponent picks the reply worst for the player.
            let o = b.passed();
            let f1 = flips_near(cpu, o.player, o.opponent, x1);
            let f2 = flips_near(cpu, o.player, o.opponent, x2);
            if f1 | f2 == 0 {
                return b.final_score();
            }
            best = INF;
            if f1 != 0 {
                self.nodes += 1;
                best = solve1(o.after(x1, f1), x2);
            }
            if f2 != 0 {
                self.nodes += 1;
                best = best.min(solve1(o.after(x2, f2), x1));
            }
        }
        best
    }
}

/// The last empty square: the side to move plays it if it can, else the opponent, else
/// nobody; the score is exact. Only flip counts are needed, not the flipped discs.
#[inline(always)]
pub(super) fn solve1(b: Board, sq: u32) -> i32 {
    let discs = b.player.count_ones() as i32;
    let n = last_flip_count(b.player, sq) as i32;
    if n != 0 {
        return 2 * (discs + n + 1) - 64;
    }
    // Every other square is taken: what is not the player's is the opponent's.
    let n = last_flip_count(!b.player, sq) as i32;
    if n != 0 {
        return 2 * (discs - n) - 64;
    }
    let d = 2 * discs - 63;
    if d > 0 { d + 1 } else { d - 1 }
}

/// `flips`, or 0 at once when no opponent disc is next to `sq` (the last empty squares
/// are often such).
#[inline(always)]
pub(super) fn flips_near(cpu: impl Cpu, p: u64, o: u64, sq: u32) -> u64 {
    if NEIGHBOURS[sq as usize] & o == 0 {
        0
    } else {
        cpu.flips(p, o, sq)
    }
}
