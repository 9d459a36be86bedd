//! The status bar: a message line of fixed height (the error to dismiss, or the last
//! notice), what the engine does with a solve's progress, and, with the Debug setting, the
//! responsiveness figures. Its height never changes, so the board never moves when a
//! message comes or goes.

use crate::command::Command;
use crate::engine_hub::Task;
use crate::part::{Commands, FrameView, Part};
use crate::theme::{NOTICE_TEXT, themed};
use eframe::egui;
use okapi_core::game::openings;
use okapi_core::search::SolveMode;

/// The status bar: it holds nothing of its own and draws from the frame's view.
#[derive(Default)]
pub(crate) struct StatusBar;

impl Part for StatusBar {
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        StatusDraw { view, commands }.status_bar(ui);
    }
}

/// One frame's drawing of the status bar: what it reads, where its clicks go.
struct StatusDraw<'a> {
    view: &'a FrameView<'a>,
    commands: &'a mut Commands,
}

impl StatusDraw<'_> {
    fn game(&self) -> &okapi_core::game::Game {
        self.view.game()
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("status").show(ui, |ui| {
            self.message_line(ui);
            ui.horizontal(|ui| {
                let engine = self.engine_status_text();
                // The figures on the right first; the engine line takes what is left and
                // is cut short rather than running under them.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if self.view.settings.debug {
                        ui.label(
                            egui::RichText::new(self.view.metrics.summary())
                                .small()
                                .weak(),
                        );
                    }
                    if let Task::Solving(mode) = self.view.engines.board.task {
                        self.solve_progress(ui, mode);
                    }
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        self.opening_label(ui);
                        ui.add(egui::Label::new(engine).truncate());
                    });
                });
            });
        });
    }

    /// One line, always there: the error (with Dismiss), else the notice, else nothing.
    fn message_line(&mut self, ui: &mut egui::Ui) {
        let height = ui.spacing().interact_size.y;
        let width = ui.available_width();
        ui.allocate_ui_with_layout(
            egui::vec2(width, height),
            egui::Layout::right_to_left(egui::Align::Center),
            |ui| {
                ui.set_min_size(egui::vec2(width, height));
                if let Some(err) = self.view.error {
                    if ui.button("Dismiss").clicked() {
                        self.commands.push(Command::DismissError);
                    }
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        ui.add(
                            egui::Label::new(
                                egui::RichText::new(format!("Error: {err}"))
                                    .color(ui.visuals().error_fg_color),
                            )
                            .truncate(),
                        );
                    });
                } else if let Some(n) = self.view.notice {
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        ui.add(
                            egui::Label::new(
                                egui::RichText::new(n).color(themed(ui.visuals(), NOTICE_TEXT)),
                            )
                            .truncate(),
                        );
                    });
                }
            },
        );
    }

    /// The opening the game is in at the cursor (the deepest named position on the line
    /// so far, as WZebra shows it), then a separator; nothing before a named position.
    fn opening_label(&self, ui: &mut egui::Ui) {
        let Some(opening) = openings::opening_at_cursor(self.game()) else {
            return;
        };
        let here = opening.ply == self.game().ply();
        let hover = if here {
            "The named opening of this position (Robert Gatliff's list)".to_string()
        } else {
            format!(
                "The last named position on the line so far, reached at move {} (Robert \
                 Gatliff's list)",
                opening.ply
            )
        };
        ui.label(egui::RichText::new(format!("Opening: {}", opening.name)).strong())
            .on_hover_text(hover);
        ui.separator();
    }

    fn engine_status_text(&self) -> String {
        if self.view.hides_answer {
            // The board's engine rests through a round; what it said last may be the card's.
            "Engine: resting while you practise.".into()
        } else if self.view.engines.board.task == Task::Idle {
            format!("Engine idle: {}", self.view.engines.board.status)
        } else {
            format!(
                "Engine: {} ({:.1} s)",
                self.view.engines.board.status,
                self.view.engines.board.task_started.elapsed().as_secs_f32()
            )
        }
    }

    /// A solve's progress: the time spent against the estimate, counting up.
    fn solve_progress(&self, ui: &mut egui::Ui, mode: SolveMode) {
        let empties = self.game().position().empty_count();
        let spent = self.view.engines.board.task_started.elapsed().as_secs_f32();
        let estimate = solve_estimate(empties, mode);
        let fraction = (spent / estimate.max(0.1)).min(0.99);
        let text = if spent <= estimate {
            format!("solving: {} of about {}", seconds(spent), seconds(estimate))
        } else {
            format!(
                "solving: {} (longer than the usual {})",
                seconds(spent),
                seconds(estimate)
            )
        };
        ui.add(
            egui::ProgressBar::new(fraction)
                .desired_width(260.0)
                .text(text),
        );
    }
}

/// A typical solve time in seconds, from the measured FFO figures (docs/engine.md: 20 empties in
/// about 0.3 s, each further empty about 1.8 times longer; WLD about half). Positions
/// differ a lot: the real time can be a few times less or more.
pub(super) fn solve_estimate(empties: u32, mode: SolveMode) -> f32 {
    let exact = 0.3 * 1.8f32.powi(empties as i32 - 20);
    match mode {
        SolveMode::Exact => exact,
        SolveMode::Wld => exact / 2.0,
    }
}

/// The warning shown before a solve that will take long (above 24 empties), if any.
pub(super) fn long_solve_warning(empties: u32, mode: SolveMode) -> Option<String> {
    if empties <= 24 {
        return None;
    }
    let t = solve_estimate(empties, mode);
    Some(format!(
        "{empties} empties: solving takes about {} to {}, depending on the position.",
        seconds(t / 3.0),
        seconds(t * 4.0)
    ))
}

/// A duration in words a person reads at a glance: "0.4 s", "12 s", "3 min", "2 h".
pub(super) fn seconds(s: f32) -> String {
    if s < 10.0 {
        format!("{s:.1} s")
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < 3.0 * 86400.0 {
        format!("{:.0} h", s / 3600.0)
    } else {
        format!("{:.0} days", s / 86400.0)
    }
}
