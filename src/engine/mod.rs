//! The engine thread: requests in, events out, over crossbeam channels.
//!
//! Every [`Request`] carries a generation id. Sending a request raises the stop flag, so
//! whatever the engine was doing ends within milliseconds (the searches poll the flag),
//! and the engine skips queued requests older than the newest one. Events carry the
//! generation they answer, so the app drops stale ones with a single comparison.
//! A panic while serving a request is caught and reported as [`Event::Error`]; the
//! engine then goes on with fresh search state. The engine knows nothing of egui: it
//! calls a `notify` callback after each event (the app passes `ctx.request_repaint`).
//!
//! What it offers: the opening book's values of the moves it knows (tagged `book`; on by
//! default, see [`Request::Configure`]) and its moves for the engine player; values of
//! every legal move, deepened live by the midgame search on
//! the trained evaluation (tagged `depth@confidence%`) and exact or WLD once the position
//! has at most `solve_limit` empties; solving a position to the end with a proven line;
//! the players of [`Player`] at a [`Level`]; and game analysis.

pub mod script_solve;

use crate::board::{BitBoard, Board, Move, Position, Square};
use crate::book::BookMove;
use crate::eval::Evaluator;
use crate::game::{Eval, EvalSource, Player};
use crate::search::level::{Level, choose_move};
use crate::search::{Limits, MidgameSearch, MoveValue, SCALE, SolveMode, Source};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::panic::AssertUnwindSafe;
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
/// The engine player picks among book moves within this many discs of the best (weighted
/// towards the best): some variety against people, never a known loss of more.
pub const BOOK_RANDOMNESS: f64 = 1.5;

/// The trained evaluation, loaded once and shared by every search of the process.
fn evaluator() -> &'static Evaluator {
    static EVALUATOR: OnceLock<Evaluator> = OnceLock::new();
    EVALUATOR.get_or_init(Evaluator::embedded)
}

#[derive(Clone, Debug)]
pub enum Request {
    /// Value every legal move, streaming better values as they come.
    Analyse {
        generation: u64,
        position: Position,
        mode: SolveMode,
    },
    /// Solve the position to the end and prove a line.
    Solve {
        generation: u64,
        position: Position,
        mode: SolveMode,
    },
    /// Choose a move for `player`. `time`: what the game clock allots to this move (see
    /// [`clock_allotment`]); the search stops by then and the endgame solver is used only
    /// where it should finish in time.
    Play {
        generation: u64,
        position: Position,
        player: Player,
        time: Option<Duration>,
    },
    /// Settings: empties up to which the solver is used; transposition table size;
    /// the level of [`Player::Perfect`]; whether the opening book gives values and moves.
    Configure {
        solve_limit: u32,
        hash_bits: u32,
        level: Level,
        book: bool,
    },
    /// Value every move of a game against the best move: `plies` lists the ply number, the
    /// position before it and the move played (passes left out). Results stream per ply.
    AnalyseGame {
        generation: u64,
        plies: Vec<(usize, Position, Square)>,
    },
    /// Solves the positions of a script one after the other, as `okapi -script` does (a
    /// fresh table of `16 << hash_bits` bytes, the same order), so the results, lines
    /// included, are those of the command line. Each result streams as
    /// [`Event::ScriptSolved`]; [`Event::ScriptDone`] ends the run.
    SolveScript {
        generation: u64,
        positions: Vec<Position>,
        mode: SolveMode,
        lines: bool,
        hash_bits: u32,
    },
    /// Panics inside the engine thread: exercises the error path (tests, Help menu).
    #[doc(hidden)]
    Crash { generation: u64 },
}

impl Request {
    fn generation(&self) -> Option<u64> {
        match self {
            Request::Analyse { generation, .. }
            | Request::Solve { generation, .. }
            | Request::Play { generation, .. }
            | Request::AnalyseGame { generation, .. }
            | Request::SolveScript { generation, .. }
            | Request::Crash { generation } => Some(*generation),
            Request::Configure { .. } => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A value of a legal move, from the mover's view, with its source.
    MoveValue {
        generation: u64,
        square: Square,
        eval: Eval,
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
    /// The engine player's move, with its value when the engine knows it. A weakened
    /// level (temperature) also gives each candidate move's value and chance, best first.
    Played {
        generation: u64,
        mv: Move,
        eval: Option<Eval>,
        candidates: Vec<(Move, Eval, f64)>,
    },
    /// The request was stopped before it finished.
    Stopped { generation: u64 },
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
        outcome: crate::formats::script::Outcome,
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
    /// Something went wrong (including a panic in the engine thread).
    Error { generation: u64, message: String },
}

impl Event {
    pub fn generation(&self) -> u64 {
        match self {
            Event::MoveValue { generation, .. }
            | Event::Progress { generation, .. }
            | Event::AnalysisDone { generation, .. }
            | Event::Solved { generation, .. }
            | Event::Played { generation, .. }
            | Event::Stopped { generation }
            | Event::PlyAnalysed { generation, .. }
            | Event::ScriptSolved { generation, .. }
            | Event::ScriptDone { generation, .. }
            | Event::Error { generation, .. } => *generation,
        }
    }
}

/// The app's side of the engine thread.
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
                let out = Outbox {
                    events: ev_tx,
                    notify: Box::new(notify),
                };
                run_worker(req_rx, out, worker_stop, worker_latest, worker_stopped)
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

struct Outbox {
    events: Sender<Event>,
    notify: Box<dyn Fn() + Send>,
}

impl Outbox {
    fn send(&self, event: Event) {
        let _ = self.events.send(event);
        (self.notify)();
    }
}

fn run_worker(
    requests: Receiver<Request>,
    out: Outbox,
    stop: Arc<AtomicBool>,
    latest: Arc<AtomicU64>,
    stopped_upto: Arc<AtomicU64>,
) {
    let mut solve_limit = DEFAULT_SOLVE_LIMIT;
    let mut hash_bits = 20;
    let mut level = Level::numbered(DEFAULT_LEVEL);
    let mut use_book = true;
    let mut worker = Worker::new(stop.clone(), hash_bits);
    while let Ok(request) = requests.recv() {
        if let Request::Configure {
            solve_limit: limit,
            hash_bits: bits,
            level: new_level,
            book,
        } = request
        {
            solve_limit = limit;
            level = new_level;
            use_book = book;
            if bits != hash_bits {
                hash_bits = bits;
                worker = Worker::new(stop.clone(), hash_bits);
            }
            continue;
        }
        let generation = request.generation().unwrap_or(0);
        stop.store(false, Ordering::SeqCst);
        if generation < latest.load(Ordering::SeqCst) {
            continue; // a newer request is queued
        }
        if generation <= stopped_upto.load(Ordering::SeqCst) {
            // Stopped before it started.
            out.send(Event::Stopped { generation });
            continue;
        }
        worker.solve_limit = solve_limit;
        worker.level = level;
        worker.use_book = use_book;
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| worker.serve(request, &out)));
        if let Err(panic) = result {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            out.send(Event::Error {
                generation,
                message: format!("the engine failed: {what}"),
            });
            // The search state may be half-updated: start afresh.
            worker = Worker::new(stop.clone(), hash_bits);
        }
    }
}

struct Worker {
    search: MidgameSearch<'static, Evaluator>,
    /// The engine's stop flag (the searches poll it).
    stop: Arc<AtomicBool>,
    rng: Rng,
    solve_limit: u32,
    level: Level,
    use_book: bool,
}

impl Worker {
    fn new(stop: Arc<AtomicBool>, hash_bits: u32) -> Worker {
        Worker {
            search: MidgameSearch::new(evaluator(), hash_bits, stop.clone()),
            stop,
            rng: Rng::seeded(0x0CA9),
            solve_limit: DEFAULT_SOLVE_LIMIT,
            level: Level::numbered(DEFAULT_LEVEL),
            use_book: true,
        }
    }

    /// The book's moves of `board` when the book is on and knows the position.
    fn book_moves(&self, board: &Board) -> Vec<BookMove> {
        if self.use_book {
            crate::book::shipped().moves(board)
        } else {
            Vec::new()
        }
    }

    fn serve(&mut self, request: Request, out: &Outbox) {
        match request {
            Request::Analyse {
                generation,
                position,
                mode,
            } => self.analyse(generation, position, mode, out),
            Request::Solve {
                generation,
                position,
                mode,
            } => self.solve(generation, position, mode, out),
            Request::Play {
                generation,
                position,
                player,
                time,
            } => self.play(generation, position, player, time, out),
            Request::AnalyseGame { generation, plies } => self.analyse_game(generation, plies, out),
            Request::SolveScript {
                generation,
                positions,
                mode,
                lines,
                hash_bits,
            } => self.solve_script(generation, &positions, mode, lines, hash_bits, out),
            Request::Crash { .. } => panic!("a deliberate crash requested to test error handling"),
            Request::Configure { .. } => {}
        }
    }

    /// Streams a value for every legal move: the midgame search's values depth by depth
    /// (shallow ones at once), then, within the solver's reach, the proven values; above
    /// it the search deepens until stopped or superseded.
    fn analyse(&mut self, generation: u64, position: Position, mode: SolveMode, out: &Outbox) {
        let start = Instant::now();
        let board = position.board();
        let nodes0 = self.search.nodes();
        if board.moves() == 0 {
            out.send(Event::AnalysisDone {
                generation,
                nodes: 0,
                elapsed: start.elapsed(),
            });
            return;
        }
        // Book values first: they rank above the live search's, which still values the
        // moves the book does not know.
        let book = self.book_moves(&board);
        for m in &book {
            out.send(Event::MoveValue {
                generation,
                square: m.square,
                eval: book_eval(m),
            });
        }
        if let Some(best) = book.first() {
            out.send(Event::Progress {
                generation,
                message: format!(
                    "book: {} {:+} ({} games, {})",
                    best.square,
                    book_eval(best).value,
                    best.games,
                    best.source
                ),
                nodes: 0,
                elapsed: start.elapsed(),
            });
        }
        let solvable = board.empty_count() <= self.solve_limit;
        // Within the solver's reach a few plies give instant values that the proofs then
        // replace.
        let depth = if solvable { 4 } else { 60 };
        if self
            .stream_midgame(generation, board, depth, start, out)
            .is_err()
        {
            out.send(Event::Stopped { generation });
            return;
        }
        if solvable {
            let source = match mode {
                SolveMode::Exact => EvalSource::Exact,
                SolveMode::Wld => EvalSource::Wld,
            };
            for square in BitBoard(board.moves()) {
                let child = board.after(square.index(), board.flips(square.index()));
                let (alpha, beta) = if mode == SolveMode::Exact {
                    (-64, 64)
                } else {
                    (-1, 1)
                };
                let value = match solve_child(self.search.solver(), child, alpha, beta) {
                    Ok(v) => v,
                    Err(_) => {
                        out.send(Event::Stopped { generation });
                        return;
                    }
                };
                let value = if mode == SolveMode::Wld {
                    value.signum()
                } else {
                    value
                };
                out.send(Event::MoveValue {
                    generation,
                    square,
                    eval: Eval { value, source },
                });
                out.send(Event::Progress {
                    generation,
                    message: format!(
                        "{source} solve, {} empties: {square} done",
                        board.empty_count()
                    ),
                    nodes: self.search.nodes() - nodes0,
                    elapsed: start.elapsed(),
                });
            }
            // The principal line, proven: cheap now that the table holds every move's tree.
            match self.search.solver().solve(board, mode, true) {
                Ok(s) => {
                    out.send(Event::Solved {
                        generation,
                        mode,
                        score: s.score,
                        line: s.line,
                        nodes: s.nodes,
                        elapsed: s.elapsed,
                    });
                }
                Err(_) => {
                    out.send(Event::Stopped { generation });
                    return;
                }
            }
        }
        out.send(Event::AnalysisDone {
            generation,
            nodes: self.search.nodes() - nodes0,
            elapsed: start.elapsed(),
        });
    }

    /// Every legal move's midgame value at depth 1, 2, ... up to `max_depth`, each sent as
    /// soon as it is known, with progress: the best move's line so far, the depth and the
    /// search speed.
    fn stream_midgame(
        &mut self,
        generation: u64,
        board: Board,
        max_depth: u32,
        start: Instant,
        out: &Outbox,
    ) -> Result<(), crate::search::Stopped> {
        self.search.set_selectivity(ANALYSIS_SELECTIVITY);
        let confidence = self.search.confidence();
        let nodes0 = self.search.nodes();
        let last_depth = max_depth.min(board.empty_count().saturating_sub(1)).max(1);
        // The node count is read between depths (the search holds it while it runs), so
        // the speed shown is that of the last finished depth.
        let mut counted = (0, Duration::ZERO);
        let mut best: Option<MoveValue> = None;
        for depth in 1..=last_depth {
            let mut best_here: Option<MoveValue> = None;
            let limits = Limits::depth(depth);
            // Each call re-runs the shallower depths, from the table: only the new depth
            // is sent.
            self.search.analyze_moves(board, limits, |v| {
                if v.source != (Source::Midgame { depth }) {
                    return;
                }
                let Move::Play(square) = v.mv else { return };
                out.send(Event::MoveValue {
                    generation,
                    square,
                    eval: eval_of(v, confidence),
                });
                if best_here.as_ref().is_none_or(|b| v.value > b.value) {
                    best_here = Some(v.clone());
                }
                let shown = best_here.as_ref().or(best.as_ref()).expect("a value");
                out.send(Event::Progress {
                    generation,
                    message: line_message(shown, confidence),
                    nodes: counted.0,
                    elapsed: counted.1,
                });
            })?;
            best = best_here.or(best);
            counted = (self.search.nodes() - nodes0, start.elapsed());
        }
        if let Some(b) = &best {
            out.send(Event::Progress {
                generation,
                message: line_message(b, confidence),
                nodes: counted.0,
                elapsed: counted.1,
            });
        }
        Ok(())
    }

    /// Values each move played against the best: exact within the solver's reach (one
    /// solve for the best value, one window search for the move played), by the midgame
    /// search above ([`GAME_ANALYSIS_DEPTH`] plies, every move valued).
    fn analyse_game(
        &mut self,
        generation: u64,
        plies: Vec<(usize, Position, Square)>,
        out: &Outbox,
    ) {
        let start = Instant::now();
        let total = plies.len();
        let nodes_before = self.search.nodes();
        // From the end: the endgame is exact and fast, and fills the table for earlier plies.
        for (done, (ply, position, played)) in plies.into_iter().rev().enumerate() {
            let board = position.board();
            if board.moves() & played.bit() == 0 {
                out.send(Event::Error {
                    generation,
                    message: format!("ply {}: {played} is not legal", ply + 1),
                });
                return;
            }
            let result = if board.empty_count() <= self.solve_limit {
                let solver = self.search.solver();
                solver
                    .solve(board, SolveMode::Exact, false)
                    .and_then(|best| {
                        let child = board.after(played.index(), board.flips(played.index()));
                        let value = solve_child(solver, child, -64, 64)?;
                        let best_move = match best.best_move {
                            Some(Move::Play(sq)) => sq,
                            _ => played,
                        };
                        Ok((
                            Eval {
                                value,
                                source: EvalSource::Exact,
                            },
                            Eval {
                                value: best.score,
                                source: EvalSource::Exact,
                            },
                            best_move,
                        ))
                    })
            } else {
                self.search.set_selectivity(ANALYSIS_SELECTIVITY);
                let confidence = self.search.confidence();
                let mut values: Vec<MoveValue> = Vec::new();
                let limits = Limits::depth(GAME_ANALYSIS_DEPTH);
                self.search
                    .analyze_moves(board, limits, |v| {
                        match values.iter_mut().find(|x| x.mv == v.mv) {
                            Some(x) => *x = v.clone(),
                            None => values.push(v.clone()),
                        }
                    })
                    .map(|()| {
                        let best = values.iter().max_by_key(|v| v.value).expect("a legal move");
                        let played_value = values
                            .iter()
                            .find(|v| v.mv == Move::Play(played))
                            .unwrap_or(best);
                        let best_move = match best.mv {
                            Move::Play(sq) => sq,
                            Move::Pass => played,
                        };
                        (
                            eval_of(played_value, confidence),
                            eval_of(best, confidence),
                            best_move,
                        )
                    })
            };
            match result {
                Ok((played, best, best_move)) => {
                    out.send(Event::PlyAnalysed {
                        generation,
                        ply,
                        played,
                        best,
                        best_move,
                    });
                    out.send(Event::Progress {
                        generation,
                        message: format!("game analysis: {} of {total} moves", done + 1),
                        nodes: self.search.nodes() - nodes_before,
                        elapsed: start.elapsed(),
                    });
                }
                Err(_) => {
                    out.send(Event::Stopped { generation });
                    return;
                }
            }
        }
        out.send(Event::AnalysisDone {
            generation,
            nodes: self.search.nodes() - nodes_before,
            elapsed: start.elapsed(),
        });
    }

    /// A script's positions in order, with the command line's own solving code.
    fn solve_script(
        &mut self,
        generation: u64,
        positions: &[Position],
        mode: SolveMode,
        lines: bool,
        hash_bits: u32,
        out: &Outbox,
    ) {
        let start = Instant::now();
        // A fresh table of the command line's size: lines (optimal ones are not unique)
        // then come out as `okapi -script` writes them.
        let mut solver = crate::search::EndgameSolver::with_stop(hash_bits, self.stop.clone());
        let mut nodes = 0;
        for (index, position) in positions.iter().enumerate() {
            out.send(Event::Progress {
                generation,
                message: format!(
                    "position {} of {}, {} empties",
                    index + 1,
                    positions.len(),
                    position.empty_count()
                ),
                nodes,
                elapsed: start.elapsed(),
            });
            match script_solve::solve_position(&mut solver, position, mode, lines) {
                Ok(s) => {
                    nodes += s.solution.nodes;
                    out.send(Event::ScriptSolved {
                        generation,
                        index,
                        outcome: s.outcome,
                        score: s.solution.score,
                        line: s.solution.line,
                        nodes: s.solution.nodes,
                        elapsed: s.solution.elapsed,
                    });
                }
                Err(_) => {
                    out.send(Event::Stopped { generation });
                    return;
                }
            }
        }
        out.send(Event::ScriptDone {
            generation,
            nodes,
            elapsed: start.elapsed(),
        });
    }

    fn solve(&mut self, generation: u64, position: Position, mode: SolveMode, out: &Outbox) {
        out.send(Event::Progress {
            generation,
            message: format!(
                "solving {} empties ({})",
                position.empty_count(),
                mode_name(mode)
            ),
            nodes: 0,
            elapsed: Duration::ZERO,
        });
        match self.search.solver().solve(position.board(), mode, true) {
            Ok(s) => out.send(Event::Solved {
                generation,
                mode,
                score: s.score,
                line: s.line,
                nodes: s.nodes,
                elapsed: s.elapsed,
            }),
            Err(_) => out.send(Event::Stopped { generation }),
        }
    }

    /// The engine player's move at its level ([`Player::Perfect`] at the configured level,
    /// solving exactly from the solver's reach unless weakened by a temperature).
    fn play(
        &mut self,
        generation: u64,
        position: Position,
        player: Player,
        time: Option<Duration>,
        out: &Outbox,
    ) {
        let board = position.board();
        if board.moves() == 0 {
            let message = if position.is_game_over() {
                "the game is over"
            } else {
                "no legal move: pass"
            };
            out.send(Event::Error {
                generation,
                message: message.into(),
            });
            return;
        }
        let mut level = match player {
            Player::Human => {
                out.send(Event::Error {
                    generation,
                    message: "asked to play for a human".into(),
                });
                return;
            }
            Player::Random => Level::Random,
            Player::Greedy => Level::Greedy,
            Player::Perfect => self.level,
        };
        // The book plays for the full-strength levels; a weakened level's mistakes are
        // its point, so it keeps its own choice.
        if let Level::Search(s) = &level
            && s.temperature <= 0.0
            && self.use_book
        {
            let rng = &mut self.rng;
            let mut uniform = || rng.below(1 << 53) as f64 / (1u64 << 53) as f64;
            if let Some(m) = crate::book::shipped().choose(&board, BOOK_RANDOMNESS, &mut uniform) {
                out.send(Event::Played {
                    generation,
                    mv: Move::Play(m.square),
                    eval: Some(book_eval(&m)),
                    candidates: vec![],
                });
                return;
            }
        }
        if let Level::Search(s) = &mut level
            && s.temperature <= 0.0
        {
            s.limits.exact_empties = s.limits.exact_empties.max(self.solve_limit);
            s.limits.wld_empties = s.limits.wld_empties.max(s.limits.exact_empties);
        }
        if let (Some(t), Level::Search(s)) = (time, &mut level) {
            crate::game::clock::fit_to_time(&mut s.limits, t);
        }
        let result = match level {
            // The plain search reports where its value comes from.
            Level::Search(s) if s.temperature <= 0.0 => {
                self.search.set_selectivity(s.selectivity);
                let confidence = self.search.confidence();
                self.search
                    .best_move(board, s.limits, |_| {})
                    .map(|r| (r.best.mv, Some(eval_of(&r.best, confidence)), vec![]))
            }
            _ => {
                let rng = &mut self.rng;
                let mut uniform = || rng.below(1 << 53) as f64 / (1u64 << 53) as f64;
                choose_move(&mut self.search, board, &level, &mut uniform).map(|c| {
                    let confidence = self.search.confidence();
                    let source = match level {
                        Level::Search(s) => chosen_source(board, &s.limits),
                        _ => Source::Midgame { depth: 0 },
                    };
                    let eval = |value: i32| {
                        eval_of(
                            &MoveValue {
                                mv: c.mv,
                                value,
                                source,
                                pv: vec![],
                            },
                            confidence,
                        )
                    };
                    let candidates = c
                        .candidates
                        .iter()
                        .map(|&(mv, value, p)| (mv, eval(value), p))
                        .collect();
                    (c.mv, c.value.map(eval), candidates)
                })
            }
        };
        match result {
            Ok((mv @ Move::Play(_), eval, candidates)) => out.send(Event::Played {
                generation,
                mv,
                eval,
                candidates,
            }),
            Ok((Move::Pass, ..)) => out.send(Event::Error {
                generation,
                message: "the engine found no move".into(),
            }),
            Err(_) => out.send(Event::Stopped { generation }),
        }
    }
}

/// Where the values of [`choose_move`]'s candidates come from: the level's limits decide.
fn chosen_source(board: Board, limits: &Limits) -> Source {
    let children = board.empty_count().saturating_sub(1);
    if children <= limits.exact_empties {
        Source::Exact
    } else if children <= limits.wld_empties {
        Source::Wld
    } else {
        Source::Midgame {
            depth: limits.depth.min(children),
        }
    }
}

/// A book value as the app shows it: discs, rounded, tagged `book`.
fn book_eval(m: &BookMove) -> Eval {
    Eval {
        value: (m.value as f64 / SCALE as f64).round() as i32,
        source: EvalSource::Book,
    }
}

/// A search value as the app shows and keeps it: discs (rounded) or W/D/L, with its source.
fn eval_of(v: &MoveValue, confidence: u32) -> Eval {
    match v.source {
        Source::Exact => Eval {
            value: v.value / SCALE,
            source: EvalSource::Exact,
        },
        Source::Wld => Eval {
            value: v.value.signum(),
            source: EvalSource::Wld,
        },
        Source::Midgame { depth } => Eval {
            value: (v.value as f64 / SCALE as f64).round() as i32,
            source: EvalSource::Midgame {
                depth: depth.min(255) as u8,
                confidence: confidence.min(100) as u8,
            },
        },
    }
}

/// The status line of the live analysis: depth@confidence, the best value, its line.
fn line_message(best: &MoveValue, confidence: u32) -> String {
    let depth = match best.source {
        Source::Midgame { depth } => format!("depth {depth}@{confidence}%"),
        Source::Wld => "WLD".into(),
        Source::Exact => "exact".into(),
    };
    let line: Vec<String> = best.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{depth}: {:+.2} {}",
        best.value as f64 / SCALE as f64,
        line.join(" ")
    )
}

/// A small xorshift generator: the random player and the weakened levels need no more.
struct Rng(u64);

impl Rng {
    fn seeded(seed: u64) -> Rng {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng((seed ^ t).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// The exact value of playing into `child`, from the mover's view (inside the window).
fn solve_child(
    solver: &mut crate::search::EndgameSolver,
    child: Board,
    alpha: i32,
    beta: i32,
) -> Result<i32, crate::search::Stopped> {
    if child.moves() == 0 {
        if child.passed().moves() == 0 {
            return Ok(-child.final_score());
        }
        return solver.search_window(child.passed(), alpha, beta);
    }
    solver.search_window(child, -beta, -alpha).map(|v| -v)
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
    use crate::search::EndgameSolver;

    /// Asks the engine's perfect player for a move and waits for it: the `Played` event.
    fn play_perfect(engine: &mut Engine, position: Position) -> Event {
        let generation = engine.new_generation();
        engine.send(Request::Play {
            generation,
            position,
            player: Player::Perfect,
            time: None,
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
        let text = include_str!("../../tests/data/ffo1-39.scr");
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
        let text = include_str!("../../tests/data/ffo40-59.scr");
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
            player: Player::Greedy,
            time: None,
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
        let finished = Position::from_discs(u64::MAX, 0, crate::board::Color::Black);
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
        let text = include_str!("../../tests/data/ffo40-59.scr");
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
        let played = play_perfect(&mut engine, ffo1());
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
            level: Level::numbered(DEFAULT_LEVEL),
            book: false,
        });
        let pos = Position::start();
        let g = engine.new_generation();
        engine.send(Request::Analyse {
            generation: g,
            position: pos,
            mode: SolveMode::Exact,
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
        let book = crate::book::shipped().moves(&p.board());
        assert!(!book.is_empty(), "the shipped book knows f5");
        let mut engine = Engine::spawn(|| {});
        let g = engine.new_generation();
        engine.send(Request::Analyse {
            generation: g,
            position: p,
            mode: SolveMode::Exact,
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
            let played = play_perfect(&mut engine, p);
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
            level: Level::numbered(2),
            book: false,
        });
        let played = play_perfect(&mut engine, p);
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
            level: Level::parse("4t3").unwrap(),
            book: true,
        });
        let played = play_perfect(&mut engine, Position::start());
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
