//! The app's exchange and interface, driven through egui_kittest and AccessKit as a person
//! would: the clipboard, board strings, a layout that holds, squares that say what they
//! hold, the settings window and the first-steps help. (The real window and the system
//! clipboard under X11: `tests/clipboard_x11.rs`.)
#![cfg(feature = "gui")]

mod common;

use common::app::{Steps, harness, harness_sized, has_label, step_until, temp_dir, text_of};
use eframe::egui::{self, Event, Key, Modifiers, OutputCommand, ViewportCommand, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use okapi_app::{App, Command};
use okapi_core::board::{Color, Position, Square};
use okapi_core::formats::{self, Format};
use okapi_core::game::Seat;

/// What the app put on the clipboard in the last frame.
fn copied(h: &Harness<'static, App>) -> Vec<String> {
    h.output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

fn paste(h: &mut Harness<'static, App>, text: &str) {
    h.event(Event::Paste(text.into()));
    h.run_steps(2);
}

fn error(h: &Harness<'static, App>) -> Option<String> {
    h.query_by_label_contains("Error:").map(|n| text_of(&n))
}

/// A whole game of 60 moves without a pass (30 rows in the move list), as a transcript:
/// the first of a few fixed ways of picking among the legal moves that gives one.
fn long_game() -> String {
    for seed in 0..100usize {
        let mut p = Position::start();
        let mut moves = Vec::new();
        while !p.is_game_over() && !p.must_pass() {
            let legal: Vec<Square> = p.legal_moves().iter().collect();
            let sq = legal[(seed * 7 + moves.len() * 3) % legal.len()];
            p.play(sq).unwrap();
            moves.push(sq.to_string());
        }
        if moves.len() == 60 {
            return moves.concat();
        }
    }
    panic!("no 60-move game without a pass among the picks");
}

#[test]
fn copies_reach_the_clipboard_and_a_paste_is_told_apart() {
    let mut h = harness();
    // Every common transcript spelling.
    for t in [
        "f5d6c3d3",
        "F5 D6 C3 D3",
        "1. f5 d6 2. c3 d3",
        "1.F5 2.D6 3.C3 4.D3\n",
    ] {
        paste(&mut h, t);
        assert_eq!(h.state().game().transcript(), "f5d6c3d3", "{t}");
        assert!(
            h.query_by_label_contains("Pasted a transcript.").is_some(),
            "{t}"
        );
    }
    // Each copy puts its text on the clipboard, in the format it names.
    let game = h.state().game().clone();
    for (command, expected) in [
        (Command::CopyTranscript, "f5d6c3d3".to_string()),
        (Command::CopyBoard, game.position().to_board_string()),
        (Command::CopyGgf, formats::write_game(&game, Format::Ggf)),
        (
            Command::CopyJson,
            formats::write_game(&game, Format::OkapiJson),
        ),
    ] {
        h.state_mut().apply(command.clone());
        h.step();
        assert_eq!(copied(&h), vec![expected], "{command:?}");
    }
    // A board string in the b/w convention, spaced, White to move: a position.
    let p = formats::transcript::read("f5d6c3").unwrap().position();
    let bw: Vec<String> = Square::all()
        .map(|sq| match p.at(sq) {
            Some(Color::Black) => "b".to_string(),
            Some(Color::White) => "w".to_string(),
            None => ".".to_string(),
        })
        .collect();
    paste(&mut h, &format!("{} w", bw.join(" ")));
    assert_eq!(h.state().game().position(), p);
    assert!(
        h.query_by_label_contains("Pasted a board string.")
            .is_some()
    );
    // GGF and Okapi JSON, as other programs and Okapi write them.
    for (text, kind) in [
        (formats::write_game(&game, Format::Ggf), "a GGF game"),
        (
            formats::write_game(&game, Format::OkapiJson),
            "an Okapi JSON game",
        ),
    ] {
        paste(&mut h, &text);
        assert_eq!(h.state().game().transcript(), "f5d6c3d3");
        assert!(
            h.query_by_label_contains(&format!("Pasted {kind}."))
                .is_some(),
            "{kind}"
        );
    }
    // What is wrong is said; the game stays.
    paste(&mut h, &format!("{} X", "-".repeat(68)));
    let e = error(&h).unwrap();
    assert!(e.contains("a board has 64 squares, this has 68"), "{e}");
    let ambiguous = format!("{}b{} X", "X".repeat(10), "O".repeat(53));
    paste(&mut h, &ambiguous);
    let e = error(&h).unwrap();
    assert!(e.contains("ambiguous"), "{e}");
    paste(&mut h, "Dear all, see you at the club");
    let e = error(&h).unwrap();
    assert!(e.contains("none of: a transcript"), "{e}");
    assert_eq!(h.state().game().transcript(), "f5d6c3d3");
    // Edit › Paste asks the system for its clipboard (the text comes as a paste event).
    h.click_label("Edit");
    // (A menu item's name carries its shortcut.)
    h.get_by_label("Paste Ctrl+V").click();
    h.run_steps(1);
    h.step();
    let asked = h
        .output()
        .viewport_output
        .get(&ViewportId::ROOT)
        .is_some_and(|v| v.commands.contains(&ViewportCommand::RequestPaste));
    assert!(asked, "Edit › Paste asks for the clipboard");
    // Ctrl+Shift+C copies the transcript from anywhere but a text field. (The harness
    // keeps the output of the last of the key's frames only: the notice tells.)
    h.click_label("Dismiss");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::C);
    h.run_steps(2);
    assert!(
        h.query_by_label("Copied the moves as a transcript.")
            .is_some()
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::B);
    h.run_steps(2);
    assert!(
        h.query_by_label("Copied the position as a board string.")
            .is_some()
    );
}

#[test]
fn a_board_string_opens_from_a_file() {
    let tmp = temp_dir("board-file");
    let p = formats::transcript::read("f5d6c3d3c4").unwrap().position();
    let good = tmp.path().join("board.txt");
    // Okapi's own diagram, as the console prints it.
    std::fs::write(&good, format!("{p}\n")).unwrap();
    let mut h = harness();
    h.state_mut().apply(Command::OpenPath(good));
    h.run_steps(2);
    assert_eq!(h.state().game().position(), p);
    assert_eq!(h.state().game().len(), 0);
    assert!(error(&h).is_none());
    let bad = tmp.path().join("long.txt");
    std::fs::write(&bad, format!("{}XOXO X\n", &p.to_board_string()[..64])).unwrap();
    h.state_mut().apply(Command::OpenPath(bad));
    h.run_steps(2);
    let e = error(&h).unwrap();
    assert!(e.contains("a board has 64 squares, this has 68"), "{e}");
    assert_eq!(h.state().game().position(), p, "nothing lost");
}

#[test]
fn set_up_takes_a_typed_or_pasted_board_string() {
    let mut h = harness();
    h.state_mut().apply(Command::EnterSetup);
    h.run_steps(2);
    let field = || "Board string (64 squares and the side to move):";
    // The field shows the board; a click on a square shows in the field.
    assert_eq!(
        h.get_by_label(field()).value().unwrap(),
        Position::start().to_board_string()
    );
    h.click_label("a1");
    assert!(h.get_by_label(field()).value().unwrap().starts_with('X'));
    // A pasted or typed board, in another convention: the board follows at once.
    let p = formats::transcript::read("f5d6c3d3c4f4")
        .unwrap()
        .position();
    let stars = p.to_board_string().replace('X', "*").replace('-', ".");
    h.get_by_label(field()).set_text_value_accesskit(&stars);
    h.run_steps(2);
    assert_eq!(h.get_by_label("f5").value().unwrap(), "black disc");
    assert!(h.query_by_label_contains("Not a board").is_none());
    // Wrong: what is wrong shows below the field, the board keeps its last good position.
    for (text, says) in [
        (
            format!("{}.... *", &stars[..64]),
            "a board has 64 squares, this has 68",
        ),
        (stars.replacen('.', "Q", 1), "'Q' at square a1"),
        (stars[..64].to_string(), "the side to move is missing"),
    ] {
        h.get_by_label(field()).set_text_value_accesskit(&text);
        h.run_steps(2);
        let shown = text_of(&h.get_by_label_contains("Not a board"));
        assert!(shown.contains(says), "{text}: {shown}");
        assert_eq!(h.get_by_label("f5").value().unwrap(), "black disc");
    }
    // Typing a character at a time: the last one completes the board.
    h.get_by_label(field())
        .set_text_value_accesskit(&stars[..stars.len() - 1]);
    h.run_steps(2);
    assert!(h.query_by_label_contains("Not a board").is_some());
    h.get_by_label(field()).focus();
    h.run_steps(1);
    h.key_press(Key::End);
    h.get_by_label(field()).type_text("X");
    h.run_steps(2);
    assert!(h.query_by_label_contains("Not a board").is_none());
    // A paste while typing in the field is the field's, not a new game.
    h.event(Event::Paste("f5".into()));
    h.run_steps(2);
    assert!(h.query_by_label_contains("Pasted a transcript.").is_none());
    h.click_label("Done");
    let expected = Position::from_discs(p.black(), p.white(), Color::Black);
    assert_eq!(h.state().game().start(), expected);
}

/// A tab of the side panel (by its name; the one furthest right if a menu shares it).
fn tab<'a>(h: &'a Harness<'static, App>, name: &'a str) -> egui_kittest::Node<'a> {
    h.query_all_by_label(name)
        .max_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .unwrap_or_else(|| panic!("no tab {name}"))
}

/// The rects of the four corner squares.
fn board_rects(h: &Harness<'static, App>) -> Vec<egui::Rect> {
    ["a1", "h1", "a8", "h8"]
        .iter()
        .map(|s| h.get_by_label(s).rect())
        .collect()
}

fn small_script(dir: &std::path::Path) -> std::path::PathBuf {
    let ffo = include_str!("data/ffo1-39.scr");
    let lines: Vec<&str> = ffo
        .lines()
        .filter(|l| l.contains("ffo#0"))
        .take(3)
        .collect();
    let path = dir.join("small.scr");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn the_board_keeps_its_size_and_place_whatever_the_side_shows() {
    let tmp = temp_dir("layout");
    for (w, hgt) in [(1000.0, 720.0), (800.0, 600.0), (1280.0, 900.0)] {
        let mut h = harness_sized(w, hgt);
        let board = board_rects(&h);
        assert!(board[0].width() > 40.0, "{w}x{hgt}: {:?}", board[0]);
        let check = |h: &mut Harness<'static, App>, what: &str| {
            h.run_steps(3);
            assert_eq!(board_rects(h), board, "{w}x{hgt}: {what} moved the board");
        };
        paste(&mut h, &long_game());
        check(&mut h, "a long game");
        h.state_mut().apply(Command::GoTo(30));
        check(&mut h, "going into the game");
        tab(&h, "Database").click();
        check(&mut h, "the Database tab");
        h.state_mut()
            .apply(Command::OpenScriptPath(small_script(tmp.path())));
        check(&mut h, "the script");
        assert!(
            h.query_by_label("Close script").is_some(),
            "the script shows"
        );
        // The script's controls are beside the board, not over it.
        for label in ["Close script", "Solve"] {
            let r = h.get_by_label(label).rect();
            assert!(
                board.iter().all(|b| !b.intersects(r)),
                "{label} over the board"
            );
        }
        tab(&h, "Play").click();
        check(&mut h, "the Play tab again");
        h.state_mut().apply(Command::EnterSetup);
        check(&mut h, "set-up");
        h.state_mut().apply(Command::SetupCancel);
        h.state_mut().settings.coordinates = false;
        check(&mut h, "coordinates off");
        h.state_mut().error = Some("a message".into());
        check(&mut h, "a message");
    }
}

/// The game analysis adds the chart of discs lost beside the evaluation graph: the bottom
/// panel keeps its height and the board its size and place.
#[test]
fn the_loss_chart_does_not_move_the_board() {
    // FFO #1 with a blunder (b1, -22) and a reply: analysed by exact solves at once.
    let text = include_str!("data/ffo1-39.scr");
    let line = text.lines().find(|l| l.contains("ffo#01")).unwrap();
    let mut game = okapi_core::game::Game::new(Position::parse(line).unwrap());
    game.play(okapi_core::board::Move::parse("b1").unwrap(), None)
        .unwrap();
    let reply = game.position().legal_moves().iter().next().unwrap();
    game.play(okapi_core::board::Move::Play(reply), None)
        .unwrap();
    let json = okapi_core::formats::okapi_json::write(&game);
    for (w, hgt) in [(1000.0, 720.0), (800.0, 600.0), (1280.0, 900.0)] {
        let mut h = harness_sized(w, hgt);
        h.state_mut().apply(Command::Paste(json.clone()));
        h.run_steps(3);
        let board = board_rects(&h);
        h.state_mut().apply(Command::AnalyseGame);
        step_until(&mut h, "the game analysis", |app| !app.engine_busy());
        h.run_steps(3);
        assert!(
            h.query_by_label_contains("discs lost per move").is_some(),
            "{w}x{hgt}: the loss chart shows"
        );
        assert_eq!(
            board_rects(&h),
            board,
            "{w}x{hgt}: the loss chart moved the board"
        );
    }
}

#[test]
fn the_move_list_shows_its_rows_and_the_current_one() {
    // 1000x720: at least 12 rows in view at the start of a long game.
    let mut h = harness();
    paste(&mut h, &long_game());
    h.state_mut().apply(Command::GoTo(1));
    h.run_steps(40); // the list scrolls smoothly
    assert_eq!(h.state().game().len(), 60);
    let (first, last) = h.state().move_list_rows_shown().unwrap();
    assert_eq!(first, 0);
    assert!(last + 1 >= 12, "rows {first}..={last} shown at 1000x720");
    // 800x600: the current row in view wherever the game is, without scrolling by hand.
    let mut h = harness_sized(800.0, 600.0);
    paste(&mut h, &long_game());
    for ply in [60, 1, 31, 45, 12] {
        h.state_mut().apply(Command::GoTo(ply));
        h.run_steps(40);
        let row = (ply - 1) / 2;
        let (first, last) = h.state().move_list_rows_shown().unwrap();
        assert!(
            (first..=last).contains(&row),
            "ply {ply} (row {row}) not in rows {first}..={last}"
        );
    }
}

#[test]
fn the_wheel_scrolls_the_move_list() {
    let mut h = harness();
    paste(&mut h, &long_game());
    h.state_mut().apply(Command::GoTo(1));
    h.run_steps(40);
    let before = h.state().move_list_rows_shown().unwrap();
    let over = h
        .query_all_by_label_contains("1. ")
        .find(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with("1. "))
        })
        .unwrap()
        .rect()
        .center();
    h.hover_at(over);
    h.run_steps(1);
    for _ in 0..3 {
        h.event(Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, -3.0),
            phase: egui::TouchPhase::Move,
            modifiers: Modifiers::NONE,
            source: egui::MouseWheelSource::Wheel,
        });
        h.run_steps(2);
    }
    h.run_steps(10);
    let after = h.state().move_list_rows_shown().unwrap();
    assert!(
        after.0 > before.0,
        "the wheel moved the list: {before:?} -> {after:?}"
    );
    // It stays there (nothing pulls it back to the current move)...
    h.run_steps(10);
    assert_eq!(h.state().move_list_rows_shown().unwrap(), after);
    // ...until the current move changes.
    h.state_mut().apply(Command::GoTo(2));
    h.run_steps(40);
    assert_eq!(h.state().move_list_rows_shown().unwrap().0, 0);
}

/// The accessible description of a square.
fn description(h: &Harness<'static, App>, square: &str) -> String {
    h.get_by_label(square)
        .accesskit_node()
        .description()
        .unwrap_or_default()
        .to_string()
}

/// Roles a person operates, which must each have a name.
fn is_control(role: egui::accesskit::Role) -> bool {
    use egui::accesskit::Role;
    matches!(
        role,
        Role::Button
            | Role::CheckBox
            | Role::RadioButton
            | Role::TextInput
            | Role::MultilineTextInput
            | Role::SpinButton
            | Role::Slider
            | Role::ComboBox
            | Role::Link
            | Role::Tab
            | Role::MenuItem
    )
}

/// The controls without a name in the tree now.
fn unnamed_controls(h: &Harness<'static, App>) -> Vec<String> {
    h.root()
        .children_recursive()
        .filter(|n| is_control(n.accesskit_node().role()))
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_none_or(|l| l.trim().is_empty())
        })
        .map(|n| format!("{:?} at {:?}", n.accesskit_node().role(), n.rect()))
        .collect()
}

#[test]
fn every_square_says_what_it_holds_and_every_control_has_a_name() {
    let mut h = harness();
    assert_eq!(description(&h, "d4"), "d4: white disc");
    assert_eq!(description(&h, "e4"), "e4: black disc");
    assert_eq!(description(&h, "a1"), "a1: empty");
    // The legal moves get their values from the book at the start: value and source.
    step_until(&mut h, "book values", |app| app.move_evals().len() == 4);
    h.run_steps(2);
    for sq in ["d3", "c4", "f5", "e6"] {
        let d = description(&h, sq);
        assert!(
            d.starts_with(&format!("{sq}: legal move, +0 (book)")),
            "{d}"
        );
    }
    assert_eq!(description(&h, "c3"), "c3: empty");
    let unnamed = unnamed_controls(&h);
    assert!(unnamed.is_empty(), "controls without a name: {unnamed:?}");
    // The same in the windows and tabs.
    for command in [
        Command::ShowSettings,
        Command::ShowFirstSteps,
        Command::EnterSetup,
    ] {
        h.state_mut().apply(command.clone());
        h.run_steps(3);
        let unnamed = unnamed_controls(&h);
        assert!(
            unnamed.is_empty(),
            "{command:?}: controls without a name: {unnamed:?}"
        );
    }
    tab(&h, "Database").click();
    h.run_steps(2);
    assert!(unnamed_controls(&h).is_empty());
}

#[test]
fn the_settings_window_sets_what_the_board_shows() {
    let tmp = temp_dir("settings");
    let path = tmp.path().join("settings.json");
    let mut h = harness();
    h.state_mut().use_settings_file(&path);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Comma);
    h.run_steps(3);
    for heading in ["Engine player", "Display", "Engine", "Files"] {
        assert!(h.query_all_by_label(heading).next().is_some(), "{heading}");
    }
    assert!(
        h.query_by_label(&path.display().to_string()).is_some(),
        "the settings path"
    );
    step_until(&mut h, "book values", |app| app.move_evals().len() == 4);
    // The side panel has the same widgets (the same labels): the window's come last.
    let in_window = |h: &Harness<'static, App>, label: &str| {
        h.get_all_by_label(label).last().expect(label).click();
    };
    in_window(&h, "Show move values");
    h.run_steps(3);
    assert!(!h.state().settings.show_evals);
    // (The colours may sit below the fold of the window's scroll area: pressed through
    // AccessKit.)
    h.get_by_label("Coordinates around the board").click();
    h.get_by_label("Teal").click_accesskit();
    in_window(&h, "White only");
    h.run_steps(3);
    let s = &h.state().settings;
    assert!(!s.coordinates);
    assert_eq!(s.board_colors, okapi_app::settings::BoardColors::Teal);
    assert_eq!(s.evals_for, okapi_app::EvalsFor::White);
    h.get_by_label("Threads:").set_value_accesskit(1.0);
    h.get_by_label("Hash table:").set_value_accesskit(18.0);
    h.run_steps(3);
    assert_eq!(
        (h.state().settings.threads, h.state().settings.hash_bits),
        (1, 18)
    );
    // Saved as they change, and read back by the next start.
    let saved = okapi_app::Settings::load(&path);
    assert_eq!(saved, h.state().settings);
    // The engine still answers with them.
    h.state_mut().apply(Command::NewGame {
        black: Seat::Human,
        white: Seat::Engine(okapi_core::level::Level::Greedy),
        minutes: 0,
        from_here: false,
    });
    // (The window is over the board: the move is played as a command.)
    h.state_mut()
        .apply(Command::Play(Square::parse("f5").unwrap()));
    h.run_steps(1);
    step_until(&mut h, "the engine's reply", |app| app.game().ply() == 2);
    // (Below the fold of the window's scroll area: pressed through AccessKit.)
    h.get_by_label("Restore the default settings")
        .click_accesskit();
    h.run_steps(2);
    assert!(h.state().settings.coordinates && h.state().settings.show_evals);
}

#[test]
fn first_steps_explains_the_app_and_lists_every_shortcut() {
    let mut h = harness();
    h.key_press(Key::F1);
    h.run_steps(3);
    assert!(h.query_by_label("First steps").is_some());
    for heading in [
        "Play",
        "Analyse",
        "Solve",
        "Scripts",
        "Practise",
        "Exchange",
        "Every shortcut",
    ] {
        assert!(
            h.query_all_by_label(heading).next().is_some(),
            "the {heading} section"
        );
    }
    for (keys, what) in [
        ("Ctrl+Z", "Undo (your move and the engine's reply)"),
        ("Ctrl+Shift+O", "Open an endgame script"),
        ("Ctrl+Shift+C", "Copy the moves as a transcript"),
        (
            "Ctrl+V",
            "Paste a transcript, board string, GGF or Okapi JSON game",
        ),
        ("Ctrl+Comma", "Settings"),
        ("F1", "First steps (help)"),
    ] {
        assert!(h.query_all_by_label(keys).next().is_some(), "{keys}");
        assert!(h.query_all_by_label(what).next().is_some(), "{what}");
    }
    // The Help menu has it too.
    h.click_label("Help");
    assert!(h.query_by_label("First steps F1").is_some());
}

#[test]
fn menus_open_from_the_keyboard() {
    let mut h = harness();
    assert!(!has_label(&h, "Save as..."));
    // Alt and the menu's letter, as on Windows.
    h.key_press_modifiers(Modifiers::ALT, Key::F);
    h.run_steps(2);
    assert!(has_label(&h, "Save as..."), "Alt+F opens File");
    // Right goes to the next menu (Edit), not to the next move.
    h.key_press(Key::ArrowRight);
    h.run_steps(2);
    assert!(has_label(&h, "Copy game as GGF") && !has_label(&h, "Save as..."));
    h.key_press(Key::Escape);
    h.run_steps(2);
    assert!(!has_label(&h, "Copy game as GGF"), "Escape closes it");
    // F10 opens the first menu with its first item focused: Enter picks it.
    h.key_press(Key::F10);
    h.run_steps(3);
    assert!(has_label(&h, "Save as..."), "F10 opens File");
    h.key_press(Key::Enter);
    h.run_steps(3);
    assert!(
        h.query_all_by_label("New game").next().is_some(),
        "Enter picked File > New game..."
    );
}

/// What a menu item's accessible name says without its shortcut, its "..." and a label's
/// colon: "Solve exact Ctrl+E" is "Solve exact", "Hash table:" is "Hash table".
fn item_name(label: &str) -> String {
    let mut name = label.trim_start_matches("✔ ").trim().to_string();
    if let Some((rest, last)) = name.rsplit_once(' ')
        && (last.contains('+') || (last.starts_with('F') && last[1..].parse::<u8>().is_ok()))
    {
        name = rest.to_string();
    }
    name.trim_end_matches("...")
        .trim_end_matches('…')
        .trim_end_matches(':')
        .to_string()
}

/// Every "Menu › Item" the help and the user guide name is an item of that menu, as
/// the menu bar shows it ("Game › New game" sent players to a menu without it).
#[test]
fn every_menu_path_the_help_names_is_in_that_menu() {
    let mut h = harness();
    // Help › Test the engine's error report is there in debug mode only.
    h.state_mut().settings.debug = true;
    h.run_steps(2);
    // Each menu's items: the names its open popup adds to the screen.
    let names = |h: &Harness<'static, App>| -> std::collections::HashSet<String> {
        h.query_all_by(|_| true)
            .filter_map(|n| n.accesskit_node().label().or_else(|| n.value()))
            .collect()
    };
    let menus = ["File", "Edit", "Game", "Engine", "View", "Help"];
    let mut items = std::collections::HashMap::new();
    for menu in menus {
        let before = names(&h);
        // The menu is the leftmost node of its name (the Play tab is not "Game", but
        // keep to the bar all the same).
        h.query_all_by_label(menu)
            .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
            .unwrap_or_else(|| panic!("no menu {menu}"))
            .click();
        h.run_steps(3);
        let added: Vec<String> = names(&h)
            .difference(&before)
            .map(|l| item_name(l))
            .collect();
        assert!(added.len() > 1, "the {menu} menu opened: {added:?}");
        items.insert(menu, added);
        h.key_press(Key::Escape);
        h.run_steps(2);
    }
    // The help as it is on the screen, and the user guide and the README.
    h.key_press(Key::F1);
    h.run_steps(3);
    let help: Vec<String> = h
        .query_all_by_label_contains(" › ")
        .map(|n| text_of(&n))
        .collect();
    assert!(help.len() >= 5, "the help names menu items: {help:?}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts = help;
    for doc in ["docs/user-guide.md", "README.md"] {
        texts.push(std::fs::read_to_string(root.join(doc)).unwrap());
    }
    let mut checked = 0;
    for text in texts {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for (i, _) in text.match_indices(" › ") {
            let menu = text[..i].rsplit(' ').next().unwrap();
            let Some(menu_items) = items.get(menu) else {
                // A second level ("New game › the position on the board") or no menu.
                continue;
            };
            let named = &text[i + " › ".len()..];
            assert!(
                menu_items
                    .iter()
                    .any(|item| item.len() > 2 && named.starts_with(item.as_str())),
                "\"{menu} › {}…\" names no item of {menu}: {menu_items:?}",
                named.chars().take(30).collect::<String>()
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} menu paths found");
}

/// Edit › Paste with no text on the clipboard: the platform sends nothing, and the status
/// says so instead of nothing happening.
#[test]
fn a_paste_of_an_empty_clipboard_says_so() {
    let mut h = harness();
    let before = h.state().game().clone();
    h.click_label("Edit");
    h.click_label("Paste Ctrl+V");
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("Nothing pasted: the clipboard holds no text.")
            .is_some(),
        "the status says why nothing happened"
    );
    assert_eq!(h.state().game().transcript(), before.transcript());
    // A paste that comes is taken, with no such word.
    h.click_label("Edit");
    h.click_label("Paste Ctrl+V");
    paste(&mut h, "f5d6");
    assert_eq!(h.state().game().transcript(), "f5d6");
    assert!(
        h.query_by_label_contains("Nothing pasted: the clipboard holds no text.")
            .is_none()
    );
}

/// Ctrl+V with no text on the clipboard: the window's layer takes the press as a paste,
/// finds nothing and sends only the key's release (as egui-winit does on X11, Wayland and
/// Windows). The status says so; a Ctrl+V that brings text says nothing of the kind, and
/// an image on the clipboard is named.
#[test]
fn ctrl_v_with_no_text_on_the_clipboard_says_so() {
    let mut h = harness();
    let release_v = || Event::Key {
        key: Key::V,
        physical_key: None,
        pressed: false,
        repeat: false,
        modifiers: Modifiers::COMMAND,
    };
    let says = |h: &Harness<'static, App>, what: &str| h.query_by_label_contains(what).is_some();
    // As X11 sends it: Ctrl let go first, V's release with no modifiers.
    let ctrl = |pressed, modifiers| Event::Key {
        key: Key::ControlLeft,
        physical_key: None,
        pressed,
        repeat: false,
        modifiers,
    };
    h.event(ctrl(true, Modifiers::NONE));
    h.event(ctrl(false, Modifiers::COMMAND));
    h.event(Event::Key {
        key: Key::V,
        physical_key: None,
        pressed: false,
        repeat: false,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(2);
    assert!(says(&h, "Nothing pasted: the clipboard holds no text."));
    assert_eq!(h.state().game().transcript(), "");
    // With text: the paste, then the release.
    h.event(Event::Paste("f5d6".into()));
    h.event(release_v());
    h.run_steps(2);
    assert_eq!(h.state().game().transcript(), "f5d6");
    assert!(!says(&h, "Nothing pasted"));
    // A screenshot on the clipboard comes as an image paste.
    h.event(Event::PasteImage(std::sync::Arc::new(
        egui::ColorImage::filled([2, 2], egui::Color32::BLACK),
    )));
    h.event(release_v());
    h.run_steps(2);
    assert!(says(
        &h,
        "Nothing pasted: the clipboard holds an image, not text."
    ));
    assert_eq!(h.state().game().transcript(), "f5d6");
}

/// The View menu, opened by a click on it in the bar.
fn open_view_menu(h: &mut Harness<'static, App>) {
    h.query_all_by_label("View")
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .expect("the View menu")
        .click();
    h.run_steps(3);
}

/// Whether the radio button `label` of the open menu is the one checked.
fn checked(h: &Harness<'static, App>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().toggled() == Some(egui::accesskit::Toggled::True)
}

/// The theme egui was asked for, and the one it draws in.
fn themes(h: &Harness<'static, App>) -> (egui::ThemePreference, egui::Theme) {
    (h.ctx.options(|o| o.theme_preference), h.ctx.theme())
}

/// View › Theme › Light makes the app light at once, shows Light checked and is kept in
/// the settings file; System gives the choice back to the computer.
#[test]
fn the_theme_is_chosen_in_the_view_menu_and_kept() {
    use okapi_app::settings::Theme;
    let tmp = temp_dir("theme");
    let path = tmp.path().join("settings.json");
    let mut h = harness();
    h.state_mut().use_settings_file(&path);
    h.run_steps(2);
    open_view_menu(&mut h);
    assert!(
        checked(&h, "System") && !checked(&h, "Light"),
        "System at first"
    );
    h.get_by_label("Light").click();
    h.run_steps(3);
    assert_eq!(
        themes(&h),
        (egui::ThemePreference::Light, egui::Theme::Light)
    );
    assert!(!h.ctx.global_style().visuals.dark_mode, "drawn light");
    if h.query_by_label("Light").is_none() {
        open_view_menu(&mut h);
    }
    assert!(checked(&h, "Light") && !checked(&h, "System") && !checked(&h, "Dark"));
    assert_eq!(okapi_app::Settings::load(&path).theme, Theme::Light);
    h.get_by_label("System").click();
    h.run_steps(3);
    assert_eq!(themes(&h).0, egui::ThemePreference::System);
    assert_eq!(okapi_app::Settings::load(&path).theme, Theme::System);
}

/// A settings file that says Dark starts dark; one from before the theme was chosen (no
/// `theme`) starts as the computer is set, with the rest of its settings read.
#[test]
fn the_theme_comes_from_the_settings_file_and_an_old_file_follows_the_system() {
    let tmp = temp_dir("theme-file");
    let dark = tmp.path().join("dark.json");
    std::fs::write(&dark, r#"{"coordinates": false, "theme": "Dark"}"#).unwrap();
    let mut h = harness();
    h.state_mut().use_settings_file(&dark);
    h.run_steps(2);
    assert_eq!(themes(&h), (egui::ThemePreference::Dark, egui::Theme::Dark));
    assert!(h.ctx.global_style().visuals.dark_mode);

    let old = tmp.path().join("old.json");
    std::fs::write(&old, r#"{"coordinates": false, "board_colors": "Teal"}"#).unwrap();
    // (The test harness asks for Dark before the app's first frame.)
    let mut h = harness();
    h.state_mut().use_settings_file(&old);
    h.run_steps(2);
    assert_eq!(error(&h), None);
    let s = &h.state().settings;
    assert!(!s.coordinates);
    assert_eq!(s.board_colors, okapi_app::settings::BoardColors::Teal);
    assert_eq!(s.theme, okapi_app::settings::Theme::System);
    assert_eq!(themes(&h).0, egui::ThemePreference::System);
}
