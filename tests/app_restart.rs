//! A restart brings the game back exactly as it was: its analysis (the move list's marks,
//! the loss chart, the summary) with no new search, its file, and whether it is saved,
//! so that the quit question asks about what is unsaved and nothing else. Each test
//! quits one app and starts another on the same data folder, as a person would.
#![cfg(feature = "gui")]

mod common;

use common::app::{Steps, step_until, temp_dir};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use okapi_app::{App, Command, ScriptedDialogs};
use okapi_core::board::Square;
use std::path::Path;

/// The app as it starts on the data folder `data`: the game kept there comes back, and
/// the game in progress is kept there (as `okapi` does at start).
fn app_on(data: &Path, w: f32, h: f32) -> Harness<'static, App> {
    let mut app = App::new(Box::new(ScriptedDialogs::default()), || {});
    // No live values: what shows is what the record holds.
    app.settings.show_evals = false;
    let kept = data.join("current-game.json");
    if kept.exists() {
        app.restore_game_in_progress(&kept);
    }
    app.keep_game_at(Some(kept));
    let mut h = Harness::builder()
        .with_size(eframe::egui::vec2(w, h))
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run_steps(3);
    h
}

/// The text of every node whose accessible name contains `part`.
fn texts_with(h: &Harness<'static, App>, part: &str) -> Vec<String> {
    h.query_all_by_label_contains(part)
        .map(|n| common::app::text_of(&n))
        .collect()
}

/// What the game analysis shows: its summary lines and the move list's loss marks.
fn analysis_shown(h: &Harness<'static, App>) -> Vec<String> {
    let mut shown = texts_with(h, "lost");
    shown.extend(texts_with(h, "Worst:"));
    shown.extend(texts_with(h, "~"));
    shown.sort();
    shown
}

fn play(h: &mut Harness<'static, App>, square: &str) {
    h.state_mut()
        .apply(Command::Play(Square::parse(square).unwrap()));
    h.run_steps(2);
}

/// Quits: true when the app closed at once, false when it asks first.
fn quit_asks(h: &mut Harness<'static, App>) -> bool {
    h.state_mut().apply(Command::Quit);
    h.run_steps(2);
    h.query_by_label("Unsaved changes").is_some()
}

/// The game analysed (Game › Analyse game), the app quit and started again: the summary,
/// the losses and the move list's marks are there again, the engine not asked; saved as
/// Okapi's game file, they come back when it is opened in another app; saved as GGF,
/// the save says the analysis is not kept.
#[test]
fn the_game_analysis_comes_back_after_a_restart_and_from_its_file() {
    let data = temp_dir("restart-analysis");
    let mut h = app_on(data.path(), 1000.0, 720.0);
    h.event(eframe::egui::Event::Paste("f5 d6 c3 d3 c4 f4 f6".into()));
    h.run_steps(2);
    h.state_mut().apply(Command::AnalyseGame);
    h.run_steps(1);
    step_until(&mut h, "the game analysis", |app| !app.engine_busy());
    assert!(h.query_by_label("Game analysis").is_some());
    let before = analysis_shown(&h);
    assert!(
        before.iter().any(|t| t.starts_with("Black: ")),
        "{before:?}"
    );
    let game = h.state().game().clone();
    assert!((0..game.len()).all(|i| game.best_at(i).is_some()));
    let json = data.path().join("analysed.json");
    h.state_mut().apply(Command::SaveTo(json.clone()));
    h.run_steps(2);
    assert!(!quit_asks(&mut h), "everything is in {}", json.display());
    drop(h);

    let mut again = app_on(data.path(), 1000.0, 720.0);
    assert!(again.query_by_label("Game analysis").is_some());
    assert_eq!(analysis_shown(&again), before);
    assert_eq!(again.state().file.as_deref(), Some(json.as_path()));
    assert!(!again.state().has_unsaved_changes());
    // As GGF: the status says what it drops.
    let ggf = data.path().join("analysed.ggf");
    again.state_mut().apply(Command::SaveTo(ggf));
    again.run_steps(2);
    let said = texts_with(&again, "not kept in GGF");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("save as Okapi game (.json) to keep it"),
        "{said:?}"
    );

    // Okapi's file opened in an app with another data folder.
    let elsewhere = temp_dir("restart-elsewhere");
    let mut other = app_on(elsewhere.path(), 1000.0, 720.0);
    other.state_mut().apply(Command::OpenPath(json));
    other.run_steps(3);
    assert!(other.query_by_label("Game analysis").is_some());
    assert_eq!(analysis_shown(&other), before);
}

/// Saved as GGF ("the line is enough"), quit, started again: the game knows its file, and
/// neither Quit nor opening that file asks. Two moves more: the question says precisely
/// what is not in the file.
#[test]
fn a_game_saved_as_ggf_is_not_asked_about_after_a_restart() {
    let data = temp_dir("restart-ggf");
    let ggf = data.path().join("game.ggf");
    let mut h = app_on(data.path(), 1000.0, 720.0);
    for m in ["f5", "d6", "c3", "d3", "c4"] {
        play(&mut h, m);
    }
    assert!(quit_asks(&mut h));
    assert_eq!(
        texts_with(&h, "In no file"),
        ["In no file: its 5 moves."],
        "counted as players count"
    );
    h.click_label("Cancel");
    h.state_mut().apply(Command::SaveTo(ggf.clone()));
    h.run_steps(2);
    assert!(!quit_asks(&mut h));
    drop(h);

    let mut again = app_on(data.path(), 1000.0, 720.0);
    assert_eq!(again.state().game().len(), 5);
    assert_eq!(again.state().file.as_deref(), Some(ggf.as_path()));
    assert!(!again.state().has_unsaved_changes());
    again.state_mut().apply(Command::OpenPath(ggf.clone()));
    again.run_steps(2);
    assert!(again.query_by_label("Unsaved changes").is_none());
    play(&mut again, "f4");
    play(&mut again, "f6");
    assert!(quit_asks(&mut again));
    assert_eq!(
        texts_with(&again, "Not in"),
        [format!(
            "Not in {}: 2 moves after the file's 5.",
            ggf.display()
        )]
    );
}

/// A restored game the player chose to discard at Quit is not asked about at the next
/// Quit (it asked on every quit, even right after Discard); a move more is.
#[test]
fn a_restored_game_after_discard_does_not_ask_again() {
    let data = temp_dir("restart-discard");
    let mut h = app_on(data.path(), 1000.0, 720.0);
    play(&mut h, "f5");
    assert!(quit_asks(&mut h));
    assert_eq!(texts_with(&h, "In no file"), ["In no file: its move."]);
    h.click_label("Discard");
    drop(h);

    let mut again = app_on(data.path(), 1000.0, 720.0);
    assert_eq!(again.state().game().len(), 1, "the game still comes back");
    assert!(!quit_asks(&mut again));
    drop(again);
    let mut third = app_on(data.path(), 1000.0, 720.0);
    assert!(!quit_asks(&mut third), "nor at the start after");
    play(&mut third, "d6");
    assert!(quit_asks(&mut third));
    assert_eq!(
        texts_with(&third, "In no file"),
        ["In no file: 1 move after the first 1."]
    );
}

/// The proven line of the solve of this position, as the Play tab shows it: the result
/// and the line (none when no solve shows).
fn solve_shown(h: &Harness<'static, App>) -> Option<(String, String)> {
    let result = texts_with(h, "Solved (");
    let line = texts_with(h, "Line: ");
    match (result.as_slice(), line.as_slice()) {
        ([r], [l]) => Some((r.clone(), l.clone())),
        _ => None,
    }
}

/// A game to 14 empties, each side playing its first legal move (passing when it has
/// none; the transcript leaves passes out).
fn game_to_14_empties() -> String {
    let mut p = okapi_core::board::Position::start();
    let mut moves = Vec::new();
    while p.empty_count() > 14 {
        assert!(!p.is_game_over(), "the game ends before 14 empties");
        match p.legal_moves().iter().next() {
            Some(sq) => {
                p.play(sq).unwrap();
                moves.push(sq.to_string());
            }
            None => p.pass().unwrap(),
        }
    }
    assert!(!p.is_game_over());
    moves.join(" ")
}

/// A solve's proven line is kept with the game: stepping away and back shows it again,
/// and the autosave and Okapi's game file bring it back after a restart and when the
/// file is opened elsewhere.
#[test]
fn a_solves_proven_line_comes_back_after_a_restart_and_from_its_file() {
    let data = temp_dir("restart-solve");
    let json = data.path().join("solved.json");
    let mut h = app_on(data.path(), 1000.0, 720.0);
    h.event(eframe::egui::Event::Paste(game_to_14_empties()));
    h.run_steps(2);
    h.state_mut().apply(Command::SaveTo(json.clone()));
    h.run_steps(2);
    let ply = h.state().game().ply();
    assert!(solve_shown(&h).is_none());
    h.state_mut()
        .apply(Command::Solve(okapi_core::search::SolveMode::Exact));
    step_until(&mut h, "the solve", |app| {
        !app.engine_busy() && app.session.proven_here().is_some()
    });
    let shown = solve_shown(&h).expect("the solve shows");
    assert!(shown.0.starts_with("Solved (exact)"), "{shown:?}");
    // Away and back: the same.
    h.state_mut().apply(Command::First);
    h.run_steps(2);
    assert!(solve_shown(&h).is_none());
    h.state_mut().apply(Command::GoTo(ply));
    h.run_steps(2);
    assert_eq!(solve_shown(&h).as_ref(), Some(&shown));
    // A proof alone is not asked about (a solve makes it again; the values shown near
    // the end solve by themselves): the autosave keeps it for the next start.
    assert!(!quit_asks(&mut h));
    drop(h);

    let mut again = app_on(data.path(), 1000.0, 720.0);
    assert_eq!(again.state().game().ply(), ply);
    assert_eq!(
        solve_shown(&again).as_ref(),
        Some(&shown),
        "after a restart"
    );
    again.state_mut().apply(Command::First);
    again.run_steps(2);
    again.state_mut().apply(Command::GoTo(ply));
    again.run_steps(2);
    assert_eq!(solve_shown(&again).as_ref(), Some(&shown));
    // Saved, the game's own file keeps it.
    again.state_mut().apply(Command::Save);
    again.run_steps(2);
    assert!(!quit_asks(&mut again));

    let elsewhere = temp_dir("restart-solve-elsewhere");
    let mut other = app_on(elsewhere.path(), 1000.0, 720.0);
    other.state_mut().apply(Command::OpenPath(json));
    other.run_steps(3);
    assert_eq!(solve_shown(&other).as_ref(), Some(&shown), "from its file");
}
