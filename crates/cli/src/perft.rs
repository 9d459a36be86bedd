//! `okapi perft`: leaf counts from a position, a check (and a speed measure) of move
//! generation. A pass counts as a ply and a finished game is a leaf.

use super::units::{fmt_duration, per_second};
use okapi_core::board::perft::{perft, perft_full};
use okapi_core::board::{BitBoard, Board, Move, Position};
use std::time::Instant;

/// Prints the counts for depths 1..=`depth`, then, with `divide`, the count under each
/// first move at `depth`.
pub fn run(position: &Position, depth: u32, divide: bool, full: bool) {
    let count = if full { perft_full } else { perft };
    let board = position.board();
    outln!(
        "{:>5} {:>15} {:>10} {:>16}",
        "depth",
        "leaves",
        "time",
        "leaves/s"
    );
    let mut total_time = std::time::Duration::ZERO;
    for d in 1..=depth {
        let start = Instant::now();
        let n = count(board, d);
        let t = start.elapsed();
        total_time += t;
        outln!(
            "{d:>5} {n:>15} {:>10} {:>16}",
            fmt_duration(t),
            leaves_per_second(n, t)
        );
    }
    outln!("total time {}", fmt_duration(total_time));
    if divide && depth > 0 {
        outln!("\ndivide at depth {depth}:");
        let mut total = 0;
        for (mv, n) in divided(board, depth) {
            outln!("{:>5} {n:>15}", mv.to_string());
            total += n;
        }
        outln!("{:>5} {total:>15}", "total");
    }
}

fn leaves_per_second(n: u64, t: std::time::Duration) -> String {
    format!("{:.1} M/s", per_second(n, t) / 1e6)
}

/// The leaf count under each first move (`--` if the side to move must pass; nothing if
/// the game is over).
pub fn divided(board: Board, depth: u32) -> Vec<(Move, u64)> {
    let moves = board.moves();
    if moves == 0 {
        let passed = board.passed();
        if passed.moves() == 0 {
            return Vec::new();
        }
        return vec![(Move::Pass, perft(passed, depth - 1))];
    }
    BitBoard(moves)
        .iter()
        .map(|sq| {
            (
                Move::Play(sq),
                perft(board.play(sq.index()).expect("a legal move"), depth - 1),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_sums_to_perft() {
        let parts = divided(Board::START, 5);
        assert_eq!(parts.len(), 4);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 1396);
        // The four openings are symmetric.
        assert!(parts.iter().all(|p| p.1 == 349));
    }
}
