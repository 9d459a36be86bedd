//! The menu bar: File, Edit, Game, Engine, View, Help.

use super::engine_events::Task;
use super::{App, Command};
use eframe::egui;
use okapi_core::search::SolveMode;

impl App {
    pub(super) fn menu_item(
        &mut self,
        ui: &mut egui::Ui,
        label: &str,
        enabled: bool,
        command: Command,
    ) {
        let mut button = egui::Button::new(label);
        if let Some(k) = command.shortcut() {
            button = button.shortcut_text(ui.ctx().format_shortcut(&k));
        }
        if ui.add_enabled(enabled, button).clicked() {
            self.commands.push(command);
            ui.close();
        }
    }

    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| self.file_menu(ui));
                ui.menu_button("Edit", |ui| self.edit_menu(ui));
                ui.menu_button("Game", |ui| self.game_menu(ui));
                ui.menu_button("Engine", |ui| self.engine_menu(ui));
                ui.menu_button("View", |ui| self.view_menu(ui));
                ui.menu_button("Help", |ui| self.help_menu(ui));
            });
        });
    }

    /// The File menu: games in and out, scripts, quitting.
    fn file_menu(&mut self, ui: &mut egui::Ui) {
        self.menu_item(ui, "New game...", true, Command::ShowNewGame);
        self.menu_item(ui, "Open...", true, Command::Open);
        let recent = self.settings.recent.clone();
        ui.add_enabled_ui(!recent.is_empty(), |ui| {
            ui.menu_button("Open recent", |ui| {
                for path in recent {
                    if ui.button(path.display().to_string()).clicked() {
                        self.commands.push(Command::OpenPath(path));
                        ui.close();
                    }
                }
            });
        });
        self.menu_item(ui, "Save", true, Command::Save);
        self.menu_item(ui, "Save as...", true, Command::SaveAs);
        ui.separator();
        self.menu_item(ui, "Open script...", true, Command::OpenScript);
        if self.script.as_ref().is_some_and(|j| !j.open) && ui.button("Show the script").clicked() {
            if let Some(job) = &mut self.script {
                job.open = true;
            }
            self.view.side_tab = crate::side_panel::SideTab::Script;
            ui.close();
        }
        ui.separator();
        self.menu_item(ui, "Quit", true, Command::Quit);
    }

    /// The Edit menu: the clipboard both ways, and the settings.
    fn edit_menu(&mut self, ui: &mut egui::Ui) {
        // To the system clipboard: other programs paste what is copied here.
        self.menu_item(ui, "Copy transcript", true, Command::CopyTranscript);
        self.menu_item(ui, "Copy board", true, Command::CopyBoard);
        self.menu_item(ui, "Copy game as GGF", true, Command::CopyGgf);
        self.menu_item(ui, "Copy game as Okapi JSON", true, Command::CopyJson);
        ui.separator();
        self.menu_item(ui, "Paste", true, Command::PasteClipboard);
        ui.label(
            egui::RichText::new("A transcript, board string, GGF or Okapi JSON game")
                .small()
                .weak(),
        );
        ui.separator();
        self.menu_item(ui, "Settings...", true, Command::ShowSettings);
    }

    /// The Game menu: moving through the game, variations, set-up.
    fn game_menu(&mut self, ui: &mut egui::Ui) {
        self.menu_item(ui, "Undo", self.game().can_undo(), Command::Undo);
        self.menu_item(ui, "Redo", self.game().can_redo(), Command::Redo);
        self.menu_item(ui, "First position", self.game().can_undo(), Command::First);
        self.menu_item(ui, "Last position", self.game().can_redo(), Command::Last);
        ui.separator();
        // A move new at its place becomes the game's line (the old one kept as
        // a variation); this adds the next one as a side line instead.
        let label = if self.view.next_as_variation {
            "✔ Add next move as variation"
        } else {
            "Add next move as variation"
        };
        self.menu_item(ui, label, true, Command::NextMoveAsVariation);
        ui.separator();
        self.menu_item(
            ui,
            "Set up a position...",
            self.view.setup.is_none(),
            Command::EnterSetup,
        );
        ui.separator();
        self.menu_item(ui, "Practise your mistakes...", true, Command::ShowPractice);
    }

    /// The Engine menu: solving, stopping, analysing, and the engine's settings.
    fn engine_menu(&mut self, ui: &mut egui::Ui) {
        let open = !self.game().position().is_game_over();
        for (label, mode) in [
            ("Solve exact", SolveMode::Exact),
            ("Solve win/draw/loss", SolveMode::Wld),
        ] {
            let k = Command::Solve(mode).shortcut();
            let mut button = egui::Button::new(label);
            if let Some(k) = k {
                button = button.shortcut_text(ui.ctx().format_shortcut(&k));
            }
            if ui.add_enabled(open, button).clicked() {
                self.request_solve(mode);
                ui.close();
            }
        }
        self.menu_item(ui, "Stop", self.engine.task != Task::Idle, Command::Stop);
        self.menu_item(
            ui,
            "Analyse the game",
            !self.game().is_empty(),
            Command::AnalyseGame,
        );
        ui.separator();
        self.engine_menu_settings(ui);
    }

    /// The Engine menu's settings: the book, the pause between engine moves, the hash
    /// table, the threads, the depth the live analysis stops at. A change that alters
    /// the analysis asks for it again.
    fn engine_menu_settings(&mut self, ui: &mut egui::Ui) {
        // Book values on the board and book moves for the engine player.
        if ui
            .checkbox(&mut self.settings.book, "Use the opening book")
            .changed()
        {
            self.commands.push(Command::GoTo(self.game().ply()));
        }
        crate::windows::engine_move_pause_ui(ui, &mut self.settings.engine_move_pause);
        ui.horizontal(|ui| {
            let label = ui.label("Hash table: 2^");
            let r = ui
                .add(
                    egui::DragValue::new(&mut self.settings.hash_bits)
                        .range(super::settings::HASH_BITS),
                )
                .labelled_by(label.id);
            ui.label(format!("entries ({})", self.settings.table_size_text()));
            if r.changed() {
                self.commands.push(Command::GoTo(self.game().ply()));
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Threads:");
            let cores = okapi_core::search::available_threads();
            let most = cores.max(self.settings.threads);
            let r = ui
                .add(egui::DragValue::new(&mut self.settings.threads).range(1..=most))
                .labelled_by(label.id)
                .on_hover_text(format!(
                    "Threads the engine searches with ({cores} cores here); \
                     a script's small positions are solved this many at a time"
                ));
            ui.label(format!("of {cores} cores"));
            if r.changed() {
                self.commands.push(Command::GoTo(self.game().ply()));
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Analysis stops at depth:");
            let r = ui
                .add(
                    egui::DragValue::new(&mut self.settings.analysis_depth)
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
                    "The live analysis of the board deepens to this depth, then \
                     stops (within the solve limit: once proven); 0: never",
                );
            if r.changed() {
                self.commands.push(Command::GoTo(self.game().ply()));
            }
        });
    }

    /// The View menu: how the board is drawn.
    fn view_menu(&mut self, ui: &mut egui::Ui) {
        self.menu_item(ui, "Flip board", true, Command::FlipView);
        ui.checkbox(&mut self.settings.animate, "Animate flips");
        ui.checkbox(&mut self.settings.coordinates, "Coordinates");
        self.menu_item(ui, "Settings...", true, Command::ShowSettings);
    }

    /// The Help menu: first steps, shortcuts, About, and the debug items.
    fn help_menu(&mut self, ui: &mut egui::Ui) {
        self.menu_item(ui, "First steps", true, Command::ShowFirstSteps);
        self.menu_item(ui, "Keyboard shortcuts", true, Command::ShowShortcuts);
        if ui.button("About Okapi").clicked() {
            self.view.about = true;
            ui.close();
        }
        ui.separator();
        ui.checkbox(&mut self.settings.debug, "Debug")
            .on_hover_text(
                "Developer items: the engine's error report test, frame times in the status bar",
            );
        if self.settings.debug {
            self.menu_item(
                ui,
                "Test the engine's error report",
                true,
                Command::CrashEngine,
            );
        }
    }
}
