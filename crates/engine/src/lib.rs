//! The engine: one thread API for every front end (the app, `okapi nboard`, the console,
//! `okapi match`): requests in, events out, over crossbeam channels.
//!
//! [`Engine::send`] gives each [`Request`] a [`Ticket`]; tickets increase. Every event
//! arrives as a [`Reply`] with the ticket of the request it answers. Sending a request
//! supersedes every older one: whatever the engine was doing ends within milliseconds
//! (the searches poll the stop flag), and from then on the receiver sees **only the
//! newest request's events**, plus one [`Event::Superseded`] for each older request that
//! had not ended yet (queued requests never started get theirs too). So every request
//! ends with exactly one final event ([`Event::is_final`]): [`Event::Finished`] (after
//! its results), [`Event::Stopped`] ([`Engine::stop`]), [`Event::Error`] (a panic while
//! serving it is caught and reported so; the engine goes on with fresh search state) or
//! [`Event::Superseded`]. The engine drops stale events itself, so no front end compares
//! tickets to stay correct: each of them (the app's board, its script window on an engine
//! of its own, nboard, the console, match) wants the answers of its newest request only,
//! and ignores [`Event::Superseded`]. [`Engine::cancel`] supersedes without a new request
//! (a front end that leaves the engine idle). Adding a request type takes a variant of
//! [`Request`] and its arm in the worker.
//!
//! The engine's table size and threads are an [`EngineConfig`], the one validated
//! configuration every front end builds ([`EngineConfig::new`]); [`Engine::configure`]
//! changes it between requests. The engine knows nothing of egui or of the terminal: it
//! calls a `notify` callback after each event (the app passes `ctx.request_repaint`);
//! command-line front ends wait with [`Engine::call`].
//!
//! What it offers: the opening book's values of the moves it knows (tagged `book`) and
//! its moves; values of every legal move, deepened live by the midgame search on the
//! trained evaluation (tagged `depth@confidence%`) and exact or WLD once the position has
//! at most `solve_limit` empties; the best moves with their lines, depth by depth
//! ([`Request::Hint`]); solving a position to the end with a proven line; a move at any
//! [`Level`] ([`Request::Play`]: the one place where the book, the level, the temperature
//! and the seeded random generator choose); game analysis; and script solving.

mod choice;
pub mod config;
pub mod script_solve;
mod worker;

use crossbeam_channel::{Receiver, Sender, unbounded};
use okapi_core::board::{Move, Position, Square};
use okapi_core::book::BookMove;
use okapi_core::eval::Evaluator;
use okapi_core::game::Eval;
use okapi_core::level::Level;
use okapi_core::search::SolveMode;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;
use web_time::Instant;

pub use config::{ConfigError, EngineConfig, Machine, MemoryCap};

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
    /// Table size and threads (changed later by [`Engine::configure`]).
    pub config: EngineConfig,
    /// Seeds the engine's one random generator (random and weakened levels, the book's
    /// choice among close moves): the same seed and requests give the same moves.
    pub seed: u64,
}

impl Default for EngineOptions {
    /// A table of 16 MiB, every core and a seed from the clock (variety against people).
    fn default() -> Self {
        let seed = web_time::SystemTime::now()
            .duration_since(web_time::UNIX_EPOCH)
            .map_or(0x0CA9, |d| d.as_nanos() as u64);
        EngineOptions {
            evaluator: Evaluator::shipped(),
            config: EngineConfig::default(),
            seed,
        }
    }
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Request {
    /// Value every legal move, streaming better values as they come: the midgame search
    /// deepens up to `max_depth` plies (`None`: until stopped or superseded), and within
    /// the solve limit the values are proven. [`Event::AnalysisDone`] says they are all in.
    Analyse {
        position: Position,
        mode: SolveMode,
        max_depth: Option<u32>,
    },
    /// Solve the position to the end and prove a line.
    Solve { position: Position, mode: SolveMode },
    /// Choose a move at `level`. `time`: what the game clock allots to this move (see
    /// [`okapi_core::game::clock::clock_allotment`]); the search stops by then and the endgame
    /// solver is used only where it should finish in time. `book`: play from the opening
    /// book while it knows the position, among moves within this many discs of its best
    /// (full-strength levels only: a weakened level's mistakes are its point). The
    /// search's lines stream as [`Event::Line`]; the move comes as [`Event::Played`].
    Play {
        position: Position,
        level: Level,
        time: Option<Duration>,
        book: Option<f64>,
    },
    /// The best `count` moves at `level`'s limits with their lines, depth by depth
    /// ([`Event::Line`], best first in each depth); in the book (when `book`), its best
    /// `count` moves instead ([`Event::BookMoves`]).
    Hint {
        position: Position,
        level: Level,
        count: usize,
        book: bool,
    },
    /// The value of each position (for its side to move) at `level`'s limits, one
    /// [`Event::PositionValue`] each, in the order given.
    ValuePositions {
        positions: Vec<Position>,
        level: Level,
    },
    /// Value every move of a game against the best move: `plies` lists the ply number, the
    /// position before it and the move played (passes left out). Results stream per ply.
    AnalyseGame {
        plies: Vec<(usize, Position, Square)>,
    },
    /// Solves the positions of a script as `okapi -script` does, with the engine's threads
    /// (small positions several at a time: [`script_solve::solve_in_order`]) and tables
    /// of `16 << hash_bits` bytes, so the results, lines included, are those of the
    /// command line. Each result streams as [`Event::ScriptSolved`], in input order;
    /// [`Event::ScriptDone`] says the run is complete.
    SolveScript {
        positions: Vec<Position>,
        mode: SolveMode,
        lines: bool,
        hash_bits: u32,
    },
    /// Panics inside the engine thread: exercises the error path (tests, the app's debug
    /// menu).
    #[doc(hidden)]
    Crash,
}

/// A search line: the moves, the value of the first for its mover and where it comes from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Line {
    pub moves: Vec<Move>,
    /// Discs, to 1/100 (exact and WLD values are whole; WLD is 1/0/-1 in `eval`).
    pub discs: f64,
    pub eval: Eval,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Event {
    /// A value of a legal move, from the mover's view, with its source.
    MoveValue { square: Square, eval: Eval },
    /// A line of a [`Request::Play`] or [`Request::Hint`] search, as it deepens.
    Line { line: Line },
    /// The opening book's moves of the position, best first ([`Request::Hint`]).
    BookMoves { moves: Vec<BookMove> },
    /// How far a search has got.
    Progress {
        message: String,
        nodes: u64,
        elapsed: Duration,
    },
    /// All values of the analysis are in (its [`Event::Finished`] follows).
    AnalysisDone { nodes: u64, elapsed: Duration },
    /// The position solved: score for the side to move (exact discs, or 1/0/-1), a proven line.
    Solved {
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
        mv: Move,
        eval: Option<Eval>,
        discs: Option<f64>,
        pv: Vec<Move>,
        book: Option<BookMove>,
        candidates: Vec<(Move, Eval, f64)>,
    },
    /// The value of position `index` of a [`Request::ValuePositions`], for its side to move.
    PositionValue {
        index: usize,
        discs: f64,
        eval: Eval,
    },
    /// A move of the game valued: the move played and the best move, for the mover.
    PlyAnalysed {
        ply: usize,
        played: Eval,
        best: Eval,
        best_move: Square,
    },
    /// One position of a script solved: `index` into the request's positions; `line` is
    /// the proven line (empty without lines, or when the game is over).
    ScriptSolved {
        index: usize,
        outcome: okapi_core::formats::script::Outcome,
        score: i32,
        line: Vec<Move>,
        nodes: u64,
        elapsed: Duration,
    },
    /// Every position of the script is solved.
    ScriptDone { nodes: u64, elapsed: Duration },
    /// The request is done: the nodes it searched and its time.
    Finished { nodes: u64, elapsed: Duration },
    /// The request was stopped ([`Engine::stop`]) before it finished.
    Stopped,
    /// Something went wrong (including a panic in the engine thread).
    Error { message: String },
    /// A newer request (or [`Engine::cancel`]) replaced this one before it finished, or
    /// before it started: none of its other events reach the front end after the newer
    /// request was sent, and this is its one final event whatever it ended with.
    Superseded,
}

impl Event {
    /// Does this event end its request?
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            Event::Finished { .. } | Event::Stopped | Event::Error { .. } | Event::Superseded
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

/// The number [`Engine::send`] gives a request: every event of the request arrives with
/// it ([`Reply`]). Tickets increase with every request (and every [`Engine::cancel`]), so
/// a larger ticket is a newer request.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Ticket(u64);

impl std::fmt::Display for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// An event and the ticket of the request it answers.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reply {
    pub ticket: Ticket,
    pub event: Event,
}

/// What travels to the engine's loop, in order. Public, and serialisable with the
/// [`Reply`]s that come back, for a platform that serves the loop elsewhere (a Web
/// Worker: [`EngineLoop::take_waiting`], [`EngineLoop::serve`], [`EngineLoop::pass`]).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Message {
    Request(Ticket, Request),
    Configure(Configuration),
}

/// What a relay sends to an engine served elsewhere (the browser's engine worker): how
/// to start it, then the messages its [`Engine`] sent ([`EngineLoop::take_waiting`]),
/// each served with [`EngineLoop::serve`]. The evaluation is the shipped one.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Relayed {
    /// Start the engine with this table and threads, its random choices from `seed`.
    Start { config: EngineConfig, seed: u64 },
    /// Serve this message.
    Message(Message),
}

/// The engine's settings between requests ([`Engine::configure`]).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Configuration {
    /// Table size and threads.
    pub engine: EngineConfig,
    /// Empties up to which the live analysis and the game analysis solve exactly.
    pub solve_limit: u32,
    /// Whether the opening book gives values in the live analysis and the game analysis.
    pub book: bool,
}

/// Where the engine thread's events pass to the front end: the newest ticket sent and the
/// channel, under one lock, so that no event of an older request can enter the channel
/// once a newer request is sent (see [`Engine::send`]).
struct Gate {
    newest: u64,
    events: Sender<Reply>,
}

impl Gate {
    /// Lets `event` of `ticket` through unless a newer request was sent: then the event is
    /// dropped, or, if it ends its request, becomes [`Event::Superseded`]. True if
    /// something was sent.
    fn pass(&self, ticket: Ticket, event: Event) -> bool {
        let event = match (ticket.0 < self.newest, event.is_final()) {
            (false, _) => event,
            (true, true) => Event::Superseded,
            (true, false) => return false,
        };
        let _ = self.events.send(Reply { ticket, event });
        true
    }
}

fn lock(gate: &Mutex<Gate>) -> std::sync::MutexGuard<'_, Gate> {
    // The lock is held only to compare and send (no code that can panic), but a poisoned
    // lock still holds a consistent gate.
    gate.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The engine's side: it serves the requests of its [`Engine`] in order until that is
/// dropped ([`Engine::spawn_on`]).
pub struct EngineLoop {
    options: EngineOptions,
    messages: Receiver<Message>,
    shared: worker::Shared,
    notify: Box<dyn Fn() + Send>,
    /// The engine's state when the loop is served message by message ([`EngineLoop::serve`]).
    server: Option<worker::Server>,
}

/// What is waiting for an engine's loop ([`EngineLoop::take_waiting`]).
#[derive(Debug, Default)]
pub struct Waiting {
    /// The messages sent, in order.
    pub messages: Vec<Message>,
    /// Whether the [`Engine`] is gone (dropped): no more will come.
    pub closed: bool,
}

impl EngineLoop {
    /// Serves the requests, waiting for each, until the [`Engine`] is dropped.
    pub fn run(self) {
        worker::run(self.options, self.messages, self.shared, self.notify)
    }

    /// Serves one message now, to its request's final event (a platform without threads
    /// hands the loop its messages one by one: the browser's engine worker, given them
    /// by the page's relay). The events go out as [`EngineLoop::run`]'s do.
    pub fn serve(&mut self, message: Message) {
        let options = &self.options;
        let server = self
            .server
            .get_or_insert_with(|| worker::Server::new(options.clone()));
        server.handle(message, &self.shared, self.notify.as_ref());
    }

    /// The relay's side (a page whose engine runs in a worker): the messages the
    /// [`Engine`] sent that this loop has not taken, without waiting.
    pub fn take_waiting(&self) -> Waiting {
        let mut waiting = Waiting::default();
        loop {
            match self.messages.try_recv() {
                Ok(message) => waiting.messages.push(message),
                Err(crossbeam_channel::TryRecvError::Empty) => return waiting,
                Err(crossbeam_channel::TryRecvError::Disconnected) => {
                    waiting.closed = true;
                    return waiting;
                }
            }
        }
    }

    /// The relay's side: an event of request `reply.ticket` served elsewhere, passed to
    /// the [`Engine`] as the loop's own are (stale ones dropped, a superseded request's
    /// final event made [`Event::Superseded`]), then `notify`.
    pub fn pass(&self, reply: Reply) {
        if lock(&self.shared.gate).pass(reply.ticket, reply.event) {
            (self.notify)();
        }
    }

    /// The relay's side: the final event request `ticket` ends with at once, if the
    /// [`Engine`] superseded it ([`Event::Superseded`]) or stopped it ([`Event::Stopped`])
    /// since it was sent: its server elsewhere is then told no more of it.
    pub fn overtaken(&self, ticket: Ticket) -> Option<Event> {
        if ticket.0 < lock(&self.shared.gate).newest {
            Some(Event::Superseded)
        } else if ticket.0 <= self.shared.stopped_upto.load(Ordering::SeqCst) {
            Some(Event::Stopped)
        } else {
            None
        }
    }
}

/// A front end's side of the engine thread.
pub struct Engine {
    requests: Option<Sender<Message>>,
    events: Receiver<Reply>,
    gate: Arc<Mutex<Gate>>,
    stop: Arc<AtomicBool>,
    /// Tickets up to this one are stopped, even those the worker has not started yet
    /// (it clears the stop flag when it takes a request, which would lose an early stop).
    stopped_upto: Arc<AtomicU64>,
    /// The last ticket given.
    last_ticket: u64,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the engine thread; `notify` is called after every event it sends.
    pub fn spawn(notify: impl Fn() + Send + 'static) -> Engine {
        Engine::spawn_with(EngineOptions::default(), notify)
    }

    /// Starts the engine thread with these options; `notify` is called after every event.
    pub fn spawn_with(options: EngineOptions, notify: impl Fn() + Send + 'static) -> Engine {
        Engine::spawn_on(options, notify, |engine_loop| {
            std::thread::Builder::new()
                .name("okapi-engine".into())
                .spawn(move || engine_loop.run())
                .map(Some)
        })
        .expect("the engine thread starts")
    }

    /// Starts an engine whose loop `start` runs where it may block: on a thread (as
    /// [`Engine::spawn_with`] does; the handle is joined when the engine is dropped), or
    /// wherever a platform without threads serves it (then `None`).
    pub fn spawn_on(
        options: EngineOptions,
        notify: impl Fn() + Send + 'static,
        start: impl FnOnce(EngineLoop) -> std::io::Result<Option<JoinHandle<()>>>,
    ) -> std::io::Result<Engine> {
        let (req_tx, req_rx) = unbounded::<Message>();
        let (ev_tx, ev_rx) = unbounded::<Reply>();
        let gate = Arc::new(Mutex::new(Gate {
            newest: 0,
            events: ev_tx,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let stopped_upto = Arc::new(AtomicU64::new(0));
        let worker_shared = worker::Shared {
            gate: gate.clone(),
            stop: stop.clone(),
            stopped_upto: stopped_upto.clone(),
        };
        let engine_loop = EngineLoop {
            options,
            messages: req_rx,
            shared: worker_shared,
            notify: Box::new(notify),
            server: None,
        };
        let thread = start(engine_loop)?;
        Ok(Engine {
            requests: Some(req_tx),
            events: ev_rx,
            gate,
            stop,
            stopped_upto,
            last_ticket: 0,
            thread,
        })
    }

    /// Sends a request and gives its ticket. Whatever older request is running stops
    /// (within milliseconds: the searches poll the stop flag); from now on the receiver
    /// sees none of the older requests' events but their final one, as
    /// [`Event::Superseded`]. The request itself ends with exactly one final event
    /// ([`Event::is_final`]).
    pub fn send(&mut self, request: Request) -> Ticket {
        let ticket = self.supersede();
        if let Some(tx) = &self.requests {
            let _ = tx.send(Message::Request(ticket, request));
        }
        ticket
    }

    /// Stops whatever request is running or queued and drops its events still to come, as
    /// sending a new request would (its final event arrives as [`Event::Superseded`]).
    /// For a front end that leaves the engine idle: a position set up, a game over.
    pub fn cancel(&mut self) {
        self.supersede();
    }

    /// A new ticket, made the newest: the older requests' events already waiting in the
    /// channel are taken out (their final events put back as [`Event::Superseded`]) and
    /// the worker lets no more of them through (see [`Gate::pass`]).
    fn supersede(&mut self) -> Ticket {
        self.last_ticket += 1;
        let ticket = Ticket(self.last_ticket);
        {
            let mut gate = lock(&self.gate);
            gate.newest = ticket.0;
            let waiting: Vec<Reply> = self.events.try_iter().collect();
            for reply in waiting {
                gate.pass(reply.ticket, reply.event);
            }
        }
        // Order matters: the worker clears the flag when it takes a request, then looks
        // at the newest ticket.
        self.stop.store(true, Ordering::SeqCst);
        ticket
    }

    /// Changes the table size, threads, solve limit and book use for the requests sent
    /// from now on (the one running is not stopped). A new table size empties the table.
    pub fn configure(&self, configuration: Configuration) {
        if let Some(tx) = &self.requests {
            let _ = tx.send(Message::Configure(configuration));
        }
    }

    /// Stops the newest request, running or queued: it ends with [`Event::Stopped`].
    pub fn stop(&self) {
        // Order matters: the worker clears the flag, then checks `stopped_upto`.
        self.stopped_upto
            .fetch_max(self.last_ticket, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The next event, if one is waiting. Never blocks.
    pub fn try_recv(&self) -> Option<Reply> {
        self.events.try_recv().ok()
    }

    /// Waits up to `timeout` for an event (for tests and command-line use, never the UI).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Reply> {
        self.events.recv_timeout(timeout).ok()
    }

    /// Waits for the next event, however long (command-line front ends); `None` once the
    /// engine thread is gone.
    pub fn recv(&self) -> Option<Reply> {
        self.events.recv().ok()
    }

    /// The receiving end of the events, for front ends that wait on several sources at
    /// once (`crossbeam_channel::select!`). It holds what [`Engine::try_recv`] gives:
    /// stale events are never in it.
    pub fn events(&self) -> &Receiver<Reply> {
        &self.events
    }

    /// Sends `request` and waits for its end, handing each of its events to `each`. For
    /// command-line front ends; the app never waits.
    pub fn call(
        &mut self,
        request: Request,
        mut each: impl FnMut(&Event),
    ) -> Result<(), CallError> {
        let ticket = self.send(request);
        loop {
            let reply = self.recv().ok_or(CallError::Gone)?;
            if reply.ticket != ticket {
                continue; // the end of an older request
            }
            each(&reply.event);
            match reply.event {
                Event::Finished { .. } => return Ok(()),
                // Nothing can supersede it while this call holds the engine.
                Event::Stopped | Event::Superseded => return Err(CallError::Stopped),
                Event::Error { message } => return Err(CallError::Failed(message)),
                _ => {}
            }
        }
    }

    /// Waits, up to `timeout`, for the final event of request `ticket` (after a
    /// [`Engine::stop`] or [`Engine::cancel`]), dropping the events before it; false if it
    /// did not come.
    pub fn wait_for_end(&self, ticket: Ticket, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.events.recv_timeout(left) {
                Ok(r) if r.ticket == ticket && r.event.is_final() => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Everything still queued is older than this: the worker skips it all.
        lock(&self.gate).newest = u64::MAX;
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
