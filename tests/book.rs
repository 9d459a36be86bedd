//! The opening book: built from the repository's sample records (nothing outside it needed),
//! its lookups under symmetry, its negamax, its file format, and its use by `okapi book`
//! and `okapi nboard`.

mod common;
use common::process::run_nboard;

use okapi::board::symmetry::{Symmetry, transform};
use okapi::board::{BitBoard, Board, Position, Square};
use okapi::book::build::{BuildOptions, build};
use okapi::book::{Book, BookSource, child};
use okapi::eval::Evaluator;
use okapi::formats::records::GameRecord;
use okapi::search::{Limits, MidgameSearch, SCALE};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

const DEPTH: u32 = 4;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn sample_games() -> Vec<GameRecord> {
    let mut games = Vec::new();
    for f in [
        "wthor-2018-sample.wtb",
        "wthor-2024-sample.pgn",
        "logbook-sample.gam",
    ] {
        games.extend(okapi::formats::records::read_file(&data(f)).unwrap().games);
    }
    games
}

fn options() -> BuildOptions {
    BuildOptions {
        max_ply: 14,
        min_games: 2,
        depth: DEPTH,
        // Full width: the values can be checked against an independent search exactly.
        selectivity: 5,
        // No deeper re-searches: every value is a depth-DEPTH one.
        check_games: u32::MAX,
        hash_bits: 16,
        ..BuildOptions::default()
    }
}

/// The sample book, built once for all tests.
fn sample_book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        let games = sample_games();
        let eval = Evaluator::shipped();
        build(&games, &options(), &eval, &mut |_, _| {}).0
    })
}

fn transformed(b: &Board, s: Symmetry) -> Board {
    Board::new(transform(b.player, s), transform(b.opponent, s))
}

#[test]
fn the_sample_book_has_the_openings_of_the_sample_games() {
    let book = sample_book();
    let games = sample_games();
    assert!(book.len() > 20, "{} positions", book.len());
    let (start, _) = book.probe(&Board::START).expect("the start is in the book");
    assert_eq!(start.games as usize, games.len());
    // The position after the first move of every game is in the book: the four first
    // moves are one position up to symmetry.
    for g in &games {
        let pos = g.positions();
        assert!(book.probe(&pos[1].board).is_some());
    }
    // Each entry's count is the number of games through it, in any orientation.
    for e in book.entries().iter().take(50) {
        let through = games
            .iter()
            .filter(|g| {
                g.positions().iter().any(|p| {
                    Symmetry::ALL
                        .iter()
                        .any(|&s| transformed(&p.board, s) == e.board())
                })
            })
            .count();
        assert_eq!(e.games as usize, through);
        assert!(e.games >= 2);
        assert!(60 - e.board().empty_count() <= 14);
    }
}

#[test]
fn lookups_agree_in_every_orientation() {
    let book = sample_book();
    for e in book.entries() {
        let b = e.board();
        let moves = book.moves(&b);
        assert!(!moves.is_empty());
        for s in Symmetry::ALL {
            let t = transformed(&b, s);
            let (te, _) = book.probe(&t).expect("a symmetric position is in the book");
            assert_eq!(te, e);
            let mut expected: Vec<(u32, i32)> = moves
                .iter()
                .map(|m| (s.square(m.square.index()), m.value))
                .collect();
            let mut got: Vec<(u32, i32)> = book
                .moves(&t)
                .iter()
                .map(|m| (m.square.index(), m.value))
                .collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{s:?}");
            // and every move named is legal there
            assert!(got.iter().all(|&(sq, _)| t.moves() >> sq & 1 == 1));
        }
    }
}

#[test]
fn each_value_is_the_negamax_of_its_children_and_alternative() {
    let book = sample_book();
    let mut interior = 0;
    for e in book.entries() {
        let b = e.board();
        let mut best = e.alt.map(|a| a.value as i32);
        let mut children = 0;
        for sq in BitBoard(b.moves()) {
            let (next, sign) = child(&b, sq.index()).unwrap();
            if let Some((c, _)) = book.probe(&next) {
                children += 1;
                let v = sign * c.value as i32;
                best = Some(best.map_or(v, |x| x.max(v)));
            }
        }
        if children > 0 {
            interior += 1;
        }
        assert_eq!(Some(e.value as i32), best, "{b:?}");
        assert_eq!(book.moves(&b)[0].value, e.value as i32);
        // The alternative leaves the book.
        if let Some(a) = e.alt {
            let (next, _) = child(&b, a.square as u32).expect("a legal alternative");
            assert!(book.probe(&next).is_none());
            assert_eq!(a.source, BookSource::Search { depth: DEPTH as u8 });
        }
    }
    assert!(interior > 5, "the book has a tree, not only leaves");
}

#[test]
fn leaves_hold_the_value_an_independent_search_gives() {
    let book = sample_book();
    let eval = Evaluator::shipped();
    let mut leaves = 0;
    for e in book.entries() {
        let b = e.board();
        let is_leaf = BitBoard(b.moves())
            .iter()
            .all(|sq| book.probe(&child(&b, sq.index()).unwrap().0).is_none());
        if !is_leaf {
            continue;
        }
        leaves += 1;
        let mut search = MidgameSearch::new(&eval, 16, Arc::new(AtomicBool::new(false)));
        let v = search.value(b, Limits::depth(DEPTH)).unwrap();
        assert_eq!(e.value as i32, v, "{b:?}");
        if leaves >= 15 {
            break;
        }
    }
    assert!(leaves >= 5);
}

#[test]
fn choice_never_leaves_the_window() {
    let book = sample_book();
    let mut x = 0u64;
    let mut uniform = move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    for e in book.entries() {
        let b = e.board();
        for randomness in [0.0, 2.0] {
            let m = book.choose(&b, randomness, &mut uniform).unwrap();
            assert!(b.moves() & m.square.bit() != 0);
            assert!(
                (e.value as i32 - m.value) as f64 <= randomness * SCALE as f64,
                "{m:?} from {}",
                e.value
            );
        }
    }
    // Out of the book there is no choice.
    let far = Board::new(0xFF, 0xFF00);
    assert!(book.choose(&far, 2.0, &mut uniform).is_none());
}

#[test]
fn the_file_round_trips_and_corruption_is_refused() {
    let book = sample_book();
    let bytes = book.to_bytes();
    assert_eq!(&Book::from_bytes(&bytes).unwrap(), book);
    assert_eq!(book.info().depth, DEPTH as u16);
    assert_eq!(book.info().min_games, 2);
    // Any flipped byte is refused, never read as another book.
    for i in [0, 9, 20, 40, bytes.len() / 2, bytes.len() - 3] {
        let mut bad = bytes.clone();
        bad[i] ^= 0x10;
        assert!(Book::from_bytes(&bad).is_err(), "byte {i}");
    }
    assert!(Book::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    assert!(Book::from_bytes(&[]).is_err());
}

fn okapi(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(args)
        .output()
        .expect("okapi runs")
}

/// A path named `name` in `dir`, a directory removed when the test ends, passed or not.
fn temp(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

#[test]
fn build_and_show_on_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = temp(&tmp, "cli.book");
    let wtb = data("wthor-2018-sample.wtb");
    let gam = data("logbook-sample.gam");
    let r = okapi(&[
        "book",
        "build",
        "--games",
        wtb.to_str().unwrap(),
        "--games",
        gam.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--max-ply",
        "10",
        "--min-games",
        "3",
        "--depth",
        "2",
        "--quiet",
    ]);
    assert!(r.status.success(), "{r:?}");
    let report = String::from_utf8_lossy(&r.stdout);
    assert!(report.contains("100 games"), "{report}");
    let book = Book::load(&out).unwrap();
    assert!(!book.is_empty());
    assert_eq!(book.info().max_ply, 10);

    let r = okapi(&["book", "show", "--book", out.to_str().unwrap(), "f5"]);
    assert!(r.status.success(), "{r:?}");
    let text = String::from_utf8_lossy(&r.stdout);
    let mut p = Position::start();
    p.play(Square::parse("f5").unwrap()).unwrap();
    let moves = book.moves(&p.board());
    assert!(text.starts_with("White to move:"), "{text}");
    for m in &moves {
        assert!(
            text.contains(&format!("{}  {:+6.2}", m.square, m.discs())),
            "{text}"
        );
    }
    let r = okapi(&["book", "stats", "--book", out.to_str().unwrap()]);
    assert!(r.status.success(), "{r:?}");
    assert!(String::from_utf8_lossy(&r.stdout).contains(&format!("{} positions", book.len())));

    // A corrupt file is refused with the reason, and a bad record file too.
    let mut bytes = std::fs::read(&out).unwrap();
    let n = bytes.len();
    bytes[n - 2] ^= 0xFF;
    let bad = temp(&tmp, "corrupt.book");
    std::fs::write(&bad, &bytes).unwrap();
    let r = okapi(&["book", "show", "--book", bad.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("corrupt"), "{err}");
    let r = okapi(&["book", "show", "--book", wtb.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("not an Okapi book"));
    let r = okapi(&[
        "book",
        "build",
        "--games",
        bad.to_str().unwrap(),
        "--out",
        temp(&tmp, "never.book").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("unknown record format"));
    let r = okapi(&["book", "show", "f5a1"]);
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn a_sharded_build_merges_into_the_whole_build() {
    let tmp = tempfile::tempdir().unwrap();
    let (wtb, pgn, gam) = (
        data("wthor-2018-sample.wtb"),
        data("wthor-2024-sample.pgn"),
        data("logbook-sample.gam"),
    );
    let build = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "book",
            "build",
            "--games",
            wtb.to_str().unwrap(),
            "--games",
            pgn.to_str().unwrap(),
            "--games",
            gam.to_str().unwrap(),
            "--max-ply",
            "12",
            "--min-games",
            "2",
            "--depth",
            "3",
            "--block",
            "4",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let r = okapi(&args);
        assert!(r.status.success(), "{r:?}");
        String::from_utf8_lossy(&r.stdout).into_owned()
    };
    let whole = temp(&tmp, "whole.book");
    build(&whole, &[]);
    let parts: Vec<PathBuf> = (1..=3).map(|k| temp(&tmp, &format!("part{k}"))).collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let said = build(part, &["--shard", &shard]);
        assert!(said.starts_with(&format!("shard {shard}: ")), "{said}");
    }
    let merge = |out: &Path, parts: &[&PathBuf]| {
        let mut args = vec!["book", "merge", "--out", out.to_str().unwrap()];
        args.extend(parts.iter().map(|p| p.to_str().unwrap()));
        okapi(&args)
    };
    let merged = temp(&tmp, "merged.book");
    let r = merge(&merged, &[&parts[2], &parts[0], &parts[1]]);
    assert!(r.status.success(), "{r:?}");
    let whole_bytes = std::fs::read(&whole).unwrap();
    assert_eq!(std::fs::read(&merged).unwrap(), whole_bytes);
    let book = Book::load(&merged).unwrap();
    assert!(book.len() > 20 && book.info().depth == 3);

    // A shard missing, or twice, or of another build: refused, naming the file.
    let never = temp(&tmp, "never.book");
    let refused = |parts: &[&PathBuf]| {
        let r = merge(&never, parts);
        assert_eq!(r.status.code(), Some(2), "{r:?}");
        assert!(!never.exists());
        String::from_utf8_lossy(&r.stderr).into_owned()
    };
    assert!(refused(&[&parts[0], &parts[1]]).contains("shard 3/3 is missing"));
    let e = refused(&[&parts[0], &parts[1], &parts[1]]);
    assert!(
        e.contains("part2") && e.contains("are both shard 2/3"),
        "{e}"
    );
    let deeper = temp(&tmp, "deeper");
    build(&deeper, &["--shard", "3/3", "--selectivity", "4"]);
    let e = refused(&[&parts[0], &parts[1], &deeper]);
    assert!(
        e.contains("deeper does not belong with") && e.contains("other build options"),
        "{e}"
    );
    let four = temp(&tmp, "four");
    build(&four, &["--shard", "3/4"]);
    let e = refused(&[&parts[0], &parts[1], &four]);
    assert!(
        e.contains("four does not belong with") && e.contains("shard 3/4"),
        "{e}"
    );
    let e = refused(&[&parts[0], &parts[1], &whole]);
    assert!(
        e.contains("whole.book") && e.contains("not a book shard part"),
        "{e}"
    );
    // The output is one of the parts: refused before anything is read, the part kept.
    let part3 = std::fs::read(&parts[2]).unwrap();
    let r = merge(&parts[2], &[&parts[0], &parts[1], &parts[2]]);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    assert!(String::from_utf8_lossy(&r.stderr).contains("is the shard output"));
    assert_eq!(std::fs::read(&parts[2]).unwrap(), part3);
    let r = okapi(&[
        "book",
        "build",
        "--games",
        wtb.to_str().unwrap(),
        "--shard",
        "1/2",
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("give it --out FILE"));
    let r = okapi(&[
        "book",
        "build",
        "--games",
        wtb.to_str().unwrap(),
        "--shard",
        "3/2",
    ]);
    assert_eq!(r.status.code(), Some(2));
}

/// Runs `okapi nboard ARGS` on `input` and returns standard output.
fn nboard(args: &[&str], input: &str) -> String {
    let (status, out, err) = run_nboard(args, input);
    assert!(status.success(), "{out} {err}");
    assert!(err.is_empty(), "{err}");
    out
}

#[test]
fn nboard_hint_and_go_use_the_shipped_book() {
    let shipped = okapi::book::shipped();
    let game = "(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)";
    let mut p = Position::start();
    p.play(Square::parse("f5").unwrap()).unwrap();
    let moves = shipped.moves(&p.board());
    assert!(moves.len() >= 2, "the shipped book knows the answers to f5");
    let out = nboard(
        &[],
        &format!("nboard 2\nset depth 4\nset game {game}\nhint 2\ngo\n"),
    );
    let book: Vec<&str> = out.lines().filter(|l| l.starts_with("book ")).collect();
    // hint 2: the two best book moves; go: one more book line for the move it plays.
    assert_eq!(book.len(), 3, "{out}");
    for (line, m) in book[..2].iter().zip(&moves) {
        let w: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(w.len(), 5, "{line}");
        assert_eq!(w[1], m.square.to_string().to_uppercase(), "{line}");
        assert_eq!(w[2], format!("{:.2}", m.discs()), "{line}");
        assert_eq!(w[3], m.games.to_string(), "{line}");
    }
    assert!(!out.lines().any(|l| l.starts_with("search ")), "{out}");
    let played = out
        .lines()
        .find_map(|l| l.strip_prefix("=== "))
        .expect("go answers");
    // the best book move (or one as good)
    let square = Square::parse(&played[..2]).unwrap();
    let chosen = moves
        .iter()
        .find(|m| m.square == square)
        .expect("a book move");
    assert_eq!(chosen.value, moves[0].value, "{played}");
    assert!(
        book[2].starts_with(&format!("book {} ", &played[..2])),
        "{out}"
    );
    // Without the book the same commands search.
    let out = nboard(
        &["--no-book"],
        &format!("nboard 2\nset depth 2\nset game {game}\nhint 2\n"),
    );
    assert!(!out.lines().any(|l| l.starts_with("book ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("search ")), "{out}");
}

#[test]
fn match_with_book_follows_the_book_while_it_can() {
    let tmp = tempfile::tempdir().unwrap();
    let save = temp(&tmp, "match.ggf");
    let openings = temp(&tmp, "openings.txt");
    std::fs::write(&openings, "f5\n").unwrap();
    let r = okapi(&[
        "match",
        "--a",
        "1",
        "--b",
        "1",
        "--book",
        "--openings",
        openings.to_str().unwrap(),
        "--games",
        "2",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{r:?}");
    let text = std::fs::read_to_string(&save).unwrap();
    let shipped = okapi::book::shipped();
    for record in text.lines().filter(|l| l.starts_with("(;")) {
        let game = okapi::formats::ggf::read(record).unwrap();
        let mut p = game.start();
        let mut in_book = 0;
        for &mv in &game.moves() {
            let moves = shipped.moves(&p.board());
            if moves.is_empty() {
                break;
            }
            let okapi::board::Move::Play(sq) = mv else {
                panic!("a pass in the book")
            };
            let m = moves.iter().find(|m| m.square == sq).expect("a book move");
            assert_eq!(m.value, moves[0].value, "randomness 0 plays the best");
            in_book += 1;
            p.play_move(mv).unwrap();
        }
        assert!(in_book >= 10, "{in_book} book moves in {record}");
    }
}
