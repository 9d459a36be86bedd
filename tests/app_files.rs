//! The app's files, scripts and database, driven through egui_kittest: saving and
//! opening games (menu, dropped files, pasted transcripts, a dialog that cannot be
//! shown), endgame scripts solved as the command line solves them, the Database tab, and
//! the windows and panels beside the board.
#![cfg(feature = "gui")]

mod common;

use common::app::{
    SaveAs, Steps, ffo1_json, harness, harness_with, has_label, new_game, step_until, temp_dir,
    text_of,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use okapi_app::{App, Command, ScriptedDialogs};
use okapi_core::board::Position;
use okapi_core::game::Seat;
use okapi_core::level::Level;
use std::path::PathBuf;
use std::time::Duration;

#[test]
fn save_and_reload_through_the_menu() {
    let tmp = temp_dir("save");
    let dir = tmp.path();
    let path = dir.join("game.json");
    let mut h = harness_with(ScriptedDialogs {
        open: vec![path.clone()],
        save: vec![path.clone()],
        ..Default::default()
    });
    for sq in ["f5", "d6", "c3", "d3", "c4"] {
        h.click_label(sq);
    }
    h.click_label("File");
    h.get_by_label_contains("Save as...").click();
    h.run_steps(2);
    assert!(path.exists(), "the game was saved");
    assert_eq!(
        h.state().settings.recent.first(),
        Some(&path),
        "a recent file"
    );
    let saved = okapi_core::formats::load_game(&path).unwrap();
    assert_eq!(saved.transcript(), "f5d6c3d3c4");

    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    assert_eq!(h.state().game().ply(), 0);
    h.click_label("File");
    h.get_by_label_contains("Open...").click();
    h.run_steps(2);
    assert_eq!(h.state().game().transcript(), "f5d6c3d3c4");
    assert!(has_label(&h, "Move 6: White to move"));
    assert!(h.query_by_label_contains("5. c4").is_some());
}

#[test]
fn a_bad_file_is_refused_with_a_message() {
    let tmp = temp_dir("bad");
    let dir = tmp.path();
    let path = dir.join("bad.json");
    std::fs::write(
        &path,
        r#"{"format":"okapi-game","version":1,"moves":["f5","a1"]}"#,
    )
    .unwrap();
    let mut h = harness();
    h.click_label("f5");
    h.state_mut().apply(Command::OpenPath(path));
    h.run_steps(3);
    // The move played is in no file: asked first.
    h.click_label("Discard");
    let err = text_of(&h.get_by_label_contains("Error: Could not open"));
    assert!(err.contains("move 2 (a1)"), "{err}");
    // nothing lost: the game in progress is still there
    assert_eq!(h.state().game().transcript(), "f5");
    h.click_label("Dismiss");
    assert!(h.query_by_label_contains("Error:").is_none());
}

/// A file claiming proofs its own game's end refutes opens, its game whole, and the status
/// says how many proven values were left out: nothing of the file goes silently.
#[test]
fn a_file_whose_proofs_its_end_refutes_opens_and_says_what_was_left_out() {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fuzz-regressions/json/exact-64-everywhere.json");
    let tmp = temp_dir("refuted");
    let path = tmp.path().join("game.json");
    std::fs::copy(&fixture, &path).unwrap();
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    h.run_steps(3);
    assert_eq!(h.state().game().len(), 61);
    let said = "game.json: 61 proven values contradict the game's end and were not read.";
    assert!(h.query_by_label_contains(said).is_some(), "{said}");
    // A file with nothing left out says nothing of the kind.
    let fine = tmp.path().join("fine.json");
    std::fs::write(
        &fine,
        r#"{"format":"okapi-game","version":1,"moves":["f5","d6"]}"#,
    )
    .unwrap();
    h.state_mut().apply(Command::OpenPath(fine));
    h.run_steps(3);
    assert_eq!(h.state().game().transcript(), "f5d6");
    assert!(h.query_by_label_contains("were not read").is_none());
}

#[test]
fn paste_a_transcript_and_copy_it_back() {
    let mut h = harness();
    h.event(eframe::egui::Event::Paste("f5 d6 c3 d3".into()));
    h.run_steps(2);
    assert_eq!(h.state().game().transcript(), "f5d6c3d3");
    assert!(h.query_by_label_contains("4. d3").is_some());
    h.state_mut().apply(Command::CopyTranscript);
    h.step();
    let copied = h
        .output()
        .platform_output
        .commands
        .iter()
        .any(|c| matches!(c, eframe::egui::OutputCommand::CopyText(t) if t == "f5d6c3d3"));
    assert!(copied, "{:?}", h.output().platform_output.commands);
    // a board string pastes as a position
    let board = format!("OX{} X", "-".repeat(62));
    h.event(eframe::egui::Event::Paste(board));
    h.run_steps(2);
    assert!(has_label(&h, "Black has no legal move and passes."));
    // and junk is refused with a message, the game kept
    h.event(eframe::egui::Event::Paste("hello".into()));
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("neither a game nor a board")
            .is_some()
    );
    assert_eq!(h.state().game().moves(), &[okapi_core::board::Move::Pass]);
}

/// A file dropped on the window, as the windowing layer hands it over.
#[derive(Debug)]
struct Dropped(PathBuf);

impl eframe::egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn a_dropped_file_is_opened() {
    let tmp = temp_dir("drop");
    let dir = tmp.path();
    let path = dir.join("dropped.ggf");
    okapi_core::formats::transcript::read("f5d6c3")
        .unwrap()
        .save(&path)
        .unwrap();
    let mut h = harness();
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path.clone())));
    h.run_steps(2);
    assert_eq!(h.state().game().transcript(), "f5d6c3");
    assert_eq!(h.state().file.as_ref(), Some(&path));
}

/// A small script: comments, a blank line, a bad line, trailing comments, three FFO
/// positions of 14 empties, the end marker and a line after it.
fn small_script(dir: &std::path::Path) -> PathBuf {
    let ffo = include_str!("data/ffo1-39.scr");
    let board = |n: &str| {
        let line = ffo.lines().find(|l| l.contains(n)).unwrap();
        line[..66].to_string()
    };
    let text = format!(
        "% a small script\n{} % first\n\nnot a board % broken\n{}\n{} % third\n% End of the endgame script\n{}\n",
        board("ffo#01"),
        board("ffo#02"),
        board("ffo#03"),
        board("ffo#04"),
    );
    let path = dir.join("small.scr");
    std::fs::write(&path, text).unwrap();
    path
}

/// What `okapi -script IN OUT` writes, with extra options.
fn command_line_output(input: &std::path::Path, out: &std::path::Path, opts: &[&str]) -> Vec<u8> {
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_okapi"))
        .arg("-script")
        .arg(input)
        .arg(out)
        .args(["-e", "0"])
        .args(opts)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1), "the bad line gives status 1");
    std::fs::read(out).unwrap()
}

#[test]
fn a_script_is_solved_from_the_menu_and_saved_as_the_command_line_writes_it() {
    let tmp = temp_dir("script");
    let dir = tmp.path();
    let input = small_script(dir);
    let saved = dir.join("result.txt");
    let mut h = harness_with(ScriptedDialogs {
        open: vec![input.clone()],
        save: vec![saved.clone()],
        ..Default::default()
    });
    h.click_label("File");
    h.get_by_label_contains("Open script...").click();
    h.run_steps(4);
    assert!(has_label(&h, "3 positions, 1 bad line"));
    // the bad line is listed with its number and reason
    assert!(h.query_by_label_contains("line 4: ").is_some());
    // not solved yet: nothing to save
    assert!(h.state().script.as_ref().unwrap().output().is_none());
    h.click_label("with lines");
    h.get_by_label("Solve").click();
    h.run_steps(1);
    assert!(h.state().script.as_ref().unwrap().is_running());
    // results appear one by one while the board stays live
    step_until(&mut h, "the first result", |app| {
        app.script.as_ref().unwrap().solved() >= 1
    });
    step_until(&mut h, "the whole script", |app| {
        !app.script.as_ref().unwrap().is_running()
    });
    let job = h.state().script.as_ref().unwrap();
    assert_eq!(job.solved(), 3);
    let rows: Vec<(usize, String)> = job
        .rows
        .iter()
        .map(|r| {
            (
                r.line_number,
                r.result.as_ref().unwrap().outcome.to_string(),
            )
        })
        .collect();
    // FFO #1 +18, #2 +10, #3 +2 for Black to move
    assert_eq!(
        rows,
        vec![
            (2, "41 - 23".to_string()),
            (5, "37 - 27".to_string()),
            (6, "33 - 31".to_string())
        ]
    );
    assert!(has_label(&h, "3 of 3 solved"));
    assert!(h.query_by_label_contains("41 - 23").is_some());
    // a click shows the position on the board with its proven line
    // (line 5 of the file is the second position: #2)
    h.get_by_label("#2").click();
    h.run_steps(4);
    assert_eq!(
        h.state().game().position(),
        h.state().script.as_ref().unwrap().rows[1].position
    );
    assert!(has_label(&h, "Solved (exact): Black wins by 10"));
    // saved through the dialog, as `okapi -script -line 1` writes it
    h.click_label("Save result...");
    let app_file = std::fs::read(&saved).unwrap();
    let cli_file = command_line_output(&input, &dir.join("cli.txt"), &["-line", "1"]);
    assert_eq!(
        String::from_utf8_lossy(&app_file),
        String::from_utf8_lossy(&cli_file)
    );
    assert_eq!(app_file, cli_file);
    // WLD without lines: the options clear the results; solved again, the same file too
    h.get_by_label("win/draw/loss").click();
    h.click_label("with lines");
    assert_eq!(h.state().script.as_ref().unwrap().solved(), 0);
    h.get_by_label("Solve").click();
    h.run_steps(1);
    step_until(&mut h, "the WLD run", |app| {
        let job = app.script.as_ref().unwrap();
        !job.is_running() && job.solved() == 3
    });
    let app_wld = h.state().script.as_ref().unwrap().output().unwrap();
    let cli_wld = command_line_output(&input, &dir.join("cli-wld.txt"), &["-wld", "1"]);
    assert_eq!(app_wld, cli_wld);
}

#[test]
fn a_script_run_can_be_stopped_and_a_bad_script_is_refused() {
    let tmp = temp_dir("script-stop");
    let dir = tmp.path();
    // FFO #57 (26 empties) takes long: the run must stop at once, nothing saved.
    let ffo = include_str!("data/ffo40-59.scr");
    let line = ffo.lines().find(|l| l.contains("ffo#57")).unwrap();
    let path = dir.join("long.scr");
    std::fs::write(&path, format!("{line}\n{line}\n")).unwrap();
    let mut h = harness();
    h.state_mut().settings.show_evals = false;
    h.state_mut().apply(Command::OpenScriptPath(path));
    h.run_steps(2);
    h.click_label("Solve");
    std::thread::sleep(Duration::from_millis(100));
    h.get_by_label("Stop script").click();
    step_until(&mut h, "the stop", |app| {
        !app.script.as_ref().unwrap().is_running()
    });
    let job = h.state().script.as_ref().unwrap();
    assert_eq!(job.solved(), 0);
    assert!(job.output().is_none());
    assert!(has_label(&h, "stopped"));
    // a file that cannot be read is an error message, the script kept
    h.state_mut()
        .apply(Command::OpenScriptPath(dir.join("missing.scr")));
    h.run_steps(2);
    assert!(h.query_by_label_contains("Error: Could not open").is_some());
    assert!(h.state().script.is_some());
}

#[test]
fn help_lists_the_keyboard_shortcuts() {
    let mut h = harness();
    h.click_label("Help");
    h.get_by_label("Keyboard shortcuts").click();
    h.run_steps(4);
    assert!(has_label(&h, "Open an endgame script"));
    assert!(has_label(&h, "Stop the engine"));
    assert!(has_label(&h, "Esc") || has_label(&h, "Escape"));
}

#[test]
fn the_script_panel_sits_beside_the_board() {
    let tmp = temp_dir("script-panel");
    let script = small_script(tmp.path());
    let mut h = harness();
    h.state_mut().apply(Command::OpenScriptPath(script));
    h.run_steps(3);
    let panel: Vec<eframe::egui::Rect> = ["#1", "#3", "Solve", "with lines", "Close script"]
        .iter()
        .map(|l| h.get_by_label(l).rect())
        .collect();
    let a1 = h.get_by_label("a1").rect();
    for sq in okapi_core::board::Square::all() {
        let r = h.get_by_label(&sq.to_string()).rect();
        assert!(r.width() > 20.0, "{sq} is still a usable square: {r:?}");
        for p in &panel {
            assert!(!p.intersects(r), "the script panel covers {sq}");
            assert!(
                p.left() >= a1.left(),
                "the script is in the side area, right of a1"
            );
        }
    }
    // a click shows the position on the main board, beside the list
    h.get_by_label("#3").click();
    h.run_steps(3);
    assert_eq!(
        h.state().game().position(),
        h.state().script.as_ref().unwrap().rows[2].position
    );
    assert!(h.query_by_label_contains("#3 (line 6)").is_some());
}

#[test]
fn the_layout_stays_put() {
    let mut h = harness();
    // a message comes and goes under the board: the board does not move
    let a1 = h.get_by_label("a1").rect();
    h.state_mut().error = Some("something went wrong".into());
    h.run_steps(2);
    assert!(h.query_by_label_contains("Error: something").is_some());
    assert_eq!(h.get_by_label("a1").rect(), a1);
    h.click_label("Dismiss");
    assert_eq!(h.get_by_label("a1").rect(), a1);
    // against the engine, "Let the engine move" is there all game, below Undo/Redo
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Random));
    h.run_steps(2);
    let undo = h.get_by_label("Undo").rect();
    let engine_move = h.get_by_label("Let the engine move").rect();
    assert!(engine_move.top() >= undo.bottom(), "below Undo");
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply", |app| app.game().ply() == 2);
    assert_eq!(h.get_by_label("Undo").rect(), undo);
    h.state_mut().apply(Command::GoTo(1));
    h.run_steps(2);
    assert_eq!(h.get_by_label("Undo").rect(), undo);
    assert_eq!(h.get_by_label("Redo").rect().top(), undo.top());
    assert_eq!(h.get_by_label("Let the engine move").rect(), engine_move);
    assert_eq!(h.get_by_label("a1").rect(), a1);
}

#[test]
fn a_file_dialog_that_cannot_be_shown_falls_back_to_a_path_field() {
    let tmp = temp_dir("no-portal");
    let path = ffo1_json(tmp.path());
    let mut h = harness_with(ScriptedDialogs {
        unavailable: true,
        ..Default::default()
    });
    h.click_label("File");
    h.get_by_label_contains("Open...").click();
    h.run_steps(3);
    // said in the notice, and a window with a path field
    assert!(
        h.query_by_label_contains("No file dialog could be shown: type the path")
            .is_some()
    );
    // in plain words: the raw portal error is not shown to the player
    assert!(
        h.query_by_label_contains("no file dialog portal answered")
            .is_none()
    );
    let field = h.get_by_role(eframe::egui::accesskit::Role::TextInput);
    field.focus();
    h.run_steps(1);
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::A);
    h.run_steps(1);
    h.get_by_role(eframe::egui::accesskit::Role::TextInput)
        .type_text(&path.display().to_string());
    h.run_steps(1);
    h.get_by_label("OK").click();
    h.run_steps(3);
    assert_eq!(h.state().file.as_deref(), Some(path.as_path()));
    assert_eq!(h.state().game().position().empty_count(), 14);
    assert!(h.query_by_label("OK").is_none(), "the window closed");
}

#[test]
fn a_script_shows_the_expected_results_with_a_tick() {
    let tmp = temp_dir("expected");
    let ffo = include_str!("data/ffo1-39.scr");
    let lines: Vec<&str> = ffo
        .lines()
        .filter(|l| !l.starts_with('%'))
        .take(2)
        .collect();
    // the second line's comment claims a wrong score
    let wrong = lines[1].replace("score:+10", "score:+12");
    let path = tmp.path().join("two.scr");
    std::fs::write(&path, format!("{}\n{}\n", lines[0], wrong)).unwrap();
    let mut h = harness();
    h.state_mut().apply(Command::OpenScriptPath(path));
    h.run_steps(2);
    assert!(has_label(&h, "expected"));
    h.get_by_label("Solve").click();
    h.run_steps(1);
    step_until(&mut h, "the script", |app| {
        app.script.as_ref().is_some_and(|j| j.is_complete())
    });
    h.run_steps(2);
    assert!(has_label(&h, "✓ agrees"));
    assert!(has_label(&h, "✗ differs"));
    assert!(h.query_by_label_contains("1 of 2 as expected").is_some());
    // the best move column, and the proven line on demand
    // (the board's square g8 is one "g8", the best move column the other)
    assert!(h.query_all_by_label("g8").count() >= 2);
    h.get_by_label("#1").click();
    h.run_steps(3);
    // the main board's solve shows the line; the panel only when asked
    assert_eq!(h.query_all_by_label_contains("Line: 47. g8").count(), 1);
    assert!(has_label(&h, "Tick \"with lines\" for the proven line."));
    h.get_by_label("with lines").click();
    h.run_steps(3);
    assert_eq!(h.query_all_by_label_contains("Line: 47. g8").count(), 2);
    assert!(
        h.state().script.as_ref().unwrap().is_complete(),
        "no new solve needed"
    );
}

/// The WTHOR samples of `tests/data` as a games database, and the PGN sample's games.
fn sample_database() -> (
    okapi_core::db::Database,
    Vec<okapi_core::formats::records::pgn::PgnGame>,
) {
    use okapi_core::db::{Builder, sources};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut b = Builder::new();
    let names = sources::WthorNames::default();
    sources::add_wthor_file(&mut b, &dir.join("wthor-2018-sample.wtb"), &names, "sample");
    sources::add_pgn_file(&mut b, &dir.join("wthor-2024-sample.pgn"), "sample");
    let text = std::fs::read_to_string(dir.join("wthor-2024-sample.pgn")).unwrap();
    let (games, _) = okapi_core::formats::records::pgn::parse_games(&text);
    (b.build().unwrap(), games)
}

/// The "N of M games reach this position" line of the Database tab.
fn games_reaching(h: &Harness<'static, App>) -> usize {
    let node = h
        .query_by_label_contains("games reach this position")
        .expect("the Database tab shows its count");
    let text = text_of(&node);
    text.split(' ')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn the_database_tab_follows_the_board_filters_and_opens_a_game() {
    let mut h = harness();
    let (db, pgn_games) = sample_database();
    let total = db.len();
    let after = |moves: &[&str]| {
        let mut p = Position::start();
        for m in moves {
            p.play(okapi_core::board::Square::parse(m).unwrap())
                .unwrap();
        }
        db.query(&p, &okapi_core::db::Filter::default()).games.len()
    };
    let after_f5_d6 = after(&["f5", "d6"]);
    h.state_mut().database.set_database(db, Vec::new());
    h.get_by_label("Database").click();
    h.run_steps(3);
    assert_eq!(games_reaching(&h), total);
    assert!(
        has_label(&h, "Database move f5"),
        "the start's one row is f5"
    );

    // Play a move on the board: the rows become the replies to f5.
    h.get_by_label("f5").click();
    h.run_steps(3);
    assert!(!has_label(&h, "Database move f5"));
    assert!(has_label(&h, "Database move d6"));
    // And one from the panel's rows.
    h.get_by_label("Database move d6").click();
    h.run_steps(3);
    assert_eq!(h.state().game().ply(), 2);
    assert_eq!(games_reaching(&h), after_f5_d6);
    assert!(after_f5_d6 < total);

    // Filter by a player: the count is that player's games through f5 d6.
    h.state_mut().apply(Command::First);
    h.run_steps(2);
    let name = pgn_games[0].black.clone();
    let theirs = pgn_games
        .iter()
        .filter(|g| g.black.contains(&name) || g.white.contains(&name))
        .count();
    h.get_by_label("Player").focus();
    h.get_by_label("Player").type_text(&name);
    h.run_steps(3);
    assert_eq!(games_reaching(&h), theirs, "{name}'s games");
    assert!(theirs > 0 && theirs < total);

    // Open a game: its players and result, whole record, cursor on the board's position.
    let row = h
        .query_all_by_label_contains(" – ")
        .next()
        .map(|n| text_of(&n))
        .expect("a game row");
    h.get_by_label(&row).click();
    h.run_steps(3);
    // f5 d6 were played here and never saved: the question comes first.
    h.get_by_label("Discard").click();
    h.run_steps(3);
    let game = h.state().game();
    assert!(row.starts_with(&game.black), "{row} vs {}", game.black);
    assert!(game.black.contains(&name) || game.white.contains(&name));
    assert_eq!(
        game.ply(),
        0,
        "opened at the position on the board (the start)"
    );
    assert!(game.len() > 20, "the whole record to step through");
    assert!(game.comment.contains(" (Black "), "{}", game.comment);
}

/// Typing a player's name in the Database tab moves no control under the pointer: the
/// filter rows, the sort and the games keep their places however many rows the filter
/// leaves (a click meant for the Years field once landed on the sort by White).
#[test]
fn typing_a_player_filter_keeps_the_controls_in_place() {
    let mut h = harness();
    let (db, pgn_games) = sample_database();
    h.state_mut().database.set_database(db, Vec::new());
    h.get_by_label("Database").click();
    h.run_steps(3);
    h.get_by_label("f5").click();
    h.run_steps(3);
    let rows = |h: &Harness<'static, App>| h.query_all_by_label_contains("Database move ").count();
    let places = |h: &Harness<'static, App>| {
        (
            h.get_by_label("Years").rect(),
            h.get_by_label("Sort:").rect(),
        )
    };
    let all_rows = rows(&h);
    let before = places(&h);
    assert!(all_rows > 1, "the replies to f5: {all_rows} rows");

    let name = pgn_games[0].black.clone();
    h.get_by_label("Player").focus();
    h.get_by_label("Player").type_text(&name);
    h.run_steps(3);
    assert!(rows(&h) >= 1, "{name} played after f5");
    assert_eq!(places(&h), before, "with {name}'s games");

    // A name nobody has: no row at all, and still nothing moves.
    h.get_by_label("Player").type_text(" nobody at all");
    h.run_steps(3);
    assert_eq!(rows(&h), 0);
    assert!(has_label(&h, "No game continues from here."));
    assert_eq!(places(&h), before, "with no game");
}

/// A click on a database game asks first when the game on the board has unsaved
/// changes, as File › Open does: Cancel keeps the game, Discard opens the database game.
#[test]
fn a_database_game_asks_before_replacing_unsaved_changes() {
    let mut h = harness();
    let (db, _) = sample_database();
    h.state_mut().database.set_database(db, Vec::new());
    h.get_by_label("Database").click();
    h.run_steps(3);
    h.get_by_label("f5").click();
    h.run_steps(3);
    let played = h.state().game().clone();
    assert_eq!(played.len(), 1);
    assert!(h.state().has_unsaved_changes());
    let row = h
        .query_all_by_label_contains(" – ")
        .next()
        .map(|n| text_of(&n))
        .expect("a game row");

    h.get_by_label(&row).click();
    h.run_steps(3);
    assert!(has_label(&h, "Unsaved changes"), "the question appears");
    assert!(
        h.query_by_label_contains("Open the database game")
            .is_some()
    );
    assert_eq!(h.state().game(), &played, "nothing replaced while it asks");
    h.get_by_label("Cancel").click();
    h.run_steps(3);
    assert!(!has_label(&h, "Unsaved changes"));
    assert_eq!(h.state().game(), &played, "Cancel keeps the game");

    h.get_by_label(&row).click();
    h.run_steps(3);
    assert!(has_label(&h, "Unsaved changes"));
    h.get_by_label("Discard").click();
    h.run_steps(3);
    assert!(!has_label(&h, "Unsaved changes"));
    let game = h.state().game();
    assert!(row.starts_with(&game.black), "{row} vs {}", game.black);
    assert_eq!(
        game.ply(),
        1,
        "opened at the position on the board (after f5)"
    );
    assert!(game.len() > 20, "the database game's whole record");
    // The database game counts as saved: the next click opens at once.
    assert!(!h.state().has_unsaved_changes());
}

/// Paste › Unsaved changes › Save: the game is saved, then the paste goes ahead, as after
/// Discard; also when the save dialog cannot be shown and the path is typed instead. The
/// dialog starts in no launch folder: the game's own name is offered in the player's
/// folder.
#[test]
fn a_paste_waiting_for_a_save_goes_ahead_after_it() {
    let tmp = temp_dir("paste-after-save");
    for dialog_shown in [true, false] {
        let saved_to = tmp.path().join(format!("kept-{dialog_shown}.json"));
        let started = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut h = harness_with(ScriptedDialogs {
            save: vec![saved_to.clone()],
            unavailable: !dialog_shown,
            started_in: started.clone(),
            ..Default::default()
        });
        h.click_label("f5");
        h.click_label("d6");
        h.state_mut().apply(Command::Paste("c4 c3".into()));
        h.run_steps(2);
        assert!(
            has_label(&h, "Unsaved changes"),
            "the paste asks first: {} unsaved {}",
            h.state().game().transcript(),
            h.state().has_unsaved_changes()
        );
        h.click_label("Save");
        h.run_steps(2);
        if !dialog_shown {
            // The path field offers the game's name in a folder of the player's, not
            // the folder Okapi was started from.
            let field = h.get_by_role(eframe::egui::accesskit::Role::TextInput);
            let offered = PathBuf::from(field.value().expect("the path offered"));
            assert!(
                offered.extension().is_some_and(|e| e == "json"),
                "{offered:?}"
            );
            assert_ne!(
                offered.parent(),
                Some(std::env::current_dir().unwrap().as_path()),
                "not the launch folder: {offered:?}"
            );
            field.focus();
            h.run_steps(1);
            h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::A);
            h.run_steps(1);
            h.get_by_role(eframe::egui::accesskit::Role::TextInput)
                .type_text(&saved_to.display().to_string());
            h.run_steps(1);
            h.get_by_label("OK").click();
            h.run_steps(3);
        } else {
            let started = started.lock().unwrap();
            let folder = started.last().cloned().flatten();
            assert!(
                folder.is_some(),
                "the save dialog starts in a folder chosen"
            );
            assert_ne!(
                folder,
                std::env::current_dir().ok(),
                "not the launch folder"
            );
        }
        let saved = okapi_core::formats::load_game(&saved_to).unwrap();
        assert_eq!(saved.transcript(), "f5d6", "the game is saved");
        assert_eq!(
            h.state().game().transcript(),
            "c4c3",
            "then the paste goes ahead"
        );
        assert!(!has_label(&h, "Unsaved changes"));
    }
}
