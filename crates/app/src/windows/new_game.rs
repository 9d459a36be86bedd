//! The new game window: who plays each colour (a person, or Okapi at its own level),
//! where the game starts (the standard opening or the position on the board), the clock.

use crate::app::App;
use crate::command::Command;
use crate::level_picker::{level_picker, level_summary};
use eframe::egui;

/// The window's width: room for a seat's row with the level and its temperature.
const WINDOW_WIDTH: f32 = 540.0;

impl App {
    /// File > New game: starts a game once Start is clicked.
    pub(crate) fn new_game_window(&mut self, ctx: &egui::Context) {
        let Some(mut form) = self.view.new_game else {
            return;
        };
        let mut open = true;
        let mut start = false;
        let board_is_start = self.game().position() == okapi_core::board::Position::start();
        let solve_limit = self.settings.solve_limit;
        let mut cancel = false;
        // A fixed width, and the levels' descriptions in a block of fixed height: the
        // window keeps its size and its buttons their place whatever is chosen.
        egui::Window::new("New game")
            .default_pos([200.0, 80.0])
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .min_width(WINDOW_WIDTH)
            .max_width(WINDOW_WIDTH)
            .show(ctx, |ui| {
                egui::Grid::new("new-game-seats")
                    .num_columns(3)
                    .spacing([12.0, 8.0])
                    .show(ui, |ui| {
                        for (i, colour) in ["Black", "White"].iter().enumerate() {
                            ui.label(format!("{colour}:"));
                            ui.horizontal(|ui| {
                                ui.radio_value(&mut form.engine[i], false, "Human")
                                    .on_hover_text(format!("You play {colour}"));
                                ui.radio_value(&mut form.engine[i], true, format!("Okapi plays {colour}"));
                            });
                            ui.add_enabled_ui(form.engine[i], |ui| {
                                level_picker(
                                    ui,
                                    &format!("new-game-level-{colour}"),
                                    &mut form.levels[i],
                                    solve_limit,
                                );
                            });
                            ui.end_row();
                        }
                    });
                let lines = 7.0 * ui.text_style_height(&egui::TextStyle::Small);
                egui::ScrollArea::vertical()
                    .id_salt("new-game-levels")
                    .max_height(lines)
                    .min_scrolled_height(lines)
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        for (i, colour) in ["Black", "White"].iter().enumerate() {
                            ui.horizontal_wrapped(|ui| {
                                ui.label(egui::RichText::new(format!("{colour}:")).small());
                                if form.engine[i] {
                                    level_summary(ui, &form.levels[i], solve_limit);
                                } else {
                                    ui.label(egui::RichText::new("you play this side.").small());
                                }
                            });
                        }
                    });
                ui.separator();
                ui.horizontal(|ui| {
                    ui.label("Start from:");
                    ui.radio_value(&mut form.from_here, false, "the standard opening");
                    ui.add_enabled_ui(!board_is_start, |ui| {
                        ui.radio_value(&mut form.from_here, true, "the position on the board")
                            .on_hover_text("A set-up, opened or pasted position, or any point of the game");
                    });
                });
                ui.horizontal(|ui| {
                    let label = ui.label("Clock, minutes per side (0: none):");
                    ui.add(egui::DragValue::new(&mut form.minutes).range(0..=180))
                        .labelled_by(label.id);
                });
                ui.label(
                    egui::RichText::new(format!(
                        "Numbered levels search that many moves ahead; timed ones think that long a move. \
                         A temperature above 0 weakens the engine for practice: it draws its move \
                         by value (higher plays worse). At full strength it plays perfectly from {} empties on.",
                        self.settings.solve_limit
                    ))
                    .weak(),
                );
                ui.horizontal(|ui| {
                    start = ui.button("Start").clicked();
                    cancel = ui.button("Cancel").clicked();
                });
            });
        self.view.new_game = (open && !cancel).then_some(form);
        if start {
            // The level of the last engine seat is offered again next time.
            if let Some(i) = (0..2).rev().find(|&i| form.engine[i]) {
                self.commands
                    .push(Command::Set(crate::settings::Setting::Level(
                        form.levels[i],
                    )));
            }
            let seats = form.seats();
            self.commands.push(Command::NewGame {
                black: seats[0],
                white: seats[1],
                minutes: form.minutes,
                from_here: form.from_here && !board_is_start,
            });
        }
    }
}
