//! Collecting on the practice window: where from (the game on the board, a folder, the
//! games database), whose, how large, and the progress.

use super::PracticeWindow;
use crate::command::{Command, PracticeSource, PracticeStep};
use crate::move_list::plural;
use crate::part::{Commands, FrameView};
use crate::practice_state::{Practice, name_or};
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
            ui.horizontal_wrapped(|ui| {
                let source = &mut self.collect.source;
                ui.radio_value(source, PracticeSource::ThisGame, "This game");
                ui.radio_value(source, PracticeSource::Folder, "A folder of games");
                ui.radio_value(source, PracticeSource::Database, "The games database");
            });
            match self.collect.source {
                PracticeSource::ThisGame => {
                    let game = view.game();
                    let names = [
                        (Color::Black, name_or(&game.black, "Black")),
                        (Color::White, name_or(&game.white, "White")),
                    ];
                    ui.horizontal(|ui| {
                        ui.label("Player:");
                        for (side, name) in names {
                            let text = format!("{} ({name})", side.name());
                            ui.radio_value(&mut self.collect.side, side, text);
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
