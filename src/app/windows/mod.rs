//! The app's windows, one file each.

use super::level_picker::level_picker;
use super::{App, Command};
use crate::formats::game::Player;
use eframe::egui;

impl App {
    pub(super) fn windows(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if let Some((mut players, mut minutes)) = self.new_game {
            let mut open = true;
            let mut start = false;
            egui::Window::new("New game")
                .default_pos([200.0, 80.0])
                .open(&mut open)
                .collapsible(false)
                .resizable(false)
                .show(&ctx, |ui| {
                    for (i, colour) in ["Black", "White"].iter().enumerate() {
                        ui.horizontal(|ui| {
                            ui.label(format!("{colour}:"));
                            egui::ComboBox::from_id_salt(("new-game-player", i))
                                .selected_text(players[i].name())
                                .width(260.0)
                                .show_ui(ui, |ui| {
                                    for p in Player::ALL {
                                        ui.selectable_value(&mut players[i], p, p.name());
                                    }
                                });
                        });
                    }
                    ui.horizontal(|ui| {
                        let label = ui.label("Clock, minutes per side (0: none):");
                        ui.add(egui::DragValue::new(&mut minutes).range(0..=180))
                            .labelled_by(label.id);
                    });
                    ui.horizontal(|ui| {
                        // Saved with the settings; the engine gets it when the game starts.
                        level_picker(ui, "new-game-level", &mut self.settings.level);
                    });
                    ui.label(
                        egui::RichText::new(format!(
                            "Numbered levels search that many plies; timed ones think that long a move. \
                             A temperature above 0 weakens the engine for practice: it draws its move \
                             by value (higher plays worse). Unweakened, it plays perfectly from {} empties on.",
                            self.settings.solve_limit
                        ))
                        .small(),
                    );
                    start = ui.button("Start").clicked();
                });
            self.new_game = if open { Some((players, minutes)) } else { None };
            if start {
                self.commands.push(Command::NewGame {
                    black: players[0],
                    white: players[1],
                    minutes,
                });
            }
        }
        if self.about {
            egui::Window::new("About Okapi").open(&mut self.about).collapsible(false).default_pos([420.0, 60.0]).show(&ctx, |ui| {
                ui.label(format!("Okapi {} - an Othello analyser and opponent.", env!("CARGO_PKG_VERSION")));
                ui.label("Click a marked square to play. The engine values every legal move on its square.");
                ui.label("Help > Keyboard shortcuts lists the keys.");
            });
        }
        if self.shortcuts {
            // Placed below the menu bar, beside the About window.
            egui::Window::new("Keyboard shortcuts")
                .open(&mut self.shortcuts)
                .default_pos([30.0, 60.0])
                .collapsible(false)
                .resizable(false)
                .show(&ctx, |ui| {
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
                .show(&ctx, |ui| job.ui(ui, &mut commands));
            job.open = open;
        }
        self.commands.extend(commands);
    }
}
