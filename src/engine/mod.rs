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
//! What it offers today: exact or WLD values of every legal move when the position has at
//! most `solve_limit` empties, a labelled heuristic depth-limited search above that,
//! solving a position to the end with a proven line, and the players of
//! [`Player`]. The trained midgame search plugs in where [`Worker::analyse`] picks the
//! heuristic.

pub mod clock;
pub mod heuristic;

use crate::board::{BitBoard, Board, Move, Position, Square};
use crate::formats::game::{Eval, EvalSource, Player};
use crate::search::{EndgameSolver, SolveMode};
use crossbeam_channel::{Receiver, Sender, unbounded};
use heuristic::{HeuristicSearch, Interrupted, Rng};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Default for the number of empties up to which moves are solved exactly.
pub const DEFAULT_SOLVE_LIMIT: u32 = 20;
/// Default plies of the heuristic player's search.
pub const DEFAULT_PLAYER_DEPTH: u32 = 6;
/// Deepest heuristic iteration of the analysis.
const MAX_HEURISTIC_DEPTH: u32 = 10;

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
    /// Choose a move for `player`.
    Play {
        generation: u64,
        position: Position,
        player: Player,
    },
    /// Settings: empties up to which the solver is used; transposition table size.
    /// `player_depth`: plies the heuristic player searches (its level) above the solver's reach.
    Configure {
        solve_limit: u32,
        hash_bits: u32,
        player_depth: u32,
    },
    /// Value every move of a game against the best move: `plies` lists the ply number, the
    /// position before it and the move played (passes left out). Results stream per ply.
    AnalyseGame {
        generation: u64,
        plies: Vec<(usize, Position, Square)>,
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
    /// The engine player's move, with its value when the engine knows it.
    Played {
        generation: u64,
        mv: Move,
        eval: Option<Eval>,
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
        let thread = std::thread::Builder::new()
            .name("okapi-engine".into())
            .spawn(move || {
                let out = Outbox {
                    events: ev_tx,
                    notify: Box::new(notify),
                };
                run_worker(req_rx, out, worker_stop, worker_latest)
            })
            .expect("the engine thread starts");
        Engine {
            requests: Some(req_tx),
            events: ev_rx,
            stop,
            latest,
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
) {
    let mut solve_limit = DEFAULT_SOLVE_LIMIT;
    let mut hash_bits = 20;
    let mut player_depth = DEFAULT_PLAYER_DEPTH;
    let mut worker = Worker::new(stop.clone(), hash_bits);
    while let Ok(request) = requests.recv() {
        if let Request::Configure {
            solve_limit: limit,
            hash_bits: bits,
            player_depth: depth,
        } = request
        {
            solve_limit = limit;
            player_depth = depth.max(1);
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
        worker.solve_limit = solve_limit;
        worker.player_depth = player_depth;
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
    solver: EndgameSolver,
    stop: Arc<AtomicBool>,
    rng: Rng,
    solve_limit: u32,
    player_depth: u32,
}

impl Worker {
    fn new(stop: Arc<AtomicBool>, hash_bits: u32) -> Worker {
        Worker {
            solver: EndgameSolver::with_stop(hash_bits, stop.clone()),
            stop,
            rng: Rng::seeded(0x0CA9),
            solve_limit: DEFAULT_SOLVE_LIMIT,
            player_depth: DEFAULT_PLAYER_DEPTH,
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
            } => self.play(generation, position, player, out),
            Request::AnalyseGame { generation, plies } => self.analyse_game(generation, plies, out),
            Request::Crash { .. } => panic!("a deliberate crash requested to test error handling"),
            Request::Configure { .. } => {}
        }
    }

    /// Streams a value for every legal move: quick heuristic values first, then, within
    /// the solver's reach, the proven values; further heuristic depths otherwise.
    fn analyse(&mut self, generation: u64, position: Position, mode: SolveMode, out: &Outbox) {
        let start = Instant::now();
        let board = position.board();
        if board.moves() == 0 {
            out.send(Event::AnalysisDone {
                generation,
                nodes: 0,
                elapsed: start.elapsed(),
            });
            return;
        }
        let mut heuristic = HeuristicSearch::new(self.stop.clone());
        let solvable = board.empty_count() <= self.solve_limit;
        // Within the solver's reach a shallow heuristic pass gives instant values that the
        // proofs then replace; otherwise deepen the heuristic as far as time allows.
        let max_depth = if solvable {
            2.min(board.empty_count())
        } else {
            MAX_HEURISTIC_DEPTH.min(board.empty_count())
        };
        for depth in 1..=max_depth {
            match heuristic.move_values(board, depth) {
                Ok(values) => {
                    for (square, value) in values {
                        let eval = Eval {
                            value,
                            source: EvalSource::Heuristic { depth: depth as u8 },
                        };
                        out.send(Event::MoveValue {
                            generation,
                            square,
                            eval,
                        });
                    }
                    out.send(Event::Progress {
                        generation,
                        message: format!("heuristic depth {depth}"),
                        nodes: heuristic.nodes,
                        elapsed: start.elapsed(),
                    });
                }
                Err(Interrupted) => {
                    out.send(Event::Stopped { generation });
                    return;
                }
            }
        }
        let mut nodes = heuristic.nodes;
        if solvable {
            let source = match mode {
                SolveMode::Exact => EvalSource::Exact,
                SolveMode::Wld => EvalSource::Wld,
            };
            for square in BitBoard(board.moves()) {
                let child = board.after(square.index(), board.flips(square.index()));
                let before = self.solver.nodes();
                let (alpha, beta) = if mode == SolveMode::Exact {
                    (-64, 64)
                } else {
                    (-1, 1)
                };
                let value = match solve_child(&mut self.solver, child, alpha, beta) {
                    Ok(v) => v,
                    Err(_) => {
                        out.send(Event::Stopped { generation });
                        return;
                    }
                };
                nodes += self.solver.nodes() - before;
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
                    nodes,
                    elapsed: start.elapsed(),
                });
            }
            // The principal line, proven: cheap now that the table holds every move's tree.
            match self.solver.solve(board, mode, true) {
                Ok(s) => {
                    nodes += s.nodes;
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
            nodes,
            elapsed: start.elapsed(),
        });
    }

    /// Values each move played against the best: exact within the solver's reach (one
    /// solve for the best value, one window search for the move played), heuristic above.
    fn analyse_game(
        &mut self,
        generation: u64,
        plies: Vec<(usize, Position, Square)>,
        out: &Outbox,
    ) {
        let start = Instant::now();
        let total = plies.len();
        let nodes_before = self.solver.nodes();
        let mut heuristic_nodes = 0;
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
                self.solver
                    .solve(board, SolveMode::Exact, false)
                    .and_then(|best| {
                        let child = board.after(played.index(), board.flips(played.index()));
                        let value = solve_child(&mut self.solver, child, -64, 64)?;
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
                let depth = 6.min(board.empty_count());
                let source = EvalSource::Heuristic { depth: depth as u8 };
                let mut search = HeuristicSearch::new(self.stop.clone());
                let values = search.move_values(board, depth);
                heuristic_nodes += search.nodes;
                match values {
                    Ok(values) => {
                        let (best_move, best) = values
                            .iter()
                            .copied()
                            .max_by_key(|v| v.1)
                            .expect("a legal move");
                        let value = values.iter().find(|v| v.0 == played).map_or(best, |v| v.1);
                        Ok((
                            Eval { value, source },
                            Eval {
                                value: best,
                                source,
                            },
                            best_move,
                        ))
                    }
                    Err(Interrupted) => Err(crate::search::Stopped),
                }
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
                        nodes: self.solver.nodes() - nodes_before + heuristic_nodes,
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
            nodes: self.solver.nodes() - nodes_before + heuristic_nodes,
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
        match self.solver.solve(position.board(), mode, true) {
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

    fn play(&mut self, generation: u64, position: Position, player: Player, out: &Outbox) {
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
        let (square, eval) = match player {
            Player::Human => {
                out.send(Event::Error {
                    generation,
                    message: "asked to play for a human".into(),
                });
                return;
            }
            Player::Random => (heuristic::random_move(board, &mut self.rng), None),
            Player::Greedy => (heuristic::greedy_move(board), None),
            Player::Perfect if board.empty_count() <= self.solve_limit => {
                match self.solver.solve(board, SolveMode::Exact, false) {
                    Ok(s) => match s.best_move {
                        Some(Move::Play(sq)) => (
                            Some(sq),
                            Some(Eval {
                                value: s.score,
                                source: EvalSource::Exact,
                            }),
                        ),
                        _ => (None, None),
                    },
                    Err(_) => {
                        out.send(Event::Stopped { generation });
                        return;
                    }
                }
            }
            Player::Perfect => {
                let mut search = HeuristicSearch::new(self.stop.clone());
                let depth = self.player_depth.min(board.empty_count());
                match search.move_values(board, depth) {
                    Ok(values) => {
                        // Ties go to a random one of the best, so games vary.
                        let best = values.iter().map(|v| v.1).max().unwrap_or(0);
                        let tied: Vec<_> = values.iter().filter(|v| v.1 == best).collect();
                        let pick = tied[self.rng.below(tied.len() as u64) as usize];
                        (
                            Some(pick.0),
                            Some(Eval {
                                value: pick.1,
                                source: EvalSource::Heuristic { depth: depth as u8 },
                            }),
                        )
                    }
                    Err(Interrupted) => {
                        out.send(Event::Stopped { generation });
                        return;
                    }
                }
            }
        };
        match square {
            Some(sq) => out.send(Event::Played {
                generation,
                mv: Move::Play(sq),
                eval,
            }),
            None => out.send(Event::Error {
                generation,
                message: "the engine found no move".into(),
            }),
        }
    }
}

/// The exact value of playing into `child`, from the mover's view (inside the window).
fn solve_child(
    solver: &mut EndgameSolver,
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
        let g = engine.new_generation();
        engine.send(Request::Play {
            generation: g,
            position: ffo1(),
            player: Player::Perfect,
        });
        let events = collect_until(&engine, |e| matches!(e, Event::Played { .. }));
        let Some(Event::Played { mv, eval, .. }) = events.last() else {
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
}
