//! What an outside probe found through the real binary, one test per finding: closed
//! pipes in the database commands, FIFOs and link loops in games folders, damaged WTHOR
//! folders, boards with no discs, memory limits, a killed rerun of a script, board-string
//! messages, and values at the edges (tiny times, years the wrong way round, options
//! that look like values). Each is refused in plain words or handled, never a panic, a
//! hang or a lost file.

mod common;

use common::process::{KillOnDrop, okapi, run, run_with_input, stderr, stdout};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `okapi ARGS` with standard output (or error) closed from the start and returns its
/// exit code: a panic on the closed pipe is 101.
fn with_closed(args: &[&str], closed_stdout: bool) -> (Option<i32>, String) {
    let mut cmd = okapi();
    cmd.args(args).stdin(Stdio::null());
    if closed_stdout {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    } else {
        cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    }
    if closed_stdout {
        // A pipe whose reading end is closed before the program starts: its first write
        // fails, however soon it comes (closing it after the start raced a quick writer).
        let mut fds = [0; 2];
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        unsafe { libc::close(fds[0]) };
        let write_end =
            unsafe { <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fds[1]) };
        cmd.stdout(Stdio::from(write_end));
    }
    let mut child = cmd.spawn().unwrap();
    drop(cmd);
    if closed_stdout {
        let o = child.wait_with_output().unwrap();
        (o.status.code(), stderr(&o))
    } else {
        drop(child.stderr.take());
        (child.wait().unwrap().code(), String::new())
    }
}

/// Runs `cmd` (its output piped) at most `limit`; kills it and fails if it runs longer
/// (a hang).
#[cfg(unix)]
fn finishes_within(cmd: &mut std::process::Command, limit: Duration, what: &str) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(limit) {
        Ok(o) => o.unwrap(),
        Err(_) => {
            // SAFETY: signals our own child, still running (it has not been waited for).
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            panic!("{what}: still running after {limit:?} (blocked)");
        }
    }
}

#[cfg(unix)]
fn fifo(path: &Path) {
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
}

/// A one-game WTHOR folder with its names files.
fn wthor_folder(dir: &Path) {
    use okapi::formats::records::{GameRecord, wthor};
    let game = GameRecord {
        moves: ["f5", "d6", "c3", "d3", "c4"]
            .iter()
            .map(|s| okapi::board::Square::parse(s).unwrap())
            .collect(),
        black_score: 10,
        theoretical: None,
        year: 2001,
    };
    std::fs::write(dir.join("WTH_2001.wtb"), wthor::write(&[game], 2001, 22)).unwrap();
    let names = |v: &[&str], len| {
        wthor::write_names(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>(), len)
    };
    std::fs::write(
        dir.join("WTHOR.JOU"),
        names(&["Ann", "Bob"], wthor::PLAYER_NAME_LEN),
    )
    .unwrap();
    std::fs::write(
        dir.join("WTHOR.TRN"),
        names(&["Paris"], wthor::TOURNAMENT_NAME_LEN),
    )
    .unwrap();
}

#[test]
fn closed_pipes_in_the_db_commands_panic_no_more() {
    // `okapi db games --limit 0 | head -1`, `db stats`, `bench --db`, `ladder-fit`.
    for args in [
        &["db", "games", "--limit", "0"][..],
        &["db", "stats"],
        &["db", "stats", "f5", "--format", "json"],
        &["bench", "--db", "--runs", "1"],
    ] {
        // Not a panic, and not a silent 0 either: the output is gone, and the status says so.
        let (code, said) = with_closed(args, true);
        assert_eq!(code, Some(2), "{args:?}: {said}");
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert!(
            said.contains("cannot write to standard output"),
            "{args:?}: {said}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("ladder.csv");
    std::fs::write(
        &results,
        "random,greedy,0,100,80,0,20,0.0001,0.0001\ngreedy,1,0,100,30,0,70,0.0001,0.001\n",
    )
    .unwrap();
    let (code, said) = with_closed(&["ladder-fit", results.to_str().unwrap()], true);
    assert_eq!(code, Some(2), "ladder-fit: {said}");
    assert!(said.contains("cannot write to standard output"), "{said}");
    // With standard error closed `db build` wrote nothing; `db stats --folder` panicked.
    let wthor = dir.path().join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    wthor_folder(&wthor);
    let out = dir.path().join("out.okdb");
    let (code, _) = with_closed(
        &[
            "db",
            "build",
            "--wthor",
            wthor.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        false,
    );
    assert_eq!(code, Some(0));
    assert!(out.is_file(), "db build wrote nothing");
    let (code, _) = with_closed(&["db", "stats", "--folder", wthor.to_str().unwrap()], false);
    assert_eq!(code, Some(0));
}

/// Runs `okapi ARGS` reading `input` (a file: its end comes without a race) and writing
/// to `output`, which fails every write: a pipe whose reader is gone (closed before the
/// program starts) or `/dev/full`. Returns the exit code and standard error.
#[cfg(unix)]
fn with_failing_output(args: &[&str], input: &str, full_disk: bool) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let input_file = dir.path().join("input.txt");
    std::fs::write(&input_file, input).unwrap();
    let output = if full_disk {
        Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    } else {
        let mut fds = [0; 2];
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        unsafe { libc::close(fds[0]) };
        Stdio::from(unsafe {
            <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fds[1])
        })
    };
    let mut cmd = okapi();
    cmd.args(args)
        .stdin(std::fs::File::open(&input_file).unwrap())
        .stdout(output)
        .stderr(Stdio::piped());
    let child = cmd.spawn().unwrap();
    drop(cmd);
    let o = child.wait_with_output().unwrap();
    (o.status.code(), stderr(&o))
}

/// `okapi console` and `okapi nboard` talk to a host: the end of their input is the end
/// of the session (0), but an answer they could not write (the host closed its end, a
/// full disk) is a failure the host must hear of: a message and 2, as a solve's.
#[test]
#[cfg(unix)]
fn console_and_nboard_fail_when_their_answers_cannot_be_written() {
    let sessions: [(&[&str], &str, &str); 2] = [
        (
            &["console", "--computer", "none"],
            "board\n",
            "okapi console",
        ),
        (
            &["nboard", "--no-book"],
            "nboard 2\nping 1\n",
            "okapi nboard",
        ),
    ];
    for (args, input, name) in sessions {
        // The end of the input, everything written: a normal end.
        let o = run_with_input(args, input);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(!stdout(&o).is_empty(), "{args:?}");
        let full = [false, true];
        for full_disk in full {
            let (code, said) = with_failing_output(args, input, full_disk);
            assert_eq!(code, Some(2), "{args:?} full disk {full_disk}: {said}");
            assert!(
                said.contains(&format!("{name}: cannot write to standard output")),
                "{args:?} full disk {full_disk}: {said}"
            );
            assert!(!said.contains("panicked"), "{said}");
        }
    }
}

#[test]
#[cfg(unix)]
fn a_fifo_in_a_games_folder_never_blocks() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "f5 d6 c3 d3 c4").unwrap();
    fifo(&dir.path().join("b.txt"));
    let o = finishes_within(
        okapi()
            .args(["db", "stats", "f5d6c3d3", "--folder"])
            .arg(dir.path()),
        Duration::from_secs(60),
        "db stats --folder with a FIFO",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("b.txt: not a regular file"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(": 1 games from 1 files"),
        "{}",
        stderr(&o)
    );
    // `db build` with a FIFO named WTHOR.JOU: refused as damaged, at once.
    let wthor = tempfile::tempdir().unwrap();
    wthor_folder(wthor.path());
    std::fs::remove_file(wthor.path().join("WTHOR.JOU")).unwrap();
    fifo(&wthor.path().join("WTHOR.JOU"));
    let out = wthor.path().join("out.okdb");
    let o = finishes_within(
        okapi()
            .args(["db", "build", "--wthor"])
            .arg(wthor.path())
            .arg("-o")
            .arg(&out),
        Duration::from_secs(60),
        "db build with a FIFO WTHOR.JOU",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("WTHOR.JOU: not a regular file"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

#[test]
fn db_build_refuses_a_damaged_wthor_folder_and_never_writes_the_shipped_file_unasked() {
    let dir = tempfile::tempdir().unwrap();
    wthor_folder(dir.path());
    // No -o: refused by the options, before anything is read or written (the default was
    // the shipped data/wthor.okdb).
    let o = okapi()
        .args(["db", "build", "--wthor"])
        .arg(dir.path())
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--output"), "{}", stderr(&o));
    assert!(!dir.path().join("data").exists());
    // A year file cut short (its header counts 3 games, 1 is there), a names file whose
    // count is zero: refused, each named; nothing written.
    let wtb = dir.path().join("WTH_2001.wtb");
    let mut bytes = std::fs::read(&wtb).unwrap();
    bytes[4] = 3;
    std::fs::write(&wtb, &bytes).unwrap();
    let jou = dir.path().join("WTHOR.JOU");
    let mut names = std::fs::read(&jou).unwrap();
    names[8] = 0;
    std::fs::write(&jou, &names).unwrap();
    let out = dir.path().join("out.okdb");
    let build = |extra: &[&str]| {
        okapi()
            .args(["db", "build", "--wthor"])
            .arg(dir.path())
            .arg("-o")
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let o = build(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(said.contains("is damaged; nothing written"), "{said}");
    assert!(
        said.contains("WTH_2001.wtb: cut short: 2 of the games"),
        "{said}"
    );
    assert!(said.contains("WTHOR.JOU: not a WTHOR"), "{said}");
    assert!(!out.exists());
    // Asked for, it builds from what can be read.
    let o = build(&["--accept-damaged"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.is_file());
}

#[test]
fn boards_with_no_discs_are_refused_everywhere() {
    let empty = format!("{} X", "-".repeat(64));
    // `okapi solve BOARD`: exit 2, as docs/commands.md says of a wrong board (it was 1).
    let o = run(&["solve", &empty]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the board has no discs"),
        "{}",
        stderr(&o)
    );
    let o = run(&["perft", "1", "--position", &empty]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the board has no discs"),
        "{}",
        stderr(&o)
    );
    // The console's setboard keeps the position it had.
    let o = run_with_input(
        &["console", "--computer", "none"],
        &format!("setboard {empty}\nmoves\nquit\n"),
    );
    let out = stdout(&o);
    assert!(out.contains("the board has no discs"), "{out}");
    assert!(out.contains("legal moves: d3 c4 f5 e6"), "{out}");
    // A file holding one is not a game to open (the app opens files through this reader).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("empty.txt");
    std::fs::write(&file, &empty).unwrap();
    let e = okapi::formats::load_any(&file).unwrap_err();
    assert!(e.to_string().contains("the board has no discs"), "{e}");
}

#[test]
#[cfg(unix)]
fn symlink_loops_in_a_games_folder_count_each_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let fold = dir.path().join("fold");
    std::fs::create_dir(&fold).unwrap();
    std::fs::write(fold.join("game.txt"), "f5 d6 c3 d3 c4").unwrap();
    for name in ["self", "again", "more"] {
        std::os::unix::fs::symlink(".", fold.join(name)).unwrap();
    }
    let o = okapi()
        .args(["db", "stats", "f5d6c3d3", "--format", "json", "--db"])
        .arg(empty_database(dir.path()))
        .arg("--folder")
        .arg(&fold)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Three links counted the one game 121 times.
    assert_eq!(v["games"], 1, "{v}");
}

/// A database file with no games (so a folder's games are the only ones counted).
fn empty_database(dir: &Path) -> PathBuf {
    let path = dir.join("empty.okdb");
    let db = okapi::db::Builder::new().build().unwrap();
    std::fs::write(&path, db.to_bytes()).unwrap();
    path
}

/// `ulimit -v 2000000` (2 GB of address space) for a child.
#[cfg(target_os = "linux")]
fn under_2_gb(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 2_000_000 * 1024,
                rlim_max: 2_000_000 * 1024,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
}

#[test]
#[cfg(target_os = "linux")]
fn memory_limits_size_the_table_within_ulimit_v() {
    // nboard asked for a 2 GiB table under a 2 GB limit: SIGABRT on the allocation.
    let mut cmd = okapi();
    cmd.args(["nboard", "--hash-bits", "27"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    under_2_gb(&mut cmd);
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(
            b"nboard 2\nset depth 6\nset game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\ngo\n",
        )
        .unwrap();
    stdin.flush().unwrap();
    let lines = common::process::lines_of(child.stdout.take().unwrap());
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut said = Vec::new();
    while !said.iter().any(|l: &String| l.starts_with("=== ")) {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(l) => said.push(l),
            Err(_) => panic!("no answer: {said:?}"),
        }
    }
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{:?}: {}", o.status, stderr(&o));
    assert!(
        stderr(&o).contains("--hash-bits 27 asks for a 2 GiB hash table"),
        "{}",
        stderr(&o)
    );
    // match --concurrency 8: sixteen tables, each sized within the limit.
    let mut cmd = okapi();
    cmd.args([
        "match",
        "--concurrency",
        "8",
        "--hash-bits",
        "28",
        "--games",
        "2",
        "--a",
        "1",
        "--b",
        "1",
    ]);
    under_2_gb(&mut cmd);
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{:?}: {}", o.status, stderr(&o));
    assert!(stderr(&o).contains("using --hash-bits"), "{}", stderr(&o));
}

#[test]
fn a_killed_solve_rerun_keeps_the_previous_result() {
    let dir = tempfile::tempdir().unwrap();
    // Quick positions first, then FFO #40-#44 (20-22 empties, a few seconds each on one
    // thread): the rerun is killed while it solves them.
    let ffo = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ffo1-39.scr"),
    )
    .unwrap();
    let mut script: Vec<&str> = ffo
        .lines()
        .filter(|l| !l.starts_with('%') && l.len() > 64)
        .take(3)
        .collect();
    let slow = include_str!("data/ffo40-59.scr");
    script.extend(
        slow.lines()
            .filter(|l| !l.starts_with('%') && l.len() > 64)
            .take(5),
    );
    let input = dir.path().join("in.scr");
    std::fs::write(&input, script[..3].join("\n") + "\n").unwrap();
    let out = dir.path().join("out.txt");
    let o = okapi()
        .args(["solve", "-q", "--threads", "1"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let previous = std::fs::read_to_string(&out).unwrap();
    assert_eq!(previous.lines().count(), 3);
    // The rerun of the longer script, killed once it has solved its first line.
    std::fs::write(&input, script.join("\n") + "\n").unwrap();
    let child = okapi()
        .args(["solve", "-q", "--threads", "1"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .spawn()
        .unwrap();
    let mut child = KillOnDrop(child);
    let temporary = dir.path().join(format!(".out.txt.{}.tmp", child.0.id()));
    let start = Instant::now();
    while std::fs::read_to_string(&temporary).map_or(0, |t| t.lines().count()) < 3 {
        assert!(start.elapsed() < Duration::from_secs(60), "no line written");
        assert!(child.0.try_wait().unwrap().is_none(), "the rerun ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.0.kill().unwrap();
    child.0.wait().unwrap();
    // scrZebra's way cut OUT to the lines of the rerun so far.
    assert_eq!(std::fs::read_to_string(&out).unwrap(), previous);
    // What the killed run solved is kept beside it.
    assert!(std::fs::read_to_string(&temporary).unwrap().lines().count() >= 3);
}

#[test]
fn board_string_messages_say_what_is_wrong() {
    let board63 = "-".repeat(27) + "OX------XO" + &"-".repeat(26);
    let o = run(&["solve", &format!("{board63} X")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a board has 64 squares, this has 63"),
        "{}",
        stderr(&o)
    );
    // A bad board string starting with `-` gets the board reader's error, not clap's
    // "unexpected argument" tip.
    let short = "-".repeat(20) + "OX--XO";
    let o = run(&["solve", &short, "X"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the board string: a board has 64 squares, this has 26"),
        "{}",
        stderr(&o)
    );
    assert!(
        !stderr(&o).contains("unexpected argument"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn still_open_level_times_under_a_millisecond_are_refused() {
    // `level 1e-300s` showed "level 0s", then every move "error: stopped".
    let o = run_with_input(&["console", "--computer", "none"], "level 1e-300s\nquit\n");
    assert!(
        stdout(&o).contains("give 0.001 s to 1000000 s a move"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("level 0s"), "{}", stdout(&o));
    let o = run(&["match", "--a", "1e-300s", "--b", "1", "--games", "2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("0.001 s"), "{}", stderr(&o));
}

#[test]
fn still_open_options_and_values_at_their_edges() {
    // --position takes a board string starting with `-`.
    let start = "---------------------------OX------XO--------------------------- X";
    let o = run(&["perft", "2", "--position", start]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("12"), "{}", stdout(&o));
    // `-o -script` is not scrZebra's form (it was read as one): the subcommand's parser
    // says what is wrong.
    let o = run(&["solve", "in.scr", "-o", "-script"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("Usage: okapi solve"), "{}", stderr(&o));
    // bench --selectivity is a ProbCut level, 0 to 5.
    let o = run(&[
        "bench",
        "--midgame",
        "--selectivity",
        "100",
        "--depths",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give a ProbCut level from 0 to 5"),
        "{}",
        stderr(&o)
    );
    // An I/O error says the system's reason once.
    let o = run(&["db", "stats", "--db", "/nonexistent/x.okdb"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).matches("No such file or directory").count(),
        1,
        "{}",
        stderr(&o)
    );
    // Years the wrong way round are said, not answered with "0 games".
    let o = run(&["db", "stats", "--from-year", "2020", "--to-year", "2000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--from-year 2020 is after --to-year 2000"),
        "{}",
        stderr(&o)
    );
    // `db stats --` reads `--` as a pass, as `f5 -- d6` does (refused: Black has moves).
    for args in [&["db", "stats", "--"][..], &["db", "stats", "f5 -- d6"]] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("a pass, but the side to move has a legal move"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// A results file for `ladder-fit`: two pairings of three levels.
fn ladder_results(dir: &Path) -> PathBuf {
    let results = dir.join("ladder.csv");
    std::fs::write(
        &results,
        "random,greedy,0,100,80,0,20,0.0001,0.0001\ngreedy,1,0,100,30,0,70,0.0001,0.001\n",
    )
    .unwrap();
    results
}

/// Output to a full disk (`/dev/full`) was cut mid-record with exit 0 by `perft`, `book
/// show`, `db stats`, `db games` and `ladder-fit`: now the error and status 2, as `solve`.
#[cfg(target_os = "linux")]
#[test]
fn output_to_a_full_disk_is_an_error_not_a_cut_success() {
    let dir = tempfile::tempdir().unwrap();
    let results = ladder_results(dir.path());
    for args in [
        &["perft", "4"][..],
        &["book", "show"],
        &["db", "stats"],
        &["db", "games", "--format", "json"],
        &["ladder-fit", results.to_str().unwrap()],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = okapi()
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write to standard output: No space left on device"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

/// `ladder-fit /dev/zero` grew to 2 GB before it died: read capped like every reader.
#[cfg(unix)]
#[test]
fn ladder_fit_reads_an_endless_file_capped() {
    let o = finishes_within(
        okapi().args(["ladder-fit", "/dev/zero"]),
        Duration::from_secs(60),
        "ladder-fit /dev/zero",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("file too large"), "{}", stderr(&o));
}

/// `ladder-fit one.csv --out one.csv` wrote the table over the games it was fitted on.
#[test]
fn ladder_fit_refuses_to_write_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let results = ladder_results(dir.path());
    let before = std::fs::read(&results).unwrap();
    let o = run(&[
        "ladder-fit",
        results.to_str().unwrap(),
        "--out",
        results.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is the results file"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&results).unwrap(), before);
}

/// `--out` a device node or a symbolic link: written through, never replaced by a plain
/// file (as root, `ladder-fit --out /dev/full` made /dev/full a file).
#[cfg(unix)]
#[test]
fn writers_keep_devices_and_links() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let results = ladder_results(dir.path());
    let o = run(&[
        "ladder-fit",
        results.to_str().unwrap(),
        "--out",
        "/dev/null",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    let o = run(&[
        "ladder-fit",
        results.to_str().unwrap(),
        "--out",
        "/dev/full",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("No space left"), "{}", stderr(&o));
    // A link: the file it points to gets the table, the link stays a link.
    let real = dir.path().join("real.json");
    let link = dir.path().join("levels.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = run(&[
        "ladder-fit",
        results.to_str().unwrap(),
        "--out",
        link.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("\"levels\"")
    );
}

/// `perft --position missing.txt` said "a board has 64 squares, this has 20".
#[test]
fn a_missing_position_file_is_said_missing() {
    let o = run(&["perft", "1", "--position", "missing.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no such file as missing.txt"),
        "{}",
        stderr(&o)
    );
}

/// "cannot read the script D: cannot read D: Is a directory": the path once.
#[test]
fn a_message_names_its_file_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = run(&["solve", d, "-q"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).matches(d).count(), 1, "{}", stderr(&o));
}

/// `okapi /missing/game.ggf` and `okapi DIR` said "unrecognized subcommand".
#[test]
fn a_lone_missing_file_or_folder_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("game.ggf");
    let o = run(&[missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("game.ggf: no such file"),
        "{}",
        stderr(&o)
    );
    let o = run(&[dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a folder"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("unrecognized"), "{}", stderr(&o));
}

/// A `solve -o` stopped by SIGTERM left `.out.txt.PID.tmp` behind, named for a process
/// that is gone: its lines go to `out.txt.partial`, said, and no temporary file is left.
#[cfg(unix)]
#[test]
fn a_solve_stopped_by_sigterm_leaves_no_stale_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let quick = include_str!("data/ffo1-39.scr");
    let slow = include_str!("data/ffo40-59.scr");
    let boards = |text: &'static str, n| {
        text.lines()
            .filter(|l| !l.starts_with('%') && l.len() > 64)
            .take(n)
            .collect::<Vec<_>>()
    };
    let mut script = boards(quick, 2);
    script.extend(boards(slow, 5));
    let input = dir.path().join("in.scr");
    std::fs::write(&input, script.join("\n") + "\n").unwrap();
    let out = dir.path().join("out.txt");
    std::fs::write(&out, "previous\n").unwrap();
    let child = okapi()
        .args(["solve", "-q", "--threads", "1"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = KillOnDrop(child);
    let temporary = dir.path().join(format!(".out.txt.{}.tmp", child.0.id()));
    let start = Instant::now();
    while std::fs::read_to_string(&temporary).map_or(0, |t| t.lines().count()) < 2 {
        assert!(start.elapsed() < Duration::from_secs(60), "no line written");
        assert!(child.0.try_wait().unwrap().is_none(), "the run ended");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: signals our own child, still running.
    unsafe { libc::kill(child.0.id() as i32, libc::SIGTERM) };
    let status = child.0.wait().unwrap();
    assert!(!status.success());
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.0.stderr.take().unwrap(), &mut said).unwrap();
    assert!(said.contains("out.txt.partial"), "{said}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "previous\n");
    assert!(!temporary.exists(), "a stale temporary file");
    let partial = std::fs::read_to_string(dir.path().join("out.txt.partial")).unwrap();
    assert!(partial.lines().count() >= 2, "{partial}");
}

/// `match --openings /dev/zero` grew to 2 GB before it died: read capped.
#[cfg(unix)]
#[test]
fn match_reads_an_endless_openings_file_capped() {
    let o = finishes_within(
        okapi().args(["match", "1", "1", "--openings", "/dev/zero", "--games", "2"]),
        Duration::from_secs(60),
        "match --openings /dev/zero",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("file too large"), "{}", stderr(&o));
}

/// `db build --folder` kept a game stopped half-way as if it had ended (a GGF of short
/// games moved Black's score from 48% to 67%), and XOT games counted in the opening
/// statistics: both stay what they are through the file, the unfinished game counts in
/// no result, and XOT games are left out unless asked for (`--xot`).
#[test]
fn a_built_database_keeps_unfinished_and_xot_games_apart() {
    let dir = tempfile::tempdir().unwrap();
    let wthor = dir.path().join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    wthor_folder(&wthor);
    let club = dir.path().join("club");
    std::fs::create_dir(&club).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/club-games.ggf"),
        club.join("club-games.ggf"),
    )
    .unwrap();
    let built = dir.path().join("built.okdb");
    let o = okapi()
        .args(["db", "build", "--wthor"])
        .arg(&wthor)
        .arg("--folder")
        .arg(&club)
        .arg("-o")
        .arg(&built)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // Read back: the WTHOR game, a finished club game, one stopped after 7 moves, and a
    // game of a random start (TY[8r]).
    let db = okapi::db::Database::load(&built).unwrap();
    let kinds: Vec<(bool, bool)> = (0..db.len())
        .map(|i| (db.game(i).finished, db.game(i).xot))
        .collect();
    assert_eq!(
        kinds,
        [(true, false), (true, false), (false, false), (true, true)]
    );
    let stats = |extra: &[&str]| -> serde_json::Value {
        let o = okapi()
            .args(["db", "stats", "--format", "json", "--db"])
            .arg(&built)
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    // By default: the XOT game left out; the unfinished one in the games, in no result
    // (Black won both finished games: 100%, not Black's disc lead where the third stops).
    let v = stats(&[]);
    assert_eq!(v["games"], 3, "{v}");
    let m = &v["moves"][0];
    assert_eq!(
        (
            &m["games"],
            &m["unfinished"],
            &m["black_wins"],
            &m["black_losses"]
        ),
        (&3.into(), &1.into(), &2.into(), &0.into()),
        "{v}"
    );
    assert_eq!(m["average_black_score"], 6.0, "{v}");
    let v = stats(&["--xot", "include"]);
    assert_eq!(v["games"], 4, "{v}");
    assert_eq!(v["moves"][0]["black_losses"], 1, "{v}");
    let v = stats(&["--xot", "only"]);
    assert_eq!(v["games"], 1, "{v}");
    // The text says what it left out.
    let o = okapi()
        .args(["db", "stats", "--db"])
        .arg(&built)
        .output()
        .unwrap();
    let text = stdout(&o);
    assert!(text.contains("1 XOT game is left out"), "{text}");
    assert!(
        text.contains("1 of the games stop before their end"),
        "{text}"
    );
    // `db games` filters the same way.
    let o = okapi()
        .args(["db", "games", "--format", "json", "--xot", "only", "--db"])
        .arg(&built)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["list"][0]["black"], "Kurahashi Satoshi", "{v}");
    assert_eq!(v["games"], 1, "{v}");
}
