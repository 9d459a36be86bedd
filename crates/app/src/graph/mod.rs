//! The evaluation graph of the game and, once the game is analysed, beside it the discs
//! each move lost: both on a fixed scale (the same game reads the same at every move and
//! every game alike), Black's side above the zero line and White's below.
//!
//! The graph: the value after each move from Black's view, Black's advantage shaded black
//! and White's white, on ±[`GRAPH_RANGE`] discs; a value beyond the scale sits on its edge
//! with an arrow and its figure. Each point's shape says how it is known (a diamond: proven
//! by the solver; a dot: searched), its colour whether the move was a mistake (the move
//! list's colours); a proven stretch of the line is drawn brighter. The current move is a
//! yellow line; a click goes to the move under the pointer, hovering tells its value.

use crate::board_view::{BEST, CLOSE};
use crate::command::Command;
use crate::engine_hub::PlyAnalysis;
use crate::move_list::Severity;
use crate::part::{Commands, FrameView, Part};
use crate::theme::{AXIS_LABEL, themed};
use eframe::egui::{self, Color32, Pos2, Rect, Stroke, pos2, vec2};
use okapi_core::board::{Color, Move};
use okapi_core::game::{Eval, EvalSource};

use frame::{Frame, LEFT_MARGIN, OffScale, plot_frame};

/// The graph's scale: ±32 discs holds nearly every value of a game between players who
/// know the game (a larger one flattens the middle game, where the values that matter are
/// a few discs); values beyond it are drawn on the edge, marked.
pub(crate) const GRAPH_RANGE: f32 = 32.0;
/// The loss chart's scale: ±16 discs (a blunder of more is drawn to the edge, marked).
const LOSS_RANGE: f32 = 16.0;

/// The background: the board's felt, darker.
const FELT: Color32 = Color32::from_rgb(0x1a, 0x52, 0x34);
const GRID: Color32 = Color32::from_rgb(0x2c, 0x6a, 0x48);
const ZERO: Color32 = Color32::from_rgb(0xf0, 0xe0, 0xc0);
const BLACK_AREA: Color32 = Color32::from_rgb(0x16, 0x16, 0x16);
const WHITE_AREA: Color32 = Color32::from_rgb(0xe4, 0xe4, 0xe0);
const SEARCHED: Color32 = Color32::from_rgb(0x9a, 0xa4, 0xa0);
/// Proven values: the board's colour for values within reach of the best.
const PROVEN: Color32 = CLOSE;
/// The current move: the board's colour for the best move.
const CURRENT: Color32 = BEST;
/// The legend's text, on the felt.
const LABEL: Color32 = Color32::from_rgb(0xc8, 0xc8, 0xc0);

/// One point of the graph: the value after the move at `ply` of the line, from Black's
/// view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GraphPoint {
    /// The move's index in the line (the point sits after it, at x = ply + 1).
    pub ply: usize,
    /// Discs, Black's view (for a win/draw/loss proof: its sign only).
    pub black: i32,
    /// Proven by the solver (exact or win/draw/loss), not estimated by a search.
    pub proven: bool,
    /// Only the result is proven (win, draw or loss), not the margin.
    pub wld: bool,
    /// How bad the move was, when the game analysis found it lost discs.
    pub severity: Option<Severity>,
}

impl GraphPoint {
    /// The point for the move at `ply` with value `eval` for its mover.
    fn new(ply: usize, eval: Eval, mover: Color, severity: Option<Severity>) -> GraphPoint {
        let mover_view = if mover == Color::Black { 1 } else { -1 };
        GraphPoint {
            ply,
            black: eval.value * mover_view,
            proven: eval.is_proven(),
            wld: eval.source == EvalSource::Wld,
            severity,
        }
    }

    /// Where the point is drawn, in discs: a win/draw/loss proof at the least margin a
    /// win has, the rest as they are.
    fn discs(&self) -> f32 {
        if self.wld {
            2.0 * self.black.signum() as f32
        } else {
            self.black as f32
        }
    }
}

/// The triangles shading the area between the line through `points` (x, discs) and the
/// zero line: Black's colour above it, White's below, split where the line crosses zero.
fn shade(frame: &Frame, points: &[(f32, f32)]) -> egui::Mesh {
    let mut mesh = egui::Mesh::default();
    let zero = frame.y(0.0);
    let mut quad = |x0: f32, v0: f32, x1: f32, v1: f32| {
        let color = if v0 + v1 > 0.0 {
            BLACK_AREA
        } else {
            WHITE_AREA
        };
        let base = mesh.vertices.len() as u32;
        for p in [
            pos2(frame.x(x0), zero),
            pos2(frame.x(x0), frame.y(v0)),
            pos2(frame.x(x1), frame.y(v1)),
            pos2(frame.x(x1), zero),
        ] {
            mesh.colored_vertex(p, color);
        }
        mesh.add_triangle(base, base + 1, base + 2);
        mesh.add_triangle(base, base + 2, base + 3);
    };
    for w in points.windows(2) {
        let ((x0, v0), (x1, v1)) = (w[0], w[1]);
        if v0 * v1 < 0.0 {
            let xc = x0 + (x1 - x0) * v0 / (v0 - v1);
            quad(x0, v0, xc, 0.0);
            quad(xc, 0.0, x1, v1);
        } else {
            quad(x0, v0, x1, v1);
        }
    }
    mesh
}

/// A point's marker: a diamond when proven, a dot when searched; the mistake's colour
/// when the move lost discs.
fn draw_marker(painter: &egui::Painter, at: Pos2, point: &GraphPoint) {
    let fill = match (point.severity, point.proven) {
        (Some(s), _) => s.on_felt(),
        (None, true) => PROVEN,
        (None, false) => SEARCHED,
    };
    let outline = Stroke::new(1.0, Color32::from_black_alpha(160));
    if point.proven {
        let r = if point.severity.is_some() { 4.5 } else { 3.5 };
        painter.add(egui::Shape::convex_polygon(
            vec![
                at + vec2(0.0, -r),
                at + vec2(r, 0.0),
                at + vec2(0.0, r),
                at + vec2(-r, 0.0),
            ],
            fill,
            outline,
        ));
    } else {
        let r = if point.severity.is_some() { 3.5 } else { 2.0 };
        painter.circle(at, r, fill, outline);
    }
}

/// The legend in the plot's top left corner (where the opening's values, near zero, never
/// reach): what the shapes mean.
fn draw_legend(painter: &egui::Painter, plot: Rect) {
    let font = egui::FontId::proportional(10.0);
    let y = plot.top() + 8.0;
    let mut x = plot.left() + 6.0;
    let items: [(&str, GraphPoint); 2] = [
        (
            "searched",
            GraphPoint {
                ply: 0,
                black: 0,
                proven: false,
                wld: false,
                severity: None,
            },
        ),
        (
            "proven",
            GraphPoint {
                ply: 0,
                black: 0,
                proven: true,
                wld: false,
                severity: None,
            },
        ),
    ];
    for (text, point) in items.iter().rev() {
        draw_marker(painter, pos2(x + 4.0, y), point);
        let r = painter.text(
            pos2(x + 11.0, y),
            egui::Align2::LEFT_CENTER,
            *text,
            font.clone(),
            LABEL,
        );
        x = r.right() + 10.0;
    }
}

/// The graph under the board: owns its height as drawn last frame (the player may drag
/// it; the board beside the side panel is sized to the height above it).
#[derive(Default)]
pub(crate) struct Graph {
    height: Option<f32>,
}

impl Part for Graph {
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        let height = GraphDraw { view, commands }.graph_panel(ui);
        self.height = Some(height);
    }
}

impl Graph {
    /// The graph panel's height: as drawn last frame, or at first its default.
    pub(crate) fn height(&self, ctx: &egui::Context) -> f32 {
        self.height
            .unwrap_or_else(|| default_graph_height(ctx.content_rect().height()))
    }
}

/// The graph panel's height at first in a window `window` points tall: 104 at 600 (a
/// plot of 84), 144 at 900 (a plot of 124), rising with the window.
fn default_graph_height(window: f32) -> f32 {
    (104.0 + (window - 600.0) * 40.0 / 300.0).clamp(104.0, 280.0)
}

/// The graph's points: each valued move of the line, from Black's view, with the game
/// analysis' verdict on it.
pub(crate) fn graph_points(view: &FrameView) -> Vec<GraphPoint> {
    let game = view.game();
    (0..game.len())
        .filter_map(|i| {
            let (e, _) = view.move_value(i)?;
            let severity = view.analysis_of(i).and_then(|a| Severity::of(a.loss()));
            let mover = game.position_at(i).side_to_move();
            Some(GraphPoint::new(i, e, mover, severity))
        })
        .collect()
}

/// One frame's drawing of the graph: what it reads, where its clicks go.
struct GraphDraw<'a> {
    view: &'a FrameView<'a>,
    commands: &'a mut Commands,
}

impl GraphDraw<'_> {
    fn game(&self) -> &okapi_core::game::Game {
        self.view.game()
    }

    fn analysis_of(&self, i: usize) -> Option<PlyAnalysis> {
        self.view.analysis_of(i)
    }

    fn graph_points(&self) -> Vec<GraphPoint> {
        graph_points(self.view)
    }

    /// The bottom panel: the evaluation graph and, once the game is analysed, the loss
    /// chart beside it. Its height is a share of the window's: 120 px of graph at 900 px,
    /// 80 at 600 (the player may drag it taller).
    fn graph_panel(&mut self, ui: &mut egui::Ui) -> f32 {
        let default = default_graph_height(ui.ctx().content_rect().height());
        // The panel keeps the height it was first given (or dragged to) under its id: one
        // id per default height (in steps of 8 points) makes it follow the window when the
        // window is resized, while a height the player dragged to stays for that size.
        let shown = egui::Panel::bottom(("graph", (default / 8.0).round() as i32))
            .resizable(true)
            .default_size(default)
            .min_size(104.0)
            .show(ui, |ui| {
                if self.view.hides_answer {
                    // The line would show the loss, the chart the mistake: the panel stays,
                    // empty, so the board does not move.
                    ui.centered_and_justified(|ui| {
                        ui.weak("The graph and the losses show once your answer is judged.")
                    });
                    return;
                }
                let losses = self.loss_bars();
                let size = ui.available_size();
                let graph_width = if losses.is_empty() {
                    size.x
                } else {
                    size.x * 0.65
                };
                ui.horizontal(|ui| {
                    self.eval_graph(ui, vec2(graph_width, size.y));
                    if !losses.is_empty() {
                        self.loss_chart(ui, &losses, vec2(ui.available_width(), size.y));
                    }
                });
            });
        shown.response.rect.height()
    }

    /// The x axis: the moves of a game, 0 to 60, as players count them (passes take
    /// none, and a game set up later starts at its own move).
    fn graph_len(&self) -> f32 {
        60.0
    }

    /// Where the position before ply `i` of the line sits on the x axis: the moves
    /// played to reach it (the discs on the board less the four of the start).
    fn graph_x(&self, i: usize) -> f32 {
        (self.game().move_number_at(i) - 1) as f32
    }

    /// The x of every position of the line, `0..=len()`.
    fn graph_xs(&self) -> Vec<f32> {
        (0..=self.game().len()).map(|i| self.graph_x(i)).collect()
    }

    fn eval_graph(&mut self, ui: &mut egui::Ui, size: egui::Vec2) {
        let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
        let points = self.graph_points();
        let frame = plot_frame(rect, self.graph_len(), GRAPH_RANGE);
        let painter = ui.painter_at(rect);
        let axis = themed(ui.visuals(), AXIS_LABEL);
        frame.draw(
            &painter,
            rect.left() + LEFT_MARGIN - 3.0,
            |side, d| format!("{side}+{d:.0}"),
            axis,
        );
        let xy: Vec<(f32, f32)> = points
            .iter()
            .map(|p| (self.graph_x(p.ply + 1), p.discs()))
            .collect();
        painter.add(shade(&frame, &xy));
        painter.hline(frame.rect.x_range(), frame.y(0.0), Stroke::new(1.0, ZERO));
        let at = |p: &GraphPoint| pos2(frame.x(self.graph_x(p.ply + 1)), frame.y(p.discs()));
        for w in points.windows(2) {
            let both_proven = w[0].proven && w[1].proven;
            let stroke = if both_proven {
                Stroke::new(2.0, PROVEN)
            } else {
                Stroke::new(1.5, SEARCHED)
            };
            painter.line_segment([at(&w[0]), at(&w[1])], stroke);
        }
        frame.draw_current(&painter, self.graph_x(self.game().ply()));
        let mut prev_off = false;
        let mut off_scale = Vec::new();
        for p in &points {
            draw_marker(&painter, at(p), p);
            // The first value of each run off the scale is told with its figure.
            let off = p.discs().abs() > GRAPH_RANGE;
            if off && !prev_off {
                let side = if p.black > 0 { "B" } else { "W" };
                off_scale.push(OffScale {
                    x: at(p).x,
                    up: p.black > 0,
                    text: format!("{side}+{}", p.black.abs()),
                    discs: p.black,
                });
            }
            prev_off = off;
        }
        frame.draw_off_scale(&painter, &off_scale);
        draw_legend(&painter, frame.rect);
        let proven = points.iter().filter(|p| p.proven).count();
        let marked = points.iter().filter(|p| p.severity.is_some()).count();
        let summary = format!(
            "evaluation graph from Black's view, ±{GRAPH_RANGE:.0} discs: {} values, {proven} proven, mistakes marked: {marked}",
            points.len()
        );
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, summary.clone()));
        self.graph_hover_and_click(&response, &frame);
    }

    /// Hovering tells the move under the pointer; a click goes to it.
    fn graph_hover_and_click(&mut self, response: &egui::Response, frame: &Frame) {
        let Some(pos) = response.hover_pos().or(response.interact_pointer_pos()) else {
            return;
        };
        let ply = frame.nearest(pos.x, &self.graph_xs());
        if response.clicked() {
            self.commands.push(Command::GoTo(ply));
            return;
        }
        if let Some(text) = self.ply_summary(ply) {
            response.clone().on_hover_text_at_pointer(text);
        }
    }

    /// "Move 23, e3 by Black: B+6 (18@95%); lost 4 discs against c3."
    fn ply_summary(&self, ply: usize) -> Option<String> {
        let i = ply.checked_sub(1)?;
        let game = self.game();
        let mv = game.move_at(i)?;
        let mover = game.position_at(i).side_to_move();
        let by = if mover == Color::Black {
            "Black"
        } else {
            "White"
        };
        // Numbered as the move list numbers it (passes take no number).
        let mut text = match mv {
            Move::Play(sq) => format!("Move {}, {sq} by {by}", game.move_number_at(i)),
            Move::Pass => format!("{by} passes"),
        };
        if let Some((e, label)) = self.view.move_value(i) {
            let p = GraphPoint::new(i, e, mover, None);
            let side = if p.black >= 0 { "B" } else { "W" };
            let value = match e.source {
                EvalSource::Wld => match p.black.signum() {
                    1 => "Black wins".to_string(),
                    0 => "draw".to_string(),
                    _ => "White wins".to_string(),
                },
                _ => format!("{side}+{}", p.black.abs()),
            };
            let how = if p.proven { "proven" } else { "searched" };
            text += &format!(": {value} ({how}, {})", e.source);
            if label.starts_with('≤') {
                // A search a proof bounds: worth at most the proof for its mover.
                text += &format!(", {label} for {by} by the proof");
            }
        }
        if let Some(a) = self.analysis_of(i)
            && a.loss() > 0
        {
            text += &format!(
                "; lost {} against {}",
                crate::move_list::discs(a.loss() as u32),
                a.best_move
            );
        }
        Some(text + ". Click to go there.")
    }
}

mod frame;
mod loss_chart;
#[cfg(test)]
mod tests;
