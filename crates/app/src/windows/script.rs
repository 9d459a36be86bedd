//! The script panel around the open endgame script's own view (`app/script.rs`): docked
//! left of the board, so the list never covers it and a clicked position shows beside it.

use crate::{App, Command};
use eframe::egui;

impl App {
    /// The open script, while its panel is shown.
    pub(crate) fn script_panel(&mut self, ui: &mut egui::Ui) {
        let mut commands = Vec::new();
        if let Some(job) = &mut self.script
            && job.open
        {
            egui::Panel::left("script-panel")
                .resizable(true)
                .default_size(340.0)
                .min_size(260.0)
                .show(ui, |ui| {
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
                });
        }
        self.commands.extend(commands);
    }
}
