//! The script tab of the side area around the open endgame script's own view
//! (`app/script.rs`): beside the board, never over it or taking its room, so a clicked
//! position shows beside the list and the board keeps its size and place.

use crate::app::App;
use crate::command::Command;
use eframe::egui;

impl App {
    /// The open script, in its tab of the side area.
    pub(crate) fn script_contents(&mut self, ui: &mut egui::Ui) {
        let mut commands = Vec::new();
        if let Some(job) = &mut self.script
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
                        job.open = false;
                    }
                });
            });
            job.ui(ui, &mut commands);
        }
        self.commands.extend(commands);
    }
}
