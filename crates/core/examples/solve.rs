//! Solves an Othello endgame exactly with okapi-core: the best move, the exact score and a
//! proven line.
//!
//! ```text
//! cargo run --release -p okapi-core --example solve -- \
//!     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
//! ```
//!
//! The position is a board string: 64 squares from a1 to h8 row by row (`X` or `*` Black,
//! `O` or `0` White, `-` or `.` empty), white space, then the side to move (`X` or `O`).
//! The board and the side may also come as two arguments. It solves on all the cores the
//! process may use. For a sense of the time: FFO 40–49 (20 to 26 empties) take about 20 s
//! together on one thread and 10 s on two (the README's "Endgame: FFO 40–49" sections),
//! and each further empty square costs several times more.

use okapi_core::board::{Move, Position};
use okapi_core::eval::Evaluator;
use okapi_core::formats::script::Outcome;
use okapi_core::search::{EndgameSolver, SolveMode, available_threads};
use std::process::ExitCode;

/// Transposition table of about `16 << 22` bytes (64 MB): room for the solves this example
/// is meant for without asking a small machine for much memory.
const HASH_BITS: u32 = 22;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args.iter().any(|a| a == "-h" || a == "--help") {
        eprintln!("usage: solve \"<64 squares a1..h8: X O -> <side to move: X or O>\"");
        return ExitCode::from(2);
    }
    let text = args.join(" ");
    let position = match Position::parse(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("solve: {e}");
            return ExitCode::from(2);
        }
    };
    let side = position.side_to_move();
    let empties = position.empty_count();
    println!(
        "{}  ({} to move, {empties} {})",
        position.to_board_string(),
        side.name(),
        if empties == 1 { "empty" } else { "empties" }
    );
    if position.is_game_over() {
        let (black, white) = position.final_counts();
        println!("game over: {black}-{white}");
        return ExitCode::SUCCESS;
    }

    // The shipped evaluation orders the solver's moves at high empties and runs its
    // selective passes; without it (`None`) a solve takes about 3x the nodes.
    let mut solver = EndgameSolver::new(HASH_BITS, Some(Evaluator::shipped()));
    solver.set_threads(available_threads());
    let solution = match solver.solve(position.board(), SolveMode::Exact, true) {
        Ok(s) => s,
        Err(e) => {
            // Nothing raises the stop flag here, so this is not expected; say it anyway.
            eprintln!("solve: {e}");
            return ExitCode::FAILURE;
        }
    };

    let best = solution.best_move.unwrap_or(Move::Pass);
    let line: Vec<String> = solution.line.iter().map(Move::to_string).collect();
    println!("best move: {best}");
    // The final disc counts, empties to the winner, as the script format gives them.
    let Outcome::Exact { black, white } = Outcome::exact(side, solution.score) else {
        unreachable!("Outcome::exact is exact")
    };
    println!(
        "score: {:+} for {} (final discs {black}-{white}, Black-White)",
        solution.score,
        side.name()
    );
    println!("line: {}", line.join(" "));
    let secs = solution.elapsed.as_secs_f64();
    println!(
        "{} nodes in {secs:.3} s ({:.1} M nodes/s, {} threads)",
        solution.nodes,
        solution.nodes as f64 / secs.max(1e-9) / 1e6,
        solver.threads()
    );
    ExitCode::SUCCESS
}
