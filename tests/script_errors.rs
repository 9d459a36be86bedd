//! Bad input through the real binary: each bad line is named with its number on standard
//! error and gets a `% error:` line in place, everything else is still solved, and the
//! exit status says something went wrong. Also the special positions: a finished game,
//! a forced pass first, and the end marker.

use okapi::board::{Move, Position};
use okapi::formats::script::replay;
use std::path::PathBuf;
use std::process::{Command, Output};

/// FFO #1: Black to move, 14 empties, Black wins by 18 (41 - 23).
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";

fn input() -> String {
    let empty = "-".repeat(64);
    let short = &FFO1[1..];
    let bad_char = format!("{}Z{}", &FFO1[..5], &FFO1[6..]);
    // Neither side can move: one disc each, a draw with the 62 empties shared.
    let over = format!("X{}O", "-".repeat(62));
    // Black cannot move; White plays d1 and wins 64 - 0.
    let pass_first = format!("OOX{}", "-".repeat(61));
    [
        "% bad input cases".to_string(),
        format!("{short} X"),
        format!("{bad_char} X % keep me"),
        format!("{empty}   % no side"),
        format!("{FFO1} Q"),
        String::new(),
        format!("{FFO1} X % trailing comment kept"),
        format!("{over} X"),
        format!("{pass_first} X % pass first"),
        "   ".to_string(),
        "% End of the endgame script".to_string(),
        format!("{FFO1} X"),
        "not a board, but after the end".to_string(),
    ]
    .join("\n")
        + "\n"
}

fn workdir(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("script_errors-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("in.scr"), text).unwrap();
    dir
}

fn okapi(dir: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_okapi"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Runs a script with bad lines and checks what every mode has in common; returns the
/// output lines.
fn run_bad(name: &str, text: &str, args: &[&str]) -> Vec<String> {
    let dir = workdir(name, text);
    let out = okapi(&dir, args);
    assert_eq!(out.status.code(), Some(1), "exit status with bad lines");
    let stderr = String::from_utf8(out.stderr).unwrap();
    for n in 2..=5 {
        assert!(
            stderr.contains(&format!("in.scr:{n}: ")),
            "line {n} not named in:\n{stderr}"
        );
    }
    for n in [1, 6, 7, 8, 9, 10, 11, 12, 13] {
        assert!(
            !stderr.contains(&format!("in.scr:{n}:")),
            "line {n} wrongly reported in:\n{stderr}"
        );
    }
    assert!(
        stderr.contains("63") && stderr.contains("'Z'") && stderr.contains("'Q'"),
        "{stderr}"
    );
    let output = std::fs::read_to_string(dir.join("out.txt")).unwrap();
    let lines: Vec<String> = output.lines().map(str::to_string).collect();
    assert_eq!(
        lines.len(),
        9,
        "one line per non-blank input line up to the end marker:\n{output}"
    );
    assert!(output.ends_with('\n'));
    assert_eq!(lines[0], "% bad input cases");
    assert!(
        lines[1].starts_with("% error: ") && lines[1].contains("63"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("% error: ") && lines[2].contains("'Z'"),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with("      % keep me"), "{}", lines[2]);
    assert!(
        lines[3].starts_with("% error: ") && lines[3].contains("missing side"),
        "{}",
        lines[3]
    );
    assert!(lines[3].ends_with("      % no side"), "{}", lines[3]);
    assert!(
        lines[4].starts_with("% error: ") && lines[4].contains("'Q'"),
        "{}",
        lines[4]
    );
    assert_eq!(lines[8], "% End of the endgame script");
    lines
}

#[test]
fn exact_mode() {
    let lines = run_bad(
        "exact",
        &input(),
        &["-script", "in.scr", "out.txt", "-e", "0"],
    );
    assert_eq!(lines[5], "41 - 23      % trailing comment kept");
    assert_eq!(lines[6], "32 - 32");
    assert_eq!(lines[7], " 0 - 64      % pass first");
}

#[test]
fn wld_mode_with_lines() {
    let lines = run_bad(
        "wld",
        &input(),
        &[
            "-wld", "1", "-line", "1", "-script", "in.scr", "out.txt", "-e", "0",
        ],
    );
    let (head, comment) = lines[5].split_once("      ").unwrap();
    assert_eq!(comment, "% trailing comment kept");
    let moves = head.strip_prefix("Black win    ").expect(head);
    let moves: Vec<Move> = moves.split(' ').map(|m| Move::parse(m).unwrap()).collect();
    let end = replay(&Position::parse(&format!("{FFO1} X")).unwrap(), &moves).unwrap();
    assert!(end.is_game_over());
    let (b, w) = end.final_counts();
    assert!(b > w, "the WLD line must keep Black's win: {b} - {w}");
    assert_eq!(lines[6], "Draw", "a finished game has no line");
    assert_eq!(lines[7], "White win    -- d1      % pass first");
}

#[test]
fn exact_lines_crlf_and_echo() {
    let text = input().replace('\n', "\r\n");
    let lines = run_bad(
        "crlf",
        &text,
        &["-script", "in.scr", "out.txt", "-line", "1"],
    );
    let (head, _) = lines[5].split_once("      %").unwrap();
    let moves = head.strip_prefix("41 - 23    ").expect(head);
    let moves: Vec<Move> = moves.split(' ').map(|m| Move::parse(m).unwrap()).collect();
    let end = replay(&Position::parse(&format!("{FFO1} X")).unwrap(), &moves).unwrap();
    assert_eq!(end.final_counts(), (41, 23));
    assert_eq!(lines[6], "32 - 32");
    assert_eq!(lines[7], " 0 - 64    -- d1      % pass first");
}

#[test]
fn solve_subcommand_reports_the_same() {
    let dir = workdir("solve", &input());
    let out = okapi(&dir, &["solve", "in.scr", "-o", "solve.txt", "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("in.scr:3: bad character 'Z'"), "{stderr}");
    let out = okapi(&dir, &["-script", "in.scr", "compat.txt", "-e", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(dir.join("solve.txt")).unwrap(),
        std::fs::read_to_string(dir.join("compat.txt")).unwrap()
    );
}

#[test]
fn unusable_runs_fail_clearly() {
    let dir = workdir("usage", "");
    let out = okapi(&dir, &["-script", "missing.scr", "out.txt", "-e", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.scr"));
    assert!(
        !dir.join("out.txt").exists(),
        "no output file without an input"
    );
    for args in [
        &["-script", "in.scr"][..],
        &["-script", "in.scr", "o", "-wld", "2"],
        &["-script", "in.scr", "o", "-q", "1"],
    ] {
        let out = okapi(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("usage: okapi -script"), "{stderr}");
    }
    // The input is never overwritten.
    std::fs::write(dir.join("keep.scr"), "% precious\n").unwrap();
    let out = okapi(&dir, &["-script", "keep.scr", "./keep.scr", "-e", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is the input file"));
    assert_eq!(
        std::fs::read_to_string(dir.join("keep.scr")).unwrap(),
        "% precious\n"
    );
    // An empty script is fine and gives an empty file.
    let out = okapi(&dir, &["-script", "in.scr", "out.txt", "-e", "0"]);
    assert!(out.status.success());
    assert_eq!(std::fs::read(dir.join("out.txt")).unwrap(), b"");
}

#[test]
fn comments_are_copied_byte_for_byte() {
    // Latin-1 accents (not UTF-8), a tab and trailing spaces in the comments.
    let mut text = b"% Fran\xe7ois'\tscript  \n".to_vec();
    text.extend_from_slice(format!("X{}O X % ", "-".repeat(62)).as_bytes());
    text.extend_from_slice(b"\xe9gal\t ");
    text.extend_from_slice(b"\n% End of the endgame script \xe0 la fin\n");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("script_errors-bytes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("in.scr"), &text).unwrap();
    let out = okapi(&dir, &["-script", "in.scr", "out.txt", "-e", "0"]);
    assert!(out.status.success());
    let mut expected = b"% Fran\xe7ois'\tscript  \n32 - 32      % ".to_vec();
    expected.extend_from_slice(b"\xe9gal\t \n");
    expected.extend_from_slice(b"% End of the endgame script \xe0 la fin\n");
    assert_eq!(std::fs::read(dir.join("out.txt")).unwrap(), expected);
}

#[test]
fn a_huge_hash_gives_the_same_answers_within_this_machine_s_memory() {
    // -h 30 asks for 16 GiB: capped (with a one-line warning) where memory is short, and
    // in any case mapped as touched, so a small script runs at once; answers unchanged.
    let text = format!("{FFO1} X % ffo 1\n");
    let dir = workdir("huge-hash", &text);
    let out = okapi(
        &dir,
        &["-script", "in.scr", "h18.txt", "-e", "0", "-h", "18"],
    );
    assert!(out.status.success());
    assert!(out.stderr.is_empty());
    for (args, flag, name) in [
        (
            &["-script", "in.scr", "h30.txt", "-e", "0", "-h", "30"][..],
            "-h 30",
            "h30.txt",
        ),
        (
            &[
                "solve",
                "in.scr",
                "-o",
                "solve30.txt",
                "--quiet",
                "--hash-bits",
                "30",
            ],
            "--hash-bits 30",
            "solve30.txt",
        ),
    ] {
        let out = okapi(&dir, args);
        assert!(out.status.success(), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        match stderr.lines().collect::<Vec<_>>()[..] {
            [] => {}
            [warning] => assert!(
                warning.contains(&format!("{flag} asks for a 16 GiB hash table"))
                    && warning.contains("memory available; using"),
                "{warning}"
            ),
            _ => panic!("{stderr}"),
        }
        assert_eq!(
            std::fs::read(dir.join(name)).unwrap(),
            std::fs::read(dir.join("h18.txt")).unwrap(),
            "{args:?}"
        );
    }
}
