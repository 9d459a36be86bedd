//! The desktop app: egui views over a game [`Session`](okapi_core::game::Session) and the
//! engines.
//!
//! The app holds no game logic: widgets push [`Command`]s, which are applied once per
//! frame after drawing (the session decides every rule); engine events are polled each
//! frame with `try_recv`, never waited for, and the engines wake the UI through
//! `request_repaint`.
//!
//! # The app's parts
//!
//! The state, below the parts that draw it (they import it; it imports none of them):
//!
//! | state | file |
//! | --- | --- |
//! | [`App`]: the game, its values, the engines, the settings, the view; its frame | `app.rs` |
//! | every change a click makes ([`Command`]) | `command.rs` |
//! | the engines under one budget, and what they report | `engine_hub.rs` |
//! | the best known value of each move, which every view reads | `known_values.rs` |
//! | what the view shows besides the game (the side panel's tab, where the board and the side panel go, the set-up's text), the practice round | `view.rs`, `practice_state.rs` |
//! | the settings kept between runs | `settings/` |
//! | endgame scripts, the games database | `script/`, `database_panel/` |
//! | what differs in the browser: threads, files, storage, clipboard, quitting, the window, its icon, portable mode | `platform/` |
//! | file dialogs behind a trait (the platform's own, or scripted in tests) | `dialogs.rs` |
//!
//! At the bottom, what everything names: `dialogs.rs` (no import of the app's), then
//! `platform/` (files, threads, the system's dialogs), `settings/` (read and written
//! through the platform) and `command.rs` (a command may carry a setting or a picked
//! path). Nothing below imports what stands above it.
//!
//! The parts, in the style of egui's demo: each owns its own state, reads the game through
//! a read-only `FrameView` and pushes commands (`part.rs`: the `Part` trait of the panels,
//! the `Window` trait of the windows; `parts.rs`: `Parts`, lent beside the view by
//! `App::split`):
//!
//! | part | owns | files |
//! | --- | --- | --- |
//! | the board | the flip animation, when its position showed, the last press | `board_panel.rs` (drawn by `board_view.rs`) |
//! | the menu bar | the open menu, the menu keys | `menu_bar.rs` |
//! | the status bar | nothing | `status_bar.rs` |
//! | the graph under the board, and the loss chart beside it | its height | `graph/` (the plot's frame in `graph/frame.rs`) |
//! | the side panel beside the board (under it in a narrow window), its tabs, and where it and the board go | its tabs' parts (the tab shown is the view's: commands switch it) | `side_panel.rs` |
//! | its Play tab: the game, the solve, the moves, the folding engine settings and move values | the folds' height | `play_tab.rs` (the players in `players.rs`, the set-up in `setup_tab.rs`) |
//! | the move list and the analysis' summary, in the Play tab | its scroll, its rows shown, the room under it | `move_list/` |
//! | the games database, in its tab | its filters, its sorting, its folder field, its last answer (the database is the app's) | `database_tab.rs` |
//! | the open endgame script, in its tab | nothing (the script is the app's) | `script_tab.rs` |
//! | the windows, one file each (new game, settings, help, questions...) | their fields; the list the menus open | `windows/` |
//! | the practice window: its two tabs, the round's card, the opening lesson | the tab shown, the collection's and the lesson's forms | `windows/practice/` (its cards, round and lesson in `practice_state.rs`) |
//!
//! The settings' widgets every part draws (`settings_widgets.rs`, the level picker in
//! `level_picker.rs`) push a command for each change. No part is drawn by `impl App`.
//!
//! And what acts: the commands applied once per frame (`command_handling/`: files,
//! clipboard and views in `mod.rs`, moving through the game in `navigation.rs`, the
//! board's engine in `engine_commands.rs`, set-up in `setup.rs`, scripts in
//! `script_commands.rs`, the games database read and its folders in `database.rs`, the
//! practice window's file, engine and background work in `practice_commands.rs`, its
//! round, collection and lessons in `practice_round.rs`, `practice_collect.rs` and
//! `practice_lesson.rs`), the game's
//! moves (`session_actions.rs`), the engines' requests and events (`engine_events.rs`),
//! starting the window (`start.rs`), fitting it to its screen (`screen.rs`), the
//! responsiveness figures (`metrics.rs`). The colours of both themes, readable on each,
//! are in `theme.rs`.

mod app;
mod board_panel;
mod board_view;
mod command;
mod command_handling;
pub mod database_panel;
mod database_tab;
pub mod dialogs;
mod engine_events;
mod engine_hub;
mod graph;
mod known_values;
mod level_picker;
mod menu_bar;
mod metrics;
mod move_list;
mod part;
mod parts;
mod paste_keys;
pub mod platform;
mod play_tab;
mod players;
mod practice_state;
pub mod screen;
pub mod script;
mod script_tab;
mod session_actions;
pub mod settings;
mod settings_widgets;
mod setup_tab;
mod side_panel;
mod start;
mod status_bar;
mod theme;
mod view;
mod windows;

pub use app::App;
pub use command::{CollectFrom, Command, LessonChoice, PracticeSource, PracticeStep};
pub use dialogs::{FileDialogs, ScriptedDialogs};
pub use metrics::Metrics;
pub use platform::{ICON_PNG, NativeDialogs};
pub use script::{RowResult, ScriptJob, ScriptRow};
pub use settings::{EvalsFor, MIN_WINDOW, Settings};
pub use start::{
    FAILURE_LOG, app_creator, missing_display, report_start_failure, run, viewport, window_failure,
};
