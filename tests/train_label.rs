//! `okapi train label` on a self-play store: shards of one labelling, resumed runs and
//! refused files, through the command line.

use okapi::eval::{Evaluator, SCALE};
use okapi::train::label_files::{LabelFile, Source, UNLABELLED, read_label_set};
use okapi::train::selfplay::{self, EXACT, SelfPlayOptions};
use std::path::Path;
use std::process::Command;

fn store(path: &Path) {
    let options = SelfPlayOptions {
        seed: 3,
        games: 5,
        random_plies: (8, 12),
        depth: 2,
        exact_empties: 10,
        temperature: 1.0,
        hash_bits: 14,
    };
    selfplay::append(path, &Evaluator::shipped(), &options, &mut |_| {}).unwrap();
}

fn label(store: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(["train", "label", "--selfplay"])
        .arg(store)
        .arg("--out")
        .arg(out)
        .args(["--depth", "2", "--exact-from", "10", "--chunk-games", "1"])
        .args(extra)
        // The store is labelled, not the records this names.
        .env("OKAPI_DATA", "/no/such/records")
        .output()
        .unwrap()
}

#[test]
fn shards_of_a_store_are_its_exact_labels_and_a_bad_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let sp = dir.path().join("sp.bin");
    store(&sp);
    let parts: Vec<_> = (1..=2)
        .map(|k| dir.path().join(format!("labels.{k}.okl")))
        .collect();
    for (k, part) in parts.iter().enumerate() {
        let out = label(&sp, part, &["--shard", &format!("{}/2", k + 1)]);
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("complete"), "{text}");
    }
    let source = Source::selfplay(&sp).unwrap();
    let set = read_label_set(&parts, &source).unwrap();
    assert_eq!(set.labelled_games(), 5);
    // Where the store's own labels are exact, the search's are the same (rounded).
    let samples = selfplay::read_games(&sp).unwrap();
    let mut exact = 0;
    for (game, labels) in samples.iter().zip(&set.games) {
        let labels = labels.as_ref().unwrap();
        for (l, &v) in game.labels.iter().zip(labels) {
            assert_ne!(v, UNLABELLED);
            if l.depth == EXACT {
                assert_eq!(v as i32 * SCALE, l.value as i32);
                exact += 1;
            }
        }
    }
    assert!(exact > 20, "{exact} exact labels");

    // Run again: nothing to do, the same bytes.
    let before = std::fs::read(&parts[0]).unwrap();
    let out = label(&sp, &parts[0], &["--shard", "1/2"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(std::fs::read(&parts[0]).unwrap(), before);
    assert!(LabelFile::read(&parts[0]).unwrap().unwrap().is_complete());

    // A damaged file is named and left as it is.
    let mut bad = before.clone();
    let at = bad.len() - 12;
    bad[at] ^= 0x40;
    std::fs::write(&parts[0], &bad).unwrap();
    let out = label(&sp, &parts[0], &["--shard", "1/2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("labels.1.okl") && err.contains("damaged: its checksum"),
        "{err}"
    );
    assert_eq!(std::fs::read(&parts[0]).unwrap(), bad);
    // Another shard into a file of shard 2 is refused.
    let out = label(&sp, &parts[1], &["--shard", "1/2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("other settings"), "{err}");
}

/// Like the other commands that read the game records, `train label` reads them only
/// from `--data` (or `OKAPI_DATA`), and without either asks for it, writing nothing.
#[test]
fn label_needs_its_games_to_be_given() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_okapi"))
        .args(["train", "label", "--out", "x.okl"])
        .env_remove("OKAPI_DATA")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--data DIR or --selfplay STORE"), "{err}");
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}
