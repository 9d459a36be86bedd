//! `okapi nboard`: the engine side of the NBoard protocol, version 2, so that NBoard and
//! other hosts (and `okapi match`) can use Okapi.
//!
//! One line per command on standard input, one line per answer on standard output, each
//! flushed at once. The searches run on an engine thread so that `ping` (which NBoard
//! sends to cancel a search before the position changes) is answered at once: the search
//! stops, nothing more is said about it, then `pong N`.
//!
//! Commands: `nboard 2`, `set depth N`, `set game <GGF>`, `set contempt N`,
//! `move F5[/eval/time]` (or a bare `F5`, protocol 1), `go` (answers `=== F5/eval/time`),
//! `hint N` (answers `search <pv> <eval> 0 <depth>` lines for about the best N moves,
//! deepening), `analyze` (answers `analysis <moves played> <eval>` for each position of
//! the game, from the end back), `learn` (answers `learned`), `ping N` (answers
//! `pong N`), `nodestats` (answers `nodestats <nodes> <seconds>` of the last search),
//! `quit`. Depths are written as NBoard reads them: `12`, `24@95%` with Multi-ProbCut,
//! `100%W` for a proven win/draw/loss, `100%` for an exact score. Unknown or malformed
//! commands get a message on standard error and are otherwise ignored.
//!
//! In the opening book (unless `--no-book`), `hint N` answers `book <move> <eval> <games>
//! <depth>` lines for the book's best N moves instead of searching, and `go` plays a book
//! move at once (the best, or with `--book-randomness` any within that many discs).

use crate::board::{Board, Move, Position};
use crate::book::{BookMove, BookSource};
use crate::eval::Evaluator;
use crate::search::level::Level;
use crate::search::{Limits, MidgameSearch, MoveValue, SCALE, Source};
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

static EVAL: OnceLock<Evaluator> = OnceLock::new();

/// The evaluation, loaded once and shared by every search of the process: the shipped
/// weights unless [`use_weights`] chose a file first.
pub fn evaluator() -> &'static Evaluator {
    EVAL.get_or_init(Evaluator::embedded)
}

/// Uses the weights of `path` (an `okapi train` output) instead of the shipped ones.
/// Must come before the first search.
pub fn use_weights(path: Option<&std::path::Path>) -> anyhow::Result<()> {
    let Some(path) = path else { return Ok(()) };
    let e = Evaluator::load(path)?;
    EVAL.set(e)
        .map_err(|_| anyhow::anyhow!("the evaluation was already in use"))
}

use crate::formats::ggf::{self, move_text};
use crate::game::Game;

/// Where the protocol's answers go: whole lines, flushed at once, from any thread.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }

    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// A value in discs as NBoard reads it.
fn disc_text(value: i32) -> String {
    format!("{:.2}", value as f64 / SCALE as f64)
}

/// The principal line as one word: `F5D6C3`, `PA` for a pass.
fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|&m| move_text(m)).collect()
}

/// NBoard's depth: `12`, `12@95%`, `100%W` (proven win/draw/loss), `100%` (exact).
fn depth_text(source: Source, confidence: u32) -> String {
    match source {
        Source::Midgame { depth } if confidence < 100 => format!("{depth}@{confidence}%"),
        Source::Midgame { depth } => depth.to_string(),
        Source::Wld => "100%W".into(),
        Source::Exact => "100%".into(),
    }
}

enum Job {
    Go {
        board: Board,
        book: BookUse,
    },
    Hint {
        board: Board,
        n: usize,
        book: BookUse,
    },
    Analyze {
        positions: Vec<(usize, Board)>,
    },
}

struct EngineThread {
    jobs: Sender<(Job, Level)>,
    done: Receiver<()>,
    stop: Arc<AtomicBool>,
    stats: Arc<Mutex<(u64, f64)>>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl EngineThread {
    fn spawn(out: Out, hash_bits: u32) -> EngineThread {
        let (jobs, job_rx) = unbounded::<(Job, Level)>();
        let (done_tx, done) = unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(Mutex::new((0u64, 0f64)));
        let (stop2, stats2) = (stop.clone(), stats.clone());
        let handle = std::thread::Builder::new()
            .name("okapi-nboard-search".into())
            .spawn(move || {
                let mut search = MidgameSearch::new(evaluator(), hash_bits, stop2.clone());
                for (job, level) in job_rx {
                    let start = Instant::now();
                    let nodes0 = search.nodes();
                    run_job(&mut search, job, &level, &out, &stop2);
                    let elapsed = start.elapsed().as_secs_f64();
                    let nodes = search.nodes() - nodes0;
                    *stats2.lock().unwrap_or_else(|e| e.into_inner()) = (nodes, elapsed);
                    if !stop2.load(Ordering::Relaxed) {
                        out.line(&format!("nodestats {nodes} {elapsed:.2}"));
                        out.line("status");
                    }
                    if done_tx.send(()).is_err() {
                        break;
                    }
                }
            })
            .expect("spawning the search thread");
        EngineThread {
            jobs,
            done,
            stop,
            stats,
            handle: Some(handle),
        }
    }
}

fn search_limits(level: &Level) -> (Limits, usize) {
    match level {
        Level::Search(s) => (s.limits, s.selectivity),
        _ => match Level::numbered(1) {
            Level::Search(s) => (s.limits, s.selectivity),
            _ => unreachable!("numbered levels search"),
        },
    }
}

/// Whether `go` and `hint` look in the opening book, and how freely `go` picks from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BookUse {
    Off,
    /// On: `go` picks among book moves within this many discs of the best.
    On {
        randomness: f64,
    },
}

/// NBoard's `book` line: `book <move> <eval> <games> <depth>`.
fn book_line(m: &BookMove) -> String {
    let depth = match m.source {
        BookSource::Search { depth } => depth.to_string(),
        BookSource::Exact => "100%".into(),
        BookSource::Games => "0".into(),
    };
    format!(
        "book {} {} {} {}",
        move_text(Move::Play(m.square)),
        disc_text(m.value),
        m.games,
        depth
    )
}

/// A small xorshift generator for the book's choice (seeded from the clock: variety).
fn uniform_from_clock() -> impl FnMut() -> f64 {
    let mut x = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x2545_F491, |d| d.as_nanos() as u64)
        | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn run_job(
    search: &mut MidgameSearch<'_, Evaluator>,
    job: Job,
    level: &Level,
    out: &Out,
    stop: &AtomicBool,
) {
    let (limits, selectivity) = search_limits(level);
    search.set_selectivity(selectivity);
    let confidence = search.confidence();
    let stopped = || stop.load(Ordering::Relaxed);
    let search_line = |v: &MoveValue| {
        if !stopped() {
            out.line(&format!(
                "search {} {} 0 {}",
                pv_text(&v.pv),
                disc_text(v.value),
                depth_text(v.source, confidence)
            ));
        }
    };
    match job {
        Job::Go { board, book } => {
            out.line("status Okapi is thinking");
            let start = Instant::now();
            if let BookUse::On { randomness } = book
                && let Some(m) =
                    crate::book::shipped().choose(&board, randomness, &mut uniform_from_clock())
            {
                out.line(&book_line(&m));
                out.line(&format!(
                    "=== {}/{}/{:.1}",
                    move_text(Move::Play(m.square)),
                    disc_text(m.value),
                    start.elapsed().as_secs_f64()
                ));
                return;
            }
            if let Ok(r) = search.best_move(board, limits, search_line) {
                if !stopped() {
                    out.line(&format!(
                        "=== {}/{}/{:.1}",
                        move_text(r.best.mv),
                        disc_text(r.best.value),
                        start.elapsed().as_secs_f64()
                    ));
                }
            }
        }
        Job::Hint { board, n, book } => {
            out.line("status Okapi is analysing");
            // In the book, its best `n` moves are the hint (the moves it does not list
            // are no better than its searched alternative).
            if book != BookUse::Off {
                let moves = crate::book::shipped().moves(&board);
                if !moves.is_empty() {
                    for m in moves.iter().take(n.max(1)) {
                        out.line(&book_line(m));
                    }
                    return;
                }
            }
            if n <= 1 || board.moves() == 0 {
                let _ = search.best_move(board, limits, search_line);
                return;
            }
            // Every move's value, depth by depth; the best `n` of each round are told.
            let count = board.moves().count_ones() as usize;
            let mut round: Vec<MoveValue> = Vec::new();
            let _ = search.analyze_moves(board, limits, |v| {
                round.push(v.clone());
                if round.len() == count {
                    round.sort_by(|a, b| b.value.cmp(&a.value));
                    for v in round.iter().take(n) {
                        search_line(v);
                    }
                    round.clear();
                }
            });
        }
        Job::Analyze { positions } => {
            out.line("status Okapi is analysing the game");
            for (number, board) in positions {
                match search.best_move(board, limits, |_| {}) {
                    Ok(r) if !stopped() => {
                        out.line(&format!("analysis {number} {}", disc_text(r.best.value)))
                    }
                    _ => return,
                }
            }
        }
    }
}

/// Options of `okapi nboard`.
#[derive(Clone, Debug)]
pub struct NboardOptions {
    pub hash_bits: u32,
    /// Midgame depth until `set depth` says otherwise.
    pub depth: u32,
    pub book: BookUse,
}

impl Default for NboardOptions {
    fn default() -> Self {
        NboardOptions {
            hash_bits: 20,
            depth: 12,
            book: BookUse::On { randomness: 0.0 },
        }
    }
}

/// What one protocol line asks for.
enum Action {
    /// Stop any search now, then answer.
    Ping(String),
    Quit,
    /// Changes the state or answers at once.
    State(String),
    /// Starts a search (run after the current one).
    Search(String),
}

fn classify(line: &str) -> Action {
    let word = line.split_whitespace().next().unwrap_or("");
    match word {
        "ping" => Action::Ping(line.to_string()),
        "quit" => Action::Quit,
        "go" | "hint" | "analyze" => Action::Search(line.to_string()),
        _ => Action::State(line.to_string()),
    }
}

struct Session {
    game: Game,
    depth: u32,
    contempt: i32,
    book: BookUse,
    out: Out,
}

impl Session {
    fn level(&self) -> Level {
        Level::numbered(self.depth)
    }

    fn error(&self, msg: &str) {
        eprintln!("okapi nboard: {msg}");
    }

    /// Applies a command that needs no search.
    fn apply(&mut self, line: &str, engine: &EngineThread) {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return };
        match cmd {
            "nboard" => match words.next().map(str::parse::<u32>) {
                Some(Ok(1 | 2)) => self.out.line(&format!("set myname Okapi{}", self.depth)),
                Some(Ok(v)) => self.error(&format!(
                    "protocol version {v} is not known; speaking version 2"
                )),
                _ => self.error("'nboard' needs a version number (nboard 2)"),
            },
            "set" => match words.next() {
                Some("depth") => match words.next().map(str::parse::<u32>) {
                    Some(Ok(d)) if (1..=60).contains(&d) => {
                        self.depth = d;
                        self.out.line(&format!("set myname Okapi{d}"));
                    }
                    _ => self.error(&format!("'{line}': the depth must be 1 to 60")),
                },
                Some("game") => {
                    let text = line.split_once("game").map_or("", |x| x.1);
                    match ggf::read(text) {
                        Ok(g) => self.game = g,
                        Err(e) => self.error(&format!("set game: {e}; the game is unchanged")),
                    }
                }
                Some("contempt") => match words.next().map(str::parse::<i32>) {
                    Some(Ok(c)) => self.contempt = c,
                    _ => self.error(&format!("'{line}': contempt must be a whole number")),
                },
                Some(other) => self.error(&format!("set {other}: unknown setting, ignored")),
                None => self.error("'set' needs a setting"),
            },
            "move" => match words.next() {
                Some(text) => self.play(text),
                None => self.error("'move' needs a move (move F5/0.5/1.2)"),
            },
            "learn" => self.out.line("learned"),
            "nodestats" => {
                let (nodes, secs) = *engine.stats.lock().unwrap_or_else(|e| e.into_inner());
                self.out.line(&format!("nodestats {nodes} {secs:.2}"));
            }
            _ if words.next().is_none() && Move::parse(cmd).is_ok() => self.play(cmd),
            _ => self.error(&format!("unknown command '{line}', ignored")),
        }
    }

    fn play(&mut self, text: &str) {
        let mv_text = text.split('/').next().unwrap_or("");
        match Move::parse(mv_text) {
            Ok(mv) => {
                if let Err(e) = self.game.play(mv, None) {
                    self.error(&format!("move {mv}: {e}; the game is unchanged"));
                }
            }
            Err(e) => self.error(&format!("move: {e}")),
        }
    }

    /// The job a search command asks for, or why there is none.
    fn job(&self, line: &str) -> Result<Job, String> {
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("");
        let pos = self.game.position();
        match cmd {
            "go" => {
                if pos.is_game_over() {
                    return Err("go: the game is over".into());
                }
                Ok(Job::Go {
                    board: pos.board(),
                    book: self.book,
                })
            }
            "hint" => {
                let n = match words.next().map(str::parse::<usize>) {
                    None => 1,
                    Some(Ok(n)) if n >= 1 => n,
                    _ => return Err(format!("'{line}': hint needs a count (hint 3)")),
                };
                if pos.is_game_over() {
                    return Err("hint: the game is over".into());
                }
                Ok(Job::Hint {
                    board: pos.board(),
                    n,
                    book: self.book,
                })
            }
            "analyze" => {
                let positions = (0..=self.game.len())
                    .rev()
                    .map(|i| (i, self.game.position_at(i).board()))
                    .collect();
                Ok(Job::Analyze { positions })
            }
            _ => Err(format!("unknown command '{line}'")),
        }
    }
}

/// `okapi nboard` options.
#[derive(clap::Args, Debug)]
pub struct NboardArgs {
    /// Hash table of about 16 * 2^N bytes.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(10..=28))]
    pub hash_bits: u32,
    /// Midgame depth until the host sends `set depth`.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Evaluation weights to use instead of the shipped ones (a file `okapi train` wrote).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
    /// Do not use the opening book (`go` and `hint` search every position).
    #[arg(long)]
    pub no_book: bool,
    /// `go` picks among book moves within this many discs of the best, weighted towards
    /// it (0: the best).
    #[arg(
        long,
        value_name = "DISCS",
        default_value_t = 0.0,
        conflicts_with = "no_book"
    )]
    pub book_randomness: f64,
}

pub fn main(a: NboardArgs) -> std::process::ExitCode {
    if let Err(e) = use_weights(a.weights.as_deref()) {
        eprintln!("okapi nboard: {e:#}");
        return std::process::ExitCode::from(2);
    }
    run(&NboardOptions {
        hash_bits: a.hash_bits,
        depth: a.depth,
        book: if a.no_book {
            BookUse::Off
        } else {
            BookUse::On {
                randomness: a.book_randomness.max(0.0),
            }
        },
    })
}

/// Runs the protocol on standard input and output.
pub fn run(opts: &NboardOptions) -> std::process::ExitCode {
    let stdin = io::stdin();
    let (tx, rx) = unbounded();
    std::thread::spawn(move || {
        for line in stdin.lock().lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    eprintln!("okapi nboard: cannot read standard input: {e}");
                    return;
                }
            }
        }
    });
    serve(rx, Out::new(Box::new(io::stdout())), opts);
    std::process::ExitCode::SUCCESS
}

/// The protocol loop over lines from `lines` (ends when it closes or on `quit`).
pub fn serve(lines: Receiver<String>, out: Out, opts: &NboardOptions) {
    let mut engine = EngineThread::spawn(out.clone(), opts.hash_bits);
    let mut session = Session {
        game: Game::new(Position::start()),
        depth: opts.depth.clamp(1, 60),
        contempt: 0,
        book: opts.book,
        out,
    };
    let mut pending: VecDeque<String> = VecDeque::new();
    let mut busy = false;
    let mut input_open = true;
    loop {
        // Run queued commands while no search is going on.
        while !busy {
            let Some(line) = pending.pop_front() else {
                break;
            };
            match classify(&line) {
                Action::Search(l) => match session.job(&l) {
                    Ok(job) => {
                        engine.stop.store(false, Ordering::Relaxed);
                        let _ = engine.jobs.send((job, session.level()));
                        busy = true;
                    }
                    Err(e) => session.error(&e),
                },
                Action::State(l) => session.apply(&l, &engine),
                Action::Ping(_) | Action::Quit => unreachable!("handled on arrival"),
            }
        }
        if !input_open && !busy {
            break;
        }
        let line = if input_open {
            select! {
                recv(lines) -> msg => match msg {
                    Ok(l) => Some(l),
                    Err(_) => { input_open = false; None }
                },
                recv(engine.done) -> _ => { busy = false; None }
            }
        } else {
            let _ = engine.done.recv();
            busy = false;
            None
        };
        let Some(line) = line else { continue };
        let line = line.trim().to_string();
        if line.is_empty() {
            continue;
        }
        match classify(&line) {
            Action::Ping(l) => {
                // Stop thinking; searches asked for before the ping are cancelled with it.
                if busy {
                    engine.stop.store(true, Ordering::Relaxed);
                    let _ = engine.done.recv();
                    busy = false;
                }
                for queued in std::mem::take(&mut pending) {
                    if let Action::State(s) = classify(&queued) {
                        session.apply(&s, &engine);
                    }
                }
                let n = l.split_whitespace().nth(1).unwrap_or("0");
                session.out.line(&format!("pong {n}"));
            }
            Action::Quit => break,
            _ => pending.push_back(line),
        }
    }
    let _ = session.contempt;
    engine.stop.store(true, Ordering::Relaxed);
    let (jobs, _) = unbounded();
    drop(std::mem::replace(&mut engine.jobs, jobs));
    if let Some(h) = engine.handle.take() {
        let _ = h.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_texts() {
        assert_eq!(depth_text(Source::Midgame { depth: 12 }, 100), "12");
        assert_eq!(depth_text(Source::Midgame { depth: 24 }, 95), "24@95%");
        assert_eq!(depth_text(Source::Exact, 95), "100%");
        assert_eq!(depth_text(Source::Wld, 100), "100%W");
    }

    #[test]
    fn pv_and_values() {
        let pv = [
            Move::parse("f5").unwrap(),
            Move::Pass,
            Move::parse("d6").unwrap(),
        ];
        assert_eq!(pv_text(&pv), "F5PAD6");
        assert_eq!(disc_text(-SCALE * 3 / 2), "-1.50");
    }
}
