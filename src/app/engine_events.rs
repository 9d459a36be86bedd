//! What the engine does for the app: the requests made after each change of position,
//! and the events taken in each frame (stale generations dropped).

use super::{App, Command, RowResult};
use crate::board::{Move, Position, Square};
use crate::engine::clock::clock_allotment;
use crate::engine::{Event, Request, mode_name};
use crate::formats::game::{Eval, Player};
use crate::search::SolveMode;
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

/// A solved position with its proven line, kept while the game follows the line.
#[derive(Clone, Debug)]
pub(super) struct Solved {
    pub(super) position: Position,
    pub(super) mode: SolveMode,
    pub(super) score: i32,
    pub(super) line: Vec<Move>,
    pub(super) nodes: u64,
    pub(super) elapsed: Duration,
}

impl App {
    /// Takes in what the script engine has sent.
    pub(super) fn poll_script_engine(&mut self) {
        let Some(engine) = &self.script_engine else {
            return;
        };
        while let Some(event) = engine.try_recv() {
            let Some(job) = &mut self.script else {
                continue;
            };
            if job.running != Some(event.generation()) {
                continue;
            }
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
                Event::Stopped { .. } => {
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

    /// What the game clock gives the engine for its move now, if a clock runs.
    pub fn engine_move_time(&self) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        let position = self.game.position();
        Some(clock_allotment(
            clock.left(position.side_to_move()),
            position.empty_count(),
        ))
    }

    /// Keeps the game in progress (with what is known of it) across restarts.
    pub(super) fn keep_game_in_progress(&self) {
        if let Some(path) = &self.autosave {
            // Best effort: losing the autosave must not disturb play.
            let _ = path.parent().map(std::fs::create_dir_all);
            let _ = self.game.save(path);
        }
    }

    /// After a disc was placed: the flip animation, then the usual.
    pub(super) fn moved(&mut self) {
        let ply = self.game.ply();
        if self.settings.animate && ply > 0 {
            let (before, after) = (self.game.position_at(ply - 1), self.game.position());
            let turned = (before.black() & after.white()) | (before.white() & after.black());
            self.flip_animation = Some((turned, Instant::now()));
        }
        self.position_changed();
        // Practice: at the end of a game against the engine, value every move played so
        // the player sees the mistakes.
        let against_engine =
            self.players.contains(&Player::Human) && self.players.iter().any(|p| p.is_engine());
        if against_engine && self.game.position().is_game_over() && !self.game.can_redo() {
            self.apply(Command::AnalyseGame);
        }
    }

    pub(super) fn start_task(&mut self, task: Task) {
        self.task = task;
        self.task_started = Instant::now();
        self.metrics.awaiting_first_value = task == Task::Analysing;
        self.status = match task {
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

    pub(super) fn solved_here(&self) -> Option<&Solved> {
        self.solved
            .as_ref()
            .filter(|s| s.position == self.game.position())
    }

    /// After any change of the position: forced passes, the proven line followed, and the
    /// next request to the engine (its move, or the values of the legal moves).
    pub(super) fn position_changed(&mut self) {
        self.move_evals.clear();
        if !self.game.can_redo() && self.game.pass_if_needed() {
            let passer = self.game.position().side_to_move().opposite();
            self.notice = Some(format!("{} has no legal move and passes.", passer.name()));
        }
        // Follow the proven line while the game does.
        if let Some(s) = &mut self.solved {
            let here = self.game.position();
            while s.position != here && !s.line.is_empty() {
                let from = (0..self.game.ply())
                    .rev()
                    .find(|&i| self.game.position_at(i) == s.position);
                match from {
                    Some(i) if self.game.moves()[i] == s.line[0] => {
                        s.position = self.game.position_at(i + 1);
                        s.line.remove(0);
                        s.score = -s.score;
                    }
                    _ => break,
                }
            }
        }
        if self
            .solved
            .as_ref()
            .is_some_and(|s| s.position != self.game.position())
        {
            self.solved = None;
        }
        self.keep_game_in_progress();
        let position = self.game.position();
        if let Some(clock) = &mut self.clock {
            // Runs for the side to move while the game goes on at the end of the record.
            if position.is_game_over() || self.game.can_redo() || self.lost_on_time.is_some() {
                clock.stop();
            } else {
                clock.run_for(position.side_to_move());
            }
        }
        self.generation = self.engine.new_generation();
        if position.is_game_over() {
            self.engine.stop();
            self.task = Task::Idle;
            self.status.clear();
            return;
        }
        self.engine.send(Request::Configure {
            solve_limit: self.settings.solve_limit,
            hash_bits: self.settings.hash_bits,
            level: self.settings.level,
            book: self.settings.book,
        });
        let player = self.player_to_move();
        if player.is_engine() && !self.game.can_redo() {
            self.engine.send(Request::Play {
                generation: self.generation,
                position,
                player,
                time: self.engine_move_time(),
            });
            self.start_task(Task::Thinking);
        } else if self.settings.show_evals
            && self.settings.evals_for.includes(position.side_to_move())
        {
            self.engine.send(Request::Analyse {
                generation: self.generation,
                position,
                mode: self.settings.eval_mode,
            });
            self.start_task(Task::Analysing);
        } else {
            self.engine.stop();
            self.task = Task::Idle;
            self.status.clear();
        }
    }

    /// Takes in whatever the engine has sent; stale generations are dropped.
    pub fn poll_engine(&mut self) {
        while let Some(event) = self.engine.try_recv() {
            if event.generation() != self.generation {
                continue;
            }
            match event {
                Event::MoveValue { square, eval, .. } => {
                    if std::mem::take(&mut self.metrics.awaiting_first_value) {
                        self.metrics.first_value = Some(self.task_started.elapsed());
                    }
                    let keep = self
                        .move_evals
                        .get(&square)
                        .is_some_and(|old| old.source > eval.source);
                    if !keep {
                        self.move_evals.insert(square, eval);
                    }
                }
                Event::Progress {
                    message,
                    nodes,
                    elapsed,
                    ..
                } => {
                    self.status = format!("{message} - {}", speed(nodes, elapsed));
                }
                Event::AnalysisDone { nodes, elapsed, .. } => {
                    if self.task == Task::AnalysingGame {
                        self.keep_game_in_progress();
                    }
                    self.task = Task::Idle;
                    self.status = format!("analysis done - {}", speed(nodes, elapsed));
                }
                Event::Solved {
                    mode,
                    score,
                    line,
                    nodes,
                    elapsed,
                    ..
                } => {
                    self.task = Task::Idle;
                    self.status = format!("solved - {}", speed(nodes, elapsed));
                    self.solved = Some(Solved {
                        position: self.game.position(),
                        mode,
                        score,
                        line,
                        nodes,
                        elapsed,
                    });
                }
                Event::Played {
                    mv,
                    eval,
                    candidates,
                    ..
                } => {
                    self.task = Task::Idle;
                    let before = self.game.position();
                    if self.player_to_move().is_engine() && self.game.play(mv, eval).is_ok() {
                        self.engine_lines = Some(EngineLines {
                            position: before,
                            played: mv,
                            candidates,
                        });
                        self.notice = None;
                        self.moved();
                    }
                }
                Event::Stopped { .. } => {
                    self.task = Task::Idle;
                    if let Some(asked) = self.metrics.stop_asked.take() {
                        self.metrics.stop_latency = Some(asked.elapsed());
                    }
                    self.status = "stopped".into();
                }
                Event::PlyAnalysed {
                    ply,
                    played,
                    best,
                    best_move,
                    ..
                } => {
                    self.game.set_eval(ply, played);
                    if ply < self.game.len() {
                        let key = (self.game.position_at(ply), self.game.moves()[ply]);
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
                }
                Event::Error { message, .. } => {
                    self.task = Task::Idle;
                    self.status.clear();
                    self.error = Some(message);
                }
                // Scripts run on their own engine (see `poll_script_engine`).
                Event::ScriptSolved { .. } | Event::ScriptDone { .. } => {}
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
