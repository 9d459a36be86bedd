//! `okapi match` end to end: short matches at low depth, Okapi levels and an external
//! NBoard engine (Okapi's own `okapi nboard`).

use std::process::Command;

fn okapi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(args)
        .output()
        .expect("okapi runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn field(out: &str, prefix: &str) -> String {
    out.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' in {out}"))
        .to_string()
}

#[test]
fn two_levels_play_both_colours_and_save_ggf() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let save = dir.join("games.ggf");
    let (ok, out, err) = okapi(&[
        "match",
        "--a",
        "2",
        "--b",
        "random",
        "--games",
        "4",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 4, "{out}");
    // Same opening twice, A Black then White.
    assert!(
        games[0].contains("A (Black)") && games[1].contains("A (White)"),
        "{out}"
    );
    let o0 = games[0].split_whitespace().nth(2).unwrap();
    let o1 = games[1].split_whitespace().nth(2).unwrap();
    assert_eq!(o0, o1);
    assert_eq!(o0.len(), 16, "8 plies: {o0}");
    let wdl = field(&out, "A: ");
    assert!(wdl.contains("wins") && wdl.contains("draws") && wdl.contains("losses"));
    assert!(field(&out, "Elo difference").contains("95% interval"));
    assert!(field(&out, "discs: ").contains("A "));
    assert!(field(&out, "time: ").contains("s/move"));
    let ggf = std::fs::read_to_string(&save).unwrap();
    assert_eq!(ggf.matches("(;GM[Othello]").count(), 4, "{ggf}");
    for g in ggf.lines() {
        let game = okapi::formats::ggf::read(g).unwrap();
        assert!(game.position().is_game_over(), "{g}");
        assert!(
            g.contains("RE[+") || g.contains("RE[-") || g.contains("RE[0]"),
            "{g}"
        );
    }
}

#[test]
fn an_external_nboard_engine_plays() {
    let me = env!("CARGO_BIN_EXE_okapi");
    let (ok, out, err) = okapi(&[
        "match",
        "--a-cmd",
        &format!("{me} nboard --hash-bits 12"),
        "--cmd-depth",
        "1",
        "--b",
        "greedy",
        "--games",
        "2",
    ]);
    assert!(ok, "{err}\n{out}");
    assert!(out.contains("A = Okapi1"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("game ")).count(), 2);
}

#[test]
fn openings_from_a_file_and_bad_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("o.txt");
    std::fs::write(&file, "# two openings\nf5d6c3d3c4\nF5-F6-E6-F4\n").unwrap();
    let (ok, out, err) = okapi(&[
        "match",
        "1",
        "1",
        "--games",
        "4",
        "--openings",
        file.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("F5D6C3D3C4") && out.contains("F5F6E6F4"),
        "{out}"
    );

    std::fs::write(&file, "f5f5\n").unwrap();
    let (ok, _, err) = okapi(&[
        "match",
        "--a",
        "1",
        "--b",
        "1",
        "--openings",
        file.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(err.contains("o.txt:1"), "{err}");
    let (ok, _, err) = okapi(&["match", "--a", "deep", "--b", "1"]);
    assert!(!ok && err.contains("deep"), "{err}");
    let (ok, _, err) = okapi(&["match", "--a", "1", "--b-cmd", "/nonexistent/engine"]);
    assert!(!ok && err.contains("engine"), "{err}");
}

#[test]
fn an_external_engine_that_never_answers_is_given_up_within_the_move_timeout() {
    // `sleep` keeps its output open and answers nothing.
    let started = std::time::Instant::now();
    let (ok, _, err) = okapi(&[
        "match",
        "--a",
        "1",
        "--b-cmd",
        "sleep 30",
        "--games",
        "2",
        "--move-timeout",
        "1",
    ]);
    assert!(!ok);
    assert!(err.contains("did not answer in time"), "{err}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_book_randomness_that_is_not_a_number_of_discs_is_refused() {
    for bad in ["--book-randomness=nan", "--book-randomness=-1"] {
        let (ok, _, err) = okapi(&["match", "--a", "1", "--b", "1", "--book", bad]);
        assert!(!ok);
        assert!(err.contains("number of discs"), "{bad}: {err}");
    }
}

#[test]
fn okapi_engines_take_a_thread_count() {
    let (ok, out, err) = okapi(&[
        "match",
        "--a",
        "2",
        "--b",
        "1",
        "--games",
        "2",
        "--threads",
        "2",
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{out}"
    );
    let (ok, _, err) = okapi(&["match", "--a", "2", "--b", "1", "--threads", "0"]);
    assert!(!ok);
    assert!(
        err.contains("'0': give a number of threads from 1 to 1024"),
        "{err}"
    );
}
