//! The app driven as a person would, through egui_kittest and AccessKit labels: no display
//! needed. `Harness::run` does not wait for the engine thread, so tests step the harness
//! until the engine's events have arrived.
#![cfg(feature = "gui")]

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use okapi_app::{App, Command, ScriptedDialogs};
use okapi_core::board::Position;
use okapi_core::game::{EvalSource, Game, Seat};
use okapi_core::search::level::Level;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Saves a game in the format its extension names, as the app does.
trait SaveAs {
    fn save(&self, path: &std::path::Path) -> std::io::Result<()>;
}

impl SaveAs for Game {
    fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        okapi_core::formats::save_game(self, path)
    }
}

fn harness_with(dialogs: ScriptedDialogs) -> Harness<'static, App> {
    let app = App::new(Box::new(dialogs), || {});
    let mut h = Harness::builder()
        .with_size(eframe::egui::vec2(1000.0, 720.0))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run_steps(2);
    h
}

/// A new game from the standard opening, no clock.
fn new_game(h: &mut Harness<'static, App>, black: Seat, white: Seat) {
    h.state_mut().apply(Command::NewGame {
        black,
        white,
        minutes: 0,
        from_here: false,
    });
}

fn harness() -> Harness<'static, App> {
    harness_with(ScriptedDialogs::default())
}

/// Steps the UI (as frames would) until `done` holds for the app.
fn step_until(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !done(h.state()) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
}

fn has_label(h: &Harness<'static, App>, label: &str) -> bool {
    h.query_by_label(label).is_some()
}

/// The text a label shows (AccessKit puts a label's text in its value).
fn text_of(node: &egui_kittest::Node<'_>) -> String {
    node.accesskit_node()
        .label()
        .or_else(|| node.value())
        .expect("the node has a text")
}

/// A scratch directory, removed when the test ends, passed or not.
fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("okapi-app-{name}-"))
        .tempdir()
        .unwrap()
}

#[test]
fn start_position_shows_every_square_by_name() {
    let h = harness();
    for col in 'a'..='h' {
        for row in 1..=8 {
            let name = format!("{col}{row}");
            h.get_by_label(&name);
        }
    }
    assert_eq!(h.get_by_label("d5").value().as_deref(), Some("black disc"));
    assert_eq!(h.get_by_label("d4").value().as_deref(), Some("white disc"));
    assert!(
        h.get_by_label("d3")
            .value()
            .unwrap()
            .starts_with("legal move")
    );
    assert_eq!(h.get_by_label("a1").value().as_deref(), Some("empty"));
    assert!(has_label(&h, "Black: 2 discs"));
    assert!(has_label(&h, "White: 2 discs"));
    assert!(has_label(&h, "Move 1: Black to move"));
}

#[test]
fn clicking_a_square_plays_the_move() {
    let mut h = harness();
    h.get_by_label("f5").click();
    h.run_steps(2);
    assert!(has_label(&h, "Black: 4 discs"));
    assert!(has_label(&h, "White: 1 disc"));
    assert!(has_label(&h, "Move 2: White to move"));
    assert_eq!(h.get_by_label("e5").value().as_deref(), Some("black disc"));
    // an illegal square does nothing
    h.get_by_label("a1").click();
    h.run_steps(2);
    assert_eq!(h.state().game().ply(), 1);
    assert_eq!(h.get_by_label("a1").value().as_deref(), Some("empty"));
    // the move list names the move
    assert!(h.query_by_label_contains("1. f5").is_some());
}

#[test]
fn undo_and_redo_buttons() {
    let mut h = harness();
    h.get_by_label("f5").click();
    h.run_steps(2);
    h.get_by_label("d6").click();
    h.run_steps(2);
    assert!(has_label(&h, "Black: 3 discs"));
    assert!(has_label(&h, "White: 3 discs"));
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert!(has_label(&h, "Black: 4 discs"));
    assert!(has_label(&h, "Move 2: White to move"));
    h.get_by_label("Redo").click();
    h.run_steps(2);
    assert!(has_label(&h, "White: 3 discs"));
    assert!(has_label(&h, "Move 3: Black to move"));
    // keyboard shortcut for undo
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().game().ply(), 1);
}

#[test]
fn the_engine_replies_to_a_move() {
    let mut h = harness();
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Greedy));
    h.run_steps(2);
    assert!(has_label(&h, "White: Okapi (greedy)"));
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply", |app| app.game().ply() == 2);
    assert!(has_label(&h, "Move 3: Black to move"));
    let reply = h.state().game().moves()[1];
    let mut p = Position::start();
    p.play_move(okapi_core::board::Move::parse("f5").unwrap())
        .unwrap();
    let greedy_most = p
        .legal_moves()
        .iter()
        .map(|s| p.board().flips(s.index()).count_ones())
        .max()
        .unwrap();
    let okapi_core::board::Move::Play(sq) = reply else {
        panic!("the engine passed")
    };
    assert_eq!(p.board().flips(sq.index()).count_ones(), greedy_most);
}

/// FFO #1: 14 empties, Black to move, g8 is best with +18.
fn ffo1_json(dir: &std::path::Path) -> PathBuf {
    let text = include_str!("data/ffo1-39.scr");
    let line = text.lines().find(|l| l.contains("ffo#01")).unwrap();
    let game = Game::new(Position::parse(line).unwrap());
    let path = dir.join("ffo1.json");
    game.save(&path).unwrap();
    path
}

#[test]
fn exact_values_appear_on_the_squares() {
    let tmp = temp_dir("evals");
    let dir = tmp.path();
    let path = ffo1_json(dir);
    let mut h = harness_with(ScriptedDialogs {
        open: vec![path],
        ..Default::default()
    });
    h.state_mut().apply(Command::Open);
    h.run_steps(1);
    let legal = h.state().game().position().legal_moves().len() as usize;
    step_until(&mut h, "exact values of every move", |app| {
        app.move_evals.len() == legal
            && app
                .move_evals
                .values()
                .all(|e| e.source == EvalSource::Exact)
    });
    assert_eq!(
        h.get_by_label("g8").value().as_deref(),
        Some("legal move, +18 (exact), best")
    );
    assert!(has_label(&h, "g8: +18 (exact)"));
    // then the proven principal line, without asking
    step_until(&mut h, "the principal line", |app| !app.engine_busy());
    assert!(has_label(&h, "Solved (exact): Black wins by 18"));
    assert!(h.query_by_label_contains("Line: 47. g8").is_some());
}

#[test]
fn solve_shows_the_proven_line_and_it_can_be_played() {
    let tmp = temp_dir("solve");
    let dir = tmp.path();
    let path = ffo1_json(dir);
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    h.get_by_label("Solve exact").click();
    h.run_steps(1);
    step_until(&mut h, "the solve", |app| !app.engine_busy());
    assert!(has_label(&h, "Solved (exact): Black wins by 18"));
    let line = text_of(&h.get_by_label_contains("Line: 47. g8"));
    assert!(line.split_whitespace().count() > 10, "{line}");
    h.get_by_label("Play best move").click();
    h.run_steps(2);
    assert_eq!(h.state().game().moves()[0].to_string(), "g8");
    // the line is followed: the rest is still shown, from White's side
    assert!(has_label(&h, "Solved (exact): Black wins by 18"));
}

#[test]
fn stop_ends_a_long_solve() {
    let text = include_str!("data/ffo40-59.scr");
    let line = text.lines().find(|l| l.contains("ffo#57")).unwrap();
    let tmp = temp_dir("stop");
    let dir = tmp.path();
    let path = dir.join("ffo57.json");
    Game::new(Position::parse(line).unwrap())
        .save(&path)
        .unwrap();
    let mut h = harness();
    h.state_mut().settings.show_evals = false;
    h.state_mut().apply(Command::OpenPath(path));
    h.get_by_label("Solve exact").click();
    h.run_steps(2);
    // a long solve is announced with an estimate first
    assert!(h.query_by_label_contains("solving takes about").is_some());
    h.get_by_label("Solve anyway").click();
    h.run_steps(2);
    assert!(h.state().engine_busy());
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    h.get_by_label("Stop").click();
    step_until(&mut h, "the stop", |app| !app.engine_busy());
    eprintln!(
        "stop took effect after {:?} (frames included); the app measured {:?}",
        asked.elapsed(),
        h.state().metrics.stop_latency
    );
    assert!(h.state().metrics.stop_latency.is_some());
    assert!(h.query_by_label_contains("Solved").is_none());
    assert!(h.query_by_label_contains("stopped").is_some());
}

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
        h.get_by_label(sq).click();
        h.run_steps(2);
    }
    h.get_by_label("File").click();
    h.run_steps(2);
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
    h.get_by_label("File").click();
    h.run_steps(2);
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
    h.get_by_label("f5").click();
    h.run_steps(2);
    h.state_mut().apply(Command::OpenPath(path));
    h.run_steps(3);
    // The move played is in no file: asked first.
    h.get_by_label("Discard").click();
    h.run_steps(2);
    let err = text_of(&h.get_by_label_contains("Error: Could not open"));
    assert!(err.contains("move 2 (a1)"), "{err}");
    // nothing lost: the game in progress is still there
    assert_eq!(h.state().game().transcript(), "f5");
    h.get_by_label("Dismiss").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("Error:").is_none());
}

#[test]
fn an_engine_panic_is_shown_and_the_app_goes_on() {
    let mut h = harness();
    // a developer item: behind the Debug setting
    h.state_mut().settings.debug = true;
    h.get_by_label("Help").click();
    h.run_steps(2);
    h.get_by_label("Test the engine's error report").click();
    h.run_steps(1);
    step_until(&mut h, "the error", |app| app.error.is_some());
    let err = text_of(&h.get_by_label_contains("Error: the engine failed"));
    assert!(err.contains("deliberate crash"), "{err}");
    // the app and the engine still work
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Random));
    h.get_by_label("d3").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply after the crash", |app| {
        app.game().ply() == 2
    });
}

#[test]
fn forced_pass_is_played_and_announced() {
    // Black (b1) has no move; White (a1) has c1.
    let tmp = temp_dir("pass");
    let dir = tmp.path();
    let path = dir.join("pass.json");
    Game::new(Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap())
        .save(&path)
        .unwrap();
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    h.run_steps(2);
    assert!(has_label(&h, "Black has no legal move and passes."));
    assert!(has_label(&h, "Move 1: White to move"));
    h.get_by_label("c1").click();
    h.run_steps(2);
    assert!(has_label(&h, "Game over: White wins 64-0"));
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

#[test]
fn set_up_a_position_and_play_from_it() {
    let mut h = harness();
    h.get_by_label("Game").click();
    h.run_steps(2);
    h.get_by_label("Set up a position...").click();
    // the closing menu fades out over a few frames before the panel below takes clicks
    h.run_steps(10);
    assert!(has_label(&h, "Set up a position"));
    h.get_by_label("Clear").click();
    h.run_steps(2);
    assert!(has_label(&h, "Black: 0 discs"));
    // a1 white (two clicks), b1 black (one click): Black to move has no move, White c1
    for sq in ["a1", "a1", "b1"] {
        h.get_by_label(sq).click();
        h.run_steps(2);
    }
    assert_eq!(h.get_by_label("a1").value().as_deref(), Some("white disc"));
    assert_eq!(h.get_by_label("b1").value().as_deref(), Some("black disc"));
    h.get_by_label("White").click();
    h.run_steps(2);
    h.get_by_label("Done").click();
    // the side panel changes back from set-up: let its layout settle before clicking
    h.run_steps(4);
    assert_eq!(
        h.state().game().start().to_board_string(),
        format!("OX{} O", "-".repeat(62))
    );
    assert!(has_label(&h, "Move 1: White to move"));
    h.get_by_label("c1").click();
    h.run_steps(2);
    assert!(has_label(&h, "Game over: White wins 64-0"));
}

#[test]
fn game_analysis_finds_the_lost_discs() {
    // FFO #1: Black plays b1 (-4) instead of g8 (+18), then White replies.
    let text = include_str!("data/ffo1-39.scr");
    let line = text.lines().find(|l| l.contains("ffo#01")).unwrap();
    let mut game = Game::new(Position::parse(line).unwrap());
    game.play(okapi_core::board::Move::parse("b1").unwrap(), None)
        .unwrap();
    let reply = game.position().legal_moves().iter().next().unwrap();
    game.play(okapi_core::board::Move::Play(reply), None)
        .unwrap();
    let tmp = temp_dir("analysis");
    let dir = tmp.path();
    let path = dir.join("mistake.json");
    game.save(&path).unwrap();
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    h.run_steps(2);
    // through the Engine menu (the side panel's button may sit below its fold)
    h.get_by_role_and_label(eframe::egui::Role::Button, "Engine")
        .click();
    h.run_steps(2);
    h.get_by_label("Analyse the game").click();
    h.run_steps(1);
    assert!(h.state().engine_busy(), "the analysis started");
    step_until(&mut h, "the game analysis", |app| !app.engine_busy());
    assert!(h.query_by_label_contains("1. b1 (-4) ?-22 g8").is_some());
    assert!(has_label(
        &h,
        "Black: lost 22 discs in 1 move (1 blunder, 0 mistakes, 0 inaccuracies; 1 proven by the solver, 0 by the search)"
    ));
    // beside the evaluation graph, the discs each move lost
    assert!(
        h.query_by_label_contains("discs lost per move: Black up")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("Worst: ply 1 b1, -4 (exact) against g8 +18 (exact)")
            .is_some()
    );
    // the values are kept in the game and saved with their source
    assert_eq!(
        h.state().game().evals()[0],
        Some(okapi_core::game::Eval {
            value: -4,
            source: EvalSource::Exact
        })
    );
}

#[test]
fn values_for_one_side_and_hints() {
    let mut h = harness();
    h.get_by_label("White").click();
    h.run_steps(2);
    // Black to move: no values for Black
    assert!(!h.state().engine_busy());
    assert!(h.state().move_evals.is_empty());
    assert!(h.get_by_label("d3").value().unwrap() == "legal move");
    h.get_by_label("Hint").click();
    h.run_steps(1);
    step_until(&mut h, "the hint", |app| app.move_evals.len() == 4);
    // (the start position is in the opening book)
    let d3 = h.get_by_label("d3").value().unwrap();
    assert!(d3.contains("(book)"), "{d3}");
    // White to move: values come by themselves
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "White's values", |app| app.move_evals.len() == 3);
    assert_eq!(h.state().settings.evals_for, okapi_app::EvalsFor::White);
}

#[test]
fn a_clock_runs_for_the_side_to_move() {
    let mut h = harness();
    h.state_mut().apply(Command::NewGame {
        black: Seat::Human,
        white: Seat::Human,
        minutes: 5,
        from_here: false,
    });
    h.run_steps(2);
    assert!(h.query_by_label_contains("Clock:").is_some());
    std::thread::sleep(Duration::from_millis(1100));
    h.run_steps(1);
    // Black's time runs, White's does not (no upper bound on how long a step takes)
    assert!(has_label(&h, "White 5:00"));
    assert!(!has_label(&h, "Black 5:00"));
    h.get_by_label("f5").click();
    h.run_steps(2);
    let black_left = text_of(&h.get_by_label_contains("Black 4:"));
    std::thread::sleep(Duration::from_millis(1100));
    h.run_steps(1);
    assert!(
        has_label(&h, &black_left),
        "Black's clock stopped at {black_left}"
    );
    assert!(!has_label(&h, "White 5:00"));
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

#[test]
fn flipping_the_view_turns_the_board() {
    let mut h = harness();
    let a1 = h.get_by_label("a1").rect();
    let h8 = h.get_by_label("h8").rect();
    assert!(a1.center().x < h8.center().x && a1.center().y < h8.center().y);
    h.state_mut().apply(Command::FlipView);
    h.run_steps(2);
    let a1 = h.get_by_label("a1").rect();
    let h8 = h.get_by_label("h8").rect();
    assert!(a1.center().x > h8.center().x && a1.center().y > h8.center().y);
}

#[test]
fn the_engine_can_be_asked_to_move_from_an_earlier_position() {
    let mut h = harness();
    let level = h.state().settings.level;
    new_game(&mut h, Seat::Human, Seat::Engine(level));
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply", |app| app.game().ply() == 2);
    // back to before the reply: the engine waits, since a reply is recorded
    h.state_mut().apply(Command::GoTo(1));
    h.run_steps(4);
    assert_eq!(h.state().game().ply(), 1);
    h.get_by_label("Let the engine move").click();
    h.run_steps(1);
    // (the live analysis of Black's reply then runs on: the engine stays busy)
    step_until(&mut h, "the engine's move", |app| app.game().ply() == 2);
    assert!(has_label(&h, "Move 3: Black to move"));
}

#[test]
fn opening_book_values_are_tagged_book() {
    let mut h = harness();
    h.state_mut().settings.book = true;
    h.state_mut().apply(Command::GoTo(0));
    // The start position is in the book: its four moves get book values at once.
    step_until(&mut h, "book values on the four first moves", |app| {
        app.move_evals.len() == 4
            && app
                .move_evals
                .values()
                .all(|e| e.source == EvalSource::Book)
    });
    let f5 = h.get_by_label("f5").value().unwrap();
    assert!(f5.contains("book"), "{f5}");
    // The live search goes on for the moves, but never replaces a book value.
    h.run_steps(20);
    assert!(
        h.state()
            .move_evals
            .values()
            .all(|e| e.source == EvalSource::Book)
    );
}

#[test]
fn live_midgame_values_deepen_on_every_move() {
    let mut h = harness();
    // This is about the search: without the book's values.
    h.state_mut().settings.book = false;
    h.state_mut().apply(Command::GoTo(0));
    // Start position: far above the solver's reach, so the midgame search values the moves.
    step_until(&mut h, "depth-4 values on all four moves", |app| {
        app.move_evals.len() == 4
            && app.move_evals.values().all(
                |e| matches!(e.source, EvalSource::Midgame { depth, confidence: 95 } if depth >= 4),
            )
    });
    // each square names its value and source, the status line the line, depth and speed
    let d3 = h.get_by_label("d3").value().unwrap();
    assert!(d3.contains("@95%)"), "{d3}");
    let status = h
        .query_by_label_contains("Engine: depth ")
        .map(|n| text_of(&n))
        .expect("the status line shows the search");
    assert!(status.contains("@95%:"), "{status}");
    assert!(status.contains("Mn/s"), "{status}");
    // the values keep getting deeper while nobody moves
    let deepest = |app: &App| {
        app.move_evals
            .values()
            .filter_map(|e| match e.source {
                EvalSource::Midgame { depth, .. } => Some(depth),
                _ => None,
            })
            .min()
            .unwrap_or(0)
    };
    let now = deepest(h.state());
    step_until(&mut h, "a deeper iteration", |app| deepest(app) > now);
    // a move starts a new analysis of the new position
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "values for White's three moves", |app| {
        app.move_evals.len() == 3
    });
}

#[test]
fn a_weakened_engine_shows_its_lines() {
    let mut h = harness();
    h.state_mut().settings.level = okapi_core::search::level::Level::parse("3t4").unwrap();
    let level = h.state().settings.level;
    new_game(&mut h, Seat::Human, Seat::Engine(level));
    h.run_steps(2);
    assert_eq!(h.state().game().white, "Okapi (level 3t4)");
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply", |app| app.game().ply() == 2);
    h.get_by_label("Show the engine's lines").click();
    h.run_steps(2);
    let played = h
        .query_by_label_contains("(played)")
        .map(|n| text_of(&n))
        .expect("the move played is among the lines");
    let reply = h.state().game().moves()[1].to_string();
    assert!(played.starts_with(&reply), "{played} vs {reply}");
    // take-back: undo returns to Black's move, before the engine's reply
    h.get_by_label("Undo").click();
    h.run_steps(2);
    assert_eq!(h.state().game().ply(), 0);
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
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label_contains("Open script...").click();
    h.run_steps(4);
    assert!(has_label(&h, "3 positions, 1 bad line"));
    // the bad line is listed with its number and reason
    assert!(h.query_by_label_contains("line 4: ").is_some());
    // not solved yet: nothing to save
    assert!(h.state().script.as_ref().unwrap().output().is_none());
    h.get_by_label("with lines").click();
    h.run_steps(2);
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
    h.get_by_label("Save result...").click();
    h.run_steps(2);
    let app_file = std::fs::read(&saved).unwrap();
    let cli_file = command_line_output(&input, &dir.join("cli.txt"), &["-line", "1"]);
    assert_eq!(
        String::from_utf8_lossy(&app_file),
        String::from_utf8_lossy(&cli_file)
    );
    assert_eq!(app_file, cli_file);
    // WLD without lines: the options clear the results; solved again, the same file too
    h.get_by_label("win/draw/loss").click();
    h.get_by_label("with lines").click();
    h.run_steps(2);
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
    h.get_by_label("Solve").click();
    h.run_steps(2);
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
fn the_game_clock_sets_the_engine_time() {
    let mut h = harness();
    // Level 60 would search to the end, for hours; the clock's share is a few seconds.
    // (Level 30 was not enough: with Multi-ProbCut the search reaches depth 30 at 59
    // empties in about 2.5 s here, as long as the clock gave it.) The book is off: its
    // moves take no time, and this is about the search's.
    h.state_mut().settings.level = okapi_core::search::level::Level::numbered(60);
    h.state_mut().settings.book = false;
    let level = h.state().settings.level;
    h.state_mut().apply(Command::NewGame {
        black: Seat::Human,
        white: Seat::Engine(level),
        minutes: 1,
        from_here: false,
    });
    h.run_steps(2);
    assert!(h.state().engine_move_time().is_some());
    h.get_by_label("f5").click();
    h.run_steps(2);
    let allotted = h.state().engine_move_time().expect("a clock runs");
    assert!(
        allotted <= Duration::from_secs(20) && allotted > Duration::ZERO,
        "at most a third of the minute: {allotted:?}"
    );
    assert!(h.query_by_label_contains("by the clock").is_some());
    step_until(&mut h, "the engine's reply", |app| app.game().ply() == 2);
    let eval = h.state().game().evals()[1].expect("the engine's move has a value");
    let EvalSource::Midgame { depth, .. } = eval.source else {
        panic!("{eval:?}")
    };
    assert!(
        (1..59).contains(&depth),
        "the clock cut the search before the end: depth {depth}"
    );
    // Without a clock there is no allotment.
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(3);
    h.get_by_label("Discard").click();
    h.run_steps(2);
    assert_eq!(h.state().engine_move_time(), None);
}

#[test]
fn help_lists_the_keyboard_shortcuts() {
    let mut h = harness();
    h.get_by_label("Help").click();
    h.run_steps(2);
    h.get_by_label("Keyboard shortcuts").click();
    h.run_steps(4);
    assert!(has_label(&h, "Open an endgame script"));
    assert!(has_label(&h, "Stop the engine"));
    assert!(has_label(&h, "Esc") || has_label(&h, "Escape"));
}

/// Percentile `p` of `v` (sorted in place).
fn percentile(v: &mut [Duration], p: usize) -> Duration {
    v.sort();
    v.get(v.len().saturating_sub(1) * p / 100)
        .copied()
        .unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// The responsiveness figures of docs/development.md: frame time while the engine searches, time
/// from a move to the first values on the board, time for Stop to take effect. A
/// benchmark, not a test: it prints and asserts nothing about time.
///
///     cargo test --release --test app responsiveness -- --ignored --nocapture
#[test]
#[ignore = "benchmark: prints the responsiveness figures"]
fn responsiveness() {
    let mut h = harness();
    // 1. Frames at 60 Hz for 5 s while the live analysis of the start position deepens.
    h.state_mut().metrics.clear_frames();
    let mut steps = Vec::new();
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        let t = Instant::now();
        h.step();
        steps.push(t.elapsed());
        std::thread::sleep(Duration::from_millis(16));
    }
    let busy = h.state().engine_busy();
    let app_frames = (
        h.state().metrics.frame_percentile(50),
        h.state().metrics.frame_percentile(99),
    );
    let n = steps.len();
    println!(
        "frames while the engine searches ({n} frames, engine busy at the end: {busy}):\n  \
         app's frame build p50 {} p99 {}; whole egui frame (kittest step, no GPU) p50 {} p99 {} max {}",
        ms(app_frames.0),
        ms(app_frames.1),
        ms(percentile(&mut steps, 50)),
        ms(percentile(&mut steps, 99)),
        ms(percentile(&mut steps, 100)),
    );

    // 2. Move to first values: 30 moves (the first legal square each time), frames as fast
    // as they come, from the click to the frame that shows a value.
    let mut firsts = Vec::new();
    for _ in 0..30 {
        let pos = h.state().game().position();
        if pos.is_game_over() {
            break;
        }
        let sq = pos.legal_moves().iter().next().unwrap();
        h.get_by_label(&sq.to_string()).click();
        let clicked = Instant::now();
        h.step();
        while h.state().move_evals.is_empty() && !h.state().game().position().is_game_over() {
            assert!(clicked.elapsed() < Duration::from_secs(30), "no value came");
            std::thread::sleep(Duration::from_micros(500));
            h.step();
        }
        firsts.push(clicked.elapsed());
    }
    let n = firsts.len();
    println!(
        "move to first value on the board ({n} moves): p50 {} p99 {} max {}",
        ms(percentile(&mut firsts, 50)),
        ms(percentile(&mut firsts, 99)),
        ms(percentile(&mut firsts, 100)),
    );

    // 3. Stop: long solves (FFO 50-59, 26-30 empties), stopped after 0.3 s of search; from
    // the click on Stop to the frame where the engine is idle.
    let ffo = include_str!("data/ffo40-59.scr");
    let mut stops = Vec::new();
    let mut engine_side = Vec::new();
    h.state_mut().settings.show_evals = false;
    let tmp = temp_dir("responsiveness");
    let dir = tmp.path();
    for line in ffo.lines().filter(|l| !l.starts_with('%')).skip(10) {
        let path = dir.join("stop.json");
        Game::new(Position::parse(line).unwrap())
            .save(&path)
            .unwrap();
        h.state_mut().apply(Command::OpenPath(path));
        h.run_steps(2);
        h.get_by_label("Solve exact").click();
        h.run_steps(2);
        // past the warning every long solve gets first
        if h.query_by_label("Solve anyway").is_some() {
            h.get_by_label("Solve anyway").click();
        }
        h.step();
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            h.step();
            std::thread::sleep(Duration::from_millis(16));
        }
        if !h.state().engine_busy() {
            continue; // solved already: nothing to stop
        }
        h.get_by_label("Stop").click();
        let clicked = Instant::now();
        h.step();
        while h.state().engine_busy() {
            std::thread::sleep(Duration::from_micros(500));
            h.step();
        }
        stops.push(clicked.elapsed());
        engine_side.extend(h.state().metrics.stop_latency);
    }
    let n = stops.len();
    println!(
        "Stop to engine idle on the board ({n} solves): p50 {} p99 {} max {}; \
         the app's own figure (Stop asked to Stopped received) max {}",
        ms(percentile(&mut stops, 50)),
        ms(percentile(&mut stops, 99)),
        ms(percentile(&mut stops, 100)),
        ms(percentile(&mut engine_side, 100)),
    );
}

/// Plays `moves` for Black against a greedy White, waiting for each reply.
fn play_against_greedy(h: &mut Harness<'static, App>, moves: usize) {
    for n in 0..moves {
        let sq = h
            .state()
            .game()
            .position()
            .legal_moves()
            .iter()
            .next()
            .unwrap();
        h.get_by_label(&sq.to_string()).click();
        h.run_steps(1);
        step_until(h, "the engine's reply", |app| {
            app.game().ply() >= 2 * (n + 1)
        });
    }
}

#[test]
fn against_the_engine_undo_and_redo_mirror_each_other() {
    let mut h = harness();
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Greedy));
    h.run_steps(2);
    play_against_greedy(&mut h, 3);
    assert_eq!(h.state().game().ply(), 6);
    // Undo takes back the engine's reply and the move before it; redo replays both.
    for expected in [4, 2, 0] {
        h.state_mut().apply(Command::Undo);
        h.run_steps(1);
        assert_eq!(h.state().game().ply(), expected);
    }
    for expected in [2, 4, 6] {
        h.state_mut().apply(Command::Redo);
        h.run_steps(1);
        assert_eq!(h.state().game().ply(), expected);
    }
    // Review is not play: back inside the game the engine does not move by itself.
    h.state_mut().apply(Command::GoTo(3));
    for _ in 0..20 {
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(h.state().game().ply(), 3);
    assert_eq!(h.state().game().len(), 6);
}

#[test]
fn a_different_move_after_undo_is_the_game_and_the_old_line_a_variation() {
    let mut h = harness();
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Greedy));
    h.run_steps(2);
    play_against_greedy(&mut h, 2);
    let main_line = h.state().game().main_line();
    h.state_mut().apply(Command::Undo);
    h.run_steps(1);
    assert_eq!(h.state().game().ply(), 2);
    // Another move than the one played: a variation, and the engine answers it.
    let played = main_line[2];
    let other = h
        .state()
        .game()
        .position()
        .legal_moves()
        .iter()
        .map(okapi_core::board::Move::Play)
        .find(|&m| m != played)
        .unwrap();
    h.get_by_label(&other.to_string()).click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply in the variation", |app| {
        app.game().ply() == 4
    });
    // The game played on is the main line; the old continuation is kept beside it.
    assert_eq!(h.state().game().main_line()[2], other);
    assert!(h.state().game().on_main_line());
    assert_eq!(h.state().game().alternatives(2), vec![other, played]);
    // The old line can still become the main line again.
    h.state_mut().apply(Command::ChooseVariation(2, played));
    h.state_mut().apply(Command::PromoteLine);
    assert_eq!(h.state().game().main_line(), main_line);
}

#[test]
fn a_new_game_from_a_set_up_position_against_the_engine_is_saved_with_its_players() {
    let tmp = temp_dir("from-here");
    let path = tmp.path().join("g.json");
    let mut h = harness();
    // Play to a position, then start a new game from it with Okapi as Black.
    h.get_by_label("f5").click();
    h.run_steps(1);
    h.get_by_label("d6").click();
    h.run_steps(1);
    let here = h.state().game().position();
    h.state_mut().apply(Command::NewGame {
        black: Seat::Engine(Level::Greedy),
        white: Seat::Human,
        minutes: 0,
        from_here: true,
    });
    h.run_steps(1);
    // The game goes on from here: the two moves stay.
    assert_eq!(h.state().game().position(), here);
    assert_eq!(h.state().game().ply(), 2);
    step_until(&mut h, "the engine's move as Black", |app| {
        app.game().ply() == 3
    });
    h.state_mut().apply(Command::SaveTo(path.clone()));
    // Reopened: the same players, the engine's turn again after a take-back.
    let mut h2 = harness();
    h2.state_mut().apply(Command::OpenPath(path));
    h2.run_steps(1);
    assert_eq!(h2.state().session.seats()[0], Seat::Engine(Level::Greedy));
    assert_eq!(h2.state().game().position_at(2), here);
}

#[test]
fn arrow_keys_step_through_the_move_list() {
    let mut h = harness();
    h.event(eframe::egui::Event::Paste("f5 d6 c3 d3".into()));
    h.run_steps(2);
    assert_eq!(h.state().game().ply(), 4);
    h.key_press(eframe::egui::Key::ArrowLeft);
    h.run_steps(1);
    h.key_press(eframe::egui::Key::ArrowLeft);
    h.run_steps(1);
    assert_eq!(h.state().game().ply(), 2);
    h.key_press(eframe::egui::Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(h.state().game().ply(), 3);
    // The move list shows numbered rows with both colours; the current move is marked.
    assert!(h.query_by_label_contains("3. c3").is_some());
    assert!(h.query_by_label("Black moves").is_some());
    h.key_press(eframe::egui::Key::Home);
    h.run_steps(1);
    assert_eq!(h.state().game().ply(), 0);
}

#[test]
fn debug_items_are_hidden_until_the_debug_setting() {
    let mut h = harness();
    assert!(!h.state().settings.debug, "off by default");
    // no frame times in the status bar, no crash test in the Help menu
    assert!(h.query_by_label_contains("UI frame").is_none());
    h.get_by_label("Help").click();
    h.run_steps(2);
    assert!(h.query_by_label("Test the engine's error report").is_none());
    // the setting is in the Help menu, and shows both
    h.get_by_label("Debug").click();
    h.run_steps(2);
    assert!(h.state().settings.debug);
    if h.query_by_label("Test the engine's error report").is_none() {
        // (the click closed the menu)
        h.get_by_label("Help").click();
        h.run_steps(2);
    }
    assert!(h.query_by_label("Test the engine's error report").is_some());
    assert!(h.query_by_label_contains("UI frame").is_some());
    // and it is saved with the settings
    let json = serde_json::to_string(&h.state().settings).unwrap();
    assert!(json.contains("\"debug\":true"), "{json}");
}

#[test]
fn value_labels_carry_how_they_compare_with_the_best() {
    let tmp = temp_dir("classes");
    let path = ffo1_json(tmp.path());
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    let legal = h.state().game().position().legal_moves().len() as usize;
    step_until(&mut h, "exact values of every move", |app| {
        app.move_evals.len() == legal
            && app
                .move_evals
                .values()
                .all(|e| e.source == EvalSource::Exact)
    });
    // FFO #1: g8 +18 is the best; every other move loses more than two discs
    assert_eq!(
        h.get_by_label("g8").value().as_deref(),
        Some("legal move, +18 (exact), best")
    );
    let evals = h.state().move_evals.clone();
    for (sq, e) in &evals {
        let v = h.get_by_label(&sq.to_string()).value().unwrap();
        let class = match 18 - e.value {
            0 => "best",
            1..=2 => "within 2 discs",
            _ => "losing more",
        };
        assert!(v.ends_with(class), "{sq}: {v}");
    }
    // "best 1 only": the other legal moves show a plain mark
    h.state_mut().settings.best_only = 1;
    h.run_steps(2);
    assert!(h.get_by_label("g8").value().unwrap().ends_with("best"));
    let others: Vec<String> = evals
        .keys()
        .filter(|s| s.to_string() != "g8")
        .map(|s| h.get_by_label(&s.to_string()).value().unwrap())
        .collect();
    assert!(others.iter().all(|v| v == "legal move"), "{others:?}");
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
    h.get_by_label("Dismiss").click();
    h.run_steps(2);
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
    h.get_by_label("File").click();
    h.run_steps(2);
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
fn engine_moves_pause_only_between_two_engines() {
    let mut h = harness();
    assert_eq!(h.state().engine_move_delay(), Duration::ZERO);
    for c in [
        okapi_core::board::Color::Black,
        okapi_core::board::Color::White,
    ] {
        h.state_mut()
            .session
            .set_seat(c, Seat::Engine(Level::Random));
    }
    assert_eq!(h.state().engine_move_delay(), Duration::from_millis(500));
    h.state_mut().settings.engine_move_pause = 0.0;
    assert_eq!(h.state().engine_move_delay(), Duration::ZERO);
    h.state_mut()
        .session
        .set_seat(okapi_core::board::Color::Black, Seat::Human);
    h.state_mut().settings.engine_move_pause = 2.0;
    assert_eq!(h.state().engine_move_delay(), Duration::ZERO);
    // Two engines play at that pace: ten moves take at least nine pauses.
    h.state_mut().settings.engine_move_pause = 0.05;
    new_game(
        &mut h,
        Seat::Engine(Level::Random),
        Seat::Engine(Level::Random),
    );
    let started = Instant::now();
    step_until(&mut h, "ten engine moves", |app| app.game().ply() >= 10);
    assert!(
        started.elapsed() >= Duration::from_millis(9 * 50),
        "{:?}",
        started.elapsed()
    );
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

#[test]
fn the_threads_setting_is_shown_saved_and_used() {
    let dir = temp_dir("threads");
    let path = dir.path().join("settings.json");
    let mut h = harness();
    h.state_mut().use_settings_file(&path);
    let cores = okapi_core::search::available_threads();
    assert_eq!(
        h.state().settings.threads,
        cores,
        "all the cores by default"
    );
    h.get_by_role_and_label(eframe::egui::Role::Button, "Engine")
        .click();
    h.run_steps(2);
    assert!(has_label(&h, &format!("of {cores} cores")));
    h.get_by_label("Threads:").set_value_accesskit(1.0);
    h.run_steps(2);
    assert_eq!(h.state().settings.threads, 1);
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["threads"], 1, "{saved}");
    // 0 is not a number of threads: the field stays at 1 or more.
    h.get_by_label("Threads:").set_value_accesskit(0.0);
    h.run_steps(2);
    assert_eq!(h.state().settings.threads, 1);
    // The engine, configured with the new count, still answers.
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Random));
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply on one thread", |app| {
        app.game().ply() == 2
    });
    // A restarted app reads the setting back.
    let mut again = harness();
    again.state_mut().use_settings_file(&path);
    assert_eq!(again.state().settings.threads, 1);
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

// --- Issue 26: the game rules the app follows ------------------------------------------

/// Plays a game against the greedy engine to its end, the person taking the first legal
/// move each turn.
fn play_to_the_end_against_greedy(h: &mut Harness<'static, App>) {
    while !h.state().game().position().is_game_over() {
        let game = h.state().game();
        let position = game.position();
        if h.state().session.seat_to_move().is_engine() {
            let ply = game.ply();
            step_until(h, "the engine's move", |app| {
                app.game().ply() > ply || app.game().position().is_game_over()
            });
            continue;
        }
        let sq = position.legal_moves().iter().next().unwrap();
        h.get_by_label(&sq.to_string()).click();
        h.run_steps(2);
    }
}

#[test]
fn a_game_played_on_after_undo_is_saved_as_played_and_nothing_is_dropped_unasked() {
    let tmp = temp_dir("played-on");
    let ggf = tmp.path().join("game.ggf");
    let json = tmp.path().join("game.json");
    let mut h = harness_with(ScriptedDialogs {
        save: vec![json.clone()],
        ..Default::default()
    });
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Greedy));
    h.run_steps(2);
    play_against_greedy(&mut h, 3);
    let abandoned = h.state().game().moves();
    // Take back the engine's reply and the move before it, play another move, play on.
    h.state_mut().apply(Command::Undo);
    h.run_steps(1);
    assert_eq!(h.state().game().ply(), 4);
    let other = h
        .state()
        .game()
        .position()
        .legal_moves()
        .iter()
        .map(okapi_core::board::Move::Play)
        .find(|&m| m != abandoned[4])
        .unwrap();
    h.get_by_label(&other.to_string()).click();
    h.run_steps(2);
    play_to_the_end_against_greedy(&mut h);
    let played = h.state().game().moves();
    let (b, w) = h.state().game().result().expect("the game is over");
    assert_eq!(
        h.state().game().main_line(),
        played,
        "the game played is the game"
    );
    assert_eq!(h.state().game().alternatives(4), vec![other, abandoned[4]]);
    // GGF keeps one line: the one played, with its result, and the status says so.
    h.state_mut().apply(Command::SaveTo(ggf.clone()));
    h.run_steps(2);
    let notice = text_of(&h.get_by_label_contains("Saved the line on the board"));
    assert!(notice.contains(&format!("result {b}-{w}")), "{notice}");
    assert!(notice.contains("GGF keeps one line"), "{notice}");
    let text = std::fs::read_to_string(&ggf).unwrap();
    let back = okapi_core::formats::load_game(&ggf).unwrap();
    assert_eq!(back.main_line(), played, "{text}");
    assert!(
        text.contains(&format!("RE[{:+}]", b as i32 - w as i32)),
        "{text}"
    );
    // The variation is in no file yet: opening another game asks first.
    h.state_mut()
        .apply(Command::OpenPath(tmp.path().join("missing.json")));
    h.run_steps(2);
    assert!(has_label(&h, "Unsaved changes"));
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!has_label(&h, "Unsaved changes"));
    assert_eq!(h.state().game().moves(), played, "nothing replaced");
    // Quit asks too; Save writes every line (Okapi JSON), then the command goes on.
    h.state_mut().apply(Command::Quit);
    h.run_steps(2);
    assert!(has_label(&h, "Unsaved changes"));
    h.get_by_label("Save").click();
    h.run_steps(3);
    let saved = okapi_core::formats::load_game(&json).unwrap();
    assert_eq!(saved.main_line(), played);
    assert_eq!(saved.tree_size(), h.state().game().tree_size());
    assert!(!h.state().has_unsaved_changes());
    // Discard lets a game go, once asked.
    let before = h.state().game().tree_size();
    // Back to a turn of the person's with a choice of moves.
    let game = h.state().game().clone();
    let choice = (0..game.len())
        .rev()
        .find(|&p| {
            let position = game.position_at(p);
            position.side_to_move() == okapi_core::board::Color::Black
                && position.legal_moves().len() >= 2
        })
        .expect("a turn with a choice");
    h.state_mut().apply(Command::GoTo(choice));
    h.state_mut().apply(Command::NextMoveAsVariation);
    let here = h.state().game().position();
    let side_line = here
        .legal_moves()
        .iter()
        .find(|&sq| {
            Some(okapi_core::board::Move::Play(sq))
                != h.state().game().move_at(h.state().game().ply())
        })
        .unwrap();
    h.get_by_label(&side_line.to_string()).click();
    h.run_steps(2);
    assert_eq!(h.state().game().main_line(), played, "added as a variation");
    assert!(h.state().game().tree_size() > before);
    h.state_mut().apply(Command::Paste("f5 d6".into()));
    h.run_steps(2);
    assert!(has_label(&h, "Unsaved changes"));
    h.get_by_label("Discard").click();
    h.run_steps(2);
    assert_eq!(h.state().game().transcript(), "f5d6");
}

#[test]
fn set_up_and_pasted_positions_are_studied_and_a_new_game_from_a_point_keeps_its_moves() {
    let mut h = harness();
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Greedy));
    h.run_steps(2);
    // Set-up: both seats human, the engine does not move by itself.
    h.state_mut().apply(Command::EnterSetup);
    h.state_mut()
        .apply(Command::SetupSide(okapi_core::board::Color::White));
    h.state_mut().apply(Command::SetupDone);
    for _ in 0..20 {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(h.state().session.seats(), [Seat::Human; 2]);
    assert_eq!(h.state().game().ply(), 0, "the engine did not move");
    assert!(
        h.query_by_label_contains("for analysis: you play both sides")
            .is_some()
    );
    // A pasted board: the same.
    new_game(&mut h, Seat::Engine(Level::Greedy), Seat::Human);
    step_until(&mut h, "the engine's first move", |app| {
        app.game().ply() == 1
    });
    let board = Position::start().to_board_string();
    h.event(eframe::egui::Event::Paste(board));
    h.run_steps(3);
    // The engine's move is in no file: the paste asks first.
    h.get_by_label("Discard").click();
    h.run_steps(2);
    assert_eq!(h.state().session.seats(), [Seat::Human; 2]);
    for _ in 0..20 {
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(h.state().game().ply(), 0, "the engine did not move");
    // A new game from move 6 of an opened game keeps the five moves and their numbers.
    let tmp = temp_dir("from-a-point");
    let path = tmp.path().join("g.json");
    let game = okapi_core::formats::read_game("f5 d6 c3 d3 c4 f4 f6 f3 e6 e7").unwrap();
    game.save(&path).unwrap();
    h.state_mut().apply(Command::OpenPath(path));
    h.state_mut().apply(Command::GoTo(5));
    h.state_mut().apply(Command::NewGame {
        black: Seat::Human,
        white: Seat::Engine(Level::Greedy),
        minutes: 0,
        from_here: true,
    });
    h.run_steps(3);
    // The later moves are in the file: nothing to ask.
    assert!(!has_label(&h, "Unsaved changes"));
    step_until(&mut h, "the engine's move 6", |app| app.game().ply() == 6);
    assert_eq!(
        h.state().game().moves()[..5],
        game.moves()[..5],
        "the moves that led here stay"
    );
    assert!(h.query_by_label_contains("5. c4").is_some());
    assert!(h.query_by_label_contains("6. ").is_some());
    assert_eq!(h.state().game().start(), Position::start());
}

#[test]
fn one_best_mark_and_book_moves_valued_by_the_book() {
    use okapi_core::board::Square;
    use okapi_core::game::Eval;
    let mut h = harness();
    h.state_mut().settings.show_evals = false;
    h.state_mut().apply(Command::GoTo(0));
    h.run_steps(2);
    // Values of mixed sources: the gold frame goes only where the highest value is.
    let sq = |s: &str| Square::parse(s).unwrap();
    let book = |value| Eval {
        value,
        source: EvalSource::Book,
    };
    let search = |value| Eval {
        value,
        source: EvalSource::Midgame {
            depth: 12,
            confidence: 95,
        },
    };
    let evals = &mut h.state_mut().move_evals;
    evals.insert(sq("d3"), book(0));
    evals.insert(sq("c4"), book(0));
    evals.insert(sq("f5"), search(2));
    evals.insert(sq("e6"), search(1));
    h.run_steps(2);
    let value = |h: &Harness<'static, App>, s: &str| h.get_by_label(s).value().unwrap();
    assert!(value(&h, "f5").ends_with(", best"), "{}", value(&h, "f5"));
    for s in ["d3", "c4", "e6"] {
        assert!(!value(&h, s).ends_with(", best"), "{s}: {}", value(&h, s));
    }
    // The game analysis values book moves by the book: the Tiger (f5 d6 c3) loses
    // nothing where the book says its moves are equal.
    h.state_mut().settings.show_evals = true;
    h.event(eframe::egui::Event::Paste("f5 d6 c3 d3 c4".into()));
    h.run_steps(2);
    h.state_mut().apply(Command::AnalyseGame);
    h.run_steps(1);
    step_until(&mut h, "the game analysis", |app| !app.engine_busy());
    let game = h.state().game().clone();
    let shipped = okapi_core::book::shipped();
    let mut marks = 0;
    for i in 0..game.len() {
        let board = game.position_at(i).board();
        let moves = shipped.moves(&board);
        let played = match game.move_at(i) {
            Some(okapi_core::board::Move::Play(s)) => s,
            _ => continue,
        };
        let rounded = |v: i32| (v as f64 / okapi_core::search::SCALE as f64).round() as i32;
        let cell = text_of(&h.get_by_label_contains(&format!("{}. {played}", i + 1)));
        let Some(m) = moves.iter().find(|m| m.square == played) else {
            continue;
        };
        assert_eq!(game.eval_at(i).map(|e| e.source), Some(EvalSource::Book));
        let loss = rounded(moves[0].value) - rounded(m.value);
        assert_eq!(
            cell.contains('?'),
            loss > 0,
            "ply {}: {cell}, book loss {loss}",
            i + 1
        );
        marks += usize::from(cell.contains('?'));
    }
    // The summary counts the moves marked.
    let lost: usize = [
        okapi_core::board::Color::Black,
        okapi_core::board::Color::White,
    ]
    .iter()
    .map(|side| {
        let text = h
            .query_all_by_label_contains(&format!("{}: ", side.name()))
            .map(|n| text_of(&n))
            .find(|t| t.contains("lost"))
            .expect("the summary line");
        text.split(" in ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(0)
    })
    .sum();
    assert_eq!(lost, marks);
}

#[test]
fn the_live_analysis_stops_at_its_depth_and_starts_again_on_a_change() {
    let mut h = harness();
    h.state_mut().settings.analysis_depth = 6;
    // Out of the book and far from the end: the midgame search values the moves.
    h.state_mut().settings.book = false;
    h.event(eframe::egui::Event::Paste(
        "f5 f6 e6 f4 e3 c5 c4 d3 c3 e2".into(),
    ));
    h.run_steps(2);
    step_until(&mut h, "the analysis to stop by itself", |app| {
        !app.engine_busy()
    });
    assert!(
        h.query_by_label_contains("analysis complete at depth 6")
            .is_some()
    );
    let legal = h.state().game().position().legal_moves().len() as usize;
    assert_eq!(h.state().move_evals.len(), legal);
    // A move: the analysis starts again for the new position.
    let sq = h
        .state()
        .game()
        .position()
        .legal_moves()
        .iter()
        .next()
        .unwrap();
    h.get_by_label(&sq.to_string()).click();
    h.run_steps(2);
    assert!(h.state().engine_busy());
    step_until(&mut h, "the new analysis to stop", |app| !app.engine_busy());
    assert!(
        h.query_by_label_contains("analysis complete at depth 6")
            .is_some()
    );
}

#[test]
fn clicks_while_the_engine_is_to_move_are_not_moves_and_every_key_press_counts() {
    let mut h = harness();
    // Black's only move here is h6, then White (the person) has f4. The engine takes a
    // second a move and has no book here: it is to move for a while.
    h.state_mut().settings.book = false;
    h.event(eframe::egui::Event::Paste("f5 f6 f7 g7 c4 f8 h8 h7".into()));
    h.run_steps(2);
    h.state_mut().apply(Command::NewGame {
        black: Seat::Engine(Level::parse("1s").unwrap()),
        white: Seat::Human,
        minutes: 0,
        from_here: true,
    });
    h.run_steps(1);
    assert_eq!(h.state().game().ply(), 8);
    assert!(h.state().engine_busy());
    // A click now is refused, with a cue.
    h.get_by_label("c3").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("Okapi is to move").is_some());
    // A press made before the engine's move shows, released after it, is not a move.
    let pos = h.get_by_label("f4").rect().center();
    h.input_mut()
        .events
        .push(eframe::egui::Event::PointerMoved(pos));
    h.input_mut()
        .events
        .push(eframe::egui::Event::PointerButton {
            pos,
            button: eframe::egui::PointerButton::Primary,
            pressed: true,
            modifiers: Default::default(),
        });
    h.step();
    assert_eq!(h.state().game().ply(), 8, "the engine is still thinking");
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.state().game().ply() < 9 {
        assert!(Instant::now() < deadline, "the engine's move");
        // Waits in real time without frames: the press stays short in input time.
        std::thread::sleep(Duration::from_millis(20));
        h.state_mut().poll_engine();
    }
    h.step();
    assert_eq!(h.get_by_label("h6").value().as_deref(), Some("black disc"));
    assert!(
        h.get_by_label("f4")
            .value()
            .unwrap()
            .starts_with("legal move")
    );
    h.input_mut()
        .events
        .push(eframe::egui::Event::PointerButton {
            pos,
            button: eframe::egui::PointerButton::Primary,
            pressed: false,
            modifiers: Default::default(),
        });
    h.run_steps(2);
    assert_eq!(
        h.state().game().ply(),
        9,
        "the click begun before the engine's move is not played"
    );
    assert!(
        h.query_by_label_contains("Not played: the click on f4")
            .is_some()
    );
    // A click made now is.
    h.get_by_label("f4").click();
    h.run_steps(2);
    assert_eq!(h.state().game().ply(), 10);
    // Fourteen presses of Right in one frame step fourteen plies.
    h.state_mut().apply(Command::Paste(
        "e6 d6 c6 f6 c4 b6 f7 c3 c2 b2 d7 c7 a2 b4 d3 e3 a6 b7 a7 e7".into(),
    ));
    h.run_steps(2);
    if h.query_by_label("Unsaved changes").is_some() {
        h.get_by_label("Discard").click();
        h.run_steps(2);
    }
    assert_eq!(h.state().game().len(), 20);
    h.state_mut().apply(Command::First);
    h.run_steps(1);
    for _ in 0..14 {
        h.input_mut().events.push(eframe::egui::Event::Key {
            key: eframe::egui::Key::ArrowRight,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Default::default(),
        });
    }
    h.step();
    h.run_steps(1);
    assert_eq!(h.state().game().ply(), 14);
}

#[test]
fn proven_lines_are_whole_numbered_and_copyable() {
    let tmp = temp_dir("proven-lines");
    let path = ffo1_json(tmp.path());
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    h.get_by_label("Solve exact").click();
    h.run_steps(1);
    step_until(&mut h, "the solve", |app| !app.engine_busy());
    let position = h.state().game().position();
    let first = (position.black_count() + position.white_count() - 3) as usize;
    let line = text_of(&h.get_by_label_contains(&format!("Line: {first}. g8")));
    let moves = line
        .split_whitespace()
        .filter(|w| !w.ends_with('.'))
        .count()
        - 1;
    assert_eq!(moves, position.empty_count() as usize, "{line}");
    assert!(!line.contains('…'), "{line}");
    h.get_by_label("Copy line").click();
    h.run_steps(1);
    h.step();
    let copied = h.output().platform_output.commands.iter().any(|c| {
        matches!(c, eframe::egui::OutputCommand::CopyText(t) if line.ends_with(t.as_str()) && t.starts_with(&format!("{first}. g8")))
    });
    assert!(copied, "{:?}", h.output().platform_output.commands);
}
