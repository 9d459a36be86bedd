//! The game-record readers on real extracts of the shared data (copied to tests/data).

use okapi::formats::records::{GameRecord, logbook, pgn, wthor};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Black's score from the final board when the game was played to the end.
fn check_results(games: &[GameRecord]) -> usize {
    let mut complete = 0;
    for g in games {
        if g.is_complete() {
            complete += 1;
            let (b, w) = g.final_black_white();
            let (b, w) = (b.count_ones() as i32, w.count_ones() as i32);
            let e = 64 - b - w;
            let score = if b > w {
                b - w + e
            } else if w > b {
                b - w - e
            } else {
                0
            };
            assert_eq!(score, g.black_score as i32, "{g:?}");
        }
    }
    complete
}

#[test]
fn wthor_sample_reads_fully() {
    let (header, set) = wthor::read_file(&data("wthor-2018-sample.wtb")).unwrap();
    assert_eq!(header.year, 2018);
    assert!(header.theoretical_depth == 22 || header.theoretical_depth == 24);
    assert_eq!(set.games.len(), 60);
    assert!(set.skipped.is_empty(), "{:?}", set.skipped);
    assert!(
        set.games
            .iter()
            .all(|g| g.theoretical.is_some() && g.year == 2018)
    );
    assert!(check_results(&set.games) > 30);
    // Truncating the file loses only the cut record, with a reason.
    let bytes = std::fs::read(data("wthor-2018-sample.wtb")).unwrap();
    let (_, set) = wthor::parse(&bytes[..bytes.len() - 10]).unwrap();
    assert_eq!(set.games.len(), 59);
    assert_eq!(set.skipped.len(), 1);
}

#[test]
fn pgn_sample_reads_fully() {
    let text = std::fs::read_to_string(data("wthor-2024-sample.pgn")).unwrap();
    let set = pgn::parse(&text);
    assert_eq!(set.games.len(), 40);
    assert!(set.skipped.is_empty(), "{:?}", set.skipped);
    assert!(set.games.iter().all(|g| g.year == 2024));
    assert!(check_results(&set.games) > 20);
}

#[test]
fn logbook_sample_reads_fully() {
    let set = logbook::read_file(&data("logbook-sample.gam")).unwrap();
    assert_eq!(set.games.len(), 40);
    assert!(set.skipped.is_empty(), "{:?}", set.skipped);
    assert!(check_results(&set.games) > 30);
    assert!(logbook::read_file(&data("no-such-file.gam")).is_err());
}
