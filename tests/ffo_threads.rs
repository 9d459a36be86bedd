//! The solver on two threads against one, on FFO positions 20-39 (15 to 26 empties): the
//! same exact and WLD results as the published answers and the one-thread solver, the
//! first move of each line among the published best moves, and every position along the
//! exact lines solved again on one thread to show that no move gives value away.

use okapi::board::{Color, Move, Position};
use okapi::formats::script::replay;
use okapi::formats::test_positions;
use okapi::search::{EndgameSolver, SolveMode};
use std::path::Path;

/// The final disc difference of a finished game for the side to move at `start`.
fn final_score_for(end: &Position, start: &Position) -> i32 {
    assert!(end.is_game_over(), "the line stops before the end");
    let (b, w) = end.final_counts();
    let black = b as i32 - w as i32;
    if start.side_to_move() == Color::Black {
        black
    } else {
        -black
    }
}

/// Every position along `line` keeps the root's `score` (by `reference`, one thread).
fn line_keeps_value(reference: &mut EndgameSolver, start: &Position, line: &[Move], score: i32) {
    let mut p = *start;
    let mut sign = 1;
    for (ply, &mv) in line.iter().enumerate() {
        p.play_move(mv).expect("legal line");
        sign = -sign;
        let v = reference
            .solve(p.board(), SolveMode::Exact, false)
            .unwrap()
            .score;
        assert_eq!(
            sign * v,
            score,
            "ply {} of {line:?} gives value away",
            ply + 1
        );
    }
}

#[test]
fn two_threads_solve_ffo_20_to_39_as_one_does() {
    let ffo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ffo1-39.scr");
    let positions = test_positions::read(&ffo).unwrap();
    let mut one = EndgameSolver::new(20, Some(okapi::eval::Evaluator::shipped()));
    let mut two = EndgameSolver::new(20, Some(okapi::eval::Evaluator::shipped()));
    two.set_threads(2);
    let mut helper_nodes = 0;
    for p in positions.iter().filter(|p| (20..=39).contains(&p.number)) {
        let n = p.number;
        let board = p.position.board();
        let expected = p.expected_score.unwrap();
        let single = one.solve(board, SolveMode::Exact, false).unwrap();
        let exact = two.solve(board, SolveMode::Exact, true).unwrap();
        assert_eq!((exact.score, single.score), (expected, expected), "ffo#{n}");
        helper_nodes += two.thread_nodes().get(1).copied().unwrap_or(0);
        let best = exact.best_move.unwrap();
        assert!(
            p.best_moves.contains(&best),
            "ffo#{n}: {best} is not a best move"
        );
        let end = replay(&p.position, &exact.line).unwrap();
        assert_eq!(final_score_for(&end, &p.position), expected, "ffo#{n}");
        line_keeps_value(&mut one, &p.position, &exact.line, expected);

        let wld = two.solve(board, SolveMode::Wld, true).unwrap();
        assert_eq!(wld.score, expected.signum(), "ffo#{n}: WLD");
        let end = replay(&p.position, &wld.line).unwrap();
        assert_eq!(
            final_score_for(&end, &p.position).signum(),
            expected.signum(),
            "ffo#{n}: the WLD line"
        );
    }
    assert!(helper_nodes > 0, "the second thread never helped");
}
