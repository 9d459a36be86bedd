use super::*;
use crate::ScriptedDialogs;
use crate::app::App;
use okapi_core::board::{Position, Square};
use okapi_core::game::{Eval, Game, Seat, Session};
use okapi_core::search::SolveMode;

fn searched(value: i32) -> Eval {
    Eval {
        value,
        source: EvalSource::Midgame {
            depth: 12,
            confidence: 95,
        },
    }
}

/// The game analysis' estimates give way to a proof found afterwards: the move played
/// and the best move take the proven values, and the loss follows.
#[test]
fn a_proof_found_after_the_analysis_replaces_its_estimates() {
    let mut app = App::new(Box::new(ScriptedDialogs::default()), || {});
    // FFO #49: e1 wins by 16.
    let start =
        Position::parse("--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X")
            .unwrap();
    let (e1, b1) = (Square::parse("e1").unwrap(), Square::parse("b1").unwrap());
    let mut game = Game::new(start);
    game.play(Move::Play(e1), None).unwrap();
    app.session = Session::new(game, [Seat::Human; 2]);
    // The analysis (12 plies deep) thought b1 better by two discs.
    app.game_analysis.insert(
        0,
        PlyAnalysis {
            key: (start, Move::Play(e1)),
            played: searched(13),
            best: searched(15),
            best_move: b1,
        },
    );
    assert_eq!(app.analysis_of(0).unwrap().loss(), 2);
    // The solve proves e1 +16.
    app.known
        .offer_proven_line(start, SolveMode::Exact, 16, &[Move::Play(e1)]);
    let a = app.analysis_of(0).unwrap();
    let proven = Eval {
        value: 16,
        source: EvalSource::Exact,
    };
    assert_eq!(
        (a.played, a.best, a.best_move, a.loss()),
        (proven, proven, e1, 0)
    );
    // A shallower estimate offered later changes nothing.
    app.known.offer(start, e1, searched(20));
    assert_eq!(app.analysis_of(0).unwrap().played, proven);
    // The graph's point for the move is proven; an estimate's is not.
    app.record_known_values();
    let points = crate::graph::graph_points(&app.frame_view());
    assert_eq!(points.len(), 1);
    assert_eq!(
        (points[0].ply, points[0].black, points[0].proven),
        (0, 16, true)
    );
}

/// "h3 ~+35 ~-1 h3": after a deeper search the move played and the best move, one
/// and the same, had two values and the row said it lost against itself.
#[test]
fn a_move_never_loses_against_itself() {
    let mut app = App::new(Box::new(ScriptedDialogs::default()), || {});
    let start = Position::start();
    let f5 = Square::parse("f5").unwrap();
    let mut game = Game::new(start);
    game.play(Move::Play(f5), None).unwrap();
    app.session = Session::new(game, [Seat::Human; 2]);
    let deeper = Eval {
        value: 2,
        source: EvalSource::Midgame {
            depth: 20,
            confidence: 95,
        },
    };
    // Two values of one move in the analysis itself: one stands, no loss.
    app.game_analysis.insert(
        0,
        PlyAnalysis {
            key: (start, Move::Play(f5)),
            played: searched(-1),
            best: searched(35),
            best_move: f5,
        },
    );
    let a = app.analysis_of(0).unwrap();
    assert_eq!((a.played, a.loss()), (a.best, 0));
    // A deeper search of it since: that value, on both sides.
    app.known.offer(start, f5, deeper);
    let a = app.analysis_of(0).unwrap();
    assert_eq!((a.played, a.best, a.loss()), (deeper, deeper, 0));
    // With the best move another one, a deeper value of it is taken as well.
    let d3 = Square::parse("d3").unwrap();
    app.game_analysis.insert(
        0,
        PlyAnalysis {
            key: (start, Move::Play(f5)),
            played: searched(0),
            best: searched(5),
            best_move: d3,
        },
    );
    app.known.offer(start, d3, Eval { value: 3, ..deeper });
    let a = app.analysis_of(0).unwrap();
    assert_eq!((a.best_move, a.best.value, a.loss()), (d3, 3, 1));
}

/// FFO #49 solved (e1 +16, then h4 proves White's reply worth -16), e1 and g6 played,
/// g6 in the record as a search's -14: above the proof.
pub(crate) fn ffo_49_with_g6_searched_above_the_proof() -> App {
    let mut app = App::new(Box::new(ScriptedDialogs::default()), || {});
    let start =
        Position::parse("--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X")
            .unwrap();
    let [e1, h4, g6] = ["e1", "h4", "g6"].map(|s| Square::parse(s).unwrap());
    let mut game = Game::new(start);
    game.play(Move::Play(e1), None).unwrap();
    game.play(Move::Play(g6), None).unwrap();
    game.set_eval(1, searched(-14));
    app.session = Session::new(game, [Seat::Human; 2]);
    app.known.offer_proven_line(
        start,
        SolveMode::Exact,
        16,
        &[Move::Play(e1), Move::Play(h4)],
    );
    assert_eq!(app.known.ceiling(&app.game().position_at(1)), Some(-16));
    app
}

/// After an exact solve no row shows more than the proof: g6's search above it reads
/// "≤-16", as on the board.
#[test]
fn a_row_shows_a_search_above_the_proof_bounded() {
    use egui_kittest::kittest::Queryable;
    let app = ffo_49_with_g6_searched_above_the_proof();
    let view = app.frame_view();
    assert_eq!(
        view.move_value(1),
        Some((searched(-16), "≤-16".to_string()))
    );
    let mut list = MoveList::default();
    let mut commands = Vec::new();
    let harness = egui_kittest::Harness::new_ui(|ui| list.show(ui, &view, &mut commands));
    assert!(
        harness.query_by_label_contains("g6 (≤-16)").is_some(),
        "the row of g6 says it is bounded"
    );
    assert!(harness.query_by_label_contains("-14").is_none());
}

/// FFO #49 solved, e1 played: a search of White's reply g6 above the proof goes into the
/// record at the proof (the record is what is saved, the graph and the move list read
/// it), whether it arrives after the proof or was in the record before it.
#[test]
fn the_record_keeps_a_search_bounded_by_the_proof() {
    let mut app = ffo_49_with_g6_searched_above_the_proof();
    let g6 = Square::parse("g6").unwrap();
    let after_e1 = app.game().position_at(1);
    // The record's -14, from before the proof, is brought down.
    app.record_known_values();
    assert_eq!(app.game().eval_at(1), Some(searched(-16)));
    // A deeper search of g6 offered now, with the board before g6.
    app.session.go_to(1);
    let deeper = Eval {
        value: -13,
        source: EvalSource::Midgame {
            depth: 16,
            confidence: 95,
        },
    };
    app.learn_value(after_e1, g6, deeper);
    assert_eq!(
        app.game().eval_at(1),
        Some(Eval {
            value: -16,
            ..deeper
        })
    );
    assert!(
        (0..app.game().len()).all(|i| app.game().eval_at(i).is_none_or(|e| {
            let mover_bound = if i == 0 { 16 } else { -16 };
            e.value <= mover_bound
        }))
    );
}

/// After the solve, the analysis' summary counts no loss between two searches above the
/// proof: its "Worst" line read "g6 -12 against a3 -10", a loss of two discs that the
/// proof (nothing better than -16) says is none.
#[test]
fn the_summary_reads_the_values_bounded_by_the_proof() {
    use egui_kittest::kittest::Queryable;
    let mut app = ffo_49_with_g6_searched_above_the_proof();
    let position = app.game().position_at(1);
    let [g6, a3] = ["g6", "a3"].map(|s| Square::parse(s).unwrap());
    app.game_analysis.insert(
        1,
        PlyAnalysis {
            key: (position, Move::Play(g6)),
            played: searched(-12),
            best: searched(-10),
            best_move: a3,
        },
    );
    // Unbounded, it was a loss of two discs.
    assert_eq!(app.analysis_of(1).unwrap().loss(), 2);
    let view = app.frame_view();
    let mut list = MoveList::default();
    let mut commands = Vec::new();
    let harness = egui_kittest::Harness::new_ui(|ui| list.show(ui, &view, &mut commands));
    assert!(
        harness.query_by_label_contains("Game analysis").is_some(),
        "the summary shows"
    );
    assert!(
        harness.query_by_label_contains("Worst:").is_none(),
        "no move lost a disc against the proof"
    );
    assert!(harness.query_by_label("White: no disc lost").is_some());
    // Only White's move was analysed: Black's losses are unknown, not none.
    assert!(harness.query_by_label("Black: not analysed").is_some());
    assert!(harness.query_by_label_contains("-10").is_none());
}
