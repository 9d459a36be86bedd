//! The app's parts, each owning its own state.

use crate::board_panel::BoardPanel;
use crate::graph::Graph;
use crate::menu_bar::MenuBar;
use crate::side_panel::SidePanel;
use crate::status_bar::StatusBar;
use crate::windows::Windows;

/// Every part of the app, lent beside the [`FrameView`](crate::part::FrameView) so a part
/// draws while the game is borrowed.
#[derive(Default)]
pub(crate) struct Parts {
    /// The windows (one file each) and the questions.
    pub(crate) windows: Windows,
    /// The board in the central panel.
    pub(crate) board: BoardPanel,
    /// The evaluation graph and the loss chart under the board.
    pub(crate) graph: Graph,
    /// The side panel and its tabs (the move list and the game analysis' summary, the
    /// games database, the open script).
    pub(crate) side_panel: SidePanel,
    /// The message line and the engine's state at the bottom.
    pub(crate) status_bar: StatusBar,
    /// File, Edit, Game, Engine, View, Help.
    pub(crate) menu_bar: MenuBar,
}
