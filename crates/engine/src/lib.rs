//! The engine: one thread API for every front end (the app, `okapi nboard`, the console,
//! `okapi match`): requests in, events out, over crossbeam channels.
//!
//! Every [`Request`] carries a generation id. Sending a request raises the stop flag, so
//! whatever the engine was doing ends within milliseconds (the searches poll the flag),
//! and the engine skips queued requests older than the newest one. Events carry the
//! generation they answer, so a front end drops stale ones with a single comparison.
//! Every request ends with exactly one of [`Event::Finished`], [`Event::Stopped`] or
//! [`Event::Error`]. A panic while serving a request is caught and reported as
//! [`Event::Error`]; the engine then goes on with fresh search state. The engine knows
//! nothing of egui or of the terminal: it calls a `notify` callback after each event (the
//! app passes `ctx.request_repaint`); command-line front ends wait with [`Engine::call`].
//!
//! What it offers: the opening book's values of the moves it knows (tagged `book`) and
//! its moves; values of every legal move, deepened live by the midgame search on the
//! trained evaluation (tagged `depth@confidence%`) and exact or WLD once the position has
//! at most `solve_limit` empties; the best moves with their lines, depth by depth
//! ([`Request::Hint`]); solving a position to the end with a proven line; a move at any
//! [`Level`] ([`Request::Play`]: the one place where the book, the level, the temperature
//! and the seeded random generator choose); game analysis; and script solving.

mod choice;
pub mod script_solve;
mod worker;

use crossbeam_channel::{Receiver, Sender, unbounded};
use okapi_core::board::{Move, Position, Square};
use okapi_core::book::BookMove;
use okapi_core::eval::Evaluator;
use okapi_core::game::Eval;
use okapi_core::search::SolveMode;
use okapi_core::search::level::Level;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Default for the number of empties up to which moves are solved exactly.
pub const DEFAULT_SOLVE_LIMIT: u32 = 20;
/// Default level of the engine player.
pub const DEFAULT_LEVEL: u32 = 8;
/// ProbCut level of the live analysis and the game analysis (an index into
/// `search::probcut::LEVELS`: 2.0 sigma, 95%): deep values quickly, rarely wrong.
pub const ANALYSIS_SELECTIVITY: usize = 2;
/// Depth of the game analysis above the solver's reach.
pub const GAME_ANALYSIS_DEPTH: u32 = 12;
/// The depth the app's live analysis stops at by default (the app's setting). Measured
/// with `okapi nboard` (`set depth N`, `go`) on a 36-empty midgame position, 2 busy
/// cores, medians of 3: depth 18 2.1 s, 20 8.4 s, 22 10.5 s, 24 37 s for the best move;
/// valuing every move costs a few times that, so 20 settles within a minute or so on a
/// small machine and is deeper than the play levels (8 by default) look.
pub const DEFAULT_ANALYSIS_DEPTH: u32 = 20;
/// The app's engine player picks among book moves within this many discs of the best
/// (weighted towards the best): some variety against people, never a known loss of more.
pub const BOOK_RANDOMNESS: f64 = 1.5;

static EVALUATOR: OnceLock<&'static Evaluator> = OnceLock::new();

/// The trained evaluation, loaded once and shared by every search of the process: the
/// shipped weights unless [`use_weights`] chose a file first. The shipped weights are
/// [`okapi_core::eval::shared`]'s copy, the one endgame solvers order with by default, so the
/// process decompresses them once, not twice.
pub fn evaluator() -> &'static Evaluator {
    EVALUATOR.get_or_init(|| {
        let shipped: &'static std::sync::Arc<Evaluator> =
            Box::leak(Box::new(okapi_core::eval::shared()));
        shipped
    })
}

/// Why other weights could not be used.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    #[error(transparent)]
    Load(#[from] okapi_core::eval::LoadError),
    #[error("the evaluation was already in use; choose the weights before the first search")]
    AlreadyInUse,
}

/// Uses the weights of `path` (an `okapi train` output) instead of the shipped ones for
/// every engine of the process. Must come before the first search.
pub fn use_weights(path: &std::path::Path) -> Result<(), WeightsError> {
    if EVALUATOR.get().is_some() {
        return Err(WeightsError::AlreadyInUse);
    }
    let e: &'static Evaluator = Box::leak(Box::new(Evaluator::load(path)?));
    EVALUATOR.set(e).map_err(|_| WeightsError::AlreadyInUse)
}

/// Weight files loaded by [`load_weights`], each once, kept for the life of the process.
static LOADED: std::sync::Mutex<Vec<(std::path::PathBuf, &'static Evaluator)>> =
    std::sync::Mutex::new(Vec::new());

/// The evaluation of the weight file `path` (an `okapi train` output), for an engine of its
/// own ([`Engine::spawn_evaluating`]) beside engines on other weights: a match of two weight
/// files. Loaded once per process and kept for its life, as the shipped weights are, so a
/// file asked for again (the same file by another path too) is not loaded twice.
pub fn load_weights(
    path: &std::path::Path,
) -> Result<&'static Evaluator, okapi_core::eval::LoadError> {
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, e)) = loaded.iter().find(|(p, _)| *p == key) {
        return Ok(e);
    }
    let e: &'static Evaluator = Box::leak(Box::new(Evaluator::load(path)?));
    loaded.push((key, e));
    Ok(e)
}

/// An evaluation kept for the life of the process, in the shared form the endgame solver
/// orders its moves with.
struct KeptEvaluation(&'static Evaluator);

impl okapi_core::search::Evaluate for KeptEvaluation {
    fn evaluate(&self, board: &okapi_core::board::Board) -> i32 {
        self.0.evaluate(board)
    }

    fn patterns(&self) -> Option<&Evaluator> {
        Some(self.0)
    }
}

/// How an engine starts.
#[derive(Clone, Copy, Debug)]
pub struct EngineOptions {
    /// Transposition table of `16 << hash_bits` bytes (changed later by
    /// [`Request::Configure`]).
    pub hash_bits: u32,
    /// Seeds the engine's one random generator (random and weakened levels, the book's
    /// choice among close moves): the same seed and requests give the same moves.
    pub seed: u64,
    /// Threads every search may use, at least 1 (changed later by [`Request::Configure`]).
    pub threads: usize,
}

impl Default for EngineOptions {
    /// A table of 16 MB, a seed from the clock (variety against people) and every core.
    fn default() -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x0CA9, |d| d.as_nanos() as u64);
        EngineOptions {
            hash_bits: 20,
            seed,
            threads: okapi_core::search::available_threads(),
        }
    }
}

#[derive(Clone, Debug)]
pub enum Request {
    /// Value every legal move, streaming better values as they come: the midgame search
    /// deepens up to `max_depth` plies (`None`: until stopped or superseded), and within
    /// the solve limit the values are proven. [`Event::AnalysisDone`] ends it.
    Analyse {
        generation: u64,
        position: Position,
        mode: SolveMode,
        max_depth: Option<u32>,
    },
    /// Solve the position to the end and prove a line.
    Solve {
        generation: u64,
        position: Position,
        mode: SolveMode,
    },
    /// Choose a move at `level`. `time`: what the game clock allots to this move (see
    /// [`okapi_core::game::clock::clock_allotment`]); the search stops by then and the endgame
    /// solver is used only where it should finish in time. `book`: play from the opening
    /// book while it knows the position, among moves within this many discs of its best
    /// (full-strength levels only: a weakened level's mistakes are its point). The
    /// search's lines stream as [`Event::Line`]; the move comes as [`Event::Played`].
    Play {
        generation: u64,
        position: Position,
        level: Level,
        time: Option<Duration>,
        book: Option<f64>,
    },
    /// The best `count` moves at `level`'s limits with their lines, depth by depth
    /// ([`Event::Line`], best first in each depth); in the book (when `book`), its best
    /// `count` moves instead ([`Event::BookMoves`]).
    Hint {
        generation: u64,
        position: Position,
        level: Level,
        count: usize,
        book: bool,
    },
    /// The value of each position (for its side to move) at `level`'s limits, one
    /// [`Event::PositionValue`] each, in the order given.
    ValuePositions {
        generation: u64,
        positions: Vec<Position>,
        level: Level,
    },
    /// Settings: empties up to which the live analysis solves; transposition table size;
    /// whether the opening book gives values in the live analysis; the threads every
    /// search may use (at least 1; 0 counts as 1).
    Configure {
        solve_limit: u32,
        hash_bits: u32,
        book: bool,
        threads: usize,
    },
    /// Value every move of a game against the best move: `plies` lists the ply number, the
    /// position before it and the move played (passes left out). Results stream per ply.
    AnalyseGame {
        generation: u64,
        plies: Vec<(usize, Position, Square)>,
    },
    /// Solves the positions of a script as `okapi -script` does, with the engine's threads
    /// (small positions several at a time: [`script_solve::solve_in_order`]) and tables
    /// of `16 << hash_bits` bytes, so the results, lines included, are those of the
    /// command line. Each result streams as [`Event::ScriptSolved`], in input order;
    /// [`Event::ScriptDone`] ends the run.
    SolveScript {
        generation: u64,
        positions: Vec<Position>,
        mode: SolveMode,
        lines: bool,
        hash_bits: u32,
    },
    /// Panics inside the engine thread: exercises the error path (tests, the app's debug
    /// menu).
    #[doc(hidden)]
    Crash { generation: u64 },
}

impl Request {
    fn generation(&self) -> Option<u64> {
        match self {
            Request::Analyse { generation, .. }
            | Request::Solve { generation, .. }
            | Request::Play { generation, .. }
            | Request::Hint { generation, .. }
            | Request::ValuePositions { generation, .. }
            | Request::AnalyseGame { generation, .. }
            | Request::SolveScript { generation, .. }
            | Request::Crash { generation } => Some(*generation),
            Request::Configure { .. } => None,
        }
    }
}

/// A search line: the moves, the value of the first for its mover and where it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub moves: Vec<Move>,
    /// Discs, to 1/100 (exact and WLD values are whole; WLD is 1/0/-1 in `eval`).
    pub discs: f64,
    pub eval: Eval,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A value of a legal move, from the mover's view, with its source.
    MoveValue {
        generation: u64,
        square: Square,
        eval: Eval,
    },
    /// A line of a [`Request::Play`] or [`Request::Hint`] search, as it deepens.
    Line { generation: u64, line: Line },
    /// The opening book's moves of the position, best first ([`Request::Hint`]).
    BookMoves {
        generation: u64,
        moves: Vec<BookMove>,
    },
    /// How far a search has got.
    Progress {
        generation: u64,
        message: String,
        nodes: u64,
        elapsed: Duration,
    },
    /// All values of this generation are in.
    AnalysisDone {
        generation: u64,
        nodes: u64,
        elapsed: Duration,
    },
    /// The position solved: score for the side to move (exact discs, or 1/0/-1), a proven line.
    Solved {
        generation: u64,
        mode: SolveMode,
        score: i32,
        line: Vec<Move>,
        nodes: u64,
        elapsed: Duration,
    },
    /// The engine player's move, with its value when the engine knows it (`discs` to
    /// 1/100), its line, the book move it came from, and — for a weakened level — each
    /// candidate move's value and chance, best first.
    Played {
        generation: u64,
        mv: Move,
        eval: Option<Eval>,
        discs: Option<f64>,
        pv: Vec<Move>,
        book: Option<BookMove>,
        candidates: Vec<(Move, Eval, f64)>,
    },
    /// The value of position `index` of a [`Request::ValuePositions`], for its side to move.
    PositionValue {
        generation: u64,
        index: usize,
        discs: f64,
        eval: Eval,
    },
    /// A move of the game valued: the move played and the best move, for the mover.
    PlyAnalysed {
        generation: u64,
        ply: usize,
        played: Eval,
        best: Eval,
        best_move: Square,
    },
    /// One position of a script solved: `index` into the request's positions; `line` is
    /// the proven line (empty without lines, or when the game is over).
    ScriptSolved {
        generation: u64,
        index: usize,
        outcome: okapi_core::formats::script::Outcome,
        score: i32,
        line: Vec<Move>,
        nodes: u64,
        elapsed: Duration,
    },
    /// Every position of the script is solved.
    ScriptDone {
        generation: u64,
        nodes: u64,
        elapsed: Duration,
    },
    /// The request is done: the nodes it searched and its time.
    Finished {
        generation: u64,
        nodes: u64,
        elapsed: Duration,
    },
    /// The request was stopped before it finished.
    Stopped { generation: u64 },
    /// Something went wrong (including a panic in the engine thread).
    Error { generation: u64, message: String },
}

impl Event {
    pub fn generation(&self) -> u64 {
        match self {
            Event::MoveValue { generation, .. }
            | Event::Line { generation, .. }
            | Event::BookMoves { generation, .. }
            | Event::Progress { generation, .. }
            | Event::AnalysisDone { generation, .. }
            | Event::Solved { generation, .. }
            | Event::Played { generation, .. }
            | Event::PositionValue { generation, .. }
            | Event::Stopped { generation }
            | Event::PlyAnalysed { generation, .. }
            | Event::ScriptSolved { generation, .. }
            | Event::ScriptDone { generation, .. }
            | Event::Finished { generation, .. }
            | Event::Error { generation, .. } => *generation,
        }
    }

    /// Does this event end its request?
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            Event::Finished { .. } | Event::Stopped { .. } | Event::Error { .. }
        )
    }
}

/// How a request waited on with [`Engine::call`] ended short of [`Event::Finished`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    #[error("stopped")]
    Stopped,
    #[error("{0}")]
    Failed(String),
    #[error("the engine thread is gone")]
    Gone,
}

/// A front end's side of the engine thread.
pub struct Engine {
    requests: Option<Sender<Request>>,
    events: Receiver<Event>,
    stop: Arc<AtomicBool>,
    latest: Arc<AtomicU64>,
    /// Generations up to this one are stopped, even those the worker has not started yet
    /// (it clears the stop flag when it takes a request, which would lose an early Stop).
    stopped_upto: Arc<AtomicU64>,
    next_generation: u64,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the engine thread; `notify` is called after every event it sends.
    pub fn spawn(notify: impl Fn() + Send + 'static) -> Engine {
        Engine::spawn_with(EngineOptions::default(), notify)
    }

    /// Starts the engine thread with these options; `notify` is called after every event.
    pub fn spawn_with(options: EngineOptions, notify: impl Fn() + Send + 'static) -> Engine {
        Engine::spawn_evaluating(options, evaluator(), notify)
    }

    /// Starts an engine that evaluates with `evaluation` (from [`load_weights`]) instead
    /// of the process's [`evaluator`]: its midgame search and its endgame solver's move
    /// ordering both use it. Engines on different weights run side by side.
    pub fn spawn_evaluating(
        options: EngineOptions,
        evaluation: &'static Evaluator,
        notify: impl Fn() + Send + 'static,
    ) -> Engine {
        let (req_tx, req_rx) = unbounded::<Request>();
        let (ev_tx, ev_rx) = unbounded::<Event>();
        let stop = Arc::new(AtomicBool::new(false));
        let latest = Arc::new(AtomicU64::new(0));
        let worker_stop = stop.clone();
        let worker_latest = latest.clone();
        let stopped_upto = Arc::new(AtomicU64::new(0));
        let worker_stopped = stopped_upto.clone();
        let thread = std::thread::Builder::new()
            .name("okapi-engine".into())
            .spawn(move || {
                let out = worker::Outbox {
                    events: ev_tx,
                    notify: Box::new(notify),
                    ended: std::cell::Cell::new(false),
                };
                worker::run(
                    options,
                    evaluation,
                    req_rx,
                    out,
                    worker_stop,
                    worker_latest,
                    worker_stopped,
                )
            })
            .expect("the engine thread starts");
        Engine {
            requests: Some(req_tx),
            events: ev_rx,
            stop,
            latest,
            stopped_upto,
            next_generation: 0,
            thread: Some(thread),
        }
    }

    /// A fresh generation id; the caller builds its request with it and sends it.
    pub fn new_generation(&mut self) -> u64 {
        self.next_generation += 1;
        self.next_generation
    }

    /// Sends a request, stopping whatever older generation is running.
    pub fn send(&mut self, request: Request) {
        if let Some(g) = request.generation() {
            // Order matters: the worker clears the flag, then checks the generation.
            self.latest.fetch_max(g, Ordering::SeqCst);
            self.stop.store(true, Ordering::SeqCst);
        }
        if let Some(tx) = &self.requests {
            let _ = tx.send(request);
        }
    }

    /// Stops the current search (it reports [`Event::Stopped`]).
    pub fn stop(&self) {
        // Order matters: the worker clears the flag, then checks `stopped_upto`.
        self.stopped_upto
            .fetch_max(self.next_generation, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The next event, if one is waiting. Never blocks.
    pub fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    /// Waits up to `timeout` for an event (for tests and command-line use, never the UI).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        self.events.recv_timeout(timeout).ok()
    }

    /// Waits for the next event, however long (command-line front ends); `None` once the
    /// engine thread is gone.
    pub fn recv(&self) -> Option<Event> {
        self.events.recv().ok()
    }

    /// The receiving end of the events, for front ends that wait on several sources at
    /// once (`crossbeam_channel::select!`).
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    /// Sends the request `make` builds with a fresh generation and waits for its end,
    /// handing each of its events to `each` (stale events of older requests are dropped).
    /// For command-line front ends; the app never waits.
    pub fn call(
        &mut self,
        make: impl FnOnce(u64) -> Request,
        mut each: impl FnMut(&Event),
    ) -> Result<(), CallError> {
        let generation = self.new_generation();
        self.send(make(generation));
        loop {
            let event = self.recv().ok_or(CallError::Gone)?;
            if event.generation() != generation {
                continue;
            }
            each(&event);
            match event {
                Event::Finished { .. } => return Ok(()),
                Event::Stopped { .. } => return Err(CallError::Stopped),
                Event::Error { message, .. } => return Err(CallError::Failed(message)),
                _ => {}
            }
        }
    }

    /// Waits, up to `timeout`, for the end of request `generation` (after a
    /// [`Engine::stop`]); false if it did not come.
    pub fn wait_for_end(&self, generation: u64, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.events.recv_timeout(left) {
                Ok(e) if e.generation() == generation && e.is_final() => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    }

    /// The generation of the last request built.
    pub fn generation(&self) -> u64 {
        self.next_generation
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Everything still queued is older than this: the worker skips it all.
        self.latest.store(u64::MAX, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.requests = None; // closes the channel: the worker leaves its loop
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

pub fn mode_name(mode: SolveMode) -> &'static str {
    match mode {
        SolveMode::Exact => "exact",
        SolveMode::Wld => "WLD",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use okapi_core::game::EvalSource;
    use okapi_core::search::EndgameSolver;

    /// Asks the engine for a move at `level` and waits for it: the `Played` event.
    fn play_at(engine: &mut Engine, position: Position, level: Level, book: bool) -> Event {
        let generation = engine.new_generation();
        engine.send(Request::Play {
            generation,
            position,
            level,
            time: None,
            book: book.then_some(BOOK_RANDOMNESS),
        });
        let events = collect_until(engine, |e| matches!(e, Event::Played { .. }));
        events
            .into_iter()
            .last()
            .expect("collect_until ends with the event")
    }

    fn collect_until(engine: &Engine, mut done: impl FnMut(&Event) -> bool) -> Vec<Event> {
        let mut seen = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Some(e) = engine.recv_timeout(Duration::from_millis(100)) {
                let end = done(&e);
                seen.push(e);
                if end {
                    return seen;
                }
            }
        }
        panic!("no final event; got {seen:?}");
    }

    /// FFO #1 (14 empties, Black to move, best g8 +18) from the repository's test data.
    fn ffo1() -> Position {
        let text = include_str!("../../../tests/data/ffo1-39.scr");
        let line = text
            .lines()
            .find(|l| !l.starts_with('%') && l.len() > 64)
            .unwrap();
        Position::parse(line).unwrap()
    }

    #[test]
    fn analysis_streams_exact_values_that_agree_with_the_solver() {
        let pos = ffo1();
        let mut engine = Engine::spawn(|| {});
        let g = engine.new_generation();
        engine.send(Request::Analyse {
            generation: g,
            position: pos,
            mode: SolveMode::Exact,
            max_depth: None,
        });
        let events = collect_until(&engine, |e| matches!(e, Event::AnalysisDone { .. }));
        let exact: Vec<(Square, i32)> = events
            .iter()
            .filter_map(|e| match e {
                Event::MoveValue { square, eval, .. } if eval.source == EvalSource::Exact => {
                    Some((*square, eval.value))
                }
                _ => None,
            })
            .collect();
        assert_eq!(exact.len(), pos.legal_moves().len() as usize);
        let best = exact.iter().map(|v| v.1).max().unwrap();
        let root = EndgameSolver::new(18)
            .solve(pos.board(), SolveMode::Exact, false)
            .unwrap();
        assert_eq!(best, root.score);
        let line = events.iter().find_map(|e| match e {
            Event::Solved { score, line, .. } => Some((*score, line.clone())),
            _ => None,
        });
        let (score, line) = line.expect("the analysis proves the principal line");
        assert_eq!(score, best);
        let Move::Play(first) = line[0] else {
            panic!("FFO #1 starts with a move")
        };
        assert_eq!(
            exact.iter().find(|v| v.0 == first).map(|v| v.1),
            Some(best),
            "the line starts with a best move"
        );
        let mut p = pos;
        for m in &line {
            p.play_move(*m).unwrap();
        }
        assert!(p.is_game_over(), "the line runs to the end");
        // each value checked independently
        let mut solver = EndgameSolver::new(18);
        for (sq, v) in exact {
            let mut p = pos;
            p.play(sq).unwrap();
            let s = solver.solve(p.board(), SolveMode::Exact, false).unwrap();
            assert_eq!(v, -s.score, "{sq}");
        }
    }

    #[test]
    fn newer_generation_supersedes_and_stop_works() {
        let mut engine = Engine::spawn(|| {});
        // A 26-empties solve takes a long while: it must stop at once.
        let text = include_str!("../../../tests/data/ffo40-59.scr");
        let line = text.lines().find(|l| l.contains("ffo#57")).unwrap();
        let pos = Position::parse(line).unwrap();
        assert!(pos.empty_count() >= 24);
        let g1 = engine.new_generation();
        engine.send(Request::Solve {
            generation: g1,
            position: pos,
            mode: SolveMode::Exact,
        });
        std::thread::sleep(Duration::from_millis(50));
        let g2 = engine.new_generation();
        engine.send(Request::Play {
            generation: g2,
            position: Position::start(),
            level: Level::Greedy,
            time: None,
            book: None,
        });
        let events = collect_until(&engine, |e| matches!(e, Event::Played { .. }));
        assert!(events.iter().all(|e| !matches!(e, Event::Solved { .. })));
        let Some(Event::Played {
            generation,
            mv: Move::Play(sq),
            ..
        }) = events.last()
        else {
            panic!()
        };
        assert_eq!(*generation, g2);
        assert!(Position::start().is_legal(*sq));
        // Stop without a new request
        let g3 = engine.new_generation();
        engine.send(Request::Solve {
            generation: g3,
            position: pos,
            mode: SolveMode::Exact,
        });
        std::thread::sleep(Duration::from_millis(50));
        let asked = Instant::now();
        engine.stop();
        let events = collect_until(&engine, |e| {
            matches!(e, Event::Stopped { .. } | Event::Solved { .. })
        });
        assert!(matches!(events.last(), Some(Event::Stopped { generation }) if *generation == g3));
        eprintln!("stop took effect in {:?}", asked.elapsed());
        // Stopped before the worker has taken the request: the stop is not lost.
        let mut fresh = Engine::spawn(|| {});
        let g = fresh.new_generation();
        fresh.send(Request::Solve {
            generation: g,
            position: pos,
            mode: SolveMode::Exact,
        });
        fresh.stop();
        let events = collect_until(&fresh, |e| {
            matches!(e, Event::Stopped { .. } | Event::Solved { .. })
        });
        assert!(matches!(events.last(), Some(Event::Stopped { generation }) if *generation == g));
    }

    #[test]
    fn a_script_streams_its_results_and_stops_at_once() {
        let mut engine = Engine::spawn(|| {});
        let pos = ffo1();
        // A finished game is "solved" as its count, with no line.
        let finished = Position::from_discs(u64::MAX, 0, okapi_core::board::Color::Black);
        let g = engine.new_generation();
        engine.send(Request::SolveScript {
            generation: g,
            positions: vec![pos, finished],
            mode: SolveMode::Exact,
            lines: true,
            hash_bits: 16,
        });
        let events = collect_until(&engine, |e| matches!(e, Event::ScriptDone { .. }));
        let solved: Vec<(usize, i32, usize)> = events
            .iter()
            .filter_map(|e| match e {
                Event::ScriptSolved {
                    index, score, line, ..
                } => Some((*index, *score, line.len())),
                _ => None,
            })
            .collect();
        assert_eq!(solved.len(), 2);
        assert_eq!((solved[0].0, solved[0].1), (0, 18), "FFO #1: +18");
        assert!(solved[0].2 >= 14, "a line to the end");
        assert_eq!((solved[1].1, solved[1].2), (64, 0));
        // A long script stops within the request, reporting Stopped.
        let text = include_str!("../../../tests/data/ffo40-59.scr");
        let line = text.lines().find(|l| l.contains("ffo#57")).unwrap();
        let long = Position::parse(line).unwrap();
        let g = engine.new_generation();
        engine.send(Request::SolveScript {
            generation: g,
            positions: vec![long, long],
            mode: SolveMode::Exact,
            lines: false,
            hash_bits: 18,
        });
        std::thread::sleep(Duration::from_millis(100));
        engine.stop();
        let events = collect_until(&engine, |e| {
            matches!(e, Event::Stopped { .. } | Event::ScriptDone { .. })
        });
        assert!(matches!(events.last(), Some(Event::Stopped { generation }) if *generation == g));
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::ScriptSolved { .. }))
        );
    }

    #[test]
    fn configured_threads_reach_the_searches_and_scripts_come_out_the_same() {
        // Small positions: FFO #1-#8 and the positions one move later.
        let text = include_str!("../../../tests/data/ffo1-39.scr");
        let mut positions = Vec::new();
        for line in text.lines().filter(|l| !l.starts_with('%')).take(8) {
            let p = Position::parse(line).unwrap();
            let mut next = p;
            next.play(p.legal_moves().iter().next().unwrap()).unwrap();
            positions.extend([p, next]);
        }
        let script = |engine: &mut Engine| {
            let g = engine.new_generation();
            engine.send(Request::SolveScript {
                generation: g,
                positions: positions.clone(),
                mode: SolveMode::Exact,
                lines: true,
                hash_bits: 18,
            });
            collect_until(engine, |e| matches!(e, Event::ScriptDone { .. }))
                .into_iter()
                .filter_map(|e| match e {
                    Event::ScriptSolved {
                        index, score, line, ..
                    } => Some((index, score, line)),
                    _ => None,
                })
                .collect::<Vec<_>>()
        };
        let mut one = Engine::spawn_with(
            EngineOptions {
                threads: 1,
                ..EngineOptions::default()
            },
            || {},
        );
        let mut two = Engine::spawn(|| {});
        two.send(Request::Configure {
            solve_limit: DEFAULT_SOLVE_LIMIT,
            hash_bits: 18,
            book: false,
            threads: 2,
        });
        let g = two.new_generation();
        two.send(Request::Solve {
            generation: g,
            position: ffo1(),
            mode: SolveMode::Exact,
        });
        let events = collect_until(&two, |e| matches!(e, Event::Solved { .. }));
        assert!(matches!(
            events.last(),
            Some(Event::Solved { score: 18, .. })
        ));
        let by_two = script(&mut two);
        assert_eq!(
            by_two.iter().map(|r| r.0).collect::<Vec<_>>(),
            (0..positions.len()).collect::<Vec<_>>(),
            "in input order"
        );
        assert_eq!(by_two, script(&mut one));
    }

    #[test]
    fn a_panic_becomes_an_error_event_and_the_engine_goes_on() {
        let mut engine = Engine::spawn(|| {});
        let g = engine.new_generation();
        engine.send(Request::Crash { generation: g });
        let events = collect_until(&engine, |e| matches!(e, Event::Error { .. }));
        let Some(Event::Error { message, .. }) = events.last() else {
            panic!()
        };
        assert!(message.contains("deliberate crash"), "{message}");
        let g = engine.new_generation();
        engine.send(Request::Solve {
            generation: g,
            position: ffo1(),
            mode: SolveMode::Wld,
        });
        let events = collect_until(&engine, |e| matches!(e, Event::Solved { .. }));
        let Some(Event::Solved { score, line, .. }) = events.last() else {
            panic!()
        };
        assert_eq!(*score, 1);
        assert!(!line.is_empty());
    }

    #[test]
    fn perfect_player_plays_the_best_move_in_the_endgame() {
        let mut engine = Engine::spawn(|| {});
        let level = Level::numbered(DEFAULT_LEVEL).solving_from(DEFAULT_SOLVE_LIMIT);
        let played = play_at(&mut engine, ffo1(), level, true);
        let Event::Played { mv, eval, .. } = &played else {
            panic!()
        };
        assert_eq!(*mv, Move::parse("g8").unwrap());
        assert_eq!(
            *eval,
            Some(Eval {
                value: 18,
                source: EvalSource::Exact
            })
        );
    }

    #[test]
    fn game_analysis_values_played_moves_against_the_best() {
        // From FFO #1, Black plays b1 (-4) instead of g8 (+18): 22 discs lost.
        let pos = ffo1();
        let b1 = Square::parse("b1").unwrap();
        let mut after = pos;
        after.play(b1).unwrap();
        let reply = after.legal_moves().iter().next().unwrap();
        let mut engine = Engine::spawn(|| {});
        let g = engine.new_generation();
        engine.send(Request::AnalyseGame {
            generation: g,
            plies: vec![(0, pos, b1), (1, after, reply)],
        });
        let events = collect_until(&engine, |e| matches!(e, Event::AnalysisDone { .. }));
        let first = events
            .iter()
            .find_map(|e| match e {
                Event::PlyAnalysed {
                    ply: 0,
                    played,
                    best,
                    best_move,
                    ..
                } => Some((*played, *best, *best_move)),
                _ => None,
            })
            .unwrap();
        assert_eq!(
            first.0,
            Eval {
                value: -4,
                source: EvalSource::Exact
            }
        );
        assert_eq!(
            first.1,
            Eval {
                value: 18,
                source: EvalSource::Exact
            }
        );
        assert_eq!(first.2, Square::parse("g8").unwrap());
        let second = events
            .iter()
            .find(|e| matches!(e, Event::PlyAnalysed { ply: 1, .. }));
        let Some(Event::PlyAnalysed { played, best, .. }) = second else {
            panic!()
        };
        assert!(played.value <= best.value);
        assert_eq!(
            best.value, 4,
            "White's best after b1 is the negation of Black's -4"
        );
    }

    #[test]
    fn above_the_solve_limit_the_midgame_search_values_every_move_deeper_and_deeper() {
        let mut engine = Engine::spawn(|| {});
        // The book would value the start position's moves: this is about the search.
        engine.send(Request::Configure {
            solve_limit: DEFAULT_SOLVE_LIMIT,
            hash_bits: 20,
            book: false,
            threads: 1,
        });
        let pos = Position::start();
        let g = engine.new_generation();
        engine.send(Request::Analyse {
            generation: g,
            position: pos,
            mode: SolveMode::Exact,
            max_depth: None,
        });
        let mut depths: std::collections::HashMap<Square, u8> = Default::default();
        let events = collect_until(&engine, |e| {
            if let Event::MoveValue { square, eval, .. } = e {
                let EvalSource::Midgame { depth, confidence } = eval.source else {
                    panic!("{eval:?}")
                };
                assert_eq!(confidence, 95);
                let old = depths.insert(*square, depth).unwrap_or(0);
                assert_eq!(depth, old + 1, "one depth after another for {square}");
            }
            depths.len() == 4 && depths.values().all(|&d| d >= 6)
        });
        let progress = events
            .iter()
            .rev()
            .find_map(|e| match e {
                Event::Progress { message, .. } => Some(message.clone()),
                _ => None,
            })
            .unwrap();
        assert!(progress.starts_with("depth "), "{progress}");
        assert!(progress.contains("@95%"), "{progress}");
        // the principal line follows the value: a legal line from the start position
        let line = progress.split_whitespace().skip(3);
        let mut p = pos;
        for m in line {
            p.play_move(Move::parse(m).unwrap()).unwrap();
        }
        assert!(p.empty_count() < 60, "the line has moves");
    }

    #[test]
    fn in_the_book_the_analysis_gives_book_values_and_the_player_book_moves() {
        let mut p = Position::start();
        p.play(Square::parse("f5").unwrap()).unwrap();
        let book = okapi_core::book::shipped().moves(&p.board());
        assert!(!book.is_empty(), "the shipped book knows f5");
        let mut engine = Engine::spawn(|| {});
        let g = engine.new_generation();
        engine.send(Request::Analyse {
            generation: g,
            position: p,
            mode: SolveMode::Exact,
            max_depth: None,
        });
        let mut tagged = std::collections::HashMap::new();
        collect_until(&engine, |e| {
            if let Event::MoveValue { square, eval, .. } = e
                && eval.source == EvalSource::Book
            {
                tagged.insert(*square, eval.value);
            }
            tagged.len() == book.len()
        });
        engine.stop();
        for m in &book {
            assert_eq!(
                tagged[&m.square],
                (m.discs()).round() as i32,
                "{}",
                m.square
            );
        }
        // The engine player plays a book move within the randomness of the best.
        for _ in 0..5 {
            let played = play_at(&mut engine, p, Level::numbered(DEFAULT_LEVEL), true);
            let Event::Played {
                mv: Move::Play(sq),
                eval: Some(eval),
                ..
            } = &played
            else {
                panic!("{played:?}")
            };
            assert_eq!(eval.source, EvalSource::Book);
            let m = book.iter().find(|m| m.square == *sq).expect("a book move");
            assert!(book[0].discs() - m.discs() <= BOOK_RANDOMNESS + 1e-9);
        }
        // With the book off the same request searches.
        engine.send(Request::Configure {
            solve_limit: DEFAULT_SOLVE_LIMIT,
            hash_bits: 18,
            book: false,
            threads: 1,
        });
        let played = play_at(&mut engine, p, Level::numbered(2), false);
        let Event::Played {
            eval: Some(eval), ..
        } = &played
        else {
            panic!("{played:?}")
        };
        assert!(matches!(eval.source, EvalSource::Midgame { depth: 2, .. }));
    }

    #[test]
    fn a_weakened_level_reports_its_candidates() {
        let mut engine = Engine::spawn(|| {});
        engine.send(Request::Configure {
            solve_limit: DEFAULT_SOLVE_LIMIT,
            hash_bits: 18,
            book: true,
            threads: 1,
        });
        let played = play_at(
            &mut engine,
            Position::start(),
            Level::parse("4t3").unwrap(),
            true,
        );
        let Event::Played { mv, candidates, .. } = &played else {
            panic!()
        };
        assert_eq!(candidates.len(), 4);
        assert!(candidates.iter().any(|c| c.0 == *mv));
        let total: f64 = candidates.iter().map(|c| c.2).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(candidates.iter().all(|c| c.1.source
            == EvalSource::Midgame {
                depth: 4,
                confidence: 100
            }));
    }
}
