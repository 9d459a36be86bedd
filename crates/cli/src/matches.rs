//! `okapi match`: two engines play each other from balanced openings, each opening once
//! with each colour, and the result is told as wins/draws/losses, discs, time and an Elo
//! difference with its 95% interval; optionally as a sequential test (`--sprt`) that stops
//! the match once the result is clear.
//!
//! An engine is an Okapi level (`--a 8`, `--b greedy`, `--a 12t1.5`, `--b 0.05s`: anything
//! `Level::parse` reads) with the shipped evaluation weights or its own (`--a-weights`),
//! another Okapi binary playing a level through its console (`--b-okapi
//! versions/90e27f8/okapi`: an older version built by `tools/build-version`), or any program
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

use super::match_players::{ExternalPlayer, OkapiBinaryPlayer};
use super::match_sprt::{Pentanomial, Sprt, SprtParseError, Verdict};
use anyhow::{Context, anyhow, bail};
use crossbeam_channel::unbounded;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use okapi_core::board::symmetry::{Symmetry, transform};
use okapi_core::board::{Color, Move, Position, Square};
use okapi_core::eval::Evaluator;
use okapi_core::game::{Game, Seat, Session};
use okapi_core::search::level::Level;
use okapi_core::search::{Limits, MidgameSearch, SCALE};
use okapi_engine::{Engine, EngineConfig, EngineOptions, Event, Request};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// Engine A is this other Okapi binary (e.g. versions/90e27f8/okapi, from
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
    /// Hash table of each Okapi engine: about 16 * 2^N bytes. The default, 20, is the
    /// table of `okapi console`, `okapi nboard` and the app: the same as an --a-okapi
    /// binary's.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = super::units::parse_hash_bits)]
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

/// One side of a match.
pub trait Contestant {
    fn name(&self) -> String;
    /// The move to play at the cursor of `game` (the side to move has a legal move).
    fn choose(&mut self, game: &Game) -> anyhow::Result<Move>;
}

/// An Okapi level, played by its own engine (own table, own seeded generator, own
/// evaluation) through the engine API every front end uses.
pub struct OkapiContestant {
    level: Level,
    engine: Engine,
    /// The book's randomness in discs when the player uses the book.
    book: Option<f64>,
    /// The weight file's name when it is not the process's evaluation.
    weights: Option<String>,
}

impl OkapiContestant {
    /// Its engine evaluates with `evaluator` and has the table and threads of `config`;
    /// `weights` names the weight file when it is not the shipped one (shown in the
    /// match's report).
    pub fn new(
        level: Level,
        evaluator: Arc<Evaluator>,
        config: EngineConfig,
        seed: u64,
        weights: Option<String>,
    ) -> OkapiContestant {
        let options = EngineOptions {
            evaluator,
            config,
            seed,
        };
        OkapiContestant {
            level,
            engine: Engine::spawn_with(options, || {}),
            book: None,
            weights,
        }
    }

    /// Plays book moves (within `randomness` discs of the best) while the book knows the
    /// position.
    pub fn with_book(mut self, randomness: f64) -> OkapiContestant {
        self.book = Some(randomness);
        self
    }
}

impl Contestant for OkapiContestant {
    fn name(&self) -> String {
        let book = if self.book.is_some() { " +book" } else { "" };
        let weights = self
            .weights
            .as_ref()
            .map_or(String::new(), |w| format!(" ({w})"));
        format!("okapi {}{book}{weights}", self.level.name())
    }

    fn choose(&mut self, game: &Game) -> anyhow::Result<Move> {
        let position = game.position();
        let (level, book) = (self.level, self.book);
        let mut chosen = None;
        self.engine
            .call(
                Request::Play {
                    position,
                    level,
                    time: None,
                    book,
                },
                |e| {
                    if let Event::Played { mv, .. } = e {
                        chosen = Some(*mv);
                    }
                },
            )
            .map_err(|e| anyhow!("okapi {}: {e}", level.name()))?;
        chosen.ok_or_else(|| anyhow!("okapi {}: no move", level.name()))
    }
}

/// Reads transcripts (`f5d6c3`, `F5-D6-C3`, `f5 d6 c3`), one opening per line.
pub fn read_openings(path: &Path) -> anyhow::Result<Vec<Vec<Move>>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the openings file {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves =
            parse_transcript(line).map_err(|e| anyhow!("{}:{}: {e}", path.display(), i + 1))?;
        out.push(moves);
    }
    if out.is_empty() {
        bail!("{} has no openings", path.display());
    }
    Ok(out)
}

/// A transcript: moves as pairs of characters, separators ignored; checked for legality.
pub fn parse_transcript(text: &str) -> Result<Vec<Move>, String> {
    let chars: Vec<char> = text.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    if !chars.len().is_multiple_of(2) {
        return Err(format!("'{text}' is not a list of moves"));
    }
    okapi_core::formats::transcript::read_moves(&chars.iter().collect::<String>())
        .map_err(|e| e.to_string())
}

fn canonical(p: &Position) -> (u64, u64) {
    Symmetry::ALL
        .iter()
        .map(|&s| (transform(p.black(), s), transform(p.white(), s)))
        .min()
        .expect("eight symmetries")
}

/// `count` distinct openings of `plies` random moves (no passes), distinct up to the
/// board's symmetries, each balanced: a depth-6 search scores it within 2 discs.
pub fn balanced_openings(count: usize, plies: u32, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6f70_656e);
    let mut search =
        MidgameSearch::new(&Evaluator::shipped(), 16, Arc::new(AtomicBool::new(false)));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut attempts = 0;
    while out.len() < count && attempts < 200_000 {
        attempts += 1;
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal: Vec<Square> = pos.legal_moves().iter().collect();
            if legal.is_empty() {
                break;
            }
            let sq = legal[rng.random_range(0..legal.len())];
            pos.play(sq).expect("a legal move");
            moves.push(Move::Play(sq));
        }
        if moves.len() != plies as usize || !seen.insert(canonical(&pos)) {
            continue;
        }
        // Small searches would rather call a quiet position balanced than spend long.
        let Ok(v) = search.value(pos.board(), Limits::depth(6)) else {
            continue;
        };
        if v.abs() <= 2 * SCALE {
            out.push(moves);
        }
    }
    out
}

/// Result of one game from A's view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub discs_a: u32,
    pub discs_b: u32,
    pub time_a: Duration,
    pub time_b: Duration,
    pub moves_a: u32,
    pub moves_b: u32,
    /// Complete pairs (A Black, then A White, from one opening) by A's points.
    pub pentanomial: Pentanomial,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score fraction.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

/// Elo difference for a score fraction (infinite at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Elo difference and its 95% interval, from the score's standard error over the games
/// (each game scoring 1, 1/2 or 0). When every game ended the same way the error is
/// unmeasured and the rule of three bounds the score instead (3/N from the end).
pub fn elo_interval(t: &Tally) -> (f64, f64, f64) {
    let n = t.games().max(1) as f64;
    let s = t.score();
    let var = (t.wins as f64 * (1.0 - s).powi(2)
        + t.draws as f64 * (0.5 - s).powi(2)
        + t.losses as f64 * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    if se == 0.0 {
        let edge = (3.0 / n).min(0.5);
        return match s {
            x if x >= 1.0 => (elo(s), elo(1.0 - edge), f64::INFINITY),
            x if x <= 0.0 => (elo(s), f64::NEG_INFINITY, elo(edge)),
            _ => (elo(s), elo(s), elo(s)),
        };
    }
    (elo(s), elo(s - 1.96 * se), elo(s + 1.96 * se))
}

fn elo_text(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{:+.0}", x.round() + 0.0)
    }
}

/// What happened in one game.
pub struct GameResult {
    pub game: Game,
    /// Black's and White's discs, empties to the winner.
    pub black: u32,
    pub white: u32,
    pub time_black: Duration,
    pub time_white: Duration,
    pub moves_black: u32,
    pub moves_white: u32,
}

/// Plays one game from `opening` to the end through a session (forced passes are the
/// session's).
pub fn play_game(
    black: &mut dyn Contestant,
    white: &mut dyn Contestant,
    opening: &[Move],
) -> anyhow::Result<GameResult> {
    play_game_unless(black, white, opening, &AtomicBool::new(false))
        .map(|r| r.expect("a game that cannot be stopped ends"))
}

/// [`play_game`], given up between two moves once `stop` is set (`None` then).
fn play_game_unless(
    black: &mut dyn Contestant,
    white: &mut dyn Contestant,
    opening: &[Move],
    stop: &AtomicBool,
) -> anyhow::Result<Option<GameResult>> {
    let mut session = Session::new(Game::default(), [Seat::Human; 2]);
    for &m in opening {
        // The session plays forced passes itself: an opening that writes one out (as
        // transcripts read back do) has it played already.
        if m == Move::Pass && !session.position().must_pass() {
            continue;
        }
        session
            .play_any(m, None)
            .map_err(|e| anyhow!("opening: {m}: {e}"))?;
    }
    session.game_mut().black = black.name();
    session.game_mut().white = white.name();
    let (mut time, mut moves) = ([Duration::ZERO; 2], [0u32; 2]);
    while !session.is_over() {
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let side = session.position().side_to_move();
        let start = Instant::now();
        let player: &mut dyn Contestant = match side {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let mv = player.choose(session.game())?;
        time[side as usize] += start.elapsed();
        moves[side as usize] += 1;
        session.play_any(mv, None).map_err(|e| {
            anyhow!(
                "{} played an illegal move after {}: {e}",
                player.name(),
                session.game().transcript()
            )
        })?;
    }
    let (b, w) = session.position().final_counts();
    Ok(Some(GameResult {
        game: session.into_game(),
        black: b,
        white: w,
        time_black: time[0],
        time_white: time[1],
        moves_black: moves[0],
        moves_white: moves[1],
    }))
}

/// A side of the match as the arguments give it; it makes one player per game played
/// at once.
enum Side {
    Level {
        level: Level,
        /// The evaluation, loaded once for all of the side's games.
        evaluator: Arc<Evaluator>,
        /// The weight file's name when it is not the shipped one.
        weights: Option<String>,
    },
    Nboard(String),
    Binary {
        path: PathBuf,
        level: String,
        weights: Option<PathBuf>,
    },
}

/// A player that can be moved to the thread that plays its games.
type Player = Box<dyn Contestant + Send>;

impl Side {
    /// The side `letter` from its level, command, binary and weights.
    fn new(
        letter: char,
        level: Option<String>,
        cmd: Option<String>,
        binary: Option<PathBuf>,
        weights: Option<PathBuf>,
        a: &MatchArgs,
    ) -> anyhow::Result<Side> {
        let flag = letter.to_ascii_lowercase();
        match (level, cmd, binary) {
            (_, Some(c), _) => Ok(Side::Nboard(c)),
            (Some(l), None, Some(path)) => {
                // Checked here too, so a bad level is told as the match's error.
                Level::parse(&l).map_err(|e| anyhow!(e))?;
                if a.book {
                    bail!(
                        "--{flag}-okapi plays through the console, which plays without the book: drop --book"
                    );
                }
                if a.solve_from > 0 {
                    bail!(
                        "--{flag}-okapi plays through the console, which solves at the level's own depths: drop --solve-from"
                    );
                }
                Ok(Side::Binary {
                    path,
                    level: l,
                    weights: weights.or_else(|| a.weights.clone()),
                })
            }
            (None, None, Some(_)) => {
                bail!("--{flag}-okapi needs {letter}'s level (--{flag} 8, --{flag} 0.05s)")
            }
            (Some(l), None, None) => {
                let level = Level::parse(&l)
                    .map_err(|e| anyhow!(e))?
                    .solving_from(a.solve_from);
                Ok(match weights.or_else(|| a.weights.clone()) {
                    Some(path) => Side::Level {
                        level,
                        evaluator: Arc::new(
                            Evaluator::load(&path)
                                .with_context(|| format!("loading {}", path.display()))?,
                        ),
                        weights: Some(path.file_name().map_or_else(
                            || path.display().to_string(),
                            |n| n.to_string_lossy().into(),
                        )),
                    },
                    None => Side::Level {
                        level,
                        evaluator: Evaluator::shipped(),
                        weights: None,
                    },
                })
            }
            (None, None, None) => {
                bail!("each engine needs a level (--a 8) or a command (--a-cmd ...)")
            }
        }
    }

    /// A player of this side; an Okapi level's engine has `config`.
    fn player(&self, a: &MatchArgs, config: EngineConfig, seed: u64) -> anyhow::Result<Player> {
        let timeout = Duration::from_secs_f64(a.move_timeout);
        Ok(match self {
            Side::Nboard(c) => Box::new(ExternalPlayer::start(c, a.cmd_depth, timeout)?),
            Side::Binary {
                path,
                level,
                weights,
            } => Box::new(OkapiBinaryPlayer::start(
                path,
                level,
                weights.as_deref(),
                seed,
                a.threads,
                timeout,
            )?),
            Side::Level {
                level,
                evaluator,
                weights,
            } => {
                let player =
                    OkapiContestant::new(*level, evaluator.clone(), config, seed, weights.clone());
                Box::new(if a.book {
                    player.with_book(a.book_randomness)
                } else {
                    player
                })
            }
        })
    }
}

fn save_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    okapi_core::formats::write_atomic(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
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

/// A's score in a game: 1, 1/2 or 0.
fn points(a_discs: u32, b_discs: u32) -> f64 {
    match a_discs.cmp(&b_discs) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// The match's account, kept in game order: the tally, the pairs, the test, the saved
/// games and what is printed of them.
struct Scoreboard<'a> {
    args: &'a MatchArgs,
    tally: Tally,
    /// A's points in the first game of the pair under way.
    pair_first: Option<f64>,
    /// The test's ratio and verdict after the last complete pair.
    llr: Option<(f64, Verdict)>,
    saved: String,
    bar: ProgressBar,
}

impl Scoreboard<'_> {
    /// Counts game `g` (from 0), prints its line; the test's verdict once it has one.
    fn record(&mut self, g: usize, opening: &[Move], r: &GameResult) -> anyhow::Result<Verdict> {
        let a_is_black = g.is_multiple_of(2);
        let (da, db, ta, tb, ma, mb) = if a_is_black {
            (
                r.black,
                r.white,
                r.time_black,
                r.time_white,
                r.moves_black,
                r.moves_white,
            )
        } else {
            (
                r.white,
                r.black,
                r.time_white,
                r.time_black,
                r.moves_white,
                r.moves_black,
            )
        };
        let t = &mut self.tally;
        t.discs_a += da;
        t.discs_b += db;
        t.time_a += ta;
        t.time_b += tb;
        t.moves_a += ma;
        t.moves_b += mb;
        let score = points(da, db);
        let verdict = if score == 1.0 {
            t.wins += 1;
            "A wins"
        } else if score == 0.5 {
            t.draws += 1;
            "draw"
        } else {
            t.losses += 1;
            "B wins"
        };
        // A pair is a game with A Black and the next with A White, from one opening.
        let mut test = String::new();
        let mut decision = Verdict::Continue;
        if a_is_black {
            self.pair_first = Some(score);
        } else if let Some(first) = self.pair_first.take() {
            t.pentanomial.add(first, score);
            if let Some(sprt) = &self.args.sprt {
                let llr = sprt.llr(&t.pentanomial);
                decision = sprt.verdict(llr);
                self.llr = Some((llr, decision));
                test = format!(
                    "  LLR {llr:+.2} ({:+.2} .. {:+.2})",
                    sprt.lower_bound(),
                    sprt.upper_bound()
                );
            }
        }
        let line = format!(
            "game {:>4}  {:<20} A {} {:>2}-{:<2} B  {:<6}  time A {:.3}s B {:.3}s   (+{} ={} -{}){test}",
            g + 1,
            opening
                .iter()
                .map(|&m| m.to_string().to_uppercase())
                .collect::<String>(),
            if a_is_black { "(Black)" } else { "(White)" },
            da,
            db,
            verdict,
            ta.as_secs_f64(),
            tb.as_secs_f64(),
            t.wins,
            t.draws,
            t.losses
        );
        self.bar.suspend(|| outln!("{line}"));
        self.bar.inc(1);
        let llr = self
            .llr
            .map_or(String::new(), |(l, _)| format!(", LLR {l:+.2}"));
        self.bar
            .set_message(format!("A +{} ={} -{}{llr}", t.wins, t.draws, t.losses));
        if let Some(path) = &self.args.save {
            self.saved += &okapi_core::formats::ggf::write_dated(
                &r.game,
                &okapi_core::formats::ggf::now_utc(),
                "Okapi match",
            );
            self.saved.push('\n');
            save_atomically(path, &self.saved)?;
        }
        Ok(decision)
    }
}

/// Plays the match and prints it; returns A's tally.
pub fn run(a: &MatchArgs) -> anyhow::Result<Tally> {
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
    if a.hash_bits != 20
        && [&side_a, &side_b]
            .iter()
            .any(|s| matches!(s, Side::Binary { .. }))
    {
        errln!(
            "okapi match: note: an Okapi binary's console has a table of 2^20 entries; the match's Okapi levels have 2^{}",
            a.hash_bits
        );
    }
    // Games played at once share the cores.
    let threads = a.threads.unwrap_or_else(|| {
        (okapi_core::search::available_threads() / a.concurrency as usize).max(1)
    });
    let config = super::engine_flags::engine_config("--hash-bits", a.hash_bits, Some(threads))
        .map_err(|e| anyhow!(e))?;
    let workers = (a.concurrency as usize).min(a.games as usize).max(1);
    // Every player starts before the first game, so that a bad engine ends the match at once.
    let mut players: Vec<(Player, Player)> = Vec::with_capacity(workers);
    for w in 0..workers {
        // Worker 0 has the seeds of a match played one game at a time.
        let seed = a.seed.wrapping_mul(3).wrapping_add((w as u64) << 32);
        players.push((
            side_a.player(a, config, seed)?,
            side_b.player(a, config, seed.wrapping_add(1))?,
        ));
    }
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
    let games = a.games as usize;
    let stop = AtomicBool::new(false);
    let (tx, rx) = unbounded::<(usize, anyhow::Result<Option<GameResult>>)>();
    let outcome = std::thread::scope(|scope| -> anyhow::Result<()> {
        // Worker w plays games w, w + K, w + 2K...: the same K plays the same games.
        for (w, (mut pa, mut pb)) in players.into_iter().enumerate() {
            let (tx, stop, openings) = (tx.clone(), &stop, &openings);
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
    });
    board.bar.finish_and_clear();
    outcome?;
    print_summary(&name_a, &name_b, &board.tally);
    if let Some(sprt) = &a.sprt {
        print_test(sprt, &board.tally, board.llr);
    }
    Ok(board.tally)
}

fn print_summary(name_a: &str, name_b: &str, t: &Tally) {
    let per_move = |d: Duration, m: u32| d.as_secs_f64() / m.max(1) as f64;
    let (e, lo, hi) = elo_interval(t);
    outln!("---");
    outln!("A = {name_a}, B = {name_b}, {} games", t.games());
    outln!(
        "A: {} wins, {} draws, {} losses: score {:.1}%",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score()
    );
    if t.pentanomial.pairs() > 0 {
        outln!(
            "pairs (one opening, both colours) by A's points: {}",
            t.pentanomial
        );
    }
    outln!(
        "discs: A {}, B {} (average {:+.2} per game for A)",
        t.discs_a,
        t.discs_b,
        (t.discs_a as f64 - t.discs_b as f64) / t.games().max(1) as f64
    );
    outln!(
        "time: A {:.3} s ({:.5} s/move), B {:.3} s ({:.5} s/move)",
        t.time_a.as_secs_f64(),
        per_move(t.time_a, t.moves_a),
        t.time_b.as_secs_f64(),
        per_move(t.time_b, t.moves_b)
    );
    outln!(
        "Elo difference A - B: {} (95% interval {} .. {})",
        elo_text(e),
        elo_text(lo),
        elo_text(hi)
    );
}

/// The test's last ratio and what it concluded.
fn print_test(sprt: &Sprt, t: &Tally, llr: Option<(f64, Verdict)>) {
    let pairs = t.pentanomial.pairs();
    let Some((llr, verdict)) = llr else {
        outln!("SPRT: no complete pair of games, no ratio");
        return;
    };
    let (lo, hi) = (sprt.lower_bound(), sprt.upper_bound());
    let text = match verdict {
        Verdict::H1 => format!(
            "H1 accepted: A − B ≥ {} Elo rather than ≤ {} (LLR {llr:+.2} ≥ {hi:+.2})",
            sprt.elo1, sprt.elo0
        ),
        Verdict::H0 => format!(
            "H0 accepted: A − B ≤ {} Elo rather than ≥ {} (LLR {llr:+.2} ≤ {lo:+.2})",
            sprt.elo0, sprt.elo1
        ),
        Verdict::Continue => format!(
            "no decision: LLR {llr:+.2} is still between {lo:+.2} and {hi:+.2} (more games needed)"
        ),
    };
    outln!("SPRT after {pairs} pairs: {text}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small table and `threads`.
    fn config(threads: usize) -> EngineConfig {
        EngineConfig::new(10, threads).unwrap()
    }

    #[test]
    fn elo_from_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        let t = Tally {
            wins: 60,
            draws: 0,
            losses: 40,
            ..Tally::default()
        };
        let (e, lo, hi) = elo_interval(&t);
        assert!(
            lo < e && e < hi && lo > -20.0 && hi < 160.0,
            "{lo} {e} {hi}"
        );
        let all = Tally {
            wins: 10,
            ..Tally::default()
        };
        let (e, lo, hi) = elo_interval(&all);
        assert_eq!((e, hi), (f64::INFINITY, f64::INFINITY));
        assert!((lo - elo(0.7)).abs() < 1e-9);
    }

    #[test]
    fn transcripts() {
        assert_eq!(parse_transcript("f5d6c3").unwrap().len(), 3);
        assert_eq!(parse_transcript("F5-D6-C3").unwrap().len(), 3);
        assert!(parse_transcript("f5f5").is_err());
        assert!(parse_transcript("f5d").is_err());
    }

    #[test]
    fn openings_are_distinct_balanced_and_reproducible() {
        let a = balanced_openings(6, 6, 1);
        assert_eq!(a.len(), 6);
        assert_eq!(a, balanced_openings(6, 6, 1));
        let keys: HashSet<_> = a
            .iter()
            .map(|m| {
                let mut p = Position::start();
                for &x in m {
                    p.play_move(x).unwrap();
                }
                canonical(&p)
            })
            .collect();
        assert_eq!(keys.len(), 6);
    }

    #[test]
    fn openings_through_a_forced_pass_are_played() {
        // A random game's first forced pass with the game still on, and the move after.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let text = (0..10_000)
            .find_map(|_| {
                let mut p = Position::start();
                let mut moves = Vec::new();
                while !p.is_game_over() {
                    if p.must_pass() {
                        moves.push(Move::Pass);
                        p.play_move(Move::Pass).unwrap();
                        let next = p.legal_moves().iter().next().unwrap();
                        moves.push(Move::Play(next));
                        return Some(moves);
                    }
                    let legal: Vec<Square> = p.legal_moves().iter().collect();
                    let sq = legal[rng.random_range(0..legal.len())];
                    moves.push(Move::Play(sq));
                    p.play(sq).unwrap();
                }
                None
            })
            .expect("a random game with a forced pass");
        // With the pass left out or written out, as a file of openings may have it.
        let without = okapi_core::formats::transcript::write_moves(&text);
        let with: Vec<String> = text
            .iter()
            .map(|m| match m {
                Move::Pass => "PA".to_string(),
                m => m.to_string(),
            })
            .collect();
        for opening in [without, with.join(" ")] {
            let moves = parse_transcript(&opening).unwrap();
            assert!(moves.contains(&Move::Pass));
            let mut a =
                OkapiContestant::new(Level::Greedy, Evaluator::shipped(), config(1), 1, None);
            let mut b =
                OkapiContestant::new(Level::Greedy, Evaluator::shipped(), config(2), 2, None);
            let r = play_game(&mut a, &mut b, &moves).unwrap();
            assert_eq!(r.game.moves()[..moves.len()], moves[..], "{opening}");
        }
    }

    #[test]
    fn greedy_against_random_plays_whole_games() {
        let mut a = OkapiContestant::new(Level::Greedy, Evaluator::shipped(), config(1), 1, None);
        let mut b = OkapiContestant::new(Level::Random, Evaluator::shipped(), config(2), 2, None);
        let r = play_game(&mut a, &mut b, &parse_transcript("f5d6").unwrap()).unwrap();
        assert!(r.game.position().is_game_over());
        assert_eq!(r.black + r.white, 64);
        assert!(r.moves_black + r.moves_white + 2 >= r.game.moves().len() as u32 - 2);
    }
}
