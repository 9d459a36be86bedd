//! Scripts with threads and shards through the real binary: the output file is the same
//! byte for byte with one thread, two, three, and split into shards then merged; bad
//! thread counts and shards are refused with a message.

use okapi::board::Position;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A script of many small positions (FFO #1-#25 and two positions along each one's
/// legal moves, 14 to 19 empties) with one large one (FFO #26, 20 empties), comments, a
/// bad line, a blank line, trailing comments, and the end marker.
fn script() -> String {
    let ffo = include_str!("data/ffo1-39.scr");
    let mut lines = vec!["% many small positions".to_string()];
    for (i, line) in ffo
        .lines()
        .filter(|l| !l.starts_with('%') && l.len() > 64)
        .take(26)
        .enumerate()
    {
        let p = Position::parse(line).unwrap();
        lines.push(line.to_string());
        if i == 25 {
            break; // the large one alone
        }
        let moves: Vec<_> = p.legal_moves().iter().collect();
        for sq in [moves[0], moves[moves.len() - 1]] {
            let mut next = p;
            next.play(sq).unwrap();
            lines.push(format!("{} % after {sq}", next.to_board_string()));
        }
        if i == 10 {
            lines.push("XXXX not a board".to_string());
            lines.push(String::new());
            lines.push("% half-way".to_string());
        }
    }
    lines.push("% End of the endgame script".to_string());
    lines.push("ignored after the end".to_string());
    lines.join("\n") + "\n"
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("script_threads-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("in.scr"), script()).unwrap();
    dir
}

fn okapi(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_okapi"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Runs a script command that meets the bad line (exit status 1) and returns the file.
fn solved(dir: &Path, args: &[&str], out: &str) -> Vec<u8> {
    let o = okapi(dir, args);
    assert_eq!(
        o.status.code(),
        Some(1),
        "okapi {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(dir.join(out)).unwrap()
}

#[test]
fn one_two_and_three_threads_write_the_same_file() {
    let dir = workdir("threads");
    let one = solved(
        &dir,
        &[
            "-script", "in.scr", "n1.txt", "-line", "1", "-e", "0", "-n", "1",
        ],
        "n1.txt",
    );
    let text = String::from_utf8(one.clone()).unwrap();
    assert_eq!(text.lines().count(), 80, "{text}");
    assert!(text.lines().filter(|l| l.contains(" - ")).count() >= 76);
    let two = solved(
        &dir,
        &[
            "-n", "2", "-script", "in.scr", "n2.txt", "-line", "1", "-e", "0",
        ],
        "n2.txt",
    );
    assert!(one == two, "-n 1 and -n 2 differ");
    let three = solved(
        &dir,
        &[
            "solve",
            "in.scr",
            "-o",
            "n3.txt",
            "--line",
            "--threads",
            "3",
        ],
        "n3.txt",
    );
    assert!(one == three, "-n 1 and okapi solve --threads 3 differ");
    // With echo, every position's board and result and the summary, in input order.
    let o = okapi(&dir, &["-script", "in.scr", "echo.txt", "-n", "2"]);
    let stdout = String::from_utf8(o.stdout).unwrap();
    let numbers: Vec<usize> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Line ")?.strip_suffix(':')?.parse().ok())
        .collect();
    assert_eq!(numbers.len(), 76, "{stdout}");
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{numbers:?}");
    assert!(
        stdout.contains("76 positions solved, 1 bad line"),
        "{stdout}"
    );
}

#[test]
fn shards_merge_into_the_unsharded_file() {
    let dir = workdir("shards");
    let whole = solved(
        &dir,
        &[
            "solve",
            "in.scr",
            "-o",
            "whole.txt",
            "--line",
            "--threads",
            "1",
            "-q",
        ],
        "whole.txt",
    );
    let mut statuses = Vec::new();
    for k in 1..=3 {
        let out = format!("part{k}");
        let o = okapi(
            &dir,
            &[
                "solve",
                "in.scr",
                "-o",
                &out,
                "--line",
                "--shard",
                &format!("{k}/3"),
                "--threads",
                "2",
                "-q",
            ],
        );
        statuses.push(o.status.code());
        let text = std::fs::read_to_string(dir.join(&out)).unwrap();
        assert!(
            text.starts_with(&format!("okapi-script-shard 1 shard={k}/3 ")),
            "{text}"
        );
    }
    // The bad line is entry 33 (0-based): shard 1 of 3 reports it.
    assert_eq!(statuses, vec![Some(1), Some(0), Some(0)]);
    let o = okapi(
        &dir,
        &["solve", "--merge", "merged.txt", "part3", "part1", "part2"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(dir.join("merged.txt")).unwrap() == whole);
    // A missing shard is named.
    let o = okapi(&dir, &["solve", "--merge", "bad.txt", "part3", "part1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("shard 2/3 is missing"), "{err}");
    assert!(!dir.join("bad.txt").exists());
}

#[test]
fn bad_thread_counts_and_shards_are_refused() {
    let dir = workdir("refused");
    for (args, message) in [
        (
            &["solve", "in.scr", "--threads", "0"][..],
            "'0': give a number of threads from 1",
        ),
        (
            &["solve", "in.scr", "--threads", "x"],
            "'x' is not a number of threads",
        ),
        (
            &["-script", "in.scr", "o.txt", "-n", "0"],
            "-n '0': give a number of threads",
        ),
        (
            &["-script", "in.scr", "o.txt", "-n", "two"],
            "-n 'two' is not a number",
        ),
        (
            &["solve", "in.scr", "--shard", "0/3"],
            "shards are numbered from 1 to 3",
        ),
        (
            &["solve", "in.scr", "--shard", "4/3"],
            "shards are numbered from 1 to 3",
        ),
        (
            &["solve", "in.scr", "--shard", "1/0"],
            "the number of shards must be at least 1",
        ),
        (
            &["solve", "in.scr", "--shard", "x"],
            "give the shard as K/N",
        ),
        (&["nboard", "--threads", "0"], "give a number of threads"),
        (
            &["match", "1", "2", "--threads=0"],
            "give a number of threads",
        ),
        (&["console", "--threads", "x"], "is not a number of threads"),
    ] {
        let o = okapi(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    assert!(!dir.join("o.txt").exists());
}

/// Large positions (FFO #26-#39, 20 to 24 empties) are each solved by the parallel search
/// with -n 2: the lines must still be the one-thread lines, since a line tries its moves
/// in an order that depends on the position alone, not on what the threads left in the
/// table.
#[test]
fn lines_of_large_positions_are_the_same_with_two_threads() {
    let dir = workdir("large");
    let ffo = include_str!("data/ffo1-39.scr");
    let large: Vec<&str> = ffo
        .lines()
        .filter(|l| !l.starts_with('%') && l.len() > 64)
        .skip(25)
        .collect();
    assert_eq!(large.len(), 14);
    std::fs::write(dir.join("large.scr"), large.join("\n") + "\n").unwrap();
    let run = |n: &str, out: &str| {
        let o = okapi(
            &dir,
            &[
                "-script",
                "large.scr",
                out,
                "-line",
                "1",
                "-e",
                "0",
                "-n",
                n,
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(dir.join(out)).unwrap()
    };
    let one = run("1", "n1.txt");
    assert_eq!(one.lines().count(), 14, "{one}");
    for round in 0..2 {
        let two = run("2", "n2.txt");
        assert_eq!(one, two, "round {round}: -n 1 and -n 2 differ");
    }
}
