//! The spec's example through the real binary: byte for byte in exact and WLD modes;
//! with lines, every line legal and, move by move, optimal (exact) or keeping the
//! outcome (WLD); the scrZebra form and `okapi solve` writing identical files.

mod common;

use common::process::run_in;
use okapi::board::{Color, Move, Position};
use okapi::formats::script::{Outcome, format_moves, replay};
use okapi::search::{EndgameSolver, SolveMode};
use std::path::PathBuf;

/// The example of the script specification, and its exact result.
const INPUT: &str = include_str!("data/script-spec.scr");
const EXACT: &str = include_str!("data/script-spec-exact.txt");

const WLD: &str = "% Here's a bunch of lopsided positions
Black win      % Comment for position 1
White win      % Do close positions exist in Othello?
Black win      % Ah! This one is closer.
% End of the endgame script
";

/// A fresh directory for one test, with the spec's input written in it.
fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("script_spec-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("in.scr"), INPUT).unwrap();
    dir
}

fn read(dir: &std::path::Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn exact_and_wld_byte_for_byte() {
    let dir = workdir("plain");
    run_in(&dir, &["-script", "in.scr", "out.txt", "-e", "0"]);
    assert_eq!(read(&dir, "out.txt"), EXACT);
    run_in(
        &dir,
        &["-wld", "1", "-e", "0", "-script", "in.scr", "wld.txt"],
    );
    assert_eq!(read(&dir, "wld.txt"), WLD);
    // To standard output when no output file is given.
    let out = run_in(&dir, &["solve", "in.scr", "--wld", "--quiet"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), WLD);
}

#[test]
fn echo_prints_boards_and_the_summary() {
    let dir = workdir("echo");
    let out = run_in(
        &dir,
        &[
            "-script", "in.scr", "out.txt", "-h", "16", "-b", "1", "-wld", "1",
        ],
    );
    assert_eq!(read(&dir, "out.txt"), WLD);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("Line 4:"), "{stdout}");
    assert!(stdout.contains("a b c d e f g h"), "{stdout}");
    assert!(stdout.contains("3 positions solved"), "{stdout}");
    assert!(
        stdout.contains("Total time") && stdout.contains("largest") && stdout.contains("nodes/s"),
        "{stdout}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("-b 1 has no effect"), "{stderr}");
}

/// A result line split into its parts, checking the spacing on the way.
struct ResultLine {
    outcome: String,
    moves: Vec<Move>,
    comment: Option<String>,
}

fn split_result(line: &str) -> ResultLine {
    let (main, comment) = match line.find("      %") {
        Some(i) => (&line[..i], Some(line[i + 6..].to_string())),
        None => (line, None),
    };
    let cut = ["Black win", "White win", "Draw"]
        .iter()
        .find(|w| main.starts_with(**w))
        .map_or(7, |w| w.len());
    let (outcome, rest) = main.split_at(cut);
    let moves: Vec<Move> = rest
        .split_whitespace()
        .map(|m| Move::parse(m).unwrap())
        .collect();
    let expected_rest = if moves.is_empty() {
        String::new()
    } else {
        format_moves(&moves)
    };
    assert_eq!(rest, expected_rest, "spacing of the line in {line:?}");
    ResultLine {
        outcome: outcome.to_string(),
        moves,
        comment,
    }
}

/// Checks a line move by move: every position along it has the negated value of the one
/// before (exact: every move optimal; WLD: the winner keeps winning, a draw stays a draw),
/// and the game ends with the stated result. After the first solve, each value is only
/// confirmed with a narrow window around the expected one, which is much cheaper.
fn check_line(position: &Position, moves: &[Move], mode: SolveMode, stated: &str) {
    let mut solver = EndgameSolver::new(20, Some(okapi::eval::Evaluator::shipped()));
    let mut p = *position;
    let mut v = solver.solve(p.board(), mode, false).unwrap().score;
    let side = p.side_to_move();
    let outcome = match mode {
        SolveMode::Exact => Outcome::exact(side, v),
        SolveMode::Wld => Outcome::wld(side, v),
    };
    assert_eq!(outcome.to_string(), stated);
    for (i, &mv) in moves.iter().enumerate() {
        p = replay(&p, &[mv]).unwrap_or_else(|(_, e)| panic!("move {i} ({mv}) of {moves:?}: {e}"));
        let expected = -v;
        let found = match mode {
            // Inside the window (e - 1, e + 1) the answer is exact.
            SolveMode::Exact => solver
                .search_window(p.board(), expected - 1, expected + 1)
                .unwrap(),
            // A fail-soft bound outside (-1, 1) still has the right sign.
            SolveMode::Wld => solver.search_window(p.board(), -1, 1).unwrap().signum(),
        };
        assert_eq!(
            found, expected,
            "move {i} ({mv}) of {moves:?} changes the value"
        );
        v = expected;
    }
    assert!(
        p.is_game_over(),
        "the line {moves:?} stops before the end of the game"
    );
    let (b, w) = p.final_counts();
    let black = b as i32 - w as i32;
    let reached = match mode {
        SolveMode::Exact => Outcome::exact(Color::Black, black),
        SolveMode::Wld => Outcome::wld(Color::Black, black),
    };
    assert_eq!(
        reached.to_string(),
        stated,
        "the line {moves:?} does not reach the stated result"
    );
}

fn check_lines(output: &str, mode: SolveMode) {
    let inputs: Vec<&str> = INPUT.lines().collect();
    let outputs: Vec<&str> = output.lines().collect();
    assert_eq!(inputs.len(), outputs.len());
    assert_eq!(outputs[0], inputs[0]);
    assert_eq!(outputs[4], inputs[4]);
    for (input, out) in inputs[1..4].iter().zip(&outputs[1..4]) {
        let (board, comment) = input.split_at(input.find('%').unwrap());
        let position = Position::parse(board).unwrap();
        let r = split_result(out);
        assert_eq!(r.comment.as_deref(), Some(comment), "{out}");
        assert!(!r.moves.is_empty(), "no line in {out}");
        check_line(&position, &r.moves, mode, &r.outcome);
    }
}

#[test]
fn exact_lines_are_optimal() {
    let dir = workdir("lines");
    run_in(
        &dir,
        &["-script", "in.scr", "out.txt", "-line", "1", "-e", "0"],
    );
    let out = read(&dir, "out.txt");
    // Without the lines, the spec's output.
    let stripped: String = out
        .lines()
        .map(|l| {
            if l.starts_with('%') {
                format!("{l}\n")
            } else {
                let r = split_result(l);
                format!("{}      {}\n", r.outcome, r.comment.unwrap())
            }
        })
        .collect();
    assert_eq!(stripped, EXACT);
    check_lines(&out, SolveMode::Exact);
    // `okapi solve` writes the same file.
    run_in(
        &dir,
        &["solve", "in.scr", "--line", "-o", "solve.txt", "--quiet"],
    );
    assert_eq!(read(&dir, "solve.txt"), out);
}

#[test]
fn wld_lines_keep_the_outcome() {
    let dir = workdir("wld-lines");
    run_in(
        &dir,
        &[
            "-script", "in.scr", "out.txt", "-line", "1", "-wld", "1", "-e", "0",
        ],
    );
    let out = read(&dir, "out.txt");
    check_lines(&out, SolveMode::Wld);
    run_in(
        &dir,
        &[
            "solve",
            "in.scr",
            "--wld",
            "--line",
            "-o",
            "solve.txt",
            "--quiet",
        ],
    );
    assert_eq!(read(&dir, "solve.txt"), out);
}
