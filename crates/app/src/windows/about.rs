//! Help > About Okapi.

use crate::app::App;
use eframe::egui;

impl App {
    /// The version and how to play.
    pub(super) fn about_window(&mut self, ctx: &egui::Context) {
        if self.view.about {
            egui::Window::new("About Okapi").open(&mut self.view.about).collapsible(false).default_pos([420.0, 60.0]).show(ctx, |ui| {
                ui.label(format!("Okapi {} - an Othello analyser and opponent.", env!("CARGO_PKG_VERSION")));
                ui.label("Click a marked square to play. The engine values every legal move on its square.");
                ui.label("Help > Keyboard shortcuts lists the keys.");
            });
        }
    }
}
