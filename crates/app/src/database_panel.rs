//! The "Database" tab of the side panel: the master games that reached the position on the
//! board, move by move, and the games themselves.

use super::App;
use eframe::egui;

impl App {
    /// The contents of the side panel's "Database" tab (it scrolls its own lists).
    pub(super) fn database_contents(&mut self, ui: &mut egui::Ui) {
        ui.label("No games database is loaded yet.");
    }
}
