//! The app's windows, one file each, and the docked script panel.

mod about;
mod first_steps;
mod new_game;
mod one_line_saved;
mod path_prompt;
mod practice;
mod script;
mod settings;
mod shortcuts;

use crate::app::App;
use crate::command::Command;
use eframe::egui;

/// The answers to "Unsaved changes".
#[derive(Clone, Copy)]
enum UnsavedAnswer {
    Save,
    Discard,
    Cancel,
}

impl App {
    /// The windows that are open, drawn over the panels (never the script: it is docked).
    pub(super) fn windows(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.new_game_window(&ctx);
        self.about_window(&ctx);
        self.shortcuts_window(&ctx);
        self.settings_window(&ctx);
        self.first_steps_window(&ctx);
        self.practice_window(&ctx);
        self.path_prompt_window(&ctx);
        self.confirm_solve_window(&ctx);
        self.one_line_saved_window(&ctx);
        self.unsaved_changes_window(&ctx);
    }

    /// Before a game with unsaved changes is replaced or the app closes: Save, Discard
    /// or Cancel. Nothing a person played is dropped without this question.
    fn unsaved_changes_window(&mut self, ctx: &egui::Context) {
        let Some(pending) = self.view.unsaved_prompt.clone() else {
            return;
        };
        let what = match &pending {
            Command::Quit => "Quit",
            Command::OpenPath(_) => "Open another game",
            Command::OpenDatabaseGame { .. } => "Open the database game",
            Command::NewGame { .. } => "Start a new game",
            Command::Paste(_) => "Paste a game",
            Command::SetupDone => "Start from the position set up",
            Command::ShowScriptPosition(_) => "Show the script's position",
            _ => "Go on",
        };
        let detail = self.unsaved_detail();
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("unsaved-changes")).show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.heading("Unsaved changes");
            ui.label(detail);
            ui.label(format!("{what}: save the game first?"));
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    answer = Some(UnsavedAnswer::Save);
                }
                if ui.button("Discard").clicked() {
                    answer = Some(UnsavedAnswer::Discard);
                }
                if ui.button("Cancel").clicked() {
                    answer = Some(UnsavedAnswer::Cancel);
                }
            });
        });
        if modal.should_close() && answer.is_none() {
            answer = Some(UnsavedAnswer::Cancel);
        }
        let Some(answer) = answer else { return };
        self.view.unsaved_prompt = None;
        match answer {
            UnsavedAnswer::Save => {
                // Saved in full (Okapi JSON keeps every line), then the command goes on.
                self.view.after_save = Some(pending);
                self.commands.push(match &self.file {
                    Some(path) if okapi_core::formats::Format::is_json(path) => {
                        Command::SaveTo(path.clone())
                    }
                    _ => Command::SaveAs,
                });
            }
            UnsavedAnswer::Discard => {
                if pending == Command::Quit {
                    // The player let what is unsaved go: the game still comes back at
                    // the next start, and is not asked about again.
                    self.mark_saved();
                }
                self.view.discard_confirmed = true;
                self.commands.push(pending);
            }
            UnsavedAnswer::Cancel => {}
        }
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
                // Enter answers with the default button, as in any dialog (Esc cancels).
                let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.button("Solve anyway").on_hover_text("Enter").clicked() || enter {
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
