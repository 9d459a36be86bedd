//! The settings window (Edit › Settings..., Ctrl+,): every setting in one place, in
//! groups: the engine player, what the board shows, the engine, where files are kept.
//! The side panel and the menus show some of the same widgets
//! ([`crate::settings_widgets`]); every change is a command, saved when applied.

use crate::app::App;
use crate::settings::MAX_RECENT;
use eframe::egui;

impl App {
    pub(super) fn settings_window(&mut self, ctx: &egui::Context) {
        if !self.view.settings_window {
            return;
        }
        let mut open = true;
        egui::Window::new("Settings")
            .open(&mut open)
            .default_pos([120.0, 60.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                // As tall as the window allows below its title (egui's default showed a third of it at
                // 1280x900), scrolling only where the screen is too short.
                let tall = ctx.content_rect().height() - 150.0;
                egui::ScrollArea::vertical()
                    .max_height(tall)
                    .min_scrolled_height(tall)
                    .show(ui, |ui| {
                        self.settings_ui().player_name(ui);
                        ui.separator();
                        self.player_settings(ui);
                        ui.separator();
                        self.display_settings(ui);
                        ui.separator();
                        self.engine_settings_group(ui);
                        ui.separator();
                        self.path_settings(ui);
                    });
            });
        self.view.settings_window = open;
    }

    /// The engine player: its level and book, the pause between engine moves.
    fn player_settings(&mut self, ui: &mut egui::Ui) {
        ui.heading("Engine player");
        let mut s = self.settings_ui();
        s.level(ui, "settings-level");
        s.book(ui);
        s.engine_move_pause(ui);
        s.show_lines(ui);
    }

    /// What the board shows: values (on or off, whose, how many, exact or WLD, in
    /// practice), the coordinates, colours, animation.
    fn display_settings(&mut self, ui: &mut egui::Ui) {
        ui.heading("Display");
        let mut s = self.settings_ui();
        s.show_values(ui);
        s.values_for(ui);
        s.values_against_engine(ui);
        s.values_on_best(ui);
        s.value_mode(ui);
        s.solve_from(ui);
        s.coordinates(ui);
        s.animate(ui);
        s.flipped(ui);
        s.board_colors(ui);
    }

    /// The engine's resources: the hash table, the threads, the analysis' depth.
    fn engine_settings_group(&mut self, ui: &mut egui::Ui) {
        ui.heading("Engine");
        let mut s = self.settings_ui();
        s.hash_bits(ui);
        s.threads(ui);
        s.analysis_depth(ui);
        s.restore_defaults(ui);
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
                ui.add(egui::Label::new(egui::RichText::new(settings).monospace()).wrap());
                ui.end_row();
                ui.label("Game in progress:");
                ui.add(egui::Label::new(egui::RichText::new(game).monospace()).wrap());
                ui.end_row();
            });
        ui.horizontal(|ui| {
            ui.label(format!(
                "Recent files: {} of {MAX_RECENT}",
                self.settings.recent.len()
            ));
            self.settings_ui().forget_recent_files(ui);
        });
    }
}
