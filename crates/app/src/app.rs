//! The app's state, [`App`], and its frame: engine news taken, the parts drawn, then the
//! commands the widgets queued applied once.

use crate::command::Command;
use crate::database_panel::DatabaseView;
use crate::dialogs::FileDialogs;
use crate::engine_hub::{EngineHub, EngineLines, PlyAnalysis, SolveStats, Task};
use crate::known_values::KnownValues;
use crate::metrics::Metrics;
use crate::part::{Commands, FrameView, Part};
use crate::parts::Parts;
use crate::paste_keys::{self, PasteKeys};
use crate::platform::{self, Instant};
use crate::practice_state::Practice;
use crate::script::{self, ScriptJob};
use crate::settings::{Settings, WindowGeometry};
use crate::view::ViewState;
use eframe::egui;
use okapi_core::board::{Position, Square};
use okapi_core::game::{Eval, Game, Seat, Session};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Everything the app holds: the game, its values, the engines, the settings and what
/// the view shows. Its parts draw themselves from it (one file each, see the crate's map)
/// and change it only through [`Command`]s.
pub struct App {
    /// The game in progress: the record and its rules.
    pub session: Session,
    /// Every engine of the app (the board's, the script panel's, the practice
    /// window's), under the settings' one table and thread budget.
    pub(crate) engines: EngineHub,
    /// The best known value of each move of each position, which every view reads.
    pub(crate) known: KnownValues,
    /// The position whose values the player asked to see (the live analysis when values
    /// are on, a hint, a solve): the board shows the known values there only.
    pub(crate) values_shown_for: Option<Position>,
    /// The figures of the solve whose proven line the session keeps.
    pub(crate) solve_stats: Option<SolveStats>,
    pub(crate) engine_lines: Option<EngineLines>,
    pub(crate) notice: Option<String>,
    pub error: Option<String>,
    pub settings: Settings,
    /// Where settings are saved when they change, and what was saved last (set by
    /// [`App::use_settings_file`]).
    pub(crate) settings_file: Option<(PathBuf, Settings)>,
    /// Game analysis: for each ply, the move played against the best.
    pub(crate) game_analysis: HashMap<usize, PlyAnalysis>,
    /// Minutes per side of the last new game (0: no clock), offered again.
    pub(crate) timing_minutes: u32,
    /// What the view shows besides the game: animation, set-up, open windows.
    pub(crate) view: ViewState,
    pub(crate) dialogs: Box<dyn FileDialogs>,
    pub file: Option<PathBuf>,
    /// The record as last opened, saved or started: the game has unsaved changes when
    /// its moves differ from these ([`Game::same_record`]).
    pub(crate) saved_record: Game,
    pub(crate) commands: Vec<Command>,
    /// Responsiveness figures shown in the status bar.
    pub metrics: Metrics,
    /// Text to put on the clipboard this frame.
    pub(crate) clipboard_out: Option<String>,
    /// Edit › Paste: ask the platform for the clipboard's text this frame.
    pub(crate) paste_requested: bool,
    /// A paste was asked of the platform last frame: its text is due this frame, and
    /// none means the clipboard held no text (the platform sends nothing then).
    paste_awaited: bool,
    /// Ctrl+V's that found no text on the clipboard (the platform sends nothing then).
    paste_keys: PasteKeys,
    /// Where the game in progress is kept across restarts (set when the window opens).
    pub(crate) autosave: Option<PathBuf>,
    /// The last autosave failed (and the user was told).
    pub(crate) autosave_failed: bool,
    /// The open endgame script, if any.
    pub script: Option<ScriptJob>,
    /// The games database tab: loaded in the background on first show.
    pub database: DatabaseView,
    /// Practising one's mistakes (Game › Practise your mistakes).
    pub(crate) practice: Practice,
    /// The parts that own their state and draw themselves from a [`FrameView`].
    ///
    /// [`FrameView`]: crate::part::FrameView
    pub(crate) parts: Parts,
}

/// The [`FrameView`] of an app, as an expression of its fields (so the parts can be
/// borrowed beside it).
macro_rules! frame_view {
    ($app:expr) => {
        FrameView {
            session: &$app.session,
            known: &$app.known,
            settings: &$app.settings,
            settings_file: $app.settings_file.as_ref().map(|(p, _)| p.as_path()),
            autosave: $app.autosave.as_deref(),
            timing_minutes: $app.timing_minutes,
            file: $app.file.as_deref(),
            engines: &$app.engines,
            metrics: &$app.metrics,
            error: $app.error.as_deref(),
            notice: $app.notice.as_deref(),
            next_as_variation: $app.view.next_as_variation,
            setting_up: $app.view.setup.is_some(),
            setup: $app.view.setup,
            setup_text: &$app.view.setup_text,
            setup_text_error: $app.view.setup_text_error.as_deref(),
            values_shown_for: $app.values_shown_for,
            practice_board: $app.practice.board(),
            board_area: $app.view.board_area,
            side_area: $app.view.side_area,
            side_tab: $app.view.side_tab,
            solve_stats: $app.solve_stats,
            engine_lines: $app.engine_lines.as_ref(),
            database: &$app.database,
            script_hidden: $app.script.as_ref().is_some_and(|j| !j.open),
            script: $app.script.as_ref(),
            game_analysis: &$app.game_analysis,
            hides_answer: $app.practice.hides_answer(),
            practice: &$app.practice,
        }
    };
}

impl App {
    /// The view of the game the parts read this frame, the parts themselves and the
    /// queue their commands go to, lent at once.
    pub(crate) fn split(&mut self) -> (FrameView<'_>, &mut Parts, &mut Commands) {
        (frame_view!(self), &mut self.parts, &mut self.commands)
    }

    /// The view of the game the parts read, alone.
    pub(crate) fn frame_view(&self) -> FrameView<'_> {
        frame_view!(self)
    }

    /// The analysis of ply `i` if it still describes the game, with the best values known
    /// since ([`FrameView::analysis_of`]).
    pub(crate) fn analysis_of(&self, i: usize) -> Option<PlyAnalysis> {
        self.frame_view().analysis_of(i)
    }

    /// Opens the window of this title (see [`Window::title`](crate::part::Window::title)).
    pub(crate) fn open_window(&mut self, title: &str) {
        let (view, parts, _) = self.split();
        parts.windows.open(title, &view);
    }

    /// A new app with a new game; `notify` wakes the UI when the engine has news.
    pub fn new(dialogs: Box<dyn FileDialogs>, notify: impl Fn() + Send + 'static) -> App {
        let settings = Settings::default();
        let mut app = App {
            session: Session::new(Game::default(), [Seat::Human; 2]),
            engines: EngineHub::new(settings.engine_configuration(), notify),
            script: None,
            known: KnownValues::default(),
            values_shown_for: None,
            solve_stats: None,
            engine_lines: None,
            notice: None,
            error: None,
            settings,
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
            paste_awaited: false,
            paste_keys: PasteKeys::default(),
            autosave: None,
            autosave_failed: false,
            metrics: Metrics::default(),
            database: DatabaseView::default(),
            practice: Practice::default(),
            parts: Parts::default(),
        };
        app.position_changed();
        app
    }

    /// The values of the current position's legal moves the board shows: the best known
    /// ones, once values are asked for here (none while they are off or hidden).
    pub fn move_evals(&self) -> &HashMap<Square, Eval> {
        self.known.shown(
            &self.game().position(),
            self.values_shown_for,
            self.practice.hides_answer(),
            self.practice.board().map(|(board, _)| board),
        )
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
        self.engines.board.task != Task::Idle
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
        if !self.view.readable {
            crate::theme::make_readable(ui.ctx());
            self.view.readable = true;
        }
        // The chosen theme, from the first frame and as soon as it is changed.
        let theme = self.settings.theme.preference();
        if ui.ctx().options(|o| o.theme_preference) != theme {
            ui.ctx().set_theme(theme);
            ui.ctx().request_repaint();
        }
        self.poll_engine();
        if self.send_paced_move() {
            ui.ctx().request_repaint_after(Duration::from_millis(50));
        }
        self.poll_script_engine();
        self.poll_practice(ui.ctx());
        self.poll_database(ui.ctx());
        self.parts.menu_bar.take_keys(ui.ctx());
        self.queue_input_commands(ui);
        // What the last frame copied: the platform puts it on the system clipboard.
        if let Some(text) = self.clipboard_out.take() {
            platform::copy_text(ui.ctx(), text);
        }
        if std::mem::take(&mut self.paste_requested) {
            // The text comes back as a paste event next frame (and a paste command then).
            match platform::request_paste(ui.ctx()) {
                Some(why) => self.notice = Some(why.into()),
                None => {
                    self.paste_awaited = true;
                    ui.ctx().request_repaint();
                }
            }
        }
        // A file picked in the page's dialog, which answers later (the browser).
        self.commands
            .extend(platform::take_picked_file().map(|(kind, path)| Command::picked(kind, path)));
        if self.check_clock() {
            ui.ctx().request_repaint_after(Duration::from_millis(200));
        }
        let (view, parts, commands) = self.split();
        parts.menu_bar.show(ui, &view, commands);
        let (view, parts, commands) = self.split();
        parts.status_bar.show(ui, &view, commands);
        // The side panel first, the whole height beside the menu and status bars (under
        // the board in a narrow window): the graph goes under the board only, so the move
        // list keeps its rows. Both places follow from the window's size alone.
        let graph = self.parts.graph.height(ui.ctx());
        let place = crate::side_panel::layout(ui.available_rect_before_wrap(), graph);
        (self.view.board_area, self.view.side_area) = (Some(place.board), Some(place.side));
        let (view, parts, commands) = self.split();
        parts.side_panel.show(ui, &view, commands);
        let (view, parts, commands) = self.split();
        parts.graph.show(ui, &view, commands);
        let (view, parts, commands) = self.split();
        parts.board.show(ui, &view, commands);
        let ctx = ui.ctx().clone();
        let (view, parts, commands) = self.split();
        parts.windows.show(&ctx, &view, commands);
        let (view, parts, commands) = self.split();
        parts.windows.show_questions(&ctx, &view, commands);
        if ui.ctx().input(|i| i.viewport().close_requested()) && !self.view.close_now {
            // The window's close button: asks first when the game has unsaved changes.
            platform::cancel_close(ui.ctx());
            self.commands.push(Command::Quit);
        }
        let solve_asked = self.parts.windows.confirm_solve.is_some();
        for c in std::mem::take(&mut self.commands) {
            self.apply(c);
        }
        if !self.commands.is_empty() {
            // What a command left for after it (the paste waiting for a save) runs next
            // frame, which nothing else may bring soon.
            ui.ctx().request_repaint();
        }
        if !solve_asked && self.parts.windows.confirm_solve.is_some() {
            // A long solve asked for this frame (a menu, a button, a key): its question is
            // drawn now, as the windows are, so it shows on the next frame.
            let (view, parts, commands) = self.split();
            parts.windows.show_confirm_solve(&ctx, &view, commands);
        }
        if self.view.close_now {
            platform::close_window(ui.ctx());
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
        if self.engines.board.task != Task::Idle
            || self.script.as_ref().is_some_and(|j| j.is_running())
        {
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
        let asking = self.parts.windows.asking();
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
                    Command::Solve(mode) => self.commands.push(Command::SolveAfterWarning(mode)),
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
        if std::mem::take(&mut self.paste_awaited) && pasted.is_none() {
            self.notice = Some(paste_keys::NO_TEXT.into());
        }
        if let Some(why) = ui.input(|i| self.paste_keys.watch(&i.events)) {
            self.notice = Some(why.into());
        }
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
    /// The file dialogs, told to start in the folder last used (kept in the settings).
    pub(crate) fn file_dialogs(&mut self) -> &mut dyn FileDialogs {
        let folder = self.settings.last_folder.as_deref().filter(|d| d.is_dir());
        self.dialogs.start_in(folder);
        self.dialogs.as_mut()
    }

    /// The file dialogs for saving the game, told to start in the game's own folder, else
    /// the folder last used, else the player's documents (never the folder Okapi was
    /// started from, which a player did not choose).
    pub(crate) fn save_dialogs(&mut self) -> &mut dyn FileDialogs {
        let folder = self.save_folder();
        self.dialogs.start_in(folder.as_deref());
        self.dialogs.as_mut()
    }

    /// Where a save starts: see [`App::save_dialogs`].
    fn save_folder(&self) -> Option<PathBuf> {
        let own = self.file.as_deref().and_then(Path::parent);
        own.into_iter()
            .chain(self.settings.last_folder.as_deref())
            .find(|d| d.is_dir())
            .map(Path::to_path_buf)
            .or_else(platform::documents_folder)
    }

    /// After a dialog that could not be shown: opens the path field and says so.
    /// Returns true when it did.
    pub(crate) fn take_dialog_failure(&mut self) -> bool {
        let Some(f) = self.dialogs.take_failure() else {
            return false;
        };
        let dir = self
            .save_folder()
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        let text = match &f.suggested_name {
            Some(name) => dir.join(name),
            None => dir.join(""),
        };
        // The reason is a raw D-Bus or portal error ("org.freedesktop.DBus.Error..."),
        // which tells a player nothing: it goes to standard error for whoever sets up
        // the desktop, and the player reads what happened and what to do.
        eprintln!("okapi: the file dialog failed: {}", f.reason);
        self.notice = Some(format!(
            "No file dialog could be shown: type the path in the window instead{}.",
            if cfg!(any(target_os = "windows", target_os = "macos")) {
                ""
            } else {
                " (installing xdg-desktop-portal or zenity brings the dialog back)"
            }
        ));
        self.parts
            .windows
            .open_path_prompt(f.kind, text.display().to_string());
        true
    }

    /// Where the game in progress is kept for the next start (`None`: nowhere).
    pub fn keep_game_at(&mut self, path: Option<PathBuf>) {
        self.autosave = path;
    }

    /// Takes its settings from `path` (the defaults if it is missing or unreadable) and
    /// saves them there whenever they change.
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
        let Some(seen) = ctx.input(|i| WindowGeometry::of(i.viewport())) else {
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

    /// The side panel's place last frame: the window less the menu and status bars and
    /// the board (what a tab shows without scrolling is inside it).
    pub fn side_panel_rect(&self) -> Option<egui::Rect> {
        self.view.side_area
    }

    /// The move list's rows shown whole on screen last frame: (first, last), from 0.
    pub fn move_list_rows_shown(&self) -> Option<(usize, usize)> {
        self.parts.side_panel.play.move_list.rows
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
