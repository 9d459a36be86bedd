//! The app driven as a person would, through egui_kittest and AccessKit labels (no display
//! needed): the board, moves and the engine's replies, undo and variations, set-up, the
//! clock, the game rules the app follows. The other app
//! tests: values and analysis (`app_analysis.rs`), files, scripts and the database
//! (`app_files.rs`), the interface (`app_ui.rs`), openings (`app_openings.rs`), faults
//! (`app_faults.rs`); their harness is `common/app.rs`.
#![cfg(feature = "gui")]

mod common;

use common::app::{
    SaveAs, Steps, first_legal_move, harness, harness_with, has_label, new_game, step_until,
    temp_dir, text_of,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use okapi_app::{App, Command, ScriptedDialogs};
use okapi_core::board::Position;
use okapi_core::game::{EvalSource, Game, Seat};
use okapi_core::level::Level;
use std::time::{Duration, Instant};
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
    h.click_label("f5");
    assert!(has_label(&h, "Black: 4 discs"));
    assert!(has_label(&h, "White: 1 disc"));
    assert!(has_label(&h, "Move 2: White to move"));
    assert_eq!(h.get_by_label("e5").value().as_deref(), Some("black disc"));
    // an illegal square does nothing
    h.click_label("a1");
    assert_eq!(h.state().game().ply(), 1);
    assert_eq!(h.get_by_label("a1").value().as_deref(), Some("empty"));
    // the move list names the move
    assert!(h.query_by_label_contains("1. f5").is_some());
}

#[test]
fn undo_and_redo_buttons() {
    let mut h = harness();
    h.click_label("f5");
    h.click_label("d6");
    assert!(has_label(&h, "Black: 3 discs"));
    assert!(has_label(&h, "White: 3 discs"));
    h.click_label("Undo");
    assert!(has_label(&h, "Black: 4 discs"));
    assert!(has_label(&h, "Move 2: White to move"));
    h.click_label("Redo");
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
    h.click_label("c1");
    assert!(has_label(&h, "Game over: White wins 64-0"));
}

#[test]
fn set_up_a_position_and_play_from_it() {
    let mut h = harness();
    h.click_label("Game");
    h.get_by_label("Set up a position...").click();
    // the closing menu fades out over a few frames before the panel below takes clicks
    h.run_steps(10);
    assert!(has_label(&h, "Set up a position"));
    h.click_label("Clear");
    assert!(has_label(&h, "Black: 0 discs"));
    // a1 white (two clicks), b1 black (one click): Black to move has no move, White c1
    for sq in ["a1", "a1", "b1"] {
        h.click_label(sq);
    }
    assert_eq!(h.get_by_label("a1").value().as_deref(), Some("white disc"));
    assert_eq!(h.get_by_label("b1").value().as_deref(), Some("black disc"));
    h.click_label("White");
    h.get_by_label("Done").click();
    // the side panel changes back from set-up: let its layout settle before clicking
    h.run_steps(4);
    assert_eq!(
        h.state().game().start().to_board_string(),
        format!("OX{} O", "-".repeat(62))
    );
    assert!(has_label(&h, "Move 1: White to move"));
    h.click_label("c1");
    assert!(has_label(&h, "Game over: White wins 64-0"));
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
    h.click_label("f5");
    let black_left = text_of(&h.get_by_label_contains("Black 4:"));
    std::thread::sleep(Duration::from_millis(1100));
    h.run_steps(1);
    assert!(
        has_label(&h, &black_left),
        "Black's clock stopped at {black_left}"
    );
    assert!(!has_label(&h, "White 5:00"));
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
fn the_game_clock_sets_the_engine_time() {
    let mut h = harness();
    // Level 60 would search to the end, for hours; the clock's share is a few seconds.
    // (Level 30 was not enough: with Multi-ProbCut the search reaches depth 30 at 59
    // empties in about 2.5 s here, as long as the clock gave it.) The book is off: its
    // moves take no time, and this is about the search's.
    h.state_mut().settings.level = okapi_core::level::Level::numbered(60);
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
    h.click_label("f5");
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
    h.click_label("Discard");
    assert_eq!(h.state().engine_move_time(), None);
}

/// Plays `moves` for Black against a greedy White, waiting for each reply.
fn play_against_greedy(h: &mut Harness<'static, App>, moves: usize) {
    for n in 0..moves {
        let sq = first_legal_move(h);
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
    // The game goes on from here: the two moves stay (the greedy engine's answer can
    // already have come within that step, so the game is at ply 2 or 3).
    assert_eq!(h.state().game().position_at(2), here);
    assert!((2..=3).contains(&h.state().game().ply()));
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

// --- The game rules the app follows ---------------------------------------------------

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
        h.click_label(&sq.to_string());
    }
    // The values the engine still works out for the last positions land in the record:
    // a save before they come would be overtaken by them.
    step_until(h, "the engine at rest", |app| !app.engine_busy());
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
    h.click_label(&other.to_string());
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
    // Saving every line as Okapi JSON is offered; closed unanswered, the variation is in
    // no file yet: opening another game asks first.
    assert!(has_label(&h, "GGF keeps one line"));
    h.key_press(eframe::egui::Key::Escape);
    h.run_steps(2);
    assert!(!has_label(&h, "GGF keeps one line"));
    h.state_mut()
        .apply(Command::OpenPath(tmp.path().join("missing.json")));
    h.run_steps(2);
    assert!(has_label(&h, "Unsaved changes"));
    h.click_label("Cancel");
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
    h.click_label(&side_line.to_string());
    assert_eq!(h.state().game().main_line(), played, "added as a variation");
    assert!(h.state().game().tree_size() > before);
    h.state_mut().apply(Command::Paste("f5 d6".into()));
    h.run_steps(2);
    assert!(has_label(&h, "Unsaved changes"));
    h.click_label("Discard");
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
    h.click_label("Discard");
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
    h.click_label("c3");
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
    h.click_label("f4");
    assert_eq!(h.state().game().ply(), 10);
    // Fourteen presses of Right in one frame step fourteen plies.
    h.state_mut().apply(Command::Paste(
        "e6 d6 c6 f6 c4 b6 f7 c3 c2 b2 d7 c7 a2 b4 d3 e3 a6 b7 a7 e7".into(),
    ));
    h.run_steps(2);
    if h.query_by_label("Unsaved changes").is_some() {
        h.click_label("Discard");
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

/// A board with no discs pasted replaced the game with an empty board ("Game over: draw
/// 32-32"), which was then autosaved; the board reader refuses it, as everywhere.
#[test]
fn a_board_with_no_discs_pasted_is_refused_and_the_game_kept() {
    let mut h = harness();
    h.state_mut().apply(Command::Paste("f5 d6".into()));
    h.run_steps(2);
    let before = h.state().game().transcript();
    assert_eq!(before, "f5d6");
    for empty in [
        format!("{} X", "-".repeat(64)),
        format!("{}\nBlack to move", ". . . . . . . .\n".repeat(8)),
    ] {
        h.state_mut().apply(Command::Paste(empty.clone()));
        h.run_steps(2);
        assert_eq!(h.state().game().transcript(), before, "{empty}");
        assert!(
            h.query_by_label_contains("the board has no discs")
                .is_some(),
            "{empty}"
        );
        assert!(h.query_by_label_contains("draw 32-32").is_none());
    }
}
