//! Before a game with unsaved changes is replaced or the app closes: Save, Discard or
//! Cancel. Nothing a person played is dropped without this question.

use crate::command::Command;
use crate::part::{Commands, FrameView, Window};
use eframe::egui;

/// A command that would replace a game with unsaved changes, waiting for Save, Discard
/// or Cancel.
pub(crate) struct UnsavedChanges {
    pub(crate) pending: Command,
    /// What is not saved, as the question says it.
    pub(crate) detail: String,
}

/// The answers to "Unsaved changes".
#[derive(Clone, Copy)]
enum UnsavedAnswer {
    Save,
    Discard,
    Cancel,
}

impl Window for UnsavedChanges {
    fn title(&self) -> &'static str {
        "Unsaved changes"
    }

    fn show(
        &mut self,
        ctx: &egui::Context,
        open: &mut bool,
        _: &FrameView,
        commands: &mut Commands,
    ) {
        let what = match &self.pending {
            Command::Quit => "Quit",
            Command::OpenPath(_) => "Open another game",
            Command::OpenDatabaseGame { .. } => "Open the database game",
            Command::NewGame { .. } => "Start a new game",
            Command::Paste(_) => "Paste a game",
            Command::SetupDone => "Start from the position set up",
            Command::ShowScriptPosition(_) => "Show the script's position",
            _ => "Go on",
        };
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("unsaved-changes")).show(ctx, |ui| {
            ui.set_max_width(420.0);
            ui.heading(self.title());
            ui.label(&self.detail);
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
        *open = false;
        let pending = Box::new(self.pending.clone());
        match answer {
            // Saved in full (Okapi JSON keeps every line), then the command goes on.
            UnsavedAnswer::Save => commands.push(Command::SaveThen(pending)),
            UnsavedAnswer::Discard => commands.push(Command::DiscardThen(pending)),
            UnsavedAnswer::Cancel => {}
        }
    }
}
