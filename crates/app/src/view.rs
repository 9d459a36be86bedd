//! What the view shows besides the game: the open menu, the side panel's tab, the windows
//! open and their forms, a board being set up, the questions waiting for an answer.

use crate::command::{Command, SideTab};
use crate::platform::Instant;
use crate::settings::WindowGeometry;
use eframe::egui;
use okapi_core::board::Position;

/// What the view shows besides the game.
#[derive(Default)]
pub(crate) struct ViewState {
    /// The window is still to be fitted to its screen (the real window's first frames).
    pub(crate) fit_window: bool,
    /// Both themes' colours made readable ([`crate::theme::readable`]: once, the context
    /// keeps them).
    pub(crate) readable: bool,
    /// Board set-up in progress: the position being edited.
    pub(crate) setup: Option<Position>,
    /// Set-up: the board string field's text, and what is wrong with it.
    pub(crate) setup_text: String,
    pub(crate) setup_text_error: Option<String>,
    /// The window's size and place, and since when unchanged (saved once it settles).
    pub(crate) window_seen: Option<(WindowGeometry, Instant)>,
    /// Which tab of the side panel shows.
    pub(crate) side_tab: SideTab,
    /// Where the board goes: the window less the bars, the graph and the side area, set
    /// each frame from the window's size alone ([`crate::side_panel::layout`]).
    pub(crate) board_area: Option<egui::Rect>,
    /// Where the side panel goes: beside the board, or under it in a narrow window.
    pub(crate) side_area: Option<egui::Rect>,
    /// "Discard" was answered: the next game-replacing command goes ahead.
    pub(crate) discard_confirmed: bool,
    /// "Save" was answered: this command runs once the game is saved.
    pub(crate) after_save: Option<Command>,
    /// The next move played is added as a variation (Game › Add next move as variation).
    pub(crate) next_as_variation: bool,
    /// Closing was asked for and may go ahead (nothing unsaved, or an answer given).
    pub(crate) close_now: bool,
}

/// What a key does to the menu bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MenuKey {
    /// Open the menu at this index of [`MENUS`] (closing any other).
    Open(usize),
    /// Close the open menu.
    Close,
}
