//! File dialogs behind a trait, so tests swap the real ones for a fake; and the in-app
//! path field the app falls back to when the system's dialog cannot be shown.

use super::{App, Command};
use eframe::egui;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub trait FileDialogs {
    /// Asks for a game file to open.
    fn open_game(&mut self) -> Option<PathBuf>;
    /// Asks where to save a game, suggesting a file name.
    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf>;
    /// Asks for an endgame script (scrZebra `.scr` or OBF) to open.
    fn open_script(&mut self) -> Option<PathBuf>;
    /// Asks where to save a script's results, suggesting a file name.
    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf>;
    /// Takes why the last dialog gave no path when that was not the person's choice (no
    /// dialog could be shown): then the app asks for the path itself. `None` after a
    /// cancel.
    fn take_failure(&mut self) -> Option<DialogFailure> {
        None
    }
    /// Asks for a folder of games (the games database's own folders); `None` where no
    /// dialog can be shown (the path can be typed instead).
    fn pick_folder(&mut self) -> Option<PathBuf> {
        None
    }
    /// The folder the next dialogs start in (the one last used), if any.
    fn start_in(&mut self, folder: Option<&Path>);
}

/// Which dialog could not be shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogKind {
    OpenGame,
    SaveGame,
    OpenScript,
    SaveScriptResult,
}

impl DialogKind {
    fn title(self) -> &'static str {
        match self {
            DialogKind::OpenGame => "Open a game",
            DialogKind::SaveGame => "Save the game",
            DialogKind::OpenScript => "Open an endgame script",
            DialogKind::SaveScriptResult => "Save the script's results",
        }
    }

    /// The command that does the job with the path typed in.
    fn command(self, path: PathBuf) -> Command {
        match self {
            DialogKind::OpenGame => Command::OpenPath(path),
            DialogKind::SaveGame => Command::SaveTo(path),
            DialogKind::OpenScript => Command::OpenScriptPath(path),
            DialogKind::SaveScriptResult => Command::SaveScriptResultTo(path),
        }
    }
}

/// A dialog that could not be shown, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct DialogFailure {
    pub kind: DialogKind,
    pub reason: String,
    /// The file name the dialog suggested (save dialogs).
    pub suggested_name: Option<String>,
}

/// The in-app path field shown instead of a dialog that did not work.
pub struct PathPrompt {
    kind: DialogKind,
    text: String,
    /// The field has had the keyboard focus once.
    focused: bool,
}

/// The platform's dialogs through rfd (its xdg-portal backend on Linux, zenity when no
/// portal answers). rfd gives no path both on a cancel and when no dialog could be shown;
/// it only logs the failure, so its error log lines are listened to (see [`RfdErrors`]).
#[derive(Default)]
pub struct NativeDialogs {
    /// Where the dialogs start ([`FileDialogs::start_in`]).
    start: Option<PathBuf>,
}

/// rfd's error log lines since the last dialog: a dialog that failed logs one (no
/// portal, no D-Bus, no zenity), a cancelled one does not.
struct RfdErrors;

static RFD_ERRORS: Mutex<Vec<String>> = Mutex::new(Vec::new());
static RFD_LOGGER: RfdErrors = RfdErrors;

impl log::Log for RfdErrors {
    fn enabled(&self, meta: &log::Metadata) -> bool {
        meta.level() <= log::Level::Error && meta.target().starts_with("rfd")
    }

    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata())
            && let Ok(mut v) = RFD_ERRORS.lock()
        {
            v.push(record.args().to_string());
        }
    }

    fn flush(&self) {}
}

impl NativeDialogs {
    /// Runs a dialog; a missing path with an rfd error logged is a failure, kept for
    /// [`FileDialogs::take_failure`].
    fn run(
        kind: DialogKind,
        suggested_name: Option<&str>,
        dialog: impl FnOnce() -> Option<PathBuf>,
    ) -> Option<PathBuf> {
        // The first call installs the listener (a no-op if a logger is already set).
        if log::set_logger(&RFD_LOGGER).is_ok() {
            log::set_max_level(log::LevelFilter::Error);
        }
        if let Ok(mut v) = RFD_ERRORS.lock() {
            v.clear();
        }
        let path = dialog();
        if path.is_none() {
            let errors = RFD_ERRORS.lock().map(|v| v.join("; ")).unwrap_or_default();
            if !errors.is_empty()
                && let Ok(mut f) = LAST_FAILURE.lock()
            {
                *f = Some(DialogFailure {
                    kind,
                    reason: errors,
                    suggested_name: suggested_name.map(str::to_string),
                });
            }
        }
        path
    }
}

static LAST_FAILURE: Mutex<Option<DialogFailure>> = Mutex::new(None);

fn with_game_filters(d: rfd::FileDialog) -> rfd::FileDialog {
    d.add_filter("Okapi game (JSON)", &["json"])
        .add_filter("GGF game", &["ggf"])
        .add_filter("Transcript", &["txt"])
        .add_filter("All files", &["*"])
}

impl NativeDialogs {
    /// A dialog that starts in the folder last used.
    fn new_dialog(&self) -> rfd::FileDialog {
        match &self.start {
            Some(dir) => rfd::FileDialog::new().set_directory(dir),
            None => rfd::FileDialog::new(),
        }
    }
}

impl FileDialogs for NativeDialogs {
    fn start_in(&mut self, folder: Option<&Path>) {
        self.start = folder.map(Path::to_path_buf);
    }

    fn pick_folder(&mut self) -> Option<PathBuf> {
        Self::run(DialogKind::OpenGame, None, || {
            self.new_dialog()
                .set_title("A folder of games")
                .pick_folder()
        })
    }

    fn open_game(&mut self) -> Option<PathBuf> {
        Self::run(DialogKind::OpenGame, None, || {
            with_game_filters(self.new_dialog().set_title("Open a game")).pick_file()
        })
    }

    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf> {
        Self::run(DialogKind::SaveGame, Some(suggested_name), || {
            with_game_filters(
                self.new_dialog()
                    .set_title("Save the game")
                    .set_file_name(suggested_name),
            )
            .save_file()
        })
    }

    fn open_script(&mut self) -> Option<PathBuf> {
        Self::run(DialogKind::OpenScript, None, || {
            self.new_dialog()
                .set_title("Open an endgame script")
                .add_filter("Endgame script", &["scr", "obf"])
                .add_filter("All files", &["*"])
                .pick_file()
        })
    }

    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf> {
        Self::run(DialogKind::SaveScriptResult, Some(suggested_name), || {
            self.new_dialog()
                .set_title("Save the script's results")
                .set_file_name(suggested_name)
                .save_file()
        })
    }

    fn take_failure(&mut self) -> Option<DialogFailure> {
        LAST_FAILURE.lock().ok()?.take()
    }
}

/// Dialogs that answer with paths given in advance (tests, scripted use): every "open"
/// dialog takes the next path of `open`, every "save" dialog the next of `save`. With
/// `unavailable`, every dialog fails as one does when no portal answers.
#[derive(Default)]
pub struct ScriptedDialogs {
    pub open: Vec<PathBuf>,
    pub save: Vec<PathBuf>,
    pub unavailable: bool,
    /// The failure of the last dialog, until the app takes it.
    pub failure: Option<DialogFailure>,
    /// The folder each dialog shown was told to start in, in order (shared, so a test
    /// keeps a handle on it once the app owns the dialogs).
    pub started_in: Arc<Mutex<Vec<Option<PathBuf>>>>,
    /// The folder the next dialog starts in ([`FileDialogs::start_in`]).
    pub start: Option<PathBuf>,
}

impl ScriptedDialogs {
    fn answer(&mut self, kind: DialogKind, suggested_name: Option<&str>) -> Option<PathBuf> {
        if self.unavailable {
            self.failure = Some(DialogFailure {
                kind,
                reason: "no file dialog portal answered".into(),
                suggested_name: suggested_name.map(str::to_string),
            });
            return None;
        }
        if let Ok(mut v) = self.started_in.lock() {
            v.push(self.start.clone());
        }
        let paths = match kind {
            DialogKind::OpenGame | DialogKind::OpenScript => &mut self.open,
            DialogKind::SaveGame | DialogKind::SaveScriptResult => &mut self.save,
        };
        (!paths.is_empty()).then(|| paths.remove(0))
    }
}

impl FileDialogs for ScriptedDialogs {
    fn start_in(&mut self, folder: Option<&Path>) {
        self.start = folder.map(Path::to_path_buf);
    }

    fn open_game(&mut self) -> Option<PathBuf> {
        self.answer(DialogKind::OpenGame, None)
    }

    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf> {
        self.answer(DialogKind::SaveGame, Some(suggested_name))
    }

    fn open_script(&mut self) -> Option<PathBuf> {
        self.answer(DialogKind::OpenScript, None)
    }

    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf> {
        self.answer(DialogKind::SaveScriptResult, Some(suggested_name))
    }

    fn take_failure(&mut self) -> Option<DialogFailure> {
        self.failure.take()
    }
}

impl App {
    /// The file dialogs, told to start in the folder last used (kept in the settings).
    pub(super) fn file_dialogs(&mut self) -> &mut dyn FileDialogs {
        let folder = self.settings.last_folder.as_deref().filter(|d| d.is_dir());
        self.dialogs.start_in(folder);
        self.dialogs.as_mut()
    }

    /// After a dialog that could not be shown: opens the path field and says so.
    /// Returns true when it did.
    pub(super) fn take_dialog_failure(&mut self) -> bool {
        let Some(f) = self.dialogs.take_failure() else {
            return false;
        };
        let dir = match &self.settings.last_folder {
            Some(dir) if dir.is_dir() => dir.clone(),
            _ => std::env::current_dir().unwrap_or_default(),
        };
        let text = match &f.suggested_name {
            Some(name) => dir.join(name),
            None => dir.join(""),
        };
        // The reason is a raw D-Bus or portal error ("org.freedesktop.DBus.Error..."),
        // which tells a player nothing: it goes to standard error for whoever sets up
        // the desktop, and the player reads what happened and what to do.
        eprintln!("okapi: the file dialog failed: {}", f.reason);
        self.notice = Some(
            "No file dialog could be shown: type the path in the window instead (installing xdg-desktop-portal or zenity brings the dialog back)."
                .to_string(),
        );
        self.view.path_prompt = Some(PathPrompt {
            kind: f.kind,
            text: text.display().to_string(),
            focused: false,
        });
        true
    }

    /// The path field standing in for a file dialog.
    pub(super) fn path_prompt_window(&mut self, ctx: &egui::Context) {
        let Some(prompt) = &mut self.view.path_prompt else {
            return;
        };
        let mut open = true;
        let mut done = None;
        egui::Window::new(format!("{}: path", prompt.kind.title()))
            .id(egui::Id::unique("path-prompt"))
            .open(&mut open)
            .collapsible(false)
            .resizable(false)
            .default_pos([200.0, 120.0])
            .show(ctx, |ui| {
                ui.label("No file dialog could be shown. Type the file's path:");
                let field = ui.add(
                    egui::TextEdit::singleline(&mut prompt.text)
                        .desired_width(420.0)
                        .hint_text("/home/me/game.json"),
                );
                if !prompt.focused {
                    field.request_focus();
                    prompt.focused = true;
                }
                let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    let ok = !prompt.text.trim().is_empty();
                    if ui.add_enabled(ok, egui::Button::new("OK")).clicked() || (enter && ok) {
                        done = Some(Some(PathBuf::from(prompt.text.trim())));
                    }
                    if ui.button("Cancel").clicked() {
                        done = Some(None);
                    }
                });
            });
        if let Some(answer) = done {
            if let Some(path) = answer {
                self.commands.push(prompt.kind.command(path));
            }
            self.view.path_prompt = None;
        } else if !open {
            self.view.path_prompt = None;
        }
    }
}
