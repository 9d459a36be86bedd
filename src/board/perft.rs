//! Perft: leaf counts of the game tree, a check on move generation.
//!
//! A pass counts as a ply, and a finished game is a leaf wherever it ends, which gives
//! the published counts (OEIS A124004) from the start position.

use super::Board;

/// Leaves of the tree `depth` plies below `board`.
pub fn perft(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves == 0 {
        let passed = board.passed();
        if passed.moves() == 0 {
            return 1; // game over: a leaf
        }
        return perft(passed, depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        total += perft(board.after(sq, board.flips(sq)), depth - 1);
    }
    total
}

/// Like [`perft`], but plays every move down to the leaves (flips computed at the last
/// ply too): a measure of move making rather than of move counting.
pub fn perft_full(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves == 0 {
        let passed = board.passed();
        if passed.moves() == 0 {
            return 1;
        }
        return perft_full(passed, depth - 1);
    }
    let mut total = 0;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        total += perft_full(board.after(sq, board.flips(sq)), depth - 1);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OEIS A124004, depths 1..=11.
    pub const PUBLISHED: [u64; 11] = [
        4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800,
    ];

    #[test]
    fn published_counts() {
        for (d, &n) in PUBLISHED.iter().enumerate().take(10) {
            assert_eq!(perft(Board::START, d as u32 + 1), n, "depth {}", d + 1);
            if d < 8 {
                assert_eq!(perft_full(Board::START, d as u32 + 1), n, "depth {}", d + 1);
            }
        }
    }
}
