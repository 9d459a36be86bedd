//! Move generation and flips on raw bitboards.
//!
//! Moves: the shift-and-mask flood in the 4 line directions, both ways at once, covering
//! the up to 6 opponent discs a line can hold (1 + 1 + 2 + 2 steps).
//! Flips: for each of the 8 rays from the square, the first square that is not an
//! opponent disc is found with one bit scan; if it holds a player disc, the squares
//! between are flipped. Branch-free apart from the fixed 8-ray loop, which unrolls.

/// Columns b..g: stops horizontal and diagonal shifts from wrapping around the board.
const INNER_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

#[inline(always)]
fn line_moves(p: u64, mask: u64, d: u32) -> u64 {
    let mut fl = mask & (p << d);
    let mut fr = mask & (p >> d);
    fl |= mask & (fl << d);
    fr |= mask & (fr >> d);
    let pre_l = mask & (mask << d);
    let pre_r = pre_l >> d;
    let d2 = d + d;
    fl |= pre_l & (fl << d2);
    fr |= pre_r & (fr >> d2);
    fl |= pre_l & (fl << d2);
    fr |= pre_r & (fr >> d2);
    (fl << d) | (fr >> d)
}

/// Legal moves for the player `p` against the opponent `o`.
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    let mask = o & INNER_COLS;
    (line_moves(p, mask, 1) | line_moves(p, o, 8) | line_moves(p, mask, 7) | line_moves(p, mask, 9))
        & !(p | o)
}

/// Empty squares next to an opponent disc: where moves may appear later. A cheap
/// measure of "potential mobility" for move ordering.
#[inline(always)]
pub fn potential_moves(p: u64, o: u64) -> u64 {
    let h = o & INNER_COLS;
    let n = (h << 1) | (h >> 1) | (o << 8) | (o >> 8) | (h << 7) | (h >> 7) | (h << 9) | (h >> 9);
    n & !(p | o)
}

/// Rays from each square: index 0..4 go towards higher indices (E, N, NE, NW),
/// 4..8 towards lower ones (W, S, SW, SE). A ray excludes its own square.
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    // (dcol, drow) for E, N, NE, NW, W, S, SW, SE
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRS[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Discs of `o` flipped when `p` plays on the empty square `sq`; 0 means illegal.
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: u32) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut f = 0u64;
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let blockers = ray & !o;
        let first = blockers & blockers.wrapping_neg();
        let outflank = first & p;
        f |= outflank.wrapping_sub((outflank != 0) as u64) & ray;
        d += 1;
    }
    while d < 8 {
        let ray = rays[d];
        let blockers = ray & !o;
        // With no blocker the shift wraps to h8, which no downward ray contains.
        let first = 0x8000_0000_0000_0000u64.wrapping_shr(blockers.leading_zeros());
        let outflank = first & p & ray;
        f |= (outflank << 1).wrapping_neg() & ray;
        d += 1;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The obvious walk along the 8 directions, to check the fast code against.
    fn flips_slow(p: u64, o: u64, sq: u32) -> u64 {
        if (p | o) >> sq & 1 != 0 {
            return 0;
        }
        let mut all = 0;
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            let mut line = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let b = 1u64 << (r * 8 + c);
                if o & b != 0 {
                    line |= b;
                } else {
                    if p & b != 0 {
                        all |= line;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        all
    }

    fn board() -> impl Strategy<Value = (u64, u64)> {
        (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(a, b, c)| {
            let occupied = a | b; // dense boards, like the endgame
            (occupied & c, occupied & !c)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn flips_match_slow((p, o) in board(), sq in 0u32..64) {
            let expect = flips_slow(p, o, sq);
            if (p | o) >> sq & 1 == 0 {
                prop_assert_eq!(flips(p, o, sq), expect);
            }
        }

        #[test]
        fn moves_match_flips((p, o) in board()) {
            let m = moves(p, o);
            for sq in 0..64 {
                let legal = (p | o) >> sq & 1 == 0 && flips_slow(p, o, sq) != 0;
                prop_assert_eq!(m >> sq & 1 != 0, legal, "square {}", sq);
            }
        }
    }
}
