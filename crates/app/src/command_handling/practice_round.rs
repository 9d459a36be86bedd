//! A round of practice: the cards due, one at a time on the board; the values of every
//! move, the judgement, the schedule, the best line.

use crate::app::App;
use crate::command::PracticeStep;
use crate::engine_hub::EngineUse;
use crate::practice_state::{Asking, Round, Shown};
use okapi_core::board::{Move, Square};
use okapi_core::game::Eval;
use okapi_core::level::Level;
use okapi_core::practice;
use okapi_engine::{Event, GAME_ANALYSIS_DEPTH, Request};

/// A missed position comes back after this many others in the same round.
const RETRY_AFTER: usize = 2;

impl App {
    /// Starts a round with the cards due today; the board's own analysis rests meanwhile.
    pub(super) fn start_round(&mut self) {
        let today = self.practice_today();
        let Some(store) = &self.practice.store else {
            return;
        };
        let queue = store.round(today);
        if queue.is_empty() {
            return;
        }
        self.engines.board.thread.cancel();
        self.engines.board.task = crate::engine_hub::Task::Idle;
        self.engines.board.status.clear();
        self.practice.round = Some(Round {
            queue,
            at: 0,
            right: 0,
            missed: 0,
            retries: 0,
            shown: None,
        });
        self.show_card();
    }

    /// Puts the round's next card on the board and asks the engine for every move's value.
    fn show_card(&mut self) {
        let today = self.practice_today();
        let Some(round) = &mut self.practice.round else {
            return;
        };
        let Some(&card) = round.queue.get(round.at) else {
            round.shown = None;
            self.practice.asking = Asking::Nothing;
            return;
        };
        let again = round.queue[..round.at].contains(&card)
            || self
                .practice
                .store
                .as_ref()
                .and_then(|s| s.cards.get(card))
                .is_some_and(|c| c.missed_on(today));
        round.shown = Some(Shown {
            again,
            card,
            valued: false,
            proven_line: None,
            answer: None,
            judgement: None,
            next_in: None,
            best_line: None,
            line_asked: false,
            line_step: 0,
        });
        let Some(position) = self
            .practice
            .store
            .as_ref()
            .and_then(|s| s.cards.get(card))
            .map(|c| c.position)
        else {
            return;
        };
        self.ask_practice_values(position, Asking::Values);
    }

    /// Ends the round: the board shows the game again, and its analysis goes on.
    pub(super) fn end_round(&mut self) {
        if self.practice.round.take().is_none() {
            return;
        }
        if let Some(engine) = self.engines.get_mut(EngineUse::Practice) {
            engine.cancel();
        }
        self.practice.asking = Asking::Nothing;
        self.position_changed();
    }

    pub(super) fn round_event(&mut self, event: Event) {
        let asking = self.practice.asking;
        let Some(position) = self.practice.card_position() else {
            return;
        };
        if let Event::MoveValue { square, eval } = event {
            // Among every value known of the position: one never gives way to a weaker
            // one (a proof to a shallow search), and every view shows the same.
            self.learn_value(position, square, eval);
            return;
        }
        let Some(shown) = self.practice.round.as_mut().and_then(|r| r.shown.as_mut()) else {
            return;
        };
        match event {
            Event::Solved { line, .. } => shown.proven_line = Some(line),
            Event::Line { line } if asking == Asking::Line => {
                // The line after the best move, deepening: the deepest is kept.
                if let Some(best) = shown.judgement.map(|j| j.best) {
                    let mut moves = vec![Move::Play(best)];
                    moves.extend(line.moves);
                    shown.best_line = Some(moves);
                }
            }
            Event::Finished { .. } => {
                self.practice.asking = Asking::Nothing;
                if asking == Asking::Values {
                    shown.valued = true;
                    self.judge_if_ready();
                } else {
                    shown.line_asked = false;
                }
            }
            Event::Error { message } => {
                self.practice.asking = Asking::Nothing;
                self.practice.notice = Some(format!("The engine failed: {message}"));
            }
            _ => {}
        }
    }

    /// A move clicked on the board while a card shows.
    pub(super) fn practice_answer(&mut self, sq: Square) {
        let Some(position) = self.practice.card_position() else {
            return;
        };
        let Some(shown) = self.practice.round.as_mut().and_then(|r| r.shown.as_mut()) else {
            return;
        };
        if shown.answer.is_some() {
            return;
        }
        if !position.is_legal(sq) {
            self.notice = Some(format!("{sq} is not a legal move here."));
            return;
        }
        shown.answer = Some(sq);
        self.judge_if_ready();
    }

    /// Judges the answer once every value is in; the card's schedule moves and is saved.
    fn judge_if_ready(&mut self) {
        let today = self.practice_today();
        let Some(position) = self.practice.card_position() else {
            return;
        };
        // Judged with the values the board then shows: a search above a proof is taken
        // at the proof.
        let values: Vec<(Square, Eval)> = self
            .known
            .of(&position)
            .iter()
            .map(|(s, e)| (*s, self.known.bounded(&position, *e)))
            .collect();
        let Some(round) = &mut self.practice.round else {
            return;
        };
        let Some(shown) = &mut round.shown else {
            return;
        };
        let (Some(answer), true, None) = (shown.answer, shown.valued, shown.judgement) else {
            return;
        };
        let tolerance = self
            .practice
            .store
            .as_ref()
            .map(|s| s.tolerance)
            .unwrap_or_default();
        let Some(judgement) = practice::judge(&values, answer, tolerance) else {
            self.practice.notice = Some(format!("The engine gave no value for {answer}."));
            return;
        };
        shown.judgement = Some(judgement);
        let card = shown.card;
        if judgement.right {
            round.right += 1;
        } else {
            round.missed += 1;
            // Tried again after a few other positions, and again at the end of the round.
            let soon = (round.at + 1 + RETRY_AFTER).min(round.queue.len());
            round.queue.insert(soon, card);
            if soon + 1 < round.queue.len() {
                round.queue.push(card);
            }
            round.retries += 1;
        }
        if let Some(store) = &mut self.practice.store {
            shown.next_in = store.answer(card, answer, judgement.right, today);
        }
        self.save_practice();
    }

    /// Steps through the best line on the board.
    pub(super) fn step_line(&mut self, step: PracticeStep) {
        let Some(shown) = self.practice.round.as_mut().and_then(|r| r.shown.as_mut()) else {
            return;
        };
        let Some(len) = shown.best_line.as_ref().map(Vec::len) else {
            return;
        };
        shown.line_step = match step {
            PracticeStep::LineFirst => 0,
            PracticeStep::LineBack => shown.line_step.saturating_sub(1),
            PracticeStep::LineForward => (shown.line_step + 1).min(len),
            _ => shown.line_step,
        };
    }

    /// The best line: the solver's where it solved the position (when it starts with the
    /// best move), else a search after the best move, as deep as the game analysis.
    pub(super) fn ask_best_line(&mut self) {
        let Some(position) = self.practice.card_position() else {
            return;
        };
        let Some(shown) = self.practice.round.as_mut().and_then(|r| r.shown.as_mut()) else {
            return;
        };
        let Some(best) = shown.judgement.map(|j| j.best) else {
            return;
        };
        if let Some(line) = &shown.proven_line
            && line.first() == Some(&Move::Play(best))
        {
            shown.best_line = Some(line.clone());
            return;
        }
        let mut after = position;
        if after.play(best).is_err() {
            return;
        }
        shown.best_line = Some(vec![Move::Play(best)]);
        if after.must_pass() {
            // The line goes on after the pass; the hint is asked of the position after it.
            after.force_pass();
            if let Some(line) = &mut shown.best_line {
                line.push(Move::Pass);
            }
        }
        if after.is_game_over() {
            return;
        }
        shown.line_asked = true;
        self.practice_engine(self.settings.solve_limit)
            .send(Request::Hint {
                position: after,
                level: Level::numbered(GAME_ANALYSIS_DEPTH),
                count: 1,
                book: false,
            });
        self.practice.asking = Asking::Line;
    }

    pub(super) fn next_card(&mut self) {
        if let Some(round) = &mut self.practice.round {
            round.at += 1;
        }
        self.show_card();
    }
}
