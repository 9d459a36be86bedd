//! Players and files, driven through egui_kittest: a database game and a reopened GGF
//! show their players and tournament (the year once) while the seats say who plays on; a
//! one-line save of a game with variations offers Okapi JSON and the unsaved-changes
//! question comes only for what would be lost; Copy transcript of a set-up position; the
//! file dialogs start in the folder last used; the New game window keeps its buttons in
//! place.
#![cfg(feature = "gui")]

mod common;

use common::app::{Steps, harness, harness_sized, harness_with, has_label, new_game, temp_dir};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use okapi_app::{App, Command, ScriptedDialogs};
use okapi_core::board::{Move, Position, Square};
use okapi_core::game::Seat;
use okapi_core::level::Level;
use std::sync::{Arc, Mutex};

/// The text of every node whose accessible name contains `part`.
fn texts_with(h: &Harness<'static, App>, part: &str) -> Vec<String> {
    h.query_all_by_label_contains(part)
        .map(|n| common::app::text_of(&n))
        .collect()
}

/// Does any label contain `part`?
fn shows(h: &Harness<'static, App>, part: &str) -> bool {
    h.query_by_label_contains(part).is_some()
}

/// A games database of one game: Tastet against Shaman at "World Championship - 2025"
/// (WTHOR's tournament names end with their year), f5 d6 c3 d3 c4.
fn championship_database() -> okapi_core::db::Database {
    use okapi_core::db::{Builder, GameNames};
    use okapi_core::formats::records::GameRecord;
    let mut b = Builder::new();
    let record = GameRecord {
        moves: ["f5", "d6", "c3", "d3", "c4"]
            .iter()
            .map(|s| Square::parse(s).unwrap())
            .collect(),
        black_score: 8,
        theoretical: None,
        year: 2025,
    };
    let names = GameNames {
        black: "Tastet Marc",
        white: "Shaman Brian",
        tournament: "World Championship - 2025",
        source: "test",
    };
    b.add(&record, names).unwrap();
    b.build().unwrap()
}

#[test]
fn a_database_game_shows_its_players_and_the_tournament_once() {
    let mut h = harness();
    h.state_mut()
        .database
        .set_database(championship_database(), Vec::new());
    h.click_label("Database");
    h.run_steps(2);
    h.get_by_label_contains("Tastet Marc – Shaman Brian")
        .click();
    h.run_steps(3);
    h.click_label("Play");
    let notice = texts_with(&h, "from the games database");
    assert_eq!(
        notice,
        ["Opened Tastet Marc – Shaman Brian, World Championship 2025, from the games database."]
    );
    // The record's players, not the seats ("Human / Human"); the year said once.
    assert!(has_label(&h, "Black: Tastet Marc"));
    assert!(has_label(&h, "White: Shaman Brian"));
    assert!(!shows(&h, "Human"), "{:?}", texts_with(&h, "Human"));
    assert!(has_label(
        &h,
        "World Championship 2025 · You play both sides from here"
    ));
    assert!(!shows(&h, "2025 2025"));
    let game = h.state().game();
    assert_eq!(game.event, "World Championship - 2025");
    assert_eq!(game.date, "2025");
    assert_eq!(game.comment, "Result 36-28 (Black +8)");
    // A database game counts as saved: a move of one's own is what would be lost.
    h.click_label("d3");
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    assert_eq!(texts_with(&h, "In no file"), ["In no file: 1 move."]);
    h.click_label("Cancel");
    h.state_mut().apply(Command::DeleteVariation(0));
    h.run_steps(2);
    assert!(!h.state().has_unsaved_changes());
    // Saved and opened again, as GGF: the players and the tournament come back.
    let tmp = temp_dir("db-ggf");
    let ggf = tmp.path().join("final.ggf");
    h.state_mut().apply(Command::SaveTo(ggf.clone()));
    h.run_steps(2);
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    assert!(has_label(&h, "Black: Human"), "a game made here: its seats");
    assert!(!shows(&h, "World Championship"));
    h.state_mut().apply(Command::OpenPath(ggf));
    h.run_steps(2);
    assert!(has_label(&h, "Black: Tastet Marc"));
    assert!(has_label(&h, "White: Shaman Brian"));
    assert!(shows(&h, "World Championship 2025 · You play both sides"));
}

#[test]
fn a_reopened_ggf_shows_its_players_while_the_seats_play_on() {
    let tmp = temp_dir("ggf-players");
    let ggf = tmp.path().join("nboard.ggf");
    std::fs::write(
        &ggf,
        "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]\
         TY[8]B[F5]W[F6]B[E6]W[F4];)",
    )
    .unwrap();
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(ggf));
    h.run_steps(2);
    assert!(has_label(&h, "Black: ./mEdax"));
    assert!(has_label(&h, "White: chris"));
    assert_eq!(
        texts_with(&h, "NBoard"),
        ["NBoard, 2014-02-21 · You play both sides from here"]
    );
    // Okapi takes White from here: the names stay the record's, the line says who plays.
    h.state_mut().apply(Command::NewGame {
        black: Seat::Human,
        white: Seat::Engine(Level::Greedy),
        minutes: 0,
        from_here: true,
    });
    h.run_steps(2);
    // A new game from here is a game between its seats.
    assert!(has_label(&h, "Black: Human"));
    assert!(has_label(&h, "White: Okapi (greedy)"));
    assert!(!shows(&h, "from here"));
    assert!(!shows(&h, "NBoard"));
    // A game of Okapi's own (JSON keeps the seats) reads as it was played.
    let json = tmp.path().join("own.json");
    let mut game = h.state().game().clone();
    game.black = "Ann".into();
    okapi_core::formats::save_game(&game, &json).unwrap();
    h.state_mut().apply(Command::OpenPath(json));
    h.run_steps(2);
    if has_label(&h, "Unsaved changes") {
        h.click_label("Discard");
    }
    assert!(has_label(&h, "Black: Ann"));
    assert!(has_label(&h, "White: Okapi (greedy)"));
    assert_eq!(
        texts_with(&h, "From here"),
        ["From here: you play Black, Okapi (greedy) White"]
    );
}

/// f5 d6, back, f6: the main line f5 f6 and the variation f5 d6 (three moves in all).
fn play_a_variation(h: &mut Harness<'static, App>) {
    for sq in ["f5", "d6"] {
        h.click_label(sq);
    }
    h.state_mut().apply(Command::Undo);
    h.run_steps(2);
    h.click_label("f6");
    let game = h.state().game();
    assert_eq!((game.tree_size(), game.len()), (3, 2));
}

#[test]
fn a_ggf_save_with_variations_offers_json_and_asks_only_when_something_is_lost() {
    let tmp = temp_dir("one-line");
    let ggf = tmp.path().join("game.ggf");
    let json = tmp.path().join("game.json");
    let mut h = harness();
    play_a_variation(&mut h);

    // Saved as GGF: what it drops is said, and Okapi JSON offered.
    h.state_mut().apply(Command::SaveTo(ggf.clone()));
    h.run_steps(2);
    assert!(has_label(&h, "GGF keeps one line"));
    assert!(shows(&h, "The other lines' 1 move are not in it"));
    assert!(has_label(&h, "Save every line as game.json"));
    // Closed without an answer: the variation is in no file, and the question says so.
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(!has_label(&h, "GGF keeps one line"));
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    assert!(has_label(&h, "Unsaved changes"));
    let detail = texts_with(&h, "Not in");
    assert_eq!(
        detail,
        [format!(
            "Not in {}: 1 move of other lines (GGF keeps one line, no variations).",
            ggf.display()
        )]
    );
    h.click_label("Cancel");

    // "The line is enough": the player let the variation go; New game does not ask.
    h.state_mut().apply(Command::SaveTo(ggf.clone()));
    h.run_steps(2);
    h.click_label("The line is enough");
    assert!(!h.state().has_unsaved_changes());
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    assert!(!has_label(&h, "Unsaved changes"), "nothing would be lost");
    assert!(h.state().game().is_empty(), "the new game started");

    // "Save every line as game.json": every line is in a file; New game does not ask.
    play_a_variation(&mut h);
    h.state_mut().apply(Command::SaveTo(ggf.clone()));
    h.run_steps(2);
    h.click_label("Save every line as game.json");
    h.run_steps(1);
    let saved = okapi_core::formats::load_game(&json).unwrap();
    assert_eq!(saved.tree_size(), 3, "the variation is in the JSON");
    assert_eq!(h.state().file.as_deref(), Some(json.as_path()));
    assert!(!h.state().has_unsaved_changes());
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    assert!(!has_label(&h, "Unsaved changes"));
    assert!(h.state().game().is_empty());
}

/// "Save" in the unsaved-changes question, answered with a GGF file: the new game waits
/// until the variation is saved as JSON (or let go), and is never started over it.
#[test]
fn a_new_game_waits_for_a_one_line_save_to_be_settled() {
    let tmp = temp_dir("one-line-then");
    let ggf = tmp.path().join("match.ggf");
    let json = tmp.path().join("match.json");
    // A JSON of that name already there is not overwritten unasked: the save dialog
    // offers the name and the player chooses where.
    std::fs::write(&json, "someone else's file").unwrap();
    let elsewhere = tmp.path().join("elsewhere.json");
    let mut h = harness_with(ScriptedDialogs {
        save: vec![ggf.clone(), elsewhere.clone()],
        ..Default::default()
    });
    play_a_variation(&mut h);
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    h.click_label("Save");
    h.run_steps(2);
    assert!(ggf.exists());
    assert!(has_label(&h, "GGF keeps one line"));
    assert_eq!(h.state().game().tree_size(), 3, "the new game waits");
    h.click_label("Save every line as match.json");
    h.run_steps(2);
    assert_eq!(
        std::fs::read_to_string(&json).unwrap(),
        "someone else's file"
    );
    assert_eq!(
        okapi_core::formats::load_game(&elsewhere)
            .unwrap()
            .tree_size(),
        3
    );
    assert!(h.state().game().is_empty(), "then the new game started");
}

#[test]
fn copy_transcript_of_a_set_up_position_copies_something_useful_or_says_why_not() {
    let copied = |h: &Harness<'static, App>| -> Vec<String> {
        h.output()
            .platform_output
            .commands
            .iter()
            .filter_map(|c| match c {
                egui::OutputCommand::CopyText(t) => Some(t.clone()),
                _ => None,
            })
            .collect()
    };
    let mut h = harness();
    // Nothing played: nothing copied, and the status says why.
    h.state_mut().apply(Command::CopyTranscript);
    h.step();
    assert!(copied(&h).is_empty());
    assert!(has_label(
        &h,
        "Nothing copied: no move has been played yet."
    ));

    // A pasted position (FFO #1), no move yet: its board string.
    let ffo = include_str!("data/ffo1-39.scr");
    let board = &ffo.lines().find(|l| l.contains("ffo#01")).unwrap()[..66];
    h.event(egui::Event::Paste(board.to_string()));
    h.run_steps(2);
    h.state_mut().apply(Command::CopyTranscript);
    h.step();
    let start = Position::parse(board).unwrap();
    assert_eq!(copied(&h), [start.to_board_string()]);
    assert!(shows(&h, "Copied the position as a board string"));

    // Moves from it: GGF (the start and the moves), which pastes back as the same game.
    h.click_label("g8");
    h.state_mut().apply(Command::CopyTranscript);
    h.step();
    let text = copied(&h).pop().expect("something copied");
    let back = okapi_core::formats::read_game(&text).unwrap();
    assert_eq!(back.start(), start);
    assert_eq!(back.moves(), h.state().game().moves());
    assert_eq!(back.moves()[0], Move::parse("g8").unwrap());
    assert!(shows(
        &h,
        "Copied the game as GGF: it starts from a set-up position"
    ));

    // From the standard opening, a transcript as before.
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    h.click_label("Discard");
    h.click_label("f5");
    h.state_mut().apply(Command::CopyTranscript);
    h.step();
    assert_eq!(copied(&h), ["f5"]);
}

#[test]
fn open_and_save_start_in_the_folder_last_used() {
    let tmp = temp_dir("folders");
    let (games, results) = (tmp.path().join("games"), tmp.path().join("results"));
    std::fs::create_dir_all(&games).unwrap();
    std::fs::create_dir_all(&results).unwrap();
    let opened = games.join("a.json");
    okapi_core::formats::save_game(&okapi_core::game::Game::default(), &opened).unwrap();
    let started = Arc::new(Mutex::new(Vec::new()));
    let mut h = harness_with(ScriptedDialogs {
        open: vec![opened.clone()],
        save: vec![results.join("b.json")],
        started_in: started.clone(),
        ..Default::default()
    });
    h.state_mut().apply(Command::Open);
    h.run_steps(2);
    h.click_label("f5");
    h.state_mut().apply(Command::SaveAs);
    h.run_steps(2);
    h.state_mut().apply(Command::Open);
    h.run_steps(2);
    assert_eq!(
        *started.lock().unwrap(),
        [None, Some(games.clone()), Some(results.clone())],
        "first the system's choice, then the folder of the file last opened or saved"
    );
    // Kept in the settings, so the next start begins there too.
    assert_eq!(
        h.state().settings.last_folder.as_deref(),
        Some(results.as_path())
    );
}

#[test]
fn the_new_game_window_keeps_its_buttons_in_place() {
    for (w, hgt) in [(1280.0, 900.0), (800.0, 600.0)] {
        let mut h = harness_sized(w, hgt);
        h.state_mut().apply(Command::ShowNewGame);
        h.run_steps(3);
        let place = |h: &Harness<'static, App>| {
            (
                h.get_by_label("Start").rect(),
                h.get_by_label("Cancel").rect(),
            )
        };
        let (start, cancel) = place(&h);
        assert!(
            start.bottom() <= hgt && cancel.right() <= w,
            "{start:?} {cancel:?}"
        );
        // Okapi takes a seat, then the other: its level and what the level means appear.
        for seat in ["Okapi plays White", "Okapi plays Black"] {
            h.get_by_label(seat).click();
            h.run_steps(3);
            assert_eq!(place(&h), (start, cancel), "after {seat}");
        }
        // Another level (no temperature for it, another description).
        h.query_all_by_label_contains("Engine level")
            .next()
            .expect("a level picker")
            .click();
        h.run_steps(2);
        h.query_all_by_label_contains("greedy")
            .find(|n| common::app::text_of(n).starts_with("greedy"))
            .expect("the greedy level in the list")
            .click();
        h.run_steps(3);
        assert_eq!(place(&h), (start, cancel), "after another level");
        // Back to people.
        for human in 0..2 {
            h.query_all_by_label("Human").nth(human).unwrap().click();
            h.run_steps(3);
        }
        assert_eq!(place(&h), (start, cancel), "back to people");
        h.click_label("Cancel");
        assert!(!has_label(&h, "Start"), "Cancel closes the window");
    }
}

/// The player's own name, typed in the settings, is the name of a person's seat in a new
/// game and in the game saved (`PB[Marc Tastet]`, not `PB[Human]`).
#[test]
fn your_name_in_the_settings_names_your_seat_in_new_and_saved_games() {
    let mut h = harness();
    h.state_mut().apply(Command::ShowSettings);
    h.run_steps(2);
    h.get_by_label("Your name:").click();
    h.run_steps(1);
    h.event(egui::Event::Text("Marc Tastet".into()));
    h.run_steps(3);
    assert_eq!(h.state().settings.player_name, "Marc Tastet");
    let okapi = Seat::Engine(Level::numbered(1));
    new_game(&mut h, Seat::Human, okapi);
    h.run_steps(2);
    assert_eq!(h.state().game().black, "Marc Tastet");
    assert_eq!(h.state().game().white, "Okapi (level 1)");
    assert!(has_label(&h, "Black: Marc Tastet"));
    // Nothing to say about who plays on: the seats are the players.
    assert!(!shows(&h, "from here"));
    let ggf = okapi_core::formats::write_game(h.state().game(), okapi_core::formats::Format::Ggf);
    assert!(ggf.contains("PB[Marc Tastet]"), "{ggf}");
    // No name: a person's seat is "Human", as before.
    h.state_mut().settings.player_name.clear();
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    assert_eq!(h.state().game().black, "Human");
}
