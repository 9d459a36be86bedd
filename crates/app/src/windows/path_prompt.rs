//! The path field standing in for a file dialog the system could not show.

use crate::command::Command;
use crate::dialogs::DialogKind;
use crate::part::{Commands, FrameView, Window};
use eframe::egui;
use std::path::PathBuf;

/// The in-app path field shown instead of a dialog that did not work.
pub struct PathPrompt {
    pub(crate) kind: DialogKind,
    pub(crate) text: String,
    /// The field has had the keyboard focus once.
    pub(crate) focused: bool,
    /// What waits for the save typed here (a paste, a new game, quitting after "Save" to
    /// the unsaved-changes question): it goes on once the game is saved.
    pub(crate) then: Option<Command>,
}

/// The path field standing in for a file dialog.
impl Window for PathPrompt {
    fn title(&self) -> &'static str {
        "Path"
    }

    fn show(
        &mut self,
        ctx: &egui::Context,
        open: &mut bool,
        _: &FrameView,
        commands: &mut Commands,
    ) {
        let prompt = self;
        let mut done = None;
        egui::Window::new(format!("{}: path", prompt.kind.title()))
            .id(egui::Id::unique("path-prompt"))
            .open(open)
            .collapsible(false)
            .resizable(false)
            .default_pos([200.0, 120.0])
            .show(ctx, |ui| {
                ui.label("No file dialog could be shown. Type the file's path:");
                let field = ui.add(
                    egui::TextEdit::singleline(&mut prompt.text)
                        .desired_width(420.0)
                        .hint_text(if cfg!(windows) {
                            r"C:\Users\me\Documents\game.json"
                        } else {
                            "/home/me/game.json"
                        }),
                );
                if !prompt.focused {
                    field.request_focus();
                    prompt.focused = true;
                }
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    let ok = !prompt.text.trim().is_empty();
                    if ui.add_enabled(ok, egui::Button::new("OK")).clicked() || (enter && ok) {
                        done = Some(Some(PathBuf::from(prompt.text.trim())));
                    }
                    if ui.button("Cancel").clicked() {
                        done = Some(None);
                    }
                });
            });
        if let Some(answer) = done {
            match (answer, prompt.then.take()) {
                (Some(path), Some(then)) => commands.push(Command::SaveToThen {
                    path,
                    then: Box::new(then),
                }),
                (Some(path), None) => commands.push(Command::picked(prompt.kind, path)),
                // Not saved: what waited for the save does not go ahead.
                (None, _) => {}
            }
            *open = false;
        }
    }
}
