//! The side panel's "Database" tab, a part: the next moves of the position with their
//! games and values, the filters and the games list, the player's folders of games. It
//! owns its filters, its sorting and what it last computed; the database itself is the
//! app's (the practice's collecting reads it too), read in the background the first time
//! the tab shows.

use crate::command::Command;
use crate::database_panel::*;
use crate::part::{Commands, FrameView, Part};
use eframe::egui;
use okapi_core::board::{Position, Square};
use okapi_core::db::{Answer, Database, Filter, GameHit, PlayerSide, XotGames};
use okapi_core::game::occasion;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The most height of the next moves' rows (they scroll beyond it).
const MOVES_HEIGHT: f32 = 170.0;

/// The games list's height: what the tab leaves on screen above what follows it (the
/// folders' header), at most [`GAMES_MAX`] and at least [`GAMES_MIN_ROWS`] rows (where the
/// window is too small for that the tab scrolls as a whole).
const GAMES_MAX: f32 = 320.0;
const GAMES_MIN_ROWS: f32 = 3.0;

/// The Database tab: its filters, its sorting, its folder field, and the last answer.
#[derive(Default)]
pub(crate) struct DatabaseTab {
    filter: Filter,
    /// The years as typed (the filter takes them once they are numbers).
    from_year: String,
    to_year: String,
    /// The last answer, for the database, position and filter it answers.
    answer: Option<(Arc<Database>, Position, Filter, Answer)>,
    /// The answer's games in the list's order.
    sorted: Vec<GameHit>,
    /// How many next moves the position has with no filter: the rows the tab keeps room
    /// for, so that a filter never moves what is under them.
    unfiltered_rows: Option<(Arc<Database>, Position, usize)>,
    /// The column and whether ascending (by default the newest games first).
    sort: (GameSort, bool),
    /// The folder field's text.
    folder_text: String,
    /// The folder typed and added: the field empties once the settings hold it (a path
    /// that is no folder stays, to be corrected).
    folder_added: Option<PathBuf>,
    /// The height of what followed the games list last frame (the separator and the
    /// folders' header, folded): the list leaves room for it on screen.
    below_games: Option<f32>,
}

impl Part for DatabaseTab {
    /// The tab's contents (it scrolls its own lists).
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        match &view.database.load {
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
                    commands.push(Command::RetryDatabase);
                }
                return;
            }
            Load::Ready(_) => {}
        }
        let Some(db) = view.database.database() else {
            return;
        };
        if let Some(added) = &self.folder_added
            && view.settings.db_folders.contains(added)
        {
            self.folder_text.clear();
            self.folder_added = None;
        }
        let mut draw = DatabaseDraw {
            tab: self,
            view,
            commands,
            room: ui.available_height(),
        };
        egui::ScrollArea::vertical()
            .id_salt("db_tab")
            .show(ui, |ui| draw.ready(ui, db));
    }
}

impl DatabaseTab {
    /// How many next moves `position` has in games of any player, year or tournament
    /// (computed when the position or the database changed).
    fn unfiltered_rows(&mut self, db: &Arc<Database>, position: &Position) -> usize {
        match &self.unfiltered_rows {
            Some((d, p, rows)) if Arc::ptr_eq(d, db) && p == position => *rows,
            _ => {
                let rows = db.query(position, &Filter::default()).moves.len();
                self.unfiltered_rows = Some((db.clone(), *position, rows));
                rows
            }
        }
    }

    /// The answer for `position`, computed when the position, the filter or the database
    /// changed.
    fn answer_for(&mut self, db: &Arc<Database>, position: &Position) -> &Answer {
        let fresh = self
            .answer
            .as_ref()
            .is_some_and(|(d, p, f, _)| Arc::ptr_eq(d, db) && p == position && *f == self.filter);
        if !fresh {
            let answer = db.query(position, &self.filter);
            self.sorted = answer.games.clone();
            sort_games(db, &mut self.sorted, self.sort);
            self.answer = Some((db.clone(), *position, self.filter.clone(), answer));
        }
        &self.answer.as_ref().expect("just set").3
    }
}

/// One frame's drawing of the tab: its state, what it reads, where clicks go.
struct DatabaseDraw<'a> {
    tab: &'a mut DatabaseTab,
    view: &'a FrameView<'a>,
    commands: &'a mut Commands,
    /// The tab's height on screen (what shows without scrolling).
    room: f32,
}

impl DatabaseDraw<'_> {
    /// The tab once the database is loaded.
    fn ready(&mut self, ui: &mut egui::Ui, db: &Arc<Database>) {
        // The end of the screen, where the tab's contents start plus its room (in the
        // contents' place, so that it moves with them when they scroll).
        let screen_bottom = ui.cursor().top() + self.room;
        let position = self.view.game().position();
        let answer = self.tab.answer_for(db, &position).clone();
        let reaching = answer.games.len();
        ui.label(format!(
            "{} of {} games reach this position",
            thousands(reaching),
            thousands(db.len())
        ));
        if let Some(name) = opening_name(&position) {
            ui.label(format!("Opening: {name}"));
        }
        let rows = self.tab.unfiltered_rows(db, &position);
        self.moves(ui, &position, &answer, rows);
        ui.separator();
        self.filters(ui);
        ui.separator();
        let games_bottom = self.games(ui, db, &position, screen_bottom);
        ui.separator();
        let below_end = self.folders(ui).unwrap_or(ui.cursor().top());
        let below = (below_end - games_bottom).max(0.0);
        if self.tab.below_games.is_none_or(|b| (b - below).abs() > 0.5) {
            // The list fits round it from the next frame.
            self.tab.below_games = Some(below);
            ui.ctx().request_repaint();
        }
    }

    /// The next moves' rows (games, Black %, average, book, engine), in room for `rows`
    /// of them (those of every game, whatever the filters leave).
    fn moves(&mut self, ui: &mut egui::Ui, position: &Position, answer: &Answer, rows: usize) {
        // A practice card waiting for its answer: no book value, no opening name.
        let hide_answer = self.view.hides_answer;
        let book = match hide_answer {
            true => Vec::new(),
            false => okapi_core::book::shipped().moves(&position.board()),
        };
        let mut play = None;
        // Both ways: a row with a long opening name ("g5 Bent Ganglion") scrolls inside
        // the tab instead of widening the side panel under the board (at 800x600 the
        // tab's left part was hidden behind it). As tall as the rows of every game, however
        // many the filters leave: the controls under it stay under the pointer while a
        // name is typed.
        let row = ui.spacing().interact_size.y + 2.0;
        let height = (row * (rows.max(1) + 1) as f32).min(MOVES_HEIGHT);
        egui::ScrollArea::both()
            .id_salt("db_moves_scroll")
            .max_height(height)
            .min_scrolled_height(height)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if answer.moves.is_empty() {
                    ui.weak("No game continues from here.");
                    return;
                }
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
                            let name = after
                                .play(m.square)
                                .ok()
                                .filter(|_| !hide_answer)
                                .and_then(|_| opening_name(&after));
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
                            match self.view.move_evals().get(&m.square) {
                                // With its source, as in the values list: a proof
                                // reads as one, a search it bounds as "≤-16".
                                Some(e) => ui.label(format!(
                                    "{} ({})",
                                    self.view.known.label(position, *e),
                                    e.source
                                )),
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

    fn filters(&mut self, ui: &mut egui::Ui) {
        let view = &mut *self.tab;
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
                ui.label("");
                let mut xot = view.filter.xot == XotGames::Include;
                ui.checkbox(&mut xot, "XOT games").on_hover_text(
                    "Games whose first moves were drawn from the XOT list, not chosen: \
                     left out of the statistics unless ticked.",
                );
                view.filter.xot = if xot {
                    XotGames::Include
                } else {
                    XotGames::Exclude
                };
                ui.end_row();
            });
        let year = |text: &str| text.trim().parse::<u16>().ok();
        view.filter.from_year = year(&view.from_year);
        view.filter.to_year = year(&view.to_year);
        let bad_year = |text: &str| !text.trim().is_empty() && year(text).is_none();
        // The warning's line is kept when there is none, so the sort and the games under
        // it stay where they are while a year is typed.
        let warning = match bad_year(&view.from_year) || bad_year(&view.to_year) {
            true => "A year is a number, e.g. 1998.",
            false => " ",
        };
        ui.colored_label(ui.visuals().warn_fg_color, warning);
    }

    /// The sort and the games list, as tall as the screen leaves it above what follows
    /// (`screen_bottom`: the end of the screen); returns where the list ends.
    fn games(
        &mut self,
        ui: &mut egui::Ui,
        db: &Arc<Database>,
        position: &Position,
        screen_bottom: f32,
    ) -> f32 {
        let view = &mut *self.tab;
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
        // Before the first frame measured it, room for a line under the list.
        let below = view.below_games.unwrap_or(ui.spacing().interact_size.y);
        let height = (screen_bottom - ui.cursor().top() - below)
            .min(GAMES_MAX)
            .max(GAMES_MIN_ROWS * row_height);
        let shown = egui::ScrollArea::vertical()
            .id_salt("db_games_scroll")
            .max_height(height)
            .min_scrolled_height(height)
            // As tall with one game as with many: "Your folders of games" stays put.
            .auto_shrink([false, false])
            .show_rows(ui, row_height, view.sorted.len(), |ui, rows| {
                for hit in &view.sorted[rows] {
                    let g = db.game(hit.id as usize);
                    let theoretical = g
                        .theoretical
                        .map_or(String::new(), |t| format!(" · {}", perfect_play(t)));
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
        let list_bottom = shown.inner_rect.bottom();
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
        list_bottom
    }

    /// The player's folders of games, a folding section; returns where its header ends
    /// (none where there is no section).
    fn folders(&mut self, ui: &mut egui::Ui) -> Option<f32> {
        // (A page reads no folders: nothing to add.)
        if !crate::platform::CAN_PICK_FOLDER {
            return None;
        }
        let section = ui.collapsing("Your folders of games", |ui| {
            ui.weak(
                ".wtb (with WTHOR.JOU/.TRN), .pgn, .ggf and saved games; read with the database.",
            );
            let mut remove = None;
            for (i, f) in self.view.settings.db_folders.iter().enumerate() {
                ui.horizontal(|ui| {
                    if ui.small_button("Remove").clicked() {
                        remove = Some(i);
                    }
                    ui.label(f.display().to_string());
                });
            }
            if let Some(i) = remove {
                let folder = self.view.settings.db_folders[i].clone();
                self.commands
                    .push(Command::Set(crate::settings::Setting::RemoveDbFolder(
                        folder,
                    )));
            }
            ui.horizontal(|ui| {
                let field = ui.add(
                    egui::TextEdit::singleline(&mut self.tab.folder_text)
                        .hint_text("a folder's path")
                        .desired_width(150.0),
                );
                let add = ui.button("Add folder").clicked()
                    || (field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)));
                if ui.button("Choose…").clicked() {
                    self.commands.push(Command::ChooseDbFolder);
                }
                let typed = add
                    .then(|| self.tab.folder_text.trim().to_string())
                    .filter(|t| !t.is_empty())
                    .map(PathBuf::from);
                if let Some(path) = typed {
                    self.tab.folder_added = Some(path.clone());
                    self.commands.push(Command::AddDbFolder(path));
                }
            });
            let database = self.view.database;
            if let Some(t) = database.load_time {
                ui.weak(format!("Read in {:.2} s.", t.as_secs_f64()));
            }
            if database.skipped_games > 0 {
                ui.weak(format!(
                    "{} games in your files did not replay and were skipped.",
                    database.skipped_games
                ));
            }
            for bad in &database.bad_files {
                ui.colored_label(ui.visuals().warn_fg_color, format!("Skipped {bad}"));
            }
        });
        Some(section.header_response.rect.bottom())
    }
}

#[cfg(test)]
mod tests {
    use crate::ScriptedDialogs;
    use crate::app::App;
    use crate::part::Part;
    use egui_kittest::kittest::Queryable;
    use okapi_core::board::{Move, Position};
    use okapi_core::game::{Eval, EvalSource, Game, Seat, Session};
    use okapi_core::search::SolveMode;

    /// After an exact solve the Engine column shows no move above the proof: a search
    /// above it reads "≤", as on the board.
    #[test]
    fn the_engine_column_bounds_a_search_by_the_proof() {
        let text = include_str!("../../../tests/data/wthor-2024-sample.pgn");
        let (games, _) = okapi_core::formats::records::pgn::parse_games(text);
        let record = &games[0].record;
        let mut builder = okapi_core::db::Builder::new();
        builder.add(record, Default::default()).unwrap();
        let db = builder.build().unwrap();
        // Twenty moves in: the game's next move is the tab's row.
        let mut game = Game::new(Position::start());
        for &sq in &record.moves[..20] {
            game.play(Move::Play(sq), None).unwrap();
        }
        let here = game.position();
        let next = record.moves[20];
        let other = here.legal_moves().iter().find(|&s| s != next).unwrap();
        let mut app = App::new(Box::new(ScriptedDialogs::default()), || {});
        app.session = Session::new(game, [Seat::Human; 2]);
        app.database
            .set_database(db, app.settings.db_folders.clone());
        // A solve proves the position -4 (by another move); the game's move was searched
        // at +6.
        app.known
            .offer_proven_line(here, SolveMode::Exact, -4, &[Move::Play(other)]);
        let searched = Eval {
            value: 6,
            source: EvalSource::Midgame {
                depth: 18,
                confidence: 95,
            },
        };
        app.show_values(&[(next, searched)]);
        let mut tab = super::DatabaseTab::default();
        let harness = egui_kittest::Harness::new_ui(|ui| {
            tab.show(ui, &app.frame_view(), &mut Vec::new());
        });
        assert!(
            harness
                .query_by_label(&format!("Database move {next}"))
                .is_some(),
            "the row of {next}"
        );
        let cell = format!("≤-4 ({})", searched.source);
        assert!(harness.query_by_label(&cell).is_some(), "{cell}");
        let above = format!("+6 ({})", searched.source);
        assert!(harness.query_by_label(&above).is_none(), "{above}");
    }
}
