//! What the app does with the game [`Session`]: starts and loads games, plays the
//! person's and the engine's moves, undoes and steps, keeps a solve's proven line and
//! watches the clock, turning the session's answers into engine requests, notices and
//! animations. The session owns every rule (turns, forced passes, mirrored undo/redo, the
//! clock, what the engine is asked next): none is decided here.

use crate::app::App;
use crate::command::Command;
use crate::engine_hub::{SolveStats, Task};
use crate::platform::Instant;
use okapi_core::board::{Color, Move, Position, Square};
use okapi_core::game::{Game, Next, ProvenLine, Seat, Session};
use okapi_core::search::SolveMode;
use okapi_engine::Request;
use std::time::Duration;

impl App {
    /// The game record.
    pub fn game(&self) -> &Game {
        self.session.game()
    }

    /// The engine's move request for the position at the cursor: the seat's level (a
    /// full-strength level solves from the app's solve limit), the clock's time, the book.
    pub(super) fn play_request(&self, next: Next) -> Option<Request> {
        let Next::EngineMove {
            position,
            level,
            time,
        } = next
        else {
            return None;
        };
        Some(Request::Play {
            position,
            level: level.solving_from(self.settings.solve_limit),
            time,
            book: self.settings.book.then_some(okapi_engine::BOOK_RANDOMNESS),
        })
    }

    /// A new game between `black` and `white`, `minutes` per side on the clock (0: none),
    /// from the standard start or from the position on the board.
    pub(super) fn start_new_game(&mut self, seats: [Seat; 2], minutes: u32, from_here: bool) {
        self.timing_minutes = minutes;
        // Moves carried over from a game never saved stay unsaved.
        let carries_unsaved = from_here && self.has_unsaved_changes();
        let per_side = Duration::from_secs(60 * u64::from(minutes));
        self.session = if from_here {
            self.session.new_game_from_here(seats, per_side)
        } else {
            Session::new(Game::default(), [Seat::Human; 2]).new_game_from_here(seats, per_side)
        };
        // The player's own name on a person's seat, kept in the games saved.
        let names = seats.map(|s| self.settings.seat_name(s));
        let game = self.session.game_mut();
        [game.black, game.white] = names;
        self.engine_lines = None;
        self.file = None;
        self.parts.windows.close(crate::windows::NEW_GAME);
        self.notice = None;
        self.position_changed();
        if !carries_unsaved {
            self.mark_saved();
        }
    }

    /// A game from a file, a paste, a set-up or a script: played from where it stands by
    /// `seats` (a file's own seats, or the seats of the game on the board).
    pub(super) fn load_game(&mut self, game: Game, seats: [Seat; 2], notice: Option<String>) {
        let plies = game.len();
        self.session = Session::new(game, seats);
        // The session plays a forced pass at once: say so.
        let notice = match self.game().len() > plies {
            true => Some(format!(
                "{} has no legal move and passes.",
                self.session.position().side_to_move().opposite().name()
            )),
            false => notice,
        };
        self.engine_lines = None;
        self.solve_stats = None;
        self.notice = notice;
        self.take_analysis_from_record();
        self.position_changed();
    }

    /// A human's move: the session decides whether it may be played.
    pub(super) fn play_human_move(&mut self, sq: Square) {
        let eval = self.known.get(&self.game().position(), sq);
        let as_variation = self.view.next_as_variation;
        let played = if as_variation {
            self.session.play_as_variation(Move::Play(sq), eval)
        } else {
            self.session.play(Move::Play(sq), eval)
        };
        if let Ok(passed) = played {
            self.view.next_as_variation = false;
            self.moved(&passed);
            if as_variation && !self.game().on_main_line() && passed.is_empty() {
                self.notice = Some(format!("{sq} added as a variation: the main line stays."));
            }
        }
    }

    /// Plays the first move of the proven line, if the game is on it.
    pub(super) fn play_best_move(&mut self) {
        if let Some(Move::Play(sq)) = self
            .session
            .proven_here()
            .and_then(|p| p.line.first().copied())
        {
            let eval = self.known.get(&self.game().position(), sq);
            if let Ok(passed) = self.session.play_any(Move::Play(sq), eval) {
                self.moved(&passed);
            }
        }
    }

    /// The engine's move, for the position it was asked about.
    pub(super) fn play_engine_move(
        &mut self,
        asked: Position,
        mv: Move,
        eval: Option<okapi_core::game::Eval>,
    ) -> bool {
        match self.session.play_engine_move(asked, mv, eval) {
            Ok(passed) => {
                self.moved(&passed);
                true
            }
            Err(_) => false,
        }
    }

    pub(super) fn undo(&mut self) {
        if self.session.undo() {
            self.position_changed();
        }
    }

    pub(super) fn redo(&mut self) {
        if self.session.redo() {
            self.position_changed();
        }
    }

    pub(super) fn go_to(&mut self, ply: usize) {
        self.session.go_to(ply);
        self.position_changed();
    }

    /// After a disc was placed: the flip animation, the passes told, then the usual.
    pub(super) fn moved(&mut self, passed: &[Color]) {
        let ply = self.game().ply();
        if self.settings.animate && ply > 0 {
            // The disc placed is the last non-pass ply.
            let last = (0..ply)
                .rev()
                .find(|&i| self.game().move_at(i) != Some(Move::Pass))
                .unwrap_or(ply - 1);
            let (before, after) = (
                self.game().position_at(last),
                self.game().position_at(last + 1),
            );
            let turned = (before.black() & after.white()) | (before.white() & after.black());
            self.parts.board.flip_animation = Some((turned, Instant::now()));
        }
        if let Some(passer) = passed.first() {
            self.notice = Some(format!("{} has no legal move and passes.", passer.name()));
        }
        self.position_changed();
        // Practice: at the end of a game against the engine, value every move played so
        // the player sees the mistakes.
        if self.session.just_finished_against_engine() {
            self.apply(Command::AnalyseGame);
        }
    }

    /// Keeps a solve's proven line and its figures; its values replace the search's
    /// estimates wherever they are shown (the known values, the record).
    pub(super) fn keep_proven_line(
        &mut self,
        mode: SolveMode,
        score: i32,
        line: Vec<Move>,
        stats: SolveStats,
    ) {
        let position = self.session.position();
        self.known.offer_proven_line(position, mode, score, &line);
        self.record_known_values();
        self.session.set_proven_line(ProvenLine {
            position,
            mode,
            score,
            line,
        });
        self.solve_stats = Some(stats);
        // The proof goes into the record kept for the next start at once.
        self.keep_game_in_progress();
    }

    /// A fallen flag: that side loses on time and the engine stops. True while a clock
    /// runs (the frame then repaints to keep it moving).
    pub(super) fn check_clock(&mut self) -> bool {
        if let Some(side) = self.session.check_time() {
            self.notice = Some(format!("{} lost on time.", side.name()));
            self.engines.board.thread.cancel();
            self.engines.board.task = Task::Idle;
        }
        self.session.clock().is_some_and(|c| c.running().is_some())
    }

    /// What the game clock gives the engine for its move now, if a clock runs.
    pub fn engine_move_time(&self) -> Option<Duration> {
        self.session.engine_time()
    }
}
