//! After a save in a one-line format (GGF, a transcript) of a game with variations: what
//! the file left out, and the choice between saving every line as Okapi JSON and letting
//! the other lines go. Either answer settles it: the unsaved-changes question comes back
//! only for something that would really be lost.

use crate::command::Command;
use crate::part::{Commands, FrameView, Window};
use eframe::egui;
use okapi_core::formats::Format;
use std::path::PathBuf;

/// A one-line save that left moves out, waiting for the player's answer.
#[derive(Clone, Debug)]
pub(crate) struct OneLineSaved {
    /// The file written.
    pub path: PathBuf,
    pub format: Format,
    /// Moves of the game in no file.
    pub left_out: usize,
    /// What waited for the save (a new game after "Save" in the unsaved-changes
    /// question): it goes on once the other lines are saved or let go.
    pub then: Option<Command>,
}

impl OneLineSaved {
    /// Where every line would go: the same name as Okapi JSON.
    pub(crate) fn json_path(&self) -> PathBuf {
        self.path.with_extension("json")
    }
}

impl Window for OneLineSaved {
    fn title(&self) -> &'static str {
        "One line saved"
    }

    fn show(
        &mut self,
        ctx: &egui::Context,
        open: &mut bool,
        _: &FrameView,
        commands: &mut Commands,
    ) {
        let saved = self;
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
            *open = false;
            return;
        }
        let Some(save_all) = answer else { return };
        *open = false;
        let then = saved.then.take().map(Box::new);
        commands.push(if save_all {
            Command::SaveEveryLine { json, then }
        } else {
            Command::KeepOneLine {
                path: saved.path.clone(),
                then,
            }
        });
    }
}
