//! The practice window's commands (Game › Practise your mistakes): the practice file read
//! and saved, the window's engine, what its background work reports; the round, the
//! collection and the lessons in `practice_round.rs`, `practice_collect.rs` and
//! `practice_lesson.rs`. The window draws from [`Practice`](crate::practice_state::Practice)
//! (`windows/practice/`).

use crate::app::App;
use crate::command::{Command, PracticeStep};
use crate::engine_hub::EngineUse;
use crate::practice_state::{Asking, Shown};
use crate::windows;
use eframe::egui;
use okapi_core::board::{Move, Position};
use okapi_core::practice::{self, Day, Store};
use okapi_core::search::SolveMode;
use okapi_engine::{Engine, GAME_ANALYSIS_DEPTH, Reply, Request};
use std::path::PathBuf;
use std::sync::mpsc::{TryRecvError, channel};

/// A practice file up to this size is read in the frame (a few milliseconds); a larger
/// one on a thread of its own: 100,000 cards took seconds.
const READ_AT_ONCE: u64 = 1 << 20;

impl App {
    /// Where the practice file is kept (`None`: nowhere; progress lasts this run only).
    /// Read again the next time the window opens.
    pub fn keep_practice_at(&mut self, path: Option<PathBuf>) {
        self.practice.file = path;
        self.practice.store = None;
        self.practice.loading = None;
        self.practice.figures = None;
    }

    /// The day the practice takes as today (the clock's by default; tests move it on).
    pub fn set_practice_day(&mut self, day: Day) {
        self.practice.day = Some(day);
    }

    /// The practice cards, once the window has read them.
    pub fn practice_store(&self) -> Option<&Store> {
        self.practice.store.as_ref()
    }

    /// Is a collection or a reading of games under way?
    pub fn practice_collecting(&self) -> bool {
        self.practice.collecting_anything()
    }

    /// The answer to the card on the board has been judged.
    pub fn practice_judged(&self) -> bool {
        self.shown().is_some_and(|s| s.judgement.is_some())
    }

    /// The card on the board: its position and whether the engine has valued every move.
    pub fn practice_position(&self) -> Option<(Position, bool)> {
        let s = self.shown()?;
        let card = self.practice.store.as_ref()?.cards.get(s.card)?;
        Some((card.position, s.valued))
    }

    /// The position the board shows while practising: the card's, or one of its best line
    /// being stepped through.
    pub fn practice_board(&self) -> Option<Position> {
        self.practice.board().map(|b| b.0)
    }

    /// The best line shown, if any.
    pub fn practice_best_line(&self) -> Option<&[Move]> {
        self.shown()?.best_line.as_deref()
    }

    fn shown(&self) -> Option<&Shown> {
        self.practice.shown()
    }

    pub(super) fn practice_today(&self) -> Day {
        self.practice.today()
    }

    pub(crate) fn apply_practice(&mut self, command: Command) {
        match command {
            Command::ShowPractice => {
                self.open_window(windows::PRACTICE);
                self.load_practice();
            }
            Command::ClosePractice => self.close_practice(),
            Command::PracticeAnswer(sq) if self.practice.openings.lesson.is_some() => {
                self.lesson_answer(sq)
            }
            Command::PracticeAnswer(sq) => self.practice_answer(sq),
            Command::Practice(step) => match step {
                PracticeStep::ChooseFolder => {
                    if let Some(dir) = self.dialogs.pick_folder() {
                        self.parts.windows.practice.folder_chosen(&dir);
                    }
                }
                PracticeStep::Collect(from) => {
                    self.practice.asked = from;
                    self.start_collecting();
                }
                PracticeStep::StopCollecting => self.stop_collecting("Stopped."),
                PracticeStep::Start => self.start_round(),
                PracticeStep::BestLine => self.ask_best_line(),
                PracticeStep::NextCard => self.next_card(),
                PracticeStep::End => self.end_round(),
                PracticeStep::SetTolerance(t) => {
                    if let Some(store) = &mut self.practice.store {
                        store.tolerance = t.clamped();
                        self.save_practice();
                    }
                }
                s @ (PracticeStep::LineFirst
                | PracticeStep::LineBack
                | PracticeStep::LineForward) => self.step_line(s),
                PracticeStep::DismissNotice => self.practice.notice = None,
                PracticeStep::StartLesson(choice) => {
                    self.practice.openings.choice = choice;
                    self.start_lesson();
                }
                PracticeStep::LessonBookMove => self.lesson_book_move(),
                PracticeStep::EndLesson => self.end_lesson(),
            },
            other => unreachable!("not a practice command: {other:?}"),
        }
    }

    /// Reads the practice file the first time it is needed: a small one at once, a large
    /// one on a thread of its own while the window draws ("Reading your positions…").
    pub(super) fn load_practice(&mut self) {
        if self.practice.store.is_some() || self.practice.loading.is_some() {
            return;
        }
        let Some(path) = self.practice.file.clone() else {
            self.practice_loaded(practice::Opened {
                store: Store::default(),
                notice: Some(
                    "There is no data folder here: your practice lasts until Okapi closes.".into(),
                ),
                writable: false,
                stamp: practice::FileStamp::default(),
            });
            return;
        };
        // A FIFO or a device is not read at all (`Store::open` says so at once).
        let large = std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() > READ_AT_ONCE);
        if !large {
            self.practice_loaded(crate::platform::open_practice(&path));
            return;
        }
        let (tx, rx) = channel();
        let notify = self.engines.waker();
        let spawned = crate::platform::spawn_task("okapi-practice-file", move || {
            let _ = tx.send(crate::platform::open_practice(&path));
            notify();
        });
        match spawned {
            Ok(()) => self.practice.loading = Some(rx),
            Err(e) => self.practice_loaded(practice::Opened {
                store: Store::default(),
                notice: Some(format!(
                    "Your practice file could not be read ({e}); practice lasts until Okapi \
                     closes."
                )),
                writable: false,
                stamp: practice::FileStamp::default(),
            }),
        }
    }

    /// Takes the practice file once its thread has read it.
    fn poll_practice_loading(&mut self) {
        let Some(rx) = &self.practice.loading else {
            return;
        };
        let opened = match rx.try_recv() {
            Ok(opened) => opened,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => practice::Opened {
                store: Store::default(),
                notice: Some(
                    "Your practice file could not be read (the reading stopped); practice \
                     lasts until Okapi closes."
                        .into(),
                ),
                writable: false,
                stamp: practice::FileStamp::default(),
            },
        };
        self.practice.loading = None;
        self.practice_loaded(opened);
    }

    fn practice_loaded(&mut self, opened: practice::Opened) {
        self.practice.store = Some(opened.store);
        self.practice.figures = None;
        self.practice.writable = opened.writable;
        self.practice.stamp = opened.stamp;
        self.practice.notice = opened.notice;
    }

    /// Writes the cards to the practice file, with what another window saved there since
    /// (its answers are kept, not written over); a failure is said, and practice goes on.
    pub(super) fn save_practice(&mut self) {
        let p = &mut self.practice;
        // The store changed: its figures are counted again.
        p.figures = None;
        let (Some(path), Some(store)) = (&p.file, &mut p.store) else {
            return;
        };
        if !p.writable {
            return;
        }
        if let Err(e) = crate::platform::save_practice(store, path, &mut p.stamp) {
            p.notice = Some(format!(
                "Your practice could not be saved to {} ({e}); it goes on for this run.",
                path.display()
            ));
        }
    }

    /// Asks the window's engine for the values of `position`'s moves, as the game
    /// analysis values them (exact within the solver's reach); `asking` says whose.
    pub(super) fn ask_practice_values(&mut self, position: Position, asking: Asking) {
        let limit = self.settings.solve_limit.max(practice::SOLVER_EMPTIES);
        self.practice_engine(limit).send(Request::Analyse {
            position,
            mode: SolveMode::Exact,
            max_depth: Some(GAME_ANALYSIS_DEPTH),
        });
        self.practice.asking = asking;
    }

    /// The window's engine, started on first use with the board's settings.
    pub(super) fn practice_engine(&mut self, solve_limit: u32) -> &mut Engine {
        if self.engines.get(EngineUse::Practice).is_none() {
            self.engines
                .open_practice(self.settings.engine_configuration(), solve_limit);
            self.board_takes_its_new_share();
        }
        self.engines
            .open_practice(self.settings.engine_configuration(), solve_limit)
    }

    /// Takes in what the practice's background work reports: the store read, games
    /// collected, the engine's values, the lesson's database. At the start of the frame,
    /// with the board's engine, so that everything drawn shows the same values.
    pub(crate) fn poll_practice(&mut self, ctx: &egui::Context) {
        self.poll_practice_loading();
        self.poll_practice_finding();
        self.poll_practice_engine();
        self.poll_lesson_database(ctx);
        self.practice.count_figures();
    }

    /// Closing the window ends the round and any collection; the board shows the game.
    fn close_practice(&mut self) {
        self.parts.windows.close(windows::PRACTICE);
        self.practice.collecting = None;
        self.practice.finding = None;
        self.practice.waiting_for_database = false;
        self.end_round();
        self.end_lesson();
        // Its engine goes with its table.
        self.engines.close(EngineUse::Practice);
        self.board_takes_its_new_share();
    }

    /// Takes in the window's engine events.
    fn poll_practice_engine(&mut self) {
        loop {
            let Some(Reply { event, .. }) = self
                .engines
                .get(EngineUse::Practice)
                .and_then(|e| e.try_recv())
            else {
                return;
            };
            match self.practice.asking {
                Asking::Games => self.collect_event(event),
                Asking::Values | Asking::Line => self.round_event(event),
                Asking::LessonValues => self.lesson_event(event),
                Asking::Nothing => {}
            }
        }
    }
}
