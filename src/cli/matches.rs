//! `okapi match`: two engines play each other from balanced openings, each opening once
//! with each colour, and the result is told as wins/draws/losses, discs, time and an Elo
//! difference with its 95% interval.
//!
//! An engine is an Okapi level (`--a 8`, `--b greedy`, `--a 12t1.5`, `--b 2s`: anything
//! `Level::parse` reads) or any program speaking the NBoard protocol (`--a-cmd "edax
//! -nboard"`, or `okapi nboard` itself), driven with `set game`, `ping`, `go`.
//!
//! Openings: by default distinct positions after a number of random plies (8), kept when
//! a depth-6 search finds them balanced (within 2 discs), drawn from a fixed seed so that
//! every run plays the same ones (for the same evaluation weights); or transcripts from a
//! file, one per line (`--openings FILE`).

use crate::board::symmetry::{Symmetry, transform};
use crate::board::{Color, Move, Position, Square};
use crate::engine::{Engine, EngineOptions, Event, Request, evaluator};
use crate::game::{Game, Seat, Session};
use crate::search::level::Level;
use crate::search::{Limits, MidgameSearch, SCALE};
use anyhow::{Context, anyhow, bail};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
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
    /// (8t1.5), or a time per move (2s).
    #[arg(long, value_name = "LEVEL", conflicts_with = "a_cmd")]
    pub a: Option<String>,
    /// Engine B as an Okapi level.
    #[arg(long, value_name = "LEVEL", conflicts_with = "b_cmd")]
    pub b: Option<String>,
    /// Engine A as a command speaking the NBoard protocol (e.g. "okapi nboard").
    #[arg(long, value_name = "COMMAND")]
    pub a_cmd: Option<String>,
    /// Engine B as a command speaking the NBoard protocol.
    #[arg(long, value_name = "COMMAND")]
    pub b_cmd: Option<String>,
    /// Depth sent to external engines with `set depth`.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub cmd_depth: u32,
    /// Number of games (each opening is played twice, colours swapped).
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
    /// Give up on an external engine that takes longer than this per move (seconds).
    #[arg(long, default_value_t = 600.0)]
    pub move_timeout: f64,
    /// Hash table of each Okapi engine: about 16 * 2^N bytes.
    #[arg(long, value_name = "N", default_value_t = 18, value_parser = clap::value_parser!(u32).range(10..=28))]
    pub hash_bits: u32,
    /// Evaluation weights for the Okapi engines instead of the shipped ones.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
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
}

/// One side of a match.
pub trait Contestant {
    fn name(&self) -> String;
    /// The move to play at the cursor of `game` (the side to move has a legal move).
    fn choose(&mut self, game: &Game) -> anyhow::Result<Move>;
}

/// An Okapi level, played by its own engine (own table, own seeded generator) through
/// the engine API every front end uses.
pub struct OkapiContestant {
    level: Level,
    engine: Engine,
    /// The book's randomness in discs when the player uses the book.
    book: Option<f64>,
}

impl OkapiContestant {
    /// Its engine has a table of `16 << hash_bits` bytes and searches with `threads`.
    pub fn new(level: Level, hash_bits: u32, threads: usize, seed: u64) -> OkapiContestant {
        let options = EngineOptions {
            hash_bits,
            seed,
            threads,
        };
        OkapiContestant {
            level,
            engine: Engine::spawn_with(options, || {}),
            book: None,
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
        format!("okapi {}{book}", self.level.name())
    }

    fn choose(&mut self, game: &Game) -> anyhow::Result<Move> {
        let position = game.position();
        let (level, book) = (self.level, self.book);
        let mut chosen = None;
        self.engine
            .call(
                |generation| Request::Play {
                    generation,
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

/// A program speaking the NBoard protocol.
pub struct ExternalPlayer {
    command: String,
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    ping: u32,
    timeout: Duration,
}

impl ExternalPlayer {
    pub fn start(command: &str, depth: u32, timeout: Duration) -> anyhow::Result<ExternalPlayer> {
        let mut cmd = shell_command(command)?;
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start the engine '{command}'"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut p = ExternalPlayer {
            command: command.to_string(),
            name: command.to_string(),
            child,
            stdin,
            lines,
            ping: 0,
            timeout,
        };
        p.send("nboard 2")?;
        p.send(&format!("set depth {depth}"))?;
        p.sync()?;
        Ok(p)
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .with_context(|| format!("the engine '{}' stopped listening", self.command))
    }

    fn next_line(&mut self, deadline: Instant) -> anyhow::Result<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => {
                if let Some(name) = l.strip_prefix("set myname ") {
                    self.name = name.trim().to_string();
                }
                Ok(l)
            }
            Err(RecvTimeoutError::Timeout) => {
                bail!("the engine '{}' did not answer in time", self.command)
            }
            Err(RecvTimeoutError::Disconnected) => bail!("the engine '{}' has ended", self.command),
        }
    }

    /// `ping`, then everything up to its `pong`, within the move timeout (an engine that
    /// never answers is given up, then killed when the player is dropped).
    fn sync(&mut self) -> anyhow::Result<()> {
        self.ping += 1;
        let n = self.ping;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let l = self.next_line(deadline)?;
            let mut w = l.split_whitespace();
            if w.next() == Some("pong") && w.next().and_then(|x| x.parse::<u32>().ok()) == Some(n) {
                return Ok(());
            }
        }
    }
}

#[cfg(unix)]
fn shell_command(command: &str) -> anyhow::Result<std::process::Command> {
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(format!("exec {command}"));
    Ok(c)
}

#[cfg(not(unix))]
fn shell_command(command: &str) -> anyhow::Result<std::process::Command> {
    let mut words = command.split_whitespace();
    let program = words
        .next()
        .ok_or_else(|| anyhow!("an empty engine command"))?;
    let mut c = std::process::Command::new(program);
    c.args(words);
    Ok(c)
}

impl Contestant for ExternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game) -> anyhow::Result<Move> {
        let mut to_here = game.clone();
        to_here.delete_variation(to_here.ply());
        let text = crate::formats::ggf::write(&to_here);
        self.send(&format!("set game {}", text.trim_end()))?;
        self.sync()?;
        self.send("go")?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let l = self.next_line(deadline)?;
            if let Some(rest) = l.strip_prefix("===") {
                // `=== F5/eval/time`, or with blanks between the parts (Edax).
                let word = rest
                    .split(|c: char| c == '/' || c.is_whitespace())
                    .find(|w| !w.is_empty())
                    .unwrap_or("");
                return Move::parse(word)
                    .map_err(|_| anyhow!("the engine '{}' answered '{l}'", self.command));
            }
        }
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
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
    if chars.len() % 2 != 0 {
        return Err(format!("'{text}' is not a list of moves"));
    }
    crate::formats::transcript::read_moves(&chars.iter().collect::<String>())
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
    let mut search = MidgameSearch::new(evaluator(), 16, Arc::new(AtomicBool::new(false)));
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
    let mut session = Session::new(Game::default(), [Seat::Human; 2]);
    for &m in opening {
        session
            .play_any(m, None)
            .map_err(|e| anyhow!("opening: {m}: {e}"))?;
    }
    session.game_mut().black = black.name();
    session.game_mut().white = white.name();
    let (mut time, mut moves) = ([Duration::ZERO; 2], [0u32; 2]);
    while !session.is_over() {
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
    Ok(GameResult {
        game: session.into_game(),
        black: b,
        white: w,
        time_black: time[0],
        time_white: time[1],
        moves_black: moves[0],
        moves_white: moves[1],
    })
}

fn make_player(
    level: &Option<String>,
    cmd: &Option<String>,
    a: &MatchArgs,
    seed: u64,
) -> anyhow::Result<Box<dyn Contestant>> {
    match (level, cmd) {
        (_, Some(c)) => Ok(Box::new(ExternalPlayer::start(
            c,
            a.cmd_depth,
            Duration::from_secs_f64(a.move_timeout.max(0.01)),
        )?)),
        (Some(l), None) => {
            let level = Level::parse(l).map_err(|e| anyhow!(e))?;
            let threads = a.threads.unwrap_or_else(crate::search::available_threads);
            let player = OkapiContestant::new(level, a.hash_bits, threads, seed);
            Ok(Box::new(if a.book {
                player.with_book(a.book_randomness)
            } else {
                player
            }))
        }
        (None, None) => bail!("each engine needs a level (--a 8) or a command (--a-cmd ...)"),
    }
}

fn save_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("ggf.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}

pub fn main(a: MatchArgs) -> ExitCode {
    match run(&a) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("okapi match: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Plays the match and prints it; returns A's tally.
pub fn run(a: &MatchArgs) -> anyhow::Result<Tally> {
    if let Some(path) = &a.weights {
        crate::engine::use_weights(path)?;
    }
    let level_a = a.a.clone().or_else(|| a.a_level.clone());
    let level_b = a.b.clone().or_else(|| a.b_level.clone());
    let mut pa = make_player(&level_a, &a.a_cmd, a, a.seed.wrapping_mul(3))?;
    let mut pb = make_player(
        &level_b,
        &a.b_cmd,
        a,
        a.seed.wrapping_mul(3).wrapping_add(1),
    )?;
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
    let (name_a, name_b) = (pa.name(), pb.name());
    println!(
        "match: A = {name_a}, B = {name_b}; {} games from {} openings, each with both colours",
        a.games,
        openings.len().min(pairs)
    );
    let bar = ProgressBar::with_draw_target(Some(a.games as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} {msg}")
            .expect("a valid progress template"),
    );
    let mut t = Tally::default();
    let mut saved = String::new();
    for g in 0..a.games as usize {
        let opening = &openings[(g / 2) % openings.len()];
        let a_is_black = g % 2 == 0;
        let r = if a_is_black {
            play_game(pa.as_mut(), pb.as_mut(), opening)
        } else {
            play_game(pb.as_mut(), pa.as_mut(), opening)
        }
        .with_context(|| format!("game {}", g + 1))?;
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
        t.discs_a += da;
        t.discs_b += db;
        t.time_a += ta;
        t.time_b += tb;
        t.moves_a += ma;
        t.moves_b += mb;
        let verdict = match da.cmp(&db) {
            std::cmp::Ordering::Greater => {
                t.wins += 1;
                "A wins"
            }
            std::cmp::Ordering::Equal => {
                t.draws += 1;
                "draw"
            }
            std::cmp::Ordering::Less => {
                t.losses += 1;
                "B wins"
            }
        };
        let line = format!(
            "game {:>4}  {:<20} A {} {:>2}-{:<2} B  {:<6}  time A {:.3}s B {:.3}s   (+{} ={} -{})",
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
        bar.suspend(|| println!("{line}"));
        bar.inc(1);
        bar.set_message(format!("A +{} ={} -{}", t.wins, t.draws, t.losses));
        if let Some(path) = &a.save {
            saved += &crate::formats::ggf::write_dated(
                &r.game,
                &crate::formats::ggf::now_utc(),
                "Okapi match",
            );
            saved.push('\n');
            save_atomically(path, &saved)?;
        }
    }
    bar.finish_and_clear();
    print_summary(&name_a, &name_b, &t);
    Ok(t)
}

fn print_summary(name_a: &str, name_b: &str, t: &Tally) {
    let per_move = |d: Duration, m: u32| d.as_secs_f64() / m.max(1) as f64;
    let (e, lo, hi) = elo_interval(t);
    println!("---");
    println!("A = {name_a}, B = {name_b}, {} games", t.games());
    println!(
        "A: {} wins, {} draws, {} losses: score {:.1}%",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score()
    );
    println!(
        "discs: A {}, B {} (average {:+.2} per game for A)",
        t.discs_a,
        t.discs_b,
        (t.discs_a as f64 - t.discs_b as f64) / t.games().max(1) as f64
    );
    println!(
        "time: A {:.3} s ({:.5} s/move), B {:.3} s ({:.5} s/move)",
        t.time_a.as_secs_f64(),
        per_move(t.time_a, t.moves_a),
        t.time_b.as_secs_f64(),
        per_move(t.time_b, t.moves_b)
    );
    println!(
        "Elo difference A - B: {} (95% interval {} .. {})",
        elo_text(e),
        elo_text(lo),
        elo_text(hi)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn greedy_against_random_plays_whole_games() {
        let mut a = OkapiContestant::new(Level::Greedy, 10, 1, 1);
        let mut b = OkapiContestant::new(Level::Random, 10, 2, 2);
        let r = play_game(&mut a, &mut b, &parse_transcript("f5d6").unwrap()).unwrap();
        assert!(r.game.position().is_game_over());
        assert_eq!(r.black + r.white, 64);
        assert!(r.moves_black + r.moves_white + 2 >= r.game.moves().len() as u32 - 2);
    }
}
