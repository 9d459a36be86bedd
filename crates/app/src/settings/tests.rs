use super::*;

#[test]
fn round_trip_and_defaults() {
    // Removed when dropped, also when an assertion fails.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    assert_eq!(Settings::load(&path), Settings::default());
    let mut s = Settings {
        solve_limit: 16,
        eval_mode: SolveMode::Wld,
        threads: 3,
        ..Settings::default()
    };
    for i in 0..10 {
        s.remember(Path::new(&format!("/g{i}.json")));
    }
    s.remember(Path::new("/g5.json"));
    assert_eq!(s.recent.len(), MAX_RECENT);
    assert_eq!(s.recent[0], Path::new("/g5.json"));
    // The dialogs start in the folder of the last file; a bare name is the current
    // folder, kept whole (another start may be elsewhere).
    s.remember_folder(Path::new("/scripts/ffo.scr"));
    assert_eq!(s.last_folder.as_deref(), Some(Path::new("/scripts")));
    s.remember(Path::new("game.json"));
    assert_eq!(s.last_folder, Some(std::env::current_dir().unwrap()));
    s.save(&path).unwrap();
    assert_eq!(Settings::load(&path), s);
    std::fs::write(&path, "{ not json").unwrap();
    assert_eq!(Settings::load(&path), Settings::default());
    // No threads is no setting: all the cores.
    std::fs::write(&path, r#"{ "threads": 0, "solve_limit": 12 }"#).unwrap();
    let loaded = Settings::load(&path);
    assert_eq!(loaded.threads, okapi_core::search::available_threads());
    assert_eq!(loaded.solve_limit, 12);
}

#[test]
fn the_window_comes_back_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let g = WindowGeometry {
        width: 1100.0,
        height: 800.0,
        position: Some([40.0, 30.0]),
    };
    let s = Settings {
        window: Some(g),
        ..Settings::default()
    };
    s.save(&path).unwrap();
    let back = Settings::load(&path).window;
    assert_eq!(back, Some(g));
    let v = crate::viewport(back);
    assert_eq!(v.inner_size, Some(eframe::egui::vec2(1100.0, 800.0)));
    assert_eq!(v.position, Some(eframe::egui::pos2(40.0, 30.0)));
    // Nothing saved, or nonsense saved: the default size, placed by the desktop.
    for bad in [
        None,
        Some(WindowGeometry { width: 1e9, ..g }),
        Some(WindowGeometry {
            width: f32::NAN,
            ..g
        }),
        Some(WindowGeometry { height: 10.0, ..g }),
        Some(WindowGeometry {
            position: Some([f32::INFINITY, 0.0]),
            ..g
        }),
    ] {
        let v = crate::viewport(bad);
        assert_eq!(
            v.inner_size,
            Some(eframe::egui::vec2(1000.0, 720.0)),
            "{bad:?}"
        );
        assert_eq!(v.position, None);
    }
    // Where the platform tells no position (Wayland), the size still comes back.
    let v = crate::viewport(Some(WindowGeometry {
        position: None,
        ..g
    }));
    assert_eq!((v.inner_size.unwrap().x, v.position), (1100.0, None));
    // The geometry is read from what the platform says, but not of a maximised window.
    let mut info = eframe::egui::ViewportInfo {
        inner_rect: Some(eframe::egui::Rect::from_min_size(
            eframe::egui::pos2(45.0, 60.0),
            eframe::egui::vec2(1100.0, 800.0),
        )),
        outer_rect: Some(eframe::egui::Rect::from_min_size(
            eframe::egui::pos2(40.0, 30.0),
            eframe::egui::vec2(1110.0, 835.0),
        )),
        ..Default::default()
    };
    assert_eq!(WindowGeometry::of(&info), Some(g));
    info.maximized = Some(true);
    assert_eq!(WindowGeometry::of(&info), None);
}

#[test]
fn settings_levels_out_of_range_are_replaced_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let level = |depth: u32, temperature: f64| {
        format!(
            r#"{{ "level": {{ "Search": {{ "limits": {{ "depth": {depth}, "exact_empties": 12, "wld_empties": 14, "time": null }}, "selectivity": 2, "temperature": {temperature} }} }} }}"#
        )
    };
    for (text, said) in [
        (level(0, 0.0), "level: level depth must be 1..60, not 0"),
        (
            level(1000, 0.0),
            "level: level depth must be 1..60, not 1000",
        ),
        (
            level(8, -1.0),
            "level: not a level Okapi offers (depth 8, exact from 12 empties, temperature -1)",
        ),
    ] {
        std::fs::write(&path, &text).unwrap();
        let (s, problems) = Settings::load_checked(&path);
        assert_eq!(problems.len(), 1, "{text}: {problems:?}");
        assert!(problems[0].starts_with(said), "{text}: {problems:?}");
        assert_eq!(s.level, Settings::default().level);
    }
    // Every level the picker offers (and the time levels of the ladder), at any
    // temperature, is kept as it is.
    let mut offered = vec![
        okapi_core::level::Level::Random,
        okapi_core::level::Level::Greedy,
    ];
    offered.extend((1..=30).map(okapi_core::level::Level::numbered));
    offered.extend(
        [0.015, 0.05, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0]
            .iter()
            .map(|&t| okapi_core::level::Level::timed(std::time::Duration::from_secs_f64(t))),
    );
    for mut level in offered {
        for temperature in [0.0, 0.1 + 0.2, 1.5, 7.0] {
            if let okapi_core::level::Level::Search(s) = &mut level
                && s.limits.time.is_none()
            {
                s.temperature = temperature;
            }
            let mut settings = Settings {
                level,
                ..Settings::default()
            };
            let problems = settings.check();
            assert!(
                problems.iter().all(|p| !p.starts_with("level")),
                "{level:?}: {problems:?}"
            );
            assert_eq!(settings.level, level);
        }
    }
}

#[test]
fn absurd_engine_figures_are_replaced_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let defaults = Settings::default();
    for (text, said) in [
        (r#"{ "hash_bits": 31 }"#, "hash_bits 31: give 10 to 30"),
        (r#"{ "hash_bits": 9 }"#, "hash_bits 9: give 10 to 30"),
        (r#"{ "hash_bits": 64 }"#, "hash_bits 64"),
        (
            r#"{ "threads": 100000 }"#,
            "threads 100000: give a number of threads from 1 to",
        ),
        (r#"{ "solve_limit": 100000 }"#, "solve_limit 100000"),
        (r#"{ "engine_move_pause": 1e30 }"#, "engine_move_pause"),
        ("{ not json", "is not a settings file"),
    ] {
        std::fs::write(&path, text).unwrap();
        let (s, problems) = Settings::load_checked(&path);
        assert_eq!(problems.len(), 1, "{text}: {problems:?}");
        assert!(problems[0].contains(said), "{text}: {problems:?}");
        if text.contains("hash_bits") {
            // The size as players think of it, not a power of two.
            let size = format!(
                "using the default table of {}",
                table_megabytes(defaults.hash_bits)
            );
            assert!(problems[0].ends_with(&size), "{problems:?}");
        }
        assert_eq!(
            (s.hash_bits, s.threads, s.solve_limit),
            (defaults.hash_bits, defaults.threads, defaults.solve_limit),
            "{text}"
        );
    }
    let (_, problems) = Settings::load_checked(&dir.path().join("missing.json"));
    assert!(problems.is_empty());
    // An endless file is not read to its end.
    let (s, problems) = Settings::load_checked(Path::new("/dev/zero"));
    assert_eq!(s, defaults);
    assert!(problems[0].contains("file too large"), "{problems:?}");
}

#[test]
fn a_setting_changes_one_thing_and_says_whether_the_engine_is_asked_again() {
    let mut s = Settings {
        recent: vec![PathBuf::from("a.json")],
        window: Some(WindowGeometry {
            width: 900.0,
            height: 700.0,
            position: None,
        }),
        coordinates: false,
        ..Settings::default()
    };
    Setting::ValuesAgainstEngine(true).apply_to(&mut s);
    assert!(s.values_against_engine);
    Setting::HashBits(99).apply_to(&mut s);
    assert_eq!(s.hash_bits, *HASH_BITS.end());
    Setting::Threads(0).apply_to(&mut s);
    assert_eq!(s.threads, 1);
    Setting::SolveFrom(99).apply_to(&mut s);
    assert_eq!(s.solve_limit, MAX_SOLVE_LIMIT);
    // The values shown and how they are found ask the engine again; the look does not.
    assert!(Setting::ShowValues(false).changes_analysis());
    assert!(Setting::Book(false).changes_analysis());
    assert!(Setting::ValuesAgainstEngine(true).changes_analysis());
    assert!(!Setting::Coordinates(true).changes_analysis());
    assert!(!Setting::ValuesOnBest(2).changes_analysis());
    // The defaults come back; the window's place and the recent files stay.
    let (window, recent) = (s.window, s.recent.clone());
    Setting::RestoreDefaults.apply_to(&mut s);
    assert_eq!(
        s,
        Settings {
            window,
            recent,
            ..Settings::default()
        }
    );
    Setting::ForgetRecentFiles.apply_to(&mut s);
    assert!(s.recent.is_empty());
}
