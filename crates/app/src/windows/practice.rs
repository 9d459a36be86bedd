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

use crate::engine_events::PlyAnalysis;
use crate::side_panel::SideTab;
use crate::{App, Command, wake};
use eframe::egui;
use okapi_core::board::{Color, Move, Position, Square};
use okapi_core::game::{Eval, numbered_line};
use okapi_core::practice::{self, AnalysedMove, Day, Judgement, PlayerGame, Store};
use okapi_core::search::SolveMode;
use okapi_core::search::level::Level;
use okapi_engine::{Engine, Event, GAME_ANALYSIS_DEPTH, Reply, Request};
use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// Where the mistakes are collected from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Source {
    #[default]
    ThisGame,
    Folder,
    Database,
}

/// What the window's engine is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Asking {
    #[default]
    Nothing,
    /// The game analysis of a game being collected.
    Games,
    /// The values of every move of the position shown.
    Values,
    /// The best line after the best move.
    Line,
}

/// The practice window's state.
pub(crate) struct Practice {
    open: bool,
    /// Where the cards are kept (none: only for this run).
    file: Option<PathBuf>,
    /// The cards, read from the file the first time the window opens.
    store: Option<Store>,
    /// False when the file could not be read or set aside: it is not written over.
    writable: bool,
    /// What the person must know: a damaged file set aside, a save that failed.
    notice: Option<String>,
    /// The day taken as today (`None`: the clock's).
    day: Option<Day>,
    source: Source,
    /// This game's side to collect.
    side: Color,
    /// The player, for a folder or the database.
    name: String,
    folder: String,
    min_loss: i32,
    engine: Option<Engine>,
    asking: Asking,
    /// Reading a folder or searching the database, on a thread of its own.
    finding: Option<Receiver<Result<practice::FolderGames, String>>>,
    /// Collecting from the database once it is loaded.
    waiting_for_database: bool,
    collecting: Option<Collecting>,
    /// What the last collection found.
    summary: Option<String>,
    round: Option<Round>,
}

impl Default for Practice {
    fn default() -> Self {
        Practice {
            open: false,
            file: None,
            store: None,
            writable: true,
            notice: None,
            day: None,
            source: Source::default(),
            side: Color::Black,
            name: String::new(),
            folder: String::new(),
            min_loss: practice::DEFAULT_MIN_LOSS,
            engine: None,
            asking: Asking::Nothing,
            finding: None,
            waiting_for_database: false,
            collecting: None,
            summary: None,
            round: None,
        }
    }
}

/// A game to collect from: the player's moves, those already analysed and the others.
struct Pending {
    /// Marks the game as collected (none for the game on the board, which may go on).
    key: Option<String>,
    side: Color,
    player: String,
    label: String,
    /// The player's moves: ply, position before, move.
    plies: Vec<(usize, Position, Square)>,
    /// The moves valued so far (the board's game analysis, then the engine's).
    analysed: Vec<AnalysedMove>,
    /// From the game on the board: what the engine finds goes to its analysis too.
    on_board: bool,
}

/// A collection under way.
struct Collecting {
    queue: VecDeque<Pending>,
    current: Option<Pending>,
    total: usize,
    done: usize,
    new: usize,
    known: usize,
    /// Games already collected before, not analysed again.
    skipped: usize,
    problems: Vec<String>,
    /// Said before the games: how many were read, files that could not be.
    preface: String,
}

/// A round of practice: the cards due, in order.
struct Round {
    queue: Vec<usize>,
    at: usize,
    right: usize,
    missed: usize,
    shown: Option<Shown>,
}

/// The card on the board.
struct Shown {
    card: usize,
    /// Every legal move's value, the strongest source kept.
    values: HashMap<Square, Eval>,
    /// Every value is in (the engine's analysis finished).
    valued: bool,
    /// The solver's proven line, where it solved the position.
    proven_line: Option<Vec<Move>>,
    answer: Option<Square>,
    judgement: Option<Judgement>,
    /// Days until the card comes back.
    next_in: Option<u32>,
    best_line: Option<Vec<Move>>,
    /// The best line was asked for and is on its way.
    line_asked: bool,
}

impl Practice {
    fn shown(&self) -> Option<&Shown> {
        self.round.as_ref()?.shown.as_ref()
    }

    /// What the board shows while practising: the card's position, the move answered and
    /// (once judged) every move's value.
    pub(crate) fn board(&self) -> Option<(Position, Option<Square>, &HashMap<Square, Eval>)> {
        let s = self.shown()?;
        let card = self.store.as_ref()?.cards.get(s.card)?;
        let values = if s.judgement.is_some() {
            &s.values
        } else {
            &*NO_VALUES
        };
        Some((card.position, s.answer, values))
    }
}

/// No values: the board before the answer.
static NO_VALUES: std::sync::LazyLock<HashMap<Square, Eval>> =
    std::sync::LazyLock::new(HashMap::new);

impl App {
    /// Where the practice file is kept (`None`: nowhere; progress lasts this run only).
    /// Read again the next time the window opens.
    pub fn keep_practice_at(&mut self, path: Option<PathBuf>) {
        self.practice.file = path;
        self.practice.store = None;
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
            Command::PracticeAnswer(sq) => self.practice_answer(sq),
            other => unreachable!("not a practice command: {other:?}"),
        }
    }

    /// Reads the practice file the first time it is needed.
    fn load_practice(&mut self) {
        if self.practice.store.is_some() {
            return;
        }
        let opened = match &self.practice.file {
            Some(path) => Store::open(path),
            None => practice::Opened {
                store: Store::default(),
                notice: Some(
                    "There is no data folder here: your practice lasts until Okapi closes.".into(),
                ),
                writable: false,
            },
        };
        self.practice.store = Some(opened.store);
        self.practice.writable = opened.writable;
        self.practice.notice = opened.notice;
    }

    /// Writes the cards to the practice file; a failure is said, and practice goes on.
    fn save_practice(&mut self) {
        let p = &mut self.practice;
        let (Some(path), Some(store)) = (&p.file, &p.store) else {
            return;
        };
        if !p.writable {
            return;
        }
        if let Err(e) = store.save(path) {
            p.notice = Some(format!(
                "Your practice could not be saved to {} ({e}); it goes on for this run.",
                path.display()
            ));
        }
    }

    /// The window's engine, started on first use with the board's settings.
    fn practice_engine(&mut self, solve_limit: u32) -> &mut Engine {
        let mut configuration = self.settings.engine_configuration();
        configuration.solve_limit = solve_limit;
        let notify = wake(&self.notify);
        let engine = self
            .practice
            .engine
            .get_or_insert_with(|| Engine::spawn(notify));
        engine.configure(configuration);
        engine
    }

    pub(super) fn practice_window(&mut self, ctx: &egui::Context) {
        self.poll_practice_finding();
        self.poll_practice_engine();
        if !self.practice.open {
            return;
        }
        let mut open = true;
        egui::Window::new("Practise your mistakes")
            .open(&mut open)
            .default_pos([ctx.content_rect().right() - 380.0, 60.0])
            .default_width(340.0)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(ctx.content_rect().height() - 130.0)
                    .show(ui, |ui| self.practice_contents(ui));
            });
        if self.practice.collecting.is_some()
            || self.practice.finding.is_some()
            || self.practice.asking != Asking::Nothing
        {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
        if !open {
            self.close_practice();
        }
    }

    /// Closing the window ends the round and any collection; the board shows the game.
    fn close_practice(&mut self) {
        self.practice.open = false;
        self.practice.collecting = None;
        self.practice.finding = None;
        self.practice.waiting_for_database = false;
        self.end_round();
    }

    fn practice_contents(&mut self, ui: &mut egui::Ui) {
        if let Some(notice) = &self.practice.notice {
            ui.colored_label(ui.visuals().warn_fg_color, notice);
            if ui.small_button("OK").clicked() {
                self.practice.notice = None;
            }
            ui.separator();
        }
        if self.practice.round.is_some() {
            self.round_ui(ui);
            return;
        }
        self.practice_overview(ui);
        ui.separator();
        self.collect_form(ui);
    }

    /// How many cards there are, how many are due, and the button to start.
    fn practice_overview(&mut self, ui: &mut egui::Ui) {
        let today = self.practice_today();
        let Some(store) = &self.practice.store else {
            return;
        };
        let due = store.due(today).len();
        ui.strong(format!(
            "{} to practise, {} due today",
            plural(store.cards.len(), "position"),
            due
        ));
        if let Some((day, count)) = store.next_due(today) {
            ui.label(format!(
                "Next: {} on {day} ({})",
                plural(count, "position"),
                days_from_now(today.until(day))
            ));
        }
        let can = due > 0 && !self.practice_collecting();
        if ui
            .add_enabled(can, egui::Button::new(format!("Start practice ({due})")))
            .on_hover_text(
                "The positions due today, one at a time on the board: click the move you \
                 would play",
            )
            .clicked()
        {
            self.start_round();
        }
    }

    /// Where to collect mistakes from, whose, how large, and the progress.
    fn collect_form(&mut self, ui: &mut egui::Ui) {
        ui.strong("Collect the positions where a player lost discs");
        let busy = self.practice_collecting();
        ui.add_enabled_ui(!busy, |ui| {
            ui.horizontal_wrapped(|ui| {
                let p = &mut self.practice;
                ui.radio_value(&mut p.source, Source::ThisGame, "This game");
                ui.radio_value(&mut p.source, Source::Folder, "A folder of games");
                ui.radio_value(&mut p.source, Source::Database, "The games database");
            });
            match self.practice.source {
                Source::ThisGame => {
                    let game = self.session.game();
                    let names = [
                        (Color::Black, name_or(&game.black, "Black")),
                        (Color::White, name_or(&game.white, "White")),
                    ];
                    ui.horizontal(|ui| {
                        ui.label("Player:");
                        for (side, name) in names {
                            let text = format!("{} ({name})", side.name());
                            ui.radio_value(&mut self.practice.side, side, text);
                        }
                    });
                }
                Source::Folder => {
                    ui.horizontal(|ui| {
                        let label = ui.label("Folder:");
                        ui.add(
                            egui::TextEdit::singleline(&mut self.practice.folder)
                                .desired_width(200.0),
                        )
                        .labelled_by(label.id);
                        if ui.button("Choose…").clicked()
                            && let Some(dir) = self.dialogs.pick_folder()
                        {
                            self.practice.folder = dir.display().to_string();
                        }
                    });
                    self.player_field(ui);
                    ui.label(
                        egui::RichText::new(
                            "GGF, transcripts, Okapi JSON, WTHOR and PGN files, subfolders too",
                        )
                        .small()
                        .weak(),
                    );
                }
                Source::Database => self.player_field(ui),
            }
            ui.horizontal(|ui| {
                let label = ui.label("Lost at least");
                ui.add(egui::DragValue::new(&mut self.practice.min_loss).range(1..=64))
                    .labelled_by(label.id);
                ui.label("discs");
            });
        });
        ui.horizontal(|ui| {
            let ready = match self.practice.source {
                Source::ThisGame => !self.session.game().is_empty(),
                Source::Folder => {
                    !self.practice.folder.trim().is_empty() && !self.practice.name.trim().is_empty()
                }
                Source::Database => !self.practice.name.trim().is_empty(),
            };
            if ui
                .add_enabled(ready && !busy, egui::Button::new("Collect"))
                .clicked()
            {
                self.start_collecting();
            }
            if busy && ui.button("Stop").clicked() {
                self.stop_collecting("Stopped.");
            }
        });
        self.collect_progress(ui);
    }

    fn player_field(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Player:");
            ui.add(
                egui::TextEdit::singleline(&mut self.practice.name)
                    .hint_text("part of the name")
                    .desired_width(200.0),
            )
            .labelled_by(label.id);
        });
    }

    fn collect_progress(&mut self, ui: &mut egui::Ui) {
        if self.practice.waiting_for_database {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Loading the games database…");
            });
        } else if self.practice.finding.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Reading the games…");
            });
        } else if let Some(c) = &self.practice.collecting {
            let what = c
                .current
                .as_ref()
                .map_or(String::new(), |g| format!(": {}", g.label));
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!(
                    "Analysing game {} of {}{what}",
                    (c.done + 1).min(c.total),
                    c.total
                ));
            });
            ui.label(format!("{} found so far", plural(c.new, "new position")));
        }
        if let Some(summary) = &self.practice.summary {
            ui.add(egui::Label::new(summary.as_str()).wrap());
        }
    }

    /// Starts collecting from the chosen source.
    fn start_collecting(&mut self) {
        self.load_practice();
        self.practice.summary = None;
        match self.practice.source {
            Source::ThisGame => {
                let pending = self.this_game_pending(self.practice.side);
                self.begin_collecting(vec![pending], String::new());
            }
            Source::Folder => {
                let dir = PathBuf::from(self.practice.folder.trim());
                let name = self.practice.name.trim().to_string();
                self.find_games(move || {
                    practice::folder_games(&dir, &name).map_err(|e| {
                        format!("The games of {} could not be read: {e}", dir.display())
                    })
                });
            }
            Source::Database => match self.database.database().cloned() {
                Some(db) => {
                    let name = self.practice.name.trim().to_string();
                    self.find_games(move || {
                        Ok(practice::FolderGames {
                            games: practice::games_of_player(&db, &name),
                            read: db.len(),
                            bad_files: Vec::new(),
                        })
                    });
                }
                None => {
                    // The Database tab loads it (in the background) the first time it shows.
                    self.practice.waiting_for_database = true;
                    self.view.side_tab = SideTab::Database;
                }
            },
        }
    }

    /// Runs `find` on a thread of its own (a folder of many files, a search of the whole
    /// database: never in a frame).
    fn find_games(
        &mut self,
        find: impl FnOnce() -> Result<practice::FolderGames, String> + Send + 'static,
    ) {
        let (tx, rx) = channel();
        let notify = wake(&self.notify);
        let spawned = std::thread::Builder::new()
            .name("okapi-practice-games".into())
            .spawn(move || {
                let _ = tx.send(find());
                notify();
            });
        match spawned {
            Ok(_) => self.practice.finding = Some(rx),
            Err(e) => self.practice.summary = Some(format!("Cannot read the games: {e}")),
        }
    }

    /// Takes the games found, and starts collecting once the database is loaded.
    fn poll_practice_finding(&mut self) {
        if self.practice.waiting_for_database {
            if let Some(e) = self.database.load_error() {
                self.practice.summary = Some(format!("The games database could not be read: {e}"));
                self.practice.waiting_for_database = false;
            } else if self.database.database().is_some() {
                self.practice.waiting_for_database = false;
                self.start_collecting();
            }
        }
        let Some(rx) = &self.practice.finding else {
            return;
        };
        let found = match rx.try_recv() {
            Ok(found) => found,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err("the reading stopped without an answer".into()),
        };
        self.practice.finding = None;
        let found = match found {
            Ok(found) => found,
            Err(e) => {
                self.practice.summary = Some(e);
                return;
            }
        };
        let name = self.practice.name.trim().to_string();
        let mut preface = format!(
            "{} read, {} by \"{name}\"",
            plural(found.read, "game"),
            found.games.len()
        );
        if !found.bad_files.is_empty() {
            preface += &format!(
                "; {} could not be read ({})",
                plural(found.bad_files.len(), "file"),
                found.bad_files.join("; ")
            );
        }
        let store = self.practice.store.as_ref();
        let mut skipped = 0;
        let pending: Vec<Pending> = found
            .games
            .into_iter()
            .filter(|g| {
                let seen = store.is_some_and(|s| s.has_game(&g.key()));
                skipped += usize::from(seen);
                !seen
            })
            .map(pending_of)
            .collect();
        self.begin_collecting(pending, preface);
        if let Some(c) = &mut self.practice.collecting {
            c.skipped = skipped;
        } else if let Some(summary) = &mut self.practice.summary {
            *summary += &format!(" ({skipped} collected before)");
        }
    }

    /// The game on the board, for `side`: the moves its game analysis has valued are
    /// taken as they are, the others are left for the engine.
    fn this_game_pending(&self, side: Color) -> Pending {
        let game = self.session.game();
        let mut plies = Vec::new();
        let mut analysed = Vec::new();
        for i in 0..game.len() {
            let Some(Move::Play(sq)) = game.move_at(i) else {
                continue;
            };
            let position = game.position_at(i);
            if position.side_to_move() != side {
                continue;
            }
            plies.push((i, position, sq));
            if let Some(a) = self.analysis_of(i) {
                analysed.push(AnalysedMove {
                    ply: i,
                    position,
                    played: sq,
                    played_eval: a.played,
                    best: a.best_move,
                    best_eval: a.best,
                });
            }
        }
        let (black, white) = (name_or(&game.black, "Black"), name_or(&game.white, "White"));
        let mut label = format!("{black} - {white}");
        if !game.date.is_empty() {
            label += &format!(", {}", game.date);
        }
        Pending {
            key: None,
            side,
            player: if side == Color::Black { black } else { white },
            label,
            plies,
            analysed,
            on_board: true,
        }
    }

    fn begin_collecting(&mut self, games: Vec<Pending>, preface: String) {
        if games.is_empty() {
            let none = if preface.is_empty() {
                "No game to collect from.".to_string()
            } else {
                format!("{preface}: no game to collect from.")
            };
            self.practice.summary = Some(none);
            return;
        }
        self.practice.collecting = Some(Collecting {
            total: games.len(),
            queue: games.into(),
            current: None,
            done: 0,
            new: 0,
            known: 0,
            skipped: 0,
            problems: Vec::new(),
            preface,
        });
        self.next_game();
    }

    /// Sends the next game's moves not yet valued to the engine; a game with none left
    /// is collected at once.
    fn next_game(&mut self) {
        loop {
            let Some(c) = &mut self.practice.collecting else {
                return;
            };
            let Some(game) = c.queue.pop_front() else {
                self.finish_collecting();
                return;
            };
            let missing: Vec<(usize, Position, Square)> = game
                .plies
                .iter()
                .filter(|(ply, ..)| !game.analysed.iter().any(|a| a.ply == *ply))
                .copied()
                .collect();
            c.current = Some(game);
            if missing.is_empty() {
                self.finish_game();
                continue;
            }
            let solve_limit = self.settings.solve_limit;
            self.practice_engine(solve_limit)
                .send(Request::AnalyseGame { plies: missing });
            self.practice.asking = Asking::Games;
            return;
        }
    }

    /// The game analysed: its cards go into the store, which is saved.
    fn finish_game(&mut self) {
        let today = self.practice_today();
        let min_loss = self.practice.min_loss;
        let Some(c) = &mut self.practice.collecting else {
            return;
        };
        let Some(game) = c.current.take() else {
            return;
        };
        c.done += 1;
        let cards = practice::collect(
            &game.analysed,
            game.side,
            min_loss,
            &game.player,
            &game.label,
            today,
        );
        let store = self.practice.store.get_or_insert_with(Store::default);
        let added = store.add(cards);
        if let Some(key) = game.key {
            store.mark_game(key);
        }
        c.new += added.new;
        c.known += added.known;
        self.save_practice();
    }

    fn finish_collecting(&mut self) {
        let Some(c) = self.practice.collecting.take() else {
            return;
        };
        self.practice.asking = Asking::Nothing;
        let mut text = String::new();
        if !c.preface.is_empty() {
            text += &format!("{}. ", c.preface);
        }
        text += &format!(
            "{} analysed: {} lost at least {}",
            plural(c.done, "game"),
            plural(c.new + c.known, "move"),
            plural(self.practice.min_loss as usize, "disc"),
        );
        text += &format!(" ({} new, {} already practised).", c.new, c.known);
        if c.skipped > 0 {
            text += &format!(
                " {} collected before were not analysed again.",
                plural(c.skipped, "game")
            );
        }
        if !c.problems.is_empty() {
            text += &format!(" Not analysed: {}.", c.problems.join("; "));
        }
        self.practice.summary = Some(text);
    }

    fn stop_collecting(&mut self, why: &str) {
        if let Some(engine) = &mut self.practice.engine {
            engine.cancel();
        }
        self.practice.asking = Asking::Nothing;
        self.practice.finding = None;
        self.practice.waiting_for_database = false;
        if let Some(c) = &mut self.practice.collecting {
            c.current = None;
            c.queue.clear();
            c.problems.push(why.trim_end_matches('.').to_lowercase());
        }
        self.finish_collecting();
    }

    /// Takes in the window's engine events.
    fn poll_practice_engine(&mut self) {
        loop {
            let Some(Reply { event, .. }) =
                self.practice.engine.as_ref().and_then(|e| e.try_recv())
            else {
                return;
            };
            match self.practice.asking {
                Asking::Games => self.collect_event(event),
                Asking::Values | Asking::Line => self.round_event(event),
                Asking::Nothing => {}
            }
        }
    }

    fn collect_event(&mut self, event: Event) {
        match event {
            Event::PlyAnalysed {
                ply,
                played,
                best,
                best_move,
            } => {
                let Some(game) = self
                    .practice
                    .collecting
                    .as_mut()
                    .and_then(|c| c.current.as_mut())
                else {
                    return;
                };
                let Some(&(_, position, sq)) = game.plies.iter().find(|p| p.0 == ply) else {
                    return;
                };
                game.analysed.push(AnalysedMove {
                    ply,
                    position,
                    played: sq,
                    played_eval: played,
                    best: best_move,
                    best_eval: best,
                });
                if game.on_board {
                    self.keep_ply_analysis(ply, position, sq, played, best, best_move);
                }
            }
            Event::Finished { .. } => {
                self.practice.asking = Asking::Nothing;
                self.finish_game();
                self.next_game();
            }
            Event::Error { message } => {
                self.practice.asking = Asking::Nothing;
                if let Some(c) = &mut self.practice.collecting
                    && let Some(game) = c.current.take()
                {
                    c.done += 1;
                    c.problems.push(format!("{}: {message}", game.label));
                }
                self.next_game();
            }
            Event::Stopped => self.stop_collecting("Stopped."),
            _ => {}
        }
    }

    /// A move of the game on the board valued for the practice is the game analysis' too
    /// (the move list shows it): the game is analysed once.
    fn keep_ply_analysis(
        &mut self,
        ply: usize,
        position: Position,
        sq: Square,
        played: Eval,
        best: Eval,
        best_move: Square,
    ) {
        let game = self.session.game();
        if ply < game.len()
            && game.position_at(ply) == position
            && game.move_at(ply) == Some(Move::Play(sq))
        {
            self.session.game_mut().set_eval(ply, played);
            self.game_analysis.insert(
                ply,
                PlyAnalysis {
                    key: (position, Move::Play(sq)),
                    played,
                    best,
                    best_move,
                },
            );
        }
    }

    /// Starts a round with the cards due today; the board's own analysis rests meanwhile.
    fn start_round(&mut self) {
        let today = self.practice_today();
        let Some(store) = &self.practice.store else {
            return;
        };
        let queue = store.due(today);
        if queue.is_empty() {
            return;
        }
        self.engine.thread.cancel();
        self.engine.task = crate::engine_events::Task::Idle;
        self.engine.status.clear();
        self.practice.round = Some(Round {
            queue,
            at: 0,
            right: 0,
            missed: 0,
            shown: None,
        });
        self.show_card();
    }

    /// Puts the round's next card on the board and asks the engine for every move's value.
    fn show_card(&mut self) {
        let Some(round) = &mut self.practice.round else {
            return;
        };
        let Some(&card) = round.queue.get(round.at) else {
            round.shown = None;
            self.practice.asking = Asking::Nothing;
            return;
        };
        round.shown = Some(Shown {
            card,
            values: HashMap::new(),
            valued: false,
            proven_line: None,
            answer: None,
            judgement: None,
            next_in: None,
            best_line: None,
            line_asked: false,
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
        let limit = self.settings.solve_limit.max(practice::SOLVER_EMPTIES);
        self.practice_engine(limit).send(Request::Analyse {
            position,
            mode: SolveMode::Exact,
            max_depth: Some(GAME_ANALYSIS_DEPTH),
        });
        self.practice.asking = Asking::Values;
    }

    /// Ends the round: the board shows the game again, and its analysis goes on.
    fn end_round(&mut self) {
        if self.practice.round.take().is_none() {
            return;
        }
        if let Some(engine) = &mut self.practice.engine {
            engine.cancel();
        }
        self.practice.asking = Asking::Nothing;
        self.position_changed();
    }

    fn round_event(&mut self, event: Event) {
        let asking = self.practice.asking;
        let Some(shown) = self.practice.round.as_mut().and_then(|r| r.shown.as_mut()) else {
            return;
        };
        match event {
            Event::MoveValue { square, eval } => {
                let keep = shown
                    .values
                    .get(&square)
                    .is_some_and(|old| old.source > eval.source);
                if !keep {
                    shown.values.insert(square, eval);
                }
            }
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
    fn practice_answer(&mut self, sq: Square) {
        let Some((position, ..)) = self.practice.board() else {
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
        let Some(round) = &mut self.practice.round else {
            return;
        };
        let Some(shown) = &mut round.shown else {
            return;
        };
        let (Some(answer), true, None) = (shown.answer, shown.valued, shown.judgement) else {
            return;
        };
        let values: Vec<(Square, Eval)> = shown.values.iter().map(|(s, e)| (*s, *e)).collect();
        let Some(judgement) = practice::judge(&values, answer) else {
            self.practice.notice = Some(format!("The engine gave no value for {answer}."));
            return;
        };
        shown.judgement = Some(judgement);
        if judgement.right {
            round.right += 1;
        } else {
            round.missed += 1;
        }
        let card = shown.card;
        if let Some(store) = &mut self.practice.store {
            shown.next_in = store.answer(card, judgement.right, today);
        }
        self.save_practice();
    }

    /// The best line: the solver's where it solved the position (when it starts with the
    /// best move), else a search after the best move, as deep as the game analysis.
    fn ask_best_line(&mut self) {
        let Some(position) = self.practice.board().map(|b| b.0) else {
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

    fn next_card(&mut self) {
        if let Some(round) = &mut self.practice.round {
            round.at += 1;
        }
        self.show_card();
    }

    /// The round: the card, the answer and its judgement, the best line, what comes next.
    fn round_ui(&mut self, ui: &mut egui::Ui) {
        let today = self.practice_today();
        let (Some(round), Some(store)) = (&self.practice.round, &self.practice.store) else {
            return;
        };
        let Some(shown) = &round.shown else {
            ui.strong(format!(
                "Done for today: {} right, {} missed.",
                round.right, round.missed
            ));
            if let Some((day, count)) = store.next_due(today) {
                ui.label(format!(
                    "Next: {} on {day} ({}).",
                    plural(count, "position"),
                    days_from_now(today.until(day))
                ));
            }
            if ui.button("End practice").clicked() {
                self.end_round();
            }
            return;
        };
        let Some(card) = store.cards.get(shown.card) else {
            return;
        };
        ui.strong(format!(
            "Position {} of {}",
            round.at + 1,
            round.queue.len()
        ));
        let side = card.position.side_to_move();
        ui.label(format!(
            "{} to move: find the best move and click it on the board.",
            side.name()
        ));
        ui.label(
            egui::RichText::new(format!(
                "From {}, move {} ({} to play).",
                card.origin.game,
                card.origin.move_number(),
                card.origin.player
            ))
            .small()
            .weak(),
        );
        ui.separator();
        match (shown.answer, shown.judgement) {
            (None, _) => {
                if !shown.valued {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(
                            egui::RichText::new("the engine is valuing the moves")
                                .small()
                                .weak(),
                        );
                    });
                }
            }
            (Some(sq), None) => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("Judging {sq}…"));
                });
            }
            (Some(_), Some(j)) => {
                let played = format!(
                    "In the game, {} played {} ({}), {} lost.",
                    card.origin.player,
                    card.played,
                    card.played_eval.label(),
                    plural(card.loss() as usize, "disc")
                );
                let next = shown.next_in.map(|days| {
                    format!(
                        "This position comes back {} ({}).",
                        days_from_now(i64::from(days)),
                        today.plus(days)
                    )
                });
                let line = shown
                    .best_line
                    .as_ref()
                    .map(|l| numbered_line(&card.position, l));
                self.judgement_ui(ui, &j, &played, next, line);
            }
        }
    }

    fn judgement_ui(
        &mut self,
        ui: &mut egui::Ui,
        j: &Judgement,
        played: &str,
        next: Option<String>,
        line: Option<String>,
    ) {
        let (text, color) = verdict(j);
        ui.label(egui::RichText::new(text).strong().color(color));
        ui.label(
            egui::RichText::new(if j.proven() {
                "Values proven by the solver."
            } else {
                "Values by the search (12 moves ahead, 95% selective): not proven."
            })
            .small(),
        );
        ui.label(played);
        if let Some(next) = next {
            ui.label(next);
        }
        let asked = self.shown().is_some_and(|s| s.line_asked);
        match line {
            Some(line) => {
                ui.add(
                    egui::Label::new(format!("Best line: {line}"))
                        .wrap()
                        .selectable(true),
                );
                if asked {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(egui::RichText::new("deepening").small().weak());
                    });
                }
            }
            None => {
                if ui.button("Show the best line").clicked() {
                    self.ask_best_line();
                }
            }
        }
        ui.horizontal(|ui| {
            let last = self
                .practice
                .round
                .as_ref()
                .is_some_and(|r| r.at + 1 >= r.queue.len());
            if ui
                .button(if last { "Finish" } else { "Next position" })
                .clicked()
            {
                self.next_card();
            }
            if ui.button("End practice").clicked() {
                self.end_round();
            }
        });
    }
}

/// The verdict in one line, and its colour.
fn verdict(j: &Judgement) -> (String, egui::Color32) {
    let green = egui::Color32::from_rgb(0x40, 0xc0, 0x60);
    let red = egui::Color32::from_rgb(0xf0, 0x50, 0x40);
    let chosen = format!("{} ({})", j.chosen, j.chosen_eval.label());
    let best = format!("{} ({})", j.best, j.best_eval.label());
    if j.right && j.loss() == 0 {
        (format!("Right: {chosen} is the best move."), green)
    } else if j.right {
        (
            format!("Right: {chosen}, within a disc of {best} by the search."),
            green,
        )
    } else {
        (
            format!(
                "Missed: {chosen} loses {} against {best}.",
                plural(j.loss() as usize, "disc")
            ),
            red,
        )
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

fn pending_of(g: PlayerGame) -> Pending {
    let key = g.key();
    let (plies, _) = g.plies();
    Pending {
        key: Some(key),
        side: g.side,
        player: g.player,
        label: g.label,
        plies,
        analysed: Vec::new(),
        on_board: false,
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
