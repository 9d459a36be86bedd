//! The solver on FFO positions 1-39 against their published answers: exact scores, the
//! best move's listed score, WLD agreeing with exact, and every proven line legal and
//! reaching the stated result when replayed.

use okapi::board::{Move, Position};
use okapi::formats::obf::{self, ObfEntry};
use okapi::formats::script::replay;
use okapi::formats::test_positions::{self, TestPosition};
use okapi::search::{EndgameSolver, SolveMode};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn obf_entries(name: &str) -> Vec<ObfEntry> {
    let bytes = std::fs::read(data(name)).unwrap();
    obf::parse_file(&bytes)
        .unwrap()
        .into_iter()
        .map(|(_, e)| e)
        .collect()
}

/// FFO positions `from..=to` from the script file, each with its OBF entry (every move's
/// score).
fn positions(from: u32, to: u32) -> Vec<(TestPosition, ObfEntry)> {
    let scr = test_positions::read(&data("ffo1-39.scr")).unwrap();
    let mut obfs = obf_entries("fforum-1-19.obf");
    obfs.extend(obf_entries("fforum-20-39.obf"));
    assert_eq!(scr.len(), 39);
    assert_eq!(obfs.len(), 39);
    scr.into_iter()
        .zip(obfs)
        .filter(|(p, _)| (from..=to).contains(&p.number))
        .collect()
}

/// The final score of a finished game for `side_of`'s side to move, empties to the winner.
fn final_score_for(end: &Position, start: &Position) -> i32 {
    assert!(
        end.is_game_over(),
        "the line does not reach the end of the game"
    );
    let (b, w) = end.final_counts();
    let black = b as i32 - w as i32;
    if start.side_to_move() == okapi::board::Color::Black {
        black
    } else {
        -black
    }
}

fn check(from: u32, to: u32) {
    let mut solver = EndgameSolver::new(20, Some(okapi::eval::Evaluator::shipped()));
    for (p, entry) in positions(from, to) {
        let n = p.number;
        assert_eq!(
            entry.position, p.position,
            "ffo#{n}: the .scr and .obf files disagree"
        );
        let expected = p.expected_score.unwrap();
        assert_eq!(
            entry.best_score(),
            Some(expected),
            "ffo#{n}: the files disagree on the score"
        );
        let mut listed = p.best_moves.clone();
        let mut obf_best = entry.best_moves();
        listed.sort_by_key(|m| m.to_string());
        obf_best.sort_by_key(|m| m.to_string());
        assert_eq!(
            listed, obf_best,
            "ffo#{n}: the files disagree on the best moves"
        );

        let board = p.position.board();
        let exact = solver.solve(board, SolveMode::Exact, true).unwrap();
        assert_eq!(exact.score, expected, "ffo#{n}: exact score");
        let best = exact.best_move.expect("a move");
        assert_eq!(
            entry.score_of(best),
            Some(expected),
            "ffo#{n}: best move {best} is not optimal"
        );
        assert_eq!(exact.line.first(), Some(&best));
        let end = replay(&p.position, &exact.line)
            .unwrap_or_else(|(i, e)| panic!("ffo#{n}: move {i} of the line: {e}"));
        assert_eq!(
            final_score_for(&end, &p.position),
            expected,
            "ffo#{n}: the exact line does not reach the score"
        );

        let wld = solver.solve(board, SolveMode::Wld, true).unwrap();
        assert_eq!(
            wld.score,
            expected.signum(),
            "ffo#{n}: WLD disagrees with exact"
        );
        let end = replay(&p.position, &wld.line)
            .unwrap_or_else(|(i, e)| panic!("ffo#{n}: move {i} of the WLD line: {e}"));
        assert_eq!(
            final_score_for(&end, &p.position).signum(),
            expected.signum(),
            "ffo#{n}: the WLD line does not reach the outcome"
        );
        let first = wld.best_move.unwrap();
        let first_score = entry.score_of(first).unwrap();
        match expected.signum() {
            1 => assert!(first_score > 0, "ffo#{n}: WLD move {first} does not win"),
            0 => assert_eq!(
                first_score, 0,
                "ffo#{n}: WLD move {first} does not keep the draw"
            ),
            _ => {}
        }
        // Without lines, the answer is the same and the best move still given.
        let plain = solver.solve(board, SolveMode::Exact, false).unwrap();
        assert_eq!(plain.score, expected);
        assert!(plain.line.is_empty());
        assert!(matches!(plain.best_move, Some(Move::Play(_))));
    }
}

#[test]
fn ffo_01_to_19() {
    check(1, 19);
}

#[test]
fn ffo_20_to_29() {
    check(20, 29);
}

#[test]
fn ffo_30_to_39() {
    check(30, 39);
}
