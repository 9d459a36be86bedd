//! The round on the practice window: the card, the answer and its judgement, the best
//! line stepped through on the board, what comes next.

use super::card_text::{history_text, played_text, values_source, verdict};
use super::days_from_now;
use crate::command::{Command, PracticeStep};
use crate::move_list::plural;
use crate::part::{Commands, FrameView};
use crate::practice_state::Practice;
use eframe::egui;
use okapi_core::game::numbered_line;
use okapi_core::practice::Judgement;

/// The round: the card, the answer and its judgement, the best line, what comes next.
pub(super) fn round_ui(ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
    let p = view.practice;
    let today = p.today();
    let (still, next_due) = match &p.figures {
        Some(f) => (f.round, f.next_due),
        None => (0, None),
    };
    let (Some(round), Some(store)) = (&p.round, &p.store) else {
        return;
    };
    let Some(shown) = &round.shown else {
        ui.strong(format!(
            "Done for today: {} right, {} missed.",
            round.right, round.missed
        ));
        if still > 0 {
            ui.label(format!(
                "{} still to find today: start again to retry.",
                plural(still, "position")
            ));
        }
        if let Some((day, count)) = next_due {
            ui.label(format!(
                "Next: {} on {day} ({}).",
                plural(count, "position"),
                days_from_now(today.until(day))
            ));
        }
        if ui.button("End practice").clicked() {
            commands.push(Command::Practice(PracticeStep::End));
        }
        return;
    };
    let Some(card) = store.cards.get(shown.card) else {
        return;
    };
    let retry = shown.again;
    ui.strong(format!(
        "Position {} of {}{}",
        round.at + 1,
        round.queue.len(),
        if retry { " (again: missed before)" } else { "" }
    ));
    let side = card.position.side_to_move();
    ui.label(format!(
        "{} to move: find the best move and click it on the board.",
        side.name()
    ));
    ui.label(
        egui::RichText::new(format!(
            "From {}, move {} ({} to play).",
            card.origin.game,
            card.origin.move_number(),
            card.origin.player
        ))
        .small()
        .weak(),
    );
    ui.separator();
    match (shown.answer, shown.judgement) {
        (None, _) => {
            if !shown.valued {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(
                        egui::RichText::new("the engine is valuing the moves")
                            .small()
                            .weak(),
                    );
                });
            }
        }
        (Some(sq), None) => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("Judging {sq}…"));
            });
        }
        (Some(_), Some(j)) => {
            let known = view.known;
            let now = known.get(&card.position, card.played).map(|e| {
                let e = known.bounded(&card.position, e);
                (e, known.label(&card.position, e))
            });
            let played = played_text(card, now, j.best_eval);
            let next = shown.next_in.map(|days| {
                format!(
                    "This position comes back {} ({}).",
                    days_from_now(i64::from(days)),
                    today.plus(days)
                )
            });
            let line = shown
                .best_line
                .as_ref()
                .map(|l| (numbered_line(&card.position, l), shown.line_step, l.len()));
            let history = history_text(card);
            judgement_ui(ui, p, commands, &j, &played, next, line);
            ui.separator();
            ui.label(egui::RichText::new(history).small());
        }
    }
}

/// What the judged card says (`j`, the move of the game, when it comes back, the best
/// line and the step shown) and the buttons to go on.
fn judgement_ui(
    ui: &mut egui::Ui,
    p: &Practice,
    commands: &mut Commands,
    j: &Judgement,
    played: &str,
    next: Option<String>,
    line: Option<(String, usize, usize)>,
) {
    let (text, color) = verdict(j, ui.visuals());
    ui.label(egui::RichText::new(text).strong().color(color));
    ui.label(egui::RichText::new(values_source(j)).small());
    ui.label(played);
    if let Some(next) = next {
        ui.label(next);
    }
    let asked = p.shown().is_some_and(|s| s.line_asked);
    match line {
        Some((line, step, len)) => {
            ui.add(
                egui::Label::new(format!("Best line: {line}"))
                    .wrap()
                    .selectable(true),
            );
            line_steps_ui(ui, commands, step, len);
            if asked {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(egui::RichText::new("deepening").small().weak());
                });
            }
        }
        None => {
            if ui.button("Show the best line").clicked() {
                commands.push(Command::Practice(PracticeStep::BestLine));
            }
        }
    }
    ui.horizontal(|ui| {
        let last = p.round.as_ref().is_some_and(|r| r.at + 1 >= r.queue.len());
        if ui
            .button(if last { "Finish" } else { "Next position" })
            .clicked()
        {
            commands.push(Command::Practice(PracticeStep::NextCard));
        }
        if ui.button("End practice").clicked() {
            commands.push(Command::Practice(PracticeStep::End));
        }
    });
}
/// The buttons that step the best line on the board, and where it stands.
fn line_steps_ui(ui: &mut egui::Ui, commands: &mut Commands, step: usize, len: usize) {
    ui.horizontal(|ui| {
        for (text, what, enabled, hover) in [
            (
                "« Card",
                PracticeStep::LineFirst,
                step > 0,
                "Back to the position of the card",
            ),
            (
                "‹ Back",
                PracticeStep::LineBack,
                step > 0,
                "One move back (Left)",
            ),
            (
                "On ›",
                PracticeStep::LineForward,
                step < len,
                "One move on (Right)",
            ),
        ] {
            if ui
                .add_enabled(enabled, egui::Button::new(text))
                .on_hover_text(hover)
                .clicked()
            {
                commands.push(Command::Practice(what));
            }
        }
        ui.label(if step == 0 {
            "the card (Right: the line)".to_string()
        } else {
            format!("move {step} of {len} of the line")
        });
    });
}
