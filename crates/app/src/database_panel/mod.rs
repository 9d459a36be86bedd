//! The games database of the side panel's "Database" tab (drawn by `database_tab.rs`):
//! the master games that reached the position on the board (under the 8 symmetries, by
//! any move order), move by move, and the games themselves.
//!
//! The shipped WTHOR database and the user's folders are read on a background thread the
//! first time the tab shows (a few hundred milliseconds of CPU: never in a frame); the tab
//! says "Loading…" meanwhile. Each next move shows its games, Black's score in per cent
//! (wins, draws and losses on hover), Black's average final disc difference, the opening
//! book's value and the engine's live value, side by side; clicking a move plays it. The
//! games list is filtered by player (either colour, as Black, as White), tournament and
//! years, sorted by any column, and a click opens the game at the position on the board.

use crate::platform::Instant;
use eframe::egui;
use okapi_core::board::{Move, Position};
use okapi_core::db::{Database, GameHit, sources};
use okapi_core::game::Game;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

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
pub(crate) enum Load {
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
    pub(crate) const ALL: [GameSort; 5] = [
        GameSort::Year,
        GameSort::Black,
        GameSort::White,
        GameSort::Result,
        GameSort::Tournament,
    ];

    pub(crate) fn title(self) -> &'static str {
        match self {
            GameSort::Year => "Year",
            GameSort::Black => "Black",
            GameSort::White => "White",
            GameSort::Result => "Result",
            GameSort::Tournament => "Tournament",
        }
    }
}

/// The games database the app reads (the Database tab and the practice's collecting
/// share it): loaded in the background, and what the loading skipped.
#[derive(Default)]
pub struct DatabaseView {
    pub(crate) load: Load,
    /// The folders the loaded database holds (reloaded when the settings' list changes).
    pub(crate) loaded_folders: Vec<PathBuf>,
    pub(crate) bad_files: Vec<String>,
    pub(crate) skipped_games: usize,
    pub(crate) load_time: Option<Duration>,
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
    }

    /// Starts reading the shipped database and `folders` on a background thread. In the
    /// page the shipped games are downloaded first: until they have come this starts
    /// nothing and the load stays [`Load::NotStarted`] (its callers ask again each frame;
    /// `ctx` is woken when they come).
    pub(crate) fn start_loading(&mut self, folders: Vec<PathBuf>, ctx: &egui::Context) {
        let shipped = match crate::platform::shipped_database(ctx) {
            None => return,
            Some(Ok(shipped)) => shipped,
            Some(Err(e)) => {
                self.load = Load::Failed(e);
                return;
            }
        };
        let (tx, rx) = channel();
        let ctx = ctx.clone();
        let wanted = folders.clone();
        let spawned = crate::platform::spawn_task("okapi-database", move || {
            let _ = tx.send(load(shipped, &wanted));
            ctx.request_repaint();
        });
        self.load = match spawned {
            Ok(_) => Load::Loading(rx),
            Err(e) => Load::Failed(format!("cannot start the loading thread: {e}")),
        };
        self.loaded_folders = folders;
    }

    /// Takes the background thread's result when it has come.
    pub(crate) fn poll(&mut self) {
        let Load::Loading(rx) = &self.load else {
            return;
        };
        match rx.try_recv() {
            Ok(Ok(loaded)) => {
                self.bad_files = loaded.bad_files;
                self.skipped_games = loaded.skipped_games;
                self.load_time = Some(loaded.took);
                self.load = Load::Ready(Arc::new(loaded.db));
            }
            Ok(Err(e)) => self.load = Load::Failed(e),
            Err(TryRecvError::Empty) => {}
            Err(TryRecvError::Disconnected) => {
                self.load = Load::Failed("the loading thread stopped without an answer".into())
            }
        }
    }
}

/// Reads the shipped database (its bytes, `shipped`) and the user's folders (on the
/// loading thread).
pub fn load(shipped: &[u8], folders: &[PathBuf]) -> Result<LoadedDatabase, String> {
    let t = Instant::now();
    let shipped = Database::from_bytes(shipped).map_err(|e| e.to_string())?;
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

pub(crate) fn sort_games(db: &Database, games: &mut [GameHit], (by, ascending): (GameSort, bool)) {
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
pub(crate) fn thousands(count: usize) -> String {
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
pub(crate) fn signed_tenths(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    format!("{:+.1}", if r == 0.0 { 0.0 } else { r })
}

/// A database game's year as a date ("" when unknown).
pub(crate) fn year_text(year: u16) -> String {
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
    let theoretical = info
        .theoretical
        .map_or(String::new(), |t| format!("; {}", perfect_play(t)));
    game.comment = format!(
        "Result {} (Black {:+}){theoretical}",
        info.result_text(),
        info.black_score
    );
    game.go_to(cursor.unwrap_or(0));
    game
}

/// WTHOR's perfect-play score with the position it is for: "perfect +18 from 24
/// empties" (beside a solve's "+16 (exact)" of another position, a bare "perfect +18"
/// reads as a contradiction).
pub(crate) fn perfect_play(t: okapi_core::formats::records::TheoreticalScore) -> String {
    format!("perfect {:+} from {} empties", t.black_score, t.empties)
}

/// One game of the list: two lines (players and result; year, tournament, next move,
/// perfect-play score), clipped to the panel, clickable as a whole. Its accessible name is
/// the first line.
pub(crate) fn game_row(
    ui: &mut egui::Ui,
    height: f32,
    first: &str,
    second: &str,
) -> egui::Response {
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

#[cfg(test)]
mod tests;
