//! What the engine does for the app: the requests made after each change of position,
//! and the events taken in each frame (the engine drops those of superseded requests).

use super::session_actions::SolveStats;
use super::{App, RowResult};
use okapi_core::board::{Move, Position, Square};
use okapi_core::game::Next;
use okapi_core::game::{Eval, EvalSource};
use okapi_core::search::SolveMode;
use okapi_engine::{Engine, Event, Reply, Request, mode_name};
use std::time::{Duration, Instant};

/// What the engine is doing for the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Task {
    Idle,
    Analysing,
    Solving(SolveMode),
    Thinking,
    AnalysingGame,
}

/// The board's engine thread and what it is doing for the app.
pub(super) struct EngineLink {
    pub(super) thread: Engine,
    pub(super) task: Task,
    pub(super) task_started: Instant,
    /// What the engine says it is doing, for the status bar.
    pub(super) status: String,
    /// An engine move held back until then (engine against engine, at a person's pace).
    pub(super) paced_move: Option<(Instant, Request)>,
    /// The deepest midgame depth the current analysis has valued every move at so far.
    pub(super) analysis_depth: Option<u32>,
}

impl EngineLink {
    pub(super) fn new(thread: Engine) -> EngineLink {
        EngineLink {
            thread,
            task: Task::Idle,
            task_started: Instant::now(),
            status: String::new(),
            paced_move: None,
            analysis_depth: None,
        }
    }
}

/// One move of the game valued against the best move (for its mover).
#[derive(Clone, Copy, Debug)]
pub(super) struct PlyAnalysis {
    /// The position before the move and the move: the entry holds only while they match.
    pub(super) key: (Position, Move),
    pub(super) played: Eval,
    pub(super) best: Eval,
    pub(super) best_move: Square,
}

impl PlyAnalysis {
    /// Discs lost against the best move.
    pub(super) fn loss(&self) -> i32 {
        self.best.value - self.played.value
    }
}

/// The engine's last move and, at a weakened level, every candidate's value and chance
/// (practice: "show lines").
#[derive(Clone, Debug)]
pub(super) struct EngineLines {
    pub(super) position: Position,
    pub(super) played: Move,
    pub(super) candidates: Vec<(Move, Eval, f64)>,
}

impl App {
    /// What the analysis found for the move at `ply` of the game on the board: both
    /// moves' values join the known values, the move's value goes into the record, and
    /// the analysis keeps the pair (the game analysis and the practice's collection of
    /// the game on the board both come here).
    pub(crate) fn record_ply_analysis(
        &mut self,
        ply: usize,
        played: Eval,
        best: Eval,
        best_move: Square,
    ) {
        if ply >= self.game().len() {
            return;
        }
        let position = self.game().position_at(ply);
        if let Some(Move::Play(sq)) = self.game().move_at(ply) {
            self.known.offer(position, sq, played);
        }
        self.known.offer(position, best_move, best);
        self.session.game_mut().set_eval(ply, played);
        let key = (position, self.game().moves()[ply]);
        self.game_analysis.insert(
            ply,
            PlyAnalysis {
                key,
                played,
                best,
                best_move,
            },
        );
    }

    /// Sends a held-back engine move once its time has come; true while one waits.
    pub(super) fn send_paced_move(&mut self) -> bool {
        match self.engine.paced_move.take() {
            Some((at, request)) if Instant::now() >= at => {
                self.engine.thread.send(request);
                self.start_task(Task::Thinking);
                false
            }
            Some(waiting) => {
                self.engine.paced_move = Some(waiting);
                true
            }
            None => false,
        }
    }

    /// Takes in what the script engine has sent.
    pub(super) fn poll_script_engine(&mut self) {
        let Some(engine) = &self.script_engine else {
            return;
        };
        // Only the newest run's events come (a run superseded ends with `Superseded`).
        while let Some(Reply { event, .. }) = engine.try_recv() {
            let Some(job) = &mut self.script else {
                continue;
            };
            match event {
                Event::Progress { message, .. } => job.status = message,
                Event::ScriptSolved {
                    index,
                    outcome,
                    score,
                    line,
                    nodes,
                    elapsed,
                    ..
                } => {
                    if let Some(row) = job.rows.get(index) {
                        self.known
                            .offer_proven_line(row.position, job.mode, score, &line);
                    }
                    if let Some(row) = job.rows.get_mut(index) {
                        row.result = Some(RowResult {
                            outcome,
                            score,
                            line,
                            nodes,
                            elapsed,
                        });
                    }
                }
                Event::ScriptDone { nodes, elapsed, .. } => {
                    job.running = None;
                    job.finished = Some((nodes, elapsed));
                    job.status.clear();
                }
                Event::Stopped => {
                    job.running = None;
                    job.status = "stopped".into();
                }
                Event::Error { message, .. } => {
                    job.running = None;
                    job.status.clear();
                    self.error = Some(format!("The script failed: {message}"));
                }
                _ => {}
            }
        }
    }

    /// Keeps the game in progress (with what is known of it) across restarts.
    pub(super) fn keep_game_in_progress(&mut self) {
        if let Some(path) = &self.autosave {
            // Play goes on whatever happens here, but a failure is said once (a read-only
            // data folder lost every game silently), and again after it worked once more.
            let result = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
                Some(dir) => std::fs::create_dir_all(dir),
                None => Ok(()),
            }
            .and_then(|()| okapi_core::formats::save_game(self.game(), path));
            match result {
                Ok(()) => self.autosave_failed = false,
                Err(e) if !self.autosave_failed => {
                    self.autosave_failed = true;
                    self.error = Some(format!(
                        "The game in progress cannot be kept for the next start ({}: {e}); save it with File › Save as",
                        path.display()
                    ));
                }
                Err(_) => {}
            }
        }
    }

    /// Brings back the game kept from the last run. One that cannot be read is moved
    /// aside (not overwritten by the next autosave) and the reason is shown.
    pub fn restore_game_in_progress(&mut self, saved: &std::path::Path) {
        match okapi_core::formats::load_game(saved) {
            Ok(game) => {
                let seats = game.seats;
                self.session = okapi_core::game::Session::new(game, seats);
            }
            Err(e) => {
                let mut aside = saved.as_os_str().to_owned();
                aside.push(".unreadable");
                let aside = std::path::PathBuf::from(aside);
                let kept = match std::fs::rename(saved, &aside) {
                    Ok(()) => format!("it was moved to {}", aside.display()),
                    Err(_) => "it is left as it is".to_string(),
                };
                self.error = Some(format!(
                    "The game kept from last time could not be read ({e}); {kept}"
                ));
            }
        }
    }

    pub(super) fn start_task(&mut self, task: Task) {
        self.engine.task = task;
        self.engine.task_started = Instant::now();
        self.engine.analysis_depth = None;
        self.metrics.awaiting_first_value = task == Task::Analysing;
        self.engine.status = match task {
            Task::Idle => String::new(),
            Task::Analysing => "analysing...".into(),
            Task::Solving(mode) => format!("solving ({})...", mode_name(mode)),
            Task::Thinking => match self.engine_move_time() {
                Some(t) => format!(
                    "thinking, {:.1} s for this move by the clock...",
                    t.as_secs_f64()
                ),
                None => "thinking...".into(),
            },
            Task::AnalysingGame => "analysing the game...".into(),
        };
    }

    /// After any change of the position (the session has applied its rules): the game
    /// kept, and the next request to the engine (its move, or the values of the legal
    /// moves).
    pub(super) fn position_changed(&mut self) {
        self.keep_game_in_progress();
        self.ask_engine_again();
    }

    /// Asks the engine about the position on the board afresh (what it knows stays).
    pub(super) fn ask_engine_again(&mut self) {
        self.values_shown_for = None;
        self.ask_engine_about();
    }

    /// The engine's next task here, as the session says: its move, the values of the
    /// legal moves, or none.
    fn ask_engine_about(&mut self) {
        // Whatever the engine was doing is about the old position: none of it reaches
        // the app from now on.
        self.engine.thread.cancel();
        self.engine.paced_move = None;
        let next = self.session.next();
        if next == Next::Over {
            self.engine.task = Task::Idle;
            self.engine.status.clear();
            return;
        }
        self.engine
            .thread
            .configure(self.settings.engine_configuration());
        if let Some(request) = self.play_request(next) {
            // Engine against engine at a pace a person can follow.
            let delay = self.engine_move_delay();
            if !delay.is_zero() {
                self.engine.paced_move = Some((Instant::now() + delay, request));
                self.engine.task = Task::Thinking;
                self.engine.status = "next engine move...".into();
            } else {
                self.engine.thread.send(request);
                self.start_task(Task::Thinking);
            }
        } else if self.values_wanted_here() {
            self.analyse_here();
        } else {
            self.engine.task = Task::Idle;
            self.engine.status.clear();
        }
    }

    /// Asks the engine for the values of this position's moves (the live analysis, or a
    /// hint): the board shows them as they come, over what is known already.
    pub(super) fn analyse_here(&mut self) {
        let position = self.game().position();
        self.engine.thread.send(Request::Analyse {
            position,
            mode: self.settings.eval_mode,
            max_depth: self.settings.analysis_limit(),
        });
        self.values_shown_for = Some(position);
        self.start_task(Task::Analysing);
    }

    /// Does the player see the values of this position's moves without asking? Values on,
    /// for this side, and not the person's own moves in a game against the engine unless
    /// they chose to see them (practice: the values would give the answer away).
    pub(super) fn values_wanted_here(&self) -> bool {
        let side = self.game().position().side_to_move();
        self.settings.show_evals
            && self.settings.evals_for.includes(side)
            && (!self.practising_against_engine() || self.settings.values_against_engine)
    }

    /// Is a person playing the engine in a game not yet over?
    pub(super) fn practising_against_engine(&self) -> bool {
        let seats = self.session.seats();
        let game = self.game();
        seats.contains(&okapi_core::game::Seat::Human)
            && seats.iter().any(|s| s.is_engine())
            && self.session.lost_on_time().is_none()
            && !game.position_at(game.len()).is_game_over()
    }

    /// Offers a value of a move of `position` to the known values; a value kept that is
    /// stronger than the record's for a move of the game is written into the record too
    /// (it is saved with the game and shown in the move list and the graph).
    pub(super) fn learn_value(&mut self, position: Position, square: Square, eval: Eval) {
        if self.known.offer(position, square, eval) {
            let game = self.game();
            let ply = game.ply();
            let at = if game.position() == position && game.move_at(ply) == Some(Move::Play(square))
            {
                Some(ply)
            } else {
                None
            };
            if let Some(ply) = at {
                self.session.game_mut().set_eval(ply, eval);
            }
        }
    }

    /// Writes the known values of the game's moves into the record wherever they are
    /// stronger than its own (after a solve, whose proven line may run along the game),
    /// and keeps the game in progress when it changed.
    pub(super) fn record_known_values(&mut self) {
        let game = self.game();
        let upgrades: Vec<(usize, Eval)> = (0..game.len())
            .filter_map(|i| {
                let Some(Move::Play(sq)) = game.move_at(i) else {
                    return None;
                };
                let known = self.known.get(&game.position_at(i), sq)?;
                game.eval_at(i)
                    .is_none_or(|e| known.source > e.source)
                    .then_some((i, known))
            })
            .collect();
        if upgrades.is_empty() {
            return;
        }
        for (i, eval) in upgrades {
            self.session.game_mut().set_eval(i, eval);
        }
        self.keep_game_in_progress();
    }

    /// What a finished live analysis says: proven, or the depth it stopped at (it starts
    /// again when the position changes).
    fn analysis_complete(&self) -> String {
        let shown = self.move_evals();
        let proven = !shown.is_empty()
            && shown
                .values()
                .all(|e| matches!(e.source, EvalSource::Exact | EvalSource::Wld));
        match self.engine.analysis_depth {
            _ if proven => "analysis complete: every move proven".into(),
            Some(depth) => format!("analysis complete at depth {depth}"),
            None => "analysis complete".into(),
        }
    }

    /// Takes in whatever the engine has sent: only its newest request's events come
    /// (superseded requests end with `Superseded`, which says nothing to the app).
    pub fn poll_engine(&mut self) {
        while let Some(Reply { event, .. }) = self.engine.thread.try_recv() {
            match event {
                Event::MoveValue { square, eval, .. } => {
                    if let okapi_core::game::EvalSource::Midgame { depth, .. } = eval.source {
                        let depth = u32::from(depth);
                        self.engine.analysis_depth =
                            Some(self.engine.analysis_depth.map_or(depth, |d| d.max(depth)));
                    }
                    if std::mem::take(&mut self.metrics.awaiting_first_value) {
                        self.metrics.first_value = Some(self.engine.task_started.elapsed());
                    }
                    let position = self.game().position();
                    self.learn_value(position, square, eval);
                }
                Event::Progress {
                    message,
                    nodes,
                    elapsed,
                    ..
                } => {
                    self.engine.status = format!("{message} - {}", speed(nodes, elapsed));
                }
                Event::AnalysisDone { nodes, elapsed, .. } => {
                    let what = match self.engine.task {
                        Task::AnalysingGame => {
                            self.record_known_values();
                            self.keep_game_in_progress();
                            "game analysis done".to_string()
                        }
                        _ => self.analysis_complete(),
                    };
                    self.engine.task = Task::Idle;
                    self.engine.status = format!("{what} - {}", speed(nodes, elapsed));
                }
                Event::Solved {
                    mode,
                    score,
                    line,
                    nodes,
                    elapsed,
                    ..
                } => {
                    self.engine.task = Task::Idle;
                    self.engine.status = format!("solved - {}", speed(nodes, elapsed));
                    self.keep_proven_line(mode, score, line, SolveStats { nodes, elapsed });
                    // The proof is what the player asked to see here.
                    self.values_shown_for = Some(self.game().position());
                }
                Event::Played {
                    mv,
                    eval,
                    candidates,
                    ..
                } => {
                    self.engine.task = Task::Idle;
                    let before = self.game().position();
                    self.notice = None;
                    // The engine's value of its move is known too; the record takes the
                    // best known one.
                    let eval = match (mv, eval) {
                        (Move::Play(sq), Some(e)) => {
                            self.known.offer(before, sq, e);
                            self.known.get(&before, sq)
                        }
                        (Move::Play(sq), None) => self.known.get(&before, sq),
                        (Move::Pass, e) => e,
                    };
                    if self.play_engine_move(before, mv, eval) {
                        // Clicks pressed from now until the move shows are not moves.
                        self.view.position_shown_at = None;
                        self.engine_lines = Some(EngineLines {
                            position: before,
                            played: mv,
                            candidates,
                        });
                    }
                }
                Event::Stopped => {
                    self.engine.task = Task::Idle;
                    if let Some(asked) = self.metrics.stop_asked.take() {
                        self.metrics.stop_latency = Some(asked.elapsed());
                    }
                    self.engine.status = "stopped".into();
                }
                Event::PlyAnalysed {
                    ply,
                    played,
                    best,
                    best_move,
                    ..
                } => self.record_ply_analysis(ply, played, best, best_move),
                Event::Error { message, .. } => {
                    self.engine.task = Task::Idle;
                    self.engine.status.clear();
                    self.error = Some(message);
                }
                // Scripts run on their own engine (see `poll_script_engine`).
                // the app asks for no lines, book lists or position values, and each
                // request's own event tells it is done.
                Event::ScriptSolved { .. }
                | Event::ScriptDone { .. }
                | Event::Line { .. }
                | Event::BookMoves { .. }
                | Event::PositionValue { .. }
                | Event::Finished { .. }
                | Event::Superseded => {}
            }
        }
    }
}

pub(super) fn speed(nodes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    format!("{nodes} nodes, {secs:.2} s, {rate:.1} Mn/s")
}
