//! The opening trainer, driven through the practice window as a player would: choose an
//! opening and a colour, find the book's move, miss one, read the verdicts, find the
//! miss kept as a card of the practice file, and follow the line out of the book.
#![cfg(feature = "gui")]

mod common;

use common::app::*;
use eframe::egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use okapi_app::{App, Command};
use okapi_core::board::{Color, Square};
use okapi_core::game::Seat;
use okapi_core::practice::{Day, STORE_FILE, Store};
use okapi_core::search::SCALE;

/// Steps until it is the player's move in the lesson (Okapi has played its book move) or
/// the lesson has ended.
fn until_players_move(h: &mut Harness<'static, App>) {
    step_until(h, "the player's move", |app| {
        app.opening_lesson_end().is_some() || app.opening_lesson().is_some_and(|l| l.players_turn())
    });
}

/// Clicks the widget of this role and label (its label is a node of its own too).
fn click_role(h: &Harness<'static, App>, label: &str, role: Role) {
    h.query_all_by_label(label)
        .find(|n| n.accesskit_node().role() == role)
        .unwrap_or_else(|| panic!("a {role:?} labelled {label}"))
        .click();
}

/// The book's moves in the lesson's position, best first, values in discs.
fn book_moves(h: &Harness<'static, App>) -> Vec<(Square, f64)> {
    let lesson = h.state().opening_lesson().expect("a lesson under way");
    lesson
        .book_moves(okapi_core::book::shipped())
        .iter()
        .map(|m| (m.square, m.value as f64 / SCALE as f64))
        .collect()
}

#[test]
fn an_opening_lesson_judges_the_players_moves_by_the_book() {
    let dir = temp_dir("opening-lessons");
    let store_path = dir.path().join("data").join(STORE_FILE);
    let mut h = harness_sized(1280.0, 900.0);
    new_game(&mut h, Seat::Human, Seat::Human);
    h.state_mut().keep_practice_at(Some(store_path.clone()));
    h.state_mut()
        .set_practice_day(Day::parse("2026-11-27").unwrap());
    h.state_mut().apply(Command::ShowPractice);
    h.run_steps(3);

    // The Openings part; the Tiger from the list, as White.
    h.click_label("Openings");
    h.run_steps(2);
    click_role(&h, "Opening", Role::ComboBox);
    h.run_steps(2);
    h.click_label("Tiger");
    h.run_steps(2);
    click_role(&h, "White", Role::RadioButton);
    h.click_label("Start lesson");
    h.run_steps(2);
    let lesson = h.state().opening_lesson().expect("the lesson started");
    assert_eq!(
        (lesson.name.as_str(), lesson.player),
        ("Tiger", Color::White)
    );
    assert_eq!(
        lesson.moves.len(),
        5,
        "the Tiger's five moves are on the board"
    );
    assert!(has_label(&h, "Your move: click it on the board."));

    // The book's best: right.
    let best = book_moves(&h)[0].0;
    h.click_label(&best.to_string());
    h.run_steps(2);
    let right = text_of(&h.get_by_label_contains("Right: "));
    assert!(
        right.starts_with(&format!("Right: {best} is the book's best (")),
        "{right}"
    );
    until_players_move(&mut h);
    let lesson = h.state().opening_lesson().unwrap();
    assert_eq!(lesson.moves.len(), 7, "Okapi answered with a book move");
    assert_eq!(h.state().practice_store().unwrap().cards.len(), 0);

    // A move the book does not play, or one clearly worse than its best: missed.
    let moves = book_moves(&h);
    let position = h.state().opening_lesson().unwrap().position;
    let wrong = position
        .legal_moves()
        .into_iter()
        .find(|sq| !moves.iter().any(|m| m.0 == *sq))
        .or_else(|| moves.iter().find(|m| moves[0].1 - m.1 > 1.5).map(|m| m.0))
        .expect("a wrong move in the Tiger's seventh position");
    h.click_label(&wrong.to_string());
    h.run_steps(2);
    let missed = text_of(&h.get_by_label_contains("Missed: "));
    assert!(
        missed.starts_with(&format!("Missed: the book's best is {}", moves[0].0)),
        "{missed}"
    );
    let store = h.state().practice_store().unwrap();
    assert_eq!(store.cards.len(), 1, "the miss is a card");
    assert_eq!(
        (store.cards[0].position, store.cards[0].played),
        (position, wrong)
    );
    // saved as the other cards are
    let saved = Store::open(&store_path).store;
    assert_eq!(saved.cards.len(), 1);

    // On with the book's best until the line leaves the book.
    for _ in 0..30 {
        until_players_move(&mut h);
        if h.query_by_label_contains("Out of book after").is_some() {
            break;
        }
        let best = book_moves(&h)[0].0;
        h.click_label(&best.to_string());
        h.run_steps(2);
    }
    let ended = text_of(&h.get_by_label_contains("Out of book after"));
    assert!(ended.contains(" moves: "), "{ended}");
    assert_eq!(h.state().opening_lesson_end(), Some(ended.as_str()));
    h.click_label("End lesson");
    h.run_steps(2);
    assert!(h.state().opening_lesson().is_none());
}

/// The Tiger as White, the book's best each time, until the line leaves the book; the
/// games database not loaded (the Database tab never shown).
fn a_lesson_out_of_book(h: &mut Harness<'static, App>) {
    new_game(h, Seat::Human, Seat::Human);
    h.state_mut().keep_practice_at(None);
    h.state_mut().apply(Command::ShowPractice);
    h.run_steps(3);
    h.click_label("Openings");
    h.run_steps(2);
    click_role(h, "Opening", Role::ComboBox);
    h.run_steps(2);
    h.click_label("Tiger");
    h.run_steps(2);
    click_role(h, "White", Role::RadioButton);
    h.click_label("Start lesson");
    h.run_steps(2);
    for _ in 0..40 {
        until_players_move(h);
        if h.state().opening_lesson_end().is_some() {
            break;
        }
        let best = book_moves(h)[0].0;
        h.click_label(&best.to_string());
        h.run_steps(2);
    }
    let ended = h
        .state()
        .opening_lesson_end()
        .expect("the line left the book");
    assert!(ended.starts_with("Out of book after"), "{ended}");
}

/// The lesson reads the games database itself for the line's score (off the frame, as
/// the Database tab does), rather than saying it is not loaded.
#[test]
fn a_lesson_out_of_book_reads_the_database_for_the_lines_score() {
    let mut h = harness_sized(1280.0, 900.0);
    a_lesson_out_of_book(&mut h);
    step_until(&mut h, "the line's score", |app| {
        app.opening_lesson_end()
            .is_some_and(|e| !e.contains("reading the games database"))
    });
    let ended = h.state().opening_lesson_end().unwrap().to_string();
    assert!(
        ended.contains("this line scored") || ended.contains("no database games reach"),
        "{ended}"
    );
    assert!(h.state().database.database().is_some(), "{ended}");
    assert!(has_label(&h, &ended), "the window says it: {ended}");
}

/// After the lesson, the board and the values list show the values of the lesson's
/// position on the board (they showed the game's).
#[test]
fn after_a_lesson_the_values_are_of_the_position_on_the_board() {
    let mut h = harness_sized(1280.0, 900.0);
    a_lesson_out_of_book(&mut h);
    let position = h.state().opening_lesson().unwrap().position;
    assert_ne!(position, h.state().game().position());
    let legal: Vec<Square> = position.legal_moves().iter().collect();
    step_until(&mut h, "the values of the lesson's position", |app| {
        legal
            .iter()
            .all(|sq| app.known_value(&position, *sq).is_some())
    });
    h.run_steps(2);
    let shown: Vec<Square> = h.state().move_evals().keys().copied().collect();
    assert_eq!(shown.len(), legal.len(), "{shown:?} against {legal:?}");
    assert!(shown.iter().all(|sq| legal.contains(sq)), "{shown:?}");
    for sq in &legal {
        let said = h.get_by_label(&sq.to_string()).value().unwrap_or_default();
        let value = h.state().move_evals()[sq].value;
        assert!(
            said.contains(&format!("{value:+}")),
            "{sq}: {said}, {value:+}"
        );
    }
}
