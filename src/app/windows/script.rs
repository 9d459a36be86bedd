//! The script window around the open endgame script's own view (`app/script.rs`).

use crate::app::App;
use eframe::egui;

impl App {
    /// The open script, while its window is shown.
    pub(super) fn script_window(&mut self, ctx: &egui::Context) {
        let mut commands = Vec::new();
        if let Some(job) = &mut self.script
            && job.open
        {
            let mut open = true;
            egui::Window::new(format!("Script: {}", job.name()))
                .id(egui::Id::unique("script-window"))
                .open(&mut open)
                .default_size([560.0, 460.0])
                .default_pos([20.0, 60.0])
                .show(ctx, |ui| job.ui(ui, &mut commands));
            job.open = open;
        }
        self.commands.extend(commands);
    }
}
