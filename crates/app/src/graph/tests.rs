use super::frame::labels_with_room;
use super::*;

fn frame() -> Frame {
    Frame {
        rect: Rect::from_min_max(pos2(0.0, 0.0), pos2(600.0, 128.0)),
        len: 60.0,
        range: GRAPH_RANGE,
    }
}

/// The scale is fixed and symmetric: zero in the middle, ±32 at the edges, values
/// beyond held at the edge.
#[test]
fn the_scale_is_fixed_and_symmetric() {
    let f = frame();
    assert_eq!(f.y(0.0), 64.0);
    assert_eq!(f.y(32.0), 0.0);
    assert_eq!(f.y(-32.0), 128.0);
    assert_eq!(f.y(16.0), 32.0);
    assert_eq!(f.y(50.0), f.y(32.0));
    assert_eq!(f.y(-64.0), f.y(-32.0));
    assert_eq!(f.x(30.0), 300.0);
    // The position nearest the pointer, by its moves played (a pass shares its place).
    let xs: Vec<f32> = (0..=40).map(|m| m as f32).collect();
    assert_eq!(f.nearest(303.0, &xs), 30);
    assert_eq!(f.nearest(599.0, &xs), 40);
    assert_eq!(f.nearest(-5.0, &xs), 0);
    let later = [34.0, 35.0, 35.0, 36.0];
    assert_eq!(f.nearest(351.0, &later), 1);
    assert_eq!(f.nearest(0.0, &later), 0);
}

/// The shading changes colour where the line crosses zero, not at a point: a move
/// from +8 to -8 shades Black's colour to the crossing and White's after it.
#[test]
fn the_shading_splits_where_the_line_crosses_zero() {
    let f = frame();
    let mesh = shade(&f, &[(10.0, 8.0), (11.0, -8.0), (12.0, -4.0)]);
    // Two quads for the crossing segment, one for the next.
    assert_eq!(mesh.vertices.len(), 12);
    let colors: Vec<Color32> = mesh.vertices.iter().map(|v| v.color).collect();
    assert!(colors[..4].iter().all(|&c| c == BLACK_AREA));
    assert!(colors[4..].iter().all(|&c| c == WHITE_AREA));
    // The crossing is half way.
    assert_eq!(mesh.vertices[3].pos.x, f.x(10.5));
    assert_eq!(mesh.vertices[3].pos.y, f.y(0.0));
}

/// A value is turned to Black's view by its mover; a solver's value is proven, a
/// search's is not, and a win/draw/loss proof is drawn at a win's least margin.
#[test]
fn points_take_black_view_and_say_what_is_proven() {
    let exact = Eval {
        value: 6,
        source: EvalSource::Exact,
    };
    let p = GraphPoint::new(3, exact, Color::White, None);
    assert_eq!((p.black, p.proven, p.wld), (-6, true, false));
    let searched = Eval {
        value: 3,
        source: EvalSource::Midgame {
            depth: 18,
            confidence: 95,
        },
    };
    let p = GraphPoint::new(4, searched, Color::Black, Some(Severity::Mistake));
    assert_eq!((p.black, p.proven), (3, false));
    let wld = Eval {
        value: -1,
        source: EvalSource::Wld,
    };
    let p = GraphPoint::new(5, wld, Color::Black, None);
    assert!(p.proven && p.wld);
    assert_eq!(p.discs(), -2.0);
}

/// Off-scale figures never cover one another: of two that would, the larger is told
/// ("-22", not "-19" drawn over it); one with room of its own is told too, and the two
/// edges do not compete.
#[test]
fn off_scale_figures_never_overlap() {
    let mark = |x: f32, up: bool, discs: i32| {
        let y = if up { 0.0 } else { 100.0 };
        (
            OffScale {
                x,
                up,
                text: format!("-{discs}"),
                discs,
            },
            Rect::from_min_size(pos2(x + 5.0, y), vec2(14.0, 12.0)),
        )
    };
    let marks = [
        mark(100.0, true, 19),
        mark(108.0, true, 22),
        mark(140.0, true, 17),
        mark(104.0, false, 20),
    ];
    assert_eq!(labels_with_room(&marks), [false, true, true, true]);
    // Apart, both are told.
    assert_eq!(
        labels_with_room(&[mark(100.0, true, 19), mark(130.0, true, 22)]),
        [true, true]
    );
}

/// After an exact solve no point or tooltip shows more than the proof: g6's search
/// (-14 for White) is drawn at the proof (B+16) and its tooltip says "≤-16".
#[test]
fn a_search_above_the_proof_is_drawn_and_told_bounded() {
    let app = crate::move_list::tests::ffo_49_with_g6_searched_above_the_proof();
    let view = app.frame_view();
    let points = graph_points(&view);
    let g6 = points.iter().find(|p| p.ply == 1).unwrap();
    assert_eq!((g6.black, g6.proven), (16, false));
    let mut commands = Vec::new();
    let draw = GraphDraw {
        view: &view,
        commands: &mut commands,
    };
    let text = draw.ply_summary(2).unwrap();
    assert!(
        text.contains("B+16") && text.contains("≤-16 for White"),
        "{text}"
    );
    assert!(!text.contains("14"), "{text}");
}

/// Every label of the axes lies whole inside the graph (its painter clips there), on both
/// themes, in the theme's colour: the last move number, "60" at the plot's right end, was
/// cut to "6".
#[test]
fn the_axis_labels_lie_whole_inside_the_graph() {
    for (visuals, width) in [
        (egui::Visuals::dark(), 400.0),
        (egui::Visuals::light(), 613.0),
    ] {
        let ctx = egui::Context::default();
        let axis = crate::theme::themed(&visuals, crate::theme::AXIS_LABEL);
        let rect = Rect::from_min_size(pos2(10.0, 20.0), vec2(width, 140.0));
        let output = ctx.run_ui(Default::default(), |ui| {
            let painter = ui.painter_at(rect);
            plot_frame(rect, 60.0, GRAPH_RANGE).draw(
                &painter,
                rect.left() + frame::LEFT_MARGIN - 3.0,
                |side, d| format!("{side}+{d:.0}"),
                axis,
            );
        });
        let mut numbers = Vec::new();
        for clipped in output.shapes {
            let egui::Shape::Text(text) = clipped.shape else {
                continue;
            };
            let label = text.galley.text().to_string();
            let shown = text.visual_bounding_rect();
            assert!(
                rect.expand(0.5).contains_rect(shown),
                "{label} at {shown:?}, beyond the graph {rect:?}"
            );
            assert_eq!(text.fallback_color, axis, "{label}");
            numbers.push(label);
        }
        for m in ["10", "30", "60", "B+32", "W+32", "0"] {
            assert!(numbers.iter().any(|n| n == m), "{m} in {numbers:?}");
        }
    }
}

/// The legend's text and the off-scale figures read on the felt and on their box.
#[test]
fn the_texts_on_the_felt_read() {
    use crate::theme::contrast;
    assert!(contrast(LABEL, FELT) >= 4.5, "{}", contrast(LABEL, FELT));
    let on_box = contrast(ZERO, frame::OFF_SCALE_BOX);
    assert!(on_box >= 4.5, "{on_box}");
    // The board's values, as large figures (3:1) on each board's felt: the best, a close
    // and a losing one (`board_view`'s test checks the small ones on their box).
    use crate::board_view::{ValueClass, board_colors};
    for colors in crate::settings::BoardColors::ALL {
        let felt = board_colors(colors).0;
        for class in [ValueClass::Best, ValueClass::Close, ValueClass::Losing] {
            let c = contrast(class.color(), felt);
            assert!(c >= 3.0, "{class:?} on {colors:?}'s felt {felt:?}: {c:.2}");
        }
    }
}
