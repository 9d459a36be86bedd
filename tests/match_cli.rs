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
        let record = okapi::formats::ggf::read_record(g).unwrap();
        let game = &record.game;
        assert!(game.position().is_game_over(), "{g}");
        // Each move the engines played carries the seconds it took; the opening's 8
        // plies and forced passes (the session's) carry none: the record shows which
        // moves of a time level took long.
        let line = game.main_line();
        assert_eq!(record.move_info.len(), line.len(), "{g}");
        for (i, (m, info)) in line.iter().zip(&record.move_info).enumerate() {
            let played = i >= 8 && *m != okapi::board::Move::Pass;
            assert_eq!(info.seconds.is_some(), played, "ply {i} of {g}");
        }
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
        err.contains("'0': give a number of threads from 1 to"),
        "{err}"
    );
}

/// The game lines without their times: what a replay must repeat.
fn results(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| l.split("time").next().unwrap().trim().to_string())
        .collect()
}

/// The shipped weights with every weight and bias negated: an evaluation that prefers
/// what the shipped one fears.
fn negated_weights(dir: &std::path::Path) -> std::path::PathBuf {
    use okapi::eval::weights::WeightFile;
    let shipped = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("coeffs/okapi-eval.bin"),
    )
    .unwrap();
    let mut file = WeightFile::from_bytes(&shipped).unwrap();
    for w in file.weights.iter_mut() {
        *w = w.saturating_neg();
    }
    for b in file.bias.iter_mut() {
        *b = b.saturating_neg();
    }
    let path = dir.join("negated.bin");
    std::fs::write(&path, file.to_bytes()).unwrap();
    path
}

#[test]
fn each_side_evaluates_with_its_own_weights() {
    let tmp = tempfile::tempdir().unwrap();
    let negated = negated_weights(tmp.path());
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/coeffs/okapi-eval.bin");
    let wins_of_a = |a: &str, b: &str| -> (u32, u32, String) {
        let (ok, out, err) = okapi(&[
            "match",
            "2",
            "2",
            "--a-weights",
            a,
            "--b-weights",
            b,
            "--games",
            "12",
        ]);
        assert!(ok, "{err}");
        let line = field(&out, "A: ");
        let n = |word: &str| -> u32 {
            let before = line.split(word).next().unwrap();
            before.split_whitespace().last().unwrap().parse().unwrap()
        };
        (n(" wins"), n(" losses"), out)
    };
    // The side on negated weights plays to lose, whichever side it is.
    let (wins, losses, out) = wins_of_a(negated.to_str().unwrap(), shipped);
    assert!(losses >= 10 && wins <= 1, "{out}");
    assert!(
        out.contains("A = okapi 2 (negated.bin), B = okapi 2 (okapi-eval.bin)"),
        "{out}"
    );
    let (wins, losses, out) = wins_of_a(shipped, negated.to_str().unwrap());
    assert!(wins >= 10 && losses <= 1, "{out}");
    // One file on both sides plays as the shipped weights do.
    let (_, _, same) = wins_of_a(shipped, shipped);
    let (ok, plain, err) = okapi(&["match", "2", "2", "--games", "12"]);
    assert!(ok, "{err}");
    assert_eq!(results(&same), results(&plain));

    let bad = tmp.path().join("bad.bin");
    std::fs::write(&bad, b"not weights").unwrap();
    let (ok, _, err) = okapi(&["match", "1", "1", "--b-weights", bad.to_str().unwrap()]);
    assert!(!ok && err.contains("bad.bin"), "{err}");
}

#[test]
fn another_okapi_binary_plays_depths_and_times_per_move_through_its_console() {
    let me = env!("CARGO_BIN_EXE_okapi");
    let (ok, out, err) = okapi(&["match", "3", "3", "--b-okapi", me, "--games", "4"]);
    assert!(ok, "{err}\n{out}");
    assert!(out.contains(&format!("B = {me} 3")), "{out}");
    assert_eq!(results(&out).len(), 4, "{out}");
    // The same level by the same code: the console's games are the match's own.
    let (ok, own, err) = okapi(&["match", "3", "3", "--games", "4"]);
    assert!(ok, "{err}");
    assert_eq!(results(&out), results(&own));

    let (ok, out, err) = okapi(&[
        "match",
        "--a",
        "0.01s",
        "--b",
        "0.01s",
        "--a-okapi",
        me,
        "--games",
        "2",
    ]);
    assert!(ok, "{err}\n{out}");
    let time = field(&out, "time: ");
    // Both sides think about 0.01 s a move (the console adds a little for its pipes).
    for side in time.split(", ") {
        let per_move: f64 = side
            .split('(')
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(per_move > 0.002 && per_move < 0.1, "{time}");
    }

    let (ok, _, err) = okapi(&["match", "--a", "2", "--b-okapi", me]);
    assert!(!ok && err.contains("--b-okapi needs B's level"), "{err}");
    let (ok, _, err) = okapi(&["match", "2", "2", "--b-okapi", "/nonexistent/okapi"]);
    assert!(!ok && err.contains("cannot start"), "{err}");
    let (ok, _, err) = okapi(&["match", "2", "2", "--b-okapi", me, "--book"]);
    assert!(!ok && err.contains("without the book"), "{err}");
}

#[test]
fn the_sprt_stops_a_clear_match_with_its_verdict() {
    let (ok, out, err) = okapi(&["match", "3", "random", "--sprt", "0,200", "--games", "200"]);
    assert!(ok, "{err}");
    let played = results(&out).len();
    assert!(played < 200 && played.is_multiple_of(2), "{out}");
    assert!(out.contains("LLR +"), "{out}");
    assert!(field(&out, "SPRT after").contains("H1 accepted"), "{out}");
    let (ok, out, err) = okapi(&["match", "random", "3", "--sprt", "0,200", "--games", "200"]);
    assert!(ok, "{err}");
    assert!(field(&out, "SPRT after").contains("H0 accepted"), "{out}");
    // Too few games to decide.
    let (ok, out, err) = okapi(&["match", "2", "2", "--sprt", "-5,5", "--games", "4"]);
    assert!(ok, "{err}");
    assert!(
        field(&out, "SPRT after 2 pairs").contains("no decision"),
        "{out}"
    );
    let (ok, _, err) = okapi(&["match", "2", "2", "--sprt", "5,-5"]);
    assert!(!ok && err.contains("ELO0 < ELO1"), "{err}");
}

#[test]
fn games_played_at_once_are_told_in_order_and_replay_alike() {
    let run = || {
        let (ok, out, err) = okapi(&["match", "2", "1", "--games", "9", "--concurrency", "3"]);
        assert!(ok, "{err}");
        out
    };
    let out = run();
    assert!(
        out.contains("9 games from 5 openings, each with both colours, 3 at a time"),
        "{out}"
    );
    let numbers: Vec<u32> = results(&out)
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(numbers, (1..=9).collect::<Vec<_>>());
    assert_eq!(results(&out), results(&run()));
}

#[test]
fn solve_from_plays_levels_as_the_app_does_and_is_refused_for_a_console_binary() {
    // Level 1 solving from 12 empties plays its last 12 moves perfectly, so the games are
    // not those of level 1 as the console plays it (they can be in one opening's two
    // games, where the first side to go wrong had lost by 12 empties: several openings,
    // fixed seeds and one thread give the same games on every run).
    let args = |solve: &'static str| {
        vec![
            "match",
            "--a",
            "1",
            "--b",
            "1",
            "--games",
            "8",
            "--threads",
            "1",
            "--solve-from",
            solve,
        ]
    };
    let (ok, plain, err) = okapi(&args("0"));
    assert!(ok, "{err}");
    let (ok, solving, err) = okapi(&args("12"));
    assert!(ok, "{err}");
    let games = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("game "))
            .map(|l| l.split("time").next().unwrap().to_string())
            .collect()
    };
    assert_eq!(games(&plain).len(), 8);
    assert_ne!(games(&plain), games(&solving), "{plain}\n{solving}");
    let (ok, _, err) = okapi(&[
        "match",
        "--a",
        "1",
        "--b",
        "1",
        "--b-okapi",
        env!("CARGO_BIN_EXE_okapi"),
        "--solve-from",
        "20",
    ]);
    assert!(!ok && err.contains("drop --solve-from"), "{err}");
}

#[test]
fn ladder_fit_rates_the_levels_of_a_results_file() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("r.csv");
    std::fs::write(
        &results,
        "random,greedy,0,60,23,0,37,0.001,0.001\ngreedy,2,0,60,10,0,50,0.003,0.004\nrandom,2,0,60,2,0,58,0.001,0.004\n",
    )
    .unwrap();
    let out_file = tmp.path().join("levels.json");
    let (ok, out, err) = okapi(&[
        "ladder-fit",
        results.to_str().unwrap(),
        "--out",
        out_file.to_str().unwrap(),
        "--measured",
        "a test",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("greedy") && out.contains("95% interval"),
        "{out}"
    );
    let table = okapi_core::level::ratings::LevelRatings::from_json(
        &std::fs::read_to_string(&out_file).unwrap(),
    )
    .unwrap();
    assert_eq!(table.measured, "a test");
    let elo = |l: &str| {
        let level = okapi_core::level::Level::parse(l).unwrap();
        table.find(&level, 0).unwrap().elo
    };
    assert_eq!(elo("random"), 0.0);
    assert!(elo("greedy") > 50.0 && elo("2") > elo("greedy") + 200.0);
    // A bad line is told with its file and number, and nothing is written.
    std::fs::write(&results, "random,greedy,0,60,23,0,36,0.001,0.001\n").unwrap();
    let missing = tmp.path().join("none.json");
    let (ok, _, err) = okapi(&[
        "ladder-fit",
        results.to_str().unwrap(),
        "--out",
        missing.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("r.csv:1:"), "{err}");
    assert!(!missing.exists());
}

#[cfg(unix)]
#[test]
fn an_okapi_binary_gets_the_match_threads() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let args_file = tmp.path().join("args");
    let wrapper = tmp.path().join("okapi-wrapper");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"$@\" >> '{}'\nexec '{}' \"$@\"\n",
            args_file.display(),
            env!("CARGO_BIN_EXE_okapi")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = |extra: &[&str]| {
        let _ = std::fs::remove_file(&args_file);
        let mut args = vec!["match", "--a", "1", "--b", "1", "--games", "2"];
        args.extend(["--b-okapi", wrapper.to_str().unwrap()]);
        args.extend(extra);
        let (ok, out, err) = okapi(&args);
        assert!(ok, "{out}{err}");
        std::fs::read_to_string(&args_file).unwrap()
    };
    assert!(run(&["--threads", "1"]).contains("--threads 1"));
    assert!(!run(&[]).contains("--threads"));
}
