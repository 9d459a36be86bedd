//! Starting the app: the window opened with the first renderer that can draw it, and the
//! plain sentences said when none can or no display is there.

use crate::app::App;
use crate::command::Command;
use crate::platform::{self, NativeDialogs};
use crate::script;
use crate::settings::{self, MIN_WINDOW, Settings};
use eframe::egui;
use std::path::PathBuf;

/// Opens the app window, optionally with a game file; returns when it closes.
pub fn run(open: Option<PathBuf>) -> anyhow::Result<()> {
    say_why_a_panic_ends_the_app();
    if let Some(problem) = missing_display(|name| std::env::var_os(name)) {
        anyhow::bail!("{problem}");
    }
    // The window comes back where and as large as it was ([`Settings::window`]).
    let saved = Settings::paths().map(|(settings, _)| Settings::load(&settings));
    let viewport = platform::with_icon(viewport(saved.as_ref().and_then(|s| s.window)));
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        platform::run_window(viewport, || app_creator(open.clone()))
    }));
    let Err(mut failures) = ran.unwrap_or_else(|payload| said_and_resumed(payload)) else {
        return Ok(());
    };
    let last = failures.pop().unwrap_or_default();
    anyhow::bail!("{}", window_failure(&last))
}

/// Builds the app once the window is there: opens `open` (a game or a script), else the
/// game in progress of the last run.
pub fn app_creator(open: Option<PathBuf>) -> eframe::AppCreator<'static> {
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
            (None, Some(saved)) if platform::exists(saved) => app.restore_game_in_progress(saved),
            _ => {}
        }
        app.position_changed();
        app.autosave = autosave;
        app.view.fit_window = true;
        Ok(Box::new(app))
    })
}

/// A panic on the main thread ends the window: it says why where the player sees it (a
/// message box on Windows and macOS, where a program started from the Start menu or
/// Finder has no terminal), not only on a standard error nobody reads. A panic on another
/// thread goes to the failure log too: the engine's threads report their failures in the
/// window, but a thread's panic that its joiner raises again on the main thread
/// (`resume_unwind`) calls no hook a second time, and would end the app unexplained
/// ([`said_and_resumed`] says it then).
fn say_why_a_panic_ends_the_app() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        previous(info);
        let report = panic_report(std::thread::current().name(), &info.to_string());
        if report.ends_the_app {
            PANIC_SAID.store(true, std::sync::atomic::Ordering::SeqCst);
            show_failure(report.title, &report.message);
        } else {
            eprintln!("okapi: {}", report.message);
            if let Some(log) = failure_log() {
                log_failure(&log, report.title, &report.message);
            }
        }
    }));
}

/// A panic on the main thread was said already (by the hook): the window's end says it
/// no second time.
static PANIC_SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What a panic says, by the thread it happened on.
#[derive(Debug, PartialEq, Eq)]
struct PanicReport {
    title: &'static str,
    message: String,
    /// On the main thread: the app stops (said in a message box too).
    ends_the_app: bool,
}

fn panic_report(thread: Option<&str>, what: &str) -> PanicReport {
    match thread {
        Some("main") => PanicReport {
            title: "Okapi stopped",
            message: format!("Okapi stopped on an internal error: {what}"),
            ends_the_app: true,
        },
        other => PanicReport {
            title: "Internal error",
            message: format!(
                "an internal error on the thread {}: {what}",
                other.unwrap_or("without a name")
            ),
            ends_the_app: false,
        },
    }
}

/// The main thread unwinds out of the window: a panic the hook said, or one raised again
/// from another thread (`resume_unwind` calls no hook), which is said here. Then it goes
/// on as it would have (the exit status of a panic).
fn said_and_resumed(payload: Box<dyn std::any::Any + Send>) -> ! {
    if !PANIC_SAID.load(std::sync::atomic::Ordering::SeqCst) {
        show_failure(
            "Okapi stopped",
            &format!(
                "Okapi stopped on an internal error: {}",
                panic_text(payload.as_ref())
            ),
        );
    }
    std::panic::resume_unwind(payload)
}

/// A panic's message, from its payload (a `&str` or a `String`, as `panic!` makes).
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// The failure log beside the game in progress, where the platform has folders.
fn failure_log() -> Option<std::path::PathBuf> {
    Settings::paths().map(|(_, game)| game.with_file_name(FAILURE_LOG))
}

/// Says why the app did not start: on standard error, and where nobody reads that (a
/// program started from the Start menu or Finder), in a message box too.
pub fn report_start_failure(message: &str) {
    show_failure("Okapi could not start", message);
}

/// A failure said on standard error, written to the failure log in the data folder
/// ([`FAILURE_LOG`]: where nobody reads standard error, a desktop launcher on Linux, the
/// reason stays), and on Windows and macOS in a message box.
fn show_failure(title: &str, message: &str) {
    eprintln!("okapi: {message}");
    if let Some(log) = failure_log() {
        log_failure(&log, title, message);
    }
    platform::show_failure(title, message);
}

/// The file, beside the game in progress, keeping why Okapi could not start or stopped.
pub const FAILURE_LOG: &str = "okapi-failures.log";

/// The failure log stops growing past this many bytes: it starts again.
const FAILURE_LOG_LIMIT: u64 = 256 * 1024;

/// Adds `title: message` with the date to the log at `path` (making its folder). Nothing
/// more can be said when that fails too: standard error has it already.
pub fn log_failure(path: &std::path::Path, title: &str, message: &str) {
    use std::io::Write;
    // A FIFO would wait for a reader for ever, a dying app with it.
    if okapi_core::formats::check_not_a_pipe(path).is_err()
        || platform::make_folder_of(path).is_err()
    {
        return;
    }
    let full = std::fs::metadata(path).is_ok_and(|m| m.len() > FAILURE_LOG_LIMIT);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(!full)
        .write(true)
        .truncate(full)
        .open(path);
    if let Ok(mut file) = file {
        let when = okapi_core::game::today();
        let version = env!("CARGO_PKG_VERSION");
        let _ = writeln!(file, "{when} Okapi {version}: {title}: {message}");
    }
}

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

    /// A panic on the main thread stops the app and says so in a message box; one on
    /// another thread is logged with the thread's name (its joiner may raise it again).
    #[test]
    fn a_panic_says_where_it_happened() {
        let main = panic_report(Some("main"), "boom");
        assert!(main.ends_the_app);
        assert_eq!(main.message, "Okapi stopped on an internal error: boom");
        let task = panic_report(Some("okapi-database"), "boom");
        assert!(!task.ends_the_app);
        assert!(task.message.contains("okapi-database"), "{}", task.message);
        assert!(task.message.ends_with("boom"));
        assert!(!panic_report(None, "boom").ends_the_app);
    }

    /// A panic raised again on the main thread carries its message.
    #[test]
    fn a_resumed_panic_is_said_with_its_message() {
        let caught = std::thread::Builder::new()
            .name("okapi-test-task".into())
            .spawn(|| panic!("the task's {} failure", "own"))
            .unwrap()
            .join()
            .unwrap_err();
        assert_eq!(panic_text(caught.as_ref()), "the task's own failure");
        let fixed = std::thread::spawn(|| panic!("fixed")).join().unwrap_err();
        assert_eq!(panic_text(fixed.as_ref()), "fixed");
        assert_eq!(panic_text(&7_u8), "a panic without a message");
    }

    #[test]
    fn the_icon_is_a_square_png() {
        let icon = eframe::icon_data::from_png_bytes(platform::ICON_PNG).unwrap();
        assert_eq!((icon.width, icon.height), (256, 256));
    }
}
