//! Game › Practise your mistakes (also the analysis panel's "Practise mistakes"): the
//! positions where a player lost discs, drilled one at a time on the board.
//!
//! Collecting: from the game on the board (its game analysis is reused; the player's
//! moves not analysed yet are analysed now, and the move list shows them too), from a
//! folder of the player's games, or from the games database's games of a named player.
//! Each game is analysed on an engine of the window's own (the board's engine is left to
//! the board), and the player's moves that lost at least N discs become cards in the
//! practice file of the data folder, saved after every game ([`okapi_core::practice`]).
//!
//! Practising: the cards due today, one at a time on the board, values hidden. Meanwhile
//! the engine values every move of the position, proven by the solver where it takes
//! about a second ([`practice::SOLVER_EMPTIES`]) and searched as the game analysis does
//! elsewhere; the move clicked is judged against those values, then the board shows every
//! move's value, the loss is said and the best line is there on request. A miss comes
//! back the next day, a right answer further out (1, 3, 7, 14... days).

use crate::app::App;
use crate::command::Command;
use crate::command::PracticeStep;
use crate::engine_hub::EngineUse;
use eframe::egui;
use okapi_core::board::{Move, Position};
use okapi_core::practice::{self, Day, Store};
use okapi_engine::{Engine, Reply};
use std::path::PathBuf;
use std::sync::mpsc::{TryRecvError, channel};

/// A practice file up to this size is read in the frame (a few milliseconds); a larger
/// one on a thread of its own: 100,000 cards took seconds.
const READ_AT_ONCE: u64 = 1 << 20;

mod card_text;
mod collect;
mod openings;
mod round;
mod stats;

use crate::practice_state::{Asking, Collecting, Figures, Pending, Round, Shown, Source, Tab};

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
        self.practice.collecting.is_some()
            || self.practice.finding.is_some()
            || self.practice.waiting_for_database
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

    fn practice_today(&self) -> Day {
        self.practice.day.unwrap_or_else(Day::today)
    }

    pub(crate) fn apply_practice(&mut self, command: Command) {
        match command {
            Command::ShowPractice => {
                self.practice.open = true;
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
                        self.practice.folder = dir.display().to_string();
                    }
                }
                PracticeStep::Collect => self.start_collecting(),
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
                PracticeStep::StartLesson => self.start_lesson(),
                PracticeStep::LessonBookMove => self.lesson_book_move(),
                PracticeStep::EndLesson => self.end_lesson(),
            },
            other => unreachable!("not a practice command: {other:?}"),
        }
    }

    /// Reads the practice file the first time it is needed: a small one at once, a large
    /// one on a thread of its own while the window draws ("Reading your positions…").
    fn load_practice(&mut self) {
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
    fn save_practice(&mut self) {
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

    /// The window's engine, started on first use with the board's settings.
    fn practice_engine(&mut self, solve_limit: u32) -> &mut Engine {
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
    }

    pub(crate) fn practice_window(&mut self, ctx: &egui::Context) {
        if !self.practice.open {
            return;
        }
        // Right of the board, over the side panel: the board stays whole for the answer.
        let right = ctx.content_rect().right();
        let left = self
            .view
            .board_area
            .map_or(right - 350.0, |board| board.right() + 4.0);
        let width = (right - left - 24.0).clamp(240.0, 330.0);
        let mut open = true;
        egui::Window::new("Practise your mistakes")
            .open(&mut open)
            .default_pos([left, 60.0])
            .default_width(width)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(ctx.content_rect().height() - 130.0)
                    .show(ui, |ui| {
                        // Long names and lines wrap: the window keeps its width.
                        ui.set_max_width(width);
                        self.practice_contents(ui)
                    });
            });
        if self.practice.collecting.is_some()
            || self.practice.finding.is_some()
            || self.practice.loading.is_some()
            || self.practice.asking != Asking::Nothing
        {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
        if !open {
            self.commands.push(Command::ClosePractice);
        }
    }

    /// Closing the window ends the round and any collection; the board shows the game.
    fn close_practice(&mut self) {
        self.practice.open = false;
        self.practice.collecting = None;
        self.practice.finding = None;
        self.practice.waiting_for_database = false;
        self.end_round();
        self.end_lesson();
        // Its engine goes with its table.
        self.engines.close(EngineUse::Practice);
        self.board_takes_its_new_share();
    }

    fn practice_contents(&mut self, ui: &mut egui::Ui) {
        if let Some(notice) = &self.practice.notice {
            ui.colored_label(ui.visuals().warn_fg_color, notice);
            if ui.small_button("OK").clicked() {
                self.practice.notice = None;
            }
            ui.separator();
        }
        if self.practice.loading.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Reading your practice positions…");
            });
            return;
        }
        if self.practice.round.is_some() {
            self.round_ui(ui);
            return;
        }
        // The window's two parts, as tabs over what they show (none while a lesson runs).
        if self.practice.openings.lesson.is_none() {
            ui.horizontal(|ui| {
                let tab = &mut self.practice.tab;
                ui.selectable_value(tab, Tab::Mistakes, "Your mistakes");
                ui.selectable_value(tab, Tab::Openings, "Openings");
            });
            ui.separator();
        }
        if self.practice.tab == Tab::Openings || self.practice.openings.lesson.is_some() {
            self.openings_ui(ui);
        } else {
            // Collecting before the statistics: the window's one action when it has no
            // positions yet stays in sight without scrolling.
            self.practice_overview(ui);
            ui.separator();
            self.collect_form(ui);
            ui.separator();
            self.practice_stats(ui);
        }
    }

    /// How many cards there are, how many are due, and the button to start.
    fn practice_overview(&mut self, ui: &mut egui::Ui) {
        let today = self.practice_today();
        let Some(f) = self.practice_figures(today) else {
            return;
        };
        let (due, round, next_due, cards) = (f.due, f.round, f.next_due, f.stats.cards);
        let missed = round - due;
        ui.strong(format!(
            "{} to practise, {} due today{}",
            plural(cards, "position"),
            due,
            if missed > 0 {
                format!(", {missed} missed today to try again")
            } else {
                String::new()
            }
        ));
        if let Some((day, count)) = next_due {
            ui.label(format!(
                "Next: {} on {day} ({})",
                plural(count, "position"),
                days_from_now(today.until(day))
            ));
        }
        let can = round > 0 && !self.practice_collecting();
        if ui
            .add_enabled(can, egui::Button::new(format!("Start practice ({round})")))
            .on_hover_text(
                "The positions due today and those missed today, one at a time on the \
                 board: click the move you would play",
            )
            .clicked()
        {
            self.commands.push(Command::Practice(PracticeStep::Start));
        }
    }

    /// What is due and the statistics of `today`, counted again only when the store or
    /// the day changed.
    fn practice_figures(&mut self, today: Day) -> Option<&Figures> {
        let store = self.practice.store.as_ref()?;
        if self
            .practice
            .figures
            .as_ref()
            .is_none_or(|f| f.day != today)
        {
            self.practice.figures = Some(Figures::of(store, today));
        }
        self.practice.figures.as_ref()
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

/// A game's player name, or the colour when the game names none.
fn name_or(name: &str, colour: &str) -> String {
    if name.trim().is_empty() {
        colour.to_string()
    } else {
        name.trim().to_string()
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `tomorrow`, `in 3 days`, `today`.
fn days_from_now(days: i64) -> String {
    match days {
        i64::MIN..=0 => "today".into(),
        1 => "tomorrow".into(),
        n => format!("in {n} days"),
    }
}
