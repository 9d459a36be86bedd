//! The app under egui_kittest, for the app tests (`tests/app*.rs`): a harness that drives
//! it as a person would, through AccessKit labels, with no display; and the steps and
//! queries the tests share.
#![allow(dead_code)]

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use okapi_app::{App, Command, ScriptedDialogs};
use okapi_core::board::{Position, Square};
use okapi_core::game::{EvalSource, Game, Seat};
use std::time::{Duration, Instant};

/// The app in a window of `w` × `h` points, its file dialogs answered by `dialogs`, after
/// its first two frames.
pub fn harness_sized_with(w: f32, h: f32, dialogs: ScriptedDialogs) -> Harness<'static, App> {
    let app = App::new(Box::new(dialogs), || {});
    let mut h = Harness::builder()
        .with_size(eframe::egui::vec2(w, h))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run_steps(2);
    h
}

/// The app in the default window (1000 × 720), its file dialogs answered by `dialogs`.
pub fn harness_with(dialogs: ScriptedDialogs) -> Harness<'static, App> {
    harness_sized_with(1000.0, 720.0, dialogs)
}

/// The app in a window of `w` × `h` points, with no file dialog answers.
pub fn harness_sized(w: f32, h: f32) -> Harness<'static, App> {
    harness_sized_with(w, h, ScriptedDialogs::default())
}

/// The app in the default window, with no file dialog answers.
pub fn harness() -> Harness<'static, App> {
    harness_with(ScriptedDialogs::default())
}

/// A new game from the standard opening, no clock.
pub fn new_game(h: &mut Harness<'static, App>, black: Seat, white: Seat) {
    h.state_mut().apply(Command::NewGame {
        black,
        white,
        minutes: 0,
        from_here: false,
    });
}

/// Steps the UI (as frames would) until `done` holds for the app. `Harness::run` does
/// not wait for the engine thread: this does, for two minutes at the most.
pub fn step_until(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !done(h.state()) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
}

/// Steps the UI until every legal move of the position on the board has its exact value.
pub fn step_until_every_move_exact(h: &mut Harness<'static, App>) {
    let legal = h.state().game().position().legal_moves().len() as usize;
    step_until(h, "exact values of every move", |app| {
        app.move_evals().len() == legal
            && app
                .move_evals()
                .values()
                .all(|e| e.source == EvalSource::Exact)
    });
}

/// The first legal move of the position on the board (a1 first, h8 last).
pub fn first_legal_move(h: &Harness<'static, App>) -> Square {
    h.state()
        .game()
        .position()
        .legal_moves()
        .iter()
        .next()
        .expect("a legal move")
}

/// The steps a person takes, on the harness.
pub trait Steps {
    /// Clicks the node with this accessible name and lets two frames pass (the click's
    /// frame and the one that shows what it did).
    fn click_label(&mut self, label: &str);
}

impl Steps for Harness<'static, App> {
    fn click_label(&mut self, label: &str) {
        self.get_by_label(label).click();
        self.run_steps(2);
    }
}

/// Unfolds a folding section of the side panel's Play tab ("Engine", "Move values": folded
/// until opened) and lets it open (an animation of a few frames, during which its controls
/// take no click). The header is found by its role: the menu bar has an "Engine" too.
pub fn unfold(h: &mut Harness<'static, App>, section: &str) {
    h.get_by_role_and_label(eframe::egui::Role::DisclosureTriangle, section)
        .click();
    h.run_steps(10);
}

/// Is there a node with this accessible name?
pub fn has_label(h: &Harness<'static, App>, label: &str) -> bool {
    h.query_by_label(label).is_some()
}

/// The text a label shows (AccessKit puts a label's text in its value).
pub fn text_of(node: &egui_kittest::Node<'_>) -> String {
    node.accesskit_node()
        .label()
        .or_else(|| node.value())
        .expect("the node has a text")
}

/// A scratch directory, removed when the test ends, passed or not.
pub fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("okapi-app-{name}-"))
        .tempdir()
        .unwrap()
}

/// Saves a game in the format its extension names, as the app does.
pub trait SaveAs {
    fn save(&self, path: &std::path::Path) -> std::io::Result<()>;
}

impl SaveAs for Game {
    fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        okapi_core::formats::save_game(self, path)
    }
}

/// FFO #1: 14 empties, Black to move, g8 is best with +18.
pub fn ffo1_json(dir: &std::path::Path) -> std::path::PathBuf {
    let text = include_str!("../data/ffo1-39.scr");
    let line = text.lines().find(|l| l.contains("ffo#01")).unwrap();
    let game = Game::new(Position::parse(line).unwrap());
    let path = dir.join("ffo1.json");
    game.save(&path).unwrap();
    path
}
