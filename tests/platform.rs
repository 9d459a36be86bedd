//! What every build of the program must do alike, whatever it runs on: the version, the
//! script solver byte for byte (with the platform's line ends), `solve` to standard
//! output, `perft`, an NBoard session, a console session and the games database.
//!
//! They run with the rest of the suite, and `.ci/windows` runs them on the Windows build
//! under Wine (cargo's runner for `x86_64-pc-windows-gnu`, `.cargo/config.toml`). There they
//! check too what only Windows has (`windows` below): the program's header and resources,
//! the installer (given as `OKAPI_SETUP_EXE`: install, the installed program, uninstall),
//! the app's window (with OpenGL, and without it when `OKAPI_TEST_NO_OPENGL=1`) and the
//! portable mode.
//!
//! Their harness is libtest-mimic (`harness = false` in Cargo.toml; the same options as
//! the built-in one: a name filter, `--exact`, `--test-threads`): the built-in one needs
//! the standard library's `test` crate, which the Windows build, with the standard library
//! built from source, would then give every crate as a dependency, so that the tests'
//! build could share none of okapi.exe's. A test is a plain function listed in `main`
//! (an unlisted one is dead code, which clippy refuses).
//!
//! The expected texts were the Linux build's output, which the Windows build matched byte
//! for byte once its CRLF line ends became LF.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// The line ends a Windows program writes, as Windows scrZebra does; the library's own
/// constant is not taken, so that a wrong one fails here.
const LINE_END: &str = if cfg!(windows) { "\r\n" } else { "\n" };

const PROGRAM: &str = env!("CARGO_BIN_EXE_okapi");

/// The script specification's example, its result, and its result with lines (`-line 1`).
const SPEC: &str = include_str!("data/script-spec.scr");
const SPEC_EXACT: &str = include_str!("data/script-spec-exact.txt");
const SPEC_LINES: &str = include_str!("data/script-spec-lines.txt");

/// The first five positions of `tests/data/ffo40-59.scr` solved exactly.
const FFO_40_44: &str = include_str!("data/ffo40-44-exact.txt");

/// A fresh folder for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("platform-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `text` with the platform's line ends.
fn with_line_ends(text: &str) -> String {
    text.replace('\n', LINE_END)
}

/// `okapi ARGS` run to its end in `dir` with `input` on its standard input, its standard
/// output and error in files there. Files, not the pipes of the other tests
/// (`tests/common/process.rs`): under Wine 8 a read of the pipes the standard library makes
/// for a child never ends.
fn run_in(dir: &Path, args: &[&str], input: &str) -> Output {
    std::fs::write(dir.join("stdin.txt"), input).unwrap();
    let file = |name: &str| std::fs::File::create(dir.join(name)).unwrap();
    let status = Command::new(PROGRAM)
        .current_dir(dir)
        .args(args)
        .stdin(std::fs::File::open(dir.join("stdin.txt")).unwrap())
        .stdout(file("stdout.txt"))
        .stderr(file("stderr.txt"))
        .status()
        .expect("okapi runs");
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    Output {
        status,
        stdout: read("stdout.txt"),
        stderr: read("stderr.txt"),
    }
}

/// `okapi ARGS` run to its end in a fresh folder `name`, with nothing on standard input.
fn run(name: &str, args: &[&str]) -> Output {
    run_in(&workdir(name), args, "")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Solves `script` with `args` and checks the result file byte for byte.
fn script_gives(name: &str, script: &str, args: &[&str], expected: &str) {
    assert!(!expected.is_empty(), "{name}: no expected result");
    let dir = workdir(name);
    std::fs::write(dir.join("in.scr"), script).unwrap();
    let mut all = vec!["-script", "in.scr", "out.txt"];
    all.extend(args);
    all.extend(["-e", "0"]);
    let out = run_in(&dir, &all, "");
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    let got = std::fs::read_to_string(dir.join("out.txt")).unwrap();
    assert_eq!(got, with_line_ends(expected), "{name}");
}

/// An NBoard session: `input` on a standard input kept open until the `searches` searches
/// it asks for have ended (its end would stop them), then `quit`; standard output and
/// error in files (see [`run_in`]).
fn run_nboard(args: &[&str], input: &str, searches: usize) -> (ExitStatus, String, String) {
    let dir = workdir("nboard");
    let file = |name: &str| std::fs::File::create(dir.join(name)).unwrap();
    let mut child = Command::new(PROGRAM)
        .current_dir(&dir)
        .arg("nboard")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(file("stdout.txt"))
        .stderr(file("stderr.txt"))
        .spawn()
        .expect("okapi runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let deadline = Instant::now() + Duration::from_secs(120);
    while read("stdout.txt")
        .lines()
        .filter(|l| *l == "status")
        .count()
        < searches
    {
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!(
                "the searches did not end: {}\n{}",
                read("stdout.txt"),
                read("stderr.txt")
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("okapi nboard did not quit: {}", read("stdout.txt"));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    (status, read("stdout.txt"), read("stderr.txt"))
}

fn version_is_the_packages() {
    let out = run("version", &["--version"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out).trim_end(),
        format!("okapi {}", env!("CARGO_PKG_VERSION"))
    );
}

fn the_specifications_example_byte_for_byte() {
    script_gives("spec", SPEC, &[], SPEC_EXACT);
}

fn the_specifications_example_with_lines() {
    script_gives("spec-lines", SPEC, &["-line", "1"], SPEC_LINES);
}

fn ffo_40_to_44_exact() {
    let ffo = include_str!("data/ffo40-59.scr");
    let first: String = ffo.lines().take(5).map(|l| format!("{l}\n")).collect();
    script_gives("ffo", &first, &[], FFO_40_44);
}

fn solve_prints_a_board_strings_value() {
    let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let out = run("solve", &["solve", "--quiet", board]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim_end(),
        "g8 +18 (Black to move): Black wins by 18, 41-23"
    );
}

fn perft_8() {
    let out = run("perft", &["perft", "8"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let depth_8: Vec<&str> = text
        .lines()
        .find(|l| l.split_whitespace().next() == Some("8"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    assert_eq!(depth_8.get(1), Some(&"390216"), "{text}");
}

fn an_nboard_session_answers_ping_and_go() {
    let game = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[0:00]TY[8]\
                BO[8 ---------------------------O*------*O--------------------------- *]\
                B[F5]W[F6];)";
    let input = format!("nboard 2\nset depth 4\nset game {game}\nping 1\ngo\n");
    let (status, out, err) = run_nboard(&["--no-book"], &input, 1);
    assert!(status.success(), "{out}\n{err}");
    assert!(out.lines().any(|l| l == "pong 1"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("=== ")), "{out}");
}

fn a_console_session_plays_hints_and_undoes() {
    let out = run_in(
        &workdir("console"),
        &["console", "--level", "2"],
        "f5\nhint\nundo\nmoves\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for said in ["White plays", "legal moves: d3 c4 f5 e6", "hint: "] {
        assert!(text.contains(said), "no '{said}' in:\n{text}");
    }
}

fn the_shipped_database_answers_stats() {
    let out = run("db", &["db", "stats", "f5d6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.to_lowercase().contains("games"), "{text}");
    // The three most played replies to f5 d6 are there.
    for mv in ["c3", "c5", "c4"] {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(mv)),
            "no {mv} in:\n{text}"
        );
    }
}

/// `Trial`s of the functions named, each named `PREFIX` and its function's name.
macro_rules! trials {
    ($prefix:literal: $($test:ident),* $(,)?) => {
        vec![$(libtest_mimic::Trial::test(concat!($prefix, stringify!($test)), || {
            $test();
            Ok(())
        })),*]
    };
}

/// What only the Windows build has.
#[cfg(windows)]
#[path = "platform/windows.rs"]
mod windows;

fn main() -> std::process::ExitCode {
    let args = libtest_mimic::Arguments::from_args();
    #[cfg_attr(not(windows), allow(unused_mut))] // the Windows build adds its own
    let mut trials = trials!("":
        version_is_the_packages,
        the_specifications_example_byte_for_byte,
        the_specifications_example_with_lines,
        ffo_40_to_44_exact,
        solve_prints_a_board_strings_value,
        perft_8,
        an_nboard_session_answers_ping_and_go,
        a_console_session_plays_hints_and_undoes,
        the_shipped_database_answers_stats,
    );
    #[cfg(windows)]
    trials.extend(windows::trials());
    libtest_mimic::run(&args, trials).exit_code()
}
