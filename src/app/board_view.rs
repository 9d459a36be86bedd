//! Paints the board and turns clicks into squares. Every square is its own accessible
//! button labelled with its name (`d3`), valued with what is shown on it.

use crate::board::{Color, Position, Square};
use crate::game::{Eval, EvalSource};
use eframe::egui::{
    self, Align2, Color32, FontId, Pos2, Rect, Role, Sense, Stroke, Vec2, WidgetInfo,
};
use std::collections::HashMap;

/// What the board shows this frame.
pub struct BoardView<'a> {
    pub position: Position,
    pub last_move: Option<Square>,
    pub evals: &'a HashMap<Square, Eval>,
    pub show_legal: bool,
    pub flipped: bool,
    /// Clicks are accepted (a human is to move).
    pub clickable: bool,
    /// Board set-up: every square takes clicks.
    pub setup: bool,
    /// Discs turning over and how far (0..1); None when not animating.
    pub flipping: Option<(u64, f32)>,
}

const BOARD_GREEN: Color32 = Color32::from_rgb(0x1e, 0x7a, 0x46);
const FRAME_BROWN: Color32 = Color32::from_rgb(0x5a, 0x3d, 0x22);
const GRID: Color32 = Color32::from_rgb(0x0e, 0x40, 0x22);
const BEST: Color32 = Color32::from_rgb(0xff, 0xd8, 0x40);

/// Draws the board in the space left in `ui`; returns the square clicked, if any.
pub fn board_ui(ui: &mut egui::Ui, view: &BoardView) -> Option<Square> {
    let avail = ui.available_size();
    let side = avail.x.min(avail.y).max(160.0);
    let (outer, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(outer);
    let margin = side * 0.06;
    let inner = outer.shrink(margin);
    let cell = inner.width() / 8.0;

    painter.rect_filled(outer, 6.0, FRAME_BROWN);
    painter.rect_filled(inner, 0.0, BOARD_GREEN);

    // Coordinates on all four sides.
    let coord_font = FontId::proportional((margin * 0.55).clamp(8.0, 20.0));
    let coord_color = Color32::from_rgb(0xf0, 0xe0, 0xc0);
    for i in 0..8 {
        let (col_name, row_name) = if view.flipped { (7 - i, 7 - i) } else { (i, i) };
        let letter = (b'a' + col_name as u8) as char;
        let digit = (b'1' + row_name as u8) as char;
        let x = inner.left() + cell * (i as f32 + 0.5);
        let y = inner.top() + cell * (i as f32 + 0.5);
        for (pos, anchor) in [
            (
                Pos2::new(x, outer.top() + margin / 2.0),
                Align2::CENTER_CENTER,
            ),
            (
                Pos2::new(x, outer.bottom() - margin / 2.0),
                Align2::CENTER_CENTER,
            ),
        ] {
            painter.text(pos, anchor, letter, coord_font.clone(), coord_color);
        }
        for pos in [
            Pos2::new(outer.left() + margin / 2.0, y),
            Pos2::new(outer.right() - margin / 2.0, y),
        ] {
            painter.text(
                pos,
                Align2::CENTER_CENTER,
                digit,
                coord_font.clone(),
                coord_color,
            );
        }
    }
    for i in 0..=8 {
        let t = i as f32 * cell;
        let w = if i == 0 || i == 8 { 2.0 } else { 1.0 };
        painter.line_segment(
            [
                Pos2::new(inner.left() + t, inner.top()),
                Pos2::new(inner.left() + t, inner.bottom()),
            ],
            Stroke::new(w, GRID),
        );
        painter.line_segment(
            [
                Pos2::new(inner.left(), inner.top() + t),
                Pos2::new(inner.right(), inner.top() + t),
            ],
            Stroke::new(w, GRID),
        );
    }
    for (c, r) in [(2.0, 2.0), (6.0, 2.0), (2.0, 6.0), (6.0, 6.0)] {
        painter.circle_filled(
            Pos2::new(inner.left() + c * cell, inner.top() + r * cell),
            cell * 0.06,
            GRID,
        );
    }

    let legal = view.position.legal_moves();
    let side_to_move = view.position.side_to_move();
    // The best move by the strongest source on the board (a proof outranks a guess).
    let strongest = view.evals.values().map(|e| e.source).max();
    let best_value = view
        .evals
        .values()
        .filter(|e| Some(e.source) == strongest)
        .map(|e| e.value)
        .max();
    let mut clicked = None;
    for sq in Square::all() {
        let (dc, dr) = if view.flipped {
            (7 - sq.col(), 7 - sq.row())
        } else {
            (sq.col(), sq.row())
        };
        let rect = Rect::from_min_size(
            Pos2::new(
                inner.left() + dc as f32 * cell,
                inner.top() + dr as f32 * cell,
            ),
            Vec2::splat(cell),
        );
        let center = rect.center();
        let disc = view.position.at(sq);
        let is_legal = legal.contains(sq);
        let eval = view.evals.get(&sq).filter(|_| is_legal);
        match disc {
            Some(color) => {
                // A turning disc shows its old colour for the first half, edge-on midway.
                let (color, squash) = match view.flipping {
                    Some((mask, t)) if mask & sq.bit() != 0 => {
                        let shown = if t < 0.5 { color.opposite() } else { color };
                        (shown, (std::f32::consts::PI * t).cos().abs().max(0.08))
                    }
                    _ => (color, 1.0),
                };
                let (fill, edge) = disc_colors(color);
                let radius = Vec2::new(cell * 0.41 * squash, cell * 0.41);
                painter.add(egui::epaint::EllipseShape::filled(
                    center + Vec2::new(cell * 0.03, cell * 0.04),
                    radius,
                    Color32::from_black_alpha(70),
                ));
                painter.add(egui::epaint::EllipseShape::filled(center, radius, fill));
                painter.add(egui::epaint::EllipseShape::stroke(
                    center,
                    radius,
                    Stroke::new(1.0, edge),
                ));
                if view.last_move == Some(sq) {
                    painter.circle_filled(center, cell * 0.08, Color32::from_rgb(0xe0, 0x30, 0x30));
                }
            }
            None if is_legal => {
                if let Some(e) = eval {
                    let best = Some(e.source) == strongest && best_value == Some(e.value);
                    let color = match e.source {
                        EvalSource::Exact | EvalSource::Wld if best => BEST,
                        EvalSource::Exact | EvalSource::Wld => Color32::WHITE,
                        EvalSource::Heuristic { .. }
                        | EvalSource::Midgame { .. }
                        | EvalSource::Book
                            if best =>
                        {
                            Color32::from_rgb(0xe8, 0xd0, 0x90)
                        }
                        EvalSource::Heuristic { .. }
                        | EvalSource::Midgame { .. }
                        | EvalSource::Book => Color32::from_rgb(0xc8, 0xd8, 0xc8),
                    };
                    if best {
                        painter.rect_stroke(
                            rect.shrink(2.0),
                            3.0,
                            Stroke::new(2.0, BEST),
                            egui::StrokeKind::Inside,
                        );
                    }
                    painter.text(
                        center,
                        Align2::CENTER_CENTER,
                        e.label(),
                        FontId::proportional(cell * 0.3),
                        color,
                    );
                    painter.text(
                        Pos2::new(center.x, rect.bottom() - cell * 0.04),
                        Align2::CENTER_BOTTOM,
                        source_tag(e.source),
                        FontId::proportional(cell * 0.15),
                        color.gamma_multiply(0.8),
                    );
                } else if view.show_legal {
                    let (fill, _) = disc_colors(side_to_move);
                    painter.circle_filled(center, cell * 0.1, fill.gamma_multiply(0.55));
                }
            }
            None => {}
        }

        let response = ui.interact(
            rect,
            ui.scope_id().with(("square", sq.index())),
            Sense::click(),
        );
        let enabled = view.setup || (view.clickable && is_legal);
        let value = match disc {
            Some(Color::Black) => "black disc".to_string(),
            Some(Color::White) => "white disc".to_string(),
            None => match eval {
                Some(e) => format!("legal move, {} ({})", e.label(), e.source),
                None if is_legal => "legal move".to_string(),
                None => "empty".to_string(),
            },
        };
        response.widget_info(|| {
            let mut info = WidgetInfo::labeled(Role::Button, enabled, sq.to_string());
            info.current_text_value = Some(value.clone());
            info
        });
        if response.hovered() && enabled {
            ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
            painter.rect_stroke(
                rect.shrink(1.0),
                2.0,
                Stroke::new(1.5, Color32::from_white_alpha(120)),
                egui::StrokeKind::Inside,
            );
        }
        if response.clicked() && enabled {
            clicked = Some(sq);
        }
    }
    clicked
}

fn disc_colors(color: Color) -> (Color32, Color32) {
    match color {
        Color::Black => (
            Color32::from_rgb(0x18, 0x18, 0x18),
            Color32::from_rgb(0x50, 0x50, 0x50),
        ),
        Color::White => (
            Color32::from_rgb(0xf4, 0xf4, 0xf0),
            Color32::from_rgb(0xa0, 0xa0, 0xa0),
        ),
    }
}

fn source_tag(source: EvalSource) -> String {
    match source {
        EvalSource::Exact => "exact".into(),
        EvalSource::Wld => "WLD".into(),
        EvalSource::Heuristic { depth } => format!("heur {depth}"),
        EvalSource::Midgame { depth, confidence } => format!("{depth}@{confidence}%"),
        EvalSource::Book => "book".into(),
    }
}
