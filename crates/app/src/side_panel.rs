//! The side panel, a part: one dock beside the board, with tabs. "Play": the game, the
//! solve, the moves, the engine's settings and the move values ([`crate::play_tab`]);
//! "Database": the games database for the position on the board
//! ([`crate::database_tab`]); "Script": the open endgame script, while there is one
//! ([`crate::script_tab`]).
//!
//! Its place and the board's follow from the window's size alone ([`layout`]): on a
//! desktop it is right of the board and takes the width the board leaves; in a narrow
//! window (a phone held upright) the board takes the whole width and the panel goes
//! under it. The board keeps its size and place whichever tab shows; a tab's contents
//! scroll.

use crate::command::Command;
use crate::command::SideTab;
use crate::database_tab::DatabaseTab;
use crate::part::{Commands, FrameView, Part};
use crate::play_tab::{PlayTab, solved_section};
use crate::script_tab::ScriptTab;
use eframe::egui;

/// The side area is never narrower than this: the move list's three columns, the solve
/// buttons and the script's results fit (measured at 800x600: 300 px shows them whole).
pub(crate) const MIN_SIDE_WIDTH: f32 = 300.0;

/// A window narrower than this is narrow (a phone held upright): the board takes the
/// whole width, the side panel goes under it. The desktop's windows are wider.
pub(crate) const NARROW_WIDTH: f32 = 600.0;

/// In a narrow window the side panel under the board is at least this tall: its tabs
/// and the game's buttons show; the rest scrolls.
const MIN_SIDE_HEIGHT: f32 = 200.0;

/// Where the board and the side panel go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Layout {
    /// The board's area (the board is the largest square in it, at its top).
    pub(crate) board: egui::Rect,
    /// The side panel's.
    pub(crate) side: egui::Rect,
}

/// The board's and the side panel's places in `area` (the window less the menu and
/// status bars), the graph taking `graph` points under the board. Wide: the board is as
/// large as the height allows, leaving the side its least width, and the side takes the
/// rest of the width over the whole height. Narrow: the board takes the whole width (or
/// what leaves the side panel its least height), the graph goes under it, the side panel
/// under the graph.
pub(crate) fn layout(area: egui::Rect, graph: f32) -> Layout {
    if area.width() < NARROW_WIDTH {
        let side = area
            .width()
            .min(area.height() - graph - MIN_SIDE_HEIGHT)
            .max(160.0);
        let board = egui::Rect::from_min_size(area.min, egui::vec2(area.width(), side));
        let top = (board.bottom() + graph).min(area.bottom());
        let side = egui::Rect::from_min_max(egui::pos2(area.left(), top), area.max);
        return Layout { board, side };
    }
    let board = board_side(egui::vec2(area.width(), area.height() - graph));
    let width = (area.width() - board).max(MIN_SIDE_WIDTH.min(area.width()));
    Layout {
        board: egui::Rect::from_min_size(
            area.min,
            egui::vec2(area.width() - width, area.height() - graph),
        ),
        side: egui::Rect::from_min_max(egui::pos2(area.right() - width, area.top()), area.max),
    }
}

/// The board's outer side for a central area of `avail` (the window less the menu, status
/// and graph bars): the height, leaving the side area at least [`MIN_SIDE_WIDTH`].
pub(crate) fn board_side(avail: egui::Vec2) -> f32 {
    avail.y.min(avail.x - MIN_SIDE_WIDTH).max(160.0)
}

/// The side panel: its tabs, each a part owning its own state.
#[derive(Default)]
pub(crate) struct SidePanel {
    /// The game, the solve, the moves, the engine's settings, the move values.
    pub(crate) play: PlayTab,
    /// The games database.
    database: DatabaseTab,
    /// The open endgame script.
    script: ScriptTab,
}

impl Part for SidePanel {
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        let Some(area) = view.side_area else {
            return;
        };
        let script_shown = view.script.is_some_and(|j| j.open);
        let tab = match view.side_tab {
            // The script was hidden or closed: its tab goes, the game's shows.
            SideTab::Script if !script_shown => {
                commands.push(Command::ShowSideTab(SideTab::Game));
                SideTab::Game
            }
            tab => tab,
        };
        // One id for each place: a panel keeps its size under its id.
        let panel = if view.side_under_board() {
            egui::Panel::bottom("side-under-board").exact_size(area.height())
        } else {
            egui::Panel::right("side").exact_size(area.width())
        };
        panel.resizable(false).show(ui, |ui| {
            ui.horizontal(|ui| {
                let mut tabs = vec![SideTab::Game, SideTab::Database];
                if script_shown {
                    tabs.push(SideTab::Script);
                }
                for t in tabs {
                    if ui.selectable_label(tab == t, t.title()).clicked() && tab != t {
                        commands.push(Command::ShowSideTab(t));
                    }
                }
            });
            ui.separator();
            match tab {
                SideTab::Game => self.play.show(ui, view, commands),
                SideTab::Database => self.database.show(ui, view, commands),
                SideTab::Script => {
                    // The board's proven result and line above the list: a clicked
                    // position shows its line here, beside the script.
                    solved_section(ui, view, commands, view.game().position());
                    ui.separator();
                    self.script.show(ui, view, commands);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(w: f32, h: f32) -> egui::Rect {
        egui::Rect::from_min_size(egui::pos2(0.0, 24.0), egui::vec2(w, h))
    }

    /// A desktop window: the side panel right of the board, over the whole height; the
    /// board as tall as the area less the graph.
    #[test]
    fn a_wide_window_has_the_side_panel_beside_the_board() {
        let l = layout(area(1000.0, 650.0), 120.0);
        assert_eq!(l.board.height(), 530.0);
        assert_eq!(l.side.height(), 650.0);
        assert_eq!(l.board.right(), l.side.left());
        assert_eq!(l.side.width(), 1000.0 - 530.0);
        // A wide, short window: the side keeps its least width.
        let l = layout(area(700.0, 650.0), 120.0);
        assert_eq!(l.side.width(), MIN_SIDE_WIDTH);
    }

    /// A phone held upright: the board over the whole width, the side panel under the
    /// graph under the board, to the bottom.
    #[test]
    fn a_narrow_window_has_the_side_panel_under_the_board() {
        let l = layout(area(390.0, 790.0), 136.0);
        assert_eq!(l.board.width(), 390.0);
        assert_eq!(l.board.height(), 390.0);
        assert_eq!(l.side.top(), l.board.bottom() + 136.0);
        assert_eq!(l.side.bottom(), 24.0 + 790.0);
        assert_eq!(l.side.width(), 390.0);
        // Short as well: the board leaves the side panel its least height.
        let l = layout(area(390.0, 600.0), 104.0);
        assert_eq!(l.side.height(), MIN_SIDE_HEIGHT);
    }
}
