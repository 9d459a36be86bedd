//! The one enum every action goes through, with its shortcuts and descriptions.

use crate::dialogs::DialogKind;
use eframe::egui;
use okapi_core::board::{Color, Square};
use okapi_core::game::Seat;
use okapi_core::search::SolveMode;
use std::path::PathBuf;

/// What a button of the practice window asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PracticeStep {
    /// Choose the folder of games to collect from (a system dialog).
    ChooseFolder,
    /// Collect the mistakes of the source chosen.
    Collect(CollectFrom),
    StopCollecting,
    /// Start a round with the positions due today.
    Start,
    /// Show the best line of the position judged.
    BestLine,
    /// The next position of the round (or the round's end after the last).
    NextCard,
    /// End the round: the board shows the game again.
    End,
    /// The discs a move may lose against the best and still count as found.
    SetTolerance(okapi_core::practice::Tolerance),
    /// The best line on the board: back to the card's position (leaving the line).
    LineFirst,
    /// The best line on the board: one move back (at the first, the card's position).
    LineBack,
    /// The best line on the board: one move on.
    LineForward,
    /// The window's notice (a file set aside, a save that failed) was read.
    DismissNotice,
    /// Opening trainer: start the lesson chosen.
    StartLesson(LessonChoice),
    /// Opening trainer: Okapi plays its book move.
    LessonBookMove,
    /// Opening trainer: end the lesson; the board shows the game again.
    EndLesson,
}

/// Everything a person can ask the app to do; menus, buttons, shortcuts and tests all go
/// through `App::apply`.
/// Where the practice window collects the mistakes from, whose, and how large.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectFrom {
    pub source: PracticeSource,
    /// The game on the board: the side whose moves are collected.
    pub side: Color,
    /// A folder or the database: part of the player's name.
    pub name: String,
    pub folder: String,
    /// The discs a move must have lost to become a card.
    pub min_loss: i32,
}

/// Where the mistakes are collected from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PracticeSource {
    #[default]
    ThisGame,
    Folder,
    Database,
}

/// The opening trainer's lesson: the opening, the player's colour, how Okapi draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonChoice {
    /// One of the named openings; `None`: the line on the board.
    pub opening: Option<String>,
    pub player: Color,
    pub weighting: okapi_core::practice::openings::Weighting,
}

impl Default for CollectFrom {
    fn default() -> Self {
        CollectFrom {
            source: PracticeSource::default(),
            side: Color::Black,
            name: String::new(),
            folder: String::new(),
            min_loss: okapi_core::practice::DEFAULT_MIN_LOSS,
        }
    }
}

impl Default for LessonChoice {
    fn default() -> Self {
        LessonChoice {
            opening: None,
            player: Color::White,
            weighting: Default::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play(Square),
    Undo,
    Redo,
    First,
    Last,
    GoTo(usize),
    ShowNewGame,
    /// A new game; `minutes` per side on the clock, 0 for no clock.
    /// One ply back or forward along the current line (review: the engine does not move).
    StepBack,
    StepForward,
    /// Switches the current line at a ply to the variation starting with this move.
    ChooseVariation(usize, okapi_core::board::Move),
    /// Makes the current line the main line.
    PromoteLine,
    /// The next move played, when new at its place, goes after the moves recorded there
    /// (a variation) instead of becoming the main line; again to take it back.
    NextMoveAsVariation,
    /// Deletes the move at this ply of the current line and everything after it.
    DeleteVariation(usize),
    /// A new game: who plays each colour, minutes per side (0: no clock), and whether
    /// it starts from the position on the board rather than the standard opening.
    NewGame {
        black: Seat,
        white: Seat,
        minutes: u32,
        from_here: bool,
    },
    Open,
    OpenPath(PathBuf),
    /// "Save" to the unsaved-changes question: the game is saved in full, then this
    /// command goes on.
    SaveThen(Box<Command>),
    /// "Discard" to the unsaved-changes question: this command goes on unasked.
    DiscardThen(Box<Command>),
    /// After a one-line save: every line saved as Okapi JSON at `json` (asked where when
    /// a file of that name is there), then what waited for the save.
    SaveEveryLine {
        json: PathBuf,
        then: Option<Box<Command>>,
    },
    /// After a one-line save of `path`: the line is enough, the game counts as saved;
    /// then what waited for the save.
    KeepOneLine {
        path: PathBuf,
        then: Option<Box<Command>>,
    },
    /// Opens a game of the games database (a click in the Database tab), already placed
    /// at the position on the board; the notice names its players and tournament.
    OpenDatabaseGame {
        game: Box<okapi_core::game::Game>,
        notice: String,
    },
    Save,
    SaveAs,
    SaveTo(PathBuf),
    /// Saves at `path` (typed where no save dialog could be shown), then what waited for
    /// the save.
    SaveToThen {
        path: PathBuf,
        then: Box<Command>,
    },
    Solve(SolveMode),
    Stop,
    /// Plays the first move of the proven line.
    PlayBest,
    FlipView,
    /// Starts editing a position (board set-up).
    EnterSetup,
    /// Set-up: cycles a square empty, black, white.
    SetupSquare(Square),
    SetupSide(Color),
    SetupClear,
    SetupStandard,
    /// Set-up: starts a game from the edited position.
    SetupDone,
    SetupCancel,
    /// Copies the moves as a transcript to the clipboard.
    CopyTranscript,
    /// Copies the position as a board string (64 squares and the side to move).
    CopyBoard,
    /// Copies the game as GGF (the current line).
    CopyGgf,
    /// Copies the game as Okapi JSON (the whole tree).
    CopyJson,
    /// Edit › Paste: asks the system for the clipboard's text, which arrives as a
    /// [`Command::Paste`] next frame.
    PasteClipboard,
    /// Copies this text (a proven line) to the clipboard.
    CopyText(String),
    /// A message for the status line (what a click did not do, and why).
    Notice(String),
    /// Takes a pasted transcript, GGF or JSON game, or board string.
    Paste(String),
    /// Set-up: the board string typed or pasted in the set-up field.
    SetupText(String),
    /// The settings window.
    ShowSettings,
    /// Help › About Okapi.
    ShowAbout,
    /// File › Show the script: the script panel's tab, its window open again.
    ShowScript,
    /// The error in the status bar read and put away.
    DismissError,
    /// A tab of the side panel clicked: it shows from the next frame.
    ShowSideTab(SideTab),
    /// The Database tab's "Try again": the games database is read again after a failure.
    RetryDatabase,
    /// Database › Your folders › Choose…: a folder of games from the system's dialog.
    ChooseDbFolder,
    /// A folder of games for the database (refused, with a message, if it is not one).
    AddDbFolder(PathBuf),
    /// Help › First steps.
    ShowFirstSteps,
    /// Panics in the engine thread, to show the error path works (Help menu).
    CrashEngine,
    /// Values every move played against the best move.
    AnalyseGame,
    /// Values the legal moves once, even when values are turned off.
    Hint,
    /// Asks the engine again about the position on the board (its move, or the values
    /// of the legal moves) after a setting that changes the answer.
    AnalyseAgain,
    /// Changes one setting (every settings widget goes through this).
    Set(crate::settings::Setting),
    /// In a game against the engine: shows or hides the values of the person's own
    /// moves (practice), remembered in the settings.
    ToggleMyValues,
    /// The engine player to move plays now (after a Stop, or from a position reached
    /// by going back in the game, whose later moves it then replaces).
    EngineMove,
    /// Asks for an endgame script (scrZebra or OBF) and opens it in the script window.
    OpenScript,
    OpenScriptPath(PathBuf),
    /// Script window: exact or WLD, with or without lines (clears the results).
    ScriptOptions {
        mode: SolveMode,
        lines: bool,
    },
    /// Solves every position of the open script in the background.
    SolveScript,
    StopScript,
    /// Shows the script's position (by index) on the board, with its line if solved.
    ShowScriptPosition(usize),
    /// Asks where to save the script's results, then saves them.
    SaveScriptResult,
    SaveScriptResultTo(PathBuf),
    CloseScript,
    /// The script tab's Hide: the script stays open, its tab goes (File › Show the script
    /// brings it back).
    HideScript,
    /// The script tab's "with lines": shows the proven lines or not (they are always
    /// proven, so the results stay, unlike [`Command::ScriptOptions`]).
    ScriptLinesShown(bool),
    /// Help > Keyboard shortcuts.
    ShowShortcuts,
    /// Game › Practise your mistakes: the practice window.
    ShowPractice,
    /// Closes the practice window: its round and collection end, its engine goes.
    ClosePractice,
    /// Practice: the move clicked in the position shown.
    PracticeAnswer(Square),
    /// A button of the practice window.
    Practice(PracticeStep),
    /// Closes the app (after asking, when the game has unsaved changes).
    Quit,
    /// Solves this position, after a warning with an estimate when it will take long.
    SolveAfterWarning(SolveMode),
}

impl Command {
    /// The command that does the job of the dialog `kind` with the path picked or typed in.
    pub(crate) fn picked(kind: DialogKind, path: PathBuf) -> Command {
        match kind {
            DialogKind::OpenGame => Command::OpenPath(path),
            DialogKind::SaveGame => Command::SaveTo(path),
            DialogKind::OpenScript => Command::OpenScriptPath(path),
            DialogKind::SaveScriptResult => Command::SaveScriptResultTo(path),
        }
    }

    /// The shortcut of the common actions.
    pub(super) fn shortcut(&self) -> Option<egui::KeyboardShortcut> {
        use egui::{Key, KeyboardShortcut as K, Modifiers as M};
        Some(match self {
            Command::Undo => K::new(M::COMMAND, Key::Z),
            Command::Redo => K::new(M::COMMAND, Key::Y),
            Command::ShowNewGame => K::new(M::COMMAND, Key::N),
            Command::Open => K::new(M::COMMAND, Key::O),
            Command::Save => K::new(M::COMMAND, Key::S),
            Command::Solve(SolveMode::Exact) => K::new(M::COMMAND, Key::E),
            Command::Solve(SolveMode::Wld) => K::new(M::COMMAND, Key::W),
            Command::Stop => K::new(M::NONE, Key::Escape),
            Command::First => K::new(M::NONE, Key::Home),
            Command::StepBack => K::new(M::NONE, Key::ArrowLeft),
            Command::StepForward => K::new(M::NONE, Key::ArrowRight),
            Command::Last => K::new(M::NONE, Key::End),
            Command::OpenScript => K::new(M::COMMAND | M::SHIFT, Key::O),
            Command::FlipView => K::new(M::COMMAND, Key::F),
            Command::Hint => K::new(M::COMMAND, Key::H),
            Command::ToggleMyValues => K::new(M::COMMAND | M::SHIFT, Key::H),
            // Ctrl+C is the text fields' copy; the game's copies take Shift.
            Command::CopyTranscript => K::new(M::COMMAND | M::SHIFT, Key::C),
            Command::CopyBoard => K::new(M::COMMAND | M::SHIFT, Key::B),
            Command::PasteClipboard => K::new(M::COMMAND, Key::V),
            Command::ShowSettings => K::new(M::COMMAND, Key::Comma),
            Command::ShowFirstSteps => K::new(M::NONE, Key::F1),
            Command::NextMoveAsVariation => K::new(M::COMMAND | M::SHIFT, Key::A),
            Command::Quit => K::new(M::COMMAND, Key::Q),
            _ => return None,
        })
    }

    /// What a command does, for the shortcut list.
    pub(super) fn description(&self) -> &'static str {
        match self {
            Command::Undo => "Undo (your move and the engine's reply)",
            Command::Redo => "Redo",
            Command::ShowNewGame => "New game",
            Command::Open => "Open a game",
            Command::OpenScript => "Open an endgame script",
            Command::Save => "Save the game",
            Command::Solve(SolveMode::Exact) => "Solve exactly",
            Command::Solve(SolveMode::Wld) => "Solve win/draw/loss",
            Command::Stop => "Stop the engine",
            Command::First => "First position",
            Command::StepBack => "One move back (review)",
            Command::StepForward => "One move forward (review)",
            Command::Last => "Last position",
            Command::FlipView => "Flip the board",
            Command::Hint => "Hint: value the moves once",
            Command::ToggleMyValues => "Show or hide your own move values in a game against Okapi",
            Command::CopyTranscript => "Copy the moves as a transcript",
            Command::CopyBoard => "Copy the position as a board string",
            Command::PasteClipboard => "Paste a transcript, board string, GGF or Okapi JSON game",
            Command::ShowSettings => "Settings",
            Command::ShowFirstSteps => "First steps (help)",
            Command::NextMoveAsVariation => {
                "Add the next move as a variation (the main line stays)"
            }
            Command::Quit => "Quit",
            _ => "",
        }
    }

    /// Every command with a shortcut, in the order the keys are matched. Ctrl+V is listed
    /// for the shortcut list but never matched as a key: the platform turns it into a
    /// paste event with the clipboard's text ([`Command::Paste`]).
    pub(super) const WITH_SHORTCUTS: [Command; 23] = [
        // Longer combinations first: Ctrl+Shift+O must not be taken as Ctrl+O.
        Command::OpenScript,
        Command::ToggleMyValues,
        Command::NextMoveAsVariation,
        Command::CopyTranscript,
        Command::CopyBoard,
        Command::Quit,
        Command::PasteClipboard,
        Command::ShowSettings,
        Command::ShowFirstSteps,
        Command::FlipView,
        Command::Hint,
        Command::Undo,
        Command::Redo,
        Command::ShowNewGame,
        Command::Open,
        Command::Save,
        Command::Solve(SolveMode::Exact),
        Command::Solve(SolveMode::Wld),
        Command::Stop,
        Command::First,
        Command::Last,
        Command::StepBack,
        Command::StepForward,
    ];
}

/// The tabs of the side panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SideTab {
    /// The game, the engine, the solve, the moves.
    #[default]
    Game,
    /// The games database for the position on the board.
    Database,
    /// The open endgame script (a tab while a script is open and not hidden).
    Script,
}

impl SideTab {
    /// The tab's title, also its accessible name.
    pub(crate) fn title(self) -> &'static str {
        match self {
            // Not "Game": the menu of that name has it.
            SideTab::Game => "Play",
            SideTab::Database => "Database",
            SideTab::Script => "Script",
        }
    }
}
