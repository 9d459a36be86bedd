//! Opening names in the app, read as a person (or a screen reader) reads them: through
//! AccessKit labels, with egui_kittest (no display needed). The names themselves are
//! tested in `okapi_core::game::openings`; here, that the app shows them where a player
//! looks: the status bar, the move list, a legal move's hover, the game analysis, and the
//! saved files.
#![cfg(feature = "gui")]

mod common;

use common::app::{Steps, has_label, new_game};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use okapi_app::{App, Command};
use okapi_core::game::Seat;
use std::time::{Duration, Instant};

/// The app with two people at the board: the engine plays no move of its own.
fn harness() -> Harness<'static, App> {
    let mut h = common::app::harness();
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    h
}

/// Plays `moves` (`"e6f4c3"`) by clicking their squares.
fn click_moves(h: &mut Harness<'static, App>, moves: &str) {
    let before = h.state().game().ply();
    for k in 0..moves.len() / 2 {
        let sq = &moves[2 * k..2 * k + 2];
        h.click_label(sq);
        assert_eq!(h.state().game().ply(), before + k + 1, "{sq} was played");
    }
}

/// A move-list cell names this opening: its accessible name starts with the move
/// (`"2. f4"`) and ends with ` — ` and the name (a value for the move may come between).
fn move_names(h: &Harness<'static, App>, mv: &str, opening: &str) -> bool {
    h.query_all_by_label_contains(&format!(" — {opening}"))
        .any(|n| {
            let label = n.accesskit_node().label().unwrap_or_default();
            label.starts_with(&format!("{mv} ")) && label.ends_with(&format!(" — {opening}"))
        })
}

fn value_of(h: &Harness<'static, App>, label: &str) -> String {
    h.get_by_label(label).value().unwrap_or_default()
}

#[test]
fn the_status_bar_and_the_move_list_name_the_opening() {
    let mut h = harness();
    assert!(!has_label(&h, "Opening: Tiger"));
    // The Tiger (f5 d6 c3 d3 c4) as its mirror image from e6, reflected in the a1-h8
    // diagonal: the same opening.
    click_moves(&mut h, "e6f4");
    assert!(has_label(&h, "Opening: Perpendicular Opening"));
    click_moves(&mut h, "c3c4d3");
    assert!(has_label(&h, "Opening: Tiger"));
    // the move list names it beside the move that reached it, and the one before
    assert!(move_names(&h, "5. d3", "Tiger"));
    assert!(move_names(&h, "2. f4", "Perpendicular Opening"));
    assert!(!move_names(&h, "4. c4", "Tiger"));
    // the list's own column, where the name changes
    assert!(has_label(&h, "Tiger"));
    // White leaves the named lines (e7): the game is still in the Tiger, as in WZebra
    h.click_label("e7");
    assert_eq!(h.state().game().ply(), 6);
    assert!(has_label(&h, "Opening: Tiger"));
    assert!(h.query_by_label_contains("6. e7 — ").is_none());
    // back to the start: no name
    h.state_mut().apply(Command::GoTo(0));
    h.run_steps(2);
    assert!(h.query_by_label_contains("Opening: ").is_none());
    // to the second move: the name of that point of the line
    h.state_mut().apply(Command::GoTo(2));
    h.run_steps(2);
    assert!(has_label(&h, "Opening: Perpendicular Opening"));
}

#[test]
fn a_legal_move_says_where_it_leads() {
    let mut h = harness();
    // one move before the Rose (f5 d6 c5 f4 e3 c6 d3 f6 e6 d7)
    click_moves(&mut h, "f5d6c5f4e3c6d3f6e6");
    assert!(
        value_of(&h, "d7").ends_with("leads to: Rose"),
        "{}",
        value_of(&h, "d7")
    );
    // another legal move that names nothing says only that it is legal
    let others: Vec<String> = h
        .state()
        .game()
        .position()
        .legal_moves()
        .iter()
        .map(|s| s.to_string())
        .filter(|s| s != "d7")
        .collect();
    assert!(!others.is_empty());
    for sq in &others {
        assert!(!value_of(&h, sq).contains("leads to"), "{sq}");
    }
    // hovering d7 shows the same in a tooltip
    h.get_by_label("d7").hover();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !has_label(&h, "leads to: Rose") {
        assert!(Instant::now() < deadline, "no tooltip 'leads to: Rose'");
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    // and from the start, f5 goes towards the three second-move openings
    h.state_mut().apply(Command::GoTo(0));
    h.run_steps(2);
    h.get_by_label("f5").hover();
    let deadline = Instant::now() + Duration::from_secs(10);
    while h.query_by_label_contains("towards: ").is_none() {
        assert!(Instant::now() < deadline, "no tooltip 'towards: ...'");
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    let node = h.query_by_label_contains("towards: ").unwrap();
    let text = node
        .accesskit_node()
        .label()
        .or_else(|| node.value())
        .unwrap();
    for name in ["Perpendicular", "Parallel", "Diagonal"] {
        assert!(text.contains(name), "{text}");
    }
}

#[test]
fn the_analysis_and_the_saved_games_name_the_opening() {
    let mut h = harness();
    // the Cow (f5 f6 e6 f4 e3), then a move off the named lines
    click_moves(&mut h, "f5f6e6f4e3d3");
    let dir = tempfile::Builder::new()
        .prefix("okapi-app-openings-")
        .tempdir()
        .unwrap();
    let ggf = dir.path().join("cow.ggf");
    h.state_mut().apply(Command::SaveTo(ggf.clone()));
    h.run_steps(2);
    let text = std::fs::read_to_string(&ggf).unwrap();
    assert!(text.contains("C[Opening: Cow]"), "{text}");
    let json = dir.path().join("cow.json");
    h.state_mut().apply(Command::SaveTo(json.clone()));
    h.run_steps(2);
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains("\"opening\": \"Cow\""), "{text}");
    // read back: the comment is what the person wrote (nothing), the name is shown
    h.state_mut().apply(Command::OpenPath(ggf));
    h.run_steps(2);
    assert_eq!(h.state().game().comment, "");
    assert!(has_label(&h, "Opening: Cow"));
    // the game analysis names it (its summary shows once a move is valued; the live
    // search of the position keeps the engine busy, so the label is what is waited for)
    h.state_mut().apply(Command::AnalyseGame);
    let deadline = Instant::now() + Duration::from_secs(120);
    while !has_label(&h, "Opening: Cow (its position after move 5)") {
        assert!(
            Instant::now() < deadline,
            "the analysis does not name the opening"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
}
