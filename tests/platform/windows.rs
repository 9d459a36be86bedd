//! What only the Windows build has: the program's header and resources, the installer,
//! the app's window and the portable mode. `.ci/windows` runs these under Wine 8 on a
//! private X display, one test at a time (each starts programs of its own).

use std::ffi::c_void;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PROGRAM: &str = env!("CARGO_BIN_EXE_okapi");

/// The tests of this file, named `windows::` and their function's name.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    trials!("windows::":
        the_program_is_a_windows_10_gui_program_with_its_resources,
        the_installer_installs_a_program_that_runs_and_uninstalls_it,
        the_app_opens_its_window_and_draws_the_board,
        a_portable_program_keeps_its_files_beside_it,
    )
}

/// The file an environment variable names; a test without it fails, saying so.
fn given(var: &str) -> PathBuf {
    std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("{var} does not name the file to test (.ci/windows sets it)"))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

/// The program's PE header says Windows 10 (the standard library needs its
/// `ProcessPrng`) for the OS and the subsystem, a GUI program (no console window when the
/// app opens); it has a resource section with the version information and the manifest
/// (long paths).
fn the_program_is_a_windows_10_gui_program_with_its_resources() {
    let exe = std::fs::read(PROGRAM).unwrap();
    assert_eq!(&exe[..2], b"MZ");
    let pe = u32_at(&exe, 0x3c) as usize;
    assert_eq!(&exe[pe..pe + 4], b"PE\0\0");
    let sections = u16_at(&exe, pe + 6) as usize;
    let optional_size = u16_at(&exe, pe + 20) as usize;
    let optional = pe + 24;
    assert_eq!(u16_at(&exe, optional), 0x20b, "a 64-bit (PE32+) program");
    let os = (u16_at(&exe, optional + 40), u16_at(&exe, optional + 42));
    let subsystem_version = (u16_at(&exe, optional + 48), u16_at(&exe, optional + 50));
    let subsystem = u16_at(&exe, optional + 68);
    assert_eq!(os, (10, 0), "the OS version in the header");
    assert_eq!(subsystem_version, (10, 0), "the subsystem version");
    assert_eq!(subsystem, 2, "the Windows GUI subsystem");
    let names: Vec<&[u8]> = (0..sections)
        .map(|i| &exe[optional + optional_size + 40 * i..][..8])
        .collect();
    assert!(
        names.iter().any(|n| n.starts_with(b".rsrc")),
        "no resource section"
    );
    let description: Vec<u8> = "Okapi: Othello analyser and opponent"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert!(
        exe.windows(description.len()).any(|w| w == description),
        "no version information"
    );
    assert!(
        exe.windows(13).any(|w| w == b"longPathAware"),
        "no manifest"
    );
}

/// What `program ARGS` printed on its standard output, through a file (under Wine 8 a
/// read of a child's pipe never ends), and whether it succeeded.
fn output_of(program: &Path, args: &[&str]) -> (bool, String) {
    let out = workdir("output").join("stdout.txt");
    let status = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let text = std::fs::read(&out).unwrap();
    (
        status.success(),
        String::from_utf8_lossy(&text).into_owned(),
    )
}

/// `reg query KEY [/v VALUE]`: does the registry have it?
fn registry_has(key: &str, value: Option<&str>) -> bool {
    let mut args = vec!["query", key];
    if let Some(v) = value {
        args.extend(["/v", v]);
    }
    output_of(Path::new("reg"), &args).0
}

fn folder_of(var: &str) -> PathBuf {
    PathBuf::from(std::env::var_os(var).unwrap_or_else(|| panic!("no {var}")))
}

/// The installer (`OKAPI_SETUP_EXE`), silently: the program, its uninstaller, the
/// Start-menu entry, Apps & features (with a quiet uninstall), App Paths and `.ggf` for the
/// user, never `.scr` (Windows' screen savers); the installed program runs; the silent
/// uninstall removes the program and its entries and keeps the user's settings.
fn the_installer_installs_a_program_that_runs_and_uninstalls_it() {
    let setup = given("OKAPI_SETUP_EXE");
    let status = Command::new(&setup).arg("/S").status().unwrap();
    assert!(status.success(), "{}: {status}", setup.display());
    let installed = folder_of("LOCALAPPDATA").join("Programs").join("Okapi");
    let start_menu = folder_of("APPDATA").join(r"Microsoft\Windows\Start Menu\Programs");
    for file in [
        installed.join("okapi.exe"),
        installed.join("uninstall.exe"),
        start_menu.join("Okapi.lnk"),
    ] {
        assert!(file.is_file(), "no {}", file.display());
    }
    let uninstall_key = r"HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Okapi";
    for key in [
        uninstall_key,
        r"HKCU\Software\Microsoft\Windows\CurrentVersion\App Paths\okapi.exe",
        r"HKCU\Software\Classes\Okapi.Game\shell\open\command",
        r"HKCU\Software\Classes\.ggf",
    ] {
        assert!(registry_has(key, None), "no registry key {key}");
    }
    assert!(registry_has(uninstall_key, Some("QuietUninstallString")));
    let (_, scr) = output_of(Path::new("reg"), &["query", r"HKCU\Software\Classes\.scr"]);
    assert!(!scr.to_lowercase().contains("okapi"), ".scr claimed");

    let (_, version) = output_of(&installed.join("okapi.exe"), &["--version"]);
    assert_eq!(
        version.trim_end(),
        format!("okapi {}", env!("CARGO_PKG_VERSION")),
        "the installed program"
    );

    let settings = folder_of("APPDATA").join(r"Okapi\config\settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{}").unwrap();
    // `_?=` runs the uninstaller in place, and waits for it.
    let status = Command::new(installed.join("uninstall.exe"))
        .arg("/S")
        .arg(format!("_?={}", installed.display()))
        .status()
        .unwrap();
    assert!(status.success(), "the uninstaller: {status}");
    assert!(
        !installed.join("okapi.exe").exists(),
        "okapi.exe is still there"
    );
    let _ = std::fs::remove_file(installed.join("uninstall.exe"));
    let _ = std::fs::remove_dir(&installed);
    assert!(
        !registry_has(uninstall_key, None),
        "still in Apps & features"
    );
    assert!(
        !registry_has(r"HKCU\Software\Classes\Okapi.Game", None),
        "the file type is still there"
    );
    assert!(settings.is_file(), "the user's settings were removed");
}

/// A top-level window: its handle, its process, whether it is shown, its title.
struct Window {
    handle: *mut c_void,
    process: u32,
    visible: bool,
    title: String,
}

fn windows() -> Vec<Window> {
    use windows_sys::Win32::Foundation::{HWND, LPARAM};
    use windows_sys::Win32::UI::WindowsAndMessaging::{
        EnumWindows, GetWindowTextW, GetWindowThreadProcessId, IsWindowVisible,
    };
    unsafe extern "system" fn each(handle: HWND, found: LPARAM) -> windows_sys::core::BOOL {
        // SAFETY: `found` is the vector `windows` passes, alive for the whole enumeration;
        // the calls read the window `EnumWindows` hands over.
        unsafe {
            let found = &mut *(found as *mut Vec<Window>);
            let mut text = [0u16; 256];
            let n = GetWindowTextW(handle, text.as_mut_ptr(), text.len() as i32);
            let mut process = 0;
            GetWindowThreadProcessId(handle, &mut process);
            found.push(Window {
                handle,
                process,
                visible: IsWindowVisible(handle) != 0,
                title: String::from_utf16_lossy(&text[..n.max(0) as usize]),
            });
        }
        1
    }
    let mut found: Vec<Window> = Vec::new();
    // SAFETY: the callback gets the vector's address, which outlives the call.
    unsafe { EnumWindows(Some(each), &mut found as *mut Vec<Window> as LPARAM) };
    found
}

/// The share of the window's pixels, on the screen, that are the board's felt (#1e7a46,
/// within 10%), in per cent: sampled on a grid.
fn green_share(window: &Window) -> f64 {
    use windows_sys::Win32::Foundation::RECT;
    use windows_sys::Win32::Graphics::Gdi::{CLR_INVALID, GetDC, GetPixel, ReleaseDC};
    use windows_sys::Win32::UI::WindowsAndMessaging::GetWindowRect;
    let mut r = RECT {
        left: 0,
        top: 0,
        right: 0,
        bottom: 0,
    };
    // SAFETY: a window handle from `EnumWindows`; the screen's device context is released
    // before returning.
    unsafe {
        GetWindowRect(window.handle, &mut r);
        let screen = GetDC(std::ptr::null_mut());
        let (mut green, mut all) = (0u32, 0u32);
        const STEPS: i32 = 48;
        for i in 0..STEPS {
            for j in 0..STEPS {
                let x = r.left + (r.right - r.left) * (2 * i + 1) / (2 * STEPS);
                let y = r.top + (r.bottom - r.top) * (2 * j + 1) / (2 * STEPS);
                let c = GetPixel(screen, x, y);
                if c == CLR_INVALID {
                    continue;
                }
                all += 1;
                let (red, g, b) = (c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff);
                let near = |v: u32, want: u32| v.abs_diff(want) <= 26;
                green += u32::from(near(red, 0x1e) && near(g, 0x7a) && near(b, 0x46));
            }
        }
        ReleaseDC(std::ptr::null_mut(), screen);
        100.0 * f64::from(green) / f64::from(all.max(1))
    }
}

/// The app, started from `exe` with its standard error in `log`; killed when dropped.
struct App {
    child: Child,
}

impl App {
    fn start(exe: &Path, log: &Path) -> App {
        let child = Command::new(exe)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .unwrap();
        App { child }
    }

    /// Its shown window whose title starts with `title`, within a minute.
    fn window(&mut self, title: &str) -> Option<Window> {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let mine = windows()
                .into_iter()
                .find(|w| w.process == self.child.id() && w.visible && w.title.starts_with(title));
            if mine.is_some() {
                return mine;
            }
            if self.child.try_wait().unwrap().is_some() {
                return None;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        None
    }
}

impl Drop for App {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("windows-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The app opens its window and draws the board. Where the display has no OpenGL (as in
/// virtual machines and remote desktops; `.ci/windows` says so with
/// `OKAPI_TEST_NO_OPENGL=1`) it draws the window another way or says in a message box
/// what is missing: never silence.
fn the_app_opens_its_window_and_draws_the_board() {
    let without_opengl = std::env::var("OKAPI_TEST_NO_OPENGL").as_deref() == Ok("1");
    let log = workdir("app").join("app.log");
    let mut app = App::start(Path::new(PROGRAM), &log);
    let window = app.window("Okapi");
    // The window draws a few frames first.
    std::thread::sleep(Duration::from_secs(4));
    let said = || std::fs::read_to_string(&log).unwrap_or_default();
    let share = window.as_ref().map_or(0.0, green_share);
    let title = window.as_ref().map_or(String::new(), |w| w.title.clone());
    let _ = writeln!(
        std::io::stderr(),
        "window {title:?}, the board's green {share:.1}% of it"
    );
    if without_opengl && share <= 8.0 {
        assert!(
            title == "Okapi could not start" || said().contains("cannot draw the window"),
            "neither a window nor a message: {title:?}\n{}",
            said()
        );
    } else {
        assert!(window.is_some(), "no window: {}", said());
        assert!(share > 8.0, "the board is {share:.1}% of the window");
    }
}

/// With the portable marker beside the program, the app keeps its files in `okapi-data`
/// beside it.
fn a_portable_program_keeps_its_files_beside_it() {
    let dir = workdir("portable");
    let exe = dir.join("okapi.exe");
    std::fs::copy(PROGRAM, &exe).unwrap();
    let marker = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/windows/okapi-portable.txt");
    std::fs::copy(&marker, dir.join("okapi-portable.txt")).unwrap();
    let mut app = App::start(&exe, &dir.join("app.log"));
    let data = dir.join("okapi-data");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !data.is_dir() && Instant::now() < deadline {
        if app.child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    drop(app);
    let log = std::fs::read_to_string(dir.join("app.log")).unwrap_or_default();
    assert!(data.is_dir(), "nothing written beside the program: {log}");
}
