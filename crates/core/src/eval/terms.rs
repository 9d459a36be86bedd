//! The evaluation's terms beside the patterns: tables over counts, one weight per count
//! and phase, fitted jointly with the pattern weights (`okapi train eval`).
//!
//! The stronger linear engines of the game-server era (Logistello, NTest) add to their
//! patterns what a pattern cannot see, because it is a property of the whole board: each
//! side's mobility (legal moves) and potential mobility (empty squares next to the other
//! side's discs), as a table over the count rather than a linear term (one more move is
//! worth much more with 2 moves than with 15), and parity (who is due to play last). Here
//! they are four more "instances" whose index is a count, so the fit and the evaluator
//! treat them as they treat a pattern's index.
//!
//! Measured (depth 8, 400 games against the patterns alone, `okapi match 8 8
//! --a-weights`): each side's mobility in a table of its own, +34 Elo (+1 .. +67);
//! mobility as one table over both counts, with the self-play positions in the fit, +73
//! (+40 .. +108), for 6% more time a move (the moves of both sides counted at each
//! evaluation).

use crate::board::cpu::Cpu;
use crate::board::{adjacent_empties, moves};

/// Counts of legal moves above this share its weight (more than 24 moves is rare in the
/// training games: too few positions to fit a weight each).
pub const MOBILITY_CAP: u32 = 24;
/// Counts of potential moves above this share its weight (likewise rare past 32).
pub const POTENTIAL_CAP: u32 = 32;

/// How many terms a position has (each one weight of its table).
pub const NUM_TERMS: usize = 4;

/// The terms' names, in the order of [`indices`], for reports.
pub const TERM_NAMES: [&str; NUM_TERMS] = [
    "mobility (to move x opponent)",
    "potential mobility (to move)",
    "potential mobility (opponent)",
    "parity",
];

const MOB: usize = MOBILITY_CAP as usize + 1;
const POT: usize = POTENTIAL_CAP as usize + 1;

/// Where each term's table starts in the terms' block of a phase's weights. Mobility is
/// one table over both sides' counts (to move, opponent): a pair of low counts (both
/// sides short of moves) is worth what neither count says alone.
pub const OFFSETS: [usize; NUM_TERMS] = [0, MOB * MOB, MOB * MOB + POT, MOB * MOB + 2 * POT];

/// Weights of the terms per phase (after the pattern weights in a weight file).
pub const WEIGHTS: usize = MOB * MOB + 2 * POT + 2;

/// The terms' weight indices (offsets included) of the position `p` to move against `o`,
/// which has `empties` empty squares (the evaluator has counted them for the phase).
#[inline(always)]
pub fn indices(p: u64, o: u64, empties: u32) -> [usize; NUM_TERMS] {
    indices_from(
        moves(p, o).count_ones(),
        moves(o, p).count_ones(),
        p,
        o,
        empties,
    )
}

/// [`indices`] given both sides' counts of legal moves (`own` for `p`).
#[inline(always)]
pub fn indices_from(own: u32, other: u32, p: u64, o: u64, empties: u32) -> [usize; NUM_TERMS] {
    let own = own.min(MOBILITY_CAP) as usize;
    let other = other.min(MOBILITY_CAP) as usize;
    [
        OFFSETS[0] + own * MOB + other,
        OFFSETS[1] + adjacent_empties(p, o).count_ones().min(POTENTIAL_CAP) as usize,
        OFFSETS[2] + adjacent_empties(o, p).count_ones().min(POTENTIAL_CAP) as usize,
        OFFSETS[3] + (empties & 1) as usize,
    ]
}

/// Stable discs above this share its weight (a table over more would hold weights fitted
/// on few positions, near the end where the patterns see the whole board anyway).
pub const STABLE_CAP: u32 = 32;

/// How many board terms a position has, when a weight file has them
/// ([`BOARD_WEIGHTS`] more weights per phase after the count terms').
pub const NUM_BOARD_TERMS: usize = 3;

/// The board terms' names, in the order of [`board_indices`], for reports.
pub const BOARD_TERM_NAMES: [&str; NUM_BOARD_TERMS] = [
    "discs (to move)",
    "stable discs (to move)",
    "stable discs (opponent)",
];

const STB: usize = STABLE_CAP as usize + 1;
/// Entries of the disc-count table: 0 to 64 discs.
const DISCS: usize = 65;

/// Where each board term's table starts, counted from the start of the terms' block (the
/// board terms follow the count terms).
pub const BOARD_OFFSETS: [usize; NUM_BOARD_TERMS] =
    [WEIGHTS, WEIGHTS + DISCS, WEIGHTS + DISCS + STB];

/// Weights of the board terms per phase (after the count terms' [`WEIGHTS`]).
pub const BOARD_WEIGHTS: usize = DISCS + 2 * STB;

/// The board terms' weight indices (offsets from the start of the terms' block): the
/// side to move's disc count (a table over it: the patterns add their squares up
/// linearly), and each side's stable discs (a property of the whole board: a disc is
/// stable through lines that no single pattern reads).
#[inline(always)]
pub fn board_indices(p: u64, o: u64) -> [usize; NUM_BOARD_TERMS] {
    let stable = |a: u64, b: u64| {
        crate::board::stability::stable_discs(a, b)
            .count_ones()
            .min(STABLE_CAP) as usize
    };
    [
        BOARD_OFFSETS[0] + p.count_ones() as usize,
        BOARD_OFFSETS[1] + stable(p, o),
        BOARD_OFFSETS[2] + stable(o, p),
    ]
}

/// [`indices`] with the moves counted by `cpu`'s generator (the search's fast copy
/// passes its own); `own`, when given, is the count of `p`'s legal moves, which the
/// caller already has.
#[inline(always)]
pub(crate) fn indices_on(
    cpu: impl Cpu,
    p: u64,
    o: u64,
    empties: u32,
    own: Option<u32>,
) -> [usize; NUM_TERMS] {
    let own = own.unwrap_or_else(|| cpu.moves(p, o).count_ones());
    let other = cpu.moves(o, p).count_ones();
    indices_from(own, other, p, o, empties)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn the_start_position_has_four_moves_each_and_even_parity() {
        let b = Board::START;
        let [m, pm, po, parity] = indices(b.player, b.opponent, b.empty_count());
        // Four moves for the side to move (row) and four for the opponent (column).
        assert_eq!(m - OFFSETS[0], 4 * (MOBILITY_CAP as usize + 1) + 4);
        // The empty squares next to the opponent's two discs, for either side.
        assert_eq!(
            pm - OFFSETS[1],
            adjacent_empties(b.player, b.opponent).count_ones() as usize
        );
        assert_eq!(pm - OFFSETS[1], po - OFFSETS[2]);
        assert_eq!(parity - OFFSETS[3], 0);
        assert!(
            indices(b.player, b.opponent, b.empty_count())
                .iter()
                .all(|&i| i < WEIGHTS)
        );
    }

    #[test]
    fn the_avx2_indices_are_the_portable_ones() {
        let test = "the_avx2_indices_are_the_portable_ones";
        let Some(cpu) = crate::board::cpu::detect_for_test(test, false) else {
            return;
        };
        for b in crate::board::random::random_positions(5, 2_000, 30) {
            let n = b.empty_count();
            let fast = indices_on(cpu, b.player, b.opponent, n, None);
            assert_eq!(fast, indices(b.player, b.opponent, n), "{b:?}");
            let own = b.moves().count_ones();
            let given = indices_on(cpu, b.player, b.opponent, n, Some(own));
            assert_eq!(given, fast, "{b:?}");
        }
    }

    /// The board terms read the count of discs and each side's stable discs, each in a
    /// table of its own after the count terms'.
    #[test]
    fn board_terms_stay_in_their_tables_and_count_what_they_say() {
        for b in crate::board::random::random_positions(8, 2_000, 12) {
            let idx = board_indices(b.player, b.opponent);
            let stable = |p, o| crate::board::stability::stable_discs(p, o).count_ones();
            assert_eq!(idx[0] - BOARD_OFFSETS[0], b.player.count_ones() as usize);
            let own = stable(b.player, b.opponent).min(STABLE_CAP) as usize;
            let other = stable(b.opponent, b.player).min(STABLE_CAP) as usize;
            assert_eq!(idx[1] - BOARD_OFFSETS[1], own);
            assert_eq!(idx[2] - BOARD_OFFSETS[2], other);
            assert!(idx[0] < BOARD_OFFSETS[1] && idx[1] < BOARD_OFFSETS[2]);
            assert!(idx[2] < WEIGHTS + BOARD_WEIGHTS && idx[0] >= WEIGHTS);
        }
    }

    #[test]
    fn indices_stay_in_their_tables() {
        for b in crate::board::random::random_positions(7, 2_000, 30) {
            let idx = indices(b.player, b.opponent, b.empty_count());
            for t in 0..NUM_TERMS {
                let end = if t + 1 < NUM_TERMS {
                    OFFSETS[t + 1]
                } else {
                    WEIGHTS
                };
                assert!((OFFSETS[t]..end).contains(&idx[t]), "term {t}: {idx:?}");
            }
        }
    }

    /// Every term reads a count that is the same for the 8 images of a position (the
    /// evaluation must be symmetric).
    #[test]
    fn terms_are_the_same_under_every_symmetry() {
        use crate::board::symmetry::{Symmetry, transform};
        for empties in [10, 30, 50] {
            for b in crate::board::random::random_positions(3, 500, empties) {
                let idx = indices(b.player, b.opponent, b.empty_count());
                let board = board_indices(b.player, b.opponent);
                for s in Symmetry::ALL {
                    let (p, o) = (transform(b.player, s), transform(b.opponent, s));
                    assert_eq!(indices(p, o, b.empty_count()), idx, "{s:?} of {b:?}");
                    assert_eq!(board_indices(p, o), board, "{s:?} of {b:?}");
                }
            }
        }
    }

    /// `adjacent_empties` is the plain definition: empty squares with a disc of the
    /// other side among their 8 neighbours.
    #[test]
    fn adjacent_empties_is_the_plain_definition() {
        for b in crate::board::random::random_positions(4, 300, 30) {
            let mut plain = 0u64;
            for sq in 0..64 {
                if (b.player | b.opponent) >> sq & 1 == 0
                    && crate::board::NEIGHBOURS[sq] & b.opponent != 0
                {
                    plain |= 1 << sq;
                }
            }
            assert_eq!(adjacent_empties(b.player, b.opponent), plain, "{b:?}");
        }
    }
}
