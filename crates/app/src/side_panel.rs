//! The side panel: one dock to the right of the board, of a fixed width, with tabs. "Play":
//! the game, the engine settings, the solve, the move values, the moves; "Database": the
//! games database for the position on the board ([`crate::database_panel`]); "Script": the
//! open endgame script, while there is one. The side area takes the width the board leaves
//! ([`board_side`]): the board keeps its size and place whichever tab shows; the tab's
//! contents scroll.

use crate::app::App;
use crate::command::Command;
use crate::engine_hub::Task;
use crate::level_picker::level_summary;
use crate::move_list::discs;
use crate::part::Part;
use crate::view::SideTab;
use eframe::egui;
use okapi_core::board::{Color, Position, Square};
use okapi_core::game::clock::format_clock;
use okapi_core::game::{Eval, numbered_line};
use okapi_core::search::SolveMode;
use okapi_engine::mode_name;

/// The side area is never narrower than this: the move list's three columns, the solve
/// buttons and the script's results fit (measured at 800x600: 300 px shows them whole).
pub(crate) const MIN_SIDE_WIDTH: f32 = 300.0;

impl App {
    /// The side panel takes all the width the board does not: the board is as large as
    /// the height allows (leaving the side its minimum), so its size and place depend on
    /// the window alone, never on what the side area shows.
    pub(super) fn side_panel(&mut self, ui: &mut egui::Ui) {
        // The graph goes under the board (drawn after this panel): the board is sized to
        // the height above it.
        let graph = self.parts.graph.height(ui.ctx());
        let avail = ui.available_size();
        let board = board_side(egui::vec2(avail.x, avail.y - graph));
        let width = (avail.x - board).max(MIN_SIDE_WIDTH.min(avail.x));
        let script_shown = self.script.as_ref().is_some_and(|j| j.open);
        if self.view.side_tab == SideTab::Script && !script_shown {
            self.view.side_tab = SideTab::Game;
        }
        let area = ui.available_rect_before_wrap();
        self.view.board_area = Some(egui::Rect::from_min_size(
            area.min,
            egui::vec2(area.width() - width, area.height() - graph),
        ));
        egui::Panel::right("side")
            .resizable(false)
            .exact_size(width)
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    let mut tabs = vec![SideTab::Game, SideTab::Database];
                    if script_shown {
                        tabs.push(SideTab::Script);
                    }
                    for tab in tabs {
                        ui.selectable_value(&mut self.view.side_tab, tab, tab.title());
                    }
                });
                ui.separator();
                match self.view.side_tab {
                    SideTab::Game => {
                        egui::ScrollArea::vertical()
                            .id_salt("side-game")
                            .show(ui, |ui| self.side_contents(ui));
                    }
                    SideTab::Database => self.database_contents(ui),
                    SideTab::Script => {
                        // The board's proven result and line above the list: a clicked
                        // position shows its line here, beside the script.
                        let pos = self.game().position();
                        self.solved_section(ui, pos);
                        ui.separator();
                        let (view, parts, commands) = self.split();
                        parts.script_tab.show(ui, &view, commands);
                    }
                }
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
        ui.separator();
        // Type or paste a board string: the board follows as it is typed.
        let label = ui.label("Board string (64 squares and the side to move):");
        let mut text = if self.view.setup_text.is_empty() {
            pos.to_board_string()
        } else {
            self.view.setup_text.clone()
        };
        let field = ui
            .add(
                egui::TextEdit::multiline(&mut text)
                    .font(egui::TextStyle::Monospace)
                    .desired_rows(2)
                    .desired_width(f32::INFINITY)
                    .hint_text(
                        "e.g. ---------------------------OX------XO--------------------------- X",
                    ),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "Black: X * B, White: O 0 W, empty: - . _; the side to move last (X or O). \
                 Spaces and line breaks are allowed, and Okapi's own diagram reads too.",
            );
        if field.changed() {
            self.commands.push(Command::SetupText(text));
        }
        match &self.view.setup_text_error {
            Some(e) => {
                ui.label(
                    egui::RichText::new(format!("Not a board: {e}"))
                        .color(egui::Color32::from_rgb(0xff, 0x60, 0x50)),
                );
            }
            None => {
                ui.label(
                    egui::RichText::new("The board shows this position.")
                        .weak()
                        .small(),
                );
            }
        }
    }

    pub(super) fn side_contents(&mut self, ui: &mut egui::Ui) {
        if let Some(p) = self.view.setup {
            self.setup_contents(ui, p);
            return;
        }
        // Sections whose size changes come after the controls people click: nothing
        // appears or disappears above a button (the layout stays put).
        // The moves come right after the game and the solve, with the height left on
        // screen: the list is in view without scrolling the panel (the engine's settings,
        // also in the Settings window, come after it).
        let pos = self.game().position();
        self.game_section(ui, pos);
        self.solve_section(ui, pos);
        self.moves_section(ui);
        self.engine_section(ui, pos);
        self.move_values_section(ui);
    }

    /// The players, the discs, whose move or the result, the clock, and the game buttons.
    fn game_section(&mut self, ui: &mut egui::Ui, pos: Position) {
        self.players_rows(ui, pos);
        // One line: the result, a loss on time, or whose move it is.
        let gold = egui::Color32::from_rgb(0xff, 0xc0, 0x40);
        if let Some(side) = self.session.lost_on_time() {
            ui.label(
                egui::RichText::new(format!(
                    "{}'s time is up: {} wins on time",
                    side.name(),
                    side.opposite().name()
                ))
                .strong()
                .color(gold),
            );
        } else if pos.is_game_over() {
            let (b, w) = pos.final_counts();
            let verdict = match b.cmp(&w) {
                std::cmp::Ordering::Greater => format!("Game over: Black wins {b}-{w}"),
                std::cmp::Ordering::Less => format!("Game over: White wins {w}-{b}"),
                std::cmp::Ordering::Equal => format!("Game over: draw {b}-{w}"),
            };
            ui.label(egui::RichText::new(verdict).strong().color(gold));
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
        // Below Undo/Redo, and there for the whole game against the engine (enabled when
        // the engine is to move and waits), so it never pushes other buttons around.
        if self.session.seats().iter().any(|s| s.is_engine()) {
            let engine_waits = self.session.seat_to_move().is_engine()
                && self.engines.board.task != Task::Thinking
                && !self.session.is_over();
            if ui
                .add_enabled(engine_waits, egui::Button::new("Let the engine move"))
                .on_disabled_hover_text("When the engine is to move and waits (after a Stop, or from an earlier position)")
                .clicked()
            {
                self.commands.push(Command::EngineMove);
            }
            // Practice: the person's own move values, hidden unless chosen.
            self.settings_ui().values_against_engine(ui);
        }
        ui.separator();
    }

    /// The solve buttons and, in a block of fixed height, the proven result and line.
    fn solve_section(&mut self, ui: &mut egui::Ui, pos: Position) {
        let open = !pos.is_game_over();
        ui.horizontal(|ui| {
            for (mode, label) in [
                (SolveMode::Exact, "Solve exact"),
                (SolveMode::Wld, "Solve WLD"),
            ] {
                let mut b = ui.add_enabled(open, egui::Button::new(label));
                if let Some(w) = super::status_bar::long_solve_warning(pos.empty_count(), mode) {
                    b = b.on_hover_text(w);
                }
                if b.clicked() {
                    self.commands.push(Command::SolveAfterWarning(mode));
                }
            }
            if ui
                .add_enabled(
                    self.engines.board.task != Task::Idle,
                    egui::Button::new("Stop"),
                )
                .clicked()
            {
                self.commands.push(Command::Stop);
            }
        });
        self.solved_section(ui, pos);
        ui.separator();
    }

    /// The engine's settings, in a section that folds away.
    fn engine_section(&mut self, ui: &mut egui::Ui, pos: Position) {
        egui::CollapsingHeader::new("Engine")
            .default_open(true)
            .show(ui, |ui| self.engine_settings(ui, pos));
    }

    fn engine_settings(&mut self, ui: &mut egui::Ui, pos: Position) {
        ui.horizontal(|ui| {
            self.settings_ui().show_values(ui);
            if ui
                .button("Hint")
                .on_hover_text("Value the moves of this position once (Ctrl+H)")
                .clicked()
            {
                self.commands.push(Command::Hint);
            }
        });
        let mut s = self.settings_ui();
        s.values_for(ui);
        s.values_on_best(ui);
        s.level(ui, "side-level");
        let solve_limit = self.settings.solve_limit;
        level_summary(ui, &self.settings.level, solve_limit);
        self.engine_lines_view(ui);
        let mut s = self.settings_ui();
        s.value_mode(ui);
        s.solve_from(ui);
        // Where this position's values come from, in one line (the details on hover).
        let (source, details) = if pos.empty_count() <= self.settings.solve_limit {
            (
                "values are proven (solved)",
                "Within the limit: every move is solved to the end of the game.",
            )
        } else {
            (
                "values from the search (depth@confidence)",
                "Above the limit: the midgame search on the trained evaluation values the moves, \
                 tagged depth@confidence: 14@95% is 14 moves deep, with a selective search that \
                 is right 95% of the time. It goes deeper until the analysis depth (Engine \
                 menu), then stops and says so; it starts again when the position changes.",
            )
        };
        ui.add(
            egui::Label::new(
                egui::RichText::new(format!("{} empties: {source}", pos.empty_count()))
                    .small()
                    .weak(),
            )
            .truncate(),
        )
        .on_hover_text(details);
    }

    /// The proven result and line of this position, in three lines that are always
    /// there (empty until a solve), so nothing below moves when a solve ends.
    fn solved_section(&mut self, ui: &mut egui::Ui, pos: Position) {
        let solved = self
            .session
            .proven_here()
            .filter(|_| !self.practice.hides_answer());
        let Some(s) = solved else {
            ui.label(egui::RichText::new("(a solve's result and proven line show here)").weak());
            ui.label("");
            ui.horizontal(|ui| {
                ui.add_enabled(false, egui::Button::new("Copy line"));
                ui.add_enabled(false, egui::Button::new("Play best move"));
            });
            return;
        };
        let text = Eval::proven(s.mode, s.score).verdict(pos.side_to_move());
        ui.label(egui::RichText::new(format!("Solved ({}): {text}", mode_name(s.mode))).strong());
        // The whole line, numbered and wrapped; the text can be selected, or copied with
        // the button.
        let line = numbered_line(&pos, &s.line);
        ui.add(
            egui::Label::new(format!("Line: {line}"))
                .wrap()
                .selectable(true),
        );
        ui.horizontal(|ui| {
            if ui
                .button("Copy line")
                .on_hover_text("Copy the proven line, numbered, to the clipboard")
                .clicked()
            {
                self.commands.push(Command::CopyText(line.clone()));
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
        });
    }

    /// The values of the legal moves, strongest source first, in a section that folds.
    fn move_values_section(&mut self, ui: &mut egui::Ui) {
        ui.separator();
        egui::CollapsingHeader::new("Move values")
            .default_open(true)
            .show(ui, |ui| {
                if self.move_evals().is_empty() {
                    ui.label(egui::RichText::new("none yet").weak());
                }
                let mut evals: Vec<(Square, Eval)> =
                    self.move_evals().iter().map(|(s, e)| (*s, *e)).collect();
                evals.sort_by_key(|(s, e)| {
                    (std::cmp::Reverse(e.source), std::cmp::Reverse(e.value), *s)
                });
                let best = crate::board_view::best_eval(self.move_evals());
                for (sq, e) in evals {
                    ui.label(format!(
                        "{sq}: {} ({})",
                        crate::board_view::value_label(e, best),
                        e.source
                    ));
                }
            });
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
            if ui
                .button("Practise mistakes")
                .on_hover_text("Drill the positions where a player lost discs")
                .clicked()
            {
                self.commands.push(Command::ShowPractice);
            }
        });
        let (view, parts, commands) = self.split();
        parts.move_list.show(ui, &view, commands);
    }

    /// Practice: the weakened engine's candidates for its last move, on request. The
    /// checkbox is there whenever the level is weakened, so it never comes and goes.
    pub(super) fn engine_lines_view(&mut self, ui: &mut egui::Ui) {
        let ply = self.game().ply();
        let weakened = matches!(self.settings.level, okapi_core::level::Level::Search(s) if s.temperature > 0.0);
        let lines = self
            .engine_lines
            .as_ref()
            .filter(|lines| {
                !self.practice.hides_answer()
                    && ply > 0
                    && self.game().position_at(ply - 1) == lines.position
                    && self.game().moves()[ply - 1] == lines.played
                    && !lines.candidates.is_empty()
            })
            .cloned();
        if !weakened && lines.is_none() {
            return;
        }
        self.settings_ui().show_lines(ui);
        let Some(lines) = lines else {
            if self.settings.show_lines {
                ui.label(
                    egui::RichText::new("(after the engine's move)")
                        .weak()
                        .small(),
                );
            }
            return;
        };
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

/// The board's outer side for a central area of `avail` (the window less the menu, status
/// and graph bars): the height, leaving the side area at least [`MIN_SIDE_WIDTH`].
pub(crate) fn board_side(avail: egui::Vec2) -> f32 {
    avail.y.min(avail.x - MIN_SIDE_WIDTH).max(160.0)
}
