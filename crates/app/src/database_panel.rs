//! The "Database" tab of the side panel: the master games that reached the position on the
//! board (under the 8 symmetries, by any move order), move by move, and the games
//! themselves.
//!
//! The shipped WTHOR database and the user's folders are read on a background thread the
//! first time the tab shows (a few hundred milliseconds of CPU: never in a frame); the tab
//! says "Loading…" meanwhile. Each next move shows its games, Black's score in per cent
//! (wins, draws and losses on hover), Black's average final disc difference, the opening
//! book's value and the engine's live value, side by side; clicking a move plays it. The
//! games list is filtered by player (either colour, as Black, as White), tournament and
//! years, sorted by any column, and a click opens the game at the position on the board.

use super::{App, Command};
use eframe::egui;
use okapi_core::board::{Move, Position, Square};
use okapi_core::db::{Answer, Database, Filter, GameHit, PlayerSide, sources};
use okapi_core::game::{Game, occasion};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::{Duration, Instant};

/// The name of the opening `position` is (the named openings of `assets/openings.txt`,
/// under the 8 symmetries and transpositions), shown beside each next move.
pub fn opening_name(position: &Position) -> Option<&'static str> {
    okapi_core::game::openings::opening_name(position)
}

/// A database read in the background, and what reading it skipped.
pub struct LoadedDatabase {
    pub db: Database,
    /// Files of the user's folders that could not be read, with why.
    pub bad_files: Vec<String>,
    /// Games skipped inside files that were read.
    pub skipped_games: usize,
    pub took: Duration,
}

/// Where the database is.
#[derive(Default)]
enum Load {
    #[default]
    NotStarted,
    Loading(Receiver<Result<LoadedDatabase, String>>),
    Ready(Arc<Database>),
    Failed(String),
}

/// Columns the games list sorts by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameSort {
    #[default]
    Year,
    Black,
    White,
    Result,
    Tournament,
}

impl GameSort {
    const ALL: [GameSort; 5] = [
        GameSort::Year,
        GameSort::Black,
        GameSort::White,
        GameSort::Result,
        GameSort::Tournament,
    ];

    fn title(self) -> &'static str {
        match self {
            GameSort::Year => "Year",
            GameSort::Black => "Black",
            GameSort::White => "White",
            GameSort::Result => "Result",
            GameSort::Tournament => "Tournament",
        }
    }
}

/// The tab's state.
#[derive(Default)]
pub struct DatabaseView {
    load: Load,
    /// The folders the loaded database holds (reloaded when the settings' list changes).
    loaded_folders: Vec<PathBuf>,
    bad_files: Vec<String>,
    skipped_games: usize,
    load_time: Option<Duration>,
    pub filter: Filter,
    from_year: String,
    to_year: String,
    /// The last answer, for the position and filter it answers.
    answer: Option<(Position, Filter, Answer)>,
    /// The answer's games in the list's order.
    sorted: Vec<GameHit>,
    /// The column and whether ascending (by default the newest games first).
    sort: (GameSort, bool),
    folder_text: String,
}

impl DatabaseView {
    /// The database, once loaded.
    pub fn database(&self) -> Option<&Arc<Database>> {
        match &self.load {
            Load::Ready(db) => Some(db),
            _ => None,
        }
    }

    /// Why loading failed, if it did.
    pub fn load_error(&self) -> Option<&str> {
        match &self.load {
            Load::Failed(e) => Some(e),
            _ => None,
        }
    }

    /// Files of the user's folders that were refused.
    pub fn bad_files(&self) -> &[String] {
        &self.bad_files
    }

    /// Uses `db` as it is (tests, or a database made elsewhere); folders are not re-read.
    pub fn set_database(&mut self, db: Database, folders: Vec<PathBuf>) {
        self.load = Load::Ready(Arc::new(db));
        self.loaded_folders = folders;
        self.answer = None;
    }

    /// Starts reading the shipped database and `folders` on a background thread.
    fn start_loading(&mut self, folders: Vec<PathBuf>, ctx: &egui::Context) {
        let (tx, rx) = channel();
        let ctx = ctx.clone();
        let wanted = folders.clone();
        let spawned = std::thread::Builder::new()
            .name("okapi-database".into())
            .spawn(move || {
                let _ = tx.send(load(&wanted));
                ctx.request_repaint();
            });
        self.load = match spawned {
            Ok(_) => Load::Loading(rx),
            Err(e) => Load::Failed(format!("cannot start the loading thread: {e}")),
        };
        self.loaded_folders = folders;
        self.answer = None;
    }

    /// Takes the background thread's result when it has come.
    fn poll(&mut self) {
        let Load::Loading(rx) = &self.load else {
            return;
        };
        match rx.try_recv() {
            Ok(Ok(loaded)) => {
                self.bad_files = loaded.bad_files;
                self.skipped_games = loaded.skipped_games;
                self.load_time = Some(loaded.took);
                self.load = Load::Ready(Arc::new(loaded.db));
                self.answer = None;
            }
            Ok(Err(e)) => self.load = Load::Failed(e),
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.load = Load::Failed("the loading thread stopped without an answer".into())
            }
        }
    }

    /// The answer for `position`, computed when the position or the filter changed.
    fn answer_for(&mut self, db: &Database, position: &Position) -> &Answer {
        let fresh = self
            .answer
            .as_ref()
            .is_some_and(|(p, f, _)| p == position && *f == self.filter);
        if !fresh {
            let answer = db.query(position, &self.filter);
            self.sorted = answer.games.clone();
            sort_games(db, &mut self.sorted, self.sort);
            self.answer = Some((*position, self.filter.clone(), answer));
        }
        &self.answer.as_ref().expect("just set").2
    }
}

/// Reads the shipped database and the user's folders (on the loading thread).
pub fn load(folders: &[PathBuf]) -> Result<LoadedDatabase, String> {
    let t = Instant::now();
    let shipped = okapi_core::db::load_shipped().map_err(|e| e.to_string())?;
    if folders.is_empty() {
        return Ok(LoadedDatabase {
            db: shipped,
            bad_files: Vec::new(),
            skipped_games: 0,
            took: t.elapsed(),
        });
    }
    let mut b = okapi_core::db::Builder::new();
    b.extend(&shipped).map_err(|e| e.to_string())?;
    drop(shipped);
    let mut bad_files = Vec::new();
    let mut skipped_games = 0;
    for f in folders {
        let r = sources::add_folder(&mut b, f);
        bad_files.extend(
            r.bad_files
                .iter()
                .map(|(p, why)| format!("{}: {why}", p.display())),
        );
        skipped_games += r.skipped_games.len();
    }
    Ok(LoadedDatabase {
        db: b.build().map_err(|e| e.to_string())?,
        bad_files,
        skipped_games,
        took: t.elapsed(),
    })
}

fn sort_games(db: &Database, games: &mut [GameHit], (by, ascending): (GameSort, bool)) {
    let key = |h: &GameHit| {
        let g = db.game(h.id as usize);
        match by {
            GameSort::Year => (u32::from(g.year), String::new()),
            GameSort::Black => (0, db.player(g.black).to_lowercase()),
            GameSort::White => (0, db.player(g.white).to_lowercase()),
            GameSort::Result => ((i32::from(g.black_score) + 64) as u32, String::new()),
            GameSort::Tournament => (0, db.tournament(g.tournament).to_lowercase()),
        }
    };
    games.sort_by_cached_key(|h| (key(h), h.id));
    if !ascending {
        games.reverse();
    }
}

/// `count` with thousands separated by commas.
fn thousands(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A value in discs with its sign and one decimal; a value that rounds to zero is "+0.0"
/// (formatting -0.04 gave "-0.0", a loss of nothing).
fn signed_tenths(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    format!("{:+.1}", if r == 0.0 { 0.0 } else { r })
}

/// A database game's year as a date ("" when unknown).
fn year_text(year: u16) -> String {
    match year {
        0 => String::new(),
        year => year.to_string(),
    }
}

/// The game `hit` of `db` as a record drawn in the board's orientation, its cursor on the
/// position the board shows.
pub fn game_at_position(db: &Database, hit: &GameHit, position: &Position) -> Game {
    let (start, squares) = db.oriented(hit.id as usize, hit.symmetry);
    let mut moves = Vec::with_capacity(squares.len() + 2);
    let mut p = start;
    let mut cursor = None;
    let same = |a: &Position, b: &Position| {
        a.black() == b.black()
            && a.white() == b.white()
            && (a.side_to_move() == b.side_to_move() || a.is_game_over())
    };
    for sq in squares {
        if p.must_pass() && !p.is_game_over() {
            moves.push(Move::Pass);
            p.force_pass();
        }
        if cursor.is_none() && same(&p, position) {
            cursor = Some(moves.len());
        }
        if p.play(sq).is_err() {
            break;
        }
        moves.push(Move::Play(sq));
    }
    if cursor.is_none() && same(&p, position) {
        cursor = Some(moves.len());
    }
    let info = db.game(hit.id as usize);
    let mut game = Game::from_moves(start, &moves).unwrap_or_else(|_| Game::new(start));
    game.black = db.player(info.black).to_string();
    game.white = db.player(info.white).to_string();
    game.event = db.tournament(info.tournament).to_string();
    game.date = year_text(info.year);
    // The result as the database has it (a game may stop before its end, on time or
    // by agreement), and WTHOR's perfect-play score: the players and the tournament
    // have fields of their own.
    let theoretical = info.theoretical.map_or(String::new(), |t| {
        format!(
            "; perfect play from {} empties: {:+}",
            t.empties, t.black_score
        )
    });
    game.comment = format!(
        "Result {} (Black {:+}){theoretical}",
        info.result_text(),
        info.black_score
    );
    game.go_to(cursor.unwrap_or(0));
    game
}

/// One game of the list: two lines (players and result; year, tournament, next move,
/// perfect-play score), clipped to the panel, clickable as a whole. Its accessible name is
/// the first line.
fn game_row(ui: &mut egui::Ui, height: f32, first: &str, second: &str) -> egui::Response {
    let width = ui.available_width();
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width, height - 2.0), egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, ui.is_enabled(), first));
    if ui.is_rect_visible(rect) {
        let visuals = ui.style().interact(&response);
        if response.hovered() {
            ui.painter().rect_filled(rect, 2.0, visuals.weak_bg_fill);
        }
        let painter = ui.painter_at(rect);
        let body = egui::TextStyle::Body.resolve(ui.style());
        let small = egui::TextStyle::Small.resolve(ui.style());
        let left = rect.left_top() + egui::vec2(4.0, 2.0);
        painter.text(
            left,
            egui::Align2::LEFT_TOP,
            first,
            body.clone(),
            visuals.text_color(),
        );
        painter.text(
            left + egui::vec2(0.0, body.size + 4.0),
            egui::Align2::LEFT_TOP,
            second,
            small,
            ui.visuals().weak_text_color(),
        );
    }
    response.on_hover_text(format!(
        "{first}\n{second}\nClick: open this game at the position on the board"
    ))
}

impl App {
    /// The contents of the side panel's "Database" tab (it scrolls its own lists).
    pub(super) fn database_contents(&mut self, ui: &mut egui::Ui) {
        self.database.poll();
        if matches!(self.database.load, Load::NotStarted)
            || (self.database.database().is_some()
                && self.database.loaded_folders != self.settings.db_folders)
        {
            let folders = self.settings.db_folders.clone();
            self.database.start_loading(folders, ui.ctx());
        }
        match &self.database.load {
            Load::NotStarted | Load::Loading(_) => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Loading the games database…");
                });
                ui.ctx().request_repaint_after(Duration::from_millis(100));
                return;
            }
            Load::Failed(e) => {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("The games database could not be read: {e}"),
                );
                if ui.button("Try again").clicked() {
                    self.database.load = Load::NotStarted;
                }
                return;
            }
            Load::Ready(_) => {}
        }
        let Some(db) = self.database.database().cloned() else {
            return;
        };
        egui::ScrollArea::vertical()
            .id_salt("db_tab")
            .show(ui, |ui| self.database_ready(ui, &db));
    }

    /// The tab once the database is loaded.
    fn database_ready(&mut self, ui: &mut egui::Ui, db: &Arc<Database>) {
        let position = self.game().position();
        let answer = self.database.answer_for(db, &position).clone();
        let reaching = answer.games.len();
        ui.label(format!(
            "{} of {} games reach this position",
            thousands(reaching),
            thousands(db.len())
        ));
        if let Some(name) = opening_name(&position) {
            ui.label(format!("Opening: {name}"));
        }
        self.database_moves(ui, &position, &answer);
        ui.separator();
        self.database_filters(ui);
        ui.separator();
        self.database_games(ui, db, &position);
        ui.separator();
        self.database_folders(ui);
    }

    /// The next moves' rows: games, Black %, average, book, engine.
    fn database_moves(&mut self, ui: &mut egui::Ui, position: &Position, answer: &Answer) {
        if answer.moves.is_empty() {
            ui.weak("No game continues from here.");
            return;
        }
        let book = okapi_core::book::shipped().moves(&position.board());
        let mut play = None;
        // Both ways: a row with a long opening name ("g5 Bent Ganglion") scrolls inside
        // the tab instead of widening the side panel under the board (at 800x600 the
        // tab's left part was hidden behind it).
        egui::ScrollArea::both()
            .id_salt("db_moves_scroll")
            .max_height(170.0)
            .show(ui, |ui| {
                egui::Grid::new("db_moves")
                    .striped(true)
                    .num_columns(6)
                    .spacing([8.0, 2.0])
                    .show(ui, |ui| {
                        for title in ["Move", "Games", "Black %", "Avg", "Book", "Engine"] {
                            ui.strong(title);
                        }
                        ui.end_row();
                        for m in &answer.moves {
                            let mut after = *position;
                            let name = after.play(m.square).ok().and_then(|_| opening_name(&after));
                            let hover = format!(
                                "{}{}: {} games, Black {} wins, {} draws, {} losses",
                                m.square,
                                name.map_or(String::new(), |n| format!(" ({n})")),
                                m.games,
                                m.black_wins,
                                m.draws,
                                m.black_losses
                            );
                            let label = match name {
                                Some(n) => format!("{} {n}", m.square),
                                None => m.square.to_string(),
                            };
                            let button = ui.button(label);
                            // Its own accessible name: the board's square is already "f5".
                            button.widget_info(|| {
                                egui::WidgetInfo::labeled(
                                    egui::Role::Button,
                                    true,
                                    format!("Database move {}", m.square),
                                )
                            });
                            if button.on_hover_text(&hover).clicked() && position.is_legal(m.square)
                            {
                                play = Some(m.square);
                            }
                            ui.label(thousands(m.games as usize)).on_hover_text(&hover);
                            ui.label(format!("{:.1}", m.black_win_percent()))
                                .on_hover_text(&hover);
                            ui.label(signed_tenths(m.average_black_score()));
                            match book.iter().find(|b| b.square == m.square) {
                                Some(b) => ui.label(signed_tenths(b.discs())),
                                None => ui.weak("–"),
                            };
                            match self.move_evals().get(&m.square) {
                                // With its source, as in the values list: a proof
                                // reads as one.
                                Some(e) => ui.label(format!("{} ({})", e.label(), e.source)),
                                None => ui.weak("–"),
                            };
                            ui.end_row();
                        }
                    });
            });
        ui.weak("Black %: Black's score (a draw is half); Avg: Black's final disc difference; Book and Engine: the value for the side to move.");
        if let Some(sq) = play {
            self.commands.push(Command::Play(sq));
        }
    }

    fn database_filters(&mut self, ui: &mut egui::Ui) {
        let view = &mut self.database;
        egui::Grid::new("db_filters")
            .num_columns(2)
            .spacing([6.0, 4.0])
            .show(ui, |ui| {
                let player = ui.label("Player");
                ui.add(
                    egui::TextEdit::singleline(&mut view.filter.player)
                        .hint_text("any")
                        .desired_width(150.0),
                )
                .labelled_by(player.id);
                ui.end_row();
                ui.label("");
                ui.horizontal(|ui| {
                    for (side, name) in [
                        (PlayerSide::Either, "either"),
                        (PlayerSide::Black, "as Black"),
                        (PlayerSide::White, "as White"),
                    ] {
                        ui.radio_value(&mut view.filter.side, side, name);
                    }
                });
                ui.end_row();
                let tournament = ui.label("Tournament");
                ui.add(
                    egui::TextEdit::singleline(&mut view.filter.tournament)
                        .hint_text("any")
                        .desired_width(150.0),
                )
                .labelled_by(tournament.id);
                ui.end_row();
                ui.label("Years");
                ui.horizontal(|ui| {
                    let from = ui.add(
                        egui::TextEdit::singleline(&mut view.from_year)
                            .hint_text("from")
                            .desired_width(50.0),
                    );
                    ui.label("to");
                    let to = ui.add(
                        egui::TextEdit::singleline(&mut view.to_year)
                            .hint_text("to")
                            .desired_width(50.0),
                    );
                    let _ = (from, to);
                });
                ui.end_row();
            });
        let year = |text: &str| text.trim().parse::<u16>().ok();
        view.filter.from_year = year(&view.from_year);
        view.filter.to_year = year(&view.to_year);
        let bad_year = |text: &str| !text.trim().is_empty() && year(text).is_none();
        if bad_year(&view.from_year) || bad_year(&view.to_year) {
            ui.colored_label(ui.visuals().warn_fg_color, "A year is a number, e.g. 1998.");
        }
    }

    fn database_games(&mut self, ui: &mut egui::Ui, db: &Arc<Database>, position: &Position) {
        let view = &mut self.database;
        ui.horizontal_wrapped(|ui| {
            ui.label("Sort:");
            for by in GameSort::ALL {
                let selected = view.sort.0 == by;
                let arrow = match (selected, view.sort.1) {
                    (true, true) => " ^",
                    (true, false) => " v",
                    _ => "",
                };
                if ui
                    .selectable_label(selected, format!("{}{arrow}", by.title()))
                    .clicked()
                {
                    view.sort = if selected {
                        (by, !view.sort.1)
                    } else {
                        // Years newest first, results best for Black first, names A to Z.
                        (by, !matches!(by, GameSort::Year | GameSort::Result))
                    };
                    sort_games(db, &mut view.sorted, view.sort);
                }
            }
        });
        let mut open = None;
        let row_height = ui.text_style_height(&egui::TextStyle::Body)
            + ui.text_style_height(&egui::TextStyle::Small)
            + 10.0;
        egui::ScrollArea::vertical()
            .id_salt("db_games_scroll")
            .max_height(320.0)
            .auto_shrink([false, true])
            .show_rows(ui, row_height, view.sorted.len(), |ui, rows| {
                for hit in &view.sorted[rows] {
                    let g = db.game(hit.id as usize);
                    let theoretical = g
                        .theoretical
                        .map_or(String::new(), |t| format!(" · perfect {:+}", t.black_score));
                    let next = hit
                        .next
                        .map_or("end".to_string(), |s: Square| s.to_string());
                    let first = format!(
                        "{} – {}   {}",
                        db.player(g.black),
                        db.player(g.white),
                        g.result_text(),
                    );
                    let second = format!(
                        "{} · next {next}{theoretical}",
                        occasion(db.tournament(g.tournament), &year_text(g.year)),
                    );
                    if game_row(ui, row_height, &first, &second).clicked() {
                        open = Some(*hit);
                    }
                }
            });
        if let Some(hit) = open {
            let game = game_at_position(db, &hit, position);
            let info = db.game(hit.id as usize);
            let notice = format!(
                "Opened {} – {}, {}, from the games database.",
                db.player(info.black),
                db.player(info.white),
                occasion(db.tournament(info.tournament), &year_text(info.year)),
            );
            // Through the command, so that a game with unsaved changes asks first, as
            // File › Open does.
            self.commands.push(Command::OpenDatabaseGame {
                game: Box::new(game),
                notice,
            });
        }
    }

    fn database_folders(&mut self, ui: &mut egui::Ui) {
        ui.collapsing("Your folders of games", |ui| {
            ui.weak(
                ".wtb (with WTHOR.JOU/.TRN), .pgn, .ggf and saved games; read with the database.",
            );
            let mut remove = None;
            for (i, f) in self.settings.db_folders.iter().enumerate() {
                ui.horizontal(|ui| {
                    if ui.small_button("Remove").clicked() {
                        remove = Some(i);
                    }
                    ui.label(f.display().to_string());
                });
            }
            if let Some(i) = remove {
                self.settings.db_folders.remove(i);
            }
            ui.horizontal(|ui| {
                let field = ui.add(
                    egui::TextEdit::singleline(&mut self.database.folder_text)
                        .hint_text("a folder's path")
                        .desired_width(150.0),
                );
                let add = ui.button("Add folder").clicked()
                    || (field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
                let chosen = if ui.button("Choose…").clicked() {
                    self.dialogs.pick_folder()
                } else {
                    None
                };
                let typed = add
                    .then(|| self.database.folder_text.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .map(PathBuf::from);
                if let Some(path) = chosen.or(typed) {
                    if path.is_dir() {
                        if path.to_str().is_none() {
                            // The settings file is JSON: the folder is read this run only.
                            self.error = Some(format!(
                                "{} is read now, but its name is not UTF-8 text, which the \
                                 settings file cannot keep: rename it to keep it for the next \
                                 start",
                                path.display()
                            ));
                        }
                        if !self.settings.db_folders.contains(&path) {
                            self.settings.db_folders.push(path);
                        }
                        self.database.folder_text.clear();
                    } else {
                        self.error = Some(format!("{} is not a folder", path.display()));
                    }
                }
            });
            if let Some(t) = self.database.load_time {
                ui.weak(format!("Read in {:.2} s.", t.as_secs_f64()));
            }
            if self.database.skipped_games > 0 {
                ui.weak(format!(
                    "{} games in your files did not replay and were skipped.",
                    self.database.skipped_games
                ));
            }
            for bad in &self.database.bad_files {
                ui.colored_label(ui.visuals().warn_fg_color, format!("Skipped {bad}"));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO in a folder kept in the settings left the tab "Loading the games
    /// database…" at every start (opening it waits for a writer for ever).
    #[test]
    #[cfg(unix)]
    fn a_fifo_in_a_games_folder_never_blocks_the_database_tab() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "f5 d6 c3 d3 c4").unwrap();
        let name = std::ffi::CString::new(dir.path().join("b.txt").as_os_str().as_encoded_bytes())
            .unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        let folders = vec![dir.path().to_path_buf()];
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(load(&folders));
        });
        let loaded = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("still loading after 60 s: blocked on the FIFO")
            .unwrap();
        assert_eq!(loaded.bad_files.len(), 1, "{:?}", loaded.bad_files);
        assert!(loaded.bad_files[0].contains("b.txt: not a regular file"));
        let shipped = okapi_core::db::load_shipped().unwrap().len();
        assert_eq!(loaded.db.len(), shipped + 1);
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(134440), "134,440");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn values_near_zero_have_no_minus_sign() {
        assert_eq!(signed_tenths(-0.04), "+0.0");
        assert_eq!(signed_tenths(0.0), "+0.0");
        assert_eq!(signed_tenths(-0.06), "-0.1");
        assert_eq!(signed_tenths(6.84), "+6.8");
    }
}
