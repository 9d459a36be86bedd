//! The games database against a direct count over the game files: for the start position
//! and after f5 d6 c3, the games reaching the position (under the 8 symmetries, by any move
//! order) and the games per next move equal what replaying every game of the files finds.
//! Uses the WTHOR samples in `tests/data` (nothing outside the repository needed); the shipped database is
//! checked for the start position (every game reaches it).

use okapi::board::symmetry::{Symmetry, transform};
use okapi::board::{Position, Square};
use okapi::db::{Builder, Database, Filter, GameNames, PlayerSide, sources};
use okapi::formats::records::{GameRecord, pgn, wthor};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// The sample games, read straight through the record readers.
fn sample_records() -> Vec<GameRecord> {
    let bytes = std::fs::read(data("wthor-2018-sample.wtb")).unwrap();
    let (_, mut set) = wthor::parse(&bytes).unwrap();
    let text = std::fs::read_to_string(data("wthor-2024-sample.pgn")).unwrap();
    set.extend(pgn::parse(&text));
    assert!(set.games.len() > 20, "the samples hold games");
    set.games
}

/// The database of the same samples, through the database's own sources.
fn sample_db() -> Database {
    let mut b = Builder::new();
    let names = sources::WthorNames::default();
    let r = sources::add_wthor_file(&mut b, &data("wthor-2018-sample.wtb"), &names, "sample");
    assert!(r.bad_files.is_empty(), "{r:?}");
    let r = sources::add_pgn_file(&mut b, &data("wthor-2024-sample.pgn"), "sample");
    assert!(r.bad_files.is_empty(), "{r:?}");
    b.build().unwrap()
}

fn after(moves: &str) -> Position {
    let mut p = Position::start();
    for c in moves.as_bytes().chunks(2) {
        p.play(Square::parse(std::str::from_utf8(c).unwrap()).unwrap())
            .unwrap();
    }
    p
}

/// Games reaching `target` and, per next move (in `target`'s orientation, moves that a
/// symmetry of `target` exchanges counted as one: keyed by the smallest square of the
/// class), how many games played it: by replaying every game and comparing every position
/// with the 8 images of `target`.
fn direct_count(games: &[GameRecord], target: &Position) -> (usize, BTreeMap<u32, u32>) {
    let own: Vec<Symmetry> = Symmetry::ALL
        .into_iter()
        .filter(|&s| {
            transform(target.black(), s) == target.black()
                && transform(target.white(), s) == target.white()
        })
        .collect();
    let mut reaching = 0;
    let mut next = BTreeMap::new();
    for g in games {
        let positions = g.positions();
        'game: for (ply, p) in positions.iter().enumerate() {
            let (black, white) = if p.black_to_move {
                (p.board.player, p.board.opponent)
            } else {
                (p.board.opponent, p.board.player)
            };
            for s in Symmetry::ALL {
                if transform(target.black(), s) == black
                    && transform(target.white(), s) == white
                    && (p.black_to_move == (target.side_to_move() == okapi::board::Color::Black)
                        || p.board.is_game_over())
                {
                    reaching += 1;
                    if let Some(m) = g.moves.get(ply) {
                        let sq = s.inverse().square(m.index());
                        let class = own.iter().map(|t| t.square(sq)).min().unwrap_or(sq);
                        *next.entry(class).or_insert(0) += 1;
                    }
                    break 'game;
                }
            }
        }
    }
    (reaching, next)
}

fn db_count(db: &Database, target: &Position) -> (usize, BTreeMap<u32, u32>) {
    let own: Vec<Symmetry> = Symmetry::ALL
        .into_iter()
        .filter(|&s| {
            transform(target.black(), s) == target.black()
                && transform(target.white(), s) == target.white()
        })
        .collect();
    let a = db.query(target, &Filter::default());
    let next = a
        .moves
        .iter()
        .map(|m| {
            let sq = m.square.index();
            (
                own.iter().map(|t| t.square(sq)).min().unwrap_or(sq),
                m.games,
            )
        })
        .collect();
    (a.games.len(), next)
}

#[test]
fn counts_equal_a_direct_count_over_the_files() {
    let records = sample_records();
    let db = sample_db();
    assert_eq!(db.len(), records.len());
    for moves in ["", "f5", "f5d6", "f5d6c3", "f5f6", "f5d6c3d3c4", "f5f4e3"] {
        let target = after(moves);
        let direct = direct_count(&records, &target);
        assert_eq!(db_count(&db, &target), direct, "after '{moves}'");
        if moves.is_empty() {
            assert_eq!(direct.0, records.len(), "every game reaches the start");
        }
        if moves == "f5d6c3" {
            assert!(direct.0 > 0, "the samples hold f5 d6 c3 games");
        }
    }
    // Deeper: every 7th position of every 5th game of the samples.
    for g in records.iter().step_by(5) {
        let mut p = Position::start();
        for (k, &m) in g.moves.iter().enumerate() {
            p.play(m).unwrap();
            // A forced pass is made at once (the database and the records both do).
            if p.must_pass() && !p.is_game_over() {
                p.pass().unwrap();
            }
            if k % 7 == 3 {
                assert_eq!(db_count(&db, &p), direct_count(&records, &p), "ply {k}");
            }
        }
    }
}

#[test]
fn a_reflected_game_counts_for_the_position_it_reflects() {
    // The samples' games all start f5; the same games turned by the 4 symmetries that
    // keep the start position are the same positions.
    let records = sample_records();
    let mut b = Builder::new();
    for s in [
        Symmetry::Identity,
        Symmetry::Rotate180,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
    ] {
        for g in &records {
            let turned = GameRecord {
                moves: g
                    .moves
                    .iter()
                    .map(|m| Square::new(s.square(m.index())))
                    .collect(),
                ..g.clone()
            };
            b.add(&turned, GameNames::default()).unwrap();
        }
    }
    let db = b.build().unwrap();
    for moves in ["f5d6c3", "f5f6", "f5d6c5"] {
        let target = after(moves);
        let (n, next) = db_count(&db, &target);
        let (direct, direct_next) = direct_count(&records, &target);
        assert_eq!(n, 4 * direct, "after {moves}");
        let scaled: BTreeMap<u32, u32> = direct_next.iter().map(|(&k, &v)| (k, 4 * v)).collect();
        assert_eq!(next, scaled, "after {moves}");
    }
}

#[test]
fn filters_by_player_and_side_match_the_tags() {
    let db = sample_db();
    let text = std::fs::read_to_string(data("wthor-2024-sample.pgn")).unwrap();
    let (games, _) = pgn::parse_games(&text);
    let name = games[0].black.clone();
    let count = |side| {
        let f = Filter {
            player: name.clone(),
            side,
            ..Filter::default()
        };
        db.query(&Position::start(), &f).games.len()
    };
    let as_black = games.iter().filter(|g| g.black.contains(&name)).count();
    let as_white = games.iter().filter(|g| g.white.contains(&name)).count();
    let either = games
        .iter()
        .filter(|g| g.black.contains(&name) || g.white.contains(&name))
        .count();
    assert_eq!(count(PlayerSide::Black), as_black);
    assert_eq!(count(PlayerSide::White), as_white);
    assert_eq!(count(PlayerSide::Either), either);
    assert!(as_black > 0);
}

#[test]
fn the_shipped_database_reads_and_every_game_reaches_the_start() {
    let db = okapi::db::load_shipped().expect("the shipped database reads");
    assert!(db.len() > 100_000, "{} games", db.len());
    let every = Filter {
        xot: okapi::db::XotGames::Include,
        ..Filter::default()
    };
    let a = db.query(&Position::start(), &every);
    assert_eq!(a.games.len(), db.len());
    let total: u32 = a.moves.iter().map(|m| m.games).sum();
    assert_eq!(total as usize, db.len());
    assert!(db.players().iter().any(|p| p.contains("Tamenori")));
    // The XOT tournaments' games (Zurich (XOT) - 2025) are told by their names and left
    // out by default.
    let xot = (0..db.len()).filter(|&i| db.game(i).xot).count();
    assert!(xot > 0, "no XOT game in the shipped database");
    let a = db.query(&Position::start(), &Filter::default());
    assert_eq!(a.games.len(), db.len() - xot);
}
