//! The rules of play the app keeps itself, in one place so that a game session can take
//! them over: whose turn it is, a human's move, undo back to a human's turn and redo past
//! forced passes, forced passes, the proven line followed while the game does, and the
//! clock (its allotment per engine move, running for the side to move, losing on time).

use super::engine_events::{Solved, Task};
use super::{App, Command};
use crate::board::{Color, Move, Position, Square};
use crate::engine::Request;
use crate::formats::game::{Game, Player};
use crate::game::clock::{Clock, clock_allotment};
use crate::search::level::Level;
use std::time::{Duration, Instant};

/// The game clock, when playing with time, and its outcome.
#[derive(Default)]
pub(super) struct Timing {
    /// The game clock, when playing with time.
    pub(super) clock: Option<Clock>,
    /// Minutes per side of the last new game (0: none), offered again.
    pub(super) minutes: u32,
    /// The side whose time ran out: the game is over for play.
    pub(super) lost_on_time: Option<Color>,
}

impl App {
    /// A player's name as the game record keeps it: the engine with its level.
    pub(super) fn player_label(&self, player: Player) -> String {
        match player {
            Player::Perfect => format!("Okapi (level {})", self.settings.level.name()),
            p => p.name().into(),
        }
    }

    /// The engine's move request for `player` at `position`: its level (the engine at
    /// the chosen level solves from the solve limit), the clock's time, the book.
    pub(super) fn play_request(&self, player: Player, position: Position) -> Request {
        let level = match player {
            Player::Random => Level::Random,
            Player::Greedy => Level::Greedy,
            Player::Human | Player::Perfect => {
                self.settings.level.solving_from(self.settings.solve_limit)
            }
        };
        Request::Play {
            generation: self.engine.generation,
            position,
            level,
            time: self.engine_move_time(),
            book: self.settings.book.then_some(crate::engine::BOOK_RANDOMNESS),
        }
    }

    pub(super) fn player_to_move(&self) -> Player {
        self.players[self.game.position().side_to_move() as usize]
    }

    /// A new game between `black` and `white`, `minutes` per side on the clock (0: none).
    pub(super) fn start_new_game(&mut self, black: Player, white: Player, minutes: u32) {
        self.players = [black, white];
        self.timing.minutes = minutes;
        self.timing.clock =
            (minutes > 0).then(|| Clock::new(Duration::from_secs(60 * u64::from(minutes))));
        self.timing.lost_on_time = None;
        self.game = Game::default();
        self.game.black = self.player_label(black);
        self.game.white = self.player_label(white);
        self.engine_lines = None;
        self.file = None;
        self.view.new_game = None;
        self.solved = None;
        self.notice = None;
        self.position_changed();
    }

    /// A human's move: only on a human's turn, legal, and before a flag fell.
    pub(super) fn play_human_move(&mut self, sq: Square) {
        if self.timing.lost_on_time.is_some()
            || self.player_to_move() != Player::Human
            || !self.game.position().is_legal(sq)
        {
            return;
        }
        let eval = self.move_evals.get(&sq).copied();
        if self.game.play(Move::Play(sq), eval).is_ok() {
            self.moved();
        }
    }

    /// Plays the first move of the proven line, if the game is on it.
    pub(super) fn play_best_move(&mut self) {
        if let Some(Move::Play(sq)) = self.solved_here().and_then(|s| s.line.first().copied()) {
            let eval = self.move_evals.get(&sq).copied();
            if self.game.play(Move::Play(sq), eval).is_ok() {
                self.moved();
            }
        }
    }

    /// Undo: back to a position where a human has a move to make.
    pub(super) fn undo_to_humans_turn(&mut self) {
        if self.game.undo() {
            // Land on a position where a human has a move to make.
            let humans = self.players.contains(&Player::Human);
            while self.game.can_undo()
                && (self.game.position().must_pass()
                    || (humans && self.player_to_move().is_engine()))
            {
                self.game.undo();
            }
            self.position_changed();
        }
    }

    /// Redo: on past forced passes.
    pub(super) fn redo_past_passes(&mut self) {
        if self.game.redo() {
            while self.game.can_redo() && self.game.position().must_pass() {
                self.game.redo();
            }
            self.position_changed();
        }
    }

    /// After a disc was placed: the flip animation, then the usual.
    pub(super) fn moved(&mut self) {
        let ply = self.game.ply();
        if self.settings.animate && ply > 0 {
            let (before, after) = (self.game.position_at(ply - 1), self.game.position());
            let turned = (before.black() & after.white()) | (before.white() & after.black());
            self.view.flip_animation = Some((turned, Instant::now()));
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

    /// A side with no legal move passes (at the end of the record only).
    pub(super) fn pass_if_forced(&mut self) {
        if !self.game.can_redo() && self.game.pass_if_needed() {
            let passer = self.game.position().side_to_move().opposite();
            self.notice = Some(format!("{} has no legal move and passes.", passer.name()));
        }
    }

    pub(super) fn solved_here(&self) -> Option<&Solved> {
        self.solved
            .as_ref()
            .filter(|s| s.position == self.game.position())
    }

    /// Follows the proven line while the game does; drops it when the game leaves it.
    pub(super) fn follow_proven_line(&mut self) {
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
    }

    /// The clock runs for the side to move while the game goes on at the end of the record.
    pub(super) fn run_clock(&mut self, position: Position) {
        if let Some(clock) = &mut self.timing.clock {
            if position.is_game_over() || self.game.can_redo() || self.timing.lost_on_time.is_some()
            {
                clock.stop();
            } else {
                clock.run_for(position.side_to_move());
            }
        }
    }

    /// What the game clock gives the engine for its move now, if a clock runs.
    pub fn engine_move_time(&self) -> Option<Duration> {
        let clock = self.timing.clock.as_ref()?;
        let position = self.game.position();
        Some(clock_allotment(
            clock.left(position.side_to_move()),
            position.empty_count(),
        ))
    }

    /// A fallen flag: that side loses on time and the engine stops. True while a clock
    /// runs (the frame then repaints to keep it moving).
    pub(super) fn check_clock(&mut self) -> bool {
        let Some(clock) = &mut self.timing.clock else {
            return false;
        };
        if let Some(side) = clock.flagged()
            && self.timing.lost_on_time.is_none()
        {
            clock.stop();
            self.timing.lost_on_time = Some(side);
            self.engine.generation = self.engine.thread.new_generation();
            self.engine.thread.stop();
            self.engine.task = Task::Idle;
        }
        clock.running().is_some()
    }
}
