//! Collecting on the practice window: where from (the game on the board, a folder, the
//! games database), whose, how large, and the progress.

use super::PracticeWindow;
use crate::command::{Command, PracticeSource, PracticeStep};
use crate::move_list::plural;
use crate::part::{Commands, FrameView};
use crate::practice_state::Practice;
use eframe::egui;
use okapi_core::board::Color;

impl PracticeWindow {
    /// Where to collect mistakes from, whose, how large, and the progress.
    pub(super) fn collect_form(
        &mut self,
        ui: &mut egui::Ui,
        view: &FrameView,
        commands: &mut Commands,
    ) {
        ui.strong("Collect the positions where a player lost discs");
        let busy = view.practice.collecting_anything();
        ui.add_enabled_ui(!busy, |ui| {
            let offered = sources(crate::platform::CAN_PICK_FOLDER);
            if !offered.iter().any(|(s, _)| *s == self.collect.source) {
                self.collect.source = PracticeSource::default();
            }
            ui.horizontal_wrapped(|ui| {
                for (source, text) in offered {
                    ui.radio_value(&mut self.collect.source, *source, *text);
                }
            });
            match self.collect.source {
                PracticeSource::ThisGame => {
                    let game = view.game();
                    let names = [(Color::Black, &game.black), (Color::White, &game.white)];
                    ui.horizontal(|ui| {
                        ui.label("Player:");
                        for (side, name) in names {
                            ui.radio_value(&mut self.collect.side, side, side_choice(side, name));
                        }
                    });
                }
                PracticeSource::Folder => {
                    ui.horizontal(|ui| {
                        let label = ui.label("Folder:");
                        ui.add(
                            egui::TextEdit::singleline(&mut self.collect.folder)
                                .desired_width(200.0),
                        )
                        .labelled_by(label.id);
                        if ui.button("Choose…").clicked() {
                            commands.push(Command::Practice(PracticeStep::ChooseFolder));
                        }
                    });
                    self.player_field(ui);
                    ui.label(
                        egui::RichText::new(
                            "GGF, transcripts, Okapi JSON, WTHOR and PGN files, subfolders too",
                        )
                        .small()
                        .weak(),
                    );
                }
                PracticeSource::Database => self.player_field(ui),
            }
            ui.horizontal(|ui| {
                let label = ui.label("Lost at least");
                ui.add(egui::DragValue::new(&mut self.collect.min_loss).range(1..=64))
                    .labelled_by(label.id);
                ui.label("discs");
            });
        });
        ui.horizontal(|ui| {
            let ready = match self.collect.source {
                PracticeSource::ThisGame => !view.game().is_empty(),
                PracticeSource::Folder => {
                    !self.collect.folder.trim().is_empty() && !self.collect.name.trim().is_empty()
                }
                PracticeSource::Database => !self.collect.name.trim().is_empty(),
            };
            if ui
                .add_enabled(ready && !busy, egui::Button::new("Collect"))
                .clicked()
            {
                commands.push(Command::Practice(PracticeStep::Collect(
                    self.collect.clone(),
                )));
            }
            if busy && ui.button("Stop").clicked() {
                commands.push(Command::Practice(PracticeStep::StopCollecting));
            }
        });
        collect_progress(ui, view.practice);
    }

    fn player_field(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Player:");
            ui.add(
                egui::TextEdit::singleline(&mut self.collect.name)
                    .hint_text("part of the name")
                    .desired_width(200.0),
            )
            .labelled_by(label.id);
        });
    }
}

/// The sources offered to collect from, with their labels: a folder of games only where
/// the platform can pick and read one (not in the browser).
fn sources(can_pick_folder: bool) -> &'static [(PracticeSource, &'static str)] {
    const ALL: [(PracticeSource, &str); 3] = [
        (PracticeSource::ThisGame, "This game"),
        (PracticeSource::Folder, "A folder of games"),
        (PracticeSource::Database, "The games database"),
    ];
    const WITHOUT_FOLDER: [(PracticeSource, &str); 2] = [ALL[0], ALL[2]];
    if can_pick_folder {
        &ALL
    } else {
        &WITHOUT_FOLDER
    }
}

/// A side of the game on the board as the player choice names it: the colour, with the
/// player's name when the game has one ("Black (Alice)"), the colour alone when not
/// ("Black", never "Black (Black)").
fn side_choice(side: Color, name: &str) -> String {
    match name.trim() {
        "" => side.name().to_string(),
        name => format!("{} ({name})", side.name()),
    }
}

/// What the collection under way has done, and what the last one found.
fn collect_progress(ui: &mut egui::Ui, p: &Practice) {
    if p.waiting_for_database {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("Loading the games database…");
        });
    } else if p.finding.is_some() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("Reading the games…");
        });
    } else if let Some(c) = &p.collecting {
        let what = c
            .current
            .as_ref()
            .map_or(String::new(), |g| format!(": {}", g.label));
        ui.horizontal(|ui| {
            ui.spinner();
            ui.add(
                egui::Label::new(format!(
                    "Analysing game {} of {}{what}",
                    (c.done + 1).min(c.total),
                    c.total
                ))
                .wrap(),
            );
        });
        ui.label(format!("{} found so far", plural(c.new, "new position")));
    }
    if let Some(summary) = &p.summary {
        ui.add(egui::Label::new(summary.as_str()).wrap());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_named_once_by_its_colour_and_by_its_player_when_the_game_names_one() {
        assert_eq!(side_choice(Color::Black, ""), "Black");
        assert_eq!(side_choice(Color::White, "  "), "White");
        assert_eq!(side_choice(Color::Black, "Alice"), "Black (Alice)");
        assert_eq!(side_choice(Color::White, " Bob "), "White (Bob)");
    }

    #[test]
    fn a_folder_of_games_is_offered_only_where_folders_can_be_picked() {
        let kinds = |can| sources(can).iter().map(|(s, _)| *s).collect::<Vec<_>>();
        assert_eq!(
            kinds(true),
            [
                PracticeSource::ThisGame,
                PracticeSource::Folder,
                PracticeSource::Database
            ]
        );
        assert_eq!(
            kinds(false),
            [PracticeSource::ThisGame, PracticeSource::Database]
        );
    }
}
