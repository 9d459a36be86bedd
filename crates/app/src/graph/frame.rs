//! The plot's frame, shared by the graph and the loss chart: the plot area over the
//! game's plies and a scale of discs, its felt, grid and labels, the current move's line
//! and the marks of values off the scale.

use super::{CURRENT, FELT, GRID, ZERO};
use eframe::egui::{self, Color32, Rect, Stroke, pos2};

/// A plot area over the game's plies (0..`len`) and ±`range` discs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) rect: Rect,
    pub(super) len: f32,
    pub(super) range: f32,
}

impl Frame {
    pub(super) fn x(&self, ply: f32) -> f32 {
        self.rect.left() + self.rect.width() * ply / self.len
    }

    /// The height of `discs` on the scale, clamped to its edges.
    pub(super) fn y(&self, discs: f32) -> f32 {
        let d = discs.clamp(-self.range, self.range);
        self.rect.center().y - self.rect.height() / 2.0 * d / self.range
    }

    /// Of the places `xs` on the axis (a position's moves played), the index of the one
    /// nearest to a pointer's x; 0 when there is none.
    pub(super) fn nearest(&self, x: f32, xs: &[f32]) -> usize {
        let at = (x - self.rect.left()) / self.rect.width() * self.len;
        (0..xs.len())
            .min_by(|&a, &b| (xs[a] - at).abs().total_cmp(&(xs[b] - at).abs()))
            .unwrap_or(0)
    }

    /// The felt, the grid of labelled ticks (`label(side, discs)`: side "B" above the
    /// zero line, "W" below), the move numbers under it and the zero line. The labels
    /// are on the panel beside and under the felt, in the theme's `axis` colour.
    pub(super) fn draw(
        &self,
        painter: &egui::Painter,
        labels_at: f32,
        label: fn(&str, f32) -> String,
        axis: Color32,
    ) {
        let font = egui::FontId::proportional(10.0);
        painter.rect_filled(self.rect, 2.0, FELT);
        // A tick every 8 discs where they have 12 px between them, else every 16.
        let px_per_disc = self.rect.height() / 2.0 / self.range;
        let step = if 8.0 * px_per_disc >= 12.0 { 8.0 } else { 16.0 };
        let mut d = step;
        while d <= self.range + 0.01 {
            for (sign, side) in [(1.0, "B"), (-1.0, "W")] {
                let y = self.y(sign * d);
                painter.hline(self.rect.x_range(), y, Stroke::new(1.0, GRID));
                painter.text(
                    pos2(labels_at, y),
                    egui::Align2::RIGHT_CENTER,
                    label(side, d),
                    font.clone(),
                    axis,
                );
            }
            d += step;
        }
        let mut m = 10.0;
        while m < self.len + 0.01 {
            let x = self.x(m);
            painter.vline(x, self.rect.y_range(), Stroke::new(1.0, GRID));
            // Centred under its line, but never past the painter's right edge: the last,
            // "60" at the plot's right end, was cut to "6".
            let number = painter.layout_no_wrap(format!("{m:.0}"), font.clone(), axis);
            let width = number.size().x;
            let left = (x - width / 2.0).min(painter.clip_rect().right() - width);
            painter.galley(pos2(left, self.rect.bottom() + 1.0), number, axis);
            m += 10.0;
        }
        painter.text(
            pos2(labels_at, self.rect.center().y),
            egui::Align2::RIGHT_CENTER,
            "0",
            font,
            axis,
        );
        painter.hline(self.rect.x_range(), self.y(0.0), Stroke::new(1.0, ZERO));
    }

    /// The current move's line, at `moves` moves played.
    pub(super) fn draw_current(&self, painter: &egui::Painter, moves: f32) {
        painter.vline(
            self.x(moves),
            self.rect.y_range(),
            Stroke::new(2.0, CURRENT),
        );
    }

    /// An arrow on the edge, pointing off the scale.
    pub(super) fn draw_off_scale_arrow(&self, painter: &egui::Painter, x: f32, up: bool) {
        let y = if up {
            self.rect.top()
        } else {
            self.rect.bottom()
        };
        let tip = if up { -1.0 } else { 1.0 };
        painter.add(egui::Shape::convex_polygon(
            vec![
                pos2(x, y + tip * 1.0),
                pos2(x + 4.0, y - tip * 5.0),
                pos2(x - 4.0, y - tip * 5.0),
            ],
            ZERO,
            Stroke::new(1.0, Color32::from_black_alpha(160)),
        ));
    }

    /// The arrows of the values off the scale, and the figures of those that have room:
    /// a figure never covers another (the larger is told, "22" not "19" on it), and each
    /// sits on a dark box so it reads on White's pale area as on Black's.
    pub(super) fn draw_off_scale(&self, painter: &egui::Painter, marks: &[OffScale]) {
        let font = egui::FontId::proportional(10.0);
        let placed: Vec<(OffScale, Rect)> = marks
            .iter()
            .map(|m| {
                self.draw_off_scale_arrow(painter, m.x, m.up);
                let galley = painter.layout_no_wrap(m.text.clone(), font.clone(), ZERO);
                let y = if m.up {
                    self.rect.top() + 2.0
                } else {
                    self.rect.bottom() - 2.0 - galley.size().y
                };
                let rect = Rect::from_min_size(pos2(m.x + 5.0, y), galley.size()).expand(1.0);
                (m.clone(), rect)
            })
            .collect();
        for (i, shown) in labels_with_room(&placed).into_iter().enumerate() {
            if !shown {
                continue;
            }
            let (mark, rect) = &placed[i];
            painter.rect_filled(*rect, 2.0, OFF_SCALE_BOX);
            painter.text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                &mark.text,
                font.clone(),
                ZERO,
            );
        }
    }
}

/// A value off the scale: where its arrow goes, which edge, its figure and its size.
#[derive(Clone, Debug)]
pub(super) struct OffScale {
    pub(super) x: f32,
    pub(super) up: bool,
    pub(super) text: String,
    pub(super) discs: i32,
}

/// The box behind an off-scale figure: the felt's dark, so the light figure reads on
/// White's light area too.
pub(super) const OFF_SCALE_BOX: Color32 = Color32::from_rgb(0x10, 0x30, 0x20);

/// Which of the off-scale figures (each with the rect it would cover) are drawn: the
/// largest first, each only where it covers none already drawn.
pub(super) fn labels_with_room(marks: &[(OffScale, Rect)]) -> Vec<bool> {
    let mut order: Vec<usize> = (0..marks.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(marks[i].0.discs.abs()));
    let mut shown = vec![false; marks.len()];
    let mut taken: Vec<Rect> = Vec::new();
    for i in order {
        let rect = marks[i].1;
        if taken.iter().all(|t| !t.intersects(rect)) {
            taken.push(rect);
            shown[i] = true;
        }
    }
    shown
}

/// The left margin (the tick labels "B+32") and the bottom one (move numbers).
pub(super) const LEFT_MARGIN: f32 = 34.0;
pub(super) const BOTTOM_MARGIN: f32 = 13.0;

/// The plot area of a widget's rect, leaving room for the labels.
pub(super) fn plot_frame(rect: Rect, len: f32, range: f32) -> Frame {
    Frame {
        rect: Rect::from_min_max(
            pos2(rect.left() + LEFT_MARGIN, rect.top() + 6.0),
            pos2(rect.right() - 4.0, rect.bottom() - BOTTOM_MARGIN),
        ),
        len,
        range,
    }
}
