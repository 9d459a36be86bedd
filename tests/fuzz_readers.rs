//! Every reader fuzzed: random bytes, random text from each format's own alphabet, and
//! valid files with random edits (bytes inserted, deleted, replaced, ranges duplicated,
//! format tokens inserted). No input may panic or take long; what a reader accepts, its
//! writer must write again and the reader read back.
//!
//! The number of inputs per reader comes from `OKAPI_FUZZ_CASES` (default 5000: the whole
//! file in a few seconds). The long run, printing how many inputs each reader took:
//!
//! ```text
//! OKAPI_FUZZ_CASES=1000000 cargo test --release --test fuzz_readers -- --nocapture --test-threads 1
//! ```
//!
//! An input that finds a bug is written to `target/fuzz-found/<reader>/`; copied to
//! `tests/data/fuzz-regressions/<reader>/`, it is replayed by `regressions_replay`.

mod common;

use common::{Rng, random_game};
use okapi::board::{Move, Position, Square};
use okapi::db::{Builder, Database, Filter, GameNames};
use okapi::formats::records::{GameRecord, logbook, pgn, wthor};
use okapi::formats::{ggf, obf, okapi_json, read_game, script, transcript};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The longest any reader may take on one input (inputs are at most a few kB).
const TIME_LIMIT: Duration = Duration::from_secs(2);

fn cases() -> u32 {
    std::env::var("OKAPI_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000)
}

#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, u8),
    Delete(usize, usize),
    Replace(usize, u8),
    Duplicate(usize, usize),
    Token(usize, usize),
    Truncate(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Edit::Insert(a, b)),
        (any::<usize>(), 1usize..20).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Edit::Replace(a, b)),
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Edit::Duplicate(a, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, t)| Edit::Token(a, t)),
        any::<usize>().prop_map(Edit::Truncate),
    ]
}

/// `bytes` with the edits applied; `tokens` are the format's own words.
fn mutate(mut bytes: Vec<u8>, edits: &[Edit], tokens: &[&str]) -> Vec<u8> {
    for e in edits {
        let len = bytes.len();
        let at = |i: usize| if len == 0 { 0 } else { i % (len + 1) };
        match *e {
            Edit::Insert(i, b) => bytes.insert(at(i), b),
            Edit::Delete(i, n) => {
                let a = at(i).min(len);
                let b = (a + n).min(len);
                bytes.drain(a..b);
            }
            Edit::Replace(i, b) => {
                if len > 0 {
                    bytes[i % len] = b;
                }
            }
            Edit::Duplicate(i, n) => {
                let a = at(i).min(len);
                let b = (a + n).min(len);
                let copy = bytes[a..b].to_vec();
                bytes.splice(a..a, copy);
            }
            Edit::Token(i, t) => {
                let tok = tokens[t % tokens.len()].as_bytes();
                let a = at(i);
                bytes.splice(a..a, tok.iter().copied());
            }
            Edit::Truncate(i) => bytes.truncate(at(i)),
        }
    }
    bytes
}

/// Inputs for a reader: random bytes, random text from `alphabet`, and valid files
/// (`valid(seed)`) with 1 to 8 edits.
fn inputs(
    alphabet: &'static str,
    tokens: &'static [&'static str],
    valid: fn(u64) -> Vec<u8>,
) -> impl Strategy<Value = Vec<u8>> {
    let chars: Vec<char> = alphabet.chars().collect();
    prop_oneof![
        1 => proptest::collection::vec(any::<u8>(), 0..300),
        2 => proptest::collection::vec(proptest::sample::select(chars), 0..300)
            .prop_map(|cs| cs.into_iter().collect::<String>().into_bytes()),
        1 => any::<u64>().prop_map(valid),
        6 => (any::<u64>(), proptest::collection::vec(edit(), 1..8))
            .prop_map(move |(seed, edits)| mutate(valid(seed), &edits, tokens)),
    ]
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

// --- What each reader must do with an input ----------------------------------------

/// A game as read holds no proof its own moves refute (a value "exact +64" where the
/// game ends otherwise): the readers drop those, and the engine proves anew.
fn no_refuted_proof(game: &okapi::game::Game) -> Result<(), String> {
    match game.clone().drop_refuted_proofs() {
        0 => Ok(()),
        n => Err(format!("{n} proofs the game's own moves refute were read")),
    }
}

fn check_ggf(bytes: &[u8]) -> Result<(), String> {
    let t = text(bytes);
    if let Ok(r) = ggf::read_record(&t) {
        no_refuted_proof(&r.game)?;
        let again = ggf::write_record(&r);
        let back =
            ggf::read_record(&again).map_err(|e| format!("own output refused: {e}\n{again}"))?;
        if back.game.main_line() != r.game.main_line() || back.game.black != r.game.black {
            return Err(format!("own output read differently:\n{again}"));
        }
    }
    Ok(())
}

fn check_json(bytes: &[u8]) -> Result<(), String> {
    let t = text(bytes);
    if let Ok(g) = okapi_json::read(&t) {
        no_refuted_proof(&g)?;
        let again = okapi_json::write(&g);
        let back =
            okapi_json::read(&again).map_err(|e| format!("own output refused: {e}\n{again}"))?;
        if okapi_json::write(&back) != again {
            return Err(format!("own output read differently:\n{again}"));
        }
    }
    let _ = read_game(&t);
    Ok(())
}

fn check_transcript(bytes: &[u8]) -> Result<(), String> {
    let t = text(bytes);
    if let Ok(g) = transcript::read(&t) {
        let again = transcript::write(&g);
        let back =
            transcript::read(&again).map_err(|e| format!("own output refused: {e}: {again}"))?;
        if back.moves() != g.moves() {
            return Err(format!("own output read differently: {again}"));
        }
    }
    Ok(())
}

fn check_board(bytes: &[u8]) -> Result<(), String> {
    if let Ok(p) = Position::parse(&text(bytes))
        && Position::parse(&p.to_board_string()) != Ok(p)
    {
        return Err("own output read differently".into());
    }
    Ok(())
}

fn check_obf(bytes: &[u8]) -> Result<(), String> {
    if let Ok(entries) = obf::parse_file(bytes) {
        for (_, e) in entries {
            let _ = (e.best_score(), e.best_moves());
        }
    }
    Ok(())
}

fn check_script(bytes: &[u8]) -> Result<(), String> {
    for line in script::parse_script(bytes) {
        let _ = script::output_line(&line, None);
        if let Ok(script::ScriptLine::Position { position, .. }) = &line.parsed {
            let outcome = script::Outcome::exact(position.side_to_move(), 0);
            let _ = script::output_line(&line, Some((outcome, Some(&[]))));
        }
    }
    let _ = script::parse_result(&text(bytes));
    Ok(())
}

fn check_wthor(bytes: &[u8]) -> Result<(), String> {
    if let Ok((_, set)) = wthor::parse(bytes) {
        for g in &set.games {
            let _ = (g.positions(), g.final_black_white(), g.is_complete());
        }
    }
    Ok(())
}

fn check_wthor_names(bytes: &[u8]) -> Result<(), String> {
    for len in [wthor::PLAYER_NAME_LEN, wthor::TOURNAMENT_NAME_LEN] {
        if let Ok(names) = wthor::parse_names(bytes, len) {
            let again = wthor::parse_names(&wthor::write_names(&names, len), len)
                .map_err(|e| format!("a written name file does not read back: {e}"))?;
            if again.len() != names.len() {
                return Err("name count changed on a round trip".into());
            }
        }
    }
    let _ = wthor::parse_games(bytes);
    Ok(())
}

/// The `.okdb` reader, twice: the input as a file (the checksum refuses nearly every edit),
/// and the input's payload sealed again under its (edited) header, so that edits reach the
/// column reader and the index builder.
fn check_okdb(bytes: &[u8]) -> Result<(), String> {
    let use_db = |db: Database| {
        let _ = db.query(&Position::start(), &Filter::default());
        for id in 0..db.len().min(3) {
            let g = *db.game(id);
            let _ = (
                db.player(g.black),
                db.tournament(g.tournament),
                db.squares(id),
            );
        }
    };
    if let Ok(db) = Database::from_bytes(bytes) {
        use_db(db);
    }
    if bytes.len() >= 36 {
        let raw = &bytes[36..];
        let mut header = bytes[..36].to_vec();
        header[28..32].copy_from_slice(&(raw.len() as u32).to_le_bytes());
        let file = okapi_core::binary::seal(raw, |len| {
            header[32..36].copy_from_slice(&len.to_le_bytes());
            header.clone()
        });
        if let Ok(db) = Database::from_bytes(&file) {
            let again = Database::from_bytes(&db.to_bytes())
                .map_err(|e| format!("a written database does not read back: {e}"))?;
            if again.len() != db.len() {
                return Err("game count changed on a round trip".into());
            }
            use_db(db);
        }
    }
    Ok(())
}

fn check_pgn(bytes: &[u8]) -> Result<(), String> {
    let _ = pgn::parse_games(&text(bytes));
    let set = pgn::parse(&text(bytes));
    for g in &set.games {
        let _ = g.positions();
    }
    for s in &set.skipped {
        let _ = s.to_string();
    }
    Ok(())
}

fn check_logbook(bytes: &[u8]) -> Result<(), String> {
    for line in text(bytes).lines() {
        if let Ok(g) = logbook::parse_line(line) {
            let _ = g.positions();
        }
    }
    let _ = logbook::parse(bytes);
    Ok(())
}

// --- Valid files ---------------------------------------------------------------------

fn valid_ggf(seed: u64) -> Vec<u8> {
    let g = random_game(seed);
    let mut text = ggf::write(&g);
    if seed.is_multiple_of(3) {
        // per-move evals and times, unknown properties, lowercase names
        text = text.replace("B[", "b[").replacen("]W[", "/1.5/2.25]W[", 1) + "ZZ[x]";
    }
    text.into_bytes()
}

fn valid_json(seed: u64) -> Vec<u8> {
    okapi_json::write(&random_game(seed)).into_bytes()
}

fn valid_transcript(seed: u64) -> Vec<u8> {
    let mut g = okapi::game::Game::new(Position::start());
    let mut rng = Rng(seed);
    let n = rng.below(70);
    common::play_random(&mut g, &mut rng, n);
    let mut t = transcript::write(&g);
    if seed.is_multiple_of(2) {
        t = t
            .as_bytes()
            .chunks(2)
            .enumerate()
            .map(|(i, c)| format!("{}. {} ", i + 1, String::from_utf8_lossy(c).to_uppercase()))
            .collect();
    }
    t.into_bytes()
}

fn valid_board(seed: u64) -> Vec<u8> {
    common::random_position(&mut Rng(seed))
        .to_board_string()
        .into_bytes()
}

fn valid_obf(seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut out = String::from("% positions\n");
    for _ in 0..1 + rng.below(3) {
        let p = common::random_position(&mut rng);
        out += &p.to_board_string();
        out += ";";
        for sq in p.legal_moves().iter() {
            out += &format!(
                " {}:{:+};",
                sq.to_string().to_uppercase(),
                rng.below(129) as i32 - 64
            );
        }
        out += "\n";
    }
    out.into_bytes()
}

fn valid_script(seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut out = String::from("% a script\n");
    for i in 0..1 + rng.below(3) {
        let p = common::random_position(&mut rng);
        out += &format!("{} % position {i}\n", p.to_board_string());
    }
    if seed.is_multiple_of(2) {
        out += script::END_MARKER;
        out += "\n63 -  1    b4 a5 -- h5      % a result\n";
    }
    out.into_bytes()
}

fn record(seed: u64) -> GameRecord {
    let mut g = okapi::game::Game::new(Position::start());
    let mut rng = Rng(seed);
    let n = 60;
    common::play_random(&mut g, &mut rng, n);
    let moves: Vec<Square> = g.moves().into_iter().filter_map(Move::square).collect();
    GameRecord {
        moves,
        black_score: (rng.below(129) as i32 - 64) as i8,
        theoretical: None,
        year: 2000,
    }
}

fn valid_wthor(seed: u64) -> Vec<u8> {
    let games: Vec<GameRecord> = (0..1 + seed % 3)
        .map(|k| record(seed.wrapping_add(k)))
        .collect();
    wthor::write(&games, 2018, 22)
}

fn valid_names(seed: u64) -> Vec<u8> {
    let names: Vec<String> = (0..seed % 5).map(|k| format!("Player {k} é")).collect();
    let len = if seed.is_multiple_of(2) {
        wthor::PLAYER_NAME_LEN
    } else {
        wthor::TOURNAMENT_NAME_LEN
    };
    wthor::write_names(&names, len)
}

/// A database's header followed by its payload unpacked (what `check_okdb` seals again).
fn valid_okdb(seed: u64) -> Vec<u8> {
    let mut b = Builder::new();
    for k in 0..1 + seed % 3 {
        let r = record(seed.wrapping_add(k));
        let names = GameNames {
            black: "A",
            white: "B é",
            tournament: "T",
            source: "fuzz",
        };
        b.add(&r, names).expect("a few games");
    }
    let file = b.build().expect("valid games").to_bytes();
    let mut raw = Vec::new();
    use std::io::Read;
    flate2::read::ZlibDecoder::new(&file[36..file.len() - 8])
        .read_to_end(&mut raw)
        .expect("a payload written by the writer");
    let mut out = file[..36].to_vec();
    out.extend_from_slice(&raw);
    out
}

fn valid_pgn(seed: u64) -> Vec<u8> {
    let mut out = String::new();
    for k in 0..1 + seed % 3 {
        let r = record(seed.wrapping_add(k));
        out += &format!(
            "[Event \"E{k}\"]\n[Date \"2019\"]\n[Black \"A\"]\n[White \"B\"]\n[Result \"40-24\"]\n"
        );
        for (i, pair) in r.moves.chunks(2).enumerate() {
            out += &format!("{}.", i + 1);
            for sq in pair {
                out += &format!(" {}", sq.to_string().to_uppercase());
            }
            out += "\n";
        }
    }
    out.into_bytes()
}

fn valid_logbook(seed: u64) -> Vec<u8> {
    let mut out = String::new();
    for k in 0..1 + seed % 3 {
        let mut g = okapi::game::Game::new(Position::start());
        let mut rng = Rng(seed.wrapping_add(k));
        common::play_random(&mut g, &mut rng, 60);
        for i in 0..g.len() {
            if let Some(Move::Play(sq)) = g.move_at(i) {
                let black = g.position_at(i).side_to_move() == okapi::board::Color::Black;
                out += &format!("{}{sq}", if black { '+' } else { '-' });
            }
        }
        out += &format!(": {:+03} 10\n", rng.below(129) as i32 - 64);
    }
    out.into_bytes()
}

// --- The readers -------------------------------------------------------------------------

struct Reader {
    name: &'static str,
    check: fn(&[u8]) -> Result<(), String>,
    alphabet: &'static str,
    tokens: &'static [&'static str],
    valid: fn(u64) -> Vec<u8>,
}

const READERS: &[Reader] = &[
    Reader {
        name: "ggf",
        check: check_ggf,
        alphabet: "(;)[]\\/BWPAGMOTYCREDbwpa*O-.8 F5d6\n:é李",
        tokens: &[
            "(;",
            ";)",
            "]",
            "[",
            "\\",
            "B[PA]",
            "W[",
            "BO[8 ",
            "GM[Othello]",
            "/",
            "TI[",
            "\\]",
        ],
        valid: valid_ggf,
    },
    Reader {
        name: "json",
        check: check_json,
        alphabet: "{}[]\":,0123456789-.eE fadpl\\u\n",
        tokens: &[
            "{",
            "}",
            "[",
            "]",
            "\"",
            ",",
            "\"variations\":",
            "\"from\":",
            "\"at\":",
            "null",
            "1e999",
            "-1",
            "\"--\"",
            "\\u0000",
            "\"ply\":99",
        ],
        valid: valid_json,
    },
    Reader {
        name: "transcript",
        check: check_transcript,
        alphabet: "abcdefghABH123456789-. ,;Pp\n",
        tokens: &["--", "PA", "ps", "1.", "-", "é"],
        valid: valid_transcript,
    },
    Reader {
        name: "board",
        check: check_board,
        alphabet: "XO-.*0xo \tBWbw%",
        tokens: &["X", "O", " ", "-", "é"],
        valid: valid_board,
    },
    Reader {
        name: "obf",
        check: check_obf,
        alphabet: "XO-*;:+-0123456789 A2PS\n%#",
        tokens: &[";", ":", "+", "PS:0", " A1:+64;", "\n", "99999999999"],
        valid: valid_obf,
    },
    Reader {
        name: "script",
        check: check_script,
        alphabet: "XO-.*0 %\n\rEndofthescript",
        tokens: &[
            "%",
            "\n",
            "\r\n",
            "% End of the endgame script",
            " X",
            "      %",
            " -- ",
        ],
        valid: valid_script,
    },
    Reader {
        name: "wthor",
        check: check_wthor,
        alphabet: "\u{0}\u{8}\u{b}\u{16}\u{58}\u{ff}",
        tokens: &["\u{0}", "\u{58}", "\u{b}"],
        valid: valid_wthor,
    },
    Reader {
        name: "pgn",
        check: check_pgn,
        alphabet: "[]\"EventResult-0123456789. FD\n",
        tokens: &["[Event \"x\"]\n", "[Result \"", "\"]", "\n", "-", "1. "],
        valid: valid_pgn,
    },
    Reader {
        name: "logbook",
        check: check_logbook,
        alphabet: "+-abcdefgh12345678: \n",
        tokens: &["+", "-", ":", " +64", " 10", "\n"],
        valid: valid_logbook,
    },
    Reader {
        name: "wthor_names",
        check: check_wthor_names,
        alphabet: "\u{0}\u{3}\u{8}\u{ff}Aa é",
        tokens: &["\u{0}", "\u{ff}\u{ff}", "Tastet Marc"],
        valid: valid_names,
    },
    Reader {
        name: "okdb",
        check: check_okdb,
        alphabet: "\u{0}\u{1}\u{3c}\u{40}\u{ff}OKAPIGDB",
        tokens: &[
            "\u{0}",
            "\u{ff}\u{ff}\u{ff}\u{7f}",
            "\u{3c}",
            "OKAPIGDB",
            "\u{1}\u{0}",
        ],
        valid: valid_okdb,
    },
];

fn found_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/fuzz-found")
        .join(name)
}

fn fuzz(name: &str) {
    let reader = READERS.iter().find(|r| r.name == name).expect("a reader");
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    });
    let count = AtomicU64::new(0);
    let slowest = std::sync::Mutex::new(Duration::ZERO);
    let started = Instant::now();
    let result = runner.run(
        &inputs(reader.alphabet, reader.tokens, reader.valid),
        |input| {
            count.fetch_add(1, Ordering::Relaxed);
            let t = Instant::now();
            let r = (reader.check)(&input);
            let took = t.elapsed();
            {
                let mut s = slowest.lock().unwrap();
                *s = (*s).max(took);
            }
            r.map_err(TestCaseError::fail)?;
            prop_assert!(took < TIME_LIMIT, "took {took:?}");
            Ok(())
        },
    );
    println!(
        "fuzz {name}: {} inputs in {:.1} s, slowest {:?}",
        count.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64(),
        slowest.lock().unwrap()
    );
    if let Err(e) = result {
        if let proptest::test_runner::TestError::Fail(_, input) = &e {
            let dir = found_dir(name);
            let _ = std::fs::create_dir_all(&dir);
            let hash = input.iter().fold(0xcbf29ce484222325u64, |h, &b| {
                (h ^ b as u64).wrapping_mul(0x100000001b3)
            });
            let path = dir.join(format!("{hash:016x}"));
            let _ = std::fs::write(&path, input);
            panic!("fuzz {name}: {e}\n(input saved to {})", path.display());
        }
        panic!("fuzz {name}: {e}");
    }
}

#[test]
fn fuzz_ggf() {
    fuzz("ggf");
}
#[test]
fn fuzz_json() {
    fuzz("json");
}
#[test]
fn fuzz_transcript() {
    fuzz("transcript");
}
#[test]
fn fuzz_board_string() {
    fuzz("board");
}
#[test]
fn fuzz_obf() {
    fuzz("obf");
}
#[test]
fn fuzz_script() {
    fuzz("script");
}
#[test]
fn fuzz_wthor() {
    fuzz("wthor");
}
#[test]
fn fuzz_pgn() {
    fuzz("pgn");
}
#[test]
fn fuzz_logbook() {
    fuzz("logbook");
}
#[test]
fn fuzz_wthor_names() {
    fuzz("wthor_names");
}
#[test]
fn fuzz_okdb() {
    fuzz("okdb");
}

/// Every input that once found a bug, by reader, replayed. The folder is part of the
/// repository: where it is missing (a copy of the sources without `tests/data`) nothing is
/// replayed, which fails under `CI=true` and is said on standard error elsewhere; a
/// folder named for no reader fails, as its inputs would never be replayed.
#[test]
fn regressions_replay() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions");
    let folders = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        Err(e) => {
            let why = format!("{}: {e}: no fuzz regression replayed", root.display());
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "regressions_replay: skipped: {why}");
            return;
        }
    };
    let mut replayed = 0;
    for folder in folders {
        let folder = folder.unwrap().path();
        if !folder.is_dir() {
            continue;
        }
        let name = folder.file_name().unwrap().to_string_lossy().to_string();
        let reader = READERS
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("{}: no reader is named {name}", folder.display()));
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let bytes = std::fs::read(entry.path()).unwrap();
            let t = Instant::now();
            if let Err(e) = (reader.check)(&bytes) {
                panic!("{}: {e}", entry.path().display());
            }
            assert!(t.elapsed() < TIME_LIMIT, "{}", entry.path().display());
            replayed += 1;
        }
    }
    assert!(replayed > 0, "{}: no fuzz regression in it", root.display());
    println!("replayed {replayed} fuzz regressions");
}

/// Game files claiming "exact +64" on every move of a game that ends 33-31: nothing of it
/// is read as proven (the engine's proofs are the only ones shown), the game is.
#[test]
fn proofs_a_game_file_claims_against_its_own_end_are_not_read() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-regressions");
    let json = std::fs::read_to_string(root.join("json/exact-64-everywhere.json")).unwrap();
    let ggf_text = std::fs::read_to_string(root.join("ggf/exact-64-everywhere.ggf")).unwrap();
    for (name, game) in [
        ("json", okapi_json::read(&json).unwrap()),
        ("ggf", read_game(&ggf_text).unwrap()),
    ] {
        assert_eq!(game.len(), 61, "{name}: 60 moves and a pass");
        let proven = (0..game.len())
            .filter_map(|i| game.eval_at(i))
            .filter(|e| e.source == okapi::game::EvalSource::Exact)
            .count();
        assert_eq!(proven, 0, "{name}: {:?}", game.evals());
        no_refuted_proof(&game).unwrap();
    }
    // The JSON's 61 claims (one a ply) are said to be left out (the app and the command line tell the
    // player); GGF's values are estimates, so nothing of it is left out.
    let (_, warnings) = okapi::formats::read_any_warned(&json).unwrap();
    assert_eq!(
        warnings,
        [okapi::formats::ReadWarning::RefutedProofs { count: 61 }]
    );
    let (_, warnings) = okapi::formats::read_any_warned(&ggf_text).unwrap();
    assert_eq!(warnings, []);
    // GGF's `/eval/` numbers are a program's estimates, kept as written, never proofs.
    let record = ggf::read_record(&ggf_text).unwrap();
    let estimates: Vec<f64> = record.move_info.iter().filter_map(|m| m.eval).collect();
    assert_eq!(estimates, [64.0; 60]);
}

/// The valid files really are valid: the mutations start from files the readers accept.
#[test]
fn valid_samples_are_read() {
    for seed in 0..50u64 {
        let g = valid_ggf(seed);
        ggf::read(&text(&g)).unwrap_or_else(|e| panic!("{e}\n{}", text(&g)));
        okapi_json::read(&text(&valid_json(seed))).unwrap();
        transcript::read(&text(&valid_transcript(seed))).unwrap();
        Position::parse(&text(&valid_board(seed))).unwrap();
        assert!(!obf::parse_file(&valid_obf(seed)).unwrap().is_empty());
        let lines = script::parse_script(&valid_script(seed));
        assert!(lines.iter().all(|l| l.parsed.is_ok()));
        let (_, set) = wthor::parse(&valid_wthor(seed)).unwrap();
        assert!(set.skipped.is_empty(), "{:?}", set.skipped);
        let set = pgn::parse(&text(&valid_pgn(seed)));
        assert!(
            set.skipped.is_empty() && !set.games.is_empty(),
            "{:?}",
            set.skipped
        );
        let set = logbook::parse(&valid_logbook(seed)[..]).unwrap();
        assert!(
            set.skipped.is_empty(),
            "{:?}\n{}",
            set.skipped,
            text(&valid_logbook(seed))
        );
    }
}
