//! The settings window (Edit › Settings..., Ctrl+,): every setting in one place, in
//! groups: the engine player, what the board shows, the engine, where files are kept.
//! The side panel and the menus show some of the same widgets
//! ([`crate::settings_widgets`]); every change is a command, saved when applied.

use crate::part::{Commands, FrameView, Window};
use crate::settings::MAX_RECENT;
use crate::settings_widgets::SettingsUi;
use eframe::egui;

/// Every setting in one place.
#[derive(Default)]
pub(crate) struct SettingsWindow;

impl Window for SettingsWindow {
    fn title(&self) -> &'static str {
        super::SETTINGS
    }

    fn show(
        &mut self,
        ctx: &egui::Context,
        open: &mut bool,
        view: &FrameView,
        commands: &mut Commands,
    ) {
        egui::Window::new(self.title())
            .open(open)
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
                        let mut s = SettingsUi::new(view.settings, commands);
                        s.player_name(ui);
                        ui.separator();
                        player_settings(&mut s, ui);
                        ui.separator();
                        display_settings(&mut s, ui);
                        ui.separator();
                        engine_settings_group(&mut s, ui);
                        ui.separator();
                        path_settings(&mut s, view, ui);
                    });
            });
    }
}

/// The engine player: its level and book, the pause between engine moves.
fn player_settings(s: &mut SettingsUi, ui: &mut egui::Ui) {
    ui.heading("Engine player");
    s.level(ui, "settings-level");
    s.book(ui);
    s.engine_move_pause(ui);
    s.show_lines(ui);
}

/// What the board shows: values (on or off, whose, how many, exact or WLD, in
/// practice), the coordinates, colours, animation.
fn display_settings(s: &mut SettingsUi, ui: &mut egui::Ui) {
    ui.heading("Display");
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
fn engine_settings_group(s: &mut SettingsUi, ui: &mut egui::Ui) {
    ui.heading("Engine");
    s.hash_bits(ui);
    s.threads(ui);
    s.analysis_depth(ui);
    s.restore_defaults(ui);
}

/// Where Okapi keeps its files.
fn path_settings(s: &mut SettingsUi, view: &FrameView, ui: &mut egui::Ui) {
    ui.heading("Files");
    let (settings, game) = match view.settings_file {
        Some(path) => (
            path.display().to_string(),
            view.autosave
                .map_or("(not kept)".into(), |p| p.display().to_string()),
        ),
        None => ("(not saved in this session)".into(), "(not kept)".into()),
    };
    // Each path under its name, in the body's size, wrapped and selectable (in a grid
    // column beside the names they were squeezed small).
    for (name, path) in [("Settings:", settings), ("Game in progress:", game)] {
        ui.label(name);
        ui.indent(name, |ui| {
            ui.add(egui::Label::new(path).wrap().selectable(true));
        });
    }
    ui.horizontal(|ui| {
        ui.label(format!(
            "Recent files: {} of {MAX_RECENT}",
            view.settings.recent.len()
        ));
        s.forget_recent_files(ui);
    });
}
