//! Before a solve that will take long: the estimate, then "Solve anyway" or Cancel.

use crate::command::Command;
use crate::part::{Commands, FrameView, Window};
use eframe::egui;
use okapi_core::search::SolveMode;

/// A long solve asked for, waiting for "Solve anyway".
pub(crate) struct ConfirmSolve {
    pub(crate) mode: SolveMode,
}

impl Window for ConfirmSolve {
    fn title(&self) -> &'static str {
        "A long solve"
    }

    fn show(
        &mut self,
        ctx: &egui::Context,
        open: &mut bool,
        view: &FrameView,
        commands: &mut Commands,
    ) {
        let mode = self.mode;
        let empties = view.game().position().empty_count();
        let warning = crate::status_bar::long_solve_warning(empties, mode).unwrap_or_default();
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("confirm-solve")).show(ctx, |ui| {
            ui.set_max_width(380.0);
            ui.heading(self.title());
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
            *open = false;
            if go {
                commands.push(Command::Solve(mode));
            }
        }
    }
}
