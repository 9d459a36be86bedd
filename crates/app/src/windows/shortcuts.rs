//! Help > Keyboard shortcuts.

use crate::command::Command;
use crate::part::{Commands, FrameView, Window};
use eframe::egui;

/// Lists the shortcuts from the table the app reads.
#[derive(Default)]
pub(crate) struct Shortcuts;

impl Window for Shortcuts {
    fn title(&self) -> &'static str {
        super::SHORTCUTS
    }

    fn show(&mut self, ctx: &egui::Context, open: &mut bool, _: &FrameView, _: &mut Commands) {
        // Placed below the menu bar, beside the About window.
        egui::Window::new(self.title())
            .open(open)
            .default_pos([30.0, 60.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                shortcut_grid(ui, "shortcuts");
            });
    }
}

/// Every shortcut, from the table the app itself reads, so the list cannot go stale.
pub(super) fn shortcut_grid(ui: &mut egui::Ui, id: &str) {
    let ctx = ui.ctx().clone();
    egui::Grid::new(id).striped(true).show(ui, |ui| {
        for c in Command::WITH_SHORTCUTS {
            if let Some(k) = c.shortcut() {
                ui.monospace(ctx.format_shortcut(&k));
                ui.label(c.description());
                ui.end_row();
            }
        }
        for (keys, what) in [
            (
                "Alt+F/E/G/N/V/H, F10",
                "Open a menu (File, Edit, Game, Engine, View, Help); then arrows, Enter, Escape",
            ),
            (
                "Click",
                "Play a marked square; in set-up, cycle empty, black, white",
            ),
            ("Wheel", "Scroll the move list and the side panel"),
        ] {
            ui.monospace(keys);
            ui.label(what);
            ui.end_row();
        }
    });
}
