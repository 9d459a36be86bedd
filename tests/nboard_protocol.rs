//! `okapi nboard` end to end: the binary with piped standard input.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]\
TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

/// `okapi nboard` without the opening book: these tests are about the search
/// (tests/book.rs has the book's `book` lines).
use common::run_nboard;

fn session(input: &str) -> (String, String) {
    let (status, out, err) = run_nboard(&["--hash-bits", "14", "--no-book"], input);
    assert!(status.success(), "{out} {err}");
    (out, err)
}

#[test]
fn go_answers_a_legal_move_and_move_is_accepted() {
    let (out, err) = session(&format!(
        "nboard 2\nset depth 4\nset game {GAME}\nping 1\ngo\n"
    ));
    assert!(out.contains("set myname Okapi4"), "{out}");
    assert!(out.contains("pong 1"), "{out}");
    let answer = out
        .lines()
        .find_map(|l| l.strip_prefix("=== "))
        .unwrap_or_else(|| panic!("no move in {out}"));
    let parts: Vec<&str> = answer.split('/').collect();
    assert_eq!(parts.len(), 3, "{answer}");
    assert_eq!(parts[0].len(), 2, "{answer}");
    parts[1].parse::<f64>().expect("an eval");
    parts[2].parse::<f64>().expect("a time");
    assert!(out.lines().any(|l| l.starts_with("search ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("nodestats ")), "{out}");
    assert!(err.is_empty(), "{err}");

    // The move it chose is legal: playing it raises no complaint.
    let (_, err) = session(&format!(
        "nboard 2\nset depth 2\nset game {GAME}\nmove {}\nping 2\n",
        answer
    ));
    assert!(err.is_empty(), "{err}");
}

#[test]
fn hint_gives_search_lines_for_several_moves() {
    let (out, _) = session(&format!("nboard 2\nset depth 3\nset game {GAME}\nhint 3\n"));
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("search ")).collect();
    // Depths 1, 2, 3 with the best three moves each.
    assert!(lines.len() >= 9, "{out}");
    for l in &lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert!(w.len() >= 5, "{l}");
        assert_eq!(w[3], "0", "{l}");
        w[2].parse::<f64>().unwrap();
        assert!(w[1].len() >= 2 && w[1].len().is_multiple_of(2), "{l}");
    }
    // The depth, with the level's ProbCut confidence (numbered levels cut at 95%).
    assert!(lines.iter().any(|l| l.ends_with(" 3@95%")), "{out}");
}

/// A game played by taking the first legal move until `empties` squares are left.
fn late_game(empties: u32) -> String {
    use okapi::board::{Move, Position};
    use okapi::formats::ggf::write;
    use okapi::game::Game;
    let mut g = Game::new(Position::start());
    while g.position().empty_count() > empties && !g.position().is_game_over() {
        let p = g.position();
        let mv = match p.legal_moves().iter().next() {
            Some(sq) => Move::Play(sq),
            None => Move::Pass,
        };
        g.play(mv, None).unwrap();
    }
    if g.position().must_pass() {
        g.play(Move::Pass, None).unwrap();
    }
    write(&g)
}

/// A game sent where the side to move must pass (hosts leave the forced pass to the
/// engine): `go` answers `=== PA`, not a move for the other colour.
#[test]
fn go_passes_when_the_side_to_move_must() {
    use okapi::board::Move;
    use okapi::formats::ggf::write;
    use okapi::game::Game;
    let mut rng = common::Rng(11);
    let game = (0..10_000)
        .find_map(|_| {
            let mut g = Game::new(okapi::board::Position::start());
            loop {
                let p = g.position();
                if p.is_game_over() {
                    return None;
                }
                if p.must_pass() {
                    return Some(g);
                }
                let legal: Vec<_> = p.legal_moves().iter().collect();
                g.play(Move::Play(legal[rng.below(legal.len())]), None)
                    .unwrap();
            }
        })
        .expect("a random game with a forced pass");
    // The host then sends the pass back, as it does every move.
    let (out, err) = session(&format!(
        "nboard 2\nset depth 2\nset game {}\ngo\nmove PA\nping 2\n",
        write(&game)
    ));
    let answer = out
        .lines()
        .find_map(|l| l.strip_prefix("=== "))
        .unwrap_or_else(|| panic!("no answer in {out} {err}"));
    assert!(answer.starts_with("PA/"), "{answer}");
    assert!(out.contains("pong 2"), "{out}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn passes_are_read_and_wrong_passes_refused() {
    let (out, err) = session(
        "nboard 2\nset depth 1\nset game (;GM[Othello]TY[8]BO[8 \
         ---------------------------O*------*O--------------------------- *]\
         B[F5]W[F6]B[D3]W[C5];)\nmove E6\nmove pa\nping 3\n",
    );
    // E6 for Black, then a pass that is not forced: refused, with the game kept.
    assert!(out.contains("pong 3"), "{out}");
    assert!(err.contains("pass"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn proven_scores_near_the_end() {
    // Depth 4 solves exactly from 6 empties and win/draw/loss from 8.
    for (empties, depth) in [(6, "100%"), (8, "100%W")] {
        let game = late_game(empties);
        let (out, err) = session(&format!(
            "nboard 2\nset depth 4\nset game {game}\ngo\nhint 2\n"
        ));
        assert!(err.is_empty(), "{err}");
        let search: Vec<&str> = out.lines().filter(|l| l.starts_with("search ")).collect();
        assert!(!search.is_empty(), "{out}");
        assert!(
            search.iter().all(|l| l.ends_with(&format!(" {depth}"))),
            "{out}"
        );
        assert!(out.contains("=== "), "{out}");
    }
}

#[test]
fn bad_input_is_reported_not_fatal() {
    let (out, err) = session(
        "nboard 2\nfrobnicate\nset depth x\nset game (;GM[Chess];)\nmove Z9\nmove A1\nset contempt 3\nlearn\nping 7\n",
    );
    assert!(out.contains("learned"), "{out}");
    assert!(out.contains("pong 7"), "{out}");
    assert!(err.contains("frobnicate"), "{err}");
    assert!(err.contains("depth"), "{err}");
    assert!(err.contains("Chess"), "{err}");
    assert_eq!(err.lines().count(), 5, "{err}");
}

#[test]
fn analyze_reports_every_position() {
    let (out, _) = session(&format!(
        "nboard 2\nset depth 2\nset game {GAME}\nanalyze\n"
    ));
    let numbers: Vec<u32> = out
        .lines()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(numbers, (0..=8).rev().collect::<Vec<_>>(), "{out}");
}

/// Kills the engine if the test fails half-way (it would search for hours).
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_line_that_is_not_text_is_reported_and_the_session_goes_on() {
    // Invalid UTF-8 cannot be written in a &str: send the bytes by hand.
    let mut child = Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(["nboard", "--no-book"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"nboard 2\n\xff\xfe bad\nlearn\nping 9\n")
        .unwrap();
    drop(stdin);
    let r = child.wait_with_output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr),
    );
    assert!(out.contains("learned") && out.contains("pong 9"), "{out}");
    assert!(err.contains("line 2") && err.contains("UTF-8"), "{err}");
}

#[test]
fn the_search_stops_when_input_ends() {
    // Depth 40 from the opening would search for hours; end of input stops it at once.
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(["nboard", "--hash-bits", "16", "--no-book"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "nboard 2\nset depth 40\nset game {GAME}\nanalyze").unwrap();
    drop(stdin);
    let r = child.wait_with_output().unwrap();
    assert!(r.status.success());
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn ping_stops_a_long_search_at_once() {
    let mut child = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_okapi"))
            .args(["nboard", "--hash-bits", "16", "--no-book"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut stdin = child.0.stdin.take().unwrap();
    let stdout = child.0.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            if tx.send(l.unwrap()).is_err() {
                break;
            }
        }
    });
    writeln!(stdin, "nboard 2\nset depth 40\nset game {GAME}\ngo").unwrap();
    stdin.flush().unwrap();
    // Wait until it thinks (depth 40 solves win/draw/loss from 52 empties: hours),
    // then cancel.
    loop {
        let l = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        if l.starts_with("status Okapi is thinking") {
            break;
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    writeln!(stdin, "ping 42").unwrap();
    stdin.flush().unwrap();
    let mut seen = Vec::new();
    loop {
        let l = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("pong in time");
        if l == "pong 42" {
            break;
        }
        seen.push(l);
    }
    assert!(sent.elapsed() < Duration::from_secs(5));
    assert!(!seen.iter().any(|l| l.starts_with("===")), "{seen:?}");
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    assert!(child.0.wait().unwrap().success());
}

#[test]
fn with_two_threads_go_answers() {
    let (status, out, err) = run_nboard(
        &["--hash-bits", "14", "--no-book", "--threads", "2"],
        &format!("nboard 2\nset depth 4\nset game {GAME}\nping 1\ngo\n"),
    );
    assert!(status.success(), "{out} {err}");
    assert!(out.contains("pong 1"), "{out}");
    let answer = out
        .lines()
        .find_map(|l| l.strip_prefix("=== "))
        .unwrap_or_else(|| panic!("no move in {out}"));
    assert_eq!(answer.split('/').next().map(str::len), Some(2), "{answer}");
    assert!(err.is_empty(), "{err}");
}

/// `ping` while a deep search runs: the search is given up, `pong` answers, and nothing of
/// the search comes after it (the engine drops the events of a superseded request).
#[test]
fn ping_gives_up_a_deep_search_and_nothing_of_it_follows() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(["nboard", "--hash-bits", "14", "--no-book"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("okapi runs");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            if tx.send(l.unwrap()).is_err() {
                break;
            }
        }
    });
    // Depth 40 from the 8th move takes far longer than this test: it must be given up.
    write!(stdin, "nboard 2\nset depth 40\nset game {GAME}\ngo\n").unwrap();
    stdin.flush().unwrap();
    let mut out = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    // The search under way says so before the ping.
    while !out
        .iter()
        .any(|l: &String| l.starts_with("status Okapi is thinking"))
    {
        let left = deadline.saturating_duration_since(Instant::now());
        out.push(rx.recv_timeout(left).expect("the search starts"));
    }
    std::thread::sleep(Duration::from_millis(300));
    writeln!(stdin, "ping 5").unwrap();
    stdin.flush().unwrap();
    while out.last().map(String::as_str) != Some("pong 5") {
        let left = deadline.saturating_duration_since(Instant::now());
        out.push(rx.recv_timeout(left).expect("pong 5 comes"));
    }
    // Give a search that was not given up time to say more, then end the session.
    std::thread::sleep(Duration::from_millis(500));
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let after: Vec<String> = rx.iter().collect();
    assert!(after.is_empty(), "after the pong: {after:?}\n{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("=== ")), "{out:?}");
}
