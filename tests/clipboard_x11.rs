//! The real app window and the system clipboard under X11: text put on the clipboard by
//! another program (`xclip`) is pasted with Ctrl+V, and Okapi's copies (Ctrl+Shift+C,
//! Ctrl+Shift+B) are read back by that program. Runs on its own Xvfb server; skipped, with
//! a message, only where Xvfb, xclip or xdotool is missing, and never under CI (`CI=true`:
//! there it fails instead; CI installs them through `.ci/gui-deps`).
#![cfg(all(feature = "gui", target_os = "linux"))]

mod common;

use common::desktop::have;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn run(display: &str, program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .env("DISPLAY", display)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Puts `text` on the clipboard as another program does.
fn xclip_in(display: &str, text: &str) {
    let mut xclip = Command::new("xclip");
    xclip
        .args(["-selection", "clipboard", "-i"])
        .env("DISPLAY", display);
    common::desktop::feed(xclip, text);
}

fn xclip_out(display: &str) -> String {
    run(display, "xclip", &["-selection", "clipboard", "-o"])
}

/// Presses keys in the focused window until `xclip -o` gives `expected`.
fn copy_until(display: &str, window: &str, keys: &str, expected: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = String::new();
    while Instant::now() < deadline {
        run(display, "xdotool", &["windowfocus", window]);
        run(display, "xdotool", &["key", keys]);
        std::thread::sleep(Duration::from_millis(700));
        last = xclip_out(display);
        if last == expected {
            return last;
        }
    }
    last
}

#[test]
fn the_system_clipboard_works_both_ways() {
    let missing: Vec<&str> = ["Xvfb", "xclip", "xdotool"]
        .into_iter()
        .filter(|t| !have(t))
        .collect();
    if !missing.is_empty() {
        common::desktop::skip_unless_ci(&format!(
            "{} not installed (apt-get install xvfb xclip xdotool, or .ci/gui-deps)",
            missing.join(", ")
        ));
        return;
    }
    let (_server, display) = common::desktop::xvfb(170..230);
    let home = tempfile::tempdir().unwrap();
    let (_app, window) = common::desktop::start_okapi(&display, home.path(), &[]);
    // Let the first frames draw before typing.
    std::thread::sleep(Duration::from_secs(2));

    // Another program's transcript, pasted with Ctrl+V, comes back as Okapi writes it.
    xclip_in(&display, "1. F5 D6 2. C3 D3");
    run(&display, "xdotool", &["windowfocus", &window]);
    run(&display, "xdotool", &["key", "ctrl+v"]);
    std::thread::sleep(Duration::from_secs(1));
    let back = copy_until(&display, &window, "ctrl+shift+c", "f5d6c3d3");
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
    xclip_in(&display, &bw);
    run(&display, "xdotool", &["windowfocus", &window]);
    run(&display, "xdotool", &["key", "ctrl+v"]);
    std::thread::sleep(Duration::from_secs(1));
    let back = copy_until(&display, &window, "ctrl+shift+b", &p.to_board_string());
    assert_eq!(back, p.to_board_string(), "Ctrl+V then Copy board");
}
