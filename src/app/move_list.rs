//! The move list and what the game analysis found.

use super::App;
use super::Command;
use super::engine_events::PlyAnalysis;
use crate::board::{Color, Move};
use crate::formats::game::EvalSource;
use eframe::egui;

impl App {
    /// The analysis of ply `i` if it still describes the game.
    pub(super) fn analysis_of(&self, i: usize) -> Option<PlyAnalysis> {
        let a = self.game_analysis.get(&i)?;
        (i < self.game().len() && a.key == (self.game().position_at(i), self.game().moves()[i]))
            .then_some(*a)
    }

    /// What the game analysis found, per colour.
    pub(super) fn analysis_summary(&self, ui: &mut egui::Ui) {
        let analysed: Vec<(usize, PlyAnalysis)> = (0..self.game().len())
            .filter_map(|i| self.analysis_of(i).map(|a| (i, a)))
            .collect();
        if analysed.is_empty() {
            return;
        }
        ui.separator();
        ui.strong("Game analysis");
        for side in [Color::Black, Color::White] {
            let mine: Vec<&(usize, PlyAnalysis)> = analysed
                .iter()
                .filter(|(i, _)| self.game().position_at(*i).side_to_move() == side)
                .collect();
            let exact: Vec<_> = mine
                .iter()
                .filter(|(_, a)| a.played.source == EvalSource::Exact)
                .collect();
            let lost: i32 = exact.iter().map(|(_, a)| a.loss()).sum();
            let mistakes = exact.iter().filter(|(_, a)| a.loss() > 0).count();
            let guesses = mine
                .iter()
                .filter(|(_, a)| a.played.source != EvalSource::Exact && a.loss() > 0)
                .count();
            ui.label(format!(
                "{}: lost {lost} discs in {mistakes} proven mistakes; {guesses} doubtful moves by the midgame search",
                side.name()
            ));
        }
        let worst = analysed
            .iter()
            .filter(|(_, a)| a.loss() > 0)
            .max_by_key(|(_, a)| a.loss());
        if let Some((i, a)) = worst {
            ui.label(format!(
                "Worst: ply {} {}, {} ({}) against {} {} ({})",
                i + 1,
                a.key.1,
                a.played.label(),
                a.played.source,
                a.best_move,
                a.best.label(),
                a.best.source
            ));
        }
    }

    pub(super) fn move_list(&mut self, ui: &mut egui::Ui) {
        let mut number = 0;
        let moves = self.game().moves().to_vec();
        let evals = self.game().evals().to_vec();
        ui.horizontal_wrapped(|ui| {
            if ui
                .selectable_label(self.game().ply() == 0, "start")
                .clicked()
            {
                self.commands.push(Command::GoTo(0));
            }
            for (i, mv) in moves.iter().enumerate() {
                let text = match mv {
                    Move::Play(sq) => {
                        number += 1;
                        format!("{number}. {sq}")
                    }
                    Move::Pass => "pass".to_string(),
                };
                let text = match evals[i] {
                    Some(e) => format!("{text} ({})", e.label()),
                    None => text,
                };
                let text = match self.analysis_of(i) {
                    // A proven loss reads "?-4 g8"; a searched (unproven) doubt "?~-4 g8".
                    Some(a) if a.loss() > 0 && a.played.source == EvalSource::Exact => {
                        format!("{text} ?{} {}", -a.loss(), a.best_move)
                    }
                    Some(a) if a.loss() > 0 => format!("{text} ?~{} {}", -a.loss(), a.best_move),
                    _ => text,
                };
                let color = if self.game().position_at(i).side_to_move() == Color::Black {
                    "B"
                } else {
                    "W"
                };
                let r = ui
                    .selectable_label(self.game().ply() == i + 1, text)
                    .on_hover_text(format!("{color}: go to after this move"));
                if r.clicked() {
                    self.commands.push(Command::GoTo(i + 1));
                }
            }
        });
        if let Some(path) = &self.file {
            ui.label(
                egui::RichText::new(format!("File: {}", path.display()))
                    .small()
                    .weak(),
            );
        }
    }
}
