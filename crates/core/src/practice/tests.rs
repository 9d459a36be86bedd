use super::*;
use crate::db::{Builder, GameNames};
use crate::formats::records::GameRecord;

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

fn exact(value: i32) -> Eval {
    Eval {
        value,
        source: EvalSource::Exact,
    }
}

fn searched(value: i32) -> Eval {
    Eval {
        value,
        source: EvalSource::Midgame {
            depth: 12,
            confidence: 95,
        },
    }
}

/// The positions of `f5 d6 c3 d3 c4` and the moves played there.
fn opening() -> Vec<(usize, Position, Square)> {
    let moves: Vec<Move> = ["f5", "d6", "c3", "d3", "c4"]
        .iter()
        .map(|m| Move::Play(sq(m)))
        .collect();
    let (mut black, none) = plies_of_side(Position::start(), &moves, Color::Black);
    let (white, _) = plies_of_side(Position::start(), &moves, Color::White);
    assert!(none.is_none());
    black.extend(white);
    black.sort_by_key(|p| p.0);
    black
}

/// Each move of [`opening`] valued: the move played against another legal move.
fn analysed(losses: &[(i32, Eval)]) -> Vec<AnalysedMove> {
    opening()
        .into_iter()
        .zip(losses)
        .map(|((ply, position, played), &(loss, played_eval))| {
            let best = position
                .legal_moves()
                .iter()
                .find(|&s| s != played)
                .unwrap_or(played);
            AnalysedMove {
                ply,
                position,
                played,
                played_eval,
                best,
                best_eval: Eval {
                    value: played_eval.value + loss,
                    source: played_eval.source,
                },
            }
        })
        .collect()
}

#[test]
fn the_moves_of_one_side_replay_with_their_plies() {
    let plies = opening();
    assert_eq!(
        plies.iter().map(|p| p.0).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4]
    );
    assert_eq!(plies[0].1, Position::start());
    assert_eq!(plies[1].1.side_to_move(), Color::White);
    assert_eq!(plies[4].2, sq("c4"));
    // A move that does not replay ends the list and says where.
    let moves = [Move::Play(sq("f5")), Move::Play(sq("a1"))];
    let (plies, error) = plies_of_side(Position::start(), &moves, Color::Black);
    assert_eq!(plies.len(), 1);
    assert!(error.unwrap().starts_with("move 2 (a1)"));
}

#[test]
fn passes_count_as_plies_whether_written_or_not() {
    // Random games (a fixed generator): the plies are the same with the passes written
    // (as a game record has them) and left out (as the games database keeps them).
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut passes = 0;
    for _ in 0..300 {
        let mut p = Position::start();
        let mut with = Vec::new();
        while !p.is_game_over() {
            if p.must_pass() {
                p.force_pass();
                with.push(Move::Pass);
                passes += 1;
                continue;
            }
            let legal: Vec<Square> = p.legal_moves().iter().collect();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = legal[(seed % legal.len() as u64) as usize];
            p.play(m).unwrap();
            with.push(Move::Play(m));
        }
        let without: Vec<Move> = with.iter().copied().filter(|m| *m != Move::Pass).collect();
        for side in [Color::Black, Color::White] {
            let (a, e1) = plies_of_side(Position::start(), &with, side);
            let (b, e2) = plies_of_side(Position::start(), &without, side);
            assert_eq!((e1, e2), (None, None));
            assert_eq!(a, b);
            assert!(a.iter().all(|(_, p, _)| p.side_to_move() == side));
        }
    }
    assert!(passes > 0, "no random game passed: the test shows nothing");
}

#[test]
fn cards_are_the_chosen_sides_moves_that_lost_enough() {
    // Plies 0..4: Black loses 5, White 1, Black 3, White 8, Black 2.
    let moves = analysed(&[
        (5, exact(-5)),
        (1, searched(0)),
        (3, searched(2)),
        (8, exact(-10)),
        (2, searched(-1)),
    ]);
    let today = Day(20_000);
    let black = collect(&moves, Color::Black, 3, "Alice", "Alice - Bob", today);
    assert_eq!(
        black.iter().map(|c| c.origin.ply).collect::<Vec<_>>(),
        [0, 2]
    );
    assert_eq!(black[0].loss(), 5);
    assert_eq!(black[0].origin.player, "Alice");
    assert_eq!(black[0].origin.move_number(), 1);
    assert!(black.iter().all(|c| c.schedule == Schedule::new(today)));
    let white = collect(&moves, Color::White, 3, "Bob", "Alice - Bob", today);
    assert_eq!(white.iter().map(|c| c.origin.ply).collect::<Vec<_>>(), [3]);
    assert_eq!(white[0].loss(), 8);
    // N = 1 takes every loss; N = 0 is taken as 1 (a move that lost nothing is no mistake).
    assert_eq!(collect(&moves, Color::Black, 1, "", "", today).len(), 3);
    assert_eq!(collect(&moves, Color::Black, 0, "", "", today).len(), 3);
    assert_eq!(collect(&moves, Color::Black, 9, "", "", today).len(), 0);
}

#[test]
fn win_loss_values_and_forced_moves_make_no_cards() {
    let mut moves = analysed(&[(5, exact(-5))]);
    moves[0].played_eval.source = EvalSource::Wld;
    moves[0].played_eval.value = -1;
    moves[0].best_eval = Eval {
        value: 1,
        source: EvalSource::Wld,
    };
    assert_eq!(moves[0].loss(), None);
    assert!(collect(&moves, Color::Black, 1, "", "", Day(0)).is_empty());
    // One legal move: nothing to find.
    let forced =
        Position::parse("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO-- X")
            .unwrap();
    assert_eq!(forced.legal_moves().len(), 1);
    let only = forced.legal_moves().iter().next().unwrap();
    let m = AnalysedMove {
        ply: 59,
        position: forced,
        played: only,
        played_eval: exact(60),
        best: only,
        best_eval: exact(64),
    };
    assert!(collect(&[m], Color::Black, 1, "", "", Day(0)).is_empty());
}

#[test]
fn an_answer_is_judged_against_the_best_value() {
    let values = [
        (sq("c4"), exact(4)),
        (sq("e3"), exact(4)),
        (sq("d3"), exact(-2)),
        (sq("f6"), exact(3)),
    ];
    // The best, or a move as good: right.
    let j = judge(&values, sq("e3"), Tolerance::default()).unwrap();
    assert!(j.right && j.proven());
    assert_eq!((j.best, j.loss()), (sq("e3"), 0));
    let j = judge(&values, sq("c4"), Tolerance::default()).unwrap();
    assert_eq!((j.best, j.right), (sq("c4"), true));
    // A proven disc lost is a miss. Of two best moves, the first in board order (a1, b1,
    // ... h8) is named.
    let j = judge(&values, sq("f6"), Tolerance::default()).unwrap();
    assert!(!j.right);
    assert_eq!((j.best, j.loss()), (sq("e3"), 1));
    let j = judge(&values, sq("d3"), Tolerance::default()).unwrap();
    assert_eq!((j.right, j.loss(), j.chosen_eval), (false, 6, exact(-2)));
    // No value for the move chosen: no judgement yet.
    assert_eq!(judge(&values, sq("a1"), Tolerance::default()), None);
    // By the search's values, a disc is within its noise; two are not.
    let values = [
        (sq("c4"), searched(4)),
        (sq("e3"), searched(3)),
        (sq("d3"), searched(2)),
    ];
    assert!(
        judge(&values, sq("e3"), Tolerance::default())
            .unwrap()
            .right
    );
    assert!(
        !judge(&values, sq("e3"), Tolerance::default())
            .unwrap()
            .proven()
    );
    assert!(
        !judge(&values, sq("d3"), Tolerance::default())
            .unwrap()
            .right
    );
}

fn sample_db() -> Database {
    let mut b = Builder::new();
    for (moves, black, white, tournament, year) in [
        ("f5d6c3d3c4", "Alice Martin", "Bob", "Paris Open", 2001),
        ("f5f6e6f4", "Bob", "alice martin", "", 2002),
        ("e6f4c3c4d3", "Carol", "Dave", "Open", 2003),
    ] {
        let record = GameRecord {
            moves: moves
                .as_bytes()
                .chunks(2)
                .map(|c| sq(std::str::from_utf8(c).unwrap()))
                .collect(),
            black_score: 0,
            theoretical: None,
            year,
        };
        b.add(
            &record,
            GameNames {
                black,
                white,
                tournament,
                source: "test",
            },
        )
        .unwrap();
    }
    b.build().unwrap()
}

#[test]
fn a_players_games_come_with_the_colour_played() {
    let db = sample_db();
    let games = games_of_player(&db, "ALICE");
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(games[0].side, Color::Black);
    assert_eq!(games[0].player, "Alice Martin");
    assert_eq!(games[0].label, "Alice Martin - Bob, Paris Open 2001");
    assert_eq!(games[1].side, Color::White);
    assert_eq!(games[1].moves.len(), 4);
    // Only Alice's own moves are analysed: White's in the second game, plies 1 and 3.
    let (plies, error) = games[1].plies();
    assert_eq!(error, None);
    assert_eq!(plies.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 3]);
    assert_ne!(games[0].key(), games[1].key());
    assert!(games[0].key().starts_with("B:f5d6c3"));
    assert!(games_of_player(&db, "  ").is_empty());
    assert!(games_of_player(&db, "Zed").is_empty());
}

#[test]
fn a_folder_of_game_files_gives_the_players_games() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.ggf"),
        "(;GM[Othello]PB[Alice]PW[Bob]TY[8]B[F5]W[D6]B[C3]W[D3];)",
    )
    .unwrap();
    std::fs::write(dir.path().join("b.txt"), "f5 f6 e6 f4").unwrap();
    std::fs::write(dir.path().join("c.json"), "{ not json").unwrap();
    let found = folder_games(dir.path(), "alice").unwrap();
    assert_eq!(found.read, 2);
    assert_eq!(found.games.len(), 1);
    assert_eq!(found.games[0].side, Color::Black);
    assert!(
        found.games[0].label.contains("a.ggf"),
        "{:?}",
        found.games[0]
    );
    assert_eq!(found.bad_files.len(), 1);
    assert!(found.bad_files[0].contains("c.json"));
}

fn card(position: Position, played: &str, best: &str, loss: i32, due: Day) -> Card {
    Card {
        position,
        played: sq(played),
        played_eval: exact(-loss),
        best: sq(best),
        best_eval: exact(0),
        origin: Origin {
            player: "Alice".into(),
            game: "Alice - Bob".into(),
            ply: 0,
        },
        schedule: Schedule::new(due),
        history: Vec::new(),
    }
}

fn sample_store(today: Day) -> Store {
    let plies = opening();
    let mut store = Store::default();
    let added = store.add(vec![
        card(plies[0].1, "f5", "d3", 2, today),
        card(plies[1].1, "d6", "f6", 9, today),
        card(plies[2].1, "c3", "c5", 4, today.plus(2)),
    ]);
    assert_eq!(added, Added { new: 3, known: 0 });
    store
}

#[test]
fn the_store_orders_due_cards_and_keeps_known_positions() {
    let today = Day(20_000);
    let mut store = sample_store(today);
    // Due today: the larger loss first; the third is due in two days.
    assert_eq!(store.due(today), [1, 0]);
    assert_eq!(store.next_due(today), Some((today.plus(2), 1)));
    // The same position again keeps its schedule.
    let again = card(opening()[1].1, "d6", "f6", 9, today.plus(50));
    assert_eq!(store.add(vec![again]), Added { new: 0, known: 1 });
    assert_eq!(store.cards[1].schedule.due, today);
    // Missed: tomorrow; right: in three days.
    assert_eq!(
        store.answer(1, store.cards[1].played, false, today),
        Some(1)
    );
    assert_eq!(store.answer(0, store.cards[0].played, true, today), Some(3));
    assert_eq!(store.due(today), Vec::<usize>::new());
    assert_eq!(store.due(today.plus(1)), [1]);
    assert_eq!(store.due(today.plus(3)), [1, 2, 0]);
    assert_eq!(store.answer(7, sq("f5"), true, today), None);
    store.mark_game("B:f5".into());
    assert!(store.has_game("B:f5") && !store.has_game("W:f5"));
}

#[test]
fn the_store_survives_a_round_trip_through_its_file() {
    let today = Day::parse("2026-11-27").unwrap();
    let mut store = sample_store(today);
    store.answer(0, store.cards[0].played, false, today);
    store.answer(1, store.cards[1].played, true, today);
    store.mark_game("W:f5d6".into());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join(STORE_FILE);
    store.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"due\": \"2026-11-28\""), "{text}");
    let opened = Store::open(&path);
    assert_eq!(opened.notice, None);
    assert!(opened.writable);
    assert_eq!(opened.store, store);
    // No temporary file is left beside it.
    assert_eq!(
        std::fs::read_dir(path.parent().unwrap()).unwrap().count(),
        1
    );
}

#[test]
fn a_missing_file_is_an_empty_store() {
    let dir = tempfile::tempdir().unwrap();
    let opened = Store::open(&dir.path().join(STORE_FILE));
    assert_eq!(
        (opened.store, opened.notice, opened.writable),
        (Store::default(), None, true)
    );
}

#[test]
fn a_damaged_file_is_set_aside_with_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    for (text, said) in [
        ("{ not json", "not a practice file"),
        ("[1, 2, 3]", "not a practice file"),
        (
            r#"{"format": "something-else", "version": 1, "cards": []}"#,
            "its format is \"something-else\"",
        ),
        (
            r#"{"format": "okapi-practice", "version": 99, "cards": []}"#,
            "written by a later Okapi",
        ),
    ] {
        std::fs::write(&path, text).unwrap();
        let opened = Store::open(&path);
        let notice = opened.notice.unwrap();
        assert!(notice.contains(said), "{text}: {notice}");
        assert!(notice.contains("practice starts afresh"), "{notice}");
        assert!(opened.writable);
        assert!(opened.store.cards.is_empty());
        assert!(
            !path.exists(),
            "{text}: the damaged file is moved out of the way"
        );
        // The next save writes a good file; the damaged one is kept.
        opened.store.save(&path).unwrap();
        assert!(Store::open(&path).notice.is_none());
    }
    // Every damaged file was kept, none written over.
    let mut kept: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("unreadable"))
        .collect();
    kept.sort();
    assert_eq!(
        kept,
        [
            "practice.json.unreadable",
            "practice.json.unreadable-2",
            "practice.json.unreadable-3",
            "practice.json.unreadable-4"
        ]
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("practice.json.unreadable")).unwrap(),
        "{ not json"
    );
}

#[test]
fn bad_cards_are_skipped_and_the_good_ones_kept() {
    let today = Day::parse("2026-11-27").unwrap();
    let store = sample_store(today);
    let mut file: serde_json::Value = serde_json::from_str(&store.to_json()).unwrap();
    let cards = file["cards"].as_array_mut().unwrap();
    cards[0]["played"] = "a1".into(); // not legal there
    cards[2]["due"] = "2026-02-30".into();
    cards.push(serde_json::json!({ "position": "nonsense" }));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    std::fs::write(&path, file.to_string()).unwrap();
    let opened = Store::open(&path);
    let notice = opened.notice.unwrap();
    assert!(
        notice.contains("3 of its cards could not be read"),
        "{notice}"
    );
    assert!(
        notice.contains("card 1: played: a1 is not legal"),
        "{notice}"
    );
    assert!(
        notice.contains("card 3: due: \"2026-02-30\" is not a date"),
        "{notice}"
    );
    assert!(notice.contains("card 4:"), "{notice}");
    assert!(
        notice.contains("the one card that could be read is kept"),
        "{notice}"
    );
    assert_eq!(opened.store.cards, store.cards[1..2]);
    assert!(dir.path().join("practice.json.unreadable").exists());
}

#[test]
fn an_endless_file_is_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    // Just over the cap, as a sparse file.
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(MAX_STORE_TEST + 1).unwrap();
    let opened = Store::open(&path);
    assert!(opened.notice.unwrap().contains("file too large"));
    assert!(opened.writable);
}

const MAX_STORE_TEST: u64 = super::MAX_STORE_FILE;

/// `n` distinct positions of random games (a fixed seed), each with a legal move.
fn many_cards(n: usize, today: Day) -> Vec<Card> {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut seen = std::collections::HashSet::new();
    let mut cards = Vec::with_capacity(n);
    while cards.len() < n {
        let mut p = Position::start();
        while !p.is_game_over() && cards.len() < n {
            if p.must_pass() {
                p.force_pass();
                continue;
            }
            let moves: Vec<Square> = p.legal_moves().iter().collect();
            let m = moves[(next() % moves.len() as u64) as usize];
            if seen.insert((p.black(), p.white(), p.side_to_move())) {
                let mut c = card(p, "a1", "a1", 3, today);
                (c.played, c.best) = (m, m);
                // As a real card names its game: players, tournament, round, file.
                c.origin.game = format!(
                    "Alice Example - Bob Example, Paris Open 2026, round {}, games/{}.ggf",
                    cards.len() % 9,
                    cards.len()
                );
                cards.push(c);
            }
            p.play(m).unwrap();
        }
    }
    cards
}

/// Some 57,000 cards made a 58.7 MB file that the next start refused as "too large" (over
/// the 32 MB it read):
/// what the store writes, it reads back.
#[test]
fn a_large_practice_file_written_is_read_back() {
    let today = Day::parse("2026-11-27").unwrap();
    let mut store = Store::default();
    store.add(many_cards(70_000, today));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    store.save(&path).unwrap();
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 32 << 20, "{size} bytes");
    let opened = Store::open(&path);
    assert_eq!(opened.notice, None);
    assert_eq!(opened.store.cards.len(), 70_000);
    // A store that would outgrow what is read back is not written: the file keeps its
    // cards and the error says why.
    let err = store.save_within(&path, 1 << 20).unwrap_err().to_string();
    assert!(err.contains("70000 cards make a file of"), "{err}");
    assert_eq!(Store::open(&path).store.cards.len(), 70_000);
}

/// "The 3 cards that could be read are kept", then a restart found none: they are saved
/// in the damaged file's place at once, the damaged file kept beside it.
#[test]
fn the_cards_read_from_a_damaged_file_are_saved_at_once() {
    let today = Day::parse("2026-11-27").unwrap();
    let store = sample_store(today);
    let mut file: serde_json::Value = serde_json::from_str(&store.to_json()).unwrap();
    file["cards"].as_array_mut().unwrap()[0]["played"] = "a1".into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    std::fs::write(&path, file.to_string()).unwrap();
    let opened = Store::open(&path);
    let notice = opened.notice.unwrap();
    assert!(notice.contains("saved in its place"), "{notice}");
    // The next start (nothing saved in between) finds the two good cards, no notice.
    let again = Store::open(&path);
    assert_eq!(again.notice, None);
    assert_eq!(again.store.cards, store.cards[1..]);
    assert!(dir.path().join("practice.json.unreadable").exists());
}

/// Two windows on one data folder: the second's save keeps the first's answers and cards.
#[test]
fn a_save_merges_what_another_window_saved() {
    let today = Day::parse("2026-11-27").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    sample_store(today).save(&path).unwrap();
    let (mut first, mut first_stamp) = {
        let o = Store::open(&path);
        (o.store, o.stamp)
    };
    let (mut second, mut second_stamp) = {
        let o = Store::open(&path);
        (o.store, o.stamp)
    };
    // The first answers card 0 and collects a new card, and saves.
    first.answer(0, first.cards[0].played, true, today);
    first.add(vec![card(opening()[3].1, "d3", "d3", 5, today)]);
    first.mark_game("B:first".into());
    // Modification times of a fast file system may tie: the sizes tell the saves apart.
    first.save_merged(&path, &mut first_stamp).unwrap();
    // The second, read before, answers card 1 and saves.
    second.answer(1, second.cards[1].played, false, today);
    second.save_merged(&path, &mut second_stamp).unwrap();
    let on_disk = Store::open(&path).store;
    assert_eq!(on_disk.cards.len(), 4);
    assert_eq!(
        on_disk.cards[0].schedule.right, 1,
        "the first window's answer"
    );
    assert_eq!(
        on_disk.cards[1].schedule.missed, 1,
        "the second window's answer"
    );
    assert!(on_disk.has_game("B:first"));
    // The second window's copy took in the first's too.
    assert_eq!(second, on_disk);
}

/// A FIFO in place of the practice file froze the window that opened it: it is refused
/// unopened, said, and not written over.
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_the_practice_file_is_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(STORE_FILE);
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a path in a fresh folder.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(Store::open(&path)).unwrap());
    let opened = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("still opening after 20 s: blocked on the FIFO");
    assert!(opened.notice.unwrap().contains("not a regular file"));
    assert!(!opened.writable);
}

/// Adding checks duplicates with a set: a store of 100,000 cards is read whole, each
/// position once.
#[test]
fn many_cards_and_their_duplicates_are_told_apart() {
    let today = Day::parse("2026-11-27").unwrap();
    let cards = many_cards(100_000, today);
    let mut store = Store::default();
    assert_eq!(
        store.add(cards[..60_000].to_vec()),
        Added {
            new: 60_000,
            known: 0
        }
    );
    assert_eq!(
        store.add(cards[50_000..].to_vec()),
        Added {
            new: 40_000,
            known: 10_000
        }
    );
    assert_eq!(store.cards, cards);
}

#[test]
fn a_tolerance_the_player_sets_decides_what_counts_as_found() {
    let searched_values = [(sq("c4"), searched(6)), (sq("e3"), searched(4))];
    let proven_values = [(sq("c4"), exact(6)), (sq("e3"), exact(5))];
    // The default: a disc by the search, none by the solver.
    let j = judge(&searched_values, sq("e3"), Tolerance::default()).unwrap();
    assert_eq!((j.right, j.allowed, j.loss()), (false, 1, 2));
    let j = judge(&proven_values, sq("e3"), Tolerance::default()).unwrap();
    assert_eq!((j.right, j.allowed), (false, 0));
    // Two discs by the search, one by the solver: both found.
    let wide = Tolerance {
        searched: 2,
        proven: 1,
    };
    let j = judge(&searched_values, sq("e3"), wide).unwrap();
    assert_eq!((j.right, j.allowed), (true, 2));
    let j = judge(&proven_values, sq("e3"), wide).unwrap();
    assert_eq!((j.right, j.allowed), (true, 1));
    // A figure out of range is taken as the nearest that is not.
    let odd = Tolerance {
        searched: -5,
        proven: 900,
    };
    assert_eq!(
        odd.clamped(),
        Tolerance {
            searched: 0,
            proven: 64
        }
    );
    assert!(!judge(&searched_values, sq("e3"), odd).unwrap().right);
}

#[test]
fn a_missed_card_comes_back_the_same_day_until_it_is_found() {
    let today = Day::parse("2026-11-27").unwrap();
    let mut store = sample_store(today);
    assert_eq!(store.round(today), [1, 0]);
    // Card 1 missed: due tomorrow, and still in today's round.
    let wrong = sq("f4");
    assert_eq!(store.answer(1, wrong, false, today), Some(1));
    assert_eq!(store.due(today), [0]);
    assert_eq!(store.round(today), [0, 1]);
    assert!(store.cards[1].missed_on(today));
    // Missed again, then found: out of today's round, still due tomorrow (a retry does not
    // move the schedule), every answer in its history.
    assert_eq!(store.answer(1, wrong, false, today), Some(1));
    let found = store.cards[1].best;
    assert_eq!(store.answer(1, found, true, today), Some(1));
    assert_eq!(store.round(today), [0]);
    let s = store.cards[1].schedule;
    assert_eq!((s.due, s.right, s.missed), (today.plus(1), 0, 1));
    let history = &store.cards[1].history;
    assert_eq!(
        history
            .iter()
            .map(|a| (a.day, a.played, a.right))
            .collect::<Vec<_>>(),
        [
            (today, wrong, false),
            (today, wrong, false),
            (today, found, true)
        ]
    );
    // Tomorrow it is due as any other card.
    assert_eq!(store.round(today.plus(1)), [0, 1]);
    assert!(!store.cards[1].missed_on(today.plus(1)));
}

#[test]
fn statistics_count_answers_by_phase_and_the_streak() {
    let today = Day::parse("2026-11-27").unwrap();
    let mut store = sample_store(today);
    // An endgame card: FFO-like position with 14 empties (a full board less 14 squares).
    let mut p = Position::start();
    let mut moves = 0;
    while p.empty_count() > 14 {
        let mv = p.legal_moves().iter().next();
        match mv {
            Some(m) => {
                p.play(m).unwrap();
            }
            None => p.force_pass(),
        }
        moves += 1;
        assert!(moves < 100, "the game goes on to 14 empties");
    }
    while p.legal_moves().len() < 2 {
        let m = p.legal_moves().iter().next().unwrap();
        p.play(m).unwrap();
    }
    let moves_here: Vec<Square> = p.legal_moves().iter().collect();
    let mut end = card(p, "a1", "a1", 3, today);
    end.played = moves_here[0];
    end.best = moves_here[1];
    store.add(vec![end]);
    assert_eq!(Phase::of(&store.cards[0].position), Phase::Opening);
    assert_eq!(Phase::of(&store.cards[3].position), Phase::Endgame);
    let before = store.stats(today);
    assert_eq!((before.cards, before.due, before.missed_today), (4, 3, 0));
    assert_eq!(before.phase(Phase::Opening).accuracy(), None);
    // Opening: right, missed, right (a retry); endgame: right, right.
    for (card, right) in [(0, true), (1, false), (1, true), (3, true), (3, true)] {
        let played = store.cards[card].played;
        store.answer(card, played, right, today);
    }
    let stats = store.stats(today);
    assert_eq!(
        stats.phase(Phase::Opening),
        Tally {
            right: 2,
            missed: 1
        }
    );
    assert_eq!(stats.phase(Phase::Opening).accuracy(), Some(2.0 / 3.0));
    assert_eq!(stats.phase(Phase::Midgame).answers(), 0);
    assert_eq!(stats.phase(Phase::Endgame).accuracy(), Some(1.0));
    assert_eq!(
        stats.streak,
        Streak {
            current: 3,
            best: 3
        }
    );
    assert_eq!((stats.due, stats.missed_today), (0, 0));
    store.answer(0, store.cards[0].played, false, today);
    let stats = store.stats(today);
    assert_eq!(
        stats.streak,
        Streak {
            current: 0,
            best: 3
        }
    );
    assert_eq!(stats.missed_today, 1);
}

#[test]
fn history_streak_and_tolerance_survive_the_file_and_version_1_files_read() {
    let today = Day::parse("2026-11-27").unwrap();
    let mut store = sample_store(today);
    store.answer(0, store.cards[0].played, false, today);
    store.answer(0, store.cards[0].best, true, today);
    store.tolerance = Tolerance {
        searched: 2,
        proven: 1,
    };
    let text = store.to_json();
    assert!(text.contains("\"version\": 2"), "{text}");
    assert!(text.contains("\"history\""), "{text}");
    let (read, skipped) = Store::from_json(&text).unwrap();
    assert!(skipped.is_empty());
    assert_eq!(read, store);
    assert_eq!(read.cards[0].history.len(), 2);
    assert_eq!(
        read.streak,
        Streak {
            current: 1,
            best: 1
        }
    );

    // A version 1 file, as Okapi wrote it before answers were kept one by one.
    let v1 = format!(
        r#"{{
  "format": "okapi-practice",
  "version": 1,
  "cards": [
    {{
      "position": "{}",
      "played": "f5",
      "played_value": {{ "value": -3, "source": "exact" }},
      "best": "d3",
      "best_value": {{ "value": 0, "source": "exact" }},
      "player": "Alice",
      "game": "Alice - Bob",
      "ply": 0,
      "due": "2026-11-28",
      "step": 0,
      "right": 2,
      "missed": 1,
      "last_seen": "2026-11-27"
    }}
  ],
  "games": ["B:f5"]
}}"#,
        Position::start().to_board_string()
    );
    let (old, skipped) = Store::from_json(&v1).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    assert_eq!(old.cards.len(), 1);
    let c = &old.cards[0];
    assert!(c.history.is_empty());
    // Its counts stand in for the history it did not keep.
    assert_eq!(
        c.tally(),
        Tally {
            right: 2,
            missed: 1
        }
    );
    assert_eq!(
        (old.streak, old.tolerance),
        (Streak::default(), Tolerance::default())
    );
    assert!(old.has_game("B:f5"));
    // A bad answer in the history is said, with its card and place.
    let bad = text.replacen(
        "\"played\": \"f5\",\n          \"right\"",
        "\"played\": \"a1\",\n          \"right\"",
        1,
    );
    assert_ne!(bad, text, "the history's move was found to damage");
    let (_, skipped) = Store::from_json(&bad).unwrap();
    assert!(
        skipped.len() == 1 && skipped[0].contains("history 1 played"),
        "{skipped:?}"
    );
}
