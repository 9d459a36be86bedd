//! Bad input and faults from outside through the real binary: closed pipes, full disks, outputs that are inputs, absurd options. Each is
//! refused in plain words, and nothing already written is lost or cut.

mod common;

use common::process::{okapi, run, run_with_input, spawn, stderr};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A script of `n` quick positions (FFO #1-#5, 14-16 empties, repeated) and a bad line.
fn script(dir: &Path, n: usize) -> PathBuf {
    let ffo = include_str!("data/ffo1-39.scr");
    let positions: Vec<&str> = ffo
        .lines()
        .filter(|l| !l.starts_with('%') && l.len() > 64)
        .take(5)
        .collect();
    let mut text = String::from("% robust\n");
    for i in 0..n {
        text.push_str(positions[i % positions.len()]);
        text.push('\n');
    }
    text.push_str("not a board % bad\n");
    let p = dir.join("in.scr");
    std::fs::write(&p, text).unwrap();
    p
}

/// Output lines written by a run of `script(_, n)`: the comment, n results, the error.
fn complete(out: &Path, n: usize) {
    let text = std::fs::read_to_string(out).unwrap();
    assert_eq!(text.lines().count(), n + 2, "{text}");
    assert!(text.ends_with('\n'));
    assert!(
        text.lines().last().unwrap().starts_with("% error:"),
        "{text}"
    );
}

/// `okapi -script IN OUT | head`: standard output closes under the echo. The run goes on
/// to the end (exit 1 for the bad line, not a panic's 101) and OUT is whole.
#[test]
fn a_closed_standard_output_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = script(dir.path(), 30);
    let out = dir.path().join("out.txt");
    let mut child = okapi()
        .args(["-script"])
        .arg(&input)
        .arg(&out)
        .args(["-e", "1", "-n", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1));
    complete(&out, 30);
}

/// The same with standard error closed: the bad line's report cannot be written, the
/// run still ends normally with every line in OUT.
#[test]
fn a_closed_standard_error_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = script(dir.path(), 30);
    let out = dir.path().join("out.txt");
    let mut child = okapi()
        .args(["solve"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .args(["--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1));
    complete(&out, 30);
}

/// `okapi bench | head`: the rows are its only output, so it stops once standard output
/// is gone, saying so, instead of panicking.
#[test]
fn bench_stops_when_standard_output_closes() {
    let mut child = okapi()
        .args(["bench", "--from", "1", "--to", "9", "--threads", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard output is closed"),
        "{}",
        stderr(&o)
    );
}

/// An output that is the input under another name (a hard link) is refused before it is
/// truncated, for scripts and for merges.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = script(dir.path(), 3);
    let before = std::fs::read(&input).unwrap();
    let link = dir.path().join("link.txt");
    std::fs::hard_link(&input, &link).unwrap();
    for args in [
        vec!["-script", "in.scr", "link.txt", "-e", "0"],
        vec!["solve", "in.scr", "-o", "link.txt", "-q"],
        vec!["solve", "in.scr", "-o", "./in.scr", "-q"],
    ] {
        let o = okapi()
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("is the input file"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(std::fs::read(&input).unwrap(), before, "{args:?}");
    }
    // A merge whose output is one of its parts.
    for k in 1..=2 {
        let o = okapi()
            .args(["solve", "in.scr", "-q", "--threads", "1", "--shard"])
            .arg(format!("{k}/2"))
            .arg("-o")
            .arg(format!("part{k}"))
            .current_dir(dir.path())
            .output()
            .unwrap();
        // 1 for the shard with the bad line.
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    }
    let part = std::fs::read(dir.path().join("part2")).unwrap();
    std::fs::hard_link(dir.path().join("part2"), dir.path().join("merged")).unwrap();
    let o = okapi()
        .args(["solve", "--merge", "merged", "part1", "part2"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is the shard output"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.path().join("part2")).unwrap(), part);
}

/// A full disk: /dev/full refuses every byte, and a file size limit (RLIMIT_FSIZE, as a
/// nearly full disk) cuts a write part way. The run fails with the reason and the output
/// file is as it was.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_leaves_whole_lines() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let input = script(dir.path(), 20);
    let o = okapi()
        .args(["solve", "-q", "--threads", "1"])
        .arg(&input)
        .args(["-o", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot write to /dev/full"),
        "{}",
        stderr(&o)
    );

    let out = dir.path().join("out.txt");
    let mut cmd = okapi();
    cmd.args(["solve", "-q", "--threads", "1"])
        .arg(&input)
        .arg("-o")
        .arg(&out);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 100,
                rlim_max: 100,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            // Beyond the limit a write fails with EFBIG instead of killing the process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    // The previous result is kept whole; nothing half-written is left beside it.
    std::fs::write(&out, "% the previous result\n").unwrap();
    let o = cmd.output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write to"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text, "% the previous result\n");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}"); // in.scr and out.txt
}

/// `okapi match` options that panicked or never decided.
#[test]
fn match_options_are_bounded() {
    for (args, said) in [
        (
            &["match", "1", "1", "--move-timeout", "1e30"][..],
            "more than 0 and at most 86400",
        ),
        (&["match", "1", "1", "--move-timeout", "inf"], "more than 0"),
        (&["match", "1", "1", "--move-timeout", "nan"], "more than 0"),
        (&["match", "1", "1", "--move-timeout=-1"], "more than 0"),
        (&["match", "1", "1", "--sprt=0,1e308"], "from -1000 to 1000"),
        (&["match", "1", "1", "--threads", "100000"], "per core"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(said), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

/// `okapi book show 5` showed the start position.
#[test]
fn book_show_refuses_a_number() {
    let o = run(&["book", "show", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a number, not a move"),
        "{}",
        stderr(&o)
    );
}

/// `okapi train probcut` and the other training options: refused at once with what is
/// allowed (they aborted on a 64 GB allocation, ran for ever, or wrote a zero model).
#[test]
fn training_options_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("probcut.json");
    let model_arg = model.display().to_string();
    for (args, said) in [
        (
            vec!["train", "probcut", "--positions", "4294967295"],
            "give a number of positions from 1 to 100000",
        ),
        (
            vec!["train", "probcut", "--positions", "18446744073709551615"],
            "give a number of positions from 1 to 100000",
        ),
        (vec!["train", "probcut", "--positions", "0"], "from 1 to"),
        (
            vec!["train", "probcut", "--max-depth", "1000"],
            "give a depth from 3 to 20",
        ),
        (
            vec!["train", "probcut", "--min-empties", "61"],
            "from 1 to 60",
        ),
        (
            vec!["train", "selfplay", "--games", "0"],
            "give a number of games from 1",
        ),
        (
            vec!["train", "selfplay", "--temperature", "nan"],
            "a temperature",
        ),
        (
            vec!["train", "eval", "--epochs", "0"],
            "give a number of passes from 1",
        ),
        (vec!["train", "eval", "--step", "inf"], "a step size"),
    ] {
        let mut args = args.clone();
        if args[1] == "probcut" {
            args.extend(["--out", &model_arg]);
        }
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(said), "{args:?}: {}", stderr(&o));
    }
    assert!(!model.exists());
}

/// `okapi console`: a byte that is not UTF-8 and an over-long line are reported and
/// skipped; the session goes on.
#[test]
fn console_goes_on_after_bad_input() {
    let mut child = spawn(
        &["console", "--computer", "none", "--level", "1"],
        Stdio::piped(),
    );
    let mut stdin = child.stdin.take().unwrap();
    let mut input = b"\xff\xfe\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 3 << 20));
    input.extend_from_slice(b"\nmoves\nquit\n");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("error: input line 1: not UTF-8"), "{out}");
    assert!(out.contains("error: input line 2: longer than"), "{out}");
    assert!(out.contains("legal moves: d3 c4 f5 e6"), "{out}");
}

/// `stop` typed while the console solves stops the solve (30 empties: minutes otherwise)
/// and the session goes on with the lines typed after it.
#[test]
fn console_stop_ends_a_solve() {
    let ffo = include_str!("data/ffo40-59.scr");
    let line = ffo
        .lines()
        .filter(|l| !l.starts_with('%') && l.len() > 64)
        .nth(17)
        .unwrap();
    let board = &line[..66];
    assert_eq!(board.matches('-').count(), 30, "{board}");
    let start = std::time::Instant::now();
    let mut child = spawn(
        &["console", "--computer", "none", "--threads", "1"],
        Stdio::piped(),
    );
    let mut stdin = child.stdin.take().unwrap();
    write!(stdin, "setboard {board}\nsolve\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    write!(stdin, "stop\nboard\nquit\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("error: stopped"), "{out}");
    assert!(out.matches("a b c d e f g h").count() >= 3, "{out}");
    assert!(start.elapsed().as_secs() < 60);
}

/// A console solving when its host goes away (input and output both closed): the solve
/// stops and the console ends, instead of solving 30 empties for minutes with nobody to
/// read the answer, and its status says the answer was lost.
#[cfg(unix)]
#[test]
fn console_ends_a_solve_when_its_host_is_gone() {
    let ffo = include_str!("data/ffo40-59.scr");
    let line = ffo
        .lines()
        .filter(|l| !l.starts_with('%') && l.len() > 64)
        .nth(17)
        .unwrap();
    let start = std::time::Instant::now();
    let mut child = spawn(
        &["console", "--computer", "none", "--threads", "1"],
        Stdio::null(),
    );
    let mut stdin = child.stdin.take().unwrap();
    write!(stdin, "setboard {}\nsolve\n", &line[..66]).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    // Output first, then input: the solve, stopped by the end of its input, has nowhere
    // to write its answer (input first raced the answer into a still open pipe).
    drop(child.stdout.take());
    drop(stdin);
    let status = child.wait().unwrap();
    // Its answer ("stopped") could not be written: said on standard error, status 2.
    assert_eq!(status.code(), Some(2), "{status:?}");
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

/// The desktop entry and its icon, where the desktop looks for them.
#[cfg(feature = "gui")]
#[test]
fn install_desktop_writes_the_entry_and_the_icon() {
    let dir = tempfile::tempdir().unwrap();
    let o = okapi()
        .args(["install-desktop", "--data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let entry = std::fs::read_to_string(dir.path().join("applications/okapi.desktop")).unwrap();
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_okapi")).unwrap();
    assert!(
        entry.contains(&format!("Exec={} app %f", exe.display())),
        "{entry}"
    );
    let icon = std::fs::read(dir.path().join("icons/hicolor/256x256/apps/okapi.png")).unwrap();
    assert_eq!(icon, okapi_app::ICON_PNG);
    // freedesktop.org's own checker, where it is installed (desktop-file-utils).
    if let Ok(v) = Command::new("desktop-file-validate")
        .arg(dir.path().join("applications/okapi.desktop"))
        .output()
    {
        assert!(
            v.status.success() && v.stdout.is_empty(),
            "{}{}",
            String::from_utf8_lossy(&v.stdout),
            String::from_utf8_lossy(&v.stderr)
        );
    }
}

/// Without a display the app says how to run it, in one line, instead of winit's error;
/// the failure log in the data folder keeps it too (started from a desktop launcher, no
/// one reads standard error).
#[cfg(all(feature = "gui", target_os = "linux"))]
#[test]
fn without_a_display_the_app_says_how_to_run_it() {
    let home = tempfile::tempdir().unwrap();
    let log = home.path().join("data/okapi").join(okapi_app::FAILURE_LOG);
    for (run, display) in [None, Some(":987")].into_iter().enumerate() {
        let mut cmd = okapi();
        cmd.env_remove("WAYLAND_DISPLAY").env_remove("DISPLAY");
        cmd.env("XDG_DATA_HOME", home.path().join("data"))
            .env("XDG_CONFIG_HOME", home.path().join("config"));
        if let Some(d) = display {
            cmd.env("DISPLAY", d);
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{display:?}");
        let err = stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{display:?}: {err}");
        assert!(
            err.contains("Xvfb :99 & DISPLAY=:99 okapi"),
            "{display:?}: {err}"
        );
        let logged = std::fs::read_to_string(&log).unwrap_or_default();
        assert_eq!(logged.lines().count(), run + 1, "{logged}");
        let said = err.trim_end().trim_start_matches("okapi: ");
        assert!(
            logged
                .lines()
                .last()
                .is_some_and(|l| l.ends_with(&format!("Okapi could not start: {said}"))),
            "{logged}"
        );
    }
    // A data folder that cannot be made (a file in its place): said all the same.
    let blocked = home.path().join("blocked");
    std::fs::write(&blocked, "").unwrap();
    let o = okapi()
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("DISPLAY")
        .env("XDG_DATA_HOME", &blocked)
        .env("XDG_CONFIG_HOME", &blocked)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("Xvfb :99"), "{}", stderr(&o));
}

/// The README names the folders the app really uses (the `directories` crate's).
#[cfg(all(feature = "gui", target_os = "linux"))]
#[test]
fn the_readme_names_the_real_config_folders() {
    let readme = include_str!("../README.md");
    let (settings, game) = okapi_app::settings::Settings::paths().unwrap();
    assert!(
        settings.ends_with("okapi/settings.json"),
        "{}",
        settings.display()
    );
    assert!(
        game.ends_with("okapi/current-game.json"),
        "{}",
        game.display()
    );
    assert!(readme.contains("`~/.config/okapi/settings.json`"));
    assert!(readme.contains("`~/.local/share/okapi/current-game.json`"));
    assert!(!readme.contains("~/.config/Okapi"));
}

/// Every relative link of the README and docs/ names a file that exists.
#[test]
fn the_readme_and_docs_links_resolve() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        pages.push(e.unwrap().path());
    }
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let target = &rest[..rest.find(')').unwrap()];
            if target.starts_with("http") || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().unwrap();
            let path = page.parent().unwrap().join(file);
            assert!(path.exists(), "{}: {target}", page.display());
        }
    }
}

/// `okapi solve` takes one position as a board string (quoted, or its squares and side as
/// two words; any of the common conventions) and says the best move with its score (the
/// proven line with `--line`), while a script of that position still gets scrZebra's
/// result line; a wrong board string is refused with what is wrong with it.
#[test]
fn solve_takes_a_board_string() {
    let ffo = include_str!("data/ffo1-39.scr");
    let line = ffo.lines().find(|l| l.contains("ffo#01")).unwrap();
    let board = &line[..66];
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("one.scr");
    std::fs::write(&script, format!("{board}\n")).unwrap();
    let from_script = run(&["solve", script.to_str().unwrap(), "--quiet"]);
    assert!(from_script.status.success(), "{}", stderr(&from_script));
    let expected = String::from_utf8_lossy(&from_script.stdout).into_owned();
    assert_eq!(
        expected,
        "41 - 23
"
    ); // FFO #1: Black +18

    let quoted = run(&["solve", board, "--quiet"]);
    assert!(quoted.status.success(), "{}", stderr(&quoted));
    assert_eq!(
        String::from_utf8_lossy(&quoted.stdout),
        "g8 +18 (Black to move): Black wins by 18, 41-23\n"
    );
    // The proven line, numbered from the position's move (50 discs: move 47).
    let lined = run(&["solve", board, "--line", "--quiet"]);
    let text = String::from_utf8_lossy(&lined.stdout).into_owned();
    let (first, line) = text.split_once('\n').unwrap();
    assert_eq!(first, "g8 +18 (Black to move): Black wins by 18, 41-23");
    assert!(line.starts_with("line: 47. g8 48. "), "{text}");
    let mut p = okapi::board::Position::parse(board).unwrap();
    for word in line["line: ".len()..].split_whitespace() {
        if !word.ends_with('.') {
            let mv = okapi::board::Move::parse(word).unwrap();
            p.play_move(mv)
                .unwrap_or_else(|e| panic!("{word}: {e}\n{text}"));
        }
    }
    assert!(p.is_game_over(), "the line plays to the end: {text}");
    assert_eq!(p.final_counts(), (41, 23), "{text}");
    // Written to a file whole, the summary on standard error unless --quiet.
    let out = dir.path().join("g8.txt");
    let to_file = run(&["solve", board, "-o", out.to_str().unwrap()]);
    assert!(to_file.status.success(), "{}", stderr(&to_file));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        String::from_utf8_lossy(&quoted.stdout)
    );
    assert!(
        stderr(&to_file).contains("1 position solved"),
        "{}",
        stderr(&to_file)
    );
    assert!(to_file.stdout.is_empty());
    // Two words, the first starting with '-', options after them; the */O/. convention.
    let (squares, side) = board.split_once(' ').unwrap();
    let dots = squares.replace('-', ".").replace('X', "*");
    let words = run(&["solve", &dots, side, "--wld", "--quiet"]);
    assert!(words.status.success(), "{}", stderr(&words));
    // A winning move (several win: the WLD solve proves one, not the best).
    let wld = String::from_utf8_lossy(&words.stdout).into_owned();
    let (mv, rest) = wld.split_once(' ').unwrap();
    assert_eq!(rest, "win (Black to move): Black wins\n");
    let legal = okapi::board::Position::parse(board).unwrap().legal_moves();
    let mv = okapi::board::Square::parse(mv).unwrap();
    assert!(legal.iter().any(|sq| sq == mv), "{wld}");
    // A position whose side to move must pass, and a finished game.
    let pass = run(&["solve", &format!("OX{} X", "-".repeat(62)), "--quiet"]);
    assert_eq!(
        String::from_utf8_lossy(&pass.stdout),
        "pass -64 (Black to move): White wins by 64, 0-64\n",
        "{}",
        stderr(&pass)
    );
    let over = run(&[
        "solve",
        &format!("{}{} O", "X".repeat(40), "O".repeat(24)),
        "-q",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&over.stdout),
        "game over: Black wins by 16, 40-24\n",
        "{}",
        stderr(&over)
    );

    for (bad, says) in [
        (
            format!("{squares}---- X"),
            "a board has 64 squares, this has 68",
        ),
        (
            format!("{}?{} X", &squares[..3], &squares[4..]),
            "'?' at square d1",
        ),
        (squares.to_string(), "the side to move is missing"),
        (format!("{squares} Q"), "'Q' is not a side to move"),
    ] {
        let o = run(&["solve", &bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{bad}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
    }
}

/// `okapi console` whose input ends while it solves (nothing read after `solve`): the
/// solve stops and the console ends at once, instead of solving 30 empties for minutes;
/// the output stays open and says why.
#[test]
fn console_stops_a_solve_when_its_input_ends() {
    let ffo = include_str!("data/ffo40-59.scr");
    let line = ffo
        .lines()
        .filter(|l| !l.starts_with('%') && l.len() > 64)
        .nth(17)
        .unwrap();
    assert_eq!(line[..64].matches('-').count(), 30, "{line}");
    let start = std::time::Instant::now();
    let o = run_with_input(
        &["console", "--computer", "none", "--threads", "1"],
        &format!("setboard {}\nsolve\n", &line[..66]),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("error: stopped: the input ended"), "{out}");
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
}

/// A first start (no settings file) on an 800x600 screen whose data folder cannot be made
/// (a file stands in its place): the window opens, fits the screen and stays; nothing
/// ends the app without a word. The settings are still written where they can be.
#[cfg(all(feature = "gui", target_os = "linux"))]
#[test]
fn a_first_start_at_800x600_with_no_data_folder_keeps_its_window() {
    use common::desktop::{start_okapi, tools_present, wait_for};
    use common::process::KillOnDrop;
    if !tools_present(&["Xvfb", "xdotool"]) {
        return;
    }
    let mut server = None;
    for n in 470..490 {
        if Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
            || Path::new(&format!("/tmp/.X{n}-lock")).exists()
        {
            continue;
        }
        let mut xvfb = KillOnDrop(
            Command::new("Xvfb")
                .args([
                    &format!(":{n}"),
                    "-screen",
                    "0",
                    "800x600x24",
                    "-nolisten",
                    "tcp",
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("Xvfb starts"),
        );
        if wait_for(&PathBuf::from(format!("/tmp/.X11-unix/X{n}")), &mut xvfb) {
            server = Some((xvfb, format!(":{n}")));
            break;
        }
    }
    let (_xvfb, display) = server.expect("a free X display in :470..:490");
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("data"), "not a folder").unwrap();
    let (mut app, window) = start_okapi(&display, home.path(), &[]);
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert!(
        app.0.try_wait().unwrap().is_none(),
        "the app ended: {}",
        std::fs::read_to_string(home.path().join("stderr-1")).unwrap_or_default()
    );
    let geometry = Command::new("xdotool")
        .args(["getwindowgeometry", &window])
        .env("DISPLAY", &display)
        .output()
        .unwrap();
    let geometry = String::from_utf8_lossy(&geometry.stdout).into_owned();
    let size = geometry
        .lines()
        .find_map(|l| l.trim().strip_prefix("Geometry: "))
        .and_then(|g| g.split_once('x'))
        .map(|(w, h)| (w.parse::<u32>().unwrap(), h.parse::<u32>().unwrap()))
        .unwrap_or_else(|| panic!("{geometry}"));
    assert!(size.0 <= 800 && size.1 <= 600, "fits the screen: {size:?}");
    assert!(
        home.path().join("config/okapi/settings.json").exists(),
        "the settings are kept where they can be"
    );
}
