//! The app's parts, each owning its own state: the windows so far (the panels draw from
//! the app's state through `impl App` until each has its part).

use crate::board_panel::BoardPanel;
use crate::graph::Graph;
use crate::menu_bar::MenuBar;
use crate::move_list::MoveList;
use crate::script_tab::ScriptTab;
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
    /// The move list and the game analysis' summary in the side panel.
    pub(crate) move_list: MoveList,
    /// The message line and the engine's state at the bottom.
    pub(crate) status_bar: StatusBar,
    /// File, Edit, Game, Engine, View, Help.
    pub(crate) menu_bar: MenuBar,
    /// The open endgame script, in its tab of the side panel.
    pub(crate) script_tab: ScriptTab,
}
