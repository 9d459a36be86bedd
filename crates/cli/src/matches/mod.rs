//! `okapi match`: two engines play each other from balanced openings, each opening once
//! with each colour, and the result is told as wins/draws/losses, discs, time and an Elo
//! difference with its 95% interval; optionally as a sequential test (`--sprt`) that stops
//! the match once the result is clear.
//!
//! An engine is an Okapi level (`--a 8`, `--b greedy`, `--a 12t1.5`, `--b 0.05s`: anything
//! `Level::parse` reads) with the shipped evaluation weights or its own (`--a-weights`),
//! another Okapi binary playing a level through its console (`--b-okapi
//! versions/COMMIT/okapi`: an older version built by `tools/build-version`), or any program
//! speaking the NBoard protocol (`--a-cmd "edax -nboard"`, or `okapi nboard` itself),
//! driven with `set game`, `ping`, `go`.
//!
//! Openings: by default distinct positions after a number of random plies (8), kept when
//! a depth-6 search finds them balanced (within 2 discs), drawn from a fixed seed so that
//! every run plays the same ones (for the same evaluation weights); or transcripts from a
//! file, one per line (`--openings FILE`).
//!
//! `--concurrency K` plays K games at once, each on its own pair of engines (K of each
//! side); results are told in game order all the same.

mod contestant;
mod elo;
pub mod external;
mod game;
mod openings;
mod players;
mod report;
pub mod sprt;

pub use contestant::Contestant;
pub use elo::{ELO_PER_LOGIT, Pentanomial, Tally, elo, elo_interval, expected_score};
pub use game::{GameResult, play_game};
pub use openings::{balanced_openings, parse_transcript, read_openings};
pub use players::OkapiContestant;

use anyhow::{Context, anyhow, bail};
use crossbeam_channel::unbounded;
use game::play_game_unless;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use okapi_core::board::Move;
use players::{Player, Side};
use report::{Scoreboard, print_summary, print_test};
use sprt::{Sprt, SprtParseError, Verdict};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// Engine A's level, as --a gives it (`okapi match 8 6`).
    #[arg(value_name = "A", conflicts_with_all = ["a", "a_cmd"])]
    pub a_level: Option<String>,
    /// Engine B's level, as --b gives it.
    #[arg(value_name = "B", conflicts_with_all = ["b", "b_cmd"])]
    pub b_level: Option<String>,
    /// Engine A as an Okapi level: random, greedy, a depth (8), depth and temperature
    /// (8t1.5), or a time per move (0.05s).
    #[arg(long, value_name = "LEVEL", conflicts_with = "a_cmd")]
    pub a: Option<String>,
    /// Engine B as an Okapi level.
    #[arg(long, value_name = "LEVEL", conflicts_with = "b_cmd")]
    pub b: Option<String>,
    /// Engine A as a command speaking the NBoard protocol (e.g. "okapi nboard"). The
    /// protocol sets a depth (--cmd-depth) but no time per move: to play another Okapi
    /// version at a time per move, use --a-okapi.
    #[arg(long, value_name = "COMMAND")]
    pub a_cmd: Option<String>,
    /// Engine B as a command speaking the NBoard protocol.
    #[arg(long, value_name = "COMMAND")]
    pub b_cmd: Option<String>,
    /// Engine A is this other Okapi binary (e.g. versions/COMMIT/okapi, from
    /// tools/build-version) playing A's level (a depth or a time per move) through its
    /// console, without the book, exactly as the match plays a level itself (with
    /// --threads N passed on; without it the console searches on all the cores).
    #[arg(long, value_name = "BINARY", conflicts_with = "a_cmd")]
    pub a_okapi: Option<PathBuf>,
    /// Engine B is this other Okapi binary playing B's level.
    #[arg(long, value_name = "BINARY", conflicts_with = "b_cmd")]
    pub b_okapi: Option<PathBuf>,
    /// Evaluation weights of engine A (an Okapi level or --a-okapi binary) instead of the
    /// shipped ones; read by the usual loader.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["a_cmd", "weights"])]
    pub a_weights: Option<PathBuf>,
    /// Evaluation weights of engine B.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["b_cmd", "weights"])]
    pub b_weights: Option<PathBuf>,
    /// Depth sent to external engines with `set depth`.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub cmd_depth: u32,
    /// Number of games (each opening is played twice, colours swapped); with --sprt, the
    /// most the match plays.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Openings: a file of transcripts, one per line (f5d6c3d3...); `#` starts a comment.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Length of the generated openings in plies.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub plies: u32,
    /// Seed for the generated openings and for levels that draw moves at random.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Save the games to this GGF file (rewritten atomically after each game).
    #[arg(long, value_name = "FILE.ggf")]
    pub save: Option<PathBuf>,
    /// Give up on an external engine that takes longer than this per move (seconds,
    /// more than 0 and at most a day).
    #[arg(long, default_value_t = 600.0, value_name = "SECONDS", value_parser = super::units::parse_move_timeout)]
    pub move_timeout: f64,
    /// Hash table of each Okapi engine: about 16 * 2^N bytes. The default is the table
    /// of `okapi console`, `okapi nboard` and the app: the same as an --a-okapi binary's.
    #[arg(long, value_name = "N", default_value_t = okapi_core::search::DEFAULT_HASH_BITS, value_parser = super::units::parse_hash_bits)]
    pub hash_bits: u32,
    /// Evaluation weights for every Okapi engine instead of the shipped ones.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Okapi levels at full strength solve exactly from this many empties (WLD as
    /// early), as the app plays them with its "Solve moves from N empties" setting (20 by
    /// default); 0 (the default): the level's own solving depths, as the console plays it.
    #[arg(long, value_name = "EMPTIES", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub solve_from: u32,
    /// Okapi engines play from the opening book while it knows the position. Off by
    /// default: the games start from balanced openings, and the match measures the search.
    #[arg(long)]
    pub book: bool,
    /// With --book: pick among book moves within this many discs of the best.
    #[arg(long, value_name = "DISCS", default_value_t = 0.0, requires = "book", value_parser = super::units::non_negative_discs)]
    pub book_randomness: f64,
    /// Threads of each Okapi engine, 1 or more; default: all the cores (the two engines
    /// take turns, so they never search at once).
    #[arg(long, value_name = "N", value_parser = super::units::parse_threads)]
    pub threads: Option<usize>,
    /// Sequential test of A − B = ELO1 against A − B = ELO0 (logistic Elo) over game
    /// pairs, error rates ALPHA and BETA (default 0.05 each): the match stops once the
    /// log-likelihood ratio leaves its bounds, at --games at the latest.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", value_parser = parse_sprt, allow_hyphen_values = true)]
    pub sprt: Option<Sprt>,
    /// Games played at once, each by its own pair of engines. With times per move, K
    /// must not exceed the cores free for the match (each game keeps one busy), or the
    /// engines get less time than their level says and the result is not the levels'.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
}

fn parse_sprt(text: &str) -> Result<Sprt, SprtParseError> {
    Sprt::parse(text)
}

pub fn main(a: MatchArgs) -> ExitCode {
    match run(&a) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("okapi match: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Plays the match and prints it; returns A's tally.
pub fn run(a: &MatchArgs) -> anyhow::Result<Tally> {
    let (side_a, side_b) = sides(a)?;
    let workers = (a.concurrency as usize).min(a.games as usize).max(1);
    let players = start_players(a, &side_a, &side_b, workers)?;
    let pairs = a.games.div_ceil(2) as usize;
    let openings = match &a.openings {
        Some(path) => read_openings(path)?,
        None => {
            let o = balanced_openings(pairs, a.plies, a.seed);
            if o.is_empty() {
                bail!("no balanced openings of {} plies found", a.plies);
            }
            o
        }
    };
    let (name_a, name_b) = (players[0].0.name(), players[0].1.name());
    outln!(
        "match: A = {name_a}, B = {name_b}; {} games from {} openings, each with both colours{}",
        a.games,
        openings.len().min(pairs),
        if workers > 1 {
            format!(", {workers} at a time")
        } else {
            String::new()
        }
    );
    if let Some(sprt) = &a.sprt {
        outln!("{sprt}");
    }
    let bar = ProgressBar::with_draw_target(Some(a.games as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} {msg}")
            .expect("a valid progress template"),
    );
    let mut board = Scoreboard {
        args: a,
        tally: Tally::default(),
        pair_first: None,
        llr: None,
        saved: String::new(),
        bar,
    };
    let outcome = play_all(players, &openings, a.games as usize, &mut board);
    board.bar.finish_and_clear();
    outcome?;
    print_summary(&name_a, &name_b, &board.tally);
    if let Some(sprt) = &a.sprt {
        print_test(sprt, &board.tally, board.llr);
    }
    Ok(board.tally)
}

/// The two sides as the arguments give them.
fn sides(a: &MatchArgs) -> anyhow::Result<(Side, Side)> {
    let side_a = Side::new(
        'A',
        a.a.clone().or_else(|| a.a_level.clone()),
        a.a_cmd.clone(),
        a.a_okapi.clone(),
        a.a_weights.clone(),
        a,
    )?;
    let side_b = Side::new(
        'B',
        a.b.clone().or_else(|| a.b_level.clone()),
        a.b_cmd.clone(),
        a.b_okapi.clone(),
        a.b_weights.clone(),
        a,
    )?;
    if a.hash_bits != okapi_core::search::DEFAULT_HASH_BITS
        && [&side_a, &side_b]
            .iter()
            .any(|s| matches!(s, Side::Binary { .. }))
    {
        errln!(
            "okapi match: note: an Okapi binary's console has a table of 2^{} entries; the match's Okapi levels have 2^{}",
            okapi_core::search::DEFAULT_HASH_BITS,
            a.hash_bits
        );
    }
    Ok((side_a, side_b))
}

/// A pair of players for each of the `workers` playing at once, every one started
/// before the first game, so that a bad engine ends the match at once.
fn start_players(
    a: &MatchArgs,
    side_a: &Side,
    side_b: &Side,
    workers: usize,
) -> anyhow::Result<Vec<(Player, Player)>> {
    // Games played at once share the cores.
    let threads = a.threads.unwrap_or_else(|| {
        (okapi_core::search::available_threads() / a.concurrency as usize).max(1)
    });
    // One engine per Okapi level side and game played at once, each with its table.
    let levels = [side_a, side_b]
        .iter()
        .filter(|s| matches!(s, Side::Level { .. }))
        .count();
    let engines = (workers * levels).max(1) as u32;
    let config = super::engine_flags::shared_engine_config(
        "--hash-bits",
        a.hash_bits,
        Some(threads),
        engines,
    )
    .map_err(|e| anyhow!(e))?;
    let mut players: Vec<(Player, Player)> = Vec::with_capacity(workers);
    for w in 0..workers {
        // Worker 0 has the seeds of a match played one game at a time.
        let seed = a.seed.wrapping_mul(3).wrapping_add((w as u64) << 32);
        players.push((
            side_a.player(a, config, seed)?,
            side_b.player(a, config, seed.wrapping_add(1))?,
        ));
    }
    Ok(players)
}

/// Plays the `games` on the players' threads and counts them on `board` in game order,
/// until the last or the test's verdict (or an error).
fn play_all(
    players: Vec<(Player, Player)>,
    openings: &[Vec<Move>],
    games: usize,
    board: &mut Scoreboard<'_>,
) -> anyhow::Result<()> {
    let workers = players.len();
    let stop = AtomicBool::new(false);
    let (tx, rx) = unbounded::<(usize, anyhow::Result<Option<GameResult>>)>();
    std::thread::scope(|scope| -> anyhow::Result<()> {
        // Worker w plays games w, w + K, w + 2K...: the same K plays the same games.
        for (w, (mut pa, mut pb)) in players.into_iter().enumerate() {
            let (tx, stop) = (tx.clone(), &stop);
            scope.spawn(move || {
                for g in (w..games).step_by(workers) {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let opening = &openings[(g / 2) % openings.len()];
                    let r = if g % 2 == 0 {
                        play_game_unless(pa.as_mut(), pb.as_mut(), opening, stop)
                    } else {
                        play_game_unless(pb.as_mut(), pa.as_mut(), opening, stop)
                    };
                    let failed = r.is_err();
                    if tx.send((g, r)).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Results come as games end; they are counted in game order.
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        let mut count = || -> anyhow::Result<()> {
            for (g, r) in rx.iter() {
                waiting.insert(g, r);
                while let Some(r) = waiting.remove(&next) {
                    let Some(game) = r.with_context(|| format!("game {}", next + 1))? else {
                        return Ok(());
                    };
                    let opening = &openings[(next / 2) % openings.len()];
                    let verdict = board.record(next, opening, &game)?;
                    next += 1;
                    if verdict != Verdict::Continue {
                        return Ok(());
                    }
                }
            }
            Ok(())
        };
        let result = count();
        // Games under way are given up at their next move (all of them after an error).
        stop.store(true, Ordering::SeqCst);
        result
    })
}
