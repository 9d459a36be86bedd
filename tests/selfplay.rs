//! Self-play stores (`okapi train selfplay`): reproducible, appendable, readable.

use okapi::board::Move;
use okapi::eval::{Evaluator, SCALE};
use okapi::search::{EndgameSolver, SolveMode};
use okapi::shard::Shard;
use okapi::train::selfplay::{
    self, EXACT, MAGIC, PartHeader, SelfPlayOptions, play_game, read_games, read_samples,
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
    let eval = Evaluator::shipped();
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

/// One corrupted record length inside a store: the store is refused with where the
/// damage is, and an append leaves every byte as it was (it used to cut the store there,
/// losing every game after it). A device as a store is refused before it is read.
#[test]
fn a_damaged_record_length_is_refused_and_nothing_is_cut() {
    let eval = Evaluator::shipped();
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.bin");
    selfplay::append(&store, &eval, &tiny(3, 6), &mut |_| {}).unwrap();
    let bytes = std::fs::read(&store).unwrap();
    // The second record's length: after the header and the first record.
    let first_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let at = 8 + 2 + first_len;
    for bad_len in [0xffffu16, 30 + 4 * 250, 2] {
        let mut damaged = bytes.clone();
        damaged[at..at + 2].copy_from_slice(&bad_len.to_le_bytes());
        std::fs::write(&store, &damaged).unwrap();
        let err = format!("{:#}", read_games(&store).unwrap_err());
        assert!(err.contains(&format!("byte {at}")), "{bad_len}: {err}");
        let err = format!(
            "{:#}",
            selfplay::append(&store, &eval, &tiny(3, 1), &mut |_| {}).unwrap_err()
        );
        assert!(err.contains(&format!("byte {at}")), "{bad_len}: {err}");
        assert_eq!(std::fs::read(&store).unwrap(), damaged, "{bad_len}");
    }
    let err = format!(
        "{:#}",
        read_games(std::path::Path::new("/dev/zero")).unwrap_err()
    );
    assert!(err.contains("not a regular file"), "{err}");
}

#[test]
fn reader_round_trips_and_labels_are_searches() {
    let eval = Evaluator::shipped();
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
    let mut solver = EndgameSolver::new(16, Some(okapi::eval::Evaluator::shipped()));
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

/// The header of shard `k` (1-based) of `n` of a run of `games` games from `first`.
fn shard(options: &SelfPlayOptions, first: u32, k: u32, n: u32) -> PartHeader {
    PartHeader {
        options: options.clone(),
        first,
        shard: Shard::new(k as usize - 1, n as usize).unwrap(),
    }
}

fn part_bytes(path: &std::path::Path) -> (String, Vec<u8>) {
    (
        path.file_name().unwrap().to_string_lossy().into_owned(),
        std::fs::read(path).unwrap(),
    )
}

#[test]
fn shards_merged_give_the_bytes_of_the_whole_run() {
    let eval = Evaluator::shipped();
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    // The whole run: 2 games of seed 7, then 5 more (indices 2..7), one store.
    selfplay::append(&p("whole.bin"), &eval, &tiny(7, 2), &mut |_| {}).unwrap();
    std::fs::copy(p("whole.bin"), p("merged.bin")).unwrap();
    selfplay::append(&p("whole.bin"), &eval, &tiny(7, 5), &mut |_| {}).unwrap();

    // The 5 games in 3 shards: indices 3 and 6, 4, 2 and 5 (index modulo 3).
    let run = tiny(7, 5);
    let mut held = Vec::new();
    for k in 1..=3 {
        let part = p(&format!("part{k}.bin"));
        let mut played = Vec::new();
        let n = selfplay::append_shard(&part, &eval, &shard(&run, 2, k, 3), &mut |g| {
            played.push(g.index)
        })
        .unwrap();
        assert_eq!(n, played.len());
        held.push(played);
    }
    assert_eq!(held, [vec![3, 6], vec![4], vec![2, 5]]);
    // Any order of parts.
    let parts: Vec<_> = [3, 1, 2]
        .iter()
        .map(|k| part_bytes(&p(&format!("part{k}.bin"))))
        .collect();
    let merged = selfplay::merge_parts(&p("merged.bin"), &parts).unwrap();
    assert_eq!((merged.added, merged.total), (5, 7));
    assert_eq!(
        std::fs::read(p("merged.bin")).unwrap(),
        std::fs::read(p("whole.bin")).unwrap()
    );
    // From scratch too: a run from game 0 into a store that does not exist yet.
    let run = tiny(9, 2);
    selfplay::append(&p("whole9.bin"), &eval, &run, &mut |_| {}).unwrap();
    let parts: Vec<_> = (1..=2)
        .map(|k| {
            let part = p(&format!("nine{k}.bin"));
            selfplay::append_shard(&part, &eval, &shard(&run, 0, k, 2), &mut |_| {}).unwrap();
            part_bytes(&part)
        })
        .collect();
    selfplay::merge_parts(&p("new/merged9.bin"), &parts).unwrap();
    assert_eq!(
        std::fs::read(p("new/merged9.bin")).unwrap(),
        std::fs::read(p("whole9.bin")).unwrap()
    );
}

#[test]
fn a_killed_shard_goes_on_and_parts_that_do_not_belong_are_refused() {
    let eval = Evaluator::shipped();
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    let run = tiny(5, 4);
    for k in 1..=2 {
        selfplay::append_shard(
            &p(&format!("a{k}.bin")),
            &eval,
            &shard(&run, 0, k, 2),
            &mut |_| {},
        )
        .unwrap();
    }
    let (a1, a2) = (part_bytes(&p("a1.bin")), part_bytes(&p("a2.bin")));

    // Killed while writing its second game: the next call drops the cut record and
    // plays that game again, and only that one.
    std::fs::write(p("killed.bin"), &a1.1[..a1.1.len() - 7]).unwrap();
    let cut = part_bytes(&p("killed.bin"));
    let err = selfplay::merge_parts(&p("s.bin"), &[cut, a2.clone()]).unwrap_err();
    assert!(
        format!("{err:#}").contains("killed.bin: the last record is cut short"),
        "{err:#}"
    );
    let mut played = Vec::new();
    selfplay::append_shard(&p("killed.bin"), &eval, &shard(&run, 0, 1, 2), &mut |g| {
        played.push(g.index)
    })
    .unwrap();
    assert_eq!(played, [2]);
    assert_eq!(std::fs::read(p("killed.bin")).unwrap(), a1.1);
    // A part goes on only with its own run.
    let err = selfplay::append_shard(
        &p("a1.bin"),
        &eval,
        &shard(&tiny(6, 4), 0, 1, 2),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(
        format!("{err:#}").contains("give it another file"),
        "{err:#}"
    );

    let merge_err = |parts: &[(String, Vec<u8>)]| {
        let e = selfplay::merge_parts(&p("never.bin"), parts).unwrap_err();
        assert!(!p("never.bin").exists());
        format!("{e:#}")
    };
    // A shard missing, or twice.
    assert!(merge_err(std::slice::from_ref(&a1)).contains("shard 2/2 is missing"));
    let mut again = a1.clone();
    again.0 = "again.bin".into();
    assert!(
        merge_err(&[a1.clone(), again, a2.clone()])
            .contains("again.bin and a1.bin are both shard 1/2")
    );
    // Another seed, another split, other options, another range of games.
    let other = |name: &str, header: PartHeader| {
        selfplay::append_shard(&p(name), &eval, &header, &mut |_| {}).unwrap();
        part_bytes(&p(name))
    };
    let seed = other("seed.bin", shard(&tiny(6, 4), 0, 2, 2));
    let e = merge_err(&[a1.clone(), seed]);
    assert!(
        e.contains("seed.bin does not belong with a1.bin") && e.contains("of seed 6"),
        "{e}"
    );
    let three = other("three.bin", shard(&run, 0, 2, 3));
    assert!(
        merge_err(&[a1.clone(), three])
            .contains("three.bin does not belong with a1.bin: three.bin is shard 2/3")
    );
    let deeper = other(
        "deep.bin",
        shard(
            &SelfPlayOptions {
                depth: 3,
                ..run.clone()
            },
            0,
            2,
            2,
        ),
    );
    assert!(merge_err(&[a1.clone(), deeper]).contains("(depth 3,"));
    let later = other("later.bin", shard(&run, 1, 2, 2));
    assert!(merge_err(&[a1.clone(), later]).contains("games 1..5 of seed 5"));
    // An unfinished part.
    let mut short = a2.clone();
    let one_game = selfplay::read_part(&short.1).unwrap().1[1].clone();
    let mut record = Vec::new();
    one_game.encode(&mut record);
    short.1.truncate(short.1.len() - record.len());
    let e = merge_err(&[a1.clone(), short]);
    assert!(
        e.contains("a2.bin: shard 2/2 holds 1 of the 2 games of its share"),
        "{e}"
    );
    // Not a part at all: a store.
    selfplay::append(&p("store.bin"), &eval, &tiny(5, 1), &mut |_| {}).unwrap();
    let store = part_bytes(&p("store.bin"));
    assert!(
        merge_err(&[store.clone(), a2.clone()]).contains("store.bin: not a self-play shard part")
    );
    // The store already has game 0 of seed 5: a run from game 0 does not continue it.
    let e = selfplay::merge_parts(&p("store.bin"), &[a1.clone(), a2.clone()]).unwrap_err();
    let e = format!("{e:#}");
    assert!(
        e.contains("store.bin has games of seed 5 up to game 0") && e.contains("--first 1"),
        "{e}"
    );
    assert_eq!(std::fs::read(p("store.bin")).unwrap(), store.1);
    assert!(selfplay::merge_parts(&p("fine.bin"), &[a2, a1]).is_ok());
}

#[test]
fn sharded_runs_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let okapi = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_okapi"))
            .args(args)
            .output()
            .expect("okapi runs")
    };
    let quick = [
        "--seed",
        "3",
        "--games",
        "3",
        "--depth",
        "1",
        "--exact",
        "6",
        "--hash-bits",
        "12",
    ];
    let run = |store: &str, extra: &[&str]| {
        let mut args = vec!["train", "selfplay", "--store", store];
        args.extend_from_slice(&quick);
        args.extend_from_slice(extra);
        let r = okapi(&args);
        assert!(r.status.success(), "{r:?}");
        String::from_utf8_lossy(&r.stdout).into_owned()
    };
    run(&p("whole.bin"), &[]);
    let said = run(&p("b.part"), &["--shard", "2/2"]);
    assert!(
        said.contains("shard 2/2 of games 0..3 of seed 3: 1 games"),
        "{said}"
    );
    run(&p("a.part"), &["--shard", "1/2"]);
    let r = okapi(&[
        "train",
        "merge-stores",
        "--store",
        &p("merged.bin"),
        &p("b.part"),
        &p("a.part"),
    ]);
    assert!(r.status.success(), "{r:?}");
    assert!(String::from_utf8_lossy(&r.stdout).contains("3 games added from 2 parts, 3 games"));
    assert_eq!(
        std::fs::read(p("merged.bin")).unwrap(),
        std::fs::read(p("whole.bin")).unwrap()
    );
    // Merged again, the same parts do not continue the store: refused, the store kept.
    let r = okapi(&[
        "train",
        "merge-stores",
        "--store",
        &p("merged.bin"),
        &p("a.part"),
        &p("b.part"),
    ]);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    assert!(String::from_utf8_lossy(&r.stderr).contains("give the shards --first 3"));
    assert_eq!(
        std::fs::read(p("merged.bin")).unwrap(),
        std::fs::read(p("whole.bin")).unwrap()
    );
    // A store that is one of the parts: refused, the part kept.
    let part = std::fs::read(p("a.part")).unwrap();
    let r = okapi(&[
        "train",
        "merge-stores",
        "--store",
        &p("a.part"),
        &p("a.part"),
        &p("b.part"),
    ]);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    assert!(String::from_utf8_lossy(&r.stderr).contains("is the shard output"));
    assert_eq!(std::fs::read(p("a.part")).unwrap(), part);
    // --first belongs to --shard; a shard must exist.
    let r = okapi(&["train", "selfplay", "--store", &p("x.bin"), "--first", "3"]);
    assert_eq!(r.status.code(), Some(2));
    let r = okapi(&[
        "train",
        "selfplay",
        "--store",
        &p("x.bin"),
        "--shard",
        "0/2",
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("shards are numbered from 1 to 2"));
}
