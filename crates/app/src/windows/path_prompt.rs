//! The path field standing in for a file dialog the system could not show, and the file
//! dialogs started in the folder last used.

use crate::app::App;
use crate::dialogs::{FileDialogs, PathPrompt};
use crate::part::{Commands, FrameView, Window};
use eframe::egui;
use std::path::PathBuf;

impl App {
    /// The file dialogs, told to start in the folder last used (kept in the settings).
    pub(crate) fn file_dialogs(&mut self) -> &mut dyn FileDialogs {
        let folder = self.settings.last_folder.as_deref().filter(|d| d.is_dir());
        self.dialogs.start_in(folder);
        self.dialogs.as_mut()
    }

    /// After a dialog that could not be shown: opens the path field and says so.
    /// Returns true when it did.
    pub(crate) fn take_dialog_failure(&mut self) -> bool {
        let Some(f) = self.dialogs.take_failure() else {
            return false;
        };
        let dir = match &self.settings.last_folder {
            Some(dir) if dir.is_dir() => dir.clone(),
            _ => std::env::current_dir().unwrap_or_default(),
        };
        let text = match &f.suggested_name {
            Some(name) => dir.join(name),
            None => dir.join(""),
        };
        // The reason is a raw D-Bus or portal error ("org.freedesktop.DBus.Error..."),
        // which tells a player nothing: it goes to standard error for whoever sets up
        // the desktop, and the player reads what happened and what to do.
        eprintln!("okapi: the file dialog failed: {}", f.reason);
        self.notice = Some(format!(
            "No file dialog could be shown: type the path in the window instead{}.",
            if cfg!(any(target_os = "windows", target_os = "macos")) {
                ""
            } else {
                " (installing xdg-desktop-portal or zenity brings the dialog back)"
            }
        ));
        self.parts.windows.path_prompt = Some(PathPrompt {
            kind: f.kind,
            text: text.display().to_string(),
            focused: false,
        });
        true
    }
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
            if let Some(path) = answer {
                commands.push(prompt.kind.command(path));
            }
            *open = false;
        }
    }
}
