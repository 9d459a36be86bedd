//! The new game window: the players, the clock, the level.

use crate::app::level_picker::level_picker;
use crate::app::{App, Command};
use crate::formats::game::Player;
use eframe::egui;

impl App {
    /// File > New game: starts a game once Start is clicked.
    pub(super) fn new_game_window(&mut self, ctx: &egui::Context) {
        if let Some((mut players, mut minutes)) = self.view.new_game {
            let mut open = true;
            let mut start = false;
            egui::Window::new("New game")
                .default_pos([200.0, 80.0])
                .open(&mut open)
                .collapsible(false)
                .resizable(false)
                .show(ctx, |ui| {
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
            self.view.new_game = if open { Some((players, minutes)) } else { None };
            if start {
                self.commands.push(Command::NewGame {
                    black: players[0],
                    white: players[1],
                    minutes,
                });
            }
        }
    }
}
