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
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

/// How an engine starts.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// The evaluation every search of the engine uses: its midgame search, the endgame
    /// solver's move ordering, the script solvers ([`Evaluator::shipped`] by default; a
    /// weight file with `Arc::new(Evaluator::load(path)?)`). Engines on different
    /// weights run side by side.
    pub evaluator: Arc<Evaluator>,
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
            evaluator: Evaluator::shipped(),
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
mod tests;
