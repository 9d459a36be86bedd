//! How the practice goes (accuracy by game phase, the streak, what is due) and the
//! tolerance the player sets for what counts as found.

use crate::command::{Command, PracticeStep};
use crate::move_list::plural;
use crate::part::Commands;
use crate::practice_state::Practice;
use eframe::egui;
use okapi_core::practice::{Phase, Tolerance};

/// The statistics and the tolerance, each under a heading that folds.
pub(super) fn practice_stats(ui: &mut egui::Ui, p: &Practice, commands: &mut Commands) {
    let Some(tolerance) = p.store.as_ref().map(|s| s.tolerance) else {
        return;
    };
    let Some(stats) = p.figures.as_ref().map(|f| f.stats) else {
        return;
    };
    egui::CollapsingHeader::new("Statistics")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("practice-stats")
                .num_columns(3)
                .striped(true)
                .show(ui, |ui| {
                    for phase in Phase::ALL {
                        let t = stats.phase(phase);
                        ui.label(phase.name()).on_hover_text(phase.span());
                        ui.label(match t.accuracy() {
                            Some(a) => format!("{:.0}% right", a * 100.0),
                            None => "no answers yet".into(),
                        });
                        ui.label(format!("{} of {}", t.right, t.answers()));
                        ui.end_row();
                    }
                });
            ui.label(format!(
                "Streak: {} right in a row (best {}).",
                stats.streak.current, stats.streak.best
            ));
            ui.label(format!(
                "Due today: {}; missed today: {}.",
                plural(stats.due, "position"),
                stats.missed_today
            ));
        });
    egui::CollapsingHeader::new("Tolerance")
        .default_open(false)
        .show(ui, |ui| {
            ui.label(
                egui::RichText::new(
                    "A move this close to the best counts as found: the search's values \
                     move by a disc or two from one depth to the next, the solver's do not.",
                )
                .small(),
            );
            let mut t = tolerance;
            egui::Grid::new("practice-tolerance")
                .num_columns(2)
                .show(ui, |ui| {
                    ui.label("Values searched:");
                    ui.horizontal(|ui| {
                        ui.add(egui::DragValue::new(&mut t.searched).range(0..=Tolerance::MAX));
                        ui.label(if t.searched == 1 { "disc" } else { "discs" });
                    });
                    ui.end_row();
                    ui.label("Values proven:");
                    ui.horizontal(|ui| {
                        ui.add(egui::DragValue::new(&mut t.proven).range(0..=Tolerance::MAX));
                        ui.label(if t.proven == 1 { "disc" } else { "discs" });
                    });
                    ui.end_row();
                });
            if t != tolerance {
                commands.push(Command::Practice(PracticeStep::SetTolerance(t)));
            }
        });
}
