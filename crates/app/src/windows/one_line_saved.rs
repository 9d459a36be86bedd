//! After a save in a one-line format (GGF, a transcript) of a game with variations: what
//! the file left out, and the choice between saving every line as Okapi JSON and letting
//! the other lines go. Either answer settles it: the unsaved-changes question comes back
//! only for something that would really be lost.

use crate::app::App;
use crate::command::Command;
use eframe::egui;

impl App {
    pub(super) fn one_line_saved_window(&mut self, ctx: &egui::Context) {
        let Some(saved) = self.view.one_line_saved.clone() else {
            return;
        };
        let json = saved.json_path();
        let json_name = json.file_name().map_or_else(
            || json.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        let moves = |n: usize| format!("{n} move{}", if n == 1 { "" } else { "s" });
        let mut answer = None;
        let modal = egui::Modal::new(egui::Id::unique("one-line-saved")).show(ctx, |ui| {
            ui.set_max_width(440.0);
            ui.heading(format!("{} keeps one line", saved.format.name()));
            ui.label(format!(
                "{} holds the line on the board. The other lines' {} are not in it: {} \
                 has no variations. Okapi JSON keeps every line, with the moves' values.",
                saved.path.display(),
                moves(saved.left_out),
                saved.format.name(),
            ));
            ui.horizontal(|ui| {
                if ui
                    .button(format!("Save every line as {json_name}"))
                    .clicked()
                {
                    answer = Some(true);
                }
                if ui
                    .button("The line is enough")
                    .on_hover_text("The other lines stay on the board and count as saved")
                    .clicked()
                {
                    answer = Some(false);
                }
            });
        });
        // Closed without an answer: the other lines stay unsaved (asked about again
        // before they could be lost), and nothing waits on them.
        if modal.should_close() && answer.is_none() {
            self.view.one_line_saved = None;
            return;
        }
        let Some(save_all) = answer else { return };
        self.view.one_line_saved = None;
        if save_all {
            self.view.after_save = saved.then;
            // Beside the one-line file; a file of that name already there is not
            // overwritten unasked: the save dialog offers the name instead.
            if crate::platform::exists(&json) {
                match self.file_dialogs().save_game(&json_name) {
                    Some(path) => self.commands.push(Command::SaveTo(path)),
                    None => self.view.after_save = None,
                }
            } else {
                self.commands.push(Command::SaveTo(json));
            }
        } else {
            // The player let the other lines go: nothing is lost that they want.
            self.mark_saved();
            self.notice = Some(format!(
                "Saved {}: the line on the board; the other lines stay on the board only.",
                saved.path.display()
            ));
            if let Some(next) = saved.then {
                self.commands.push(next);
            }
        }
    }
}
