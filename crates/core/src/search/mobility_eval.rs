//! A plain evaluation for tests and examples of the search machinery.

use crate::board::{Board, moves};
use crate::eval::Evaluate;

/// 16 × the disc difference plus 40 × the mobility difference, in 1/[`super::SCALE`]
/// discs, from the side to move's view. Not for play (the trained patterns are
/// [`crate::eval::Evaluator`]): fast, deterministic, with no weights to load, and with
/// errors against deeper searches that a ProbCut fit can model, so tests of the search,
/// of ProbCut and of its fit share it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MobilityEval;

impl Evaluate for MobilityEval {
    fn evaluate(&self, b: &Board) -> i32 {
        let mob = b.moves().count_ones() as i32 - moves(b.opponent, b.player).count_ones() as i32;
        b.disc_difference() * 16 + mob * 40
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discs_count_16_and_mobility_40() {
        // The start: discs even, four moves each.
        assert_eq!(MobilityEval.evaluate(&Board::START), 0);
        // After f5 White (to move) has 1 disc to Black's 4, three moves to Black's three.
        let b = Board::START.play(37).unwrap();
        let mob = b.moves().count_ones() as i32 - moves(b.opponent, b.player).count_ones() as i32;
        assert_eq!(MobilityEval.evaluate(&b), -3 * 16 + mob * 40);
    }
}
