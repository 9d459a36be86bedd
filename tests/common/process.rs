//! The binary under test as a child process: started with its pipes, its output read
//! line by line on a thread, killed if a test fails half-way.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `okapi` (the binary the tests are built with) as a command.
pub fn okapi() -> Command {
    Command::new(env!("CARGO_BIN_EXE_okapi"))
}

/// `okapi ARGS` run to its end with nothing on standard input.
pub fn run(args: &[&str]) -> Output {
    okapi().args(args).output().expect("okapi runs")
}

/// `okapi ARGS` run to its end in the folder `dir`, which must succeed (the failure says
/// its standard error).
pub fn run_in(dir: &std::path::Path, args: &[&str]) -> Output {
    let out = okapi()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("okapi runs");
    assert!(
        out.status.success(),
        "okapi {args:?} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `okapi ARGS` run to its end with `input` on standard input (closed after it), as a
/// player types at a console.
pub fn run_with_input(args: &[&str], input: &str) -> Output {
    let mut child = spawn(args, Stdio::piped());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// What a finished run printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a finished run printed on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `okapi ARGS` started with standard input and output piped, standard error to
/// `stderr`.
pub fn spawn(args: &[&str], stderr: Stdio) -> Child {
    okapi()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("okapi runs")
}

/// The lines of `stdout`, read on a thread of their own as they come.
pub fn lines_of(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            if tx.send(l.unwrap()).is_err() {
                break;
            }
        }
    });
    rx
}

/// Kills the child if the test fails half-way (an engine would search on for hours).
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `okapi nboard ARGS` on `input` and returns stdout and stderr. Standard input
/// stays open until every search asked for (`go`, `hint`, `analyze`) has ended (its
/// bare `status` line): the engine stops searching when its input ends.
pub fn run_nboard(args: &[&str], input: &str) -> (ExitStatus, String, String) {
    let searches = input
        .lines()
        .filter(|l| matches!(l.split_whitespace().next(), Some("go" | "hint" | "analyze")))
        .count();
    let mut child = spawn(&[&["nboard"], args].concat(), Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let rx = lines_of(child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut out = String::new();
    let mut ended = 0;
    let deadline = Instant::now() + Duration::from_secs(120);
    while ended < searches {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(l) = rx.recv_timeout(left) else {
            panic!("{ended} of {searches} searches ended in time: {out}");
        };
        ended += usize::from(l == "status");
        out += &l;
        out.push('\n');
    }
    drop(stdin);
    let status = child.wait().unwrap();
    for l in rx.iter() {
        out += &l;
        out.push('\n');
    }
    (status, out, err_reader.join().unwrap())
}
