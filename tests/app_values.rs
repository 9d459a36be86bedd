//! Where the values of moves show, and which: a solve's proof reaches every view and is
//! never downgraded; in a game against the engine the person's own values are hidden
//! unless they ask.
#![cfg(feature = "gui")]

mod common;

use common::app::{Steps, harness, has_label, new_game, step_until, temp_dir, unfold};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use okapi_app::settings::Setting;
use okapi_app::{App, Command};
use okapi_core::board::{Position, Square};
use okapi_core::game::{Eval, EvalSource, Seat};
use okapi_core::level::Level;

/// FFO #49 (26 empties, Black to move): e1 wins by 16, proven.
const FFO_49: &str = "--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X";

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

const E1_PROVEN: Eval = Eval {
    value: 16,
    source: EvalSource::Exact,
};

/// What the square e1 says (its accessible value).
fn e1(h: &Harness<'static, App>) -> String {
    h.get_by_label("e1").value().unwrap_or_default()
}

/// Every view of the position shows e1 as proven +16: the square, the values list, the
/// known values every other view reads.
fn every_view_says_e1_is_plus_16(h: &Harness<'static, App>, when: &str) {
    let here = h.state().game().position();
    assert_eq!(
        h.state().move_evals().get(&sq("e1")),
        Some(&E1_PROVEN),
        "{when}"
    );
    assert_eq!(
        h.state().known_value(&here, sq("e1")),
        Some(E1_PROVEN),
        "{when}"
    );
    assert!(
        e1(h).starts_with("legal move, +16 (exact)"),
        "{when}: the square says {}",
        e1(h)
    );
    assert!(has_label(h, "e1: +16 (exact)"), "{when}: the values list");
}

#[test]
fn ffo_49_solved_shows_its_proof_everywhere_and_keeps_it() {
    let mut h = harness();
    // The values list, folded under the moves until opened.
    unfold(&mut h, "Move values");
    // FFO #49 pasted, as a player would; the live analysis values the moves first (above
    // the solver's reach: estimates).
    h.event(eframe::egui::Event::Paste(FFO_49.into()));
    h.run_steps(2);
    let start = Position::parse(FFO_49).unwrap();
    assert_eq!(h.state().game().position(), start);
    step_until(&mut h, "a searched value on e1", |app| {
        app.move_evals()
            .get(&sq("e1"))
            .is_some_and(|e| matches!(e.source, EvalSource::Midgame { depth, .. } if depth >= 8))
    });
    assert!(e1(&h).contains('@'), "an estimate first: {}", e1(&h));

    h.click_label("Solve exact");
    if has_label(&h, "Solve anyway") {
        h.click_label("Solve anyway");
    }
    step_until(&mut h, "the solve", |app| {
        !app.engine_busy() && app.move_evals().get(&sq("e1")) == Some(&E1_PROVEN)
    });
    assert!(has_label(&h, "Solved (exact): Black wins by 16"));
    every_view_says_e1_is_plus_16(&h, "after the solve");

    // The database's Engine column reads the same values (FFO #49 is no database
    // position: the column's rows come only with its games, so the check is that the
    // tab shows and the values stay).
    h.click_label("Database");
    h.run_steps(3);
    h.click_label("Play");
    h.run_steps(2);
    every_view_says_e1_is_plus_16(&h, "after the Database tab");

    // The live analysis of the position again (as after a change of setting): it
    // starts from depth 1 and may not downgrade the proof.
    h.state_mut().apply(Command::AnalyseAgain);
    h.run_steps(1);
    step_until(&mut h, "the analysis again, a few depths", |app| {
        app.move_evals()
            .values()
            .any(|e| matches!(e.source, EvalSource::Midgame { depth, .. } if depth >= 6))
    });
    every_view_says_e1_is_plus_16(&h, "after a shallower search of the same position");

    // e1 played: the move list and the record (the graph's data) carry the proof.
    h.click_label("e1");
    h.run_steps(2);
    assert_eq!(h.state().game().eval_at(0), Some(E1_PROVEN));
    // Numbered as players number it: the set-up position's own move number.
    let e1_row = format!("{}. e1 (+16)", h.state().game().move_number_at(0));
    assert!(
        h.query_by_label_contains(&e1_row).is_some(),
        "the move list marks it as proven (no ~): {e1_row}"
    );

    // White to move after e1: the solve proved the position -16 for White. No move's
    // value may beat the proof (g6 showed -14, a search, in the gold "best" frame): a
    // searched value above it reads "≤-16", and the frame is only on proven best moves.
    let after_e1 = h.state().game().position();
    step_until(&mut h, "searched values of White's moves", |app| {
        app.move_evals()
            .values()
            .filter(|e| matches!(e.source, EvalSource::Midgame { depth, .. } if depth >= 6))
            .count()
            >= 2
    });
    let values: Vec<(Square, Eval)> = h
        .state()
        .move_evals()
        .iter()
        .map(|(s, e)| (*s, *e))
        .collect();
    assert!(
        values.iter().all(|(_, e)| e.value <= -16),
        "a value above the proof: {values:?}"
    );
    for sq in after_e1.legal_moves().iter() {
        let said = h.get_by_label(&sq.to_string()).value().unwrap_or_default();
        if said.ends_with(", best") {
            assert!(said.contains("(exact)"), "{sq}: {said}");
        }
        if let Some(e) = h.state().move_evals().get(&sq)
            && e.source != EvalSource::Exact
            && e.value == -16
        {
            assert!(said.contains("≤-16"), "{sq}: {said}");
        }
    }

    // A step away and back: the proof is still there at once.
    h.state_mut().apply(Command::GoTo(0));
    h.run_steps(2);
    every_view_says_e1_is_plus_16(&h, "after a step back");
    h.state_mut().apply(Command::StepForward);
    h.run_steps(2);
    h.state_mut().apply(Command::StepBack);
    h.run_steps(2);
    every_view_says_e1_is_plus_16(&h, "after a step away and back");

    // A re-analysis of the game (12 plies deep at 26 empties: estimates) keeps the proof
    // in the record and the analysis: e1 lost nothing.
    h.state_mut().apply(Command::AnalyseGame);
    h.run_steps(1);
    step_until(&mut h, "the game analysis", |app| !app.engine_busy());
    assert_eq!(h.state().game().eval_at(0), Some(E1_PROVEN));
    assert!(
        has_label(&h, "Black: no disc lost"),
        "the game analysis reads the proof"
    );
    assert!(h.query_by_label_contains(&e1_row).is_some(), "{e1_row}");
    assert!(
        h.query_by_label_contains(&format!("{e1_row} ?")).is_none(),
        "no loss marked on the best move"
    );
    every_view_says_e1_is_plus_16(&h, "after the game analysis");

    // What is saved keeps the proof too.
    let tmp = temp_dir("proof");
    let path = tmp.path().join("ffo49.json");
    h.state_mut().apply(Command::SaveTo(path.clone()));
    let saved = okapi_core::formats::load_game(&path).unwrap();
    assert_eq!(saved.eval_at(0), Some(E1_PROVEN));
}

#[test]
fn a_script_position_solved_keeps_its_proof_on_the_board() {
    // FFO #1 (14 empties): g8 +18. With the solve limit at 4 the live analysis of the
    // board only estimates; the script's proof must win over its estimates.
    let tmp = temp_dir("script-proof");
    let script = tmp.path().join("one.scr");
    let ffo1 = include_str!("data/ffo1-39.scr")
        .lines()
        .find(|l| l.contains("ffo#01"))
        .unwrap();
    std::fs::write(&script, format!("{ffo1}\n")).unwrap();
    let mut h = harness();
    h.state_mut().apply(Command::Set(Setting::SolveFrom(4)));
    h.state_mut().apply(Command::OpenScriptPath(script));
    h.run_steps(2);
    h.get_by_label("Solve").click();
    h.run_steps(1);
    step_until(&mut h, "the script's solve", |app| {
        let job = app.script.as_ref().unwrap();
        !job.is_running() && job.solved() == 1
    });
    h.state_mut().apply(Command::ShowScriptPosition(0));
    h.run_steps(2);
    let proven = Eval {
        value: 18,
        source: EvalSource::Exact,
    };
    assert_eq!(h.state().move_evals().get(&sq("g8")), Some(&proven));
    // The live analysis deepens over the other moves; g8 keeps its proof.
    step_until(&mut h, "estimates on the other moves", |app| {
        app.move_evals()
            .values()
            .any(|e| matches!(e.source, EvalSource::Midgame { depth, .. } if depth >= 4))
    });
    assert_eq!(h.state().move_evals().get(&sq("g8")), Some(&proven));
    // (The script's line names g8 too: the board's square is the one with a value.)
    let g8: Vec<String> = h.get_all_by_label("g8").filter_map(|n| n.value()).collect();
    assert!(
        g8.iter().any(|v| v.starts_with("legal move, +18 (exact)")),
        "{g8:?}"
    );
}

#[test]
fn in_a_game_against_the_engine_my_values_are_hidden_until_i_ask() {
    let tmp = temp_dir("practice");
    let path = tmp.path().join("settings.json");
    let mut h = harness();
    h.state_mut().use_settings_file(&path);
    assert!(
        !h.state().settings.values_against_engine,
        "hidden by default"
    );
    // Two people: values on.
    step_until(&mut h, "values between two people", |app| {
        app.move_evals().len() == 4
    });
    // Against the engine: none on the person's moves, and no analysis spent on them.
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Greedy));
    h.run_steps(3);
    assert!(h.state().move_evals().is_empty());
    assert!(!h.state().engine_busy());
    assert_eq!(h.get_by_label("f5").value().as_deref(), Some("legal move"));
    // One click shows them, and the choice is remembered.
    h.click_label("Show my move values against Okapi");
    step_until(&mut h, "my values, asked for", |app| {
        app.move_evals().len() == 4
    });
    assert!(h.state().settings.values_against_engine);
    let saved = okapi_app::Settings::load(&path);
    assert!(saved.values_against_engine, "remembered in the settings");
    // The key hides them again (Ctrl+Shift+H), after the engine's reply too.
    h.key_press_modifiers(
        eframe::egui::Modifiers::COMMAND | eframe::egui::Modifiers::SHIFT,
        eframe::egui::Key::H,
    );
    h.run_steps(3);
    assert!(!h.state().settings.values_against_engine);
    assert!(h.state().move_evals().is_empty());
    h.click_label("f5");
    step_until(&mut h, "the engine's reply", |app| app.game().ply() == 2);
    h.run_steps(2);
    assert!(h.state().move_evals().is_empty(), "still hidden");
    // Hint values them once.
    h.click_label("Hint");
    step_until(&mut h, "the hint", |app| !app.move_evals().is_empty());
    // Two people again: on (the moves played are not saved: discarded).
    new_game(&mut h, Seat::Human, Seat::Human);
    h.run_steps(2);
    if has_label(&h, "Unsaved changes") {
        h.click_label("Discard");
    }
    step_until(&mut h, "values between two people again", |app| {
        app.move_evals().len() == 4
    });
    let cell = h.get_by_label("f5").value().unwrap();
    assert!(cell.contains("book") || cell.contains('@'), "{cell}");
}

#[test]
fn the_database_engine_column_shows_the_proof() {
    use okapi_core::board::Move;
    // A database game's position with 22 empties: above the solve limit (the live
    // analysis estimates), quick to solve.
    let text = include_str!("data/wthor-2024-sample.pgn");
    let (games, _) = okapi_core::formats::records::pgn::parse_games(text);
    assert!(!games.is_empty());
    let moves: Vec<Move> = games[0]
        .record
        .moves
        .iter()
        .map(|&s| Move::Play(s))
        .collect();
    let mut h = harness();
    let opening: Vec<String> = moves[..38].iter().map(|m| m.to_string()).collect();
    h.event(eframe::egui::Event::Paste(opening.join(" ")));
    h.run_steps(2);
    let here = h.state().game().position();
    assert_eq!(here.empty_count(), 22);
    h.click_label("Solve exact");
    step_until(&mut h, "the solve", |app| {
        !app.engine_busy() && app.session.proven_here().is_some()
    });
    let proven = h.state().session.proven_here().unwrap().clone();
    let Some(Move::Play(best)) = proven.line.first().copied() else {
        panic!("a proven line: {proven:?}")
    };
    // A database of one game: the opening, then the proven line (passes left out, as
    // game records write them).
    let mut end = here;
    for &m in &proven.line {
        end.play_move(m).unwrap();
    }
    let (b, w) = end.final_counts();
    let all: Vec<String> = moves[..38]
        .iter()
        .chain(proven.line.iter())
        .filter(|m| **m != Move::Pass)
        .map(|m| m.to_string().to_uppercase())
        .collect();
    let tmp = temp_dir("db-proof");
    let pgn = tmp.path().join("one.pgn");
    std::fs::write(
        &pgn,
        format!(
            "[Event \"Test\"]\n[Date \"2024\"]\n[Black \"A\"]\n[White \"B\"]\n[Result \"{b}-{w}\"]\n{}\n",
            all.join(" ")
        ),
    )
    .unwrap();
    let mut builder = okapi_core::db::Builder::new();
    okapi_core::db::sources::add_pgn_file(&mut builder, &pgn, "test");
    let db = builder.build().unwrap();
    assert_eq!(db.len(), 1);
    h.state_mut().database.set_database(db, Vec::new());
    h.click_label("Database");
    h.run_steps(3);
    assert!(has_label(&h, &format!("Database move {best}")));
    // The column says the proof, with its source: the value list's entry is not drawn
    // on this tab.
    let column = format!("{:+} (exact)", proven.score);
    assert!(
        has_label(&h, &column),
        "the Engine column shows {column} for {best}"
    );
}
