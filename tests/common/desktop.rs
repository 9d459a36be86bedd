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
