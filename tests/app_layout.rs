//! The app's layout at the window sizes players use, driven through egui_kittest and
//! AccessKit: the side panel fits the default window (1000x720) with a long game, and a
//! phone held upright (390x844) has the board over the whole width with the side panel
//! under it.
#![cfg(feature = "gui")]

mod common;

use common::app::{Steps, harness_sized, has_label, text_of, unfold};
use eframe::egui::{self, Event, Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use okapi_app::App;

/// A game of 40 moves (20 rows of the move list), from the WTHOR sample of 2024.
const GAME: &str =
    "f5d6c3d3c4f4f6g5e6f7d7c5g3f3c6e7f8b4g6b6e8c7h4c8b3d2d8g8a4a5a3b5g4e3f2g2e2e1c1d1";

/// The Play tab's controls, top to bottom: the tabs, the game's buttons, the solve's,
/// the values' switch and Hint, the moves' buttons. The folding sections' headers come
/// last ([`folds`]).
const CONTROLS: [&str; 15] = [
    "Play",
    "Database",
    "Undo",
    "Redo",
    "First",
    "Last",
    "Solve exact",
    "Solve WLD",
    "Stop",
    "Copy line",
    "Play best move",
    "Show move values",
    "Hint",
    "Analyse game",
    "Practise mistakes",
];

/// The folding sections' headers, the tab's last controls.
const FOLDS: [&str; 2] = ["Engine", "Move values"];

/// The app in a window of `w` × `h` with [`GAME`] pasted, at its last move.
fn with_game(w: f32, h: f32) -> Harness<'static, App> {
    let mut h = harness_sized(w, h);
    h.event(Event::Paste(GAME.into()));
    h.run_steps(4);
    assert_eq!(h.state().game().len(), 40);
    h
}

/// The rect of the control named `label` (a folding section's header by its role: the
/// menu bar has an "Engine" too).
fn control(h: &Harness<'static, App>, label: &str) -> egui::Rect {
    if FOLDS.contains(&label) {
        h.get_by_role_and_label(Role::DisclosureTriangle, label)
            .rect()
    } else {
        h.get_by_label(label).rect()
    }
}

/// Every control of the Play tab and its folding sections' headers, with its rect.
fn play_tab_controls(h: &Harness<'static, App>) -> Vec<(&'static str, egui::Rect)> {
    CONTROLS
        .iter()
        .chain(FOLDS.iter())
        .map(|&label| (label, control(h, label)))
        .collect()
}

/// The complaint: at 1000x720, once a game has moves, the side panel scrolled (the
/// engine's settings and the move values under the moves pushed its end below the
/// window). Every control is inside the window, the last (the folding sections'
/// headers) too, and the move list shows the current move, without scrolling.
#[test]
fn the_side_panel_fits_the_default_window_with_a_long_game() {
    let mut h = with_game(1000.0, 720.0);
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1000.0, 720.0));
    let inside = |h: &Harness<'static, App>, what: &str| {
        for (label, r) in play_tab_controls(h) {
            assert!(
                window.contains_rect(r),
                "{what}: {label} at {r:?}, outside the 1000x720 window"
            );
        }
        // The last row of the list (moves 39 and 40) whole in view.
        let (_, last) = h.state().move_list_rows_shown().expect("rows shown");
        assert_eq!(last, 19, "{what}: the current move's row");
    };
    inside(&h, "folded");
    // The list has the height: at least 14 rows in view.
    let (first, last) = h.state().move_list_rows_shown().unwrap();
    assert!(last - first + 1 >= 14, "rows {first}..={last}");
    // The engine's settings unfolded (and remembered): the list gives them room, the
    // panel still ends in the window.
    unfold(&mut h, "Engine");
    assert!(h.state().settings.engine_section_open);
    assert!(
        has_label(&h, "Solve moves from"),
        "the engine's settings show"
    );
    inside(&h, "the Engine section open");
    unfold(&mut h, "Engine"); // (the header folds it again)
    assert!(!h.state().settings.engine_section_open);
    assert!(!has_label(&h, "Solve moves from"), "folded again");
    inside(&h, "folded again");
}

/// A phone held upright (the app in the browser): the board over the whole width (its
/// squares span at least 340 of the 390 points), the side panel under it with its tabs,
/// which work, and every control of the Play tab within the width (reached by a tap,
/// scrolling down).
#[test]
fn a_phone_held_upright_has_the_board_over_the_width_and_the_panel_under_it() {
    let mut h = with_game(390.0, 844.0);
    let squares: Vec<egui::Rect> = (0..64)
        .map(|i| {
            let name = format!("{}{}", (b'a' + i % 8) as char, i / 8 + 1);
            h.get_by_label(&name).rect()
        })
        .collect();
    let board = squares
        .iter()
        .fold(egui::Rect::NOTHING, |all, r| all.union(*r));
    assert!(board.width() >= 340.0, "the board is {board:?}");
    assert!(board.height() >= 340.0, "the board is {board:?}");
    assert!(board.left() >= 0.0 && board.right() <= 390.0, "{board:?}");
    for (label, r) in play_tab_controls(&h) {
        assert!(
            r.left() >= 0.0 && r.right() <= 390.0,
            "{label} at {r:?}, beyond the width"
        );
        assert!(
            r.top() >= board.bottom(),
            "{label} at {r:?}, over the board"
        );
    }
    for tab in ["Play", "Database"] {
        let r = control(&h, tab);
        assert!(
            r.bottom() <= 844.0,
            "the tab {tab} at {r:?}, below the window"
        );
    }
    // The tabs work.
    h.state_mut()
        .database
        .set_database(okapi_core::db::Builder::new().build().unwrap(), Vec::new());
    h.click_label("Database");
    h.run_steps(2);
    assert!(
        h.query_by_label_contains("games reach this position")
            .is_some(),
        "the Database tab shows"
    );
    assert!(!has_label(&h, "Undo"), "the Play tab is away");
    h.click_label("Play");
    assert!(has_label(&h, "Undo"), "the Play tab is back");
    // The board kept its place.
    assert_eq!(h.get_by_label("a1").rect(), squares[0]);
}

/// The Database tab's controls that are found by their role (the fields' names are the
/// labels beside them, which a query by label finds too): the four fields (player,
/// tournament, the years) and the player's side.
const DATABASE_ROLES: [(Role, usize); 2] = [(Role::TextInput, 4), (Role::RadioButton, 3)];

/// The Database tab's other controls, top to bottom: the tabs, the filters' tick box, the
/// sort's title, the games' first row and the folders' section's header.
const DATABASE_CONTROLS: [(Role, &str); 5] = [
    (Role::Button, "Play"),
    (Role::Button, "Database"),
    (Role::CheckBox, "XOT games"),
    (Role::Label, "Sort:"),
    (Role::DisclosureTriangle, "Your folders of games"),
];

/// The complaint: at 1000x720 the Database tab scrolled (by 17 px at the start position,
/// more where the position has many next moves): the games list kept its whole height
/// and pushed the folders' section out of the window. Every control of the tab is inside
/// the side panel, at the start and with the next moves' rows at their most.
#[test]
fn the_database_tab_fits_the_default_window() {
    let mut h = with_game(1000.0, 720.0);
    h.state_mut()
        .database
        .set_database(okapi_core::db::load_shipped().unwrap(), Vec::new());
    h.click_label("Database");
    // From the start (one next move) through the opening (positions with more next moves
    // than the rows have room for).
    let mut most_rows = 0;
    for ply in 0..=12 {
        h.state_mut().apply(okapi_app::Command::GoTo(ply));
        h.run_steps(4);
        let side = h.state().side_panel_rect().expect("the side panel's place");
        let rows = h.query_all_by_label_contains("Database move ").count();
        assert!(rows >= 1, "ply {ply}: the next moves show");
        most_rows = most_rows.max(rows);
        // A game's row: its players, "Black – White   33-31".
        let game = h
            .query_all_by_role(Role::Button)
            .find(|n| text_of(n).contains(" – "))
            .expect("a game's row")
            .rect();
        let mut controls: Vec<(String, egui::Rect)> = vec![("a game's row".into(), game)];
        for (role, label) in DATABASE_CONTROLS {
            let r = h.get_by_role_and_label(role, label).rect();
            controls.push((label.into(), r));
        }
        for (role, count) in DATABASE_ROLES {
            let found: Vec<egui::Rect> = h.query_all_by_role(role).map(|n| n.rect()).collect();
            assert_eq!(found.len(), count, "ply {ply}: the {role:?}s");
            controls.extend(found.into_iter().map(|r| (format!("a {role:?}"), r)));
        }
        for (label, r) in controls {
            assert!(
                side.contains_rect(r),
                "ply {ply} ({rows} next moves): {label} at {r:?}, outside the side panel {side:?}"
            );
        }
    }
    // Some position had more next moves than their 170 points show.
    assert!(most_rows >= 9, "at most {most_rows} next moves");
}

/// The complaint: opening a folding section under the move list (which then gets less
/// height) lost the current move from view. Wherever the game is (the start too, reached
/// from the end), with a section open or both, the current move's row is in view, and
/// stays so when the player steps.
#[test]
fn the_current_move_stays_in_view_when_a_section_opens() {
    for (w, hgt) in [(1000.0, 720.0), (800.0, 600.0)] {
        let mut h = with_game(w, hgt);
        let in_view = |h: &Harness<'static, App>, what: &str| {
            let what = format!("{w}x{hgt}: {what}");
            let ply = h.state().game().ply();
            if ply == 0 {
                // The start: the list's head ("start") under the moves' buttons.
                let start = h.get_by_label("start").rect();
                let buttons = h.get_by_label("Analyse game").rect();
                assert!(
                    start.top() >= buttons.bottom(),
                    "{what}: the start at {start:?}, scrolled away under {buttons:?}"
                );
                return;
            }
            let row = (ply - 1) / 2;
            let (first, last) = h.state().move_list_rows_shown().expect("rows shown");
            assert!(
                (first..=last).contains(&row),
                "{what}: move {ply} (row {row}) not in rows {first}..={last}"
            );
        };
        for ply in [40, 0, 20, 2] {
            h.state_mut().apply(okapi_app::Command::GoTo(ply));
            h.run_steps(4);
            in_view(&h, &format!("move {ply}, folded"));
            for section in FOLDS {
                unfold(&mut h, section);
                in_view(&h, &format!("move {ply}, {section} opened"));
                for step in [
                    okapi_app::Command::StepBack,
                    okapi_app::Command::StepForward,
                ] {
                    h.state_mut().apply(step);
                    h.run_steps(4);
                    in_view(&h, &format!("from move {ply}, {section} open, a step"));
                }
            }
            for section in FOLDS {
                unfold(&mut h, section); // folds it again
                in_view(&h, &format!("move {ply}, {section} folded again"));
            }
        }
    }
}
