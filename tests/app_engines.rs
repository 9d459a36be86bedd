//! The app's engines under one budget: the board's, a script's and practice's engines
//! open at once take together no more than the settings' table, read from the tables the
//! process has made. One test in its own binary: the count of live tables is the
//! process's.

mod common;

use common::app::*;
use okapi_app::Command;
use okapi_core::board::Square;
use okapi_core::game::Seat;
use okapi_core::search::live_table_bytes;
use std::time::{Duration, Instant};

/// The tables alive after `frames` steps of the UI a few milliseconds apart: the most
/// and the least seen.
fn live_tables_over(
    h: &mut egui_kittest::Harness<'static, okapi_app::App>,
    frames: usize,
) -> (u64, u64) {
    let (mut most, mut least) = (0, u64::MAX);
    for _ in 0..frames {
        h.step();
        std::thread::sleep(Duration::from_millis(20));
        let live = live_table_bytes() as u64;
        most = most.max(live);
        least = least.min(live);
    }
    (most, least)
}

#[test]
fn the_board_the_script_and_practice_share_the_settings_table() {
    let dir = temp_dir("engines");
    let mut h = harness_sized(1280.0, 900.0);
    // 64 MB for all the engines together.
    h.state_mut().settings.hash_bits = 22;
    let budget = 16u64 << 22;
    new_game(&mut h, Seat::Human, Seat::Human);
    for mv in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
        h.state_mut()
            .apply(Command::Play(Square::parse(mv).unwrap()));
    }
    h.run_steps(2);
    let (running, _, settings_table) = h.state().engine_tables();
    assert_eq!((running, settings_table), (vec!["board"], budget));
    step_until(&mut h, "the board's table alone", |_| {
        live_table_bytes() as u64 == budget
    });

    // A script solving (long: it runs throughout) and the practice window collecting.
    let script = dir.path().join("ffo.scr");
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ffo40-59.scr"),
        &script,
    )
    .unwrap();
    h.state_mut().apply(Command::OpenScriptPath(script));
    h.state_mut().apply(Command::SolveScript);
    h.state_mut().apply(Command::ShowPractice);
    h.run_steps(3);
    h.click_label("Collect");
    h.run_steps(2);
    let (running, given, _) = h.state().engine_tables();
    assert_eq!(running, ["board", "script", "practice"]);
    assert!(given <= budget, "{given} bytes given, {budget} allowed");
    // The tables made: never more than the budget while all three run, and the board's
    // and practice's tables there (each a quarter or more of it).
    let deadline = Instant::now() + Duration::from_secs(30);
    while live_table_bytes() as u64 > budget {
        assert!(
            Instant::now() < deadline,
            "{} bytes of tables",
            live_table_bytes()
        );
        h.step();
        std::thread::sleep(Duration::from_millis(20));
    }
    let (most, least) = live_tables_over(&mut h, 50);
    println!(
        "board, script and practice: {least}..{most} bytes of tables, {given} given, {budget} allowed"
    );
    assert!(most <= budget, "{most} bytes of tables, {budget} allowed");
    assert!(
        least >= budget / 2,
        "{least} bytes of tables: some are missing"
    );
    assert_eq!(h.state().engine_tables().0, ["board", "script", "practice"]);

    // Closed, their engines go with their tables, and the board has the whole table again.
    h.state_mut().apply(Command::CloseScript);
    h.state_mut().apply(Command::ClosePractice);
    h.state_mut()
        .apply(Command::Play(Square::parse("c5").unwrap()));
    step_until(&mut h, "the board's table alone again", |app| {
        app.engine_tables().0 == ["board"] && live_table_bytes() as u64 == budget
    });
}
