//! The settings' widgets, one of each with one label: the side panel, the menus and the
//! settings window all draw these. A widget never writes the settings: a change is a
//! [`Command::Set`], applied with every other command after the frame is drawn, where a
//! change that alters the analysis asks for it again ([`Setting::changes_analysis`]).

use crate::command::Command;
use crate::level_picker::level_picker;
use crate::settings::{
    BoardColors, EvalsFor, HASH_BITS, MAX_ENGINE_MOVE_PAUSE, MAX_SOLVE_LIMIT, Setting, Settings,
    Theme, table_megabytes,
};
use eframe::egui;
use okapi_core::search::SolveMode;

/// The widgets over the settings as they are this frame, and the commands they ask for.
/// Rows of choices wrap: the side panel is 300 px wide at 800x600.
pub(crate) struct SettingsUi<'a> {
    settings: &'a Settings,
    commands: &'a mut Vec<Command>,
}

impl<'a> SettingsUi<'a> {
    /// The widgets over `settings`, their changes queued in `commands`.
    pub(crate) fn new(settings: &'a Settings, commands: &'a mut Vec<Command>) -> SettingsUi<'a> {
        SettingsUi { settings, commands }
    }
}

impl SettingsUi<'_> {
    fn set(&mut self, setting: Setting) {
        self.commands.push(Command::Set(setting));
    }

    /// A checkbox over one yes/no setting.
    fn check(
        &mut self,
        ui: &mut egui::Ui,
        value: bool,
        label: &str,
        hover: &str,
        make: fn(bool) -> Setting,
    ) {
        let mut v = value;
        let r = ui.checkbox(&mut v, label);
        let r = if hover.is_empty() {
            r
        } else {
            r.on_hover_text(hover)
        };
        if r.changed() {
            self.set(make(v));
        }
    }

    pub(crate) fn show_values(&mut self, ui: &mut egui::Ui) {
        self.check(
            ui,
            self.settings.show_evals,
            "Show move values",
            "The engine's values on the legal moves, as it finds them",
            Setting::ShowValues,
        );
    }

    pub(crate) fn values_for(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Values for:");
            for (v, name) in [
                (EvalsFor::Both, "both sides"),
                (EvalsFor::Black, "Black only"),
                (EvalsFor::White, "White only"),
            ] {
                let mut chosen = self.settings.evals_for;
                if ui.radio_value(&mut chosen, v, name).changed() {
                    self.set(Setting::ValuesFor(chosen));
                }
            }
        });
    }

    /// Practice: the values of the person's own moves in a game against the engine.
    pub(crate) fn values_against_engine(&mut self, ui: &mut egui::Ui) {
        self.check(
            ui,
            self.settings.values_against_engine,
            "Show my move values against Okapi",
            "In a game against the engine, the values of your own moves (off: practice \
             without the answer given away; Hint values them once). Ctrl+Shift+H",
            Setting::ValuesAgainstEngine,
        );
    }

    pub(crate) fn values_on_best(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Show values on");
            let mut v = self.settings.best_only;
            let r = ui
                .add(
                    egui::DragValue::new(&mut v)
                        .range(0..=10)
                        .custom_formatter(|n, _| {
                            if n < 0.5 {
                                "all".into()
                            } else {
                                format!("the best {n:.0}")
                            }
                        })
                        .custom_parser(|t| {
                            let t = t.trim().trim_start_matches("the best").trim();
                            if t == "all" {
                                Some(0.0)
                            } else {
                                t.parse().ok()
                            }
                        }),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "Values only on the best moves (ties included), the others marked as \
                     legal; 0: all",
                );
            ui.label("moves");
            if r.changed() {
                self.set(Setting::ValuesOnBest(v));
            }
        });
    }

    pub(crate) fn value_mode(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Values near the end:");
            for (mode, name) in [
                (SolveMode::Exact, "exact"),
                (SolveMode::Wld, "win/draw/loss"),
            ] {
                let mut chosen = self.settings.eval_mode;
                if ui.radio_value(&mut chosen, mode, name).changed() {
                    self.set(Setting::ValueMode(chosen));
                }
            }
        });
    }

    pub(crate) fn solve_from(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Solve moves from");
            let mut v = self.settings.solve_limit;
            let r = ui
                .add(egui::DragValue::new(&mut v).range(0..=MAX_SOLVE_LIMIT))
                .labelled_by(label.id)
                .on_hover_text("Within this many empties every move is solved to the end");
            ui.label("empties");
            if r.changed() {
                self.set(Setting::SolveFrom(v));
            }
        });
    }

    /// The engine player's level (`id`: the picker's, unique in the window).
    pub(crate) fn level(&mut self, ui: &mut egui::Ui, id: &str) {
        let mut level = self.settings.level;
        let solve_limit = self.settings.solve_limit;
        let changed = ui
            .horizontal_wrapped(|ui| level_picker(ui, id, &mut level, solve_limit))
            .inner;
        if changed {
            self.set(Setting::Level(level));
        }
    }

    pub(crate) fn show_lines(&mut self, ui: &mut egui::Ui) {
        self.check(
            ui,
            self.settings.show_lines,
            "Show the engine's lines",
            "At a weakened level: the engine's candidates for its last move, with their \
             values and chances",
            Setting::ShowLines,
        );
    }

    pub(crate) fn book(&mut self, ui: &mut egui::Ui) {
        self.check(
            ui,
            self.settings.book,
            "Use the opening book",
            "Book values on the board and book moves for the engine player",
            Setting::Book,
        );
    }

    pub(crate) fn engine_move_pause(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Pause between engine moves:");
            let mut v = self.settings.engine_move_pause;
            let r = ui
                .add(
                    egui::DragValue::new(&mut v)
                        .range(0.0..=MAX_ENGINE_MOVE_PAUSE)
                        .speed(0.05)
                        .fixed_decimals(1)
                        .suffix(" s"),
                )
                .labelled_by(label.id)
                .on_hover_text("Engine against engine: time to follow each move");
            if r.changed() {
                self.set(Setting::EngineMovePause(v));
            }
        });
    }

    /// The player's own name, for the seats a person plays in new games.
    pub(crate) fn player_name(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Your name:");
            let mut name = self.settings.player_name.clone();
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut name)
                        .hint_text("Human")
                        .desired_width(160.0),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "The name your seat plays under in new games, and in the games you save",
                );
            if r.changed() {
                self.set(Setting::PlayerName(name));
            }
        });
    }

    pub(crate) fn hash_bits(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            // Sizes double from step to step; players think in MB, the file keeps the
            // power of two (`hash_bits`).
            let label = ui.label("Hash table:");
            let mut v = self.settings.hash_bits;
            let r = ui
                .add(
                    egui::DragValue::new(&mut v)
                        .range(HASH_BITS)
                        .speed(0.05)
                        .custom_formatter(|bits, _| table_megabytes(bits as u32))
                        .custom_parser(parse_megabytes),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "Memory for the engines' tables, shared by the board's, a script's \
                     and practice's engines; drag or type a size in MB",
                );
            if self.settings.engine_config().capped().is_some() {
                ui.label(format!("({})", self.settings.table_size_text()));
            }
            if r.changed() {
                self.set(Setting::HashBits(v));
            }
        });
    }

    pub(crate) fn threads(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Threads:");
            let cores = okapi_core::search::available_threads();
            let most = cores.max(self.settings.threads);
            let mut v = self.settings.threads;
            let r = ui
                .add(egui::DragValue::new(&mut v).range(1..=most))
                .labelled_by(label.id)
                .on_hover_text(format!(
                    "Threads the engine searches with ({cores} cores here); a script's \
                     small positions are solved this many at a time"
                ));
            ui.label(format!("of {cores} cores"));
            if r.changed() {
                self.set(Setting::Threads(v));
            }
        });
    }

    pub(crate) fn analysis_depth(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Analysis stops at depth:");
            let mut v = self.settings.analysis_depth;
            let r = ui
                .add(
                    egui::DragValue::new(&mut v)
                        .range(0..=60)
                        .custom_formatter(|n, _| {
                            if n < 0.5 {
                                "never".into()
                            } else {
                                format!("{n:.0}")
                            }
                        }),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "The live analysis of the board deepens to this depth, then stops \
                     (within the solve limit: once proven); 0: never",
                );
            if r.changed() {
                self.set(Setting::AnalysisDepth(v));
            }
        });
    }

    pub(crate) fn coordinates(&mut self, ui: &mut egui::Ui) {
        self.check(
            ui,
            self.settings.coordinates,
            "Coordinates around the board",
            "",
            Setting::Coordinates,
        );
    }

    pub(crate) fn animate(&mut self, ui: &mut egui::Ui) {
        self.check(
            ui,
            self.settings.animate,
            "Animate flips",
            "",
            Setting::Animate,
        );
    }

    pub(crate) fn flipped(&mut self, ui: &mut egui::Ui) {
        self.check(
            ui,
            self.settings.flipped,
            "Board turned round (White at the bottom)",
            "Ctrl+F",
            Setting::Flipped,
        );
    }

    pub(crate) fn board_colors(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Board colours:");
            for c in BoardColors::ALL {
                let mut chosen = self.settings.board_colors;
                if ui.radio_value(&mut chosen, c, c.name()).changed() {
                    self.set(Setting::BoardColors(chosen));
                }
            }
        });
    }

    /// System, Dark, Light: the chosen one checked.
    pub(crate) fn theme(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label("Theme:");
            for t in Theme::ALL {
                let mut chosen = self.settings.theme;
                let r = ui.radio_value(&mut chosen, t, t.name());
                let r = match t {
                    Theme::System => r.on_hover_text("Dark or light as the computer is set"),
                    _ => r,
                };
                if r.changed() {
                    self.set(Setting::Theme(chosen));
                }
            }
        });
    }

    pub(crate) fn debug(&mut self, ui: &mut egui::Ui) {
        self.check(
            ui,
            self.settings.debug,
            "Debug",
            "Developer items: the engine's error report test, frame times in the status bar",
            Setting::Debug,
        );
    }

    pub(crate) fn restore_defaults(&mut self, ui: &mut egui::Ui) {
        if ui.button("Restore the default settings").clicked() {
            self.set(Setting::RestoreDefaults);
        }
    }

    pub(crate) fn forget_recent_files(&mut self, ui: &mut egui::Ui) {
        if ui
            .add_enabled(
                !self.settings.recent.is_empty(),
                egui::Button::new("Forget them"),
            )
            .clicked()
        {
            self.set(Setting::ForgetRecentFiles);
        }
    }
}

/// A size typed in MB (`64`, `64 MB`, `0.5`) as the table's bits: the largest table that
/// fits in it (at least the smallest).
fn parse_megabytes(text: &str) -> Option<f64> {
    let text = text.trim().trim_end_matches(['M', 'm', 'B', 'b', ' ']);
    let megabytes: f64 = text.trim().parse().ok().filter(|m: &f64| *m > 0.0)?;
    let bytes = megabytes * f64::from(1 << 20);
    let bits = (*HASH_BITS.start()..=*HASH_BITS.end())
        .rev()
        .find(|&b| okapi_engine::config::table_bytes(b) as f64 <= bytes)
        .unwrap_or(*HASH_BITS.start());
    Some(f64::from(bits))
}

#[cfg(test)]
mod table_size_tests {
    use super::*;

    #[test]
    fn the_table_is_shown_and_typed_in_megabytes() {
        assert_eq!(table_megabytes(20), "16 MB");
        assert_eq!(table_megabytes(26), "1024 MB");
        assert_eq!(table_megabytes(14), "0.25 MB");
        assert_eq!(table_megabytes(10), "0.016 MB");
        assert_eq!(parse_megabytes("64 MB"), Some(22.0));
        assert_eq!(parse_megabytes("100"), Some(22.0));
        assert_eq!(
            parse_megabytes("0.001"),
            Some(f64::from(*HASH_BITS.start()))
        );
        assert_eq!(parse_megabytes("lots"), None);
        assert_eq!(parse_megabytes("-4"), None);
    }
}
