//! What the engine does for the app: the requests made after each change of position,
//! and the events taken in each frame (the engine drops those of superseded requests).

use crate::app::App;
use crate::engine_hub::{EngineLines, EngineUse, PlyAnalysis, SolveStats, Task};
use crate::platform::Instant;
use crate::script::RowResult;
use okapi_core::board::{Move, Position, Square};
use okapi_core::game::Next;
use okapi_core::game::{Eval, EvalSource};
use okapi_engine::{Event, Reply, Request, mode_name};
use std::time::Duration;

impl App {
    /// The engines running now (`board`, `script`, `practice`), the bytes of the tables
    /// they are given together, and the settings' table that bounds them.
    pub fn engine_tables(&self) -> (Vec<&'static str>, u64, u64) {
        let names = self
            .engines
            .running()
            .into_iter()
            .map(|w| match w {
                EngineUse::Board => "board",
                EngineUse::Script => "script",
                EngineUse::Practice => "practice",
            })
            .collect();
        (
            names,
            self.engines.table_bytes(),
            self.engines.budget_bytes(),
        )
    }

    /// Another engine started or stopped: the board's live analysis starts again at once
    /// on its new table, smaller or larger (a solve, a move or a game analysis keeps its
    /// table until it ends).
    pub(super) fn board_takes_its_new_share(&mut self) {
        if self.engines.board.task == Task::Analysing {
            self.ask_engine_about();
        }
    }

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
        // The record keeps it: saved in Okapi's game file and the autosave, shown again
        // after a restart and when the file is opened, with no new search.
        self.session.game_mut().set_best(
            ply,
            okapi_core::game::BestMove {
                square: best_move,
                eval: best,
            },
        );
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
        match self.engines.board.paced_move.take() {
            Some((at, request)) if Instant::now() >= at => {
                self.engines.board.thread.send(request);
                self.start_task(Task::Thinking);
                false
            }
            Some(waiting) => {
                self.engines.board.paced_move = Some(waiting);
                true
            }
            None => false,
        }
    }

    /// Takes in what the script engine has sent.
    pub(super) fn poll_script_engine(&mut self) {
        // Only the newest run's events come (a run superseded ends with `Superseded`).
        while let Some(Reply { event, .. }) = self
            .engines
            .get(EngineUse::Script)
            .and_then(|e| e.try_recv())
        {
            if event.is_final() && !matches!(event, Event::Superseded) {
                // The run is over: its engine goes with its tables (the next solve
                // starts another).
                self.engines.close(EngineUse::Script);
                self.board_takes_its_new_share();
            }
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

    /// What the record holds of the game analysis and its proofs, back in the known
    /// values and the analysis every view reads (a game opened, or brought back at start).
    pub(crate) fn take_analysis_from_record(&mut self) {
        let game = self.game();
        let mut found = Vec::new();
        for ply in 0..game.len() {
            let (position, mv) = (game.position_at(ply), game.moves()[ply]);
            let played = game.eval_at(ply);
            found.push((ply, position, mv, played, game.best_at(ply)));
        }
        for (ply, position, mv, played, best) in found {
            if let (Move::Play(sq), Some(played)) = (mv, played) {
                self.known.offer(position, sq, played);
            }
            let (Some(played), Some(best)) = (played, best) else {
                continue;
            };
            self.known.offer(position, best.square, best.eval);
            self.game_analysis.insert(
                ply,
                PlyAnalysis {
                    key: (position, mv),
                    played,
                    best: best.eval,
                    best_move: best.square,
                },
            );
        }
        // The solves kept with the record prove their moves again.
        for p in self.game().proofs().to_vec() {
            self.known
                .offer_proven_line(p.position, p.mode, p.score, &p.line);
        }
    }

    /// Keeps the game in progress (with what is known of it, and where it is saved)
    /// across restarts.
    pub(crate) fn keep_game_in_progress(&mut self) {
        let state = okapi_core::formats::okapi_json::SavedState {
            file: self.file.clone(),
            settled: !self.has_unsaved_changes(),
        };
        if let Some(path) = &self.autosave {
            // Play goes on whatever happens here, but a failure is said once (a read-only
            // data folder lost every game silently), and again after it worked once more.
            let result = crate::platform::make_folder_of(path)
                .and_then(|()| crate::platform::save_game_in_progress(self.game(), &state, path));
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

    /// Brings back the game kept from the last run as it was: its analysis, its file and
    /// what of it is saved there (read again: the moves decide). One that cannot be read
    /// is moved aside (not overwritten by the next autosave) and the reason is shown.
    pub fn restore_game_in_progress(&mut self, saved: &std::path::Path) {
        match crate::platform::load_game_in_progress(saved) {
            Ok((game, state)) => {
                let seats = game.seats;
                self.saved_record = match &state.file {
                    _ if state.settled => game.clone(),
                    // Compared with the file as it is now (what a one-line format keeps).
                    Some(file) => okapi_core::formats::load_game(file).unwrap_or_default(),
                    None => okapi_core::game::Game::default(),
                };
                self.file = state.file;
                self.session = okapi_core::game::Session::new(game, seats);
                self.take_analysis_from_record();
            }
            Err(e) => {
                let mut aside = saved.as_os_str().to_owned();
                aside.push(".unreadable");
                let aside = std::path::PathBuf::from(aside);
                let kept = match crate::platform::rename(saved, &aside) {
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
        self.engines.board.task = task;
        self.engines.board.task_started = Instant::now();
        self.engines.board.analysis_depth = None;
        self.metrics.awaiting_first_value = task == Task::Analysing;
        self.engines.board.status = match task {
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
        self.engines.board.thread.cancel();
        self.engines.board.paced_move = None;
        let next = self.session.next();
        if next == Next::Over {
            self.engines.board.task = Task::Idle;
            self.engines.board.status.clear();
            return;
        }
        self.engines
            .open(EngineUse::Board, self.settings.engine_configuration());
        if let Some(request) = self.play_request(next) {
            // Engine against engine at a pace a person can follow.
            let delay = self.engine_move_delay();
            if !delay.is_zero() {
                self.engines.board.paced_move = Some((Instant::now() + delay, request));
                self.engines.board.task = Task::Thinking;
                self.engines.board.status = "next engine move...".into();
            } else {
                self.engines.board.thread.send(request);
                self.start_task(Task::Thinking);
            }
        } else if self.values_wanted_here() {
            self.analyse_here();
        } else {
            self.engines.board.task = Task::Idle;
            self.engines.board.status.clear();
        }
    }

    /// Asks the engine for the values of this position's moves (the live analysis, or a
    /// hint): the board shows them as they come, over what is known already.
    pub(super) fn analyse_here(&mut self) {
        let position = self.game().position();
        self.engines.board.thread.send(Request::Analyse {
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
                // As every view shows it: a search above a proof of the position is kept
                // at the proof ("≤-16"), not above it.
                let bounded = self.known.bounded(&position, eval);
                self.session.game_mut().set_eval(ply, bounded);
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
                let position = game.position_at(i);
                let recorded = game.eval_at(i);
                let stronger = self
                    .known
                    .get(&position, sq)
                    .filter(|known| recorded.is_none_or(|e| known.source > e.source));
                // The record's own search above a proof found since is brought down too.
                let eval = self.known.bounded(&position, stronger.or(recorded)?);
                (Some(eval) != recorded).then_some((i, eval))
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
        match self.engines.board.analysis_depth {
            _ if proven => "analysis complete: every move proven".into(),
            Some(depth) => format!("analysis complete at depth {depth}"),
            None => "analysis complete".into(),
        }
    }

    /// Takes in whatever the engine has sent: only its newest request's events come
    /// (superseded requests end with `Superseded`, which says nothing to the app).
    pub fn poll_engine(&mut self) {
        while let Some(Reply { event, .. }) = self.engines.board.thread.try_recv() {
            match event {
                Event::MoveValue { square, eval, .. } => {
                    if let okapi_core::game::EvalSource::Midgame { depth, .. } = eval.source {
                        let depth = u32::from(depth);
                        self.engines.board.analysis_depth = Some(
                            self.engines
                                .board
                                .analysis_depth
                                .map_or(depth, |d| d.max(depth)),
                        );
                    }
                    if std::mem::take(&mut self.metrics.awaiting_first_value) {
                        self.metrics.first_value = Some(self.engines.board.task_started.elapsed());
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
                    self.engines.board.status = format!("{message} - {}", speed(nodes, elapsed));
                }
                Event::AnalysisDone { nodes, elapsed, .. } => {
                    let what = match self.engines.board.task {
                        Task::AnalysingGame => {
                            self.record_known_values();
                            self.keep_game_in_progress();
                            "game analysis done".to_string()
                        }
                        _ => self.analysis_complete(),
                    };
                    self.engines.board.task = Task::Idle;
                    self.engines.board.status = format!("{what} - {}", speed(nodes, elapsed));
                }
                Event::Solved {
                    mode,
                    score,
                    line,
                    nodes,
                    elapsed,
                    ..
                } => {
                    self.engines.board.task = Task::Idle;
                    self.engines.board.status = format!("solved - {}", speed(nodes, elapsed));
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
                    self.engines.board.task = Task::Idle;
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
                        self.parts.board.position_shown_at = None;
                        self.engine_lines = Some(EngineLines {
                            position: before,
                            played: mv,
                            candidates,
                        });
                    }
                }
                Event::Stopped => {
                    self.engines.board.task = Task::Idle;
                    if let Some(asked) = self.metrics.stop_asked.take() {
                        self.metrics.stop_latency = Some(asked.elapsed());
                    }
                    self.engines.board.status = "stopped".into();
                }
                Event::PlyAnalysed {
                    ply,
                    played,
                    best,
                    best_move,
                    ..
                } => self.record_ply_analysis(ply, played, best, best_move),
                Event::Error { message, .. } => {
                    self.engines.board.task = Task::Idle;
                    self.engines.board.status.clear();
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
