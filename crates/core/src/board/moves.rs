//! Move generation and flips on raw bitboards.
//!
//! Moves: the shift-and-mask flood in the 4 line directions, both ways at once, covering
//! the up to 6 opponent discs a line can hold (1 + 1 + 2 + 2 steps).
//! Flips: for each of the 8 rays from the square, the first square that is not an
//! opponent disc is found with one bit scan; if it holds a player disc, the squares
//! between are flipped. Branch-free apart from the fixed 8-ray loop, which unrolls.
//! The endgame solver's fast path uses AVX2 copies of both ([`moves_avx2`],
//! [`flips_avx2`]), 4 directions to a register, and in the browser wasm SIMD128 copies
//! (`moves_simd128`, `flips_simd128`), 2 to a register.

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

/// [`moves`] with the 4 line directions in the 4 lanes of one AVX2 register: the same
/// flood, a quarter of the instructions. Callers compiled with AVX2 inline it.
///
/// # Safety
/// The CPU must have AVX2 (callers compiled with it may call this freely).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn moves_avx2(p: u64, o: u64) -> u64 {
    use std::arch::x86_64::*;
    let inner = (o & INNER_COLS) as i64;
    let shift = _mm256_set_epi64x(9, 7, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let mask = _mm256_set_epi64x(inner, inner, o as i64, inner);
    let pp = _mm256_set1_epi64x(p as i64);
    let mut fl = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, shift));
    let mut fr = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, shift));
    fl = _mm256_or_si256(fl, _mm256_and_si256(mask, _mm256_sllv_epi64(fl, shift)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mask, _mm256_srlv_epi64(fr, shift)));
    let pre_l = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
    let pre_r = _mm256_srlv_epi64(pre_l, shift);
    fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, shift2)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, shift2)));
    let all = _mm256_or_si256(_mm256_sllv_epi64(fl, shift), _mm256_srlv_epi64(fr, shift));
    let half = _mm_or_si128(
        _mm256_castsi256_si128(all),
        _mm256_extracti128_si256::<1>(all),
    );
    let both = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si64(both) as u64 & !(p | o)
}

/// Empty squares next to an opponent disc, roughly: where moves may appear later. A cheap
/// measure of "potential mobility" for move ordering. Opponent discs on the a- and
/// h-files count only their vertical neighbours (the mask that keeps the shifts from
/// wrapping drops them whole), so it is not symmetric: the evaluation counts with
/// [`adjacent_empties`]. The orderings keep this one, with which their node counts
/// were measured.
#[inline(always)]
pub fn potential_moves(p: u64, o: u64) -> u64 {
    let h = o & INNER_COLS;
    let n = (h << 1) | (h >> 1) | (o << 8) | (o >> 8) | (h << 7) | (h >> 7) | (h << 9) | (h >> 9);
    n & !(p | o)
}

/// Empty squares next to (in any of the 8 directions) a disc of `o`: the potential
/// mobility of the side `p` to move, the same under every board symmetry.
#[inline(always)]
pub fn adjacent_empties(p: u64, o: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe; // a square not on the a-file
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f; // nor on the h-file
    // Shifting towards h (+1, +9, -7) must not carry h-file discs onto the next row's
    // a-file, and towards a (-1, -9, +7) must not carry a-file discs onto h.
    let to_h = o & NOT_H;
    let to_a = o & NOT_A;
    let n = (to_h << 1)
        | (to_a >> 1)
        | (o << 8)
        | (o >> 8)
        | (to_h << 9)
        | (to_a >> 9)
        | (to_a << 7)
        | (to_h >> 7);
    n & !(p | o)
}

/// The up to 8 squares next to each square. A move must flip a disc next to it, so a
/// square with no opponent disc among these is illegal without computing its flips.
pub static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let b = 1u64 << sq;
        // Shifting along the rank must not wrap onto the next or previous one.
        let side = ((b << 1) & !0x0101_0101_0101_0101) | ((b >> 1) & !0x8080_8080_8080_8080);
        let row = side | b;
        t[sq] = (side | (row << 8) | (row >> 8)) & !b;
        sq += 1;
    }
    t
};

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

/// [`flips`] with the 4 upward rays in the 4 lanes of one AVX2 register and the 4
/// downward rays in another. Upward, the first non-opponent square is the lowest bit, which
/// `x & -x` isolates in every lane at once. Downward it is the highest bit, and AVX2 has no
/// per-lane bit scan, so the run of opponent discs next to `sq` is flooded instead (1 + 1 +
/// 2 + 2 steps cover the 6 a line can hold) and checked for a player disc beyond it.
///
/// # Safety
/// The CPU must have AVX2 (callers compiled with it may call this freely).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn flips_avx2(p: u64, o: u64, sq: u32) -> u64 {
    use std::arch::x86_64::*;
    let (rays, pp, oo) = ray_lanes(p, o, sq);
    let [up, down] = rays;
    let zero = _mm256_setzero_si256();
    // Downward rays W, S, SW, SE step by 1, 8, 9, 7 (lane 0 first).
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let od = _mm256_and_si256(oo, down);
    let pd = _mm256_and_si256(pp, down);
    let from = _mm256_set1_epi64x((1u64 << sq) as i64);
    let mut run = _mm256_and_si256(od, _mm256_srlv_epi64(from, shift));
    run = _mm256_or_si256(run, _mm256_and_si256(od, _mm256_srlv_epi64(run, shift)));
    let pairs = _mm256_and_si256(od, _mm256_srlv_epi64(od, shift));
    run = _mm256_or_si256(run, _mm256_and_si256(pairs, _mm256_srlv_epi64(run, shift2)));
    run = _mm256_or_si256(run, _mm256_and_si256(pairs, _mm256_srlv_epi64(run, shift2)));
    let outflank = _mm256_and_si256(pd, _mm256_srlv_epi64(run, shift));
    let flipped_down = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), run);
    or_lanes(_mm256_or_si256(flipped_upward(pp, oo, up), flipped_down))
}

/// [`flips_avx2`] with AVX-512's per-lane leading-zero count: downward, the first
/// non-opponent square is found in one step (its bit is the top bit shifted right by the
/// count), and the flipped discs are the ray's squares above it when it is the player's.
///
/// # Safety
/// The CPU must have AVX2 and AVX-512 F, VL and CD.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
pub(crate) fn flips_avx512(p: u64, o: u64, sq: u32) -> u64 {
    use std::arch::x86_64::*;
    let (rays, pp, oo) = ray_lanes(p, o, sq);
    let [up, down] = rays;
    let zero = _mm256_setzero_si256();
    // The count is 64 for a lane with no such square: the shift then leaves no bit.
    let first = _mm256_srlv_epi64(
        _mm256_set1_epi64x(i64::MIN),
        _mm256_lzcnt_epi64(_mm256_andnot_si256(oo, down)),
    );
    let outflank = _mm256_and_si256(first, pp);
    // -(outflank << 1): every bit above the outflanking disc, or none without one.
    let above = _mm256_sub_epi64(zero, _mm256_slli_epi64::<1>(outflank));
    let flipped_down = _mm256_and_si256(down, above);
    or_lanes(_mm256_or_si256(flipped_upward(pp, oo, up), flipped_down))
}

/// The 8 rays from `sq` (upward E, N, NE, NW, then downward W, S, SW, SE) in two AVX2
/// registers, with `p` and `o` broadcast to every lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn ray_lanes(
    p: u64,
    o: u64,
    sq: u32,
) -> (
    [std::arch::x86_64::__m256i; 2],
    std::arch::x86_64::__m256i,
    std::arch::x86_64::__m256i,
) {
    use std::arch::x86_64::*;
    let rays = &RAYS[sq as usize];
    // SAFETY: `rays` is 8 u64s; each load reads 4 of them, unaligned loads allowed.
    let rays = unsafe {
        [
            _mm256_loadu_si256(rays.as_ptr() as *const __m256i),
            _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i),
        ]
    };
    (
        rays,
        _mm256_set1_epi64x(p as i64),
        _mm256_set1_epi64x(o as i64),
    )
}

/// The discs flipped along the 4 upward rays `up`: the first non-opponent square is the
/// lowest bit, which `x & -x` isolates in every lane at once.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn flipped_upward(
    pp: std::arch::x86_64::__m256i,
    oo: std::arch::x86_64::__m256i,
    up: std::arch::x86_64::__m256i,
) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    let ones = _mm256_cmpeq_epi64(zero, zero);
    let blockers = _mm256_andnot_si256(oo, up);
    let first = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
    let outflank = _mm256_and_si256(first, pp);
    let none = _mm256_cmpeq_epi64(outflank, zero);
    _mm256_andnot_si256(none, _mm256_and_si256(_mm256_add_epi64(outflank, ones), up))
}

/// The OR of the 4 lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn or_lanes(all: std::arch::x86_64::__m256i) -> u64 {
    use std::arch::x86_64::*;
    let half = _mm_or_si128(
        _mm256_castsi256_si128(all),
        _mm256_extracti128_si256::<1>(all),
    );
    let both = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
    _mm_cvtsi128_si64(both) as u64
}

/// [`moves`] on wasm's 128-bit SIMD: the board in lane 0 and the board mirrored top to
/// bottom in lane 1 (one byte shuffle), so one flood towards higher squares covers two
/// directions: shifting lane 1 up by 8, 7 or 9 moves the board down by 8, 9 or 7. The
/// six vertical and diagonal directions take three floods of two lanes; the horizontal
/// pair stays scalar.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
pub fn moves_simd128(p: u64, o: u64) -> u64 {
    use std::arch::wasm32::*;
    let inner = o & INNER_COLS;
    let pp = mirror_lane1(u64x2_splat(p));
    let oo = mirror_lane1(u64x2_splat(o));
    let ii = mirror_lane1(u64x2_splat(inner));
    let all = v128_or(
        flood_up(pp, oo, 8),
        v128_or(flood_up(pp, ii, 7), flood_up(pp, ii, 9)),
    );
    let all = mirror_lane1(all);
    let vertical_diagonal = u64x2_extract_lane::<0>(all) | u64x2_extract_lane::<1>(all);
    (vertical_diagonal | line_moves(p, inner, 1)) & !(p | o)
}

/// Lane 1's bytes reversed (the board mirrored top to bottom), lane 0 as it is.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn mirror_lane1(v: std::arch::wasm32::v128) -> std::arch::wasm32::v128 {
    std::arch::wasm32::i8x16_shuffle::<0, 1, 2, 3, 4, 5, 6, 7, 15, 14, 13, 12, 11, 10, 9, 8>(v, v)
}

/// The half of [`line_moves`] towards higher squares, in both lanes: the moves `p` has
/// over runs of `mask` discs in direction `d`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn flood_up(
    p: std::arch::wasm32::v128,
    mask: std::arch::wasm32::v128,
    d: u32,
) -> std::arch::wasm32::v128 {
    use std::arch::wasm32::*;
    let mut f = v128_and(mask, i64x2_shl(p, d));
    f = v128_or(f, v128_and(mask, i64x2_shl(f, d)));
    let pre = v128_and(mask, i64x2_shl(mask, d));
    f = v128_or(f, v128_and(pre, i64x2_shl(f, 2 * d)));
    f = v128_or(f, v128_and(pre, i64x2_shl(f, 2 * d)));
    i64x2_shl(f, d)
}

/// [`flips`] with the 4 upward rays in two registers of two lanes, where `x & -x` finds
/// the first non-opponent square of both lanes at once. Downward the first such square
/// is the highest bit, and wasm's SIMD has no per-lane bit scan, so those 4 rays stay
/// scalar (one `i64.clz` each).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
pub fn flips_simd128(p: u64, o: u64, sq: u32) -> u64 {
    use std::arch::wasm32::*;
    let rays = &RAYS[sq as usize];
    let pp = u64x2_splat(p);
    let oo = u64x2_splat(o);
    let zero = u64x2_splat(0);
    let mut up = zero;
    for pair in 0..2 {
        // SAFETY: `rays` is 8 u64s and `pair` < 2, so the 16 bytes read are inside it;
        // wasm's loads need no alignment.
        let ray = unsafe { v128_load(rays.as_ptr().add(2 * pair) as *const v128) };
        let blockers = v128_andnot(ray, oo);
        let first = v128_and(blockers, i64x2_sub(zero, blockers));
        let outflank = v128_and(first, pp);
        let none = i64x2_eq(outflank, zero);
        let flipped = v128_and(i64x2_sub(outflank, u64x2_splat(1)), ray);
        up = v128_or(up, v128_andnot(flipped, none));
    }
    let mut f = u64x2_extract_lane::<0>(up) | u64x2_extract_lane::<1>(up);
    for ray in &rays[4..] {
        let blockers = ray & !o;
        // With no blocker the shift wraps to h8, which no downward ray contains.
        let first = 0x8000_0000_0000_0000u64.wrapping_shr(blockers.leading_zeros());
        let outflank = first & p & ray;
        f |= (outflank << 1).wrapping_neg() & ray;
    }
    f
}

/// `LAST_FLIP_COUNT[pos][line]`: the discs flipped along one line of 8 squares when the
/// player plays at `pos` and every other square of the line is taken, the player's where
/// `line` has a 1 (the bit of `pos` is ignored). Squares past the end of a short
/// diagonal read as 0, the opponent's, and so can never end a flip.
static LAST_FLIP_COUNT: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Towards lower indices, then higher.
            let mut run = 0;
            let mut i = pos as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                run += 1;
                i -= 1;
            }
            if i >= 0 {
                total += run;
            }
            run = 0;
            let mut i = pos + 1;
            while i < 8 && line >> i & 1 == 0 {
                run += 1;
                i += 1;
            }
            if i < 8 {
                total += run;
            }
            t[pos][line] = total;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// The two diagonals through each square: `[0]` a1-h8 direction, `[1]` h1-a8 direction.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut d = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        let mut s = 0;
        while s < 64 {
            let (r2, c2) = (s / 8, s % 8);
            if r2 + c == r + c2 {
                d[sq][0] |= 1 << s;
            }
            if r2 + c2 == r + c {
                d[sq][1] |= 1 << s;
            }
            s += 1;
        }
        sq += 1;
    }
    d
};

/// How many discs the player `p` flips by playing `sq`, the last empty square, where every
/// square but `sq` not the player's is the opponent's. Cheaper than [`flips`]: each of the
/// 4 lines through `sq` is gathered into a byte (the multiplications move one bit per
/// file or rank into the top byte without carries) and its count looked up.
#[inline(always)]
pub fn last_flip_count(p: u64, sq: u32) -> u32 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    let (row, col) = (sq / 8, sq % 8);
    let diagonals = &DIAGONALS[sq as usize];
    let rank = (p >> (8 * row)) as u8 as usize;
    let file = (((p >> col) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let diagonal = ((p & diagonals[0]).wrapping_mul(FILE_A) >> 56) as usize;
    let anti = ((p & diagonals[1]).wrapping_mul(FILE_A) >> 56) as usize;
    let by_col = &LAST_FLIP_COUNT[col as usize];
    (by_col[rank] + LAST_FLIP_COUNT[row as usize][file] + by_col[diagonal] + by_col[anti]) as u32
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

    #[test]
    fn neighbours_of_corner_edge_and_centre() {
        // a1 (0): b1, a2, b2; h1 (7): g1, g2, h2; d4 (27): all 8.
        assert_eq!(NEIGHBOURS[0], 1 << 1 | 1 << 8 | 1 << 9);
        assert_eq!(NEIGHBOURS[7], 1 << 6 | 1 << 14 | 1 << 15);
        assert_eq!(NEIGHBOURS[27].count_ones(), 8);
        assert_eq!(NEIGHBOURS[63], 1 << 62 | 1 << 55 | 1 << 54);
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
        fn no_flips_without_an_opponent_neighbour((p, o) in board(), sq in 0u32..64) {
            if NEIGHBOURS[sq as usize] & o == 0 {
                prop_assert_eq!(flips_slow(p, o, sq), 0);
            }
        }

        #[test]
        fn last_flip_count_matches_flips(p in any::<u64>(), sq in 0u32..64) {
            let p = p & !(1 << sq);
            let o = !p & !(1 << sq);
            prop_assert_eq!(last_flip_count(p, sq), flips(p, o, sq).count_ones());
            prop_assert_eq!(last_flip_count(o, sq), flips(o, p, sq).count_ones());
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn avx2_flips_match((p, o) in board(), sq in 0u32..64) {
            let avx2 = crate::board::cpu::detect_for_test("avx2_flips_match", false);
            if avx2.is_some() && (p | o) >> sq & 1 == 0 {
                // SAFETY: the CPU has AVX2.
                prop_assert_eq!(unsafe { flips_avx2(p, o, sq) }, flips_slow(p, o, sq));
            }
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn avx512_flips_match((p, o) in board(), sq in 0u32..64) {
            // The features the search's AVX-512 copy asks for, checked where it checks them.
            let avx512 = crate::board::cpu::detect_for_test("avx512_flips_match", true)
                .and_then(|t| t.avx512());
            if avx512.is_some() && (p | o) >> sq & 1 == 0 {
                // SAFETY: the CPU has AVX2 and AVX-512 F, VL and CD.
                prop_assert_eq!(unsafe { flips_avx512(p, o, sq) }, flips_slow(p, o, sq));
            }
        }

        #[test]
        #[cfg(target_arch = "x86_64")]
        fn avx2_moves_match((p, o) in board()) {
            if crate::board::cpu::detect_for_test("avx2_moves_match", false).is_some() {
                // SAFETY: the CPU has AVX2.
                prop_assert_eq!(unsafe { moves_avx2(p, o) }, moves(p, o));
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
