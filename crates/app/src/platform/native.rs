//! The desktop: threads, files in the platform's folders, the system's file dialogs
//! (rfd), a window opened by eframe with the first renderer that can draw it.

use crate::dialogs::{
    DialogFailure, DialogKind, FileDialogs, Filters, GAME_FILTERS, RESULT_FILTERS, SCRIPT_FILTERS,
    keep_typed_extension,
};
use eframe::egui;
use okapi_core::formats::okapi_json::SavedState;
use okapi_core::formats::{GameFileError, ReadError, ReadWarning};
use okapi_core::game::Game;
use okapi_core::practice::{FileStamp, Opened, Store};
use okapi_engine::{Engine, EngineOptions, Machine};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Starts an engine on a thread of its own; `notify` is called after each of its events.
pub fn spawn_engine(options: EngineOptions, notify: impl Fn() + Send + 'static) -> Engine {
    Engine::spawn_with(options, notify)
}

/// Runs `task` in the background (a thread named `name`): loading the games database,
/// finding practice positions. It reports through its own channel.
pub fn spawn_task(name: &str, task: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name(name.into())
        .spawn(task)
        .map(drop)
}

/// The shipped games database's bytes: compiled into the program, always here.
pub fn shipped_database(_ctx: &egui::Context) -> Option<Result<&'static [u8], String>> {
    Some(Ok(okapi_core::db::shipped_bytes()))
}

/// The cores and memory the engines share.
pub fn machine() -> Machine {
    Machine::this()
}

/// The file that makes Okapi portable: beside the program (as in the Windows zip), Okapi
/// keeps its settings and the game in progress in the folder `okapi-data` beside the
/// program too, and nothing on the computer it runs on (a USB stick carries it all).
pub const PORTABLE_MARKER: &str = "okapi-portable.txt";

/// In portable mode, the folder beside the program `exe` that holds what Okapi keeps.
pub fn portable_dir(exe: &Path) -> Option<PathBuf> {
    let dir = exe.parent()?;
    dir.join(PORTABLE_MARKER)
        .is_file()
        .then(|| dir.join("okapi-data"))
}

/// The settings file and the autosaved game: in portable mode (a file
/// [`PORTABLE_MARKER`] beside the program) in the
/// folder `okapi-data` beside it, else in the platform's folders (`directories`): on
/// Windows `%APPDATA%\Okapi\config\settings.json` and
/// `%APPDATA%\Okapi\data\current-game.json`; on Linux `~/.config/okapi/` and
/// `~/.local/share/okapi/`; on macOS `~/Library/Application Support/Okapi/`.
pub fn data_paths() -> Option<(PathBuf, PathBuf)> {
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| portable_dir(&exe))
    {
        return Some((dir.join("settings.json"), dir.join("current-game.json")));
    }
    let dirs = directories::ProjectDirs::from("", "", "Okapi")?;
    Some((
        dirs.config_dir().join("settings.json"),
        dirs.data_dir().join("current-game.json"),
    ))
}

/// The player's own folder for games saved where no folder was used yet: Documents, else
/// the home folder (never the folder Okapi happened to be started from).
pub fn documents_folder() -> Option<PathBuf> {
    let dirs = directories::UserDirs::new()?;
    let documents = dirs.document_dir().filter(|d| d.is_dir());
    Some(documents.unwrap_or(dirs.home_dir()).to_path_buf())
}

/// Reads at most `limit` bytes of the file at `path` (never a FIFO, which would wait for
/// a writer for ever).
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    okapi_core::formats::check_not_a_pipe(path)
        .and_then(|()| okapi_core::formats::read_capped(path, limit))
}

/// Writes the file at `path` whole or not at all, making its folder first.
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    make_folder_of(path)?;
    okapi_core::formats::write_atomic(path, bytes)
}

/// Makes the folder `path` goes in, if it has one.
pub fn make_folder_of(path: &Path) -> std::io::Result<()> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir),
        None => Ok(()),
    }
}

/// Whether something is kept at `path`.
pub fn exists(path: &Path) -> bool {
    path.exists()
}

/// Renames `from` to `to` (a damaged file moved aside).
pub fn rename(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::rename(from, to)
}

/// Reads the game file at `path`, in whichever format it is, with what its reader left
/// out.
pub fn load_game(path: &Path) -> Result<(Game, Vec<ReadWarning>), GameFileError> {
    okapi_core::formats::load_game_warned(path)
}

/// Saves `game` at `path`, in the format its extension names.
pub fn save_game(game: &Game, path: &Path) -> std::io::Result<()> {
    okapi_core::formats::save_game(game, path)
}

/// Reads the autosave of the game in progress with where that game is saved.
pub fn load_game_in_progress(path: &Path) -> Result<(Game, SavedState), GameFileError> {
    okapi_core::formats::load_game_in_progress(path)
}

/// Writes the autosave of the game in progress with where that game is saved.
pub fn save_game_in_progress(game: &Game, state: &SavedState, path: &Path) -> std::io::Result<()> {
    okapi_core::formats::save_game_in_progress(game, state, path)
}

/// Opens the practice file at `path` ([`Store::open`]).
pub fn open_practice(path: &Path) -> Opened {
    Store::open(path)
}

/// Saves the practice cards at `path` with what another window saved there since
/// ([`Store::save_merged`]).
pub fn save_practice(store: &mut Store, path: &Path, stamp: &mut FileStamp) -> std::io::Result<()> {
    store.save_merged(path, stamp)
}

/// A file the player picked, and in which dialog, once it has come: never on the desktop,
/// whose dialogs answer at once.
pub fn take_picked_file() -> Option<(DialogKind, PathBuf)> {
    None
}

/// Puts `text` on the system clipboard.
pub fn copy_text(ctx: &egui::Context, text: String) {
    ctx.copy_text(text);
}

/// Asks for the clipboard's text: it comes back as a paste event next frame. `Some`
/// says why it cannot be asked for here (never on the desktop).
pub fn request_paste(ctx: &egui::Context) -> Option<&'static str> {
    ctx.send_viewport_cmd(egui::ViewportCommand::RequestPaste);
    None
}

/// Whether the app can close its window (the menu's Quit).
pub const CAN_QUIT: bool = true;

/// Whether the app can read a folder of games the player names (the system's folder
/// dialog, the files in it).
pub const CAN_PICK_FOLDER: bool = true;

/// Closes the window: the app ends.
pub fn close_window(ctx: &egui::Context) {
    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
}

/// Keeps the window open after its close button (the app asks first).
pub fn cancel_close(ctx: &egui::Context) {
    ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
}

/// Moves and resizes the window (to fit its screen).
pub fn place_window(ctx: &egui::Context, position: egui::Pos2, size: egui::Vec2) {
    ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(size));
    ctx.send_viewport_cmd(egui::ViewportCommand::OuterPosition(position));
}

/// The window with the app's icon. The icon is compiled in and checked by a test: a
/// failure here is a bad build, and the window still opens with the system's default icon.
pub fn with_icon(viewport: egui::ViewportBuilder) -> egui::ViewportBuilder {
    match eframe::icon_data::from_png_bytes(super::ICON_PNG) {
        Ok(icon) => viewport.with_icon(std::sync::Arc::new(icon)),
        Err(_) => viewport,
    }
}

/// Opens the app's window with the first renderer that can draw it and runs it until it
/// closes; `creator` builds the app (once per renderer tried). The errors of each
/// renderer tried, last one last, when none could.
pub fn run_window(
    viewport: egui::ViewportBuilder,
    creator: impl Fn() -> eframe::AppCreator<'static>,
) -> Result<(), Vec<String>> {
    let mut failures = Vec::new();
    for (i, &renderer) in RENDERERS.iter().enumerate() {
        let options = eframe::NativeOptions {
            viewport: viewport.clone(),
            renderer,
            ..Default::default()
        };
        match eframe::run_native("Okapi", options, creator()) {
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
    Err(failures)
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

/// Says why the app did not start where nobody reads standard error (a program started
/// from the Start menu or Finder): in a message box.
pub fn show_failure(title: &str, message: &str) {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        rfd::MessageDialog::new()
            .set_level(rfd::MessageLevel::Error)
            .set_title(title)
            .set_description(message)
            .set_buttons(rfd::MessageButtons::Ok)
            .show();
    }
}

/// The platform's dialogs through rfd (its xdg-portal backend on Linux, zenity when no
/// portal answers). rfd gives no path both on a cancel and when no dialog could be shown;
/// it only logs the failure, so its error log lines are listened to (`RfdErrors`).
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

fn with_filters(mut d: rfd::FileDialog, filters: Filters) -> rfd::FileDialog {
    for (name, extensions) in filters {
        d = d.add_filter(*name, extensions);
    }
    d
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
            with_filters(self.new_dialog().set_title("Open a game"), GAME_FILTERS).pick_file()
        })
    }

    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf> {
        Self::run(DialogKind::SaveGame, Some(suggested_name), || {
            with_filters(
                self.new_dialog()
                    .set_title("Save the game")
                    .set_file_name(suggested_name),
                GAME_FILTERS,
            )
            .save_file()
            .map(|p| keep_typed_extension(p, GAME_FILTERS))
        })
    }

    fn open_script(&mut self) -> Option<PathBuf> {
        Self::run(DialogKind::OpenScript, None, || {
            with_filters(
                self.new_dialog().set_title("Open an endgame script"),
                SCRIPT_FILTERS,
            )
            .pick_file()
        })
    }

    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf> {
        Self::run(DialogKind::SaveScriptResult, Some(suggested_name), || {
            with_filters(
                self.new_dialog()
                    .set_title("Save the script's results")
                    .set_file_name(suggested_name),
                RESULT_FILTERS,
            )
            .save_file()
        })
    }

    fn take_failure(&mut self) -> Option<DialogFailure> {
        LAST_FAILURE.lock().ok()?.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_beside_the_program_keeps_everything_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("okapi.exe");
        std::fs::write(&exe, "").unwrap();
        assert_eq!(portable_dir(&exe), None);
        std::fs::write(dir.path().join(PORTABLE_MARKER), "portable").unwrap();
        assert_eq!(portable_dir(&exe), Some(dir.path().join("okapi-data")));
        // A folder of that name is no marker.
        let other = tempfile::tempdir().unwrap();
        std::fs::create_dir(other.path().join(PORTABLE_MARKER)).unwrap();
        assert_eq!(portable_dir(&other.path().join("okapi.exe")), None);
    }
}
