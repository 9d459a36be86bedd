//! The side panel's "Play" tab, a part: the players and the game's buttons, the solve,
//! the values' switch and Hint, then the moves, which take the height left, and under
//! them two folding sections, the engine's settings and the move values (folded until
//! opened, remembered in the settings), as WZebra keeps its move list in view. The tab
//! never scrolls as a whole beside the board: the move list scrolls, and the open
//! sections scroll in their own room. Under the board (a narrow window) the tab scrolls
//! as a whole. While a position is set up, the tab holds the set-up's controls.

use crate::command::Command;
use crate::engine_hub::Task;
use crate::level_picker::level_summary;
use crate::move_list::MoveList;
use crate::part::{Commands, FrameView, Part};
use crate::players::players_rows;
use crate::settings::Setting;
use crate::settings_widgets::SettingsUi;
use eframe::egui;
use okapi_core::board::{Color, Position, Square};
use okapi_core::game::clock::format_clock;
use okapi_core::game::{Eval, numbered_line};
use okapi_core::search::SolveMode;
use okapi_engine::mode_name;

/// The least room of the moves beside the folding sections (their header, a few rows
/// of the list and a line under it): an open section scrolls in what is left above it.
const MOVES_MIN: f32 = 180.0;

/// The Play tab: the move list, and the height the folding sections took last frame.
#[derive(Default)]
pub(crate) struct PlayTab {
    pub(crate) move_list: MoveList,
    /// The folding sections' height as drawn last frame (their room this frame).
    folds_height: Option<f32>,
}

impl Part for PlayTab {
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        if let Some(p) = view.setup {
            egui::ScrollArea::vertical()
                .id_salt("side-game")
                .show(ui, |ui| {
                    crate::setup_tab::setup_contents(ui, view, commands, p)
                });
            return;
        }
        let pos = view.game().position();
        if view.side_under_board() {
            egui::ScrollArea::vertical()
                .id_salt("side-game")
                .show(ui, |ui| {
                    PlayDraw { view, commands }.top(ui, pos);
                    self.moves(ui, view, commands);
                    PlayDraw { view, commands }.folds(ui, pos);
                });
            return;
        }
        // Sections whose size changes come after the controls people click: nothing
        // appears or disappears above a button (the layout stays put).
        PlayDraw { view, commands }.top(ui, pos);
        // The folding sections at the bottom, at the height they took last frame (at
        // most what leaves the moves their least); the moves in the height between.
        let rest = ui.available_rect_before_wrap();
        let header = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
        let wanted = self.folds_height.unwrap_or(2.0 * header + 8.0);
        let folds_height = wanted.min(rest.height() - MOVES_MIN).max(header);
        let split = rest.bottom() - folds_height;
        let moves = egui::Rect::from_min_max(rest.min, egui::pos2(rest.right(), split));
        let folds = egui::Rect::from_min_max(egui::pos2(rest.left(), split), rest.max);
        ui.scope_builder(egui::UiBuilder::new().max_rect(moves), |ui| {
            ui.shrink_clip_rect(moves);
            self.moves(ui, view, commands);
        });
        let drawn = ui
            .scope_builder(egui::UiBuilder::new().max_rect(folds), |ui| {
                ui.shrink_clip_rect(folds);
                egui::ScrollArea::vertical()
                    .id_salt("side-folds")
                    .auto_shrink([false, true])
                    .show(ui, |ui| PlayDraw { view, commands }.folds(ui, pos))
                    .content_size
                    .y
            })
            .inner;
        if self.folds_height != Some(drawn) {
            // Opened or folded: the moves give or take the room from the next frame.
            self.folds_height = Some(drawn);
            ui.ctx().request_repaint();
        }
    }
}

impl PlayTab {
    /// The moves, the buttons about them, and what the game analysis found.
    fn moves(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        ui.separator();
        ui.horizontal(|ui| {
            ui.strong("Moves");
            let can = !view.game().is_empty();
            if ui
                .add_enabled(can, egui::Button::new("Analyse game"))
                .clicked()
            {
                commands.push(Command::AnalyseGame);
            }
            if ui
                .button("Practise mistakes")
                .on_hover_text("Drill the positions where a player lost discs")
                .clicked()
            {
                commands.push(Command::ShowPractice);
            }
        });
        self.move_list.show(ui, view, commands);
    }
}

/// One frame's drawing of the tab's sections: what they read, where clicks go.
struct PlayDraw<'a> {
    view: &'a FrameView<'a>,
    commands: &'a mut Commands,
}

impl PlayDraw<'_> {
    fn settings_ui(&mut self) -> SettingsUi<'_> {
        SettingsUi::new(self.view.settings, self.commands)
    }

    /// What stays at the top: the game, the solve, the values' switch and Hint.
    fn top(&mut self, ui: &mut egui::Ui, pos: Position) {
        self.game_section(ui, pos);
        self.solve_section(ui, pos);
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
    }

    /// The players, the discs, whose move or the result, the clock, and the game buttons.
    fn game_section(&mut self, ui: &mut egui::Ui, pos: Position) {
        let session = self.view.session;
        let game = self.view.game();
        players_rows(ui, self.view, pos);
        // One line: the result, a loss on time, or whose move it is.
        let gold = crate::theme::themed(ui.visuals(), crate::theme::RESULT_TEXT);
        if let Some(side) = session.lost_on_time() {
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
                game.move_number(),
                pos.side_to_move().name()
            ));
        }
        if let Some(clock) = session.clock() {
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
            for (enabled, label, command) in [
                (game.can_undo(), "Undo", Command::Undo),
                (game.can_redo(), "Redo", Command::Redo),
                (game.can_undo(), "First", Command::First),
                (game.can_redo(), "Last", Command::Last),
            ] {
                if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                    self.commands.push(command);
                }
            }
        });
        // Below Undo/Redo, and there for the whole game against the engine (enabled when
        // the engine is to move and waits), so it never pushes other buttons around.
        if session.seats().iter().any(|s| s.is_engine()) {
            let engine_waits = session.seat_to_move().is_engine()
                && self.view.engines.board.task != Task::Thinking
                && !session.is_over();
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
                if let Some(w) = crate::status_bar::long_solve_warning(pos.empty_count(), mode) {
                    b = b.on_hover_text(w);
                }
                if b.clicked() {
                    self.commands.push(Command::SolveAfterWarning(mode));
                }
            }
            if ui
                .add_enabled(
                    self.view.engines.board.task != Task::Idle,
                    egui::Button::new("Stop"),
                )
                .clicked()
            {
                self.commands.push(Command::Stop);
            }
        });
        solved_section(ui, self.view, self.commands, pos);
        ui.separator();
    }

    /// The folding sections: the engine's settings, the move values. Each stays as the
    /// player left it (the settings keep it).
    fn folds(&mut self, ui: &mut egui::Ui, pos: Position) {
        ui.separator();
        let settings = self.view.settings;
        let engine = egui::CollapsingHeader::new("Engine")
            .open(Some(settings.engine_section_open))
            .show(ui, |ui| self.engine_settings(ui, pos));
        if engine.header_response.clicked() {
            self.commands.push(Command::Set(Setting::EngineSectionOpen(
                !settings.engine_section_open,
            )));
        }
        let values = egui::CollapsingHeader::new("Move values")
            .open(Some(settings.move_values_open))
            .show(ui, |ui| self.move_values(ui));
        if values.header_response.clicked() {
            self.commands.push(Command::Set(Setting::MoveValuesOpen(
                !settings.move_values_open,
            )));
        }
    }

    fn engine_settings(&mut self, ui: &mut egui::Ui, pos: Position) {
        let settings = self.view.settings;
        let mut s = self.settings_ui();
        s.values_for(ui);
        s.values_on_best(ui);
        s.level(ui, "side-level");
        level_summary(ui, &settings.level, settings.solve_limit);
        self.engine_lines(ui);
        let mut s = self.settings_ui();
        s.value_mode(ui);
        s.solve_from(ui);
        // Where this position's values come from, in one line (the details on hover).
        let (source, details) = if pos.empty_count() <= settings.solve_limit {
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

    /// The values of the legal moves, strongest source first.
    fn move_values(&mut self, ui: &mut egui::Ui) {
        let shown = self.view.move_evals();
        if shown.is_empty() {
            ui.label(egui::RichText::new("none yet").weak());
        }
        let mut evals: Vec<(Square, Eval)> = shown.iter().map(|(s, e)| (*s, *e)).collect();
        evals.sort_by_key(|(s, e)| (std::cmp::Reverse(e.source), std::cmp::Reverse(e.value), *s));
        let best = crate::board_view::best_eval(shown);
        for (sq, e) in evals {
            ui.label(format!(
                "{sq}: {} ({})",
                crate::board_view::value_label(e, best),
                e.source
            ));
        }
    }

    /// Practice: the weakened engine's candidates for its last move, on request. The
    /// checkbox is there whenever the level is weakened, so it never comes and goes.
    fn engine_lines(&mut self, ui: &mut egui::Ui) {
        let view = self.view;
        let game = view.game();
        let ply = game.ply();
        let weakened = matches!(view.settings.level, okapi_core::level::Level::Search(s) if s.temperature > 0.0);
        let lines = view.engine_lines.filter(|lines| {
            !view.hides_answer
                && ply > 0
                && game.position_at(ply - 1) == lines.position
                && game.moves()[ply - 1] == lines.played
                && !lines.candidates.is_empty()
        });
        if !weakened && lines.is_none() {
            return;
        }
        self.settings_ui().show_lines(ui);
        let Some(lines) = lines else {
            if view.settings.show_lines {
                ui.label(
                    egui::RichText::new("(after the engine's move)")
                        .weak()
                        .small(),
                );
            }
            return;
        };
        if !view.settings.show_lines {
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

/// The proven result and line of this position, in three lines that are always there
/// (empty until a solve), so nothing below moves when a solve ends.
pub(crate) fn solved_section(
    ui: &mut egui::Ui,
    view: &FrameView,
    commands: &mut Commands,
    pos: Position,
) {
    let solved = view.session.proven_here().filter(|_| !view.hides_answer);
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
    // The whole line, numbered and wrapped; the text can be selected, or copied with the
    // button.
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
            commands.push(Command::CopyText(line.clone()));
        }
        if ui
            .add_enabled(
                !view.session.seat_to_move().is_engine(),
                egui::Button::new("Play best move"),
            )
            .clicked()
        {
            commands.push(Command::PlayBest);
        }
        if let Some(stats) = view.solve_stats {
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
