//! Perft: leaf counts of the game tree, a check on move generation.
//!
//! A pass counts as a ply, and a finished game is a leaf wherever it ends, which gives
//! the published counts (OEIS A124004) from the start position.

use super::Board;

/// Leaves of the tree `depth` plies below `board`; the last ply's moves are counted, not
/// played.
pub fn perft(board: Board, depth: u32) -> u64 {
    count(board, depth, true)
}

/// Like [`perft`], but plays every move down to the leaves (flips computed at the last
/// ply too): a measure of move making rather than of move counting.
pub fn perft_full(board: Board, depth: u32) -> u64 {
    count(board, depth, false)
}

fn count(board: Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves == 0 {
        let passed = board.passed();
        if passed.moves() == 0 {
            return 1; // game over: a leaf
        }
        return count(passed, depth - 1, bulk);
    }
    if bulk && depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        total += count(board.after(sq, board.flips(sq)), depth - 1, bulk);
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
