//! Requests to the board's engine: solving (after a warning when it will take long),
//! stopping, the engine's move, a hint and the analysis of the whole game.

use crate::app::App;
use crate::command::Command;
use crate::engine_hub::{EngineUse, Task};
use crate::platform::Instant;
use crate::windows::ConfirmSolve;
use okapi_core::board::{Move, Position, Square};
use okapi_engine::Request;

impl App {
    /// Solves this position, after a warning with an estimate when it will take long.
    pub(super) fn request_solve(&mut self, mode: okapi_core::search::SolveMode) {
        let empties = self.game().position().empty_count();
        if crate::status_bar::long_solve_warning(empties, mode).is_some() {
            self.parts.windows.confirm_solve = Some(ConfirmSolve { mode });
        } else {
            self.apply(Command::Solve(mode));
        }
    }

    /// Requests to the engine.
    pub(super) fn apply_engine(&mut self, command: Command) {
        match command {
            Command::Solve(mode) => {
                let position = self.game().position();
                if position.is_game_over() {
                    return;
                }
                // The values already on the board stay; the solve proves its best move's
                // and adds the proven line.
                self.engines
                    .board
                    .thread
                    .send(Request::Solve { position, mode });
                self.start_task(Task::Solving(mode));
            }
            Command::Stop => {
                if self.engines.board.task != Task::Idle {
                    self.engines.board.thread.stop();
                    self.metrics.stop_asked = Some(Instant::now());
                }
            }
            Command::EngineMove => {
                // The engine plays the side to move even inside the record, if the
                // session gives it that side.
                let Some(next) = self.session.engine_move_now() else {
                    return;
                };
                self.engines.board.thread.cancel();
                if let Some(request) = self.play_request(next) {
                    self.engines.board.thread.send(request);
                    self.start_task(Task::Thinking);
                }
            }
            Command::Hint => {
                if self.game().position().is_game_over() {
                    return;
                }
                self.analyse_here();
            }
            Command::AnalyseGame => {
                let game = self.game();
                let plies: Vec<(usize, Position, Square)> = (0..game.len())
                    .filter_map(|i| match game.move_at(i) {
                        Some(Move::Play(sq)) => Some((i, game.position_at(i), sq)),
                        _ => None,
                    })
                    .collect();
                if plies.is_empty() {
                    return;
                }
                self.engines
                    .open(EngineUse::Board, self.settings.engine_configuration());
                self.engines
                    .board
                    .thread
                    .send(Request::AnalyseGame { plies });
                self.start_task(Task::AnalysingGame);
            }
            Command::CrashEngine => {
                self.engines.board.thread.send(Request::Crash);
                self.start_task(Task::Thinking);
            }
            other => unreachable!("not a engine command: {other:?}"),
        }
    }
}
