//! What the view shows besides the game: the open menu, the side panel's tab, the windows
//! open and their forms, a board being set up, the questions waiting for an answer.

use crate::command::Command;
use crate::dialogs::PathPrompt;
use crate::platform::Instant;
use crate::settings::WindowGeometry;
use eframe::egui;
use okapi_core::board::Position;
use okapi_core::formats::Format;
use okapi_core::game::Seat;
use okapi_core::level::Level;
use okapi_core::search::SolveMode;
use std::path::PathBuf;

/// What the view shows besides the game.
#[derive(Default)]
pub(crate) struct ViewState {
    /// The graph panel's height as drawn last frame (the player may drag it): the board
    /// beside the side panel is sized to the height above it.
    pub(crate) graph_height: Option<f32>,
    /// The menu of the bar open last frame (an index of `menu_bar::MENUS`).
    pub(crate) open_menu: Option<usize>,
    /// A menu key taken this frame, for the menu bar to act on.
    pub(crate) menu_key: Option<MenuKey>,
    /// A menu opened from the keyboard: its first item takes the focus.
    pub(crate) focus_first_item: bool,
    /// The window is still to be fitted to its screen (the real window's first frames).
    pub(crate) fit_window: bool,
    /// The discs turned by the last move and when, for the flip animation.
    pub(crate) flip_animation: Option<(u64, Instant)>,
    /// Board set-up in progress: the position being edited.
    pub(crate) setup: Option<Position>,
    /// The new game window, while open.
    pub(crate) new_game: Option<NewGameForm>,
    pub(crate) about: bool,
    pub(crate) shortcuts: bool,
    pub(crate) settings_window: bool,
    pub(crate) first_steps: bool,
    /// Set-up: the board string field's text, and what is wrong with it.
    pub(crate) setup_text: String,
    pub(crate) setup_text_error: Option<String>,
    /// The ply the move list last scrolled to (it scrolls only when the ply changes, so
    /// the wheel can move it).
    pub(crate) move_list_scrolled: Option<usize>,
    /// The move list's rows shown whole on screen last frame (first, last), for tests.
    pub(crate) move_list_rows: Option<(usize, usize)>,
    /// The window's size and place, and since when unchanged (saved once it settles).
    pub(crate) window_seen: Option<(WindowGeometry, Instant)>,
    /// A long solve asked for, waiting for "Solve anyway".
    pub(crate) confirm_solve: Option<SolveMode>,
    /// The in-app path field, when the system's file dialog did not work.
    pub(crate) path_prompt: Option<PathPrompt>,
    /// Which tab of the side panel shows.
    pub(crate) side_tab: SideTab,
    /// Where the board goes: the window less the bars and the side area, set by the side
    /// panel each frame from the window's size alone.
    pub(crate) board_area: Option<egui::Rect>,
    /// A command that would replace a game with unsaved changes, waiting for Save,
    /// Discard or Cancel.
    pub(crate) unsaved_prompt: Option<Command>,
    /// "Discard" was answered: the next game-replacing command goes ahead.
    pub(crate) discard_confirmed: bool,
    /// "Save" was answered: this command runs once the game is saved.
    pub(crate) after_save: Option<Command>,
    /// A one-line save (GGF, a transcript) left other lines out: what to do with them.
    pub(crate) one_line_saved: Option<OneLineSaved>,
    /// The next move played is added as a variation (Game › Add next move as variation).
    pub(crate) next_as_variation: bool,
    /// Closing was asked for and may go ahead (nothing unsaved, or an answer given).
    pub(crate) close_now: bool,
    /// The input time of the first frame that showed the engine's last move: a click
    /// pressed before it was aimed at the board before that move (a book reply comes
    /// between two quick clicks) and is not played.
    pub(crate) position_shown_at: Option<f64>,
    /// The input time of the frame in which the last pointer press began.
    pub(crate) last_press_at: Option<f64>,
}

/// What a key does to the menu bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MenuKey {
    /// Open the menu at this index of [`MENUS`] (closing any other).
    Open(usize),
    /// Close the open menu.
    Close,
}

/// The tabs of the side panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum SideTab {
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

/// What the new game window holds while open.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct NewGameForm {
    /// Whether Okapi plays each colour (Black, White), and at which level.
    pub engine: [bool; 2],
    pub levels: [Level; 2],
    pub minutes: u32,
    /// Start from the position on the board rather than the standard opening.
    pub from_here: bool,
}

impl NewGameForm {
    /// The form for the game on the board: its seats (engine seats at their levels, the
    /// app's level otherwise), the last clock.
    pub(crate) fn for_seats(seats: [Seat; 2], default_level: Level, minutes: u32) -> NewGameForm {
        let level = |s: Seat| match s {
            Seat::Engine(l) => l,
            Seat::Human => default_level,
        };
        NewGameForm {
            engine: seats.map(|s| s.is_engine()),
            levels: seats.map(level),
            minutes,
            from_here: false,
        }
    }

    pub(crate) fn seats(&self) -> [Seat; 2] {
        [0, 1].map(|i| {
            if self.engine[i] {
                Seat::Engine(self.levels[i])
            } else {
                Seat::Human
            }
        })
    }
}

/// A one-line save that left moves out, waiting for the player's answer.
#[derive(Clone, Debug)]
pub(crate) struct OneLineSaved {
    /// The file written.
    pub path: PathBuf,
    pub format: Format,
    /// Moves of the game in no file.
    pub left_out: usize,
    /// What waited for the save (a new game after "Save" in the unsaved-changes
    /// question): it goes on once the other lines are saved or let go.
    pub then: Option<Command>,
}

impl OneLineSaved {
    /// Where every line would go: the same name as Okapi JSON.
    pub(crate) fn json_path(&self) -> PathBuf {
        self.path.with_extension("json")
    }
}
