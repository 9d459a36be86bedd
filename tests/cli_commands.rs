//! Perft counts, and the `perft`, `bench` and `--help` commands of the real binary.

use okapi::board::Board;
use okapi::board::perft::perft;
use std::process::{Command, Output};

/// OEIS A124004: passes count as a ply, a finished game is a leaf.
const PUBLISHED: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

fn okapi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn perft_depths_1_to_9() {
    for (d, &n) in PUBLISHED.iter().enumerate() {
        assert_eq!(perft(Board::START, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn perft_command_prints_every_depth() {
    let out = okapi(&["perft", "7", "--divide"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    for (d, n) in PUBLISHED.iter().take(7).enumerate() {
        let row = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&(d + 1).to_string()))
            .unwrap_or_else(|| panic!("no row for depth {}:\n{stdout}", d + 1));
        assert_eq!(
            row.split_whitespace().nth(1),
            Some(n.to_string().as_str()),
            "{row}"
        );
    }
    // Divide: the four openings are symmetric, 55092 / 4 leaves each at depth 7.
    for mv in ["d3", "c4", "f5", "e6"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>() == [mv, "13773"]),
            "{mv}:\n{stdout}"
        );
    }
    assert!(
        stdout
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["total", "55092"]),
        "{stdout}"
    );
}

#[test]
fn bench_reports_right_answers() {
    let out = okapi(&[
        "bench",
        "--from",
        "1",
        "--to",
        "4",
        "--hash-bits",
        "16",
        "--runs",
        "2",
    ]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.matches(" OK ").count(), 4, "{stdout}");
    assert!(stdout.contains("4 positions: 4 right, 0 wrong"), "{stdout}");
    assert!(
        stdout.contains("median") && stdout.contains("nodes/s"),
        "{stdout}"
    );
    // From the OBF file too, numbered from the file name.
    let obf = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fforum-20-39.obf");
    let out = okapi(&["bench", "--file", obf, "--from", "20", "--to", "21"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("2 positions: 2 right, 0 wrong"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.trim_start().starts_with("20 ")),
        "{stdout}"
    );
}

/// The total node count from the bench's last line.
fn total_nodes(stdout: &str) -> u64 {
    let last = stdout.lines().last().unwrap_or_default();
    let after = last.split("nodes ").nth(1).unwrap_or_default();
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no node total in {last:?}"))
}

#[test]
fn bench_plain_solves_without_the_evaluation() {
    let run = |extra: &[&str]| {
        let mut args = vec!["bench", "--from", "20", "--to", "21", "--hash-bits", "16"];
        args.extend_from_slice(extra);
        let out = okapi(&args);
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("2 positions: 2 right, 0 wrong"), "{stdout}");
        total_nodes(&stdout)
    };
    // The same answers by another search: the evaluation's ordering searches and
    // selective passes are gone, so the tree differs.
    assert_ne!(run(&[]), run(&["--plain"]));
}

#[test]
fn bench_says_wrong() {
    // FFO #1 with a false expected score: the bench must say WRONG and fail.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_commands-wrong");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong.scr");
    std::fs::write(&file, "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X % ffo#01 best:G8 score:+20\n").unwrap();
    let out = okapi(&[
        "bench",
        "--file",
        file.to_str().unwrap(),
        "--from",
        "1",
        "--to",
        "1",
    ]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("+20 WRONG"), "{stdout}");
}

#[test]
fn every_subcommand_has_help() {
    for sub in [
        &["--help"][..],
        &["solve", "--help"],
        &["perft", "--help"],
        &["bench", "--help"],
        &["app", "--help"],
    ] {
        let out = okapi(sub);
        assert!(out.status.success(), "{sub:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Usage: okapi"), "{sub:?}: {text}");
    }
    let out = okapi(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bench_midgame_refuses_depth_zero() {
    // A depth-0 search has no move: the bench used to fail with "the search was stopped".
    let out = okapi(&["bench", "--midgame", "--depths", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("--depths") && stderr.contains("'0'"),
        "{stderr}"
    );
    assert!(!stderr.contains("stopped"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing run");
}

#[test]
fn train_subcommands_keep_their_options() {
    let out = okapi(&["train", "eval", "--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for opt in [
        "--data",
        "--out",
        "--report",
        "--labels",
        "--phase-width",
        "--window",
        "--epochs",
        "--step",
        "--momentum",
        "--l2",
        "--solve ",
        "--solve-empties",
        "--max-games",
        "--negamax-max-games",
        "--min-positions",
        "[default: negamax]",
    ] {
        assert!(text.contains(opt), "{opt}: {text}");
    }
    let out = okapi(&["train", "probcut", "--help"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for opt in [
        "--games",
        "--positions",
        "--max-depth",
        "--min-empties",
        "--max-empties",
        "--weights",
        "--out",
        "--seed",
    ] {
        assert!(text.contains(opt), "{opt}: {text}");
    }
    // A bad file is an error of the command, not a panic.
    let out = okapi(&["train", "probcut", "--games", "no-such-file.wtb"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-file.wtb"));
}

/// The commands that read the game records look only where they are told: `--data DIR`
/// (or `--games`), else the folder `OKAPI_DATA` names; with neither they stop at once and
/// ask for `--data`, writing nothing.
#[test]
fn record_commands_need_data_to_be_given() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        vec!["book", "build"],
        vec!["train", "eval"],
        vec!["train", "probcut"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_okapi"))
            .args(&args)
            .env_remove("OKAPI_DATA")
            .current_dir(tmp.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let asks = if args[1] == "probcut" {
            "--games"
        } else {
            "--data"
        };
        assert!(err.contains(asks), "{args:?}: {err}");
    }
    // OKAPI_DATA stands for --data: an empty folder is read, and refused for holding no records.
    let out = Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(["book", "build", "--out", "x.book"])
        .env("OKAPI_DATA", tmp.path())
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("no game records in"), "{err}");
    assert!(!tmp.path().join("x.book").exists());
    assert!(std::fs::read_dir(tmp.path()).unwrap().next().is_none());
}
