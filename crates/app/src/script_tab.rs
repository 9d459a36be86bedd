//! The script tab of the side area around the open endgame script's own view
//! (`script/`): beside the board, never over it or taking its room, so a clicked
//! position shows beside the list and the board keeps its size and place.

use crate::command::Command;
use crate::part::{Commands, FrameView, Part};
use eframe::egui;

/// The open script, in its tab of the side area. Owns nothing: the script and its
/// results are the app's (the engine's events fill them in).
#[derive(Default)]
pub(crate) struct ScriptTab;

impl Part for ScriptTab {
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        if let Some(job) = view.script
            && job.open
        {
            ui.horizontal(|ui| {
                ui.heading(format!("Script: {}", job.name()));
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui
                        .button("Close script")
                        .on_hover_text("Close the script (its results are forgotten)")
                        .clicked()
                    {
                        commands.push(Command::CloseScript);
                    }
                    if ui
                        .button("Hide")
                        .on_hover_text("File › Show the script shows it again")
                        .clicked()
                    {
                        commands.push(Command::HideScript);
                    }
                });
            });
            job.ui(ui, commands);
        }
    }
}
