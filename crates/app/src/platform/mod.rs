//! Where the app differs between the desktop and the browser, in one place: the rest of
//! the app calls these functions and never asks which it runs on.
//!
//! | what | the desktop (`native.rs`) | the browser (`web.rs`) |
//! | --- | --- | --- |
//! | the engines ([`spawn_engine`]) and background jobs ([`spawn_task`]) | threads | a Web Worker; jobs run at once |
//! | the machine ([`machine`]) | cores and memory | the page's cores, a fixed memory cap |
//! | the settings, the game in progress, practice ([`data_paths`], [`read_file`], [`write_file`]...) | files in the platform's folders | `localStorage`, keyed by those paths |
//! | files the player opens and saves ([`NativeDialogs`], [`load_game`], [`save_game`]) | the system's dialogs, files | `<input type=file>`, a download |
//! | the shipped games database ([`shipped_database`]) | compiled in | downloaded when first used |
//! | the clipboard ([`copy_text`], [`request_paste`]) | egui's | the page's (paste by the keyboard only) |
//! | folders of games ([`CAN_PICK_FOLDER`]) | the system's dialog, the files in them | none: no practice or database source from a folder |
//! | quitting, the window's place and size ([`CAN_QUIT`], [`close_window`], [`place_window`]) | the window's | none: the page is the window |
//! | starting ([`run_window`], [`show_failure`]) | a window, the first renderer that draws | a canvas in the page (`start_in_canvas`) |
//! | the clock ([`Instant`]) | std's | `performance.now()` |
//!
//! Both backends have the same functions with the same signatures; the only
//! `cfg(target_arch = "wasm32")` of the app are the four lines below that pick one.

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::*;
#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
pub use web::*;

/// The app's icon (`assets/okapi.png`, 256x256): the window's icon and the one
/// `okapi install-desktop` puts beside the desktop entry.
pub const ICON_PNG: &[u8] = include_bytes!("../../../../assets/okapi.png");

/// The clock of frames, animations and timings: std's `Instant` on the desktop (the
/// same type), `performance.now()` in the browser, where std's panics.
pub use web_time::Instant;
