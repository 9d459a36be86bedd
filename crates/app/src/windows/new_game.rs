//! The new game window: who plays each colour (a person, or Okapi at its own level),
//! where the game starts (the standard opening or the position on the board), the clock.

use crate::command::Command;
use crate::level_picker::{level_picker, level_summary};
use crate::part::{Commands, FrameView, Window};
use eframe::egui;
use okapi_core::game::Seat;
use okapi_core::level::Level;

/// The window's width: room for a seat's row with the level and its temperature.
const WINDOW_WIDTH: f32 = 540.0;

/// File > New game: starts a game once Start is clicked.
#[derive(Default)]
pub(crate) struct NewGame {
    form: Option<NewGameForm>,
}

impl Window for NewGame {
    fn title(&self) -> &'static str {
        super::NEW_GAME
    }

    /// The form for the game on the board.
    fn opened(&mut self, view: &FrameView) {
        self.form = Some(NewGameForm::for_seats(
            view.session.seats(),
            view.settings.level,
            view.timing_minutes,
        ));
    }

    fn show(
        &mut self,
        ctx: &egui::Context,
        open: &mut bool,
        view: &FrameView,
        commands: &mut Commands,
    ) {
        let title = self.title();
        let Some(form) = &mut self.form else {
            *open = false;
            return;
        };
        let mut start = false;
        let board_is_start = view.game().position() == okapi_core::board::Position::start();
        let solve_limit = view.settings.solve_limit;
        let mut cancel = false;
        // A fixed width, and the levels' descriptions in a block of fixed height: the
        // window keeps its size and its buttons their place whatever is chosen.
        egui::Window::new(title)
            .default_pos([200.0, 80.0])
            .open(open)
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
                let lines = 6.0 * ui.text_style_height(&egui::TextStyle::Body);
                egui::ScrollArea::vertical()
                    .id_salt("new-game-levels")
                    .max_height(lines)
                    .min_scrolled_height(lines)
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        for (i, colour) in ["Black", "White"].iter().enumerate() {
                            ui.horizontal_wrapped(|ui| {
                                ui.label(egui::RichText::new(format!("{colour}:")).strong());
                                if form.engine[i] {
                                    level_summary(ui, &form.levels[i], solve_limit);
                                } else {
                                    ui.label("you play this side.");
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
                        view.settings.solve_limit
                    ))
                    .weak(),
                );
                ui.horizontal(|ui| {
                    start = ui.button("Start").clicked();
                    cancel = ui.button("Cancel").clicked();
                });
            });
        if cancel {
            *open = false;
        }
        if start {
            // The level of the last engine seat is offered again next time.
            if let Some(i) = (0..2).rev().find(|&i| form.engine[i]) {
                commands.push(Command::Set(crate::settings::Setting::Level(
                    form.levels[i],
                )));
            }
            let seats = form.seats();
            commands.push(Command::NewGame {
                black: seats[0],
                white: seats[1],
                minutes: form.minutes,
                from_here: form.from_here && !board_is_start,
            });
        }
    }
}

/// What the new game window holds while open.
#[derive(Clone, Copy, Debug, PartialEq)]
struct NewGameForm {
    /// Whether Okapi plays each colour (Black, White), and at which level.
    pub engine: [bool; 2],
    pub levels: [Level; 2],
    pub minutes: u32,
    /// Start from the position on the board rather than the standard opening.
    pub from_here: bool,
}

impl NewGameForm {
    /// The form for the game on the board: its seats (engine seats at their levels, the
    /// app's level otherwise), the last clock.
    fn for_seats(seats: [Seat; 2], default_level: Level, minutes: u32) -> NewGameForm {
        let level = |s: Seat| match s {
            Seat::Engine(l) => l,
            Seat::Human => default_level,
        };
        NewGameForm {
            engine: seats.map(|s| s.is_engine()),
            levels: seats.map(level),
            minutes,
            from_here: false,
        }
    }

    fn seats(&self) -> [Seat; 2] {
        [0, 1].map(|i| {
            if self.engine[i] {
                Seat::Engine(self.levels[i])
            } else {
                Seat::Human
            }
        })
    }
}
