//! The desktop app: egui views over a game [`Session`] and the engine thread.
//!
//! The app holds no game logic: widgets push [`Command`]s, which are applied once per
//! frame after drawing (the session decides every rule); engine [`Event`](okapi_engine::Event)s are polled
//! each frame with `try_recv`, never waited for, and the engine wakes the UI through
//! `request_repaint`.

mod board_view;
mod command;
mod command_handling;
pub mod database_panel;
pub mod dialogs;
mod engine_events;
mod graph;
mod known_values;
mod level_picker;
mod menu_bar;
mod metrics;
mod move_list;
mod players;
pub mod screen;
pub mod script;
mod session_actions;
pub mod settings;
mod settings_widgets;
mod side_panel;
mod status_bar;
mod windows;

use board_view::{BoardClick, BoardView, board_ui};
pub use command::Command;
pub use dialogs::{FileDialogs, NativeDialogs, ScriptedDialogs};
use eframe::egui;
use engine_events::{EngineLines, EngineLink, PlyAnalysis, Task};
pub use metrics::Metrics;
use okapi_core::board::{Position, Square};
use okapi_core::game::{Eval, Game, Seat, Session};
use okapi_engine::Engine;
pub use script::{RowResult, ScriptJob, ScriptRow};
use session_actions::SolveStats;
pub use settings::{EvalsFor, Settings};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Opens the app window, optionally with a game file; returns when it closes.
pub fn run(open: Option<PathBuf>) -> anyhow::Result<()> {
    if let Some(problem) = missing_display(|name| std::env::var_os(name)) {
        anyhow::bail!("{problem}");
    }
    // The window comes back where and as large as it was ([`Settings::window`]).
    let saved = Settings::paths().map(|(settings, _)| Settings::load(&settings));
    let mut viewport = viewport(saved.as_ref().and_then(|s| s.window));
    // The icon is compiled in and checked by a test: a failure here is a bad build, and the
    // window still opens with the system's default icon.
    if let Ok(icon) = eframe::icon_data::from_png_bytes(ICON_PNG) {
        viewport = viewport.with_icon(std::sync::Arc::new(icon));
    }
    let mut failures = Vec::new();
    for (i, &renderer) in RENDERERS.iter().enumerate() {
        let options = eframe::NativeOptions {
            viewport: viewport.clone(),
            renderer,
            ..Default::default()
        };
        match eframe::run_native("Okapi", options, app_creator(open.clone())) {
            Ok(()) => return Ok(()),
            Err(e) => {
                let graphics = is_graphics_failure(&e);
                let said = e.to_string();
                if graphics && i + 1 < RENDERERS.len() {
                    // Logged for whoever looks; the player sees the window of the next.
                    eprintln!(
                        "okapi: {renderer:?} could not draw the window ({said}); trying {:?}",
                        RENDERERS[i + 1]
                    );
                }
                failures.push(said);
                if !graphics {
                    break;
                }
            }
        }
    }
    let last = failures.pop().unwrap_or_default();
    anyhow::bail!("{}", window_failure(&last))
}

/// The ways to draw the window, tried in order until one works. OpenGL (glow) first: it
/// starts fastest and works on nearly every desktop. On Windows, wgpu next, on Direct3D 12
/// (with its software adapter where no graphics driver is: virtual machines, remote
/// desktops) or Vulkan, for machines whose OpenGL driver is missing or broken.
#[cfg(windows)]
const RENDERERS: &[eframe::Renderer] = &[eframe::Renderer::Glow, eframe::Renderer::Wgpu];
#[cfg(not(windows))]
const RENDERERS: &[eframe::Renderer] = &[eframe::Renderer::Glow];

/// Did the window fail for want of a working graphics API (another renderer may do)?
fn is_graphics_failure(e: &eframe::Error) -> bool {
    match e {
        eframe::Error::Glutin(_)
        | eframe::Error::NoGlutinConfigs(..)
        | eframe::Error::OpenGL(_) => true,
        #[cfg(windows)]
        eframe::Error::Wgpu(_) => true,
        _ => false,
    }
}

/// Builds the app once the window is there: opens `open` (a game or a script), else the
/// game in progress of the last run.
fn app_creator(open: Option<PathBuf>) -> eframe::AppCreator<'static> {
    Box::new(move |cc| {
        let ctx = cc.egui_ctx.clone();
        let mut app = App::new(Box::new(NativeDialogs::default()), move || {
            ctx.request_repaint()
        });
        let paths = Settings::paths();
        if let Some((settings_path, _)) = &paths {
            app.use_settings_file(settings_path);
        }
        app.keep_practice_at(
            paths
                .as_ref()
                .map(|(_, game)| game.with_file_name(okapi_core::practice::STORE_FILE)),
        );
        let autosave = paths.map(|(_, game)| game);
        match (open, &autosave) {
            (Some(path), _) if script::is_script_path(&path) => {
                app.apply(Command::OpenScriptPath(path))
            }
            (Some(path), _) => app.apply(Command::OpenPath(path)),
            // The game in progress comes back with its players.
            (None, Some(saved)) if saved.exists() => app.restore_game_in_progress(saved),
            _ => {}
        }
        app.position_changed();
        app.autosave = autosave;
        app.view.fit_window = true;
        Ok(Box::new(app))
    })
}

/// Says why the app did not start: on standard error, and where nobody reads that (a
/// program started from the Start menu or Finder), in a message box too.
pub fn report_start_failure(message: &str) {
    eprintln!("okapi: {message}");
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        rfd::MessageDialog::new()
            .set_level(rfd::MessageLevel::Error)
            .set_title("Okapi could not start")
            .set_description(message)
            .set_buttons(rfd::MessageButtons::Ok)
            .show();
    }
}

/// The app's icon (`assets/okapi.png`, 256x256): the window's icon and the one
/// `okapi install-desktop` puts beside the desktop entry.
pub const ICON_PNG: &[u8] = include_bytes!("../../../assets/okapi.png");

/// How to run the app where no display is, in one line.
const RUN_WITHOUT_DISPLAY: &str = "run Okapi on a desktop, or without one under Xvfb: `Xvfb :99 & DISPLAY=:99 okapi` (the command line needs no display: okapi --help)";

/// What to do when no graphics API can draw the window, in one sentence for the platform.
const NO_GRAPHICS_ADVICE: &str = if cfg!(windows) {
    "neither OpenGL nor Direct3D 12 or Vulkan could draw the window: update the graphics driver (from the maker of the graphics card, or Windows Update); the command line works without them (okapi --help)"
} else if cfg!(target_os = "macos") {
    "OpenGL could not draw the window"
} else {
    "OpenGL could not draw the window: install the Mesa drivers (libgl1-mesa-dri, libegl1), or under Xvfb set LIBGL_ALWAYS_SOFTWARE=1; the command line needs no display (okapi --help)"
};

/// On Linux and the BSDs, a window needs an X11 or Wayland display: without one, the
/// sentence saying so and how to run the app instead of winit's raw error. `var` reads
/// the environment (tests give their own).
pub fn missing_display(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<String> {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return None;
    }
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    (!set("DISPLAY") && !set("WAYLAND_DISPLAY")).then(|| {
        format!("no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set): {RUN_WITHOUT_DISPLAY}")
    })
}

/// The window could not be opened: winit's or the renderer's error, in one plain line;
/// on Linux and the BSDs, about the display (a DISPLAY naming no running server) with how
/// to run the app, and about OpenGL with what to install.
pub fn window_failure(error: &str) -> String {
    let lower = error.to_lowercase();
    let first_line = error.lines().next().unwrap_or("").trim();
    let about_graphics = [
        "glutin", "opengl", "egl", "glx", "wgpu", "adapter", "surface",
    ]
    .iter()
    .any(|w| lower.contains(w));
    if about_graphics {
        return format!("cannot draw the window ({first_line}): {NO_GRAPHICS_ADVICE}");
    }
    let about_display = ["display", "backend", "wayland", "x11", "xopen", "x server"]
        .iter()
        .any(|w| lower.contains(w));
    if about_display && !cfg!(any(target_os = "windows", target_os = "macos")) {
        format!("cannot open the window: no display answers ({first_line}); {RUN_WITHOUT_DISPLAY}")
    } else {
        format!("the app window failed: {first_line}")
    }
}

#[cfg(test)]
mod first_contact_tests {
    use super::*;

    #[test]
    fn without_a_display_one_plain_line_says_how_to_run() {
        let none = |_: &str| None;
        if cfg!(any(target_os = "windows", target_os = "macos")) {
            assert_eq!(missing_display(none), None);
            return;
        }
        let said = missing_display(none).unwrap();
        assert!(said.contains("Xvfb :99 & DISPLAY=:99 okapi"), "{said}");
        assert!(!said.contains('\n'));
        let x11 = |n: &str| (n == "DISPLAY").then(|| ":0".into());
        assert_eq!(missing_display(x11), None);
        let wayland = |n: &str| (n == "WAYLAND_DISPLAY").then(|| "wayland-0".into());
        assert_eq!(missing_display(wayland), None);
        let empty = |n: &str| (n == "DISPLAY").then(|| "".into());
        assert!(missing_display(empty).is_some());
    }

    #[test]
    fn a_display_error_is_one_plain_line() {
        let winit = "winit EventLoopError: os error at src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY nor WAYLAND_SOCKET nor DISPLAY is set.\nmore";
        let said = window_failure(winit);
        if cfg!(any(target_os = "windows", target_os = "macos")) {
            // No X11 or Wayland there: no advice about them.
            assert!(!said.contains("Xvfb") && !said.contains('\n'), "{said}");
            return;
        }
        assert!(
            said.starts_with("cannot open the window: no display answers"),
            "{said}"
        );
        assert!(said.contains("Xvfb"), "{said}");
        assert!(!said.contains('\n'), "{said}");
        let no_server = "winit EventLoopError: os error at src/platform_impl/linux/mod.rs:788: Failed to open connection to X server";
        assert!(
            window_failure(no_server).starts_with("cannot open the window: no display answers")
        );
        assert_eq!(
            window_failure("out of memory"),
            "the app window failed: out of memory"
        );
    }

    #[test]
    fn no_opengl_says_what_is_missing_for_the_platform() {
        let glutin = "Found no glutin configs matching the template: ConfigTemplate { .. }. Error: Error { raw_code: None, raw_os_message: None, kind: NotFound }";
        let said = window_failure(glutin);
        assert!(
            said.starts_with("cannot draw the window (Found no glutin configs"),
            "{said}"
        );
        assert!(!said.contains('\n'));
        if cfg!(windows) {
            assert!(
                said.contains("graphics driver") && !said.contains("Xvfb"),
                "{said}"
            );
        } else if !cfg!(target_os = "macos") {
            assert!(said.contains("LIBGL_ALWAYS_SOFTWARE=1"), "{said}");
        }
    }

    #[test]
    fn the_icon_is_a_square_png() {
        let icon = eframe::icon_data::from_png_bytes(ICON_PNG).unwrap();
        assert_eq!((icon.width, icon.height), (256, 256));
    }
}

/// The main window: the size and place saved last time, else 1000x720 wherever the
/// desktop puts it.
pub fn viewport(saved: Option<settings::WindowGeometry>) -> egui::ViewportBuilder {
    let builder = egui::ViewportBuilder::default()
        .with_title("Okapi")
        .with_app_id("okapi")
        .with_min_inner_size(MIN_WINDOW);
    match saved.filter(|g| g.is_usable()) {
        Some(g) => {
            let builder = builder.with_inner_size([g.width, g.height]);
            match g.position {
                Some([x, y]) => builder.with_position([x, y]),
                None => builder,
            }
        }
        None => builder.with_inner_size([1000.0, 720.0]),
    }
}

/// The smallest window the layout is made for.
pub const MIN_WINDOW: [f32; 2] = [520.0, 400.0];

pub struct App {
    /// The game in progress: the record and its rules.
    pub session: Session,
    /// The board's engine thread and what it is doing for us.
    engine: EngineLink,
    /// The best known value of each move of each position, which every view reads.
    known: known_values::KnownValues,
    /// The position whose values the player asked to see (the live analysis when values
    /// are on, a hint, a solve): the board shows the known values there only.
    values_shown_for: Option<Position>,
    /// The figures of the solve whose proven line the session keeps.
    solve_stats: Option<SolveStats>,
    engine_lines: Option<EngineLines>,
    notice: Option<String>,
    pub error: Option<String>,
    pub settings: Settings,
    /// Where settings are saved when they change, and what was saved last (set by
    /// [`App::use_settings_file`]).
    settings_file: Option<(PathBuf, Settings)>,
    /// Game analysis: for each ply, the move played against the best.
    game_analysis: HashMap<usize, PlyAnalysis>,
    /// Minutes per side of the last new game (0: no clock), offered again.
    timing_minutes: u32,
    /// What the view shows besides the game: animation, set-up, open windows.
    view: ViewState,
    dialogs: Box<dyn FileDialogs>,
    pub file: Option<PathBuf>,
    /// The record as last opened, saved or started: the game has unsaved changes when
    /// its moves differ from these ([`Game::same_record`]).
    saved_record: Game,
    commands: Vec<Command>,
    /// Responsiveness figures shown in the status bar.
    pub metrics: Metrics,
    /// Text to put on the clipboard this frame.
    clipboard_out: Option<String>,
    /// Edit › Paste: ask the platform for the clipboard's text this frame.
    paste_requested: bool,
    /// Where the game in progress is kept across restarts (set by [`run`]).
    autosave: Option<PathBuf>,
    /// The last autosave failed (and the user was told).
    autosave_failed: bool,
    /// The open endgame script, if any.
    pub script: Option<ScriptJob>,
    /// A second engine thread for scripts, started on the first solve: the board's own
    /// analysis would otherwise supersede the script whenever the position changes.
    script_engine: Option<Engine>,
    /// Wakes the UI; shared by both engine threads.
    notify: Arc<Mutex<Box<dyn Fn() + Send>>>,
    /// The games database tab: loaded in the background on first show.
    pub database: database_panel::DatabaseView,
    /// Practising one's mistakes (Game › Practise your mistakes).
    practice: windows::Practice,
}

/// What the view shows besides the game.
#[derive(Default)]
struct ViewState {
    /// The graph panel's height as drawn last frame (the player may drag it): the board
    /// beside the side panel is sized to the height above it.
    graph_height: Option<f32>,
    /// The menu of the bar open last frame (an index of `menu_bar::MENUS`).
    open_menu: Option<usize>,
    /// A menu key taken this frame, for the menu bar to act on.
    menu_key: Option<menu_bar::MenuKey>,
    /// A menu opened from the keyboard: its first item takes the focus.
    focus_first_item: bool,
    /// The window is still to be fitted to its screen (the real window's first frames).
    fit_window: bool,
    /// The discs turned by the last move and when, for the flip animation.
    flip_animation: Option<(u64, Instant)>,
    /// Board set-up in progress: the position being edited.
    setup: Option<Position>,
    /// The new game window, while open.
    new_game: Option<windows::NewGameForm>,
    about: bool,
    shortcuts: bool,
    settings_window: bool,
    first_steps: bool,
    /// Set-up: the board string field's text, and what is wrong with it.
    setup_text: String,
    setup_text_error: Option<String>,
    /// The ply the move list last scrolled to (it scrolls only when the ply changes, so
    /// the wheel can move it).
    move_list_scrolled: Option<usize>,
    /// The move list's rows shown whole on screen last frame (first, last), for tests.
    move_list_rows: Option<(usize, usize)>,
    /// The window's size and place, and since when unchanged (saved once it settles).
    window_seen: Option<(settings::WindowGeometry, Instant)>,
    /// A long solve asked for, waiting for "Solve anyway".
    confirm_solve: Option<okapi_core::search::SolveMode>,
    /// The in-app path field, when the system's file dialog did not work.
    path_prompt: Option<dialogs::PathPrompt>,
    /// Which tab of the side panel shows.
    side_tab: side_panel::SideTab,
    /// Where the board goes: the window less the bars and the side area, set by the side
    /// panel each frame from the window's size alone.
    board_area: Option<egui::Rect>,
    /// A command that would replace a game with unsaved changes, waiting for Save,
    /// Discard or Cancel.
    unsaved_prompt: Option<Command>,
    /// "Discard" was answered: the next game-replacing command goes ahead.
    discard_confirmed: bool,
    /// "Save" was answered: this command runs once the game is saved.
    after_save: Option<Command>,
    /// A one-line save (GGF, a transcript) left other lines out: what to do with them.
    one_line_saved: Option<windows::OneLineSaved>,
    /// The next move played is added as a variation (Game › Add next move as variation).
    next_as_variation: bool,
    /// Closing was asked for and may go ahead (nothing unsaved, or an answer given).
    close_now: bool,
    /// The input time of the first frame that showed the engine's last move: a click
    /// pressed before it was aimed at the board before that move (a book reply comes
    /// between two quick clicks) and is not played.
    position_shown_at: Option<f64>,
    /// The input time of the frame in which the last pointer press began.
    last_press_at: Option<f64>,
}

impl App {
    /// A new app with a new game; `notify` wakes the UI when the engine has news.
    pub fn new(dialogs: Box<dyn FileDialogs>, notify: impl Fn() + Send + 'static) -> App {
        let notify: Arc<Mutex<Box<dyn Fn() + Send>>> = Arc::new(Mutex::new(Box::new(notify)));
        let mut app = App {
            session: Session::new(Game::default(), [Seat::Human; 2]),
            engine: EngineLink::new(Engine::spawn(wake(&notify))),
            notify,
            script: None,
            script_engine: None,
            known: known_values::KnownValues::default(),
            values_shown_for: None,
            solve_stats: None,
            engine_lines: None,
            notice: None,
            error: None,
            settings: Settings::default(),
            settings_file: None,
            game_analysis: HashMap::new(),
            timing_minutes: 0,
            view: ViewState::default(),
            dialogs,
            file: None,
            saved_record: Game::default(),
            commands: Vec::new(),
            clipboard_out: None,
            paste_requested: false,
            autosave: None,
            autosave_failed: false,
            metrics: Metrics::default(),
            database: database_panel::DatabaseView::default(),
            practice: windows::Practice::default(),
        };
        app.position_changed();
        app
    }

    /// The values of the current position's legal moves the board shows: the best known
    /// ones, once values are asked for here (none while they are off or hidden).
    pub fn move_evals(&self) -> &HashMap<Square, Eval> {
        let here = self.game().position();
        match self.values_shown_for {
            Some(p) if p == here => self.known.of(&here),
            _ => self.known.of_nothing(),
        }
    }

    /// Offers values of the moves of the position on the board, as the engine's answers
    /// are offered, and shows them as a hint would (tests and tools give their own).
    pub fn show_values(&mut self, values: &[(Square, Eval)]) {
        let here = self.game().position();
        for &(square, eval) in values {
            self.learn_value(here, square, eval);
        }
        self.values_shown_for = Some(here);
    }

    /// The best known value of `square` in `position`, whether shown or not.
    pub fn known_value(&self, position: &Position, square: Square) -> Option<Eval> {
        self.known.get(position, square)
    }

    /// Is the engine busy with a request of ours?
    pub fn engine_busy(&self) -> bool {
        self.engine.task != Task::Idle
    }

    /// Solves this position, after a warning with an estimate when it will take long.
    pub(crate) fn request_solve(&mut self, mode: okapi_core::search::SolveMode) {
        let empties = self.game().position().empty_count();
        if status_bar::long_solve_warning(empties, mode).is_some() {
            self.view.confirm_solve = Some(mode);
        } else {
            self.commands.push(Command::Solve(mode));
        }
    }

    /// How long to wait before the engine plays its move: "Pause between engine moves"
    /// when both sides are engines (so a person can follow the game), else nothing.
    pub fn engine_move_delay(&self) -> Duration {
        if self.session.seats().iter().all(|s| s.is_engine()) {
            Duration::from_secs_f32(self.settings.engine_move_pause.clamp(0.0, 10.0))
        } else {
            Duration::ZERO
        }
    }

    /// One frame: take engine news, draw, then apply what the widgets asked for.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let frame_start = Instant::now();
        self.poll_engine();
        if self.send_paced_move() {
            ui.ctx().request_repaint_after(Duration::from_millis(50));
        }
        self.poll_script_engine();
        self.take_menu_keys(ui.ctx());
        self.queue_input_commands(ui);
        // What the last frame copied: the platform puts it on the system clipboard.
        if let Some(text) = self.clipboard_out.take() {
            ui.ctx().copy_text(text);
        }
        if std::mem::take(&mut self.paste_requested) {
            // The text comes back as a paste event next frame (and a paste command then).
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::RequestPaste);
        }
        if self.check_clock() {
            ui.ctx().request_repaint_after(Duration::from_millis(200));
        }
        self.menu_bar(ui);
        self.status_bar(ui);
        // The side panel first, the whole height beside the menu and status bars: the
        // graph goes under the board only, so the move list keeps its rows.
        self.side_panel(ui);
        self.graph_panel(ui);
        self.board_panel(ui);
        self.windows(ui);
        if ui.ctx().input(|i| i.viewport().close_requested()) && !self.view.close_now {
            // The window's close button: asks first when the game has unsaved changes.
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.commands.push(Command::Quit);
        }
        for c in std::mem::take(&mut self.commands) {
            self.apply(c);
        }
        if self.view.close_now {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if self.take_dialog_failure() {
            ui.ctx().request_repaint();
        }
        if self.view.fit_window {
            self.fit_window_to_screen(ui.ctx());
        }
        self.remember_window(ui.ctx());
        self.save_settings_if_changed();
        self.metrics.record_frame(frame_start.elapsed());
        if self.engine.task != Task::Idle || self.script.as_ref().is_some_and(|j| j.is_running()) {
            // Keeps the elapsed time moving; engine events repaint at once anyway.
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
    }

    /// Shortcuts, a paste and a dropped file, queued as commands.
    fn queue_input_commands(&mut self, ui: &mut egui::Ui) {
        // Arrow keys, copies and pastes belong to a focused text field; elsewhere (a
        // button just clicked keeps the focus too) they are the game's.
        let typing = ui.ctx().text_edit_focused();
        // Escape answers an open question (closes it) rather than stopping the engine.
        let asking = self.view.unsaved_prompt.is_some()
            || self.view.confirm_solve.is_some()
            || self.view.one_line_saved.is_some();
        for c in Command::WITH_SHORTCUTS {
            if asking && c == Command::Stop {
                continue;
            }
            if typing
                && matches!(
                    c,
                    Command::StepBack
                        | Command::StepForward
                        | Command::CopyTranscript
                        | Command::CopyBoard
                        | Command::PasteClipboard
                )
            {
                continue;
            }
            let Some(k) = c.shortcut() else { continue };
            // Every press counts: quick presses can come in one frame (14 presses of
            // Right step 14 plies).
            let presses = ui.input_mut(|i| i.count_and_consume_key(k.modifiers, k.logical_key));
            for _ in 0..presses {
                match c {
                    Command::Solve(mode) => self.request_solve(mode),
                    ref c => self.commands.push(c.clone()),
                }
            }
        }
        // A paste into a text field is the field's; elsewhere it is a game or a board.
        let pasted = ui.input(|i| {
            i.events.iter().find_map(|e| match e {
                egui::Event::Paste(text) => Some(text.clone()),
                _ => None,
            })
        });
        if let Some(text) = pasted.filter(|_| !typing) {
            self.commands.push(Command::Paste(text));
        }
        let dropped = ui.input(|i| i.raw.dropped_files.first().map(|f| f.path().to_path_buf()));
        if let Some(path) = dropped {
            self.commands.push(if script::is_script_path(&path) {
                Command::OpenScriptPath(path)
            } else {
                Command::OpenPath(path)
            });
        }
    }

    /// The board in the central panel, with the flip animation.
    fn board_panel(&mut self, ui: &mut egui::Ui) {
        const FLIP_TIME: f32 = 0.3;
        let flipping = self.view.flip_animation.and_then(|(mask, at)| {
            let t = at.elapsed().as_secs_f32() / FLIP_TIME;
            (t < 1.0).then_some((mask, t))
        });
        if flipping.is_some() {
            ui.ctx().request_repaint();
        } else {
            self.view.flip_animation = None;
        }
        // The first frame that shows this position, and when the last press began: a
        // click pressed before the board showed its position is not played.
        let now = ui.input(|i| i.time);
        let shown_at = *self.view.position_shown_at.get_or_insert(now);
        if ui.input(|i| i.pointer.any_pressed()) {
            self.view.last_press_at = Some(now);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            let setup = self.view.setup.is_some();
            let engine_to_move =
                !setup && self.session.seat_to_move().is_engine() && !self.session.is_over();
            let evals = self.move_evals().clone();
            // Practising: the card's position, its values once answered.
            let practice = self.practice.board();
            let view = BoardView {
                position: match practice {
                    Some((position, ..)) => position,
                    None => self.view.setup.unwrap_or_else(|| self.game().position()),
                },
                last_move: match practice {
                    Some((_, answer, _)) => answer,
                    None if setup => None,
                    None => self.game().last_move(),
                },
                evals: practice.map_or(&evals, |p| p.2),
                show_legal: !setup,
                flipped: self.settings.flipped,
                clickable: practice.is_some()
                    || (!setup && !self.session.seat_to_move().is_engine()),
                engine_to_move: engine_to_move && practice.is_none(),
                setup,
                flipping: if setup { None } else { flipping },
                best_only: self.settings.best_only,
                coordinates: self.settings.coordinates,
                colors: self.settings.board_colors,
            };
            // The board in its own square at the top of its area, centred across it: its
            // size and place follow from the window alone, whatever the panels hold.
            let area = self
                .view
                .board_area
                .unwrap_or_else(|| ui.max_rect())
                .shrink(8.0);
            let side = area.width().min(area.height());
            let square = egui::Rect::from_min_size(
                egui::pos2(area.center().x - side / 2.0, area.top()),
                egui::vec2(side, side),
            );
            ui.scope_builder(egui::UiBuilder::new().max_rect(square), |ui| {
                let pressed_before_shown = self.view.last_press_at.is_some_and(|t| t <= shown_at);
                match board_ui(ui, &view) {
                    Some(BoardClick::Square(sq)) if practice.is_some() => {
                        self.commands.push(Command::PracticeAnswer(sq))
                    }
                    Some(BoardClick::Square(sq)) if setup => {
                        self.commands.push(Command::SetupSquare(sq))
                    }
                    Some(BoardClick::Square(sq)) if !pressed_before_shown => {
                        self.commands.push(Command::Play(sq))
                    }
                    Some(BoardClick::Square(sq)) => {
                        self.notice = Some(format!(
                            "Not played: the click on {sq} began before Okapi's move was on \
                             the board. Click again to play it."
                        ));
                    }
                    Some(BoardClick::EngineToMove(sq)) => {
                        self.notice = Some(format!(
                            "Okapi is to move: the click on {sq} is not played. Wait for its \
                             move (Esc stops it)."
                        ));
                    }
                    None => {}
                }
            });
        });
    }

    /// Takes its settings from `path` (the defaults if it is missing or unreadable) and
    /// saves them there whenever they change.
    /// Where the game in progress is kept for the next start (`None`: nowhere).
    pub fn keep_game_at(&mut self, path: Option<PathBuf>) {
        self.autosave = path;
    }

    pub fn use_settings_file(&mut self, path: &Path) {
        let (settings, problems) = Settings::load_checked(path);
        if !problems.is_empty() {
            self.error = Some(format!(
                "Settings file {}: {}",
                path.display(),
                problems.join("; ")
            ));
        }
        self.settings = settings.clone();
        self.settings_file = Some((path.to_path_buf(), settings));
    }

    /// Keeps the window's size and place in the settings once it has not changed for a
    /// second (a resize by dragging is many frames; the settings file is written once).
    fn remember_window(&mut self, ctx: &egui::Context) {
        let Some(seen) = ctx.input(|i| settings::WindowGeometry::of(i.viewport())) else {
            return;
        };
        match self.view.window_seen {
            Some((g, since)) if g == seen => {
                if self.settings.window != Some(g) && since.elapsed() >= Duration::from_secs(1) {
                    self.settings.window = Some(g);
                } else if self.settings.window != Some(g) {
                    ctx.request_repaint_after(Duration::from_secs(1));
                }
            }
            _ => {
                self.view.window_seen = Some((seen, Instant::now()));
                if self.settings.window != Some(seen) {
                    ctx.request_repaint_after(Duration::from_secs(1));
                }
            }
        }
    }

    /// The move list's rows shown whole on screen last frame: (first, last), from 0.
    pub fn move_list_rows_shown(&self) -> Option<(usize, usize)> {
        self.view.move_list_rows
    }

    /// Saves the settings when they changed this frame.
    fn save_settings_if_changed(&mut self) {
        if let Some((path, saved)) = &mut self.settings_file
            && *saved != self.settings
        {
            *saved = self.settings.clone();
            if let Err(e) = saved.save(path) {
                self.error = Some(format!(
                    "Could not save the settings to {}: {e}",
                    path.display()
                ));
            }
        }
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// A callback for an engine thread that calls the app's shared `notify`.
pub(crate) fn wake(notify: &Arc<Mutex<Box<dyn Fn() + Send>>>) -> impl Fn() + Send + 'static {
    let notify = notify.clone();
    move || {
        if let Ok(f) = notify.lock() {
            f()
        }
    }
}
