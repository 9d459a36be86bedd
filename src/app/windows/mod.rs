//! The app's windows, one file each.

mod about;
mod new_game;
pub(super) use new_game::NewGameForm;
mod script;
mod shortcuts;

use super::App;
use eframe::egui;

impl App {
    /// The windows that are open, drawn over the panels.
    pub(super) fn windows(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.new_game_window(&ctx);
        self.about_window(&ctx);
        self.shortcuts_window(&ctx);
        self.script_window(&ctx);
    }
}
