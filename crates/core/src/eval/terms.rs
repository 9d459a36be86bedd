//! The evaluation's terms beside the patterns: tables over counts, one weight per count
//! and phase, fitted jointly with the pattern weights (`okapi train eval`).
//!
//! The stronger linear engines of the game-server era (Logistello, NTest) add to their
//! patterns what a pattern cannot see, because it is a property of the whole board: each
//! side's mobility (legal moves) and potential mobility (empty squares next to the other
//! side's discs), as a table over the count rather than a linear term (one more move is
//! worth much more with 2 moves than with 15), and parity (who is due to play last). Here
//! they are five more "instances" whose index is the count, so the fit and the evaluator
//! treat them as they treat a pattern's index.

use crate::board::{moves, potential_moves};

/// Counts of legal moves above this share its weight (more than 24 moves occurs in
/// about one position in 10,000 of the training games: too few to fit a weight each).
pub const MOBILITY_CAP: u32 = 24;
/// Counts of potential moves above this share its weight (likewise rare past 32).
pub const POTENTIAL_CAP: u32 = 32;

/// How many terms a position has (each one weight of its table).
pub const NUM_TERMS: usize = 5;

/// The terms' names, in the order of [`indices`], for reports.
pub const TERM_NAMES: [&str; NUM_TERMS] = [
    "mobility (to move)",
    "mobility (opponent)",
    "potential mobility (to move)",
    "potential mobility (opponent)",
    "parity",
];

const MOB: usize = MOBILITY_CAP as usize + 1;
const POT: usize = POTENTIAL_CAP as usize + 1;

/// Where each term's table starts in the terms' block of a phase's weights.
pub const OFFSETS: [usize; NUM_TERMS] = [0, MOB, 2 * MOB, 2 * MOB + POT, 2 * MOB + 2 * POT];

/// Weights of the terms per phase (after the pattern weights in a weight file).
pub const WEIGHTS: usize = 2 * MOB + 2 * POT + 2;

/// The terms' weight indices (offsets included) of the position `p` to move against `o`.
#[inline(always)]
pub fn indices(p: u64, o: u64) -> [usize; NUM_TERMS] {
    let empties = (!(p | o)).count_ones();
    [
        OFFSETS[0] + moves(p, o).count_ones().min(MOBILITY_CAP) as usize,
        OFFSETS[1] + moves(o, p).count_ones().min(MOBILITY_CAP) as usize,
        OFFSETS[2] + potential_moves(p, o).count_ones().min(POTENTIAL_CAP) as usize,
        OFFSETS[3] + potential_moves(o, p).count_ones().min(POTENTIAL_CAP) as usize,
        OFFSETS[4] + (empties & 1) as usize,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn the_start_position_has_four_moves_each_and_even_parity() {
        let b = Board::START;
        let [m, mo, pm, po, parity] = indices(b.player, b.opponent);
        assert_eq!(m - OFFSETS[0], 4);
        assert_eq!(mo - OFFSETS[1], 4);
        // The empty squares next to the opponent's two discs, for either side.
        assert_eq!(
            pm - OFFSETS[2],
            potential_moves(b.player, b.opponent).count_ones() as usize
        );
        assert_eq!(pm - OFFSETS[2], po - OFFSETS[3]);
        assert_eq!(parity - OFFSETS[4], 0);
        assert!(indices(b.player, b.opponent).iter().all(|&i| i < WEIGHTS));
    }

    #[test]
    fn indices_stay_in_their_tables() {
        for b in crate::board::random::random_positions(7, 2_000, 30) {
            let idx = indices(b.player, b.opponent);
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
}
