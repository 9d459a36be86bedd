//! The app's windows, one file each, and the docked script panel.

mod about;
mod first_steps;
mod new_game;
pub(super) use new_game::NewGameForm;
mod script;
mod settings;
mod shortcuts;

use super::{App, Command};
use eframe::egui;

impl App {
    /// The windows that are open, drawn over the panels (never the script: it is docked).
    pub(super) fn windows(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.new_game_window(&ctx);
        self.about_window(&ctx);
        self.shortcuts_window(&ctx);
        self.settings_window(&ctx);
        self.first_steps_window(&ctx);
        self.path_prompt_window(&ctx);
        self.confirm_solve_window(&ctx);
    }

    /// Before a solve that will take long: the estimate, then "Solve anyway" or Cancel.
    fn confirm_solve_window(&mut self, ctx: &egui::Context) {
        let Some(mode) = self.view.confirm_solve else {
            return;
        };
        let empties = self.game().position().empty_count();
        let warning = super::status_bar::long_solve_warning(empties, mode).unwrap_or_default();
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("confirm-solve")).show(ctx, |ui| {
            ui.set_max_width(380.0);
            ui.heading("A long solve");
            ui.label(warning);
            ui.label("The status bar shows the time spent; Stop (Esc) ends it at once.");
            ui.horizontal(|ui| {
                if ui.button("Solve anyway").clicked() {
                    answer = Some(true);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(false);
                }
            });
        });
        if modal.should_close() && answer.is_none() {
            answer = Some(false);
        }
        if let Some(go) = answer {
            self.view.confirm_solve = None;
            if go {
                self.commands.push(Command::Solve(mode));
            }
        }
    }
}
