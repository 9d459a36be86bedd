//! Applies the queued [`Command`]s, once per frame after drawing.

use crate::app::App;
use crate::command::Command;
use crate::move_list::plural;
use crate::windows::{self, OneLineSaved, UnsavedChanges};
use okapi_core::board::{Move, Position};
use okapi_core::formats::Format;
use okapi_core::game::{Game, Seat, Unsaved};

impl App {
    /// Applies one command: each group of commands has its method below. A command that
    /// would replace a game with unsaved changes waits for Save, Discard or Cancel.
    pub fn apply(&mut self, command: Command) {
        if replaces_the_game(&command, self.game()) {
            let confirmed = std::mem::take(&mut self.view.discard_confirmed);
            if self.has_unsaved_changes() && !confirmed {
                let detail = self.unsaved_detail();
                self.parts.windows.unsaved = Some(UnsavedChanges {
                    pending: command,
                    detail,
                });
                return;
            }
        }
        // Left and Right step the best line of a judged practice card while it shows.
        let command = match command {
            Command::StepBack if self.practice.steps_line() => {
                Command::Practice(crate::command::PracticeStep::LineBack)
            }
            Command::StepForward if self.practice.steps_line() => {
                Command::Practice(crate::command::PracticeStep::LineForward)
            }
            other => other,
        };
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
            | Command::SaveTo(_)
            | Command::SaveToThen { .. }
            | Command::SaveThen(_)
            | Command::DiscardThen(_)
            | Command::SaveEveryLine { .. }
            | Command::KeepOneLine { .. }) => self.apply_file(c),
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
            | Command::ShowAbout
            | Command::ShowScript
            | Command::ShowSideTab(_)
            | Command::HideScript
            | Command::ScriptLinesShown(_)
            | Command::DismissError
            | Command::ShowFirstSteps) => self.apply_view(c),
            c @ (Command::ChooseDbFolder | Command::AddDbFolder(_) | Command::RetryDatabase) => {
                self.apply_database(c)
            }
            c @ (Command::ShowPractice
            | Command::ClosePractice
            | Command::PracticeAnswer(_)
            | Command::Practice(_)) => self.apply_practice(c),
            Command::Quit => self.view.close_now = true,
            Command::Notice(text) => self.notice = Some(text),
            Command::SolveAfterWarning(mode) => self.request_solve(mode),
        }
    }

    /// Does the game hold what no file has (a game replaced now would lose it): moves,
    /// players, date, event or comment, or the game analysis where its file would keep it?
    pub fn has_unsaved_changes(&self) -> bool {
        let game = self.game();
        // A game without moves or comment holds nothing to lose.
        let nothing_made = game.is_empty() && game.comment.is_empty();
        !nothing_made && self.unsaved().is_some()
    }

    /// What the game holds that its file (or the record as opened) does not, if anything.
    /// The analysis counts where the file is Okapi's, which keeps it (a one-line format
    /// does not: its save said so); for a game in no file it is said with its moves.
    fn unsaved(&self) -> Option<Unsaved> {
        let mut unsaved = self.game().unsaved_against(&self.saved_record);
        if !self.file.as_ref().is_some_and(|p| Format::is_json(p)) {
            unsaved.analysis &= !unsaved.moves_and_details_saved() && self.file.is_none();
        }
        (!unsaved.moves_and_details_saved() || unsaved.analysis).then_some(unsaved)
    }

    /// What the unsaved-changes question says is not saved, as a player counts it (moves,
    /// not passes): "Not in game.ggf: 2 moves after the file's 58 and the game analysis."
    pub(super) fn unsaved_detail(&self) -> String {
        let Some(u) = self.unsaved() else {
            return "Everything is saved.".into();
        };
        let moves = |n: usize| plural(n, "move");
        let one_line = self
            .file
            .as_ref()
            .map(|p| Format::of_path(p))
            .filter(|f| !f.keeps_variations());
        let mut parts = Vec::new();
        if one_line.is_some() && u.variation_moves > 0 {
            // Which line the file holds is the one saved: the rest are other lines.
            parts.push(format!(
                "{} of other lines",
                moves(u.moves + u.variation_moves)
            ));
        } else {
            if u.moves > 0 {
                // "Its" moves when nothing of the game was saved.
                let all = self.saved_record.tree_size() == 0;
                parts.push(match (u.after, &self.file) {
                    (0, _) if all && u.moves == 1 => "its move".to_string(),
                    (0, _) if all => format!("its {}", moves(u.moves)),
                    (0, _) => moves(u.moves),
                    (after, Some(_)) => format!("{} after the file's {after}", moves(u.moves)),
                    (after, None) => format!("{} after the first {after}", moves(u.moves)),
                });
            }
            match u.variations {
                0 if u.variation_moves > 0 => {
                    parts.push(format!("{} in its variations", moves(u.variation_moves)))
                }
                0 => {}
                n => parts.push(format!(
                    "{} of {}",
                    if n == 1 {
                        "a variation".to_string()
                    } else {
                        format!("{n} variations")
                    },
                    moves(u.variation_moves)
                )),
            }
        }
        if u.details {
            parts.push("its players, date, event or comment".into());
        }
        if u.analysis {
            parts.push("the game analysis".into());
        }
        let list = match parts.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        };
        match (&self.file, one_line) {
            (None, _) => format!("In no file: {list}."),
            (Some(path), Some(format)) if u.variation_moves > 0 => format!(
                "Not in {}: {list} ({} keeps one line, no variations).",
                path.display(),
                format.name()
            ),
            (Some(path), _) => format!("Not in {}: {list}.", path.display()),
        }
    }

    /// The game as it is now counts as saved (opened, saved, or just started), and the
    /// autosave says so for the next start.
    pub(crate) fn mark_saved(&mut self) {
        self.saved_record = self.game().clone();
        self.keep_game_in_progress();
    }

    /// New game, open and save.
    fn apply_file(&mut self, command: Command) {
        match command {
            Command::ShowNewGame => {
                self.open_window(windows::NEW_GAME);
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
            Command::OpenPath(path) => match crate::platform::load_game(&path) {
                Ok((game, warnings)) => {
                    // A game comes back with the players it was saved with.
                    let seats = game.seats;
                    let notice = left_out_notice(&path, &warnings);
                    self.settings.remember(&path);
                    self.file = Some(path);
                    self.error = None;
                    self.load_game(game, seats, notice);
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
                Some(path) if Format::is_json(&path) => self.apply(Command::SaveTo(path)),
                _ => self.apply(Command::SaveAs),
            },
            Command::SaveAs => {
                let name = crate::dialogs::game_file_name(self.game());
                self.save_where_asked(&name);
            }
            Command::SaveToThen { path, then } => {
                self.view.after_save = Some(*then);
                self.apply(Command::SaveTo(path));
            }
            Command::SaveTo(path) => match crate::platform::save_game(self.game(), &path) {
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
                        self.parts.windows.one_line_saved = Some(OneLineSaved {
                            path: path.clone(),
                            format,
                            left_out,
                            then: self.view.after_save.take(),
                        });
                    }
                    self.file = Some(path);
                    self.keep_game_in_progress();
                    if let Some(next) = self.view.after_save.take() {
                        self.commands.push(next);
                    }
                }
                Err(e) => {
                    self.view.after_save = None;
                    self.error = Some(format!("Could not save {}: {e}", path.display()));
                }
            },
            Command::SaveThen(next) => {
                self.view.after_save = Some(*next);
                self.apply(Command::Save);
            }
            Command::DiscardThen(next) => {
                if *next == Command::Quit {
                    // The player let what is unsaved go: the game still comes back at
                    // the next start, and is not asked about again.
                    self.mark_saved();
                }
                self.view.discard_confirmed = true;
                self.apply(*next);
            }
            Command::SaveEveryLine { json, then } => {
                self.view.after_save = then.map(|c| *c);
                // Beside the one-line file; a file of that name already there is not
                // overwritten unasked: the save dialog offers the name instead.
                if crate::platform::exists(&json) {
                    let json_name = json.file_name().map_or_else(
                        || json.display().to_string(),
                        |n| n.to_string_lossy().into(),
                    );
                    self.save_where_asked(&json_name);
                } else {
                    self.apply(Command::SaveTo(json));
                }
            }
            Command::KeepOneLine { path, then } => {
                // The player let the other lines go: nothing is lost that they want.
                self.mark_saved();
                self.notice = Some(format!(
                    "Saved {}: the line on the board; the other lines stay on the board only.",
                    path.display()
                ));
                if let Some(next) = then {
                    self.apply(*next);
                }
            }
            other => unreachable!("not a file command: {other:?}"),
        }
    }

    /// Saves the game where the save dialog answers, offering `name`; what waits for the
    /// save ([`ViewState::after_save`](crate::view::ViewState)) goes on after it.
    fn save_where_asked(&mut self, name: &str) {
        match self.save_dialogs().save_game(name) {
            Some(path) => self.apply(Command::SaveTo(path)),
            // No dialog could be shown: what waits for the save waits for the path typed
            // instead.
            None if self.take_dialog_failure() => {
                if let Some(prompt) = &mut self.parts.windows.path_prompt {
                    prompt.then = self.view.after_save.take();
                }
            }
            // Not saved: what waited for the save does not go ahead.
            None => self.view.after_save = None,
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
            Command::Paste(text) => match formats::read_any_warned(&text) {
                Ok((read, warnings)) => {
                    // Studied, as a set-up position: both seats human.
                    self.file = None;
                    let left_out: String = warnings.iter().map(|w| format!(" {w}.")).collect();
                    let notice = format!(
                        "Pasted {}.{left_out} {}",
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
    pub(crate) fn change_setting(&mut self, setting: crate::settings::Setting) {
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
            Command::FlipView => {
                self.change_setting(crate::settings::Setting::Flipped(!self.settings.flipped))
            }
            Command::ShowShortcuts => self.open_window(windows::SHORTCUTS),
            Command::ShowSettings => self.open_window(windows::SETTINGS),
            Command::ShowFirstSteps => self.open_window(windows::FIRST_STEPS),
            Command::ShowAbout => self.open_window(windows::ABOUT),
            Command::ShowScript => {
                if let Some(job) = &mut self.script {
                    job.open = true;
                }
                self.view.side_tab = crate::command::SideTab::Script;
            }
            Command::ShowSideTab(tab) => self.view.side_tab = tab,
            Command::HideScript => {
                if let Some(job) = &mut self.script {
                    job.open = false;
                }
            }
            Command::ScriptLinesShown(shown) => {
                if let Some(job) = &mut self.script {
                    job.with_lines = shown;
                }
            }
            Command::DismissError => self.error = None,
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

/// The status after opening a file whose reader left something out: the file's name and
/// what, so nothing of the player's file goes silently ("game.json: 3 proven values
/// contradict the game's end and were not read.").
fn left_out_notice(
    path: &std::path::Path,
    warnings: &[okapi_core::formats::ReadWarning],
) -> Option<String> {
    let name = path
        .file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy();
    let said: Vec<String> = warnings.iter().map(|w| format!("{name}: {w}.")).collect();
    (!said.is_empty()).then(|| said.join(" "))
}

/// The status after a save: a one-line format says that it holds the line on the board
/// and what it left out.
fn saved_notice(game: &Game, format: Format, path: &std::path::Path) -> String {
    let shown = path.display();
    if format.keeps_variations() {
        return format!("Saved {shown}");
    }
    let name = format.name();
    let result = match game.result() {
        Some((b, w)) => format!(", result {b}-{w}"),
        None => String::new(),
    };
    let line = game
        .moves()
        .iter()
        .filter(|m| matches!(m, Move::Play(_)))
        .count();
    let left_out = game.moves_not_in(&game.current_line_only());
    let mut notice = format!(
        "Saved the line on the board ({}{result}) to {shown}",
        plural(line, "move")
    );
    if left_out > 0 {
        notice += &format!(
            "; {name} keeps one line, so {} of other lines are not in it \
             (save as .json to keep every line)",
            plural(left_out, "move")
        );
    }
    let analysed = (0..game.len()).any(|i| game.best_at(i).is_some());
    let what = match (analysed, !game.proofs().is_empty()) {
        (true, true) => Some("the game analysis and the solves' proven lines are"),
        (true, false) => Some("the game analysis is"),
        (false, true) => Some("the solves' proven lines are"),
        (false, false) => None,
    };
    if let Some(what) = what {
        notice += &format!("; {what} not kept in {name}: save as Okapi game (.json) to keep it");
    }
    notice
}

mod database;
mod engine_commands;
mod navigation;
mod practice_collect;
mod practice_commands;
mod practice_lesson;
mod practice_round;
mod script_commands;
mod setup;
