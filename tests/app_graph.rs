//! The evaluation graph and the loss chart under egui_kittest: their height at the sizes
//! players use, what they mark (proven values, mistakes) and a click going to the move.

mod common;

use common::app::{harness_sized, step_until};
use eframe::egui;
use egui_kittest::kittest::{NodeT, Queryable};
use okapi_app::Command;
use okapi_core::board::{Move, Position};
use okapi_core::game::Game;

/// FFO #1 with a blunder (b1, −22 against g8) and a reply, as Okapi JSON: the analysis
/// solves both moves exactly at once.
fn ffo1_with_a_blunder() -> String {
    let text = include_str!("data/ffo1-39.scr");
    let line = text.lines().find(|l| l.contains("ffo#01")).unwrap();
    let mut game = Game::new(Position::parse(line).unwrap());
    game.play(Move::parse("b1").unwrap(), None).unwrap();
    let reply = game.position().legal_moves().iter().next().unwrap();
    game.play(Move::Play(reply), None).unwrap();
    okapi_core::formats::okapi_json::write(&game)
}

/// At 1280x900 the graph is at least 120 points tall, at 800x600 at least 80; after the
/// analysis it says how many of its values are proven and marks the blunder, the loss
/// chart beside it shows the moves that lost discs, and a click on the graph goes to the
/// move under the pointer.
#[test]
fn the_graph_is_tall_enough_marks_proof_and_mistakes_and_goes_to_a_click() {
    for (w, hgt, least) in [(1280.0, 900.0, 120.0), (800.0, 600.0, 80.0)] {
        let mut h = harness_sized(w, hgt);
        h.state_mut().apply(Command::Paste(ffo1_with_a_blunder()));
        h.run_steps(3);
        let graph = h.get_by_label_contains("evaluation graph from Black's view, ±32 discs");
        // The plot area: the widget less its labels' margins (6 above, 13 below).
        let plot = graph.rect().height() - 19.0;
        assert!(plot >= least, "{w}x{hgt}: the graph is {plot} tall");
        h.state_mut().apply(Command::AnalyseGame);
        step_until(&mut h, "the game analysis", |app| !app.engine_busy());
        h.run_steps(3);
        let label = h
            .get_by_label_contains("evaluation graph from Black's view")
            .accesskit_node()
            .label()
            .unwrap_or_default();
        assert!(
            label.ends_with(": 2 values, 2 proven, mistakes marked: 1"),
            "{w}x{hgt}: {label}"
        );
        assert!(
            h.query_by_label_contains("loss chart, ±16 discs, moves that lost discs: 1")
                .is_some()
        );
        // The axis counts moves as players do, 0 to 60: FFO #1's 14 empties sit at its
        // right, moves 46 to 48. A click at move 48 goes to the game's last position;
        // one in the middle (move 30) to the nearest it has, its first.
        let rect = h
            .get_by_label_contains("evaluation graph from Black's view")
            .rect();
        // The plot: the widget less its margins (34 left for the labels, 4 right).
        let at_move = |m: f32| {
            let (left, right) = (rect.left() + 34.0, rect.right() - 4.0);
            egui::pos2(left + (right - left) * m / 60.0, rect.center().y)
        };
        for (m, ply) in [(48.0, 2), (30.0, 0), (47.0, 1)] {
            h.state_mut()
                .apply(Command::GoTo(if ply == 0 { 2 } else { 0 }));
            h.run_steps(2);
            let pos = at_move(m);
            h.event(egui::Event::PointerMoved(pos));
            for pressed in [true, false] {
                h.event(egui::Event::PointerButton {
                    pos,
                    button: egui::PointerButton::Primary,
                    pressed,
                    modifiers: egui::Modifiers::NONE,
                });
                h.run_steps(1);
            }
            h.run_steps(2);
            assert_eq!(
                h.state().game().ply(),
                ply,
                "{w}x{hgt}: the click at move {m} went to the move"
            );
        }
    }
}
