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
