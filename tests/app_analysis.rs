//! The app's values and analysis, driven through egui_kittest: exact and midgame values
//! on the squares, solving and proven lines, stopping, the game analysis, book values, the
//! live analysis and its depth, the engine's settings; and the responsiveness benchmark.
#![cfg(feature = "gui")]

mod common;

use common::app::{
    SaveAs, Steps, ffo1_json, first_legal_move, harness, harness_with, has_label, new_game,
    step_until, step_until_every_move_exact, temp_dir, text_of, unfold,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use okapi_app::{App, Command, ScriptedDialogs};
use okapi_core::board::Position;
use okapi_core::game::{EvalSource, Game, Seat};
use okapi_core::level::Level;
use std::time::{Duration, Instant};

#[test]
fn exact_values_appear_on_the_squares() {
    let tmp = temp_dir("evals");
    let dir = tmp.path();
    let path = ffo1_json(dir);
    let mut h = harness_with(ScriptedDialogs {
        open: vec![path],
        ..Default::default()
    });
    h.state_mut().apply(Command::Open);
    h.run_steps(1);
    step_until_every_move_exact(&mut h);
    assert_eq!(
        h.get_by_label("g8").value().as_deref(),
        Some("legal move, +18 (exact), best")
    );
    // The values list, in the side panel's Move values section, folded until opened.
    unfold(&mut h, "Move values");
    assert!(has_label(&h, "g8: +18 (exact)"));
    // then the proven principal line, without asking
    step_until(&mut h, "the principal line", |app| !app.engine_busy());
    assert!(has_label(&h, "Solved (exact): Black wins by 18"));
    assert!(h.query_by_label_contains("Line: 47. g8").is_some());
}

#[test]
fn solve_shows_the_proven_line_and_it_can_be_played() {
    let tmp = temp_dir("solve");
    let dir = tmp.path();
    let path = ffo1_json(dir);
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    h.get_by_label("Solve exact").click();
    h.run_steps(1);
    step_until(&mut h, "the solve", |app| !app.engine_busy());
    assert!(has_label(&h, "Solved (exact): Black wins by 18"));
    let line = text_of(&h.get_by_label_contains("Line: 47. g8"));
    assert!(line.split_whitespace().count() > 10, "{line}");
    h.click_label("Play best move");
    assert_eq!(h.state().game().moves()[0].to_string(), "g8");
    // the line is followed: the rest is still shown, from White's side
    assert!(has_label(&h, "Solved (exact): Black wins by 18"));
}

#[test]
fn stop_ends_a_long_solve() {
    let text = include_str!("data/ffo40-59.scr");
    let line = text.lines().find(|l| l.contains("ffo#57")).unwrap();
    let tmp = temp_dir("stop");
    let dir = tmp.path();
    let path = dir.join("ffo57.json");
    Game::new(Position::parse(line).unwrap())
        .save(&path)
        .unwrap();
    let mut h = harness();
    h.state_mut().settings.show_evals = false;
    h.state_mut().apply(Command::OpenPath(path));
    h.click_label("Solve exact");
    // a long solve is announced with an estimate first
    assert!(h.query_by_label_contains("solving takes about").is_some());
    h.click_label("Solve anyway");
    assert!(h.state().engine_busy());
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    h.get_by_label("Stop").click();
    step_until(&mut h, "the stop", |app| !app.engine_busy());
    eprintln!(
        "stop took effect after {:?} (frames included); the app measured {:?}",
        asked.elapsed(),
        h.state().metrics.stop_latency
    );
    assert!(h.state().metrics.stop_latency.is_some());
    assert!(h.query_by_label_contains("Solved").is_none());
    assert!(h.query_by_label_contains("stopped").is_some());
}

#[test]
fn an_engine_panic_is_shown_and_the_app_goes_on() {
    let mut h = harness();
    // a developer item: behind the Debug setting
    h.state_mut().settings.debug = true;
    h.click_label("Help");
    h.get_by_label("Test the engine's error report").click();
    h.run_steps(1);
    step_until(&mut h, "the error", |app| app.error.is_some());
    let err = text_of(&h.get_by_label_contains("Error: the engine failed"));
    assert!(err.contains("deliberate crash"), "{err}");
    // the app and the engine still work
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Random));
    h.get_by_label("d3").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply after the crash", |app| {
        app.game().ply() == 2
    });
}

#[test]
fn game_analysis_finds_the_lost_discs() {
    // FFO #1: Black plays b1 (-4) instead of g8 (+18), then White replies.
    let text = include_str!("data/ffo1-39.scr");
    let line = text.lines().find(|l| l.contains("ffo#01")).unwrap();
    let mut game = Game::new(Position::parse(line).unwrap());
    game.play(okapi_core::board::Move::parse("b1").unwrap(), None)
        .unwrap();
    let reply = game.position().legal_moves().iter().next().unwrap();
    game.play(okapi_core::board::Move::Play(reply), None)
        .unwrap();
    let tmp = temp_dir("analysis");
    let dir = tmp.path();
    let path = dir.join("mistake.json");
    game.save(&path).unwrap();
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    h.run_steps(2);
    // through the Engine menu (the side panel's button may sit below its fold)
    h.get_by_role_and_label(eframe::egui::Role::Button, "Engine")
        .click();
    h.run_steps(2);
    h.get_by_label("Analyse the game").click();
    h.run_steps(1);
    assert!(h.state().engine_busy(), "the analysis started");
    step_until(&mut h, "the game analysis", |app| !app.engine_busy());
    // FFO #1 has 14 empties: its first move is move 47, as the status says.
    assert!(h.query_by_label_contains("47. b1 (-4) ?-22 g8").is_some());
    assert!(has_label(
        &h,
        "Black: lost 22 discs in 1 move (1 blunder, 0 mistakes, 0 inaccuracies; 1 proven by the solver, 0 by the search)"
    ));
    // beside the evaluation graph, the discs each move lost
    assert!(
        h.query_by_label_contains("discs lost per move: Black up")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("Worst: move 47 b1, -4 (exact) against g8 +18 (exact)")
            .is_some()
    );
    // the values are kept in the game and saved with their source
    assert_eq!(
        h.state().game().evals()[0],
        Some(okapi_core::game::Eval {
            value: -4,
            source: EvalSource::Exact
        })
    );
}

#[test]
fn values_for_one_side_and_hints() {
    let mut h = harness();
    // In the side panel's Engine section, folded until opened.
    unfold(&mut h, "Engine");
    h.click_label("White only");
    // Black to move: no values for Black
    assert!(!h.state().engine_busy());
    assert!(h.state().move_evals().is_empty());
    assert!(h.get_by_label("d3").value().unwrap() == "legal move");
    h.get_by_label("Hint").click();
    h.run_steps(1);
    step_until(&mut h, "the hint", |app| app.move_evals().len() == 4);
    // (the start position is in the opening book)
    let d3 = h.get_by_label("d3").value().unwrap();
    assert!(d3.contains("(book)"), "{d3}");
    // White to move: values come by themselves
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "White's values", |app| app.move_evals().len() == 3);
    assert_eq!(h.state().settings.evals_for, okapi_app::EvalsFor::White);
}

#[test]
fn opening_book_values_are_tagged_book() {
    let mut h = harness();
    h.state_mut().settings.book = true;
    h.state_mut().apply(Command::GoTo(0));
    // The start position is in the book: its four moves get book values at once.
    step_until(&mut h, "book values on the four first moves", |app| {
        app.move_evals().len() == 4
            && app
                .move_evals()
                .values()
                .all(|e| e.source == EvalSource::Book)
    });
    let f5 = h.get_by_label("f5").value().unwrap();
    assert!(f5.contains("book"), "{f5}");
    // The live search goes on for the moves, but never replaces a book value.
    h.run_steps(20);
    assert!(
        h.state()
            .move_evals()
            .values()
            .all(|e| e.source == EvalSource::Book)
    );
}

#[test]
fn live_midgame_values_deepen_on_every_move() {
    let mut h = harness();
    // This is about the search: without the book's values.
    h.state_mut()
        .apply(Command::Set(okapi_app::settings::Setting::Book(false)));
    // Start position: far above the solver's reach, so the midgame search values the moves.
    step_until(&mut h, "depth-4 values on all four moves", |app| {
        app.move_evals().len() == 4
            && app.move_evals().values().all(
                |e| matches!(e.source, EvalSource::Midgame { depth, confidence: 95 } if depth >= 4),
            )
    });
    // each square names its value and source, the status line the line, depth and speed
    let d3 = h.get_by_label("d3").value().unwrap();
    assert!(d3.contains("@95%)"), "{d3}");
    let status = h
        .query_by_label_contains("Engine: depth ")
        .map(|n| text_of(&n))
        .expect("the status line shows the search");
    assert!(status.contains("@95%:"), "{status}");
    assert!(status.contains("Mn/s"), "{status}");
    // the values keep getting deeper while nobody moves
    let deepest = |app: &App| {
        app.move_evals()
            .values()
            .filter_map(|e| match e.source {
                EvalSource::Midgame { depth, .. } => Some(depth),
                _ => None,
            })
            .min()
            .unwrap_or(0)
    };
    let now = deepest(h.state());
    step_until(&mut h, "a deeper iteration", |app| deepest(app) > now);
    // a move starts a new analysis of the new position
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "values for White's three moves", |app| {
        app.move_evals().len() == 3
    });
}

#[test]
fn a_weakened_engine_shows_its_lines() {
    // At 1280x900 the lines fit in the side panel above the graph without scrolling.
    let mut h = common::app::harness_sized(1280.0, 900.0);
    h.state_mut().settings.level = okapi_core::level::Level::parse("3t4").unwrap();
    let level = h.state().settings.level;
    new_game(&mut h, Seat::Human, Seat::Engine(level));
    h.run_steps(2);
    assert_eq!(h.state().game().white, "Okapi (level 3t4)");
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply", |app| app.game().ply() == 2);
    // In the side panel's Engine section, folded until opened.
    unfold(&mut h, "Engine");
    h.click_label("Show the engine's lines");
    let played = h
        .query_by_label_contains("(played)")
        .map(|n| text_of(&n))
        .expect("the move played is among the lines");
    let reply = h.state().game().moves()[1].to_string();
    assert!(played.starts_with(&reply), "{played} vs {reply}");
    // take-back: undo returns to Black's move, before the engine's reply
    h.click_label("Undo");
    assert_eq!(h.state().game().ply(), 0);
}

/// Percentile `p` of `v` (sorted in place).
fn percentile(v: &mut [Duration], p: usize) -> Duration {
    v.sort();
    v.get(v.len().saturating_sub(1) * p / 100)
        .copied()
        .unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// The responsiveness figures of docs/development.md: frame time while the engine searches, time
/// from a move to the first values on the board, time for Stop to take effect. A
/// benchmark, not a test: it prints and asserts nothing about time.
///
///     cargo test --release --test app_analysis responsiveness -- --ignored --nocapture
#[test]
#[ignore = "benchmark: prints the responsiveness figures"]
fn responsiveness() {
    let mut h = harness();
    // 1. Frames at 60 Hz for 5 s while the live analysis of the start position deepens.
    h.state_mut().metrics.clear_frames();
    let mut steps = Vec::new();
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        let t = Instant::now();
        h.step();
        steps.push(t.elapsed());
        std::thread::sleep(Duration::from_millis(16));
    }
    let busy = h.state().engine_busy();
    let app_frames = (
        h.state().metrics.frame_percentile(50),
        h.state().metrics.frame_percentile(99),
    );
    let n = steps.len();
    println!(
        "frames while the engine searches ({n} frames, engine busy at the end: {busy}):\n  \
         app's frame build p50 {} p99 {}; whole egui frame (kittest step, no GPU) p50 {} p99 {} max {}",
        ms(app_frames.0),
        ms(app_frames.1),
        ms(percentile(&mut steps, 50)),
        ms(percentile(&mut steps, 99)),
        ms(percentile(&mut steps, 100)),
    );

    // 2. Move to first values: 30 moves (the first legal square each time), frames as fast
    // as they come, from the click to the frame that shows a value.
    let mut firsts = Vec::new();
    for _ in 0..30 {
        let pos = h.state().game().position();
        if pos.is_game_over() {
            break;
        }
        let sq = pos.legal_moves().iter().next().unwrap();
        h.get_by_label(&sq.to_string()).click();
        let clicked = Instant::now();
        h.step();
        while h.state().move_evals().is_empty() && !h.state().game().position().is_game_over() {
            assert!(clicked.elapsed() < Duration::from_secs(30), "no value came");
            std::thread::sleep(Duration::from_micros(500));
            h.step();
        }
        firsts.push(clicked.elapsed());
    }
    let n = firsts.len();
    println!(
        "move to first value on the board ({n} moves): p50 {} p99 {} max {}",
        ms(percentile(&mut firsts, 50)),
        ms(percentile(&mut firsts, 99)),
        ms(percentile(&mut firsts, 100)),
    );

    // 3. Stop: long solves (FFO 50-59, 26-30 empties), stopped after 0.3 s of search; from
    // the click on Stop to the frame where the engine is idle.
    let ffo = include_str!("data/ffo40-59.scr");
    let mut stops = Vec::new();
    let mut engine_side = Vec::new();
    h.state_mut().settings.show_evals = false;
    let tmp = temp_dir("responsiveness");
    let dir = tmp.path();
    for line in ffo.lines().filter(|l| !l.starts_with('%')).skip(10) {
        let path = dir.join("stop.json");
        Game::new(Position::parse(line).unwrap())
            .save(&path)
            .unwrap();
        h.state_mut().apply(Command::OpenPath(path));
        h.run_steps(2);
        h.click_label("Solve exact");
        // past the warning every long solve gets first
        if h.query_by_label("Solve anyway").is_some() {
            h.get_by_label("Solve anyway").click();
        }
        h.step();
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            h.step();
            std::thread::sleep(Duration::from_millis(16));
        }
        if !h.state().engine_busy() {
            continue; // solved already: nothing to stop
        }
        h.get_by_label("Stop").click();
        let clicked = Instant::now();
        h.step();
        while h.state().engine_busy() {
            std::thread::sleep(Duration::from_micros(500));
            h.step();
        }
        stops.push(clicked.elapsed());
        engine_side.extend(h.state().metrics.stop_latency);
    }
    let n = stops.len();
    println!(
        "Stop to engine idle on the board ({n} solves): p50 {} p99 {} max {}; \
         the app's own figure (Stop asked to Stopped received) max {}",
        ms(percentile(&mut stops, 50)),
        ms(percentile(&mut stops, 99)),
        ms(percentile(&mut stops, 100)),
        ms(percentile(&mut engine_side, 100)),
    );
}

#[test]
fn debug_items_are_hidden_until_the_debug_setting() {
    let mut h = harness();
    assert!(!h.state().settings.debug, "off by default");
    // no frame times in the status bar, no crash test in the Help menu
    assert!(h.query_by_label_contains("UI frame").is_none());
    h.click_label("Help");
    assert!(h.query_by_label("Test the engine's error report").is_none());
    // the setting is in the Help menu, and shows both
    h.click_label("Debug");
    assert!(h.state().settings.debug);
    if h.query_by_label("Test the engine's error report").is_none() {
        // (the click closed the menu)
        h.click_label("Help");
    }
    assert!(h.query_by_label("Test the engine's error report").is_some());
    assert!(h.query_by_label_contains("UI frame").is_some());
    // and it is saved with the settings
    let json = serde_json::to_string(&h.state().settings).unwrap();
    assert!(json.contains("\"debug\":true"), "{json}");
}

#[test]
fn value_labels_carry_how_they_compare_with_the_best() {
    let tmp = temp_dir("classes");
    let path = ffo1_json(tmp.path());
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    step_until_every_move_exact(&mut h);
    // FFO #1: g8 +18 is the best; every other move loses more than two discs
    assert_eq!(
        h.get_by_label("g8").value().as_deref(),
        Some("legal move, +18 (exact), best")
    );
    let evals = h.state().move_evals().clone();
    for (sq, e) in &evals {
        let v = h.get_by_label(&sq.to_string()).value().unwrap();
        let class = match 18 - e.value {
            0 => "best",
            1..=2 => "within 2 discs",
            _ => "losing more",
        };
        assert!(v.ends_with(class), "{sq}: {v}");
    }
    // "best 1 only": the other legal moves show a plain mark
    h.state_mut().settings.best_only = 1;
    h.run_steps(2);
    assert!(h.get_by_label("g8").value().unwrap().ends_with("best"));
    let others: Vec<String> = evals
        .keys()
        .filter(|s| s.to_string() != "g8")
        .map(|s| h.get_by_label(&s.to_string()).value().unwrap())
        .collect();
    assert!(others.iter().all(|v| v == "legal move"), "{others:?}");
}

#[test]
fn the_threads_setting_is_shown_saved_and_used() {
    let dir = temp_dir("threads");
    let path = dir.path().join("settings.json");
    let mut h = harness();
    h.state_mut().use_settings_file(&path);
    let cores = okapi_core::search::available_threads();
    assert_eq!(
        h.state().settings.threads,
        cores,
        "all the cores by default"
    );
    h.get_by_role_and_label(eframe::egui::Role::Button, "Engine")
        .click();
    h.run_steps(2);
    assert!(has_label(&h, &format!("of {cores} cores")));
    h.get_by_label("Threads:").set_value_accesskit(1.0);
    h.run_steps(2);
    assert_eq!(h.state().settings.threads, 1);
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["threads"], 1, "{saved}");
    // 0 is not a number of threads: the field stays at 1 or more.
    h.get_by_label("Threads:").set_value_accesskit(0.0);
    h.run_steps(2);
    assert_eq!(h.state().settings.threads, 1);
    // The engine, configured with the new count, still answers.
    new_game(&mut h, Seat::Human, Seat::Engine(Level::Random));
    h.get_by_label("f5").click();
    h.run_steps(1);
    step_until(&mut h, "the engine's reply on one thread", |app| {
        app.game().ply() == 2
    });
    // A restarted app reads the setting back.
    let mut again = harness();
    again.state_mut().use_settings_file(&path);
    assert_eq!(again.state().settings.threads, 1);
}

#[test]
fn one_best_mark_and_book_moves_valued_by_the_book() {
    use okapi_app::settings::Setting;
    use okapi_core::board::Square;
    use okapi_core::game::Eval;
    let mut h = harness();
    h.state_mut()
        .apply(Command::Set(Setting::ShowValues(false)));
    // The book off forgets the book's values of the start position (shown at start).
    h.state_mut().apply(Command::Set(Setting::Book(false)));
    h.run_steps(2);
    // Values of mixed sources: the gold frame goes only where the highest value is.
    let sq = |s: &str| Square::parse(s).unwrap();
    let book = |value| Eval {
        value,
        source: EvalSource::Book,
    };
    let search = |value| Eval {
        value,
        source: EvalSource::Midgame {
            depth: 12,
            confidence: 95,
        },
    };
    h.state_mut().show_values(&[
        (sq("d3"), book(0)),
        (sq("c4"), book(0)),
        (sq("f5"), search(2)),
        (sq("e6"), search(1)),
    ]);
    h.run_steps(2);
    let value = |h: &Harness<'static, App>, s: &str| h.get_by_label(s).value().unwrap();
    assert!(value(&h, "f5").ends_with(", best"), "{}", value(&h, "f5"));
    for s in ["d3", "c4", "e6"] {
        assert!(!value(&h, s).ends_with(", best"), "{s}: {}", value(&h, s));
    }
    // The game analysis values book moves by the book: the Tiger (f5 d6 c3) loses
    // nothing where the book says its moves are equal.
    h.state_mut().apply(Command::Set(Setting::Book(true)));
    h.state_mut().apply(Command::Set(Setting::ShowValues(true)));
    h.event(eframe::egui::Event::Paste("f5 d6 c3 d3 c4".into()));
    h.run_steps(2);
    h.state_mut().apply(Command::AnalyseGame);
    h.run_steps(1);
    step_until(&mut h, "the game analysis", |app| !app.engine_busy());
    let game = h.state().game().clone();
    let shipped = okapi_core::book::shipped();
    let mut marks = 0;
    for i in 0..game.len() {
        let board = game.position_at(i).board();
        let moves = shipped.moves(&board);
        let played = match game.move_at(i) {
            Some(okapi_core::board::Move::Play(s)) => s,
            _ => continue,
        };
        let rounded = |v: i32| (v as f64 / okapi_core::search::SCALE as f64).round() as i32;
        let cell = text_of(&h.get_by_label_contains(&format!("{}. {played}", i + 1)));
        let Some(m) = moves.iter().find(|m| m.square == played) else {
            continue;
        };
        assert_eq!(game.eval_at(i).map(|e| e.source), Some(EvalSource::Book));
        let loss = rounded(moves[0].value) - rounded(m.value);
        assert_eq!(
            cell.contains('?'),
            loss > 0,
            "ply {}: {cell}, book loss {loss}",
            i + 1
        );
        marks += usize::from(cell.contains('?'));
    }
    // The summary counts the moves marked.
    let lost: usize = [
        okapi_core::board::Color::Black,
        okapi_core::board::Color::White,
    ]
    .iter()
    .map(|side| {
        let text = h
            .query_all_by_label_contains(&format!("{}: ", side.name()))
            .map(|n| text_of(&n))
            .find(|t| t.contains("lost"))
            .expect("the summary line");
        text.split(" in ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(0)
    })
    .sum();
    assert_eq!(lost, marks);
}

#[test]
fn the_live_analysis_stops_at_its_depth_and_starts_again_on_a_change() {
    let mut h = harness();
    h.state_mut().settings.analysis_depth = 6;
    // Out of the book and far from the end: the midgame search values the moves.
    h.state_mut().settings.book = false;
    h.event(eframe::egui::Event::Paste(
        "f5 f6 e6 f4 e3 c5 c4 d3 c3 e2".into(),
    ));
    h.run_steps(2);
    step_until(&mut h, "the analysis to stop by itself", |app| {
        !app.engine_busy()
    });
    assert!(
        h.query_by_label_contains("analysis complete at depth 6")
            .is_some()
    );
    let legal = h.state().game().position().legal_moves().len() as usize;
    assert_eq!(h.state().move_evals().len(), legal);
    // A move: the analysis starts again for the new position. (Not asserted busy right
    // after the click: a depth-6 analysis can end within those two frames on an idle
    // machine; the values of every move of the new position show it ran again.)
    let sq = first_legal_move(&h);
    h.click_label(&sq.to_string());
    let legal = h.state().game().position().legal_moves().len() as usize;
    step_until(&mut h, "the new analysis to stop", |app| {
        !app.engine_busy() && app.move_evals().len() == legal
    });
    assert!(
        h.query_by_label_contains("analysis complete at depth 6")
            .is_some()
    );
}

#[test]
fn proven_lines_are_whole_numbered_and_copyable() {
    let tmp = temp_dir("proven-lines");
    let path = ffo1_json(tmp.path());
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(path));
    h.get_by_label("Solve exact").click();
    h.run_steps(1);
    step_until(&mut h, "the solve", |app| !app.engine_busy());
    let position = h.state().game().position();
    let first = (position.black_count() + position.white_count() - 3) as usize;
    let line = text_of(&h.get_by_label_contains(&format!("Line: {first}. g8")));
    let moves = line
        .split_whitespace()
        .filter(|w| !w.ends_with('.'))
        .count()
        - 1;
    assert_eq!(moves, position.empty_count() as usize, "{line}");
    assert!(!line.contains('…'), "{line}");
    h.get_by_label("Copy line").click();
    h.run_steps(1);
    h.step();
    let copied = h.output().platform_output.commands.iter().any(|c| {
        matches!(c, eframe::egui::OutputCommand::CopyText(t) if line.ends_with(t.as_str()) && t.starts_with(&format!("{first}. g8")))
    });
    assert!(copied, "{:?}", h.output().platform_output.commands);
}
