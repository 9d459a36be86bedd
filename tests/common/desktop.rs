//! The real window tests' desktop: which tools exist, and an Xvfb server of their own.

use super::process::KillOnDrop;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether `tool` is on the PATH.
pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A real-window test that cannot run here (a tool missing, no compositor): on a
/// developer's machine it is skipped with the reason; under CI (`CI=true`, which CI sets
/// and `.ci/gui-deps` installs every tool for) it fails, so a test that never ran is
/// never counted as passed.
pub fn skip_unless_ci(why: &str) {
    if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0") {
        panic!("{why}, and CI=true: CI must run this test (.ci/gui-deps installs its tools)");
    }
    eprintln!("skipped: {why}");
}

/// Whether every tool a real-window test needs is there. Where one is missing the test is
/// skipped with a message, except under CI, where it fails ([`skip_unless_ci`]).
pub fn tools_present(tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !have(t)).collect();
    if missing.is_empty() {
        return true;
    }
    let said = format!(
        "{} not installed (apt-get install xvfb xclip xdotool imagemagick, or .ci/gui-deps)",
        missing.join(", ")
    );
    skip_unless_ci(&said);
    false
}

/// Starts the app (`okapi` with `args`) on `display`, its settings and data in `home`
/// (`config/`, `data/`), and waits for its window; returns the app and the window's id.
/// Twice in the whole suite on the loaded development machine the window did not appear
/// within 45 s (never when a test ran alone, cause not found): a second start is tried
/// before the test fails, and the failure says what the app wrote to stderr.
pub fn start_okapi(display: &str, home: &Path, args: &[&std::ffi::OsStr]) -> (KillOnDrop, String) {
    let start = |attempt: u32| {
        let stderr = home.join(format!("stderr-{attempt}"));
        let app = Command::new(env!("CARGO_BIN_EXE_okapi"))
            .args(args)
            .env("DISPLAY", display)
            .env_remove("WAYLAND_DISPLAY")
            .env("LIBGL_ALWAYS_SOFTWARE", "1")
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("okapi starts");
        let mut app = KillOnDrop(app);
        let said = || std::fs::read_to_string(&stderr).unwrap_or_default();
        let deadline = Instant::now() + Duration::from_secs(45);
        loop {
            let found = Command::new("xdotool")
                .args(["search", "--name", "^Okapi$"])
                .env("DISPLAY", display)
                .stderr(Stdio::null())
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
                .unwrap_or_default();
            if let Some(w) = found.lines().next() {
                return Ok((app, w.trim().to_string()));
            }
            if let Some(status) = app.0.try_wait().unwrap() {
                return Err(format!("the app ended ({status}): {}", said()));
            }
            if Instant::now() >= deadline {
                return Err(format!("no window in 45 s; the app said: {}", said()));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    match start(1) {
        Ok(started) => started,
        Err(first) => start(2).unwrap_or_else(|second| {
            panic!("the Okapi window did not appear: {first}; started again: {second}")
        }),
    }
}

/// Waits until `path` exists or the child ends; true if it exists.
pub fn wait_for(path: &Path, child: &mut KillOnDrop) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if path.exists() {
            return true;
        }
        if child.0.try_wait().ok().flatten().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Starts Xvfb (1000x760) on the first free display of `displays` (each test file its
/// own range, so that tests run at once never meet); returns it and the display name.
pub fn xvfb(displays: std::ops::Range<u32>) -> (KillOnDrop, String) {
    for n in displays.clone() {
        if Path::new(&format!("/tmp/.X{n}-lock")).exists()
            || Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
        {
            continue;
        }
        let child = Command::new("Xvfb")
            .args([&format!(":{n}"), "-screen", "0", "1000x760x24"])
            .args(["-nolisten", "tcp"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut server = KillOnDrop(child);
        // Taken meanwhile, the server ends: the next number.
        if wait_for(&PathBuf::from(format!("/tmp/.X11-unix/X{n}")), &mut server) {
            return (server, format!(":{n}"));
        }
    }
    panic!(
        "no free X display in :{}..:{}",
        displays.start, displays.end
    );
}

/// Runs `command` with `text` on its standard input and waits for it: how the tests put
/// text on a clipboard as another program does (`xclip -i`, `wl-copy`, which fork a
/// server that keeps the selection while the parent ends at once).
pub fn feed(mut command: Command, text: &str) {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the clipboard tool starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    child.wait().unwrap();
}
