//! `okapi console` end to end: a short session on piped input.

mod common;

use common::process::{run_with_input, stdout};

fn console(args: &[&str], input: &str) -> String {
    let out = run_with_input(&[&["console"], args].concat(), input);
    assert!(out.status.success(), "{out:?}");
    stdout(&out)
}

#[test]
fn play_undo_hint_show_lines() {
    let out = console(
        &["--level", "2"],
        "f5\nundo\nmoves\nx9\nf5\nhint\nshow lines 2\nlevel 3t1\ngo\nnew\nquit\n",
    );
    assert!(out.contains("White plays"), "{out}");
    assert!(out.contains("legal moves: d3 c4 f5 e6"), "{out}");
    assert!(out.contains("unknown command 'x9'"), "{out}");
    assert!(out.contains("hint: "), "{out}");
    assert!(out.contains("(temperature 2 discs)"), "{out}");
    // After f5 and White's answer, Black has several moves; chances add up to about 100.
    let total: f64 = out
        .lines()
        .skip_while(|l| !l.contains("temperature 2"))
        .skip(1)
        .take_while(|l| l.contains('%'))
        .map(|l| {
            l.split_whitespace()
                .nth(2)
                .unwrap()
                .trim_end_matches('%')
                .parse::<f64>()
                .unwrap()
        })
        .sum();
    assert!((total - 100.0).abs() < 0.5, "{total} in {out}");
    assert!(out.contains("level 3t1"), "{out}");
    assert!(out.contains("Black plays"), "{out}");
}

#[test]
fn solve_near_the_end() {
    // Computer plays both sides at depth 1 to 50 discs... then solve.
    let out = console(
        &["--level", "1", "--computer", "none"],
        "computer both\nsolve\nquit\n",
    );
    assert!(out.contains("game over"), "{out}");
    let mut p = okapi::board::Position::start();
    while p.empty_count() > 14 {
        match p.legal_moves().iter().next() {
            Some(sq) => {
                p.play(sq).unwrap();
            }
            None => p.force_pass(),
        }
    }
    let out = console(
        &["--level", "1", "--computer", "none"],
        &format!("setboard {}\nsolve\nquit\n", p.to_board_string()),
    );
    assert!(out.contains("(exact,"), "{out}");
}

#[test]
fn threads_are_set_on_the_command_line_and_by_command() {
    let out = console(
        &["--level", "2", "--threads", "2", "--computer", "none"],
        "threads\nthreads 1\nthreads\nthreads 0\nthreads x\nf5\ngo\nquit\n",
    );
    let said: Vec<&str> = out.lines().filter(|l| l.starts_with("threads ")).collect();
    assert_eq!(said, ["threads 2", "threads 1", "threads 1"], "{out}");
    assert!(
        out.contains("error: '0': give a number of threads from 1 to"),
        "{out}"
    );
    assert!(
        out.contains("error: 'x' is not a number of threads"),
        "{out}"
    );
    // The engine still answers after the change.
    assert!(out.contains("White plays"), "{out}");
}

#[test]
fn the_opening_is_named_under_the_board_and_by_command() {
    // The Tiger as its mirror image from e6 (f5 d6 c3 d3 c4 reflected in the a1-h8
    // diagonal), then a move off the named lines: the name stays.
    let out = console(
        &["--level", "1", "--computer", "none"],
        "e6\nf4\nc3\nc4\nd3\nopening\ne7\nf7\nopening\nnew\nf5\nd6\nc5\nf4\ne3\nc6\nd3\nf6\ne6\nopening\nquit\n",
    );
    assert!(out.contains("opening: Tiger\n"), "{out}");
    // after e7 f7 the game has left the Tiger's lines but is still in the Tiger
    assert!(out.contains("opening: Tiger (reached at move 5)"), "{out}");
    // one move before the Rose: d7 leads to it
    assert!(out.contains("  d7 leads to: Rose"), "{out}");
}
