//! The game record's tests: moves, variations, values and their invariants.

use super::*;
use crate::game::EvalSource;
use proptest::prelude::*;

fn mv(s: &str) -> Move {
    Move::parse(s).unwrap()
}

fn line(game: &Game) -> String {
    transcript_of(&game.moves())
}

#[test]
fn numbered_lines_count_discs_and_skip_passes() {
    let start = Position::start();
    assert_eq!(numbered_line(&start, &[mv("f5"), mv("d6")]), "1. f5 2. d6");
    let later = Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap();
    assert_eq!(
        numbered_line(&later, &[Move::Pass, mv("c1")]),
        "pass 1. c1",
        "two discs on the board: the first move is numbered as from the start"
    );
    let mut g = Game::default();
    for m in ["f5", "d6", "c3"] {
        g.play(mv(m), None).unwrap();
    }
    assert_eq!(numbered_line(&g.position(), &[mv("d3")]), "4. d3");
}

#[test]
fn undo_redo_and_variations() {
    let mut g = Game::default();
    g.play(mv("f5"), None).unwrap();
    g.play(mv("d6"), None).unwrap();
    assert_eq!(g.ply(), 2);
    assert_eq!(g.last_move(), Some(Square::parse("d6").unwrap()));
    assert!(g.undo());
    assert_eq!(g.position().black_count(), 4);
    assert!(g.can_redo());
    // the recorded move is followed
    g.play(mv("d6"), None).unwrap();
    assert_eq!(g.len(), 2);
    assert_eq!(g.tree_size(), 2);
    g.undo();
    // another move starts a variation and keeps the main line
    g.play(mv("f6"), None).unwrap();
    assert_eq!(line(&g), "f5f6");
    assert_eq!(g.main_line(), vec![mv("f5"), mv("d6")]);
    assert_eq!(g.alternatives(1), vec![mv("d6"), mv("f6")]);
    assert!(!g.on_main_line());
    assert!(g.is_main_at(0) && !g.is_main_at(1));
    assert!(!g.redo());
    assert!(g.play(mv("a1"), None).is_err());
    // back on the main line; redo follows the chosen variation
    assert!(g.choose(1, mv("d6")));
    assert_eq!(line(&g), "f5d6");
    g.go_to(1);
    assert!(g.choose(1, mv("f6")));
    g.go_to(1);
    assert!(g.redo());
    assert_eq!(g.last_move(), Some(Square::parse("f6").unwrap()));
    g.go_to(0);
    assert_eq!(g.position(), Position::start());
    assert_eq!(g.move_number(), 1);
    assert_eq!(line(&g), "f5f6", "the line keeps the variation chosen");
    // A game from a later position counts on from it.
    g.go_to(2);
    let later = Game::new(g.position());
    assert_eq!(later.move_number(), 3);
}

/// Moves are numbered as players count them, 1 to 60: a pass takes no number, and a
/// game from a later position numbers its first move from there.
#[test]
fn moves_are_numbered_by_discs_passes_taking_none() {
    let g = Game::from_moves(Position::start(), &[mv("f5"), mv("d6")]).unwrap();
    assert_eq!([g.move_number_at(0), g.move_number_at(1)], [1, 2]);
    // A game from a set-up position with 38 discs: its first move is move 35.
    let p = (0..100usize)
        .find_map(|seed| {
            let mut p = Position::start();
            for n in 0..34 {
                let legal: Vec<Square> = p.legal_moves().iter().collect();
                if legal.is_empty() {
                    return None;
                }
                p.play(legal[(seed * 7 + n * 3) % legal.len()]).unwrap();
            }
            Some(p)
        })
        .expect("34 moves without a pass");
    assert_eq!(p.black_count() + p.white_count(), 38);
    let later = Game::from_moves(p, &[]).unwrap();
    assert_eq!([later.move_number_at(0), later.move_number()], [35, 35]);
    // A pass and the move after it share a number.
    let two = Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap();
    let g = Game::from_moves(two, &[Move::Pass, mv("c1")]).unwrap();
    assert_eq!([g.move_number_at(0), g.move_number_at(1)], [1, 1]);
}

#[test]
fn a_new_move_becomes_the_main_line_or_a_variation_as_asked() {
    let mut g = Game::default();
    for m in ["f5", "d6", "c3"] {
        g.play(mv(m), None).unwrap();
    }
    g.go_to(1);
    g.play_as(mv("f6"), None, NewMove::MainLine).unwrap();
    assert_eq!(
        transcript_of(&g.main_line()),
        "f5f6",
        "the game played is the game"
    );
    assert_eq!(
        g.alternatives(1),
        vec![mv("f6"), mv("d6")],
        "the old line kept"
    );
    assert!(g.on_main_line());
    g.go_to(1);
    g.play_as(mv("f4"), None, NewMove::Variation).unwrap();
    assert_eq!(g.alternatives(1), vec![mv("f6"), mv("d6"), mv("f4")]);
    assert_eq!(transcript_of(&g.main_line()), "f5f6");
    // A recorded move is followed and keeps its place.
    g.go_to(1);
    g.play_as(mv("d6"), None, NewMove::MainLine).unwrap();
    assert_eq!(g.alternatives(1), vec![mv("f6"), mv("d6"), mv("f4")]);
    assert_eq!(line(&g), "f5d6c3");
    // One-line copies: the current line as the main line, or alone.
    let as_main = g.with_current_line_as_main();
    assert_eq!(transcript_of(&as_main.main_line()), "f5d6c3");
    assert_eq!(as_main.tree_size(), g.tree_size());
    let alone = g.current_line_only();
    assert_eq!(alone.tree_size(), 3);
    assert_eq!(alone.ply(), g.ply());
    assert!(!alone.same_record(&g));
    assert!(g.same_record(&g.clone()));
    // The order of the lines is part of the record; the cursor is not.
    let mut moved = g.clone();
    moved.go_to(0);
    assert!(moved.same_record(&g));
    assert!(!as_main.same_record(&g));
}

#[test]
fn promote_and_delete() {
    let mut g = Game::default();
    for m in ["f5", "d6", "c3"] {
        g.play(mv(m), None).unwrap();
    }
    g.go_to(1);
    g.play(mv("f6"), None).unwrap();
    g.play(mv("e6"), None).unwrap();
    g.promote_line();
    assert!(g.on_main_line());
    assert_eq!(transcript_of(&g.main_line()), "f5f6e6");
    assert_eq!(g.alternatives(1), vec![mv("f6"), mv("d6")]);
    // delete the variation (now second): the line was on the main line, so choose it
    assert!(g.choose(1, mv("d6")));
    assert_eq!(g.ply(), 2);
    assert!(g.delete_variation(1));
    assert_eq!(g.ply(), 1, "the cursor leaves the deleted part");
    assert_eq!(line(&g), "f5f6e6");
    assert_eq!(g.tree_size(), 3);
    assert_eq!(g.alternatives(1), vec![mv("f6")]);
    // deleting the main continuation at ply 2 leaves the game at two plies
    assert!(g.delete_variation(2));
    assert_eq!(line(&g), "f5f6");
    assert!(!g.delete_variation(5));
}

#[test]
fn evals_kept_by_strength() {
    let mut g = Game::default();
    let exact = Eval {
        value: 2,
        source: EvalSource::Exact,
    };
    g.play(mv("f5"), Some(exact)).unwrap();
    g.set_eval(
        0,
        Eval {
            value: 1,
            source: EvalSource::Wld,
        },
    );
    assert_eq!(g.eval_at(0), Some(exact));
    g.undo();
    g.play(
        mv("f5"),
        Some(Eval {
            value: 0,
            source: EvalSource::Heuristic { depth: 3 },
        }),
    )
    .unwrap();
    assert_eq!(g.eval_at(0), Some(exact));
}

#[test]
fn forced_pass_and_result() {
    // Black (b1) has no move; White (a1) plays c1 and wipes Black out.
    let start = Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap();
    let mut g = Game::new(start);
    assert!(g.pass_if_needed());
    g.play(mv("c1"), None).unwrap();
    assert_eq!(g.moves(), vec![Move::Pass, mv("c1")]);
    assert_eq!(g.result(), Some((0, 64)));
    assert_eq!(g.transcript(), "c1");
}

proptest! {
    /// Random walks of play / undo / redo / go-to / choose / promote / delete keep the
    /// record consistent: each position on the current line follows from the one
    /// before by the recorded move, and the cursor is on the line.
    #[test]
    fn random_edits_keep_the_tree_consistent(ops in proptest::collection::vec((0u8..8, 0u8..64), 0..120)) {
        let mut g = Game::default();
        for (op, arg) in ops {
            match op {
                0..=2 => {
                    let legal: Vec<_> = g.position().legal_moves().iter().collect();
                    if legal.is_empty() {
                        g.pass_if_needed();
                    } else {
                        let sq = legal[arg as usize % legal.len()];
                        g.play(Move::Play(sq), None).unwrap();
                    }
                }
                3 => { g.undo(); }
                4 => { g.redo(); }
                5 => g.go_to(arg as usize % (g.len() + 1)),
                6 => {
                    if !g.is_empty() {
                        let i = arg as usize % g.len();
                        let alts = g.alternatives(i);
                        let pick = alts[arg as usize % alts.len()];
                        prop_assert!(g.choose(i, pick));
                    }
                }
                _ => {
                    if arg % 2 == 0 { g.promote_line(); }
                    else if !g.is_empty() { g.delete_variation(arg as usize % g.len()); }
                }
            }
            let moves = g.moves();
            prop_assert!(g.ply() <= g.len());
            prop_assert_eq!(g.position(), g.position_at(g.ply()));
            let mut p = g.start();
            for (i, m) in moves.iter().enumerate() {
                prop_assert_eq!(p, g.position_at(i));
                p.play_move(*m).unwrap();
            }
            prop_assert_eq!(p, g.position_at(g.len()));
        }
    }
}

#[test]
fn the_occasion_says_the_year_once() {
    // WTHOR's tournament names end with their year; the game's date is that year.
    assert_eq!(
        occasion("World Championship - 2025", "2025"),
        "World Championship 2025"
    );
    assert_eq!(
        occasion("World Championship", "2025"),
        "World Championship 2025"
    );
    assert_eq!(occasion("Open de Paris 2019", "2019"), "Open de Paris 2019");
    // A year in the name that is not the game's stays, apart from the date.
    assert_eq!(
        occasion("EGP Paris - 2019", "2020"),
        "EGP Paris - 2019, 2020"
    );
    assert_eq!(occasion("Dutch Open 92", "1992"), "Dutch Open 92, 1992");
    // A number ending in the year is not the year.
    assert_eq!(occasion("Cup 12025", "2025"), "Cup 12025, 2025");
    // A full date, GGF's time of day left out; either part alone; neither.
    assert_eq!(
        occasion("GGS/os", "2003.04.05_12:00:00.GMT"),
        "GGS/os, 2003.04.05"
    );
    assert_eq!(
        occasion("Club final", "2026-11-27"),
        "Club final, 2026-11-27"
    );
    assert_eq!(occasion("", "2014-02-21 20:52:27 GMT"), "2014-02-21");
    assert_eq!(occasion("2025", "2025"), "2025");
    assert_eq!(occasion("NBoard", ""), "NBoard");
    assert_eq!(occasion(" ", " "), "");
}

#[test]
fn moves_not_in_another_record_are_counted_line_by_line() {
    let mut g = Game::default();
    for m in ["f5", "d6", "c3", "d3"] {
        g.play(mv(m), None).unwrap();
    }
    g.go_to(1);
    for m in ["f6", "e6", "f4"] {
        g.play(mv(m), None).unwrap();
    }
    g.go_to(2);
    g.play(mv("d3"), None).unwrap(); // f5 f6 d3: a variation of the variation
    assert_eq!(g.tree_size(), 8);
    // A one-line save of the line on screen keeps it alone.
    let saved = g.current_line_only();
    assert_eq!(g.moves_not_in(&saved), 8 - 3);
    assert_eq!(saved.moves_not_in(&g), 0);
    assert_eq!(g.moves_not_in(&g.clone()), 0);
    // The main line kept: the two variations' four moves are not.
    g.go_to(0);
    g.choose(1, mv("d6"));
    assert_eq!(g.moves_not_in(&g.current_line_only()), 4);
    // Another start: nothing is shared.
    let other = Game::new(Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap());
    assert_eq!(g.moves_not_in(&other), 8);
    assert_eq!(g.moves_not_in(&Game::default()), 8);
}
