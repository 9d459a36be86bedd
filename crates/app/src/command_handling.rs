//! Applies the queued [`Command`]s, once per frame after drawing.

use super::engine_events::Task;
use super::session_actions::SolveStats;
use super::windows::{NewGameForm, OneLineSaved};
use super::{App, Command, ScriptJob, script, wake};
use okapi_core::board::{Color, Move, Position, Square};
use okapi_core::formats::Format;
use okapi_core::game::{Game, ProvenLine, Seat};
use okapi_core::search::SolveMode;
use okapi_engine::{Engine, Request};
use std::path::Path;
use std::time::Instant;

impl App {
    /// Applies one command: each group of commands has its method below. A command that
    /// would replace a game with unsaved changes waits for Save, Discard or Cancel.
    pub fn apply(&mut self, command: Command) {
        if replaces_the_game(&command, self.game()) {
            let confirmed = std::mem::take(&mut self.view.discard_confirmed);
            if self.has_unsaved_changes() && !confirmed {
                self.view.unsaved_prompt = Some(command);
                return;
            }
        }
        match command {
            c @ (Command::Play(_)
            | Command::PlayBest
            | Command::Undo
            | Command::Redo
            | Command::First
            | Command::Last
            | Command::GoTo(_)
            | Command::StepBack
            | Command::StepForward
            | Command::ChooseVariation(..)
            | Command::PromoteLine
            | Command::NextMoveAsVariation
            | Command::DeleteVariation(_)) => self.navigate(c),
            c @ (Command::ShowNewGame
            | Command::NewGame { .. }
            | Command::Open
            | Command::OpenPath(_)
            | Command::OpenDatabaseGame { .. }
            | Command::Save
            | Command::SaveAs
            | Command::SaveTo(_)) => self.apply_file(c),
            c @ (Command::EnterSetup
            | Command::SetupSquare(_)
            | Command::SetupSide(_)
            | Command::SetupClear
            | Command::SetupStandard
            | Command::SetupText(_)
            | Command::SetupDone
            | Command::SetupCancel) => self.apply_setup(c),
            c @ (Command::Solve(_)
            | Command::Stop
            | Command::EngineMove
            | Command::Hint
            | Command::AnalyseGame
            | Command::CrashEngine) => self.apply_engine(c),
            c @ (Command::OpenScript
            | Command::OpenScriptPath(_)
            | Command::ScriptOptions { .. }
            | Command::SolveScript
            | Command::StopScript
            | Command::ShowScriptPosition(_)
            | Command::SaveScriptResult
            | Command::SaveScriptResultTo(_)
            | Command::CloseScript) => self.apply_script(c),
            c @ (Command::CopyTranscript
            | Command::CopyBoard
            | Command::CopyGgf
            | Command::CopyJson
            | Command::PasteClipboard
            | Command::CopyText(_)
            | Command::Paste(_)) => self.apply_clipboard(c),
            Command::Set(setting) => self.change_setting(setting),
            Command::ToggleMyValues => self.change_setting(
                crate::settings::Setting::ValuesAgainstEngine(!self.settings.values_against_engine),
            ),
            Command::AnalyseAgain => self.ask_engine_again(),
            c @ (Command::FlipView
            | Command::ShowShortcuts
            | Command::ShowSettings
            | Command::ShowFirstSteps) => self.apply_view(c),
            c @ (Command::ShowPractice | Command::PracticeAnswer(_)) => self.apply_practice(c),
            Command::Quit => self.view.close_now = true,
        }
    }

    /// Does the game hold moves that no file has (a game replaced now would lose them)?
    pub fn has_unsaved_changes(&self) -> bool {
        let game = self.game();
        // A game without moves or comment holds nothing to lose.
        let nothing_made = game.is_empty() && game.comment.is_empty();
        !nothing_made && !game.same_record(&self.saved_record)
    }

    /// What the unsaved-changes question says is not saved: how many moves are in no
    /// file, and why (a one-line format keeps no variations), or that only the players,
    /// date, event or comment changed.
    pub(super) fn unsaved_detail(&self) -> String {
        let game = self.game();
        let total = game.tree_size();
        let missing = game.moves_not_in(&self.saved_record);
        let since = match &self.file {
            Some(path) => format!(" since it was saved as {}", path.display()),
            None => String::new(),
        };
        if missing == 0 {
            return format!("Its players, date, event or comment changed{since}.");
        }
        let verb = if missing == 1 { "is" } else { "are" };
        let what = match (missing, total) {
            (1, 1) => format!("Its move {verb}"),
            (m, t) if m == t => format!("Its {m} moves {verb}"),
            (m, t) => format!("{m} of its {t} moves {verb}"),
        };
        let Some(path) = &self.file else {
            // Made here, or a database game, a paste or a script's position played on.
            return format!("{what} in no file.");
        };
        let shown = path.display();
        match Format::of_path(path) {
            format if !format.keeps_variations() => format!(
                "{what} in no file: {shown} holds one line ({} keeps no variations).",
                format_name(format)
            ),
            _ => format!("{what} not in {shown}."),
        }
    }

    /// The game as it is now counts as saved (opened, saved, or just started).
    pub(super) fn mark_saved(&mut self) {
        self.saved_record = self.game().clone();
    }

    /// Moves through the game: a move, the proven line's move, undo, redo, going to a ply.
    fn navigate(&mut self, command: Command) {
        match command {
            Command::Play(sq) => self.play_human_move(sq),
            Command::PlayBest => self.play_best_move(),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::First => self.go_to(0),
            Command::Last => self.go_to(self.game().len()),
            Command::GoTo(ply) => self.go_to(ply),
            Command::StepBack => self.go_to(self.game().ply().saturating_sub(1)),
            Command::StepForward => self.go_to(self.game().ply() + 1),
            Command::ChooseVariation(ply, mv) => {
                if self.session.choose_variation(ply, mv) {
                    self.position_changed();
                }
            }
            Command::PromoteLine => {
                self.session.game_mut().promote_line();
                self.keep_game_in_progress();
            }
            Command::NextMoveAsVariation => {
                self.view.next_as_variation = !self.view.next_as_variation;
                self.notice = Some(if self.view.next_as_variation {
                    "Your next move is added as a variation: the main line stays.".into()
                } else {
                    "Your next move goes on the game's line again.".into()
                });
            }
            Command::DeleteVariation(ply) => {
                if self.session.game_mut().delete_variation(ply) {
                    // The cursor may have moved back: the rules run again.
                    let here = self.game().ply();
                    self.session.go_to(here);
                    self.position_changed();
                }
            }
            other => unreachable!("not a navigation command: {other:?}"),
        }
    }

    /// New game, open and save.
    fn apply_file(&mut self, command: Command) {
        match command {
            Command::ShowNewGame => {
                self.view.new_game = Some(NewGameForm::for_seats(
                    self.session.seats(),
                    self.settings.level,
                    self.timing_minutes,
                ));
            }
            Command::NewGame {
                black,
                white,
                minutes,
                from_here,
            } => self.start_new_game([black, white], minutes, from_here),
            Command::Open => {
                if let Some(path) = self.file_dialogs().open_game() {
                    self.apply(Command::OpenPath(path));
                }
            }
            Command::OpenPath(path) => match okapi_core::formats::load_game(&path) {
                Ok(game) => {
                    // A game comes back with the players it was saved with.
                    let seats = game.seats;
                    self.settings.remember(&path);
                    self.file = Some(path);
                    self.error = None;
                    self.load_game(game, seats, None);
                    self.mark_saved();
                }
                Err(e) => self.error = Some(format!("Could not open {}: {e}", path.display())),
            },
            Command::OpenDatabaseGame { game, notice } => {
                // A database game is nobody's work on this machine: it counts as saved,
                // so another click on the list does not ask.
                self.file = None;
                self.error = None;
                self.load_game(*game, [Seat::Human; 2], Some(notice));
                self.mark_saved();
            }
            Command::Save => match self.file.clone() {
                Some(path) if is_json(&path) => self.apply(Command::SaveTo(path)),
                _ => self.apply(Command::SaveAs),
            },
            Command::SaveAs => {
                let name = format!("game-{}.json", self.game().date);
                match self.file_dialogs().save_game(&name) {
                    Some(path) => self.apply(Command::SaveTo(path)),
                    // Not saved: what waited for the save does not go ahead.
                    None => self.view.after_save = None,
                }
            }
            Command::SaveTo(path) => match okapi_core::formats::save_game(self.game(), &path) {
                Ok(()) => {
                    let format = Format::of_path(&path);
                    self.notice = Some(saved_notice(self.game(), format, &path));
                    // A one-line format saves the line on screen: the other lines are
                    // still unsaved, and the player is asked what to do with them (what
                    // waited for the save waits for that answer).
                    self.saved_record = if format.keeps_variations() {
                        self.game().clone()
                    } else {
                        self.game().current_line_only()
                    };
                    self.settings.remember(&path);
                    let left_out = self.game().moves_not_in(&self.saved_record);
                    if left_out > 0 {
                        self.view.one_line_saved = Some(OneLineSaved {
                            path: path.clone(),
                            format,
                            left_out,
                            then: self.view.after_save.take(),
                        });
                    }
                    self.file = Some(path);
                    if let Some(next) = self.view.after_save.take() {
                        self.commands.push(next);
                    }
                }
                Err(e) => {
                    self.view.after_save = None;
                    self.error = Some(format!("Could not save {}: {e}", path.display()));
                }
            },
            other => unreachable!("not a file command: {other:?}"),
        }
    }

    /// Board set-up.
    fn apply_setup(&mut self, command: Command) {
        match command {
            Command::EnterSetup => {
                self.view.setup = Some(self.game().position());
                self.view.setup_text_error = None;
                // Nothing more the engine says about the game reaches the app.
                self.engine.thread.cancel();
                self.engine.task = Task::Idle;
                self.engine.status.clear();
                self.values_shown_for = None;
            }
            Command::SetupSquare(sq) => {
                if let Some(p) = &mut self.view.setup {
                    let (mut black, mut white) = (p.black(), p.white());
                    match p.at(sq) {
                        None => black |= sq.bit(),
                        Some(Color::Black) => {
                            black &= !sq.bit();
                            white |= sq.bit();
                        }
                        Some(Color::White) => white &= !sq.bit(),
                    }
                    *p = Position::from_discs(black, white, p.side_to_move());
                }
            }
            Command::SetupSide(side) => {
                if let Some(p) = &mut self.view.setup {
                    *p = Position::from_discs(p.black(), p.white(), side);
                }
            }
            Command::SetupClear => {
                if let Some(p) = &mut self.view.setup {
                    *p = Position::from_discs(0, 0, p.side_to_move());
                }
            }
            Command::SetupStandard => {
                if self.view.setup.is_some() {
                    self.view.setup = Some(Position::start());
                }
            }
            Command::SetupDone => {
                // No game reaches a board without discs: it stays in set-up (as a board
                // string with no discs is refused everywhere) rather than becoming a
                // "32-32 draw".
                if self.view.setup.is_some_and(|p| p.black() | p.white() == 0) {
                    self.error = Some("Put at least one disc on the board.".into());
                } else if let Some(p) = self.view.setup.take() {
                    // A position set up is studied: both seats human, so the engine does
                    // not move in it by itself (New game › the position on the board
                    // plays Okapi from it).
                    self.file = None;
                    self.load_game(
                        Game::new(p),
                        [Seat::Human; 2],
                        Some(STUDY_NOTICE.replace("{what}", "The position set up")),
                    );
                    self.mark_saved();
                }
            }
            Command::SetupText(text) => {
                if self.view.setup.is_some() {
                    // The board follows the text as it is typed; what is wrong shows below
                    // the field and the board keeps its last good position.
                    match okapi_core::formats::board_text::read(&text) {
                        Ok(p) => {
                            self.view.setup = Some(p);
                            self.view.setup_text_error = None;
                        }
                        Err(e) => self.view.setup_text_error = Some(e.to_string()),
                    }
                    self.view.setup_text = text;
                }
                return;
            }
            Command::SetupCancel => {
                if self.view.setup.take().is_some() {
                    self.position_changed();
                }
            }
            other => unreachable!("not a set-up command: {other:?}"),
        }
        // A change made on the board shows in the field.
        if let Some(p) = self.view.setup {
            self.view.setup_text = p.to_board_string();
            self.view.setup_text_error = None;
        }
    }

    /// Requests to the engine.
    fn apply_engine(&mut self, command: Command) {
        match command {
            Command::Solve(mode) => {
                let position = self.game().position();
                if position.is_game_over() {
                    return;
                }
                // The values already on the board stay; the solve proves its best move's
                // and adds the proven line.
                self.engine.thread.send(Request::Solve { position, mode });
                self.start_task(Task::Solving(mode));
            }
            Command::Stop => {
                if self.engine.task != Task::Idle {
                    self.engine.thread.stop();
                    self.metrics.stop_asked = Some(Instant::now());
                }
            }
            Command::EngineMove => {
                // The engine plays the side to move even inside the record, if the
                // session gives it that side.
                let Some(next) = self.session.engine_move_now() else {
                    return;
                };
                self.engine.thread.cancel();
                if let Some(request) = self.play_request(next) {
                    self.engine.thread.send(request);
                    self.start_task(Task::Thinking);
                }
            }
            Command::Hint => {
                if self.game().position().is_game_over() {
                    return;
                }
                self.analyse_here();
            }
            Command::AnalyseGame => {
                let game = self.game();
                let plies: Vec<(usize, Position, Square)> = (0..game.len())
                    .filter_map(|i| match game.move_at(i) {
                        Some(Move::Play(sq)) => Some((i, game.position_at(i), sq)),
                        _ => None,
                    })
                    .collect();
                if plies.is_empty() {
                    return;
                }
                self.engine
                    .thread
                    .configure(self.settings.engine_configuration());
                self.engine.thread.send(Request::AnalyseGame { plies });
                self.start_task(Task::AnalysingGame);
            }
            Command::CrashEngine => {
                self.engine.thread.send(Request::Crash);
                self.start_task(Task::Thinking);
            }
            other => unreachable!("not a engine command: {other:?}"),
        }
    }

    /// Solves the open script from the start on the script engine, as the command line
    /// does, with the engine's threads: small positions several at a time, results in
    /// order.
    fn solve_script(&mut self) {
        let Some(job) = &mut self.script else { return };
        if job.rows.is_empty() {
            return;
        }
        job.clear_results();
        let notify = &self.notify;
        let engine = self
            .script_engine
            .get_or_insert_with(|| Engine::spawn(wake(notify)));
        engine.configure(self.settings.engine_configuration());
        let ticket = engine.send(Request::SolveScript {
            positions: job.rows.iter().map(|r| r.position).collect(),
            mode: job.mode,
            lines: true, // always proven: the script panel shows them on demand
            hash_bits: script::SCRIPT_HASH_BITS,
        });
        job.running = Some(ticket);
        job.started = Instant::now();
        job.status = "starting...".into();
    }

    /// The endgame script window.
    fn apply_script(&mut self, command: Command) {
        match command {
            Command::OpenScript => {
                if let Some(path) = self.file_dialogs().open_script() {
                    self.apply(Command::OpenScriptPath(path));
                }
            }
            Command::OpenScriptPath(path) => self.open_script(&path),
            Command::ScriptOptions { mode, lines } => self.set_script_options(mode, lines),
            Command::SolveScript => self.solve_script(),
            Command::StopScript => self.stop_script(),
            Command::ShowScriptPosition(i) => self.show_script_position(i),
            Command::SaveScriptResult => self.save_script_result(),
            Command::SaveScriptResultTo(path) => self.save_script_result_to(&path),
            Command::CloseScript => {
                self.apply(Command::StopScript);
                self.script = None;
            }
            other => unreachable!("not a script command: {other:?}"),
        }
    }

    /// Loads the script at `path` into the script panel (the one before is closed).
    fn open_script(&mut self, path: &Path) {
        match ScriptJob::load(path) {
            Ok(job) => {
                // Nothing of the old script's run reaches the new one.
                if let Some(engine) = &mut self.script_engine {
                    engine.cancel();
                }
                let count =
                    |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
                self.notice = Some(format!(
                    "Opened the script {}: {}, {}.",
                    job.name(),
                    count(job.rows.len(), "position"),
                    count(job.bad.len(), "bad line")
                ));
                self.settings.remember_folder(path);
                self.script = Some(job);
                self.view.side_tab = super::side_panel::SideTab::Script;
            }
            Err(e) => {
                self.error = Some(format!("Could not open {}: {e}", path.display()));
            }
        }
    }

    /// Another solve mode or line setting: the results of the old ones go.
    fn set_script_options(&mut self, mode: SolveMode, lines: bool) {
        self.apply(Command::StopScript);
        if let Some(job) = &mut self.script
            && (job.mode, job.with_lines) != (mode, lines)
        {
            // Results of the old options still on their way are dropped.
            if let Some(engine) = &mut self.script_engine {
                engine.cancel();
            }
            job.mode = mode;
            job.with_lines = lines;
            job.clear_results();
            job.status.clear();
            job.running = None;
        }
    }

    /// Stops the script's solve, if it runs.
    fn stop_script(&mut self) {
        if let (Some(engine), Some(job)) = (&self.script_engine, &mut self.script)
            && job.running.is_some()
        {
            engine.stop();
            job.status = "stopping...".into();
        }
    }

    /// Shows script position `i` on the board, with its proven line when it is solved.
    fn show_script_position(&mut self, i: usize) {
        let Some(job) = &mut self.script else { return };
        let Some(row) = job.rows.get(i) else { return };
        job.selected = Some(i);
        let (position, mode, result) = (row.position, job.mode, row.result.clone());
        self.view.setup = None;
        self.file = None;
        // A script's position is studied, not played: two people.
        self.load_game(Game::new(position), [Seat::Human; 2], None);
        self.mark_saved();
        // A solved position comes with its proven line, ready to play through.
        if let Some(r) = result.filter(|r| !r.line.is_empty()) {
            // Its proof replaces the live analysis' estimates on the squares.
            self.known
                .offer_proven_line(position, mode, r.score, &r.line);
            self.session.set_proven_line(ProvenLine {
                position,
                mode,
                score: r.score,
                line: r.line,
            });
            self.solve_stats = Some(SolveStats {
                nodes: r.nodes,
                elapsed: r.elapsed,
            });
        }
    }

    /// Asks where to save the script's results (once every position is solved).
    fn save_script_result(&mut self) {
        let Some(job) = &self.script else { return };
        if job.output().is_none() {
            return;
        }
        let stem = job
            .path
            .file_stem()
            .map_or_else(|| "script".into(), |s| s.to_string_lossy().into_owned());
        if let Some(path) = self
            .file_dialogs()
            .save_script_result(&format!("{stem}-result.txt"))
        {
            self.apply(Command::SaveScriptResultTo(path));
        }
    }

    /// Saves the script's results to `path` (never over the script itself).
    fn save_script_result_to(&mut self, path: &Path) {
        let Some(bytes) = self.script.as_ref().and_then(|j| j.output()) else {
            return;
        };
        if self
            .script
            .as_ref()
            .is_some_and(|j| same_file(&j.path, path))
        {
            self.error = Some(format!(
                "Not saved: {} is the script itself",
                path.display()
            ));
            return;
        }
        match okapi_core::formats::write_atomic(path, &bytes) {
            Ok(()) => {
                self.settings.remember_folder(path);
                self.notice = Some(format!("Saved the results to {}", path.display()));
            }
            Err(e) => self.error = Some(format!("Could not save {}: {e}", path.display())),
        }
    }

    /// Copy and paste, through the system clipboard.
    fn apply_clipboard(&mut self, command: Command) {
        use okapi_core::formats::{self, Format};
        match command {
            Command::CopyTranscript => self.copy_transcript(),
            Command::CopyBoard => self.copy(
                self.game().position().to_board_string(),
                "the position as a board string",
            ),
            Command::CopyGgf => self.copy(
                formats::write_game(self.game(), Format::Ggf),
                "the game as GGF",
            ),
            Command::CopyJson => self.copy(
                formats::write_game(self.game(), Format::OkapiJson),
                "the game as Okapi JSON",
            ),
            Command::CopyText(text) => self.copy(text, "the proven line"),
            Command::PasteClipboard => self.paste_requested = true,
            Command::Paste(text) => match formats::read_any(&text) {
                Ok(read) => {
                    // Studied, as a set-up position: both seats human.
                    self.file = None;
                    let notice = format!(
                        "Pasted {}. {}",
                        read.kind().name(),
                        STUDY_NOTICE.replace("{what}", "It")
                    );
                    self.load_game(read.into_game(), [Seat::Human; 2], Some(notice));
                    self.mark_saved();
                }
                Err(e) => {
                    self.error = Some(format!(
                        "The pasted text is neither a game nor a board: {e}"
                    ))
                }
            },
            other => unreachable!("not a clipboard command: {other:?}"),
        }
    }

    /// Copy transcript: the moves from the standard opening. A transcript cannot say
    /// where a game from a set-up or pasted position starts, so such a game is copied
    /// as GGF (its start position and its moves, which Okapi, NBoard and Edax read
    /// back), or as the board string while no move has been played from it; the status
    /// says which. A game with no move at all copies nothing, and says so.
    fn copy_transcript(&mut self) {
        let game = self.game();
        if game.start() != Position::start() {
            if game.is_empty() {
                let board = game.start().to_board_string();
                self.copy(
                    board,
                    "the position as a board string (no move has been played from it, and a \
                     transcript holds moves from the standard opening only)",
                );
            } else {
                let ggf = okapi_core::formats::write_game(game, Format::Ggf);
                self.copy(
                    ggf,
                    "the game as GGF: it starts from a set-up position, which a transcript \
                     (moves from the standard opening) cannot hold",
                );
            }
            return;
        }
        let transcript = game.transcript();
        self.copy(transcript, "the moves as a transcript");
    }

    /// Puts `text` on the system clipboard this frame and says what was copied; an empty
    /// text is not copied, and the status says why.
    fn copy(&mut self, text: String, what: &str) {
        if text.trim().is_empty() {
            self.notice = Some("Nothing copied: no move has been played yet.".into());
            return;
        }
        self.clipboard_out = Some(text);
        self.notice = Some(format!("Copied {what}."));
    }

    /// One setting changed; the engine is asked again when it alters the answer.
    fn change_setting(&mut self, setting: crate::settings::Setting) {
        use crate::settings::Setting;
        if matches!(setting, Setting::Book(false)) {
            // The search values the book's moves afresh.
            self.known.forget_book();
        }
        let again = setting.changes_analysis();
        setting.apply_to(&mut self.settings);
        if again {
            self.apply(Command::AnalyseAgain);
        }
    }

    /// The view and the help windows.
    fn apply_view(&mut self, command: Command) {
        match command {
            Command::FlipView => self.settings.flipped = !self.settings.flipped,
            Command::ShowShortcuts => self.view.shortcuts = true,
            Command::ShowSettings => self.view.settings_window = true,
            Command::ShowFirstSteps => self.view.first_steps = true,
            other => unreachable!("not a view command: {other:?}"),
        }
    }
}

/// What a set-up or pasted position starts as, `{what}` naming it.
const STUDY_NOTICE: &str = "{what} is on the board for analysis: you play both sides. \
                            To play Okapi from here: File › New game › the position on the board.";

/// Commands that put another game in the place of the one on the board.
fn replaces_the_game(command: &Command, game: &Game) -> bool {
    // A new game from the end of a game without variations keeps every move.
    let keeps_all = game.ply() == game.tree_size();
    match command {
        Command::NewGame {
            from_here: true, ..
        } => !keeps_all,
        // Text that is no game is refused with a message: nothing to ask.
        Command::Paste(text) => {
            okapi_core::formats::read_game(text).is_ok() || Position::parse(text).is_ok()
        }
        _ => matches!(
            command,
            Command::NewGame { .. }
                | Command::OpenPath(_)
                | Command::OpenDatabaseGame { .. }
                | Command::SetupDone
                | Command::ShowScriptPosition(_)
                | Command::Quit
        ),
    }
}

/// The status after a save: a one-line format says that it holds the line on the board
/// and what it left out.
fn saved_notice(game: &Game, format: Format, path: &std::path::Path) -> String {
    let shown = path.display();
    if format.keeps_variations() {
        return format!("Saved {shown}");
    }
    let name = format_name(format);
    let plies = game.len();
    let result = match game.result() {
        Some((b, w)) => format!(", result {b}-{w}"),
        None => String::new(),
    };
    let left_out = game.tree_size() - plies;
    let mut notice = format!("Saved the line on the board ({plies} plies{result}) to {shown}");
    if left_out > 0 {
        notice += &format!(
            "; {name} keeps one line, so {left_out} moves of other lines are not in it \
             (save as .json to keep every line)"
        );
    }
    notice
}

/// A one-line format's name in messages.
pub(super) fn format_name(format: Format) -> &'static str {
    match format {
        Format::Ggf => "GGF",
        Format::Transcript => "a transcript",
        Format::OkapiJson => "Okapi JSON",
    }
}

/// Do two paths name the same existing file?
pub(super) fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

pub(super) fn is_json(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}
