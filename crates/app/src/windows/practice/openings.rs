//! The practice window's Openings part: the opening trainer ([`okapi_core::practice::openings`]).
//! The player picks a named opening (or the line on the board) and a colour; the board
//! shows the lesson's position, Okapi answers with the book's moves and each of the
//! player's moves is judged against the book's best (`command_handling/practice_lesson.rs`).

use super::PracticeWindow;
use crate::command::{Command, PracticeStep};
use crate::part::Commands;
use crate::practice_state::{LINE_ON_BOARD, Practice};
use eframe::egui;
use okapi_core::board::Color;
use okapi_core::game::openings;
use okapi_core::practice::openings::Weighting;

impl PracticeWindow {
    /// The Openings part: the choice and Start, or the lesson under way.
    pub(super) fn openings_ui(&mut self, ui: &mut egui::Ui, p: &Practice, commands: &mut Commands) {
        if p.openings.lesson.is_some() {
            self.lesson_ui(ui, p, commands);
            return;
        }
        ui.label(
            "Okapi plays the book's moves; find a move as good as the book's best. \
             Your misses come back with your other positions.",
        );
        let t = &mut self.lesson;
        let shown = t.opening.as_deref().unwrap_or(LINE_ON_BOARD).to_string();
        egui::ComboBox::from_label("Opening")
            .selected_text(shown)
            .height(400.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut t.opening, None, LINE_ON_BOARD);
                for o in openings::shipped().list() {
                    ui.selectable_value(&mut t.opening, Some(o.name.to_string()), o.name);
                }
            });
        ui.horizontal(|ui| {
            ui.label("You play");
            ui.radio_value(&mut t.player, Color::Black, "Black");
            ui.radio_value(&mut t.player, Color::White, "White");
        });
        ui.horizontal(|ui| {
            ui.label("Okapi plays");
            ui.radio_value(&mut t.weighting, Weighting::BookValues, "the book's choice")
                .on_hover_text("Within a disc of the book's best, weighted by value");
            ui.radio_value(&mut t.weighting, Weighting::Games, "as the games did")
                .on_hover_text("Each book move as often as the games played it");
        });
        if ui
            .button("Start lesson")
            .on_hover_text("The opening's position on the board; click your moves there")
            .clicked()
        {
            commands.push(Command::Practice(PracticeStep::StartLesson(
                self.lesson.clone(),
            )));
        }
    }

    /// The lesson under way: whose move, the last verdict, the end.
    fn lesson_ui(&self, ui: &mut egui::Ui, p: &Practice, commands: &mut Commands) {
        let t = &p.openings;
        let Some(lesson) = &t.lesson else {
            return;
        };
        ui.strong(format!(
            "{}: you play {}",
            lesson.name,
            lesson.player.name()
        ));
        ui.label(format!(
            "Found {} of {}",
            lesson.found,
            lesson.found as usize + lesson.missed.len()
        ));
        if let Some(verdict) = &t.verdict {
            ui.label(verdict);
        }
        if let Some(ended) = &t.ended {
            ui.separator();
            ui.label(ended);
        } else if lesson.players_turn() {
            ui.label("Your move: click it on the board.");
        } else {
            ui.label("Okapi plays the book's move…");
            // Okapi moves after this frame has shown the player's move.
            commands.push(Command::Practice(PracticeStep::LessonBookMove));
            ui.ctx().request_repaint();
        }
        ui.horizontal(|ui| {
            if ui.button("Again").clicked() {
                commands.push(Command::Practice(PracticeStep::StartLesson(
                    self.lesson.clone(),
                )));
            }
            if ui.button("End lesson").clicked() {
                commands.push(Command::Practice(PracticeStep::EndLesson));
            }
        });
    }
}
