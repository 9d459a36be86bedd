//! Collecting: the games to analyse (the game on the board, a folder, the database), the
//! game analysis on the practice window's engine, the cards that go into the practice
//! file.

use crate::app::App;
use crate::command::PracticeSource;
use crate::command::SideTab;
use crate::engine_hub::EngineUse;
use crate::move_list::plural;
use crate::practice_state::{Asking, Collecting, Pending, name_or};
use okapi_core::board::{Color, Move, Position, Square};
use okapi_core::game::Eval;
use okapi_core::practice::{self, AnalysedMove, PlayerGame, Store};
use okapi_engine::{Event, Request};
use std::path::PathBuf;
use std::sync::mpsc::{TryRecvError, channel};

impl App {
    /// Starts collecting from the chosen source.
    pub(super) fn start_collecting(&mut self) {
        self.load_practice();
        self.practice.summary = None;
        match self.practice.asked.source {
            PracticeSource::ThisGame => {
                let pending = self.this_game_pending(self.practice.asked.side);
                self.begin_collecting(vec![pending], String::new());
            }
            PracticeSource::Folder => {
                let dir = PathBuf::from(self.practice.asked.folder.trim());
                let name = self.practice.asked.name.trim().to_string();
                self.find_games(move || {
                    practice::folder_games(&dir, &name).map_err(|e| {
                        format!("The games of {} could not be read: {e}", dir.display())
                    })
                });
            }
            PracticeSource::Database => match self.database.database().cloned() {
                Some(db) => {
                    let name = self.practice.asked.name.trim().to_string();
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
        let notify = self.engines.waker();
        let spawned = crate::platform::spawn_task("okapi-practice-games", move || {
            let _ = tx.send(find());
            notify();
        });
        match spawned {
            Ok(_) => self.practice.finding = Some(rx),
            Err(e) => self.practice.summary = Some(format!("Cannot read the games: {e}")),
        }
    }

    /// Takes the games found, and starts collecting once the database is loaded.
    pub(super) fn poll_practice_finding(&mut self) {
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
        let name = self.practice.asked.name.trim().to_string();
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
        } else if skipped > 0
            && let Some(summary) = &mut self.practice.summary
        {
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
        // The day, without a GGF date's time (`2026.11.27_18:31:06.GMT`).
        let day = game.date.split(['_', ' ', 'T']).next().unwrap_or("");
        if !day.is_empty() {
            label += &format!(", {day}");
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
        let min_loss = self.practice.asked.min_loss;
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
            plural(self.practice.asked.min_loss as usize, "disc"),
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

    pub(super) fn stop_collecting(&mut self, why: &str) {
        if let Some(engine) = self.engines.get_mut(EngineUse::Practice) {
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

    pub(super) fn collect_event(&mut self, event: Event) {
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
                } else {
                    // Every view reads the same values: a card of this position shows
                    // what its game's analysis found.
                    self.learn_value(position, sq, played);
                    self.learn_value(position, best_move, best);
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
            self.record_ply_analysis(ply, played, best, best_move);
        }
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
