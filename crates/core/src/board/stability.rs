//! Stable discs: discs that no sequence of moves can flip.
//!
//! A conservative count (never more than the true set): discs on the edges found stable
//! by an exact analysis of each edge line on its own, discs whose four lines are full,
//! and inner discs that, in each of the four line directions, lie on a full line or
//! touch a stable disc of their colour. The endgame solver uses the opponent's stable
//! discs to bound the score from above; the feature evaluation counts them. A board
//! fact, so it lives here, below both.

use std::sync::OnceLock;

/// `EDGE[p * 256 + o]`: bits of `p` stable on an 8-square line holding `p` and `o`.
fn edge_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut memo = vec![NOT_DONE; 65536];
        let mut table = vec![0u8; 65536];
        for p in 0..256u32 {
            for o in 0..256u32 {
                if p & o == 0 {
                    table[(p * 256 + o) as usize] = edge_stable(p as u8, o as u8, &mut memo);
                }
            }
        }
        table
    })
}

/// Discs of `p` flipped along the line when `p` places at `x`.
fn line_flips(p: u8, o: u8, x: u32) -> u8 {
    let mut f = 0u8;
    // towards higher bits
    let mut run = 0u8;
    let mut i = x + 1;
    while i < 8 && o >> i & 1 != 0 {
        run |= 1 << i;
        i += 1;
    }
    if i < 8 && p >> i & 1 != 0 {
        f |= run;
    }
    run = 0;
    let mut i = x as i32 - 1;
    while i >= 0 && o >> i & 1 != 0 {
        run |= 1 << i;
        i -= 1;
    }
    if i >= 0 && p >> i & 1 != 0 {
        f |= run;
    }
    f
}

/// Discs of `p` that stay `p` whatever discs either side places on the line's empties
/// (a disc may always be placed: it can flip along another line).
fn edge_stable(p: u8, o: u8, memo: &mut [u16]) -> u8 {
    let idx = p as usize * 256 + o as usize;
    if memo[idx] != NOT_DONE {
        return memo[idx] as u8;
    }
    let mut stable = p;
    let empties = !(p | o);
    for x in 0..8 {
        if stable == 0 {
            break;
        }
        if empties >> x & 1 == 0 {
            continue;
        }
        let bit = 1u8 << x;
        // p places at x
        let f = line_flips(p, o, x);
        stable &= edge_stable(p | bit | f, o & !f, memo);
        // o places at x: p loses the flipped discs
        let f = line_flips(o, p, x);
        stable &= edge_stable(p & !f, o | bit | f, memo) & !f;
    }
    memo[idx] = stable as u16;
    stable
}

const NOT_DONE: u16 = u16::MAX;

const A_FILE: u64 = 0x0101_0101_0101_0101;

/// Gathers column a (bit 8i) into a byte (bit i).
#[inline]
fn a_file_to_byte(b: u64) -> usize {
    ((b & A_FILE).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Spreads a byte (bit i) onto column a (bit 8i). Bits 0..6 by one multiply (their
/// shifted copies never overlap, so no carries), bit 7 on its own.
#[inline]
fn byte_to_a_file(x: u8) -> u64 {
    (((x & 0x7F) as u64).wrapping_mul(0x0002_0408_1020_4081) & A_FILE) | (((x >> 7) as u64) << 56)
}

/// Stable discs of `p` on the four edges.
#[inline(always)]
pub fn edge_stable_discs(p: u64, o: u64) -> u64 {
    let t = edge_table();
    let row1 = t[(p & 0xFF) as usize * 256 + (o & 0xFF) as usize] as u64;
    let row8 = t[(p >> 56) as usize * 256 + (o >> 56) as usize] as u64;
    let cola = t[a_file_to_byte(p) * 256 + a_file_to_byte(o)];
    let colh = t[a_file_to_byte(p >> 7) * 256 + a_file_to_byte(o >> 7)];
    row1 | (row8 << 56) | byte_to_a_file(cola) | (byte_to_a_file(colh) << 7)
}

/// Squares on full lines in each direction: (horizontal, vertical, a1-h8 diagonal,
/// h1-a8 diagonal).
#[inline(always)]
pub fn full_lines(occ: u64) -> (u64, u64, u64, u64) {
    // A square's line is full if the rays both ways to the edge are full. Rays of length
    // 2, 4, 8 by doubling: L2k = Lk & ((Lk shifted by k steps) | squares within k of
    // the edge), which also absorbs the wrap-around of the shifts.
    #[inline(always)]
    fn up(occ: u64, d: u32, e1: u64, e2: u64, e4: u64) -> u64 {
        let mut l = occ & ((occ >> d) | e1);
        l &= (l >> (2 * d)) | e2;
        l &= (l >> (4 * d)) | e4;
        l
    }
    #[inline(always)]
    fn down(occ: u64, d: u32, e1: u64, e2: u64, e4: u64) -> u64 {
        let mut l = occ & ((occ << d) | e1);
        l &= (l << (2 * d)) | e2;
        l &= (l << (4 * d)) | e4;
        l
    }
    const fn cols_from(k: u32) -> u64 {
        // columns >= 8-k
        let mut m = 0u64;
        let mut c = 8 - k;
        while c < 8 {
            m |= A_FILE << c;
            c += 1;
        }
        m
    }
    const fn cols_below(k: u32) -> u64 {
        let mut m = 0u64;
        let mut c = 0;
        while c < k {
            m |= A_FILE << c;
            c += 1;
        }
        m
    }
    const fn rows_from(k: u32) -> u64 {
        !0u64 << (8 * (8 - k))
    }
    const fn rows_below(k: u32) -> u64 {
        !(!0u64 << (8 * k))
    }
    let h = up(occ, 1, cols_from(1), cols_from(2), cols_from(4))
        & down(occ, 1, cols_below(1), cols_below(2), cols_below(4));
    let v = up(occ, 8, rows_from(1), rows_from(2), rows_from(4))
        & down(occ, 8, rows_below(1), rows_below(2), rows_below(4));
    // +9: col+1,row+1
    let d9 = up(
        occ,
        9,
        cols_from(1) | rows_from(1),
        cols_from(2) | rows_from(2),
        cols_from(4) | rows_from(4),
    ) & down(
        occ,
        9,
        cols_below(1) | rows_below(1),
        cols_below(2) | rows_below(2),
        cols_below(4) | rows_below(4),
    );
    // +7: col-1,row+1
    let d7 = up(
        occ,
        7,
        cols_below(1) | rows_from(1),
        cols_below(2) | rows_from(2),
        cols_below(4) | rows_from(4),
    ) & down(
        occ,
        7,
        cols_from(1) | rows_below(1),
        cols_from(2) | rows_below(2),
        cols_from(4) | rows_below(4),
    );
    (h, v, d9, d7)
}

/// Inner squares: the discs the growth from the stable discs can add.
const INNER: u64 = 0x007E_7E7E_7E7E_7E00;

/// Stable discs of `p` (a subset of the truly stable ones).
#[inline(always)]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let full = full_lines(p | o);
    let (fh, fv, fd9, fd7) = full;
    let inner = p & INNER;
    let start = edge_stable_discs(p, o) | (inner & fh & fv & fd9 & fd7);
    // No count is enough (64 squares): the growth runs to its end.
    grow_stable(start, inner, full, 65)
}

/// Whether `p` has at least `need` stable discs, as far as [`stable_discs`] finds them:
/// some of its stable discs, at least `need` of them, or `None`. Cheaper than counting
/// them all: only edge discs that are stable on their edge and inner discs can be
/// found stable, so too few of those answers at once, before the full lines are looked
/// for; and the growth from the stable discs stops as soon as there are enough.
#[inline(always)]
pub fn stable_discs_at_least(p: u64, o: u64, need: u32) -> Option<u64> {
    // Fewer discs than needed: no edge table to read. (The solver's cut-off asks this
    // at nearly every node of 4 to 6 empties, often of a side with too few discs.)
    if p.count_ones() < need {
        return None;
    }
    let edge = edge_stable_discs(p, o);
    let inner = p & INNER;
    if (edge | inner).count_ones() < need {
        return None;
    }
    let full = full_lines(p | o);
    let (fh, fv, fd9, fd7) = full;
    let stable = grow_stable(edge | (inner & fh & fv & fd9 & fd7), inner, full, need);
    (stable.count_ones() >= need).then_some(stable)
}

/// From the stable discs `stable`, adds the discs of `inner` that, in each of the four
/// line directions, lie on a full line (`full`) or touch a stable disc, until none is
/// added or there are `enough`.
#[inline(always)]
fn grow_stable(mut stable: u64, inner: u64, full: (u64, u64, u64, u64), enough: u32) -> u64 {
    let (fh, fv, fd9, fd7) = full;
    while stable.count_ones() < enough {
        let h = (stable >> 1) | (stable << 1) | fh;
        let v = (stable >> 8) | (stable << 8) | fv;
        let d9 = (stable >> 9) | (stable << 9) | fd9;
        let d7 = (stable >> 7) | (stable << 7) | fd7;
        let next = stable | (h & v & d9 & d7 & inner);
        if next == stable {
            break;
        }
        stable = next;
    }
    stable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_least_agrees_with_the_count() {
        let mut rng = crate::board::random::XorShift64::from_state(4242);
        for i in 0..20_000 {
            // Boards from half full to full, as the endgame meets them.
            let occ = rng.next_u64() | rng.next_u64() | if i % 2 == 0 { rng.next_u64() } else { 0 };
            let c = rng.next_u64();
            let (p, o) = (occ & c, occ & !c);
            let all = stable_discs(p, o);
            for need in [0, 8, 16, 24, all.count_ones(), all.count_ones() + 1, 40] {
                match stable_discs_at_least(p, o, need) {
                    Some(some) => {
                        assert!(some.count_ones() >= need);
                        assert_eq!(some & !all, 0, "only stable discs: {p:#x} {o:#x}");
                    }
                    None => assert!(all.count_ones() < need, "{p:#x} {o:#x} {need}"),
                }
            }
        }
    }

    #[test]
    fn file_packing_round_trips() {
        for x in 0..=255u8 {
            let b = byte_to_a_file(x);
            assert_eq!(b & !A_FILE, 0);
            assert_eq!(a_file_to_byte(b), x as usize);
        }
    }

    #[test]
    fn full_lines_match_slow() {
        let mut rng = crate::board::random::XorShift64::from_state(12345);
        for _ in 0..2000 {
            let seed = rng.next_u64();
            let occ = seed | seed.rotate_left(17) | seed.rotate_left(31);
            let (h, v, d9, d7) = full_lines(occ);
            for sq in 0..64i32 {
                let (c, r) = (sq % 8, sq / 8);
                let full = |dc: i32, dr: i32| {
                    for s in -8..=8 {
                        let (cc, rr) = (c + s * dc, r + s * dr);
                        if (0..8).contains(&cc)
                            && (0..8).contains(&rr)
                            && occ >> (rr * 8 + cc) & 1 == 0
                        {
                            return false;
                        }
                    }
                    true
                };
                assert_eq!(h >> sq & 1 != 0, full(1, 0));
                assert_eq!(v >> sq & 1 != 0, full(0, 1));
                assert_eq!(d9 >> sq & 1 != 0, full(1, 1));
                assert_eq!(d7 >> sq & 1 != 0, full(-1, 1));
            }
        }
    }

    #[test]
    fn corners_and_edges() {
        // a1 alone is stable; b1 next to it too; an isolated c1 is not.
        let p = 0b11 | (1 << 5);
        let s = edge_stable_discs(p, 0);
        assert_eq!(s, 0b11);
        // a full first row is stable for both colours
        let s = edge_stable_discs(0x0F, 0xF0);
        assert_eq!(s, 0x0F);
        assert_eq!(edge_stable_discs(0xF0, 0x0F), 0xF0);
        // column a: a1..a3 black stable
        let p = 1 | (1 << 8) | (1 << 16);
        assert_eq!(edge_stable_discs(p, 0), p);
    }

    #[test]
    fn stable_discs_never_flip() {
        // Random play-outs: a disc called stable must keep its colour to the end.
        use crate::board::Board;
        let mut rng = crate::board::random::XorShift64::from_state(99);
        let mut rnd = move || rng.next_u64();
        for _ in 0..300 {
            let mut b = Board::START;
            let mut black_view = true;
            let mut history = vec![];
            loop {
                let m = b.moves();
                if m == 0 {
                    if b.passed().moves() == 0 {
                        break;
                    }
                    b = b.passed();
                    black_view = !black_view;
                    continue;
                }
                let n = m.count_ones() as u64;
                let mut k = rnd() % n;
                let mut mm = m;
                while k > 0 {
                    mm &= mm - 1;
                    k -= 1;
                }
                b = b.play(mm.trailing_zeros()).unwrap();
                black_view = !black_view;
                let (black, white) = if black_view {
                    (b.player, b.opponent)
                } else {
                    (b.opponent, b.player)
                };
                history.push((black, white));
            }
            let (fb, fw) = *history.last().unwrap();
            for &(black, white) in &history {
                let sb = stable_discs(black, white);
                let sw = stable_discs(white, black);
                assert_eq!(sb & !fb, 0, "black stable disc flipped");
                assert_eq!(sw & !fw, 0, "white stable disc flipped");
            }
        }
    }
}
