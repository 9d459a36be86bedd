//! The opening trainer's commands ([`okapi_core::practice::openings`]): the lesson
//! started, Okapi's book moves, the player's moves judged against the book's best (a miss
//! becomes a card of the practice file), the line's score in the games database at the
//! end.

use crate::app::App;
use crate::database_panel::Load;
use crate::engine_hub::EngineUse;
use crate::practice_state::{Asking, LINE_ON_BOARD};
use eframe::egui;
use okapi_core::board::{Move, Square};
use okapi_core::game::openings;
use okapi_core::practice::openings::Lesson;
use okapi_core::practice::{Judgement, Tolerance};
use okapi_engine::Event;

impl App {
    /// The lesson under way, if any.
    pub fn opening_lesson(&self) -> Option<&Lesson> {
        self.practice.openings.lesson.as_ref()
    }

    /// The lesson has ended: why, and what the line scored.
    pub fn opening_lesson_end(&self) -> Option<&str> {
        self.practice.openings.ended.as_deref()
    }

    /// Starts the lesson chosen: the opening's position (or the board's), the player's
    /// colour; Okapi moves first when it is its turn.
    pub(super) fn start_lesson(&mut self) {
        // "Again": the lesson before goes, with its values being asked for.
        self.end_lesson();
        self.load_practice();
        let player = self.practice.openings.choice.player;
        let lesson = match &self.practice.openings.choice.opening {
            Some(name) => Lesson::of_opening(name, player)
                .ok_or_else(|| format!("There is no opening named {name}.")),
            None => {
                let line: Vec<Square> = self
                    .game()
                    .moves()
                    .into_iter()
                    .filter_map(Move::square)
                    .collect();
                // The lesson starts where the line left the book: further on, the book
                // has nothing to judge by.
                let cut = Lesson::book_prefix(&line, okapi_core::book::shipped());
                if cut < line.len() {
                    self.notice = Some(format!(
                        "The line on the board leaves the book after move {cut}: the \
                         lesson starts there."
                    ));
                }
                Lesson::new(LINE_ON_BOARD, &line[..cut], player)
                    .map(|mut lesson| {
                        // Named after the opening it reached, where it reached one.
                        if let Some(name) = openings::shipped().name(&lesson.position) {
                            lesson.name = name.to_string();
                        }
                        lesson
                    })
                    .map_err(|e| format!("The line on the board cannot be a lesson: {e}"))
            }
        };
        let t = &mut self.practice.openings;
        t.verdict = None;
        t.ended = None;
        t.last = None;
        match lesson {
            Ok(lesson) => {
                t.last = lesson.moves.last().copied();
                t.lesson = Some(lesson);
                self.end_if_out_of_book();
            }
            Err(e) => self.notice = Some(e),
        }
    }

    /// Ends the lesson: the board shows the game again.
    pub(super) fn end_lesson(&mut self) {
        let t = &mut self.practice.openings;
        t.lesson = None;
        t.verdict = None;
        t.ended = None;
        t.last = None;
        t.score_waits = false;
        if self.practice.asking == Asking::LessonValues {
            if let Some(engine) = self.engines.get_mut(EngineUse::Practice) {
                engine.cancel();
            }
            self.practice.asking = Asking::Nothing;
        }
    }

    /// Okapi's turn: it plays one of the book's moves, drawn by their values.
    pub(super) fn lesson_book_move(&mut self) {
        let t = &mut self.practice.openings;
        let Some(mut lesson) = t.lesson.take() else {
            return;
        };
        if t.ended.is_none() && !lesson.players_turn() {
            let book = okapi_core::book::shipped();
            if let Some(sq) = lesson.okapi_move(book, t.choice.weighting, &mut || t.uniform())
                && lesson.play(sq).is_ok()
            {
                t.last = Some(sq);
            }
        }
        t.lesson = Some(lesson);
        self.end_if_out_of_book();
    }

    /// The player's move: judged against the book's best, a miss kept as a card (saved).
    pub(super) fn lesson_answer(&mut self, sq: Square) {
        let today = self.practice_today();
        let tolerance = self
            .practice
            .store
            .as_ref()
            .map_or_else(Tolerance::default, |s| s.tolerance);
        let t = &mut self.practice.openings;
        let Some(lesson) = &mut t.lesson else {
            return;
        };
        if t.ended.is_some() || !lesson.players_turn() {
            return;
        }
        if !lesson.position.is_legal(sq) {
            self.notice = Some(format!("{sq} is not a legal move here."));
            return;
        }
        let missed_before = lesson.missed.len();
        let book = okapi_core::book::shipped();
        let Some(judgement) = lesson.answer(book, sq, tolerance, today) else {
            return;
        };
        t.last = Some(sq);
        t.verdict = Some(verdict(&judgement));
        let cards = lesson.missed[missed_before..].to_vec();
        if !cards.is_empty()
            && let Some(store) = &mut self.practice.store
        {
            store.add(cards);
            self.save_practice();
        }
        self.end_if_out_of_book();
    }

    /// When the book knows no move in the lesson's position, the lesson ends with what
    /// the line scored in the games database.
    fn end_if_out_of_book(&mut self) {
        let t = &self.practice.openings;
        let Some(lesson) = &t.lesson else {
            return;
        };
        if t.ended.is_some() || !lesson.book_moves(okapi_core::book::shipped()).is_empty() {
            return;
        }
        let position = lesson.position;
        let waits = self.database.database().is_none();
        self.practice.openings.score_waits = waits;
        self.practice.openings.ended = Some(self.lesson_score());
        // The move values show the position on the board, as after a card is judged.
        self.ask_practice_values(position, Asking::LessonValues);
    }

    /// How the lesson ended and what the line scored in the games database (while it
    /// is read: that it is).
    fn lesson_score(&self) -> String {
        let Some(lesson) = &self.practice.openings.lesson else {
            return String::new();
        };
        let after = format!("Out of book after {} moves", lesson.moves.len());
        match (self.database.database(), self.database.load_error()) {
            (None, Some(e)) => format!("{after}: the games database could not be read ({e})."),
            (None, None) => format!("{after}: reading the games database for this line's score…"),
            (Some(db), _) => match lesson.line_score(db) {
                Some(score) => format!(
                    "{after}: this line scored {:.0}% for Black in the database's {} games \
                     (Black by {:+.1} discs on average).",
                    score.black_percent, score.games, score.black_average
                ),
                None => format!("{after}: no database games reach this line."),
            },
        }
    }

    /// A lesson waiting for the line's score reads the games database itself, off the
    /// frame as the Database tab does, and says the score once it is in.
    pub(super) fn poll_lesson_database(&mut self, ctx: &egui::Context) {
        if !self.practice.openings.score_waits {
            return;
        }
        self.database.poll();
        match self.database.load {
            Load::NotStarted => {
                let folders = self.settings.db_folders.clone();
                self.database.start_loading(folders, ctx);
            }
            Load::Loading(_) => {}
            Load::Ready(_) | Load::Failed(_) => {
                self.practice.openings.score_waits = false;
                if self.practice.openings.ended.is_some() {
                    self.practice.openings.ended = Some(self.lesson_score());
                }
            }
        }
        ctx.request_repaint_after(std::time::Duration::from_millis(100));
    }

    /// The values of the ended lesson's position: every view reads them.
    pub(super) fn lesson_event(&mut self, event: Event) {
        let Some(position) = self.practice.openings.lesson.as_ref().map(|l| l.position) else {
            return;
        };
        match event {
            Event::MoveValue { square, eval } => self.learn_value(position, square, eval),
            Event::Finished { .. } | Event::Stopped => self.practice.asking = Asking::Nothing,
            Event::Error { message } => {
                self.practice.asking = Asking::Nothing;
                self.practice.notice = Some(format!("The engine failed: {message}"));
            }
            _ => {}
        }
    }
}

/// "Right: d3 is within 1 disc of the book's best (c4, +2)." or
/// "Missed: the book's best is c4 (+2); e3 is worth -3."
fn verdict(j: &Judgement) -> String {
    if j.right && j.chosen == j.best {
        format!(
            "Right: {} is the book's best ({:+}).",
            j.chosen, j.best_eval.value
        )
    } else if j.right {
        format!(
            "Right: {} is within {} of the book's best ({}, {:+}).",
            j.chosen,
            discs(j.allowed),
            j.best,
            j.best_eval.value
        )
    } else {
        format!(
            "Missed: the book's best is {} ({:+}); {} is worth {:+}. It comes back to practise.",
            j.best, j.best_eval.value, j.chosen, j.chosen_eval.value
        )
    }
}

fn discs(n: i32) -> String {
    if n == 1 {
        "1 disc".into()
    } else {
        format!("{n} discs")
    }
}
