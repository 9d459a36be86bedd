//! The app against faults from outside: damaged settings and kept
//! games, a data folder it cannot write. Each is said in plain words and nothing the
//! user made is overwritten.
#![cfg(feature = "gui")]

use okapi_app::{App, Command, ScriptedDialogs};
use okapi_core::board::Square;

fn app() -> App {
    App::new(Box::new(ScriptedDialogs::default()), || {})
}

/// A settings file with a table of 2^31 entries and 100000 threads: the app starts with
/// its defaults and says what it did not use.
#[test]
fn absurd_settings_are_replaced_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, r#"{ "hash_bits": 31, "threads": 100000 }"#).unwrap();
    let mut app = app();
    app.use_settings_file(&path);
    let err = app.error.clone().expect("a message");
    assert!(err.contains("hash_bits 31"), "{err}");
    assert!(err.contains("threads 100000"), "{err}");
    assert!(okapi_app::settings::HASH_BITS.contains(&app.settings.hash_bits));
    assert!(app.settings.threads <= okapi_engine::Machine::this().max_threads());
    assert!(err.contains("give 10 to 30"), "{err}");
    // The file is the user's: left as it was until a setting changes.
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        r#"{ "hash_bits": 31, "threads": 100000 }"#
    );
}

/// A table this machine's memory cannot hold (2^30 entries, 16 GiB, where less than
/// 32 GiB are available): the app starts, says so, and its engine gets a table that fits;
/// the setting stays the user's.
#[test]
fn a_table_larger_than_the_memory_is_made_smaller_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, r#"{ "hash_bits": 30 }"#).unwrap();
    let mut app = app();
    app.use_settings_file(&path);
    assert_eq!(app.settings.hash_bits, 30);
    let used = app.settings.engine_config().hash_bits();
    match okapi_engine::Machine::this().memory {
        Some(bytes) if bytes < 32 << 30 => {
            let err = app.error.clone().expect("a message");
            assert!(
                err.contains("hash_bits 30 asks for a 16 GiB hash table"),
                "{err}"
            );
            assert!(used < 30);
            assert!(err.contains(&format!("using hash_bits {used}")), "{err}");
            assert!(app.settings.table_size_text().contains("used"));
        }
        _ => assert_eq!(used, 30),
    }
    // The app still plays: a move and the engine's answer to it.
    app.apply(okapi_app::Command::Play(Square::parse("f5").unwrap()));
    assert_eq!(app.session.game().len(), 1);
}

/// A kept game with a value of 1e9 (it hung the app at every start): refused with the
/// reason and moved aside, so the next autosave does not overwrite it.
#[test]
fn an_unreadable_kept_game_is_moved_aside_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("current-game.json");
    let text = r#"{"format":"okapi-game","version":2,"moves":["f5"],"evals":[{"ply":0,"value":1000000000,"source":"exact"}]}"#;
    std::fs::write(&saved, text).unwrap();
    let mut app = app();
    app.restore_game_in_progress(&saved);
    let err = app.error.clone().expect("a message");
    assert!(err.contains("could not be read"), "{err}");
    assert!(err.contains("1000000000 is not a value"), "{err}");
    let aside = dir.path().join("current-game.json.unreadable");
    assert!(err.contains(&aside.display().to_string()), "{err}");
    assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
    assert!(!saved.exists());
    assert!(app.session.game().is_empty());
}

/// A data folder that cannot be written (here a file stands where the folder should be,
/// which stops root too): the first failed autosave is said, play goes on.
#[test]
fn a_failing_autosave_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("data"), "a file, not a folder").unwrap();
    let mut app = app();
    app.keep_game_at(Some(dir.path().join("data").join("current-game.json")));
    app.apply(Command::Play(Square::parse("f5").unwrap()));
    let err = app.error.clone().expect("a message");
    assert!(err.contains("cannot be kept for the next start"), "{err}");
    assert_eq!(app.session.game().len(), 1);
    // Said once, not at every move.
    app.error = None;
    app.apply(Command::Play(Square::parse("d6").unwrap()));
    assert!(app.error.is_none());
}

/// Fails the test run (rather than hanging it) if `what` has not finished within a minute.
fn watchdog(what: &'static str) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = done.clone();
    std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(60));
        if !seen.load(std::sync::atomic::Ordering::SeqCst) {
            eprintln!("{what}: still blocked after 60 s");
            std::process::exit(1);
        }
    });
    done
}

#[cfg(unix)]
fn fifo(path: &std::path::Path) {
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
}

/// FIFOs in place of `settings.json`, `current-game.json`, `practice.json` and a game
/// opened (`okapi app fifo.ggf`) hung the app for ever (no window, a black one, a freeze
/// when "Practise mistakes" opened): each is refused unopened and said.
#[cfg(unix)]
#[test]
fn fifos_in_place_of_the_apps_files_never_hang() {
    let done = watchdog("a FIFO in place of the app's files");
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    for name in [
        "settings.json",
        "current-game.json",
        "practice.json",
        "fifo.ggf",
    ] {
        fifo(&path(name));
    }
    let mut app = app();
    app.use_settings_file(&path("settings.json"));
    let err = app.error.take().expect("a message about the settings");
    assert!(err.contains("not a regular file"), "{err}");
    app.restore_game_in_progress(&path("current-game.json"));
    let err = app.error.take().expect("a message about the kept game");
    assert!(err.contains("not a regular file"), "{err}");
    app.apply(Command::OpenPath(path("fifo.ggf")));
    let err = app.error.take().expect("a message about the game");
    assert!(err.contains("not a regular file"), "{err}");
    app.keep_practice_at(Some(path("practice.json")));
    app.apply(Command::ShowPractice);
    assert_eq!(app.practice_store().map(|s| s.cards.len()), Some(0));
    done.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// A settings file kept as a symbolic link (in a dotfiles folder) was replaced by a plain
/// file at the first save: the link stays, the file it points to gets the settings.
#[cfg(unix)]
#[test]
fn a_linked_settings_file_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("dotfiles-settings.json");
    std::fs::write(&real, "{}").unwrap();
    let link = dir.path().join("settings.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut settings = okapi_app::settings::Settings::load(&link);
    settings.flipped = !settings.flipped;
    settings.save(&link).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(okapi_app::settings::Settings::load(&real), settings);
}

/// `okapi "$(printf 'bad\xff.txt')"`: the settings could not hold the name and the app
/// panicked on its first frame ("settings serialise: path contains invalid UTF-8").
/// The game opens; the name is kept out of the settings, which save.
#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_never_panics() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join(std::ffi::OsStr::from_bytes(b"bad\xff.txt"));
    std::fs::write(&bad, "f5d6c3").unwrap();
    let mut app = app();
    app.apply(Command::OpenPath(bad.clone()));
    assert_eq!(app.error, None);
    assert_eq!(app.session.game().len(), 3);
    let settings_path = dir.path().join("settings.json");
    app.settings.save(&settings_path).unwrap();
    let back = okapi_app::settings::Settings::load(&settings_path);
    assert!(back.recent.iter().all(|p| p.to_str().is_some()));
    // And a folder of that name in the recent list of a settings value built by hand.
    let mut s = okapi_app::settings::Settings::default();
    s.recent.push(bad.clone());
    s.db_folders.push(bad.clone());
    s.last_folder = Some(bad);
    s.save(&settings_path).unwrap();
}
