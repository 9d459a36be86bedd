use super::*;

/// A FIFO in a folder kept in the settings left the tab "Loading the games
/// database…" at every start (opening it waits for a writer for ever).
#[test]
#[cfg(unix)]
fn a_fifo_in_a_games_folder_never_blocks_the_database_tab() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "f5 d6 c3 d3 c4").unwrap();
    let name =
        std::ffi::CString::new(dir.path().join("b.txt").as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    let folders = vec![dir.path().to_path_buf()];
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(load(okapi_core::db::shipped_bytes(), &folders));
    });
    let loaded = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("still loading after 60 s: blocked on the FIFO")
        .unwrap();
    assert_eq!(loaded.bad_files.len(), 1, "{:?}", loaded.bad_files);
    assert!(loaded.bad_files[0].contains("b.txt: not a regular file"));
    let shipped = okapi_core::db::load_shipped().unwrap().len();
    assert_eq!(loaded.db.len(), shipped + 1);
}

#[test]
fn thousands_are_separated() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(134440), "134,440");
    assert_eq!(thousands(1234567), "1,234,567");
}

#[test]
fn values_near_zero_have_no_minus_sign() {
    assert_eq!(signed_tenths(-0.04), "+0.0");
    assert_eq!(signed_tenths(0.0), "+0.0");
    assert_eq!(signed_tenths(-0.06), "-0.1");
    assert_eq!(signed_tenths(6.84), "+6.8");
}

/// WTHOR's perfect-play score says which position it is for: "perfect +18" beside a
/// solve's "+16 (exact)" of the board read as a contradiction.
#[test]
fn the_perfect_play_score_names_its_empties() {
    let t = okapi_core::formats::records::TheoreticalScore {
        empties: 24,
        black_score: 18,
    };
    assert_eq!(perfect_play(t), "perfect +18 from 24 empties");
    let t = okapi_core::formats::records::TheoreticalScore {
        empties: 22,
        black_score: -4,
    };
    assert_eq!(perfect_play(t), "perfect -4 from 22 empties");
}
