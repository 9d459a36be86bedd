//! The settings window (Edit › Settings..., Ctrl+,): every setting in one place, in
//! groups: the engine player, what the board shows, the engine, where files are kept.
//! The side panel and the menus keep their quick controls; both edit the same
//! [`Settings`](crate::Settings), saved when they change.

use crate::level_picker::level_picker;
use crate::settings::{BoardColors, MAX_RECENT};
use crate::{App, EvalsFor, Settings};
use eframe::egui;
use okapi_core::search::SolveMode;

impl App {
    pub(super) fn settings_window(&mut self, ctx: &egui::Context) {
        if !self.view.settings_window {
            return;
        }
        let mut open = true;
        let mut engine_changed = false;
        egui::Window::new("Settings")
            .open(&mut open)
            .default_pos([120.0, 60.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(ctx.content_rect().height() - 120.0)
                    .show(ui, |ui| {
                        engine_changed |= self.player_settings(ui);
                        ui.separator();
                        engine_changed |= self.display_settings(ui);
                        ui.separator();
                        engine_changed |= self.engine_settings_group(ui);
                        ui.separator();
                        self.path_settings(ui);
                    });
            });
        self.view.settings_window = open;
        if engine_changed {
            self.position_changed();
        }
    }

    /// The engine player: its level and book, the pause between engine moves.
    fn player_settings(&mut self, ui: &mut egui::Ui) -> bool {
        let mut changed = false;
        ui.heading("Engine player");
        let solve_limit = self.settings.solve_limit;
        ui.horizontal_wrapped(|ui| {
            changed |= level_picker(ui, "settings-level", &mut self.settings.level, solve_limit);
        });
        changed |= ui
            .checkbox(&mut self.settings.book, "Use the opening book")
            .on_hover_text("Book values on the board and book moves for the engine player")
            .changed();
        ui.horizontal(|ui| {
            let label = ui.label("Pause between engine moves:");
            ui.add(
                egui::DragValue::new(&mut self.settings.engine_move_pause)
                    .range(0.0..=10.0)
                    .speed(0.05)
                    .fixed_decimals(1)
                    .suffix(" s"),
            )
            .labelled_by(label.id);
        });
        changed
    }

    /// What the board shows: values (on or off, whose, how many, exact or WLD), the
    /// coordinates, colours, animation.
    fn display_settings(&mut self, ui: &mut egui::Ui) -> bool {
        let mut changed = false;
        ui.heading("Display");
        changed |= ui
            .checkbox(&mut self.settings.show_evals, "Values on the board")
            .changed();
        ui.horizontal(|ui| {
            ui.label("Values for:");
            for (v, name) in [
                (EvalsFor::Both, "both sides"),
                (EvalsFor::Black, "Black only"),
                (EvalsFor::White, "White only"),
            ] {
                changed |= ui
                    .radio_value(&mut self.settings.evals_for, v, name)
                    .changed();
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Values on the best N moves (0: all):");
            ui.add(egui::DragValue::new(&mut self.settings.best_only).range(0..=10))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            ui.label("Values near the end:");
            changed |= ui
                .radio_value(&mut self.settings.eval_mode, SolveMode::Exact, "exact")
                .changed();
            changed |= ui
                .radio_value(
                    &mut self.settings.eval_mode,
                    SolveMode::Wld,
                    "win/draw/loss",
                )
                .changed();
        });
        ui.horizontal(|ui| {
            let label = ui.label("Solve moves from (empties):");
            changed |= ui
                .add(egui::DragValue::new(&mut self.settings.solve_limit).range(0..=30))
                .labelled_by(label.id)
                .changed();
        });
        ui.checkbox(
            &mut self.settings.coordinates,
            "Coordinates around the board",
        );
        ui.checkbox(&mut self.settings.animate, "Animate flips");
        ui.checkbox(
            &mut self.settings.flipped,
            "Board turned round (White at the bottom)",
        );
        ui.horizontal(|ui| {
            ui.label("Board colours:");
            for c in BoardColors::ALL {
                ui.radio_value(&mut self.settings.board_colors, c, c.name());
            }
        });
        changed
    }

    /// The engine's resources: the hash table and the threads.
    fn engine_settings_group(&mut self, ui: &mut egui::Ui) -> bool {
        let mut changed = false;
        ui.heading("Engine");
        ui.horizontal(|ui| {
            let label = ui.label("Hash table size (2^N entries), N:");
            changed |= ui
                .add(
                    egui::DragValue::new(&mut self.settings.hash_bits)
                        .range(crate::settings::HASH_BITS),
                )
                .labelled_by(label.id)
                .changed();
            ui.label(self.settings.table_size_text());
        });
        ui.horizontal(|ui| {
            let cores = okapi_core::search::available_threads();
            let label = ui.label("Search threads:");
            changed |= ui
                .add(egui::DragValue::new(&mut self.settings.threads).range(1..=cores.max(1)))
                .labelled_by(label.id)
                .changed();
            ui.label(format!("of {cores} cores"));
        });
        ui.horizontal(|ui| {
            let label = ui.label("Live analysis stops at depth (0: never):");
            changed |= ui
                .add(egui::DragValue::new(&mut self.settings.analysis_depth).range(0..=60))
                .labelled_by(label.id)
                .changed();
        });
        if ui.button("Restore the default settings").clicked() {
            // The window's place and the recent files are the user's, not settings to reset.
            let keep = (self.settings.window, self.settings.recent.clone());
            self.settings = Settings {
                window: keep.0,
                recent: keep.1,
                ..Settings::default()
            };
            changed = true;
        }
        changed
    }

    /// Where Okapi keeps its files.
    fn path_settings(&mut self, ui: &mut egui::Ui) {
        ui.heading("Files");
        let (settings, game) = match &self.settings_file {
            Some((path, _)) => (
                path.display().to_string(),
                self.autosave
                    .as_ref()
                    .map_or("(not kept)".into(), |p| p.display().to_string()),
            ),
            None => ("(not saved in this session)".into(), "(not kept)".into()),
        };
        egui::Grid::new("settings-paths")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Settings:");
                ui.add(egui::Label::new(egui::RichText::new(settings).monospace().small()).wrap());
                ui.end_row();
                ui.label("Game in progress:");
                ui.add(egui::Label::new(egui::RichText::new(game).monospace().small()).wrap());
                ui.end_row();
            });
        ui.horizontal(|ui| {
            ui.label(format!(
                "Recent files: {} of {MAX_RECENT}",
                self.settings.recent.len()
            ));
            if ui
                .add_enabled(
                    !self.settings.recent.is_empty(),
                    egui::Button::new("Forget them"),
                )
                .clicked()
            {
                self.settings.recent.clear();
            }
        });
    }
}
