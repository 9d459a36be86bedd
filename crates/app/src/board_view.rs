//! Paints the board and turns clicks into squares. Every square is its own accessible
//! button labelled with its name (`d3`), valued with what is shown on it.

use eframe::egui::{
    self, Align2, Color32, FontId, Pos2, Rect, Role, Sense, Stroke, Vec2, WidgetInfo,
};
use okapi_core::board::{Color, Position, Square};
use okapi_core::game::openings::{self, LeadsTo};
use okapi_core::game::{Eval, EvalSource};
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
    /// The engine is to move: a click is refused with a cue (the cursor says so on
    /// hover) rather than taken as the next move.
    pub engine_to_move: bool,
    /// Board set-up: every square takes clicks.
    pub setup: bool,
    /// A practice card waits for its answer: where a move leads is not said either.
    pub hide_answer: bool,
    /// Discs turning over and how far (0..1); None when not animating.
    pub flipping: Option<(u64, f32)>,
    /// Values only on the best this many moves (ties included); 0: on every move.
    pub best_only: u32,
    /// Letters and digits around the board.
    pub coordinates: bool,
    pub colors: crate::settings::BoardColors,
    /// The frame's width, a share of the board's side: [`FRAME`], or [`NARROW_FRAME`]
    /// on a phone, where the squares need every point of the width.
    pub frame: f32,
}

/// The frame round the board, a share of its side.
pub const FRAME: f32 = 0.05;
/// The frame on a phone held upright: the coordinates' smallest font still fits it.
pub const NARROW_FRAME: f32 = 0.035;

/// The felt, the frame and the grid lines of a colour scheme.
pub(crate) fn board_colors(colors: crate::settings::BoardColors) -> (Color32, Color32, Color32) {
    use crate::settings::BoardColors;
    match colors {
        BoardColors::Green => (BOARD_GREEN, FRAME_BROWN, GRID),
        BoardColors::Teal => (
            Color32::from_rgb(0x1c, 0x6e, 0x78),
            Color32::from_rgb(0x33, 0x3a, 0x48),
            Color32::from_rgb(0x0c, 0x3c, 0x44),
        ),
        BoardColors::Grey => (
            Color32::from_rgb(0x5a, 0x62, 0x5e),
            Color32::from_rgb(0x2e, 0x2e, 0x2e),
            Color32::from_rgb(0x30, 0x34, 0x32),
        ),
    }
}

const BOARD_GREEN: Color32 = Color32::from_rgb(0x1e, 0x7a, 0x46);
const FRAME_BROWN: Color32 = Color32::from_rgb(0x5a, 0x3d, 0x22);
const GRID: Color32 = Color32::from_rgb(0x0e, 0x40, 0x22);
/// The value colours, as the strong programs use them: the best move, moves within two
/// discs of it, and moves that lose more.
pub(crate) const BEST: Color32 = Color32::from_rgb(0xff, 0xd8, 0x40);
pub(crate) const CLOSE: Color32 = Color32::from_rgb(0xa8, 0xf0, 0xff);
/// Salmon: at least 3:1 on every felt (a figure there is large text).
const LOSING: Color32 = Color32::from_rgb(0xff, 0xb4, 0xa0);
/// WCAG's large text: 14 pt bold, 18.67 px (the figures are drawn doubled, as heavy as
/// bold); below it a figure is small text.
const LARGE_TEXT: f32 = 18.67;
/// A value's font size, a share of the square: up to three characters, and longer
/// labels ("~+12", "loss").
const FIGURE: f32 = 0.42;
const LONG_FIGURE: f32 = 0.32;
/// The dark box under the source's tag, and under the figures where they are small.
const TAG_BOX: Color32 = Color32::from_black_alpha(150);

/// How a move's value compares with the best shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueClass {
    Best,
    /// Within two discs of the best (for WLD proofs: the same result).
    Close,
    /// Loses more than two discs against the best (WLD: a worse result).
    Losing,
}

impl ValueClass {
    /// The word the square's accessible value ends with.
    pub fn name(self) -> &'static str {
        match self {
            ValueClass::Best => "best",
            ValueClass::Close => "within 2 discs",
            ValueClass::Losing => "losing more",
        }
    }

    pub(crate) fn color(self) -> Color32 {
        match self {
            ValueClass::Best => BEST,
            ValueClass::Close => CLOSE,
            ValueClass::Losing => LOSING,
        }
    }
}

/// The best value shown, against which every square is classed: the highest value on
/// the board, whatever its source (the gold frame goes where the highest number is, so
/// the marks never contradict the figures). Once a WLD value is shown, values compare by
/// result (win, draw, loss) and the best is the best result.
pub fn best_eval(evals: &HashMap<Square, Eval>) -> Option<Eval> {
    let by_result = evals.values().any(|e| e.source == EvalSource::Wld);
    evals
        .values()
        .max_by_key(|e| {
            let key = if by_result { e.value.signum() } else { e.value };
            // Among equal values, the strongest source stands for them.
            (key, e.source)
        })
        .copied()
}

/// Is `e` a search's value that a proven best bounds: an estimate at the proof's value
/// (where the known values keep it, [`crate::known_values`]) says only that the move is
/// worth at most that, not that it is as good.
pub fn bounded_by_proof(e: Eval, best: Option<Eval>) -> bool {
    best.is_some_and(|b| {
        b.source == EvalSource::Exact
            && !matches!(e.source, EvalSource::Exact | EvalSource::Wld)
            && e.value >= b.value
    })
}

/// A value as the views write it beside the best shown: "≤-16" for a search a proof
/// bounds ([`bounded_by_proof`]), else the value's own label.
pub fn value_label(e: Eval, best: Option<Eval>) -> String {
    if bounded_by_proof(e, best) {
        format!("≤{:+}", e.value)
    } else {
        e.label()
    }
}

/// Compares a value with the best shown ([`best_eval`]): only a value equal to it is
/// the best (a search a proof bounds never is); WLD values (1/0/-1) compare by result,
/// others by discs.
pub fn value_class(e: Eval, best: Option<Eval>) -> ValueClass {
    let Some(best) = best else {
        return ValueClass::Best;
    };
    if bounded_by_proof(e, Some(best)) {
        return ValueClass::Close;
    }
    let wld = e.source == EvalSource::Wld || best.source == EvalSource::Wld;
    let loss = if wld {
        best.value.signum() - e.value.signum()
    } else {
        best.value - e.value
    };
    match loss {
        0 => ValueClass::Best,
        // Above the best shown cannot happen with `best_eval`'s best; a caller's own
        // reference only: not the best, but not worse either.
        ..0 => ValueClass::Close,
        1..=2 if !wld => ValueClass::Close,
        _ => ValueClass::Losing,
    }
}

/// The values shown: of legal moves only, and with `best_only` > 0 only the best that
/// many (by source, then value; ties with the last one kept).
fn shown_values(
    evals: &HashMap<Square, Eval>,
    legal: okapi_core::board::BitBoard,
    best_only: u32,
) -> HashMap<Square, Eval> {
    let mut v: Vec<(Square, Eval)> = evals
        .iter()
        .filter(|(s, _)| legal.contains(**s))
        .map(|(s, e)| (*s, *e))
        .collect();
    if best_only > 0 && v.len() > best_only as usize {
        v.sort_by_key(|(_, e)| std::cmp::Reverse((e.source, e.value)));
        let last = v[best_only as usize - 1].1;
        v.retain(|(_, e)| (e.source, e.value) >= (last.source, last.value));
    }
    v.into_iter().collect()
}

/// A move's value on its square: a large number in its class's colour, the source in a
/// dark tag below, a frame around the best. The number sits on the felt with a dark
/// shadow where its font is large text ([`LARGE_TEXT`]), else on a dark box like the tag's
/// (no colour but white reads at 4.5:1 on the green felt): on a board whose squares make
/// the longer labels small, every number has its box, so that the values look alike.
fn paint_value(painter: &egui::Painter, rect: Rect, e: &Eval, best: Option<Eval>) {
    let class = value_class(*e, best);
    let cell = rect.width();
    let color = class.color();
    if class == ValueClass::Best {
        painter.rect_stroke(
            rect.shrink(2.0),
            3.0,
            Stroke::new(2.5, BEST),
            egui::StrokeKind::Inside,
        );
    }
    let label = value_label(*e, best);
    // WLD words are longer than numbers: a smaller size keeps them inside the square.
    let size = if label.chars().count() > 3 {
        cell * LONG_FIGURE
    } else {
        cell * FIGURE
    };
    // Hack (the monospace font) is a regular weight: the proportional one is a light
    // weight, too thin for figures on a green board.
    let font = FontId::monospace(size.max(12.0));
    let at = Pos2::new(rect.center().x, rect.top() + cell * 0.40);
    if (cell * LONG_FIGURE).max(12.0) < LARGE_TEXT {
        let galley = painter.layout_no_wrap(label.clone(), font.clone(), color);
        // Round both copies of the figure (the second is 0.6 px to the right).
        let plate = Rect::from_center_size(at + Vec2::new(0.3, 0.0), galley.size())
            .expand2(Vec2::new(2.5, 0.0));
        painter.rect_filled(plate, 3.0, TAG_BOX);
    } else {
        for d in [Vec2::new(1.0, 1.0), Vec2::new(1.5, 1.5)] {
            painter.text(
                at + d,
                Align2::CENTER_CENTER,
                &label,
                font.clone(),
                Color32::from_black_alpha(200),
            );
        }
    }
    // Drawn twice a hair apart: a heavier stroke than the default font has.
    painter.text(at, Align2::CENTER_CENTER, &label, font.clone(), color);
    painter.text(
        at + Vec2::new(0.6, 0.0),
        Align2::CENTER_CENTER,
        &label,
        font,
        color,
    );
    let (tag, size) = fit_source_tag(painter, e.source, cell);
    let galley = painter.layout_no_wrap(tag, FontId::monospace(size), Color32::WHITE);
    let tag_rect = Rect::from_center_size(
        Pos2::new(
            rect.center().x,
            rect.bottom() - cell * 0.05 - galley.size().y / 2.0,
        ),
        galley.size() + Vec2::new(3.0, 0.0),
    );
    painter.rect_filled(tag_rect, 3.0, TAG_BOX);
    painter.galley(
        tag_rect.center() - galley.size() / 2.0,
        galley,
        Color32::WHITE,
    );
}

/// A legal move without a value: a translucent disc of the side to move with a light
/// ring, in the middle of the square (star points sit on the grid's corners).
fn paint_legal_mark(painter: &egui::Painter, center: Pos2, cell: f32, side: Color) {
    let (fill, _) = disc_colors(side);
    painter.circle_filled(center, cell * 0.17, fill.gamma_multiply(0.55));
    let ring = match side {
        Color::Black => Color32::from_white_alpha(150),
        Color::White => Color32::from_black_alpha(120),
    };
    painter.circle_stroke(center, cell * 0.17, Stroke::new(1.5, ring));
}

/// A click on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardClick {
    /// On a square that takes clicks (a legal move, or any square in set-up).
    Square(Square),
    /// On a square while the engine is to move: not a move.
    EngineToMove(Square),
}

/// Where the board is drawn: the frame (`outer`), the playing area inside its margin
/// (`inner`), and a square's side.
struct Geometry {
    outer: Rect,
    inner: Rect,
    margin: f32,
    cell: f32,
}

impl Geometry {
    /// Square `sq`'s rectangle (the board turned half a turn when `flipped`).
    fn square(&self, sq: Square, flipped: bool) -> Rect {
        let (dc, dr) = if flipped {
            (7 - sq.col(), 7 - sq.row())
        } else {
            (sq.col(), sq.row())
        };
        Rect::from_min_size(
            Pos2::new(
                self.inner.left() + dc as f32 * self.cell,
                self.inner.top() + dr as f32 * self.cell,
            ),
            Vec2::splat(self.cell),
        )
    }
}

/// One square as the board draws it: where it is, and the value shown on it with the best
/// of the values shown (which the value's class compares it with).
struct Cell {
    sq: Square,
    rect: Rect,
    eval: Option<Eval>,
    best: Option<Eval>,
}

/// Draws the board in the space left in `ui`; returns the click, if any.
pub fn board_ui(ui: &mut egui::Ui, view: &BoardView) -> Option<BoardClick> {
    let avail = ui.available_size();
    let side = avail.x.min(avail.y).max(160.0);
    let (outer, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(outer);
    let margin = side * view.frame;
    let inner = outer.shrink(margin);
    let at = Geometry {
        outer,
        inner,
        margin,
        cell: inner.width() / 8.0,
    };
    let (felt, frame, grid) = board_colors(view.colors);
    painter.rect_filled(outer, 6.0, frame);
    painter.rect_filled(inner, 0.0, felt);
    if view.coordinates {
        paint_coordinates(&painter, &at, view.flipped);
    }
    paint_grid(&painter, &at, grid);

    let legal = view.position.legal_moves();
    let shown = shown_values(view.evals, legal, view.best_only);
    let best = best_eval(&shown);
    let mut clicked = None;
    for sq in Square::all() {
        let square = Cell {
            sq,
            rect: at.square(sq, view.flipped),
            eval: shown.get(&sq).copied(),
            best,
        };
        paint_square(&painter, view, &square);
        if let Some(click) = square_ui(ui, &painter, view, &square) {
            clicked = Some(click);
        }
    }
    clicked
}

/// Coordinates on all four sides of the frame (the frame stays when they are off: the
/// board keeps its size).
fn paint_coordinates(painter: &egui::Painter, at: &Geometry, flipped: bool) {
    let Geometry {
        outer,
        inner,
        margin,
        cell,
    } = *at;
    let coord_font = FontId::proportional((margin * 0.55).clamp(8.0, 20.0));
    let coord_color = Color32::from_rgb(0xf0, 0xe0, 0xc0);
    for i in 0..8 {
        let (col_name, row_name) = if flipped { (7 - i, 7 - i) } else { (i, i) };
        let letter = (b'a' + col_name as u8) as char;
        let digit = (b'1' + row_name as u8) as char;
        let x = inner.left() + cell * (i as f32 + 0.5);
        let y = inner.top() + cell * (i as f32 + 0.5);
        for pos in [
            Pos2::new(x, outer.top() + margin / 2.0),
            Pos2::new(x, outer.bottom() - margin / 2.0),
        ] {
            painter.text(
                pos,
                Align2::CENTER_CENTER,
                letter,
                coord_font.clone(),
                coord_color,
            );
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
}

/// The grid lines, thicker at the edge, and the four star points.
fn paint_grid(painter: &egui::Painter, at: &Geometry, grid: Color32) {
    let (inner, cell) = (at.inner, at.cell);
    for i in 0..=8 {
        let t = i as f32 * cell;
        let w = if i == 0 || i == 8 { 2.0 } else { 1.0 };
        painter.line_segment(
            [
                Pos2::new(inner.left() + t, inner.top()),
                Pos2::new(inner.left() + t, inner.bottom()),
            ],
            Stroke::new(w, grid),
        );
        painter.line_segment(
            [
                Pos2::new(inner.left(), inner.top() + t),
                Pos2::new(inner.right(), inner.top() + t),
            ],
            Stroke::new(w, grid),
        );
    }
    for (c, r) in [(2.0, 2.0), (6.0, 2.0), (2.0, 6.0), (6.0, 6.0)] {
        painter.circle_filled(
            Pos2::new(inner.left() + c * cell, inner.top() + r * cell),
            cell * 0.06,
            grid,
        );
    }
}

/// What square `sq` shows: its disc (turning, when it is being flipped; marked when it is
/// the last move), or on a legal move its value or the legal-move mark.
fn paint_square(painter: &egui::Painter, view: &BoardView, square: &Cell) {
    let (sq, rect) = (square.sq, square.rect);
    let (center, cell) = (rect.center(), rect.width());
    match view.position.at(sq) {
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
        None if view.position.legal_moves().contains(sq) => match square.eval {
            Some(e) => paint_value(painter, rect, &e, square.best),
            None if view.show_legal => {
                paint_legal_mark(painter, center, cell, view.position.side_to_move())
            }
            None => {}
        },
        None => {}
    }
}

/// Square `sq` as a widget: its accessible name and value, the opening a move leads to
/// on hover, the cursor, and its click.
fn square_ui(
    ui: &mut egui::Ui,
    painter: &egui::Painter,
    view: &BoardView,
    square: &Cell,
) -> Option<BoardClick> {
    let &Cell {
        sq,
        rect,
        eval,
        best,
    } = square;
    let disc = view.position.at(sq);
    let is_legal = view.position.legal_moves().contains(sq);
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
            Some(e) => format!(
                "legal move, {} ({}), {}",
                value_label(e, best),
                e.source,
                value_class(e, best).name()
            ),
            None if is_legal => "legal move".to_string(),
            None => "empty".to_string(),
        },
    };
    // Where the move goes among the named openings: on hover, and in the square's
    // accessible value when it makes a named position.
    let leads = (is_legal && !view.setup && !view.hide_answer)
        .then(|| openings::leads_to(&view.position, sq))
        .flatten();
    let value = match &leads {
        Some(LeadsTo::Named(name)) => format!("{value}, leads to: {name}"),
        _ => value,
    };
    response.widget_info(|| {
        let mut info = WidgetInfo::labeled(Role::Button, enabled, sq.to_string());
        info.current_text_value = Some(value.clone());
        info
    });
    // The name stays the square ("d3", what a player says and tests look for); the
    // description says what it holds, as a screen reader reads it after the name.
    let description = format!("{sq}: {value}");
    ui.ctx().accesskit_node_builder(response.id, |node| {
        node.set_description(description);
    });
    let response = match &leads {
        // At most four names: from the start every line passes through each move.
        Some(leads) => response.on_hover_text(leads.text(4)),
        None => response,
    };
    if response.hovered() && view.engine_to_move && !view.setup {
        // The cue that clicks wait: the engine's move comes first.
        ui.ctx().set_cursor_icon(egui::CursorIcon::Progress);
    }
    if response.hovered() && enabled {
        ui.ctx().set_cursor_icon(egui::CursorIcon::PointingHand);
        painter.rect_stroke(
            rect.shrink(1.0),
            2.0,
            Stroke::new(1.5, Color32::from_white_alpha(120)),
            egui::StrokeKind::Inside,
        );
    }
    if !response.clicked() {
        None
    } else if enabled {
        Some(BoardClick::Square(sq))
    } else if view.engine_to_move && !view.setup {
        Some(BoardClick::EngineToMove(sq))
    } else {
        None
    }
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

/// The tag naming where a value comes from, longest first: the search's depth and
/// confidence in full where the square has room, shorter forms on small squares.
fn source_tags(source: EvalSource) -> Vec<String> {
    match source {
        EvalSource::Exact => vec!["exact".into()],
        EvalSource::Wld => vec!["WLD".into()],
        EvalSource::Heuristic { depth } => vec![format!("~{depth}")],
        EvalSource::Midgame { depth, confidence } => vec![
            format!("{depth}@{confidence}%"),
            format!("{depth}@{confidence}"),
            format!("d{depth}"),
        ],
        EvalSource::Book => vec!["book".into()],
    }
}

/// The smallest tag font kept before a shorter form of the tag is taken.
const TAG_LEAST: f32 = 10.0;

/// The tag under a value and its font size: as large as fits the square, 11 to 16 px; a
/// shorter form (`14@95%`, `14@95`, `d14`) rather than a font under [`TAG_LEAST`]; the
/// shortest shrunk (to 8 px at least) only on a square too narrow even for it.
fn fit_source_tag(painter: &egui::Painter, source: EvalSource, cell: f32) -> (String, f32) {
    let room = cell - 4.0;
    let preferred = (cell * 0.22).clamp(11.0, 16.0);
    let forms = source_tags(source);
    let mut fitted = (String::new(), 0.0);
    for tag in forms {
        let width = painter
            .layout_no_wrap(tag.clone(), FontId::monospace(preferred), Color32::WHITE)
            .size()
            .x;
        let size = if width > room {
            (preferred * room / width).max(8.0)
        } else {
            preferred
        };
        fitted = (tag, size);
        if size >= TAG_LEAST {
            break;
        }
    }
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::BoardColors;
    use crate::theme::contrast;

    /// The source's tag stays legible on a small window's squares: a shorter form of it
    /// rather than a font under [`TAG_LEAST`], and the tag always inside its square.
    #[test]
    fn the_source_tag_takes_a_shorter_form_rather_than_a_tiny_font() {
        let ctx = egui::Context::default();
        let sources = [
            EvalSource::Exact,
            EvalSource::Wld,
            EvalSource::Book,
            EvalSource::Heuristic { depth: 24 },
            EvalSource::Midgame {
                depth: 14,
                confidence: 95,
            },
            EvalSource::Midgame {
                depth: 24,
                confidence: 100,
            },
        ];
        let mut shortened = false;
        let _ = ctx.run_ui(Default::default(), |ui| {
            for cell in [36.0, 46.0, 58.0, 72.0, 96.0] {
                for source in sources {
                    let (tag, size) = fit_source_tag(ui.painter(), source, cell);
                    let width = ui
                        .painter()
                        .layout_no_wrap(tag.clone(), FontId::monospace(size), Color32::WHITE)
                        .size()
                        .x;
                    assert!(
                        size >= TAG_LEAST,
                        "{source:?} in a {cell} px square: {tag:?} at {size:.1} px"
                    );
                    assert!(
                        width <= cell - 4.0 + 0.5,
                        "{source:?}: {tag:?} is {width:.1} px wide in a {cell} px square"
                    );
                    shortened |= tag != source_tags(source)[0];
                    if cell >= 72.0 {
                        assert_eq!(tag, source_tags(source)[0], "room for the whole tag");
                    }
                }
            }
        });
        assert!(shortened, "the small squares took a shorter form");
    }

    /// Every text a move's value paints on its square reads on what is behind it: the felt
    /// and whatever box was painted under the text first (a text's translucent shadow is
    /// not its background). The figure is large text where its font reaches
    /// [`LARGE_TEXT`] (3:1, as WCAG asks), small text below it (4.5:1); on each board's
    /// felt, at the squares of a small window to a large one, for the best, a close and a
    /// losing value, with labels of two to four characters.
    #[test]
    fn the_values_read_on_what_is_behind_them() {
        let exact = |value| Eval {
            value,
            source: EvalSource::Exact,
        };
        let searched = |value| Eval {
            value,
            source: EvalSource::Midgame {
                depth: 14,
                confidence: 95,
            },
        };
        let wld = |value| Eval {
            value,
            source: EvalSource::Wld,
        };
        let best = Some(exact(12));
        let values = [
            (exact(12), best, ValueClass::Best),
            (exact(10), best, ValueClass::Close),
            (exact(-4), best, ValueClass::Losing),
            (searched(12), Some(searched(12)), ValueClass::Best),
            (searched(11), Some(searched(12)), ValueClass::Close),
            (searched(-14), Some(searched(12)), ValueClass::Losing),
            (searched(-16), Some(exact(-16)), ValueClass::Close),
            (wld(1), Some(wld(1)), ValueClass::Best),
            (wld(-1), Some(wld(1)), ValueClass::Losing),
        ];
        let (mut small_seen, mut large_seen) = (false, false);
        for felt in BoardColors::ALL.map(|c| board_colors(c).0) {
            for cell in [36.0, 46.0, 58.0, 72.0, 96.0] {
                for (e, best, class) in values {
                    assert_eq!(value_class(e, best), class, "{e:?}");
                    let ctx = egui::Context::default();
                    let rect = Rect::from_min_size(Pos2::new(10.0, 10.0), Vec2::splat(cell));
                    let output = ctx.run_ui(Default::default(), |ui| {
                        paint_value(ui.painter(), rect, &e, best);
                    });
                    let mut behind = Vec::new();
                    let mut texts = 0;
                    for clipped in output.shapes {
                        match clipped.shape {
                            egui::Shape::Rect(r) => behind.push((r.rect, r.fill)),
                            egui::Shape::Text(t) => {
                                let format = &t.galley.job.sections[0].format;
                                if format.color.a() < 255 {
                                    continue; // a shadow
                                }
                                let shown = t.visual_bounding_rect();
                                let bg = behind
                                    .iter()
                                    .filter(|(r, _)| r.contains_rect(shown))
                                    .fold(felt, |bg, (_, fill)| bg.blend(*fill));
                                let size = format.font_id.size;
                                let least = if size >= LARGE_TEXT { 3.0 } else { 4.5 };
                                small_seen |= size < LARGE_TEXT;
                                large_seen |= size >= LARGE_TEXT;
                                let c = contrast(format.color, bg);
                                assert!(
                                    c >= least,
                                    "{:?} ({class:?}) at {size:.1} px in a {cell} px square: \
                                     {:?} on {bg:?} is {c:.2}:1, under {least}",
                                    t.galley.text(),
                                    format.color
                                );
                                texts += 1;
                            }
                            _ => {}
                        }
                    }
                    assert!(texts >= 3, "{e:?}: the figure (twice) and its tag, {texts}");
                }
            }
        }
        assert!(
            small_seen && large_seen,
            "small and large figures were checked"
        );
    }
}
