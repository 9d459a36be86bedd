//! The side panel: the game, the engine settings, the solve, the move values, the moves.

use super::engine_events::Task;
use super::level_picker::level_picker;
use super::{App, Command, EvalsFor};
use crate::board::{Color, Position, Square};
use crate::engine::mode_name;
use crate::game::clock::format_clock;
use crate::game::{Eval, seat_name};
use crate::search::SolveMode;
use eframe::egui;

impl App {
    pub(super) fn side_panel(&mut self, ui: &mut egui::Ui) {
        egui::Panel::right("side")
            .default_size(300.0)
            .min_size(240.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side_contents(ui));
            });
    }

    pub(super) fn setup_contents(&mut self, ui: &mut egui::Ui, pos: Position) {
        ui.heading("Set up a position");
        ui.label("Click a square: empty, black, white, empty.");
        ui.label(format!("Black: {}", discs(pos.black_count())));
        ui.label(format!("White: {}", discs(pos.white_count())));
        ui.horizontal(|ui| {
            ui.label("To move:");
            for side in [Color::Black, Color::White] {
                if ui.radio(pos.side_to_move() == side, side.name()).clicked() {
                    self.commands.push(Command::SetupSide(side));
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Clear").clicked() {
                self.commands.push(Command::SetupClear);
            }
            if ui.button("Standard").clicked() {
                self.commands.push(Command::SetupStandard);
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Done").clicked() {
                self.commands.push(Command::SetupDone);
            }
            if ui.button("Cancel").clicked() {
                self.commands.push(Command::SetupCancel);
            }
        });
        ui.label(
            egui::RichText::new(pos.to_board_string())
                .monospace()
                .small(),
        );
    }

    pub(super) fn side_contents(&mut self, ui: &mut egui::Ui) {
        if let Some(p) = self.view.setup {
            self.setup_contents(ui, p);
            return;
        }
        let pos = self.game().position();
        self.game_section(ui, pos);
        self.engine_section(ui, pos);
        self.solved_section(ui, pos);
        self.move_values_section(ui);
        self.moves_section(ui);
    }

    /// The players, the discs, whose move or the result, the clock, and the game buttons.
    fn game_section(&mut self, ui: &mut egui::Ui, pos: Position) {
        ui.heading("Okapi");
        let seats = self.session.seats();
        ui.label(format!("Black: {}", seat_name(seats[0])));
        ui.label(format!("White: {}", seat_name(seats[1])));
        ui.separator();
        ui.label(egui::RichText::new(format!("Black: {}", discs(pos.black_count()))).strong());
        ui.label(egui::RichText::new(format!("White: {}", discs(pos.white_count()))).strong());
        if pos.is_game_over() {
            let (b, w) = pos.final_counts();
            let verdict = match b.cmp(&w) {
                std::cmp::Ordering::Greater => format!("Game over: Black wins {b}-{w}"),
                std::cmp::Ordering::Less => format!("Game over: White wins {w}-{b}"),
                std::cmp::Ordering::Equal => format!("Game over: draw {b}-{w}"),
            };
            ui.label(
                egui::RichText::new(verdict)
                    .strong()
                    .color(egui::Color32::from_rgb(0xff, 0xc0, 0x40)),
            );
        } else {
            ui.label(format!(
                "Move {}: {} to move",
                self.game().move_number(),
                pos.side_to_move().name()
            ));
        }
        if let Some(clock) = self.session.clock() {
            ui.horizontal(|ui| {
                ui.label("Clock:");
                for side in [Color::Black, Color::White] {
                    let text = format!("{} {}", side.name(), format_clock(clock.left(side)));
                    let text = egui::RichText::new(text).monospace();
                    ui.label(if clock.running() == Some(side) {
                        text.strong()
                    } else {
                        text.weak()
                    });
                }
            });
        }
        if let Some(side) = self.session.lost_on_time() {
            ui.label(
                egui::RichText::new(format!(
                    "{}'s time is up: {} wins on time",
                    side.name(),
                    side.opposite().name()
                ))
                .strong()
                .color(egui::Color32::from_rgb(0xff, 0xc0, 0x40)),
            );
        }
        if let Some(n) = &self.notice {
            ui.colored_label(egui::Color32::from_rgb(0x80, 0xc0, 0xff), n);
        }
        let engine_waits = self.session.seat_to_move().is_engine()
            && self.engine.task != Task::Thinking
            && !self.session.is_over();
        if engine_waits && ui.button("Let the engine move").clicked() {
            self.commands.push(Command::EngineMove);
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.game().can_undo(), egui::Button::new("Undo"))
                .clicked()
            {
                self.commands.push(Command::Undo);
            }
            if ui
                .add_enabled(self.game().can_redo(), egui::Button::new("Redo"))
                .clicked()
            {
                self.commands.push(Command::Redo);
            }
            if ui
                .add_enabled(self.game().can_undo(), egui::Button::new("First"))
                .clicked()
            {
                self.commands.push(Command::First);
            }
            if ui
                .add_enabled(self.game().can_redo(), egui::Button::new("Last"))
                .clicked()
            {
                self.commands.push(Command::Last);
            }
        });
        ui.separator();
    }

    /// The engine's settings and the solve buttons.
    fn engine_section(&mut self, ui: &mut egui::Ui, pos: Position) {
        ui.strong("Engine");
        let mut changed = ui
            .checkbox(&mut self.settings.show_evals, "Show move values")
            .changed();
        ui.horizontal(|ui| {
            ui.label("For:");
            for (v, name) in [
                (EvalsFor::Both, "both"),
                (EvalsFor::Black, "Black"),
                (EvalsFor::White, "White"),
            ] {
                changed |= ui
                    .radio_value(&mut self.settings.evals_for, v, name)
                    .changed();
            }
            if ui
                .button("Hint")
                .on_hover_text("Value the moves of this position once")
                .clicked()
            {
                self.commands.push(Command::Hint);
            }
        });
        ui.horizontal(|ui| {
            changed |= level_picker(ui, "side-level", &mut self.settings.level);
        });
        self.engine_lines_view(ui);
        ui.horizontal(|ui| {
            ui.label("Values:");
            changed |= ui
                .radio_value(&mut self.settings.eval_mode, SolveMode::Exact, "exact")
                .changed();
            changed |= ui
                .radio_value(&mut self.settings.eval_mode, SolveMode::Wld, "WLD")
                .changed();
        });
        ui.horizontal(|ui| {
            let label = ui.label("Solve moves from");
            changed |= ui
                .add(egui::DragValue::new(&mut self.settings.solve_limit).range(0..=30))
                .labelled_by(label.id)
                .changed();
            ui.label("empties");
        });
        if changed {
            self.position_changed();
        }
        // Says where this position's values come from.
        let source = if pos.empty_count() <= self.settings.solve_limit {
            "within the limit: the moves are solved"
        } else {
            "above the limit: values come from the midgame search on the trained evaluation, tagged depth@confidence (ProbCut's), deepening until you move or stop"
        };
        ui.label(
            egui::RichText::new(format!("{} empties, {source}.", pos.empty_count()))
                .small()
                .weak(),
        );
        let open = !pos.is_game_over();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(open, egui::Button::new("Solve exact"))
                .clicked()
            {
                self.commands.push(Command::Solve(SolveMode::Exact));
            }
            if ui
                .add_enabled(open, egui::Button::new("Solve WLD"))
                .clicked()
            {
                self.commands.push(Command::Solve(SolveMode::Wld));
            }
            if ui
                .add_enabled(self.engine.task != Task::Idle, egui::Button::new("Stop"))
                .clicked()
            {
                self.commands.push(Command::Stop);
            }
        });
    }

    /// The proven result and line of this position, if solved.
    fn solved_section(&mut self, ui: &mut egui::Ui, pos: Position) {
        if let Some(s) = self.session.proven_here().cloned() {
            let side = pos.side_to_move();
            let text = match (s.mode, s.score.signum()) {
                (_, 0) => "a draw".to_string(),
                (SolveMode::Exact, 1) => format!("{} wins by {}", side.name(), s.score),
                (SolveMode::Exact, _) => format!("{} wins by {}", side.opposite().name(), -s.score),
                (SolveMode::Wld, 1) => format!("{} wins", side.name()),
                (SolveMode::Wld, _) => format!("{} wins", side.opposite().name()),
            };
            ui.label(
                egui::RichText::new(format!("Solved ({}): {text}", mode_name(s.mode))).strong(),
            );
            let line: Vec<String> = s.line.iter().map(|m| m.to_string()).collect();
            ui.label(format!("Line: {}", line.join(" ")));
            if let Some(stats) = self.solve_stats {
                ui.label(
                    egui::RichText::new(format!(
                        "{} nodes in {:.2} s",
                        stats.nodes,
                        stats.elapsed.as_secs_f64()
                    ))
                    .small(),
                );
            }
            if ui
                .add_enabled(
                    !self.session.seat_to_move().is_engine(),
                    egui::Button::new("Play best move"),
                )
                .clicked()
            {
                self.commands.push(Command::PlayBest);
            }
        }
    }

    /// The values of the legal moves, strongest source first.
    fn move_values_section(&mut self, ui: &mut egui::Ui) {
        if !self.move_evals.is_empty() {
            ui.separator();
            ui.strong("Move values");
            let mut evals: Vec<(Square, Eval)> =
                self.move_evals.iter().map(|(s, e)| (*s, *e)).collect();
            evals.sort_by_key(|(s, e)| {
                (std::cmp::Reverse(e.source), std::cmp::Reverse(e.value), *s)
            });
            for (sq, e) in evals {
                ui.label(format!("{sq}: {} ({})", e.label(), e.source));
            }
        }
    }

    /// The moves and what the game analysis found.
    fn moves_section(&mut self, ui: &mut egui::Ui) {
        ui.separator();
        ui.horizontal(|ui| {
            ui.strong("Moves");
            let can = !self.game().is_empty();
            if ui
                .add_enabled(can, egui::Button::new("Analyse game"))
                .clicked()
            {
                self.commands.push(Command::AnalyseGame);
            }
        });
        self.move_list(ui);
        self.analysis_summary(ui);
    }

    /// Practice: the weakened engine's candidates for its last move, on request.
    pub(super) fn engine_lines_view(&mut self, ui: &mut egui::Ui) {
        let ply = self.game().ply();
        let Some(lines) = &self.engine_lines else {
            return;
        };
        let current = ply > 0
            && self.game().position_at(ply - 1) == lines.position
            && self.game().moves()[ply - 1] == lines.played;
        if !current || lines.candidates.is_empty() {
            return;
        }
        ui.checkbox(&mut self.settings.show_lines, "Show the engine's lines");
        if !self.settings.show_lines {
            return;
        }
        egui::Grid::new("engine-lines")
            .striped(true)
            .show(ui, |ui| {
                ui.strong("move");
                ui.strong("value");
                ui.strong("chance");
                ui.end_row();
                for (mv, eval, chance) in &lines.candidates {
                    let text = format!("{mv}");
                    if *mv == lines.played {
                        ui.strong(format!("{text} (played)"));
                    } else {
                        ui.label(text);
                    }
                    ui.label(format!("{} ({})", eval.label(), eval.source));
                    ui.label(format!("{:.0}%", chance * 100.0));
                    ui.end_row();
                }
            });
    }
}

pub(super) fn discs(n: u32) -> String {
    if n == 1 {
        "1 disc".into()
    } else {
        format!("{n} discs")
    }
}
