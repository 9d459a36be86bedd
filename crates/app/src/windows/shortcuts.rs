//! Help > Keyboard shortcuts.

use crate::{App, Command};
use eframe::egui;

impl App {
    /// Lists the shortcuts from the table the app reads.
    pub(super) fn shortcuts_window(&mut self, ctx: &egui::Context) {
        if self.view.shortcuts {
            // Placed below the menu bar, beside the About window.
            egui::Window::new("Keyboard shortcuts")
                .open(&mut self.view.shortcuts)
                .default_pos([30.0, 60.0])
                .collapsible(false)
                .resizable(false)
                .show(ctx, |ui| {
                    egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                        // Listed from the table the app itself reads, so it cannot go stale.
                        for c in Command::WITH_SHORTCUTS {
                            if let Some(k) = c.shortcut() {
                                ui.monospace(ctx.format_shortcut(&k));
                                ui.label(c.description());
                                ui.end_row();
                            }
                        }
                        ui.monospace("Ctrl+V");
                        ui.label("Paste a transcript, game or board");
                        ui.end_row();
                    });
                });
        }
    }
}
