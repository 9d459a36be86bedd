//! The real app window and the system clipboard under Wayland: text put on the clipboard
//! by another program (`wl-copy`) is pasted with Ctrl+V, and Okapi's copies
//! (Ctrl+Shift+C, Ctrl+Shift+B) are read back by another program (`wl-paste`).
//!
//! The compositor is Weston (kiosk shell, the app full screen and focused). Its headless
//! backend has no seat ("Missing a seat" from wl-copy, Weston 10), and a clipboard needs
//! one, so Weston runs on its X11 backend inside its own Xvfb: the app is still a pure
//! Wayland client (DISPLAY removed from its environment), and `xdotool` keys reach it
//! through Weston's seat as a real keyboard's would. Skipped, with a message, only where
//! weston, wl-clipboard, Xvfb or xdotool is missing or Weston cannot start, and never
//! under CI (`CI=true`: there it fails instead; CI installs them through `.ci/gui-deps`).
#![cfg(all(feature = "gui", target_os = "linux"))]

mod common;

use common::desktop::{have, wait_for};
use common::process::KillOnDrop as Killed;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A Wayland session: the compositor, its runtime folder and its socket's name.
struct Wayland {
    _weston: Killed,
    runtime: tempfile::TempDir,
    socket: String,
}

impl Wayland {
    /// A command run as a Wayland client of this compositor (no X display).
    fn client(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env_remove("DISPLAY")
            .env("XDG_RUNTIME_DIR", self.runtime.path())
            .env("WAYLAND_DISPLAY", &self.socket);
        c
    }

    fn copy(&self, text: &str) {
        common::desktop::feed(self.client("wl-copy"), text);
    }

    fn paste(&self) -> String {
        let out = self
            .client("wl-paste")
            .arg("--no-newline")
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .expect("wl-paste runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

/// Weston on its X11 backend in `display`, or None (with the reason) when it cannot start.
fn weston(display: &str) -> Result<Wayland, String> {
    let runtime = tempfile::tempdir().unwrap();
    let socket = "wayland-okapi-test".to_string();
    let log = runtime.path().join("weston.log");
    let child = Command::new("weston")
        .args(["--backend=x11-backend.so", "--shell=kiosk-shell.so"])
        .args(["--idle-time=0", "--width=1000", "--height=760"])
        .arg(format!("--socket={socket}"))
        .arg(format!("--log={}", log.display()))
        .env("DISPLAY", display)
        .env("XDG_RUNTIME_DIR", runtime.path())
        .env_remove("WAYLAND_DISPLAY")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("weston: {e}"))?;
    let mut weston = Killed(child);
    if !wait_for(&runtime.path().join(&socket), &mut weston) {
        let said = std::fs::read_to_string(&log).unwrap_or_default();
        return Err(format!("weston did not start: {said}"));
    }
    Ok(Wayland {
        _weston: weston,
        runtime,
        socket,
    })
}

fn key(display: &str, keys: &str) {
    let status = Command::new("xdotool")
        .args(["key", keys])
        .env("DISPLAY", display)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("xdotool runs");
    assert!(status.success(), "xdotool key {keys}");
}

/// Presses keys until `wl-paste` gives `expected` (the first frames may still be drawing).
fn copy_until(display: &str, wayland: &Wayland, keys: &str, expected: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = String::new();
    while Instant::now() < deadline {
        key(display, keys);
        std::thread::sleep(Duration::from_millis(700));
        last = wayland.paste();
        if last == expected {
            return last;
        }
    }
    last
}

#[test]
fn the_system_clipboard_works_both_ways_on_wayland() {
    let missing: Vec<&str> = ["weston", "wl-copy", "wl-paste", "Xvfb", "xdotool"]
        .into_iter()
        .filter(|t| !have(t))
        .collect();
    if !missing.is_empty() {
        common::desktop::skip_unless_ci(&format!(
            "{} not installed (apt-get install weston wl-clipboard xvfb xdotool, \
             or .ci/gui-deps)",
            missing.join(", ")
        ));
        return;
    }
    let (_server, display) = common::desktop::xvfb(230..290);
    let wayland = match weston(&display) {
        Ok(w) => w,
        Err(why) => {
            common::desktop::skip_unless_ci(&format!(
                "no Wayland compositor could be started: {why}"
            ));
            return;
        }
    };
    let home = tempfile::tempdir().unwrap();
    let log = home.path().join("okapi.log");
    let app = wayland
        .client(env!("CARGO_BIN_EXE_okapi"))
        .env("LIBGL_ALWAYS_SOFTWARE", "1")
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("okapi starts");
    let mut app = Killed(app);
    // Let the window map, take the focus and draw its first frames.
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        app.0.try_wait().unwrap().is_none(),
        "the app ended on Wayland: {}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );

    // Another program's transcript, pasted with Ctrl+V, comes back as Okapi writes it.
    wayland.copy("1. F5 D6 2. C3 D3");
    std::thread::sleep(Duration::from_millis(500));
    key(&display, "ctrl+v");
    std::thread::sleep(Duration::from_secs(1));
    let back = copy_until(&display, &wayland, "ctrl+shift+c", "f5d6c3d3");
    assert_eq!(back, "f5d6c3d3", "Ctrl+V then Copy transcript");

    // A board string in the b/w convention, pasted, copied back as a board string.
    let p = okapi_core::formats::transcript::read("f5d6c3")
        .unwrap()
        .position();
    let bw: String = p
        .to_board_string()
        .replace('X', "b")
        .replace('O', "w")
        .replace('-', ".");
    wayland.copy(&bw);
    std::thread::sleep(Duration::from_millis(500));
    key(&display, "ctrl+v");
    std::thread::sleep(Duration::from_secs(1));
    let back = copy_until(&display, &wayland, "ctrl+shift+b", &p.to_board_string());
    assert_eq!(back, p.to_board_string(), "Ctrl+V then Copy board");
}
