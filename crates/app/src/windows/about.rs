//! Help > About Okapi.

use crate::part::{Commands, FrameView, Window};
use eframe::egui;

/// The version and how to play.
#[derive(Default)]
pub(crate) struct About;

impl Window for About {
    fn title(&self) -> &'static str {
        super::ABOUT
    }

    fn show(&mut self, ctx: &egui::Context, open: &mut bool, _: &FrameView, _: &mut Commands) {
        egui::Window::new(self.title()).open(open).collapsible(false).default_pos([420.0, 60.0]).show(ctx, |ui| {
            ui.label(format!("Okapi {} - an Othello analyser and opponent.", env!("CARGO_PKG_VERSION")));
            ui.label("Click a marked square to play. The engine values every legal move on its square.");
            ui.label("Help > Keyboard shortcuts lists the keys.");
        });
    }
}
