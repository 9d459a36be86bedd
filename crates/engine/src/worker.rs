//! The engine thread's side: takes requests in order, ends superseded ones at once, serves
//! each on one search state, and ends each with exactly one final event.

use super::choice::{self, BookPolicy};
use super::script_solve::{self, ScriptRunError, ScriptSettings};
use super::{
    ANALYSIS_SELECTIVITY, DEFAULT_SOLVE_LIMIT, EngineConfig, EngineOptions, Event,
    GAME_ANALYSIS_DEPTH, Gate, Line, Message, Request, Ticket, lock, mode_name,
};
use crossbeam_channel::Receiver;
use okapi_core::board::{BitBoard, Board, Move, Position, Square};
use okapi_core::book::BookMove;
use okapi_core::eval::Evaluator;
use okapi_core::game::{Eval, EvalSource};
use okapi_core::level::Level;
use okapi_core::search::{Limits, MidgameSearch, MoveValue, SCALE, SearchSource, SolveMode};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use web_time::Instant;

/// What the front end shares with the engine thread.
pub(super) struct Shared {
    pub(super) gate: Arc<Mutex<Gate>>,
    /// The searches poll it; the front end raises it, the worker clears it as it takes a
    /// request.
    pub(super) stop: Arc<AtomicBool>,
    pub(super) stopped_upto: Arc<AtomicU64>,
}

/// Where the request being served sends its events: stamped with its ticket, through the
/// gate (stale ones dropped), and no more after its final one.
pub(super) struct Outbox<'a> {
    gate: &'a Mutex<Gate>,
    notify: &'a (dyn Fn() + Send),
    ticket: Ticket,
    /// Whether the request has sent its final event.
    ended: Cell<bool>,
}

impl Outbox<'_> {
    fn send(&self, event: Event) {
        if self.ended.get() {
            debug_assert!(false, "an event after the final one: {event:?}");
            return;
        }
        self.ended.set(event.is_final());
        if lock(self.gate).pass(self.ticket, event) {
            (self.notify)();
        }
    }
}

pub(super) fn run(
    options: EngineOptions,
    messages: Receiver<Message>,
    shared: Shared,
    notify: Box<dyn Fn() + Send>,
) {
    let mut server = Server::new(options);
    while let Ok(message) = messages.recv() {
        server.handle(message, &shared, notify.as_ref());
    }
}

/// The engine's state between messages: its search state, random generator and
/// settings. A thread's loop ([`run`]) and a platform without threads
/// ([`super::EngineLoop::serve`]) hand it the messages one by one.
pub(super) struct Server {
    solve_limit: u32,
    use_book: bool,
    config: EngineConfig,
    evaluation: Arc<Evaluator>,
    /// The one random generator of the engine, kept across requests and restarts.
    rng: ChaCha8Rng,
    /// Made at the first message: building the search takes the table's memory.
    worker: Option<Worker>,
}

impl Server {
    pub(super) fn new(options: EngineOptions) -> Server {
        Server {
            solve_limit: DEFAULT_SOLVE_LIMIT,
            use_book: true,
            config: options.config,
            evaluation: options.evaluator,
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            worker: None,
        }
    }

    /// Serves one message: a configuration, or a request to its final event.
    pub(super) fn handle(&mut self, message: Message, shared: &Shared, notify: &(dyn Fn() + Send)) {
        let stop = &shared.stop;
        let (ticket, request) = match message {
            Message::Configure(c) => {
                self.solve_limit = c.solve_limit;
                self.use_book = c.book;
                if c.engine.hash_bits() != self.config.hash_bits() {
                    // The old table goes before the new one is made: under a memory
                    // limit both at once may not fit.
                    self.worker = None;
                }
                self.config = c.engine;
                if let Some(worker) = &mut self.worker {
                    worker.search.set_threads(self.config.threads());
                }
                return;
            }
            Message::Request(ticket, request) => (ticket, request),
        };
        let out = Outbox {
            gate: &shared.gate,
            notify,
            ticket,
            ended: Cell::new(false),
        };
        // Order matters: the front end raises the flag after it makes a ticket the newest.
        stop.store(false, Ordering::SeqCst);
        if ticket.0 < lock(&shared.gate).newest {
            out.send(Event::Superseded); // a newer request is queued
            return;
        }
        if ticket.0 <= shared.stopped_upto.load(Ordering::SeqCst) {
            out.send(Event::Stopped); // stopped before it started
            return;
        }
        let (config, evaluation) = (self.config, &self.evaluation);
        let worker = self
            .worker
            .get_or_insert_with(|| Worker::new(stop.clone(), config, evaluation));
        worker.solve_limit = self.solve_limit;
        worker.use_book = self.use_book;
        let start = Instant::now();
        let nodes_before = worker.search.nodes();
        let rng = &mut self.rng;
        let result =
            std::panic::catch_unwind(AssertUnwindSafe(|| worker.serve(request, rng, &out)));
        match result {
            Ok(()) if !out.ended.get() => out.send(Event::Finished {
                nodes: worker.search.nodes().saturating_sub(nodes_before),
                elapsed: start.elapsed(),
            }),
            Ok(()) => {}
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                // A panic after the final event (none is sent today) would go unsaid.
                if !out.ended.get() {
                    out.send(Event::Error {
                        message: format!("the engine failed: {what}"),
                    });
                }
                // The search state may be half-updated: start afresh.
                self.worker = None;
            }
        }
    }
}

struct Worker {
    search: MidgameSearch<Arc<Evaluator>>,
    /// The engine's stop flag (the searches poll it).
    stop: Arc<AtomicBool>,
    solve_limit: u32,
    use_book: bool,
}

impl Worker {
    /// Fresh search state evaluating with `evaluation`; every search it makes (the
    /// midgame search, its endgame solver, the script solvers) uses the configured threads.
    fn new(stop: Arc<AtomicBool>, config: EngineConfig, evaluation: &Arc<Evaluator>) -> Worker {
        let mut search = MidgameSearch::new(evaluation, config.hash_bits(), stop.clone());
        search.set_threads(config.threads());
        let made = search.solver().table().bits();
        if made < config.hash_bits() {
            // The configuration fitted the table to the memory the system said it had;
            // the system then gave less (another program took it meanwhile, or a limit
            // it does not tell). A smaller table, said, rather than an abort.
            use std::io::Write as _;
            let _ = writeln!(
                std::io::stderr(),
                "okapi: warning: no memory for a {} hash table (hash bits {}); using {} (hash bits {made})",
                crate::config::size(crate::config::table_bytes(config.hash_bits())),
                config.hash_bits(),
                crate::config::size(crate::config::table_bytes(made)),
            );
        }
        Worker {
            search,
            stop,
            solve_limit: DEFAULT_SOLVE_LIMIT,
            use_book: true,
        }
    }

    /// The book's moves of `board` when the book is on and knows the position.
    fn book_moves(&self, board: &Board) -> Vec<BookMove> {
        if self.use_book {
            okapi_core::book::shipped().moves(board)
        } else {
            Vec::new()
        }
    }

    fn serve(&mut self, request: Request, rng: &mut ChaCha8Rng, out: &Outbox<'_>) {
        match request {
            Request::Analyse {
                position,
                mode,
                max_depth,
            } => self.analyse(position, mode, max_depth, out),
            Request::Solve { position, mode } => self.solve(position, mode, out),
            Request::Play {
                position,
                level,
                time,
                book,
            } => {
                let book = match book {
                    Some(randomness) => BookPolicy::Within(randomness),
                    None => BookPolicy::Off,
                };
                self.play(position, level, time, book, rng, out)
            }
            Request::Hint {
                position,
                level,
                count,
                book,
            } => self.hint(position, level, count, book, out),
            Request::ValuePositions { positions, level } => {
                self.value_positions(&positions, level, out)
            }
            Request::AnalyseGame { plies } => self.analyse_game(plies, out),
            Request::SolveScript {
                positions,
                mode,
                lines,
                hash_bits,
            } => self.solve_script(&positions, mode, lines, hash_bits, out),
            Request::Crash => panic!("a deliberate crash requested to test error handling"),
        }
    }

    /// Streams a value for every legal move: the midgame search's values depth by depth
    /// (shallow ones at once), then, within the solver's reach, the proven values; above
    /// it the search deepens to `max_depth` (`None`: until stopped or superseded).
    fn analyse(
        &mut self,
        position: Position,
        mode: SolveMode,
        max_depth: Option<u32>,
        out: &Outbox<'_>,
    ) {
        let start = Instant::now();
        let board = position.board();
        let nodes0 = self.search.nodes();
        if board.moves() == 0 {
            out.send(Event::AnalysisDone {
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
                square: m.square,
                eval: choice::book_eval(m),
            });
        }
        let book_note = book.first().map(|best| {
            format!(
                "book: {} {:+} ({} games, {})",
                best.square,
                choice::book_eval(best).value,
                best.games,
                best.source
            )
        });
        if let Some(note) = &book_note {
            out.send(Event::Progress {
                message: note.clone(),
                nodes: 0,
                elapsed: start.elapsed(),
            });
        }
        let solvable = board.empty_count() <= self.solve_limit;
        // Within the solver's reach a few plies give instant values that the proofs then
        // replace.
        let depth = if solvable {
            4
        } else {
            max_depth.unwrap_or(60).clamp(1, 60)
        };
        if self
            .stream_midgame(board, depth, book_note.as_deref(), start, out)
            .is_err()
        {
            out.send(Event::Stopped);
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
                        out.send(Event::Stopped);
                        return;
                    }
                };
                let value = if mode == SolveMode::Wld {
                    value.signum()
                } else {
                    value
                };
                out.send(Event::MoveValue {
                    square,
                    eval: Eval { value, source },
                });
                out.send(Event::Progress {
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
                        mode,
                        score: s.score,
                        line: s.line,
                        nodes: s.nodes,
                        elapsed: s.elapsed,
                    });
                }
                Err(_) => {
                    out.send(Event::Stopped);
                    return;
                }
            }
        }
        out.send(Event::AnalysisDone {
            nodes: self.search.nodes() - nodes0,
            elapsed: start.elapsed(),
        });
    }

    /// Every legal move's midgame value at depth 1, 2, ... up to `max_depth`, each sent as
    /// soon as it is known, with progress: the best move's line so far, the depth and the
    /// search speed. In a book position (`book_note`: the book's best move) the progress
    /// keeps the book's word and adds only the depth: the board shows the book's values,
    /// and the search's best line moving under them would contradict it.
    fn stream_midgame(
        &mut self,
        board: Board,
        max_depth: u32,
        book_note: Option<&str>,
        start: Instant,
        out: &Outbox<'_>,
    ) -> Result<(), okapi_core::search::Stopped> {
        let message = |best: &MoveValue, confidence: u32| match (book_note, best.source) {
            (Some(note), SearchSource::Midgame { depth }) => {
                format!("{note}; the other moves searched to depth {depth}")
            }
            _ => line_message(best, confidence),
        };
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
                if v.source != (SearchSource::Midgame { depth }) {
                    return;
                }
                let Move::Play(square) = v.mv else { return };
                out.send(Event::MoveValue {
                    square,
                    eval: Eval::of_search(v, confidence),
                });
                if best_here.as_ref().is_none_or(|b| v.value > b.value) {
                    best_here = Some(v.clone());
                }
                let shown = best_here.as_ref().or(best.as_ref()).expect("a value");
                out.send(Event::Progress {
                    message: message(shown, confidence),
                    nodes: counted.0,
                    elapsed: counted.1,
                });
            })?;
            best = best_here.or(best);
            counted = (self.search.nodes() - nodes0, start.elapsed());
        }
        if let Some(b) = &best {
            out.send(Event::Progress {
                message: message(b, confidence),
                nodes: counted.0,
                elapsed: counted.1,
            });
        }
        Ok(())
    }

    /// Values each move played against the best: exact within the solver's reach (one
    /// solve for the best value, one window search for the move played); a book move in
    /// a book position by the book's values (what the board shows there: a move the book
    /// values as its best loses nothing); otherwise by the midgame search
    /// ([`GAME_ANALYSIS_DEPTH`] plies, every move valued).
    fn analyse_game(&mut self, plies: Vec<(usize, Position, Square)>, out: &Outbox<'_>) {
        let start = Instant::now();
        let total = plies.len();
        let nodes_before = self.search.nodes();
        // From the end: the endgame is exact and fast, and fills the table for earlier plies.
        for (done, (ply, position, played)) in plies.into_iter().rev().enumerate() {
            let board = position.board();
            if board.moves() & played.bit() == 0 {
                out.send(Event::Error {
                    message: format!("ply {}: {played} is not legal", ply + 1),
                });
                return;
            }
            let book = self.book_moves(&board);
            let in_book = book.iter().find(|m| m.square == played).copied();
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
            } else if let (Some(m), Some(best)) = (in_book, book.first()) {
                // The book lists its moves best first.
                Ok((choice::book_eval(&m), choice::book_eval(best), best.square))
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
                            Eval::of_search(played_value, confidence),
                            Eval::of_search(best, confidence),
                            best_move,
                        )
                    })
            };
            match result {
                Ok((played, best, best_move)) => {
                    out.send(Event::PlyAnalysed {
                        ply,
                        played,
                        best,
                        best_move,
                    });
                    out.send(Event::Progress {
                        message: format!("game analysis: {} of {total} moves", done + 1),
                        nodes: self.search.nodes() - nodes_before,
                        elapsed: start.elapsed(),
                    });
                }
                Err(_) => {
                    out.send(Event::Stopped);
                    return;
                }
            }
        }
        out.send(Event::AnalysisDone {
            nodes: self.search.nodes() - nodes_before,
            elapsed: start.elapsed(),
        });
    }

    /// A script's positions, with the command line's own solving code and the engine's
    /// threads; results in input order.
    fn solve_script(
        &mut self,
        positions: &[Position],
        mode: SolveMode,
        lines: bool,
        hash_bits: u32,
        out: &Outbox<'_>,
    ) {
        let start = Instant::now();
        let settings = ScriptSettings {
            mode,
            lines,
            hash_bits,
            threads: self.search.threads(),
            evaluator: self.search.evaluation().clone(),
        };
        let progress = |next: usize, nodes: u64| {
            if let Some(position) = positions.get(next) {
                out.send(Event::Progress {
                    message: format!(
                        "position {} of {}, {} empties",
                        next + 1,
                        positions.len(),
                        position.empty_count()
                    ),
                    nodes,
                    elapsed: start.elapsed(),
                });
            }
        };
        progress(0, 0);
        let mut nodes = 0;
        let run = script_solve::solve_in_order(positions, &settings, &self.stop, |index, s| {
            nodes += s.solution.nodes;
            out.send(Event::ScriptSolved {
                index,
                outcome: s.outcome,
                score: s.solution.score,
                line: s.solution.line,
                nodes: s.solution.nodes,
                elapsed: s.solution.elapsed,
            });
            progress(index + 1, nodes);
            Ok::<(), std::convert::Infallible>(())
        });
        match run {
            Ok(()) => out.send(Event::ScriptDone {
                nodes,
                elapsed: start.elapsed(),
            }),
            Err(ScriptRunError::Stopped) => out.send(Event::Stopped),
            Err(ScriptRunError::Receiver(never)) => match never {},
        }
    }

    fn solve(&mut self, position: Position, mode: SolveMode, out: &Outbox<'_>) {
        out.send(Event::Progress {
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
                mode,
                score: s.score,
                line: s.line,
                nodes: s.nodes,
                elapsed: s.elapsed,
            }),
            Err(_) => out.send(Event::Stopped),
        }
    }

    /// The engine player's move at `level` (see [`choice::choose`]).
    #[allow(clippy::too_many_arguments)]
    fn play(
        &mut self,
        position: Position,
        level: Level,
        time: Option<Duration>,
        book: BookPolicy,
        rng: &mut ChaCha8Rng,
        out: &Outbox<'_>,
    ) {
        let mut on_line = |line: Line| out.send(Event::Line { line });
        match choice::choose(
            &mut self.search,
            position,
            level,
            time,
            book,
            rng,
            &mut on_line,
        ) {
            Ok(c) => out.send(Event::Played {
                mv: c.mv,
                eval: c.eval,
                discs: c.discs,
                pv: c.pv,
                book: c.book,
                candidates: c.candidates,
            }),
            Err(choice::NoChoice::Stopped) => out.send(Event::Stopped),
            Err(choice::NoChoice::Nothing(why)) => out.send(Event::Error {
                message: why.into(),
            }),
        }
    }

    /// The best `count` moves with their lines, depth by depth; the book's in the book.
    fn hint(
        &mut self,
        position: Position,
        level: Level,
        count: usize,
        book: bool,
        out: &Outbox<'_>,
    ) {
        let board = position.board();
        if board.moves() == 0 {
            out.send(Event::Error {
                message: "no legal move to value".into(),
            });
            return;
        }
        if book {
            // In the book, its best moves are the hint (the moves it does not list are no
            // better than its searched alternative).
            let moves = okapi_core::book::shipped().moves(&board);
            if !moves.is_empty() {
                let moves = moves.into_iter().take(count.max(1)).collect();
                out.send(Event::BookMoves { moves });
                return;
            }
        }
        let (limits, selectivity) = choice::search_limits(&level);
        self.search.set_selectivity(selectivity);
        let confidence = self.search.confidence();
        let send = |v: &MoveValue| {
            out.send(Event::Line {
                line: choice::line_of(v, confidence),
            })
        };
        let result = if count <= 1 {
            self.search.best_move(board, limits, send).map(|_| ())
        } else {
            // Every move's value, depth by depth; the best `count` of each round are told.
            let moves = board.moves().count_ones() as usize;
            let mut round: Vec<MoveValue> = Vec::new();
            self.search.analyze_moves(board, limits, |v| {
                round.push(v.clone());
                if round.len() == moves {
                    round.sort_by_key(|m| std::cmp::Reverse(m.value));
                    for v in round.iter().take(count) {
                        send(v);
                    }
                    round.clear();
                }
            })
        };
        if result.is_err() {
            out.send(Event::Stopped);
        }
    }

    /// Each position's value for its side to move at `level`'s limits (final counts when
    /// the game is over; through the pass when the side to move must pass).
    fn value_positions(&mut self, positions: &[Position], level: Level, out: &Outbox<'_>) {
        let (limits, selectivity) = choice::search_limits(&level);
        self.search.set_selectivity(selectivity);
        let confidence = self.search.confidence();
        for (index, position) in positions.iter().enumerate() {
            let board = position.board();
            let (value, sign) = if board.moves() == 0 && board.passed().moves() == 0 {
                let exact = board.final_score();
                out.send(Event::PositionValue {
                    index,
                    discs: exact as f64,
                    eval: Eval {
                        value: exact,
                        source: EvalSource::Exact,
                    },
                });
                continue;
            } else if board.moves() == 0 {
                (self.search.best_move(board.passed(), limits, |_| {}), -1)
            } else {
                (self.search.best_move(board, limits, |_| {}), 1)
            };
            match value {
                Ok(r) => {
                    let mut eval = Eval::of_search(&r.best, confidence);
                    eval.value *= sign;
                    out.send(Event::PositionValue {
                        index,
                        discs: f64::from(sign * r.best.value) / SCALE as f64,
                        eval,
                    });
                }
                Err(_) => {
                    out.send(Event::Stopped);
                    return;
                }
            }
        }
    }
}

/// The status line of the live analysis: depth@confidence, the best value, its line.
fn line_message(best: &MoveValue, confidence: u32) -> String {
    let depth = match best.source {
        SearchSource::Midgame { depth } => format!("depth {depth}@{confidence}%"),
        SearchSource::Wld => "WLD".into(),
        SearchSource::Exact => "exact".into(),
    };
    let line: Vec<String> = best.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{depth}: {:+.2} {}",
        best.value as f64 / SCALE as f64,
        line.join(" ")
    )
}

/// The exact value of playing into `child`, from the mover's view (inside the window).
fn solve_child(
    solver: &mut okapi_core::search::EndgameSolver,
    child: Board,
    alpha: i32,
    beta: i32,
) -> Result<i32, okapi_core::search::Stopped> {
    if child.moves() == 0 {
        if child.passed().moves() == 0 {
            return Ok(-child.final_score());
        }
        return solver.search_window(child.passed(), alpha, beta);
    }
    solver.search_window(child, -beta, -alpha).map(|v| -v)
}
