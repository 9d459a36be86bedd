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
mod game_rules;
mod graph;
mod level_picker;
mod menu_bar;
mod metrics;
mod move_list;
pub mod script;
pub mod settings;
mod side_panel;
mod status_bar;
mod windows;

use board_view::{BoardView, board_ui};
pub use command::Command;
pub use dialogs::{FileDialogs, NativeDialogs, ScriptedDialogs};
use eframe::egui;
use engine_events::{EngineLines, EngineLink, PlyAnalysis, Task};
use game_rules::SolveStats;
pub use metrics::Metrics;
use okapi_core::board::{Position, Square};
use okapi_core::game::{Eval, Game, Seat, Session};
use okapi_engine::Engine;
pub use script::{RowResult, ScriptJob, ScriptRow};
pub use settings::{EvalsFor, Settings};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Opens the app window, optionally with a game file; returns when it closes.
pub fn run(open: Option<PathBuf>) -> anyhow::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Okapi")
            .with_app_id("okapi")
            .with_inner_size([1000.0, 720.0])
            .with_min_inner_size([520.0, 400.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Okapi",
        options,
        Box::new(move |cc| {
            let ctx = cc.egui_ctx.clone();
            let mut app = App::new(Box::new(NativeDialogs), move || ctx.request_repaint());
            let paths = Settings::paths();
            if let Some((settings_path, _)) = &paths {
                app.use_settings_file(settings_path);
            }
            let autosave = paths.map(|(_, game)| game);
            match (open, &autosave) {
                (Some(path), _) if script::is_script_path(&path) => {
                    app.apply(Command::OpenScriptPath(path))
                }
                (Some(path), _) => app.apply(Command::OpenPath(path)),
                (None, Some(saved)) if saved.exists() => {
                    // The game in progress comes back with its players.
                    if let Ok(game) = okapi_core::formats::load_game(saved) {
                        let seats = game.seats;
                        app.session = Session::new(game, seats);
                    }
                }
                _ => {}
            }
            app.position_changed();
            app.autosave = autosave;
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("the app window failed: {e}"))
}

pub struct App {
    /// The game in progress: the record and its rules.
    pub session: Session,
    /// The board's engine thread and what it is doing for us.
    engine: EngineLink,
    /// Values of the current position's legal moves, the strongest source kept.
    pub move_evals: HashMap<Square, Eval>,
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
    commands: Vec<Command>,
    /// Responsiveness figures shown in the status bar.
    pub metrics: Metrics,
    /// Text to put on the clipboard this frame.
    clipboard_out: Option<String>,
    /// Where the game in progress is kept across restarts (set by [`run`]).
    autosave: Option<PathBuf>,
    /// The open endgame script, if any.
    pub script: Option<ScriptJob>,
    /// A second engine thread for scripts, started on the first solve: the board's own
    /// analysis would otherwise supersede the script whenever the position changes.
    script_engine: Option<Engine>,
    /// Wakes the UI; shared by both engine threads.
    notify: Arc<Mutex<Box<dyn Fn() + Send>>>,
    /// The games database tab: loaded in the background on first show.
    pub database: database_panel::DatabaseView,
}

/// What the view shows besides the game.
#[derive(Default)]
struct ViewState {
    /// The discs turned by the last move and when, for the flip animation.
    flip_animation: Option<(u64, Instant)>,
    /// Board set-up in progress: the position being edited.
    setup: Option<Position>,
    /// The new game window, while open.
    new_game: Option<windows::NewGameForm>,
    about: bool,
    shortcuts: bool,
    /// A long solve asked for, waiting for "Solve anyway".
    confirm_solve: Option<okapi_core::search::SolveMode>,
    /// The in-app path field, when the system's file dialog did not work.
    path_prompt: Option<dialogs::PathPrompt>,
    /// Which tab of the side panel shows.
    side_tab: side_panel::SideTab,
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
            move_evals: HashMap::new(),
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
            commands: Vec::new(),
            clipboard_out: None,
            autosave: None,
            metrics: Metrics::default(),
            database: database_panel::DatabaseView::default(),
        };
        app.position_changed();
        app
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
        self.queue_input_commands(ui);
        if let Some(text) = self.clipboard_out.take() {
            ui.ctx().copy_text(text);
        }
        if self.check_clock() {
            ui.ctx().request_repaint_after(Duration::from_millis(200));
        }
        self.menu_bar(ui);
        self.status_bar(ui);
        self.graph_panel(ui);
        self.side_panel(ui);
        self.script_panel(ui);
        self.board_panel(ui);
        self.windows(ui);
        for c in std::mem::take(&mut self.commands) {
            self.apply(c);
        }
        if self.take_dialog_failure() {
            ui.ctx().request_repaint();
        }
        self.save_settings_if_changed();
        self.metrics.record_frame(frame_start.elapsed());
        if self.engine.task != Task::Idle || self.script.as_ref().is_some_and(|j| j.is_running()) {
            // Keeps the elapsed time moving; engine events repaint at once anyway.
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
    }

    /// Shortcuts, a paste and a dropped file, queued as commands.
    fn queue_input_commands(&mut self, ui: &mut egui::Ui) {
        // Arrow keys belong to a focused text field; elsewhere they step through the game.
        let typing = ui.ctx().memory(|m| m.focused().is_some());
        for c in Command::WITH_SHORTCUTS {
            if typing && matches!(c, Command::StepBack | Command::StepForward) {
                continue;
            }
            if let Some(k) = c.shortcut()
                && ui.input_mut(|i| i.consume_shortcut(&k))
            {
                match c {
                    Command::Solve(mode) => self.request_solve(mode),
                    c => self.commands.push(c),
                }
            }
        }
        let pasted = ui.input(|i| {
            i.events.iter().find_map(|e| match e {
                egui::Event::Paste(text) => Some(text.clone()),
                _ => None,
            })
        });
        if let Some(text) = pasted {
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
        egui::CentralPanel::default().show(ui, |ui| {
            let setup = self.view.setup.is_some();
            let view = BoardView {
                position: self.view.setup.unwrap_or_else(|| self.game().position()),
                last_move: if setup { None } else { self.game().last_move() },
                evals: &self.move_evals,
                show_legal: !setup,
                flipped: self.settings.flipped,
                clickable: !setup && !self.session.seat_to_move().is_engine(),
                setup,
                flipping: if setup { None } else { flipping },
                best_only: self.settings.best_only,
            };
            ui.vertical_centered(|ui| {
                if let Some(sq) = board_ui(ui, &view) {
                    self.commands.push(if setup {
                        Command::SetupSquare(sq)
                    } else {
                        Command::Play(sq)
                    });
                }
            });
        });
    }

    /// Takes its settings from `path` (the defaults if it is missing or unreadable) and
    /// saves them there whenever they change.
    pub fn use_settings_file(&mut self, path: &Path) {
        let settings = Settings::load(path);
        self.settings = settings.clone();
        self.settings_file = Some((path.to_path_buf(), settings));
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
