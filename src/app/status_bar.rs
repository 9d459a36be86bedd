//! The status bar: the error to dismiss, what the engine does, the responsiveness figures.

use super::App;
use super::engine_events::Task;
use eframe::egui;

impl App {
    pub(super) fn status_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("status").show(ui, |ui| {
            if let Some(err) = self.error.clone() {
                ui.horizontal(|ui| {
                    ui.colored_label(
                        egui::Color32::from_rgb(0xff, 0x60, 0x50),
                        format!("Error: {err}"),
                    );
                    if ui.button("Dismiss").clicked() {
                        self.error = None;
                    }
                });
            }
            ui.horizontal(|ui| {
                let engine = if self.engine.task == Task::Idle {
                    format!("Engine idle. {}", self.engine.status)
                } else {
                    format!(
                        "Engine: {} ({:.1} s)",
                        self.engine.status,
                        self.engine.task_started.elapsed().as_secs_f32()
                    )
                };
                // The figures on the right first; the engine line takes what is left and
                // is cut short rather than running under them.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.label(egui::RichText::new(self.metrics.summary()).small().weak());
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        ui.add(egui::Label::new(engine).truncate());
                    });
                });
            });
        });
    }
}
