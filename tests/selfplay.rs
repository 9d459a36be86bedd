//! Self-play stores (`okapi train selfplay`): reproducible, appendable, readable.

use okapi::board::Move;
use okapi::eval::{Evaluator, SCALE};
use okapi::search::{EndgameSolver, SolveMode};
use okapi::train::selfplay::{
    self, EXACT, MAGIC, SelfPlayOptions, play_game, read_games, read_samples,
};

/// Tiny games: shallow searches, exact from 10 empties.
fn tiny(seed: u64, games: u32) -> SelfPlayOptions {
    SelfPlayOptions {
        seed,
        games,
        random_plies: (8, 12),
        depth: 2,
        exact_empties: 10,
        temperature: 1.0,
        hash_bits: 14,
    }
}

#[test]
fn same_seed_same_bytes_and_append_grows_the_store() {
    let eval = Evaluator::embedded();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.bin"), dir.path().join("sub/b.bin"));
    assert_eq!(
        selfplay::append(&a, &eval, &tiny(7, 2), &mut |_| {}).unwrap(),
        2
    );
    assert_eq!(
        selfplay::append(&b, &eval, &tiny(7, 2), &mut |_| {}).unwrap(),
        2
    );
    let bytes = std::fs::read(&a).unwrap();
    assert_eq!(bytes, std::fs::read(&b).unwrap());
    assert_eq!(&bytes[..8], MAGIC);

    // Another seed appends; the same seed again continues with its next games.
    assert_eq!(
        selfplay::append(&a, &eval, &tiny(8, 1), &mut |_| {}).unwrap(),
        3
    );
    assert_eq!(
        selfplay::append(&a, &eval, &tiny(7, 1), &mut |_| {}).unwrap(),
        4
    );
    let grown = std::fs::read(&a).unwrap();
    assert_eq!(&grown[..bytes.len()], &bytes[..]);
    let games = read_games(&a).unwrap();
    let ids: Vec<(u64, u32)> = games.iter().map(|g| (g.seed, g.index)).collect();
    assert_eq!(ids, [(7, 0), (7, 1), (8, 0), (7, 2)]);
    assert_ne!(games[0].moves, games[1].moves);
    // Game i of a seed depends on nothing else.
    assert_eq!(games[3], play_game(&eval, &tiny(7, 1), 2));

    // A record cut short is refused by the reader, dropped by the next append.
    std::fs::write(&b, &grown[..grown.len() - 5]).unwrap();
    assert!(read_games(&b).is_err());
    assert_eq!(
        selfplay::append(&b, &eval, &tiny(7, 1), &mut |_| {}).unwrap(),
        4
    );
    assert_eq!(read_games(&b).unwrap(), games);
    assert_eq!(std::fs::read(&b).unwrap(), grown);
    // Not a store at all.
    std::fs::write(&b, b"something else").unwrap();
    assert!(read_games(&b).is_err());
    assert!(selfplay::append(&b, &eval, &tiny(7, 1), &mut |_| {}).is_err());
}

#[test]
fn reader_round_trips_and_labels_are_searches() {
    let eval = Evaluator::embedded();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.bin");
    let options = tiny(3, 2);
    selfplay::append(&path, &eval, &options, &mut |_| {}).unwrap();
    let games = read_games(&path).unwrap();
    assert_eq!(
        games,
        [play_game(&eval, &options, 0), play_game(&eval, &options, 1)]
    );
    let samples = read_samples(&path).unwrap();
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    assert_eq!(samples.len(), moves + games.len());
    let mut solver = EndgameSolver::new(16);
    for g in &games {
        let positions = g.positions().unwrap();
        assert_eq!(positions.len(), g.moves.len());
        for (i, (board, label)) in positions.iter().enumerate() {
            assert!(!board.is_game_over());
            if board.empty_count() <= options.exact_empties {
                assert_eq!(label.depth, EXACT);
                let s = solver.solve(*board, SolveMode::Exact, false).unwrap();
                assert_eq!(
                    label.value as i32,
                    s.score * SCALE,
                    "game {} ply {i}",
                    g.index
                );
                // Perfect play from there: the move keeps the value.
                if let Move::Play(sq) = g.moves[i] {
                    let child = board.play(sq.index()).unwrap();
                    let c = solver.solve(child, SolveMode::Exact, false).unwrap();
                    assert_eq!(-c.score, s.score);
                }
            } else {
                assert_eq!(label.depth as u32, options.depth);
            }
        }
        // The last sample of a game is its end, labelled by its final score.
        let end = samples.iter().find(|s| {
            s.board.is_game_over() && s.label.value as i32 == s.board.final_score() * SCALE
        });
        assert!(end.is_some());
    }
}
