//! The loss chart beside the graph: the discs each analysed move lost, on the graph's
//! plies and in its style.

use super::frame::{LEFT_MARGIN, OffScale, plot_frame};
use super::{GraphDraw, LOSS_RANGE};
use crate::move_list::Severity;
use crate::theme::{AXIS_LABEL, themed};
use eframe::egui::{self, Rect, Stroke, pos2, vec2};
use okapi_core::board::Color;
use okapi_core::game::{Eval, EvalSource};

/// A bar of the loss chart: the discs the move at `ply` lost for its mover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct LossBar {
    ply: usize,
    loss: i32,
    black: bool,
    severity: Severity,
    /// Both the played and the best move's values proven.
    proven: bool,
}

impl GraphDraw<'_> {
    /// The analysed moves that lost discs.
    pub(super) fn loss_bars(&self) -> Vec<LossBar> {
        (0..self.game().len())
            .filter_map(|i| {
                let a = self.analysis_of(i)?;
                let severity = Severity::of(a.loss())?;
                let proven = |e: &Eval| matches!(e.source, EvalSource::Exact | EvalSource::Wld);
                Some(LossBar {
                    ply: i,
                    loss: a.loss(),
                    black: self.game().position_at(i).side_to_move() == Color::Black,
                    severity,
                    proven: proven(&a.played) && proven(&a.best),
                })
            })
            .collect()
    }

    /// Discs lost per move, Black's upwards and White's downwards, coloured by severity
    /// (solid when proven, paler when searched), on the graph's plies and in its style.
    pub(super) fn loss_chart(&mut self, ui: &mut egui::Ui, losses: &[LossBar], size: egui::Vec2) {
        ui.vertical(|ui| {
            // The title and the chart together as tall as the graph beside them: the
            // panel keeps its height and the board its size when the chart appears.
            let title =
                ui.label(egui::RichText::new("discs lost per move: Black up, White down").small());
            let used = title.rect.height() + ui.spacing().item_spacing.y;
            let (rect, response) = ui.allocate_exact_size(
                vec2(size.x, (size.y - used).max(40.0)),
                egui::Sense::click(),
            );
            let frame = plot_frame(rect, self.graph_len(), LOSS_RANGE);
            let painter = ui.painter_at(rect);
            // Discs lost, whoever lost them: the title says which side is which.
            let axis = themed(ui.visuals(), AXIS_LABEL);
            frame.draw(
                &painter,
                rect.left() + LEFT_MARGIN - 3.0,
                |_, d| format!("{d:.0}"),
                axis,
            );
            let half = (frame.rect.width() / frame.len * 0.45).max(1.0);
            let mut off_scale = Vec::new();
            for b in losses {
                let x = frame.x(self.graph_x(b.ply + 1));
                let discs = if b.black { b.loss } else { -b.loss } as f32;
                let bar = Rect::from_two_pos(
                    pos2(x - half, frame.y(0.0)),
                    pos2(x + half, frame.y(discs)),
                );
                let color = b.severity.on_felt();
                let fill = if b.proven {
                    color
                } else {
                    color.gamma_multiply(0.55)
                };
                painter.rect(
                    bar,
                    0.0,
                    fill,
                    Stroke::new(1.0, color),
                    egui::StrokeKind::Inside,
                );
                if discs.abs() > LOSS_RANGE {
                    off_scale.push(OffScale {
                        x,
                        up: b.black,
                        text: format!("-{}", b.loss),
                        discs: b.loss,
                    });
                }
            }
            frame.draw_off_scale(&painter, &off_scale);
            frame.draw_current(&painter, self.graph_x(self.game().ply()));
            let summary = format!(
                "loss chart, ±{LOSS_RANGE:.0} discs, moves that lost discs: {}",
                losses.len()
            );
            response.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::Image, true, summary.clone())
            });
            self.graph_hover_and_click(&response, &frame);
        });
    }
}
