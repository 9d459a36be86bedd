//! The evaluation graph of the game, and beside it, once the game is analysed, the discs
//! each move lost.

use super::move_list::Severity;
use super::{App, Command};
use eframe::egui;
use okapi_core::board::Color;

impl App {
    /// The evaluation graph of the game, from Black's view; a click goes to that move.
    pub(super) fn graph_panel(&mut self, ui: &mut egui::Ui) {
        use egui_plot::{Line, PlotPoints, Points, VLine};
        // Proven points and searched ones alike for now (`CurvePoint::proven` tells them).
        let points: Vec<[f64; 2]> = self
            .eval_curve()
            .iter()
            .map(|p| [p.ply as f64, f64::from(p.black_value)])
            .collect();
        let ply = self.game().ply() as f64;
        let len = self.game().len().max(60) as f64;
        egui::Panel::bottom("graph")
            .resizable(true)
            .default_size(100.0)
            .show(ui, |ui| {
                let losses = self.loss_bars();
                let width = ui.available_width();
                let graph_width = if losses.is_empty() {
                    width
                } else {
                    width * 0.65
                };
                ui.horizontal(|ui| {
                    ui.allocate_ui(egui::vec2(graph_width, ui.available_height()), |ui| {
                        let response = game_plot("eval-graph", len, 16.0)
                            .x_axis_label("ply (click to go there); values from Black's view")
                            // Steps in discs that leave room for labels in a short panel (powers
                            // of ten left only "0" readable once the values pass 30).
                            .y_grid_spacer(egui_plot::uniform_grid_spacer(|input| {
                                if input.bounds.1 - input.bounds.0 > 48.0 {
                                    [32.0, 16.0, 8.0]
                                } else {
                                    [16.0, 8.0, 4.0]
                                }
                            }))
                            .show(ui, |plot| {
                                plot.vline(
                                    VLine::new("position", ply)
                                        .color(egui::Color32::from_rgb(0xff, 0xd8, 0x40)),
                                );
                                plot.line(Line::new(
                                    "evaluation",
                                    PlotPoints::from(points.clone()),
                                ));
                                plot.points(
                                    Points::new("moves", PlotPoints::from(points)).radius(2.5),
                                );
                            });
                        self.go_to_clicked_ply(&response);
                    });
                    if !losses.is_empty() {
                        self.loss_chart(ui, losses, len);
                    }
                });
            });
    }

    /// The analysed moves that lost discs: (ply, loss, Black's move?, severity colour).
    fn loss_bars(&self) -> Vec<(usize, i32, bool, egui::Color32)> {
        (0..self.game().len())
            .filter_map(|i| {
                let a = self.analysis_of(i)?;
                let severity = Severity::of(a.loss())?;
                let black = self.game().position_at(i).side_to_move() == Color::Black;
                Some((i, a.loss(), black, severity.color()))
            })
            .collect()
    }

    /// Discs lost per move, Black's upwards and White's downwards, coloured by severity.
    fn loss_chart(
        &mut self,
        ui: &mut egui::Ui,
        losses: Vec<(usize, i32, bool, egui::Color32)>,
        len: f64,
    ) {
        use egui_plot::{Bar, BarChart};
        let bars: Vec<Bar> = losses
            .iter()
            .map(|&(i, loss, black, color)| {
                let height = if black { loss } else { -loss } as f64;
                Bar::new((i + 1) as f64, height)
                    .width(0.9)
                    .fill(color)
                    .name(format!("ply {}: -{loss}", i + 1))
            })
            .collect();
        let height = ui.available_height();
        ui.vertical(|ui| {
            let title =
                ui.label(egui::RichText::new("discs lost per move: Black up, White down").small());
            // The title and the plot together as tall as the graph beside them: the plot
            // taking the whole height under its title made the panel taller, and the board
            // shrank when the chart appeared.
            let used = title.rect.height() + ui.spacing().item_spacing.y;
            let response = game_plot("loss-chart", len, 8.0)
                .height((height - used).max(32.0))
                .show(ui, |plot| plot.bar_chart(BarChart::new("discs lost", bars)));
            self.go_to_clicked_ply(&response);
        });
    }

    /// A click on a plot of the game goes to the ply under it.
    fn go_to_clicked_ply<R>(&mut self, response: &egui_plot::PlotResponse<R>) {
        if response.response.clicked()
            && let Some(pos) = response.response.interact_pointer_pos()
        {
            let x = response.transform.value_from_position(pos).x.round();
            self.commands.push(Command::GoTo(
                x.clamp(0.0, self.game().len() as f64) as usize
            ));
        }
    }
}

/// A fixed plot over the game's plies (0..`len`) and at least -`y`..`y` discs: clicks go
/// to a ply, so nothing zooms or drags.
fn game_plot(id: &str, len: f64, y: f64) -> egui_plot::Plot<'_> {
    egui_plot::Plot::new(id)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_x(0.0)
        .include_x(len)
        .include_y(-y)
        .include_y(y)
}
