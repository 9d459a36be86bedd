//! Practising one's mistakes, driven through the window as a player would: collect the
//! positions of a game with known mistakes, answer one right and one wrong, see the
//! judgement and the best line, find the schedule saved, and see the positions come back
//! when they are due.

mod common;

use common::app::*;
use egui_kittest::kittest::Queryable;
use okapi_core::board::{Move, Position, Square};
use okapi_core::game::Game;
use okapi_core::practice::{Day, STORE_FILE, Store};
use okapi_core::search::{EndgameSolver, SolveMode};

/// Every legal move of `p` with its exact value for the side to move.
fn exact_values(solver: &mut EndgameSolver, p: &Position) -> Vec<(Square, i32)> {
    p.legal_moves()
        .iter()
        .map(|sq| {
            let mut child = *p;
            child.play(sq).unwrap();
            let value = if child.is_game_over() {
                -child.board().final_score()
            } else if child.must_pass() {
                child.force_pass();
                solver
                    .solve(child.board(), SolveMode::Exact, false)
                    .unwrap()
                    .score
            } else {
                -solver
                    .solve(child.board(), SolveMode::Exact, false)
                    .unwrap()
                    .score
            };
            (sq, value)
        })
        .collect()
}

/// A known mistake: the position, the move played, what it lost, the best value.
struct Mistake {
    position: Position,
    played: Square,
    loss: i32,
    best_value: i32,
}

/// FFO #1 (14 empties, Black to move) with Black playing its worst move twice and White
/// its best in between: two mistakes of Black's, proven by the solver here.
fn game_with_mistakes() -> (Game, Vec<Mistake>) {
    let text = include_str!("data/ffo1-39.scr");
    let line = text.lines().find(|l| l.contains("ffo#01")).unwrap();
    let start = Position::parse(line).unwrap();
    let mut solver = EndgameSolver::new(18, None);
    let mut p = start;
    let mut moves = Vec::new();
    let mut mistakes = Vec::new();
    for ply in 0..3 {
        let values = exact_values(&mut solver, &p);
        let best = values.iter().map(|v| v.1).max().unwrap();
        let (sq, value) = if ply % 2 == 0 {
            *values.iter().min_by_key(|v| v.1).unwrap()
        } else {
            *values.iter().max_by_key(|v| v.1).unwrap()
        };
        if ply % 2 == 0 {
            mistakes.push(Mistake {
                position: p,
                played: sq,
                loss: best - value,
                best_value: best,
            });
        }
        p.play(sq).unwrap();
        moves.push(Move::Play(sq));
    }
    assert!(
        mistakes.iter().all(|m| m.loss >= 3),
        "both of Black's moves must lose 3 discs or more for the test to mean something"
    );
    let mut game = Game::from_moves(start, &moves).unwrap();
    game.black = "Alice".into();
    game.white = "Bob".into();
    (game, mistakes)
}

fn practice_day() -> Day {
    Day::parse("2026-11-27").unwrap()
}

/// Steps until the engine has valued every move of the position shown.
fn step_until_valued(h: &mut egui_kittest::Harness<'static, okapi_app::App>, what: &str) {
    step_until(h, what, |app| {
        app.practice_position().is_some_and(|(_, valued)| valued)
    });
}

/// Opens the practice window and fills in a source and a player.
fn collect_from(
    h: &mut egui_kittest::Harness<'static, okapi_app::App>,
    source: &str,
    player: &str,
) {
    h.state_mut().apply(okapi_app::Command::ShowPractice);
    h.run_steps(3);
    h.click_label(source);
    h.get_by_label("Player:").focus();
    h.get_by_label("Player:").type_text(player);
    h.run_steps(2);
}

/// The label's text, found by a part of it.
fn label_with(h: &egui_kittest::Harness<'static, okapi_app::App>, part: &str) -> String {
    text_of(&h.get_by_label_contains(part))
}

#[test]
fn a_whole_drill_from_collecting_to_the_positions_coming_back() {
    let dir = temp_dir("practice");
    let (game, mistakes) = game_with_mistakes();
    let game_path = dir.path().join("alice-bob.json");
    game.save(&game_path).unwrap();
    let store_path = dir.path().join("data").join(STORE_FILE);
    let today = practice_day();

    let mut h = harness_sized(1280.0, 900.0);
    h.state_mut().keep_practice_at(Some(store_path.clone()));
    h.state_mut().set_practice_day(today);
    h.state_mut().apply(okapi_app::Command::OpenPath(game_path));
    h.run_steps(2);

    // From the analysis panel; this game, Black (Alice), 3 discs or more by default.
    h.click_label("Practise mistakes");
    h.run_steps(2); // a window shows from its second frame (the first one sizes it)
    assert!(has_label(&h, "Black (Alice)"));
    h.click_label("Collect");
    step_until(&mut h, "the game collected", |app| {
        !app.practice_collecting()
    });
    let summary = label_with(&h, "analysed:");
    assert!(
        summary.contains("2 moves lost at least 3 discs (2 new, 0 already practised)"),
        "{summary}"
    );
    // The cards are the known mistakes, with the solver's losses, and they are saved.
    let saved = Store::open(&store_path);
    assert_eq!(saved.notice, None);
    let cards = &saved.store.cards;
    assert_eq!(cards.len(), 2);
    for m in &mistakes {
        let card = cards.iter().find(|c| c.position == m.position).unwrap();
        assert_eq!((card.played, card.loss()), (m.played, m.loss));
        assert_eq!(card.origin.player, "Alice");
        assert_eq!(card.schedule.due, today);
    }
    // The game's own analysis has the values too: the move list marks the mistakes
    // (`47. a2 (-12) ?-30 g8`), analysed once for both.
    for m in &mistakes {
        let mark = format!("{} (", m.played);
        let loss = format!("?-{} ", m.loss);
        assert!(
            h.query_all_by_label_contains(&mark)
                .any(|n| text_of(&n).contains(&loss)),
            "the move list marks {} as losing {}",
            m.played,
            m.loss
        );
    }

    // Practice: the larger loss first, on the board, values hidden.
    h.click_label("Start practice (2)");
    let order: Vec<&Mistake> = {
        let mut v: Vec<&Mistake> = mistakes.iter().collect();
        v.sort_by_key(|m| std::cmp::Reverse(m.loss));
        v
    };
    assert!(has_label(&h, "Position 1 of 2"));
    step_until_valued(&mut h, "the first position valued");
    let (shown, _) = h.state().practice_position().unwrap();
    assert_eq!(shown, order[0].position);
    // The game itself is where it was.
    assert_eq!(h.state().game().len(), 3);

    // Right: a best move by the solver.
    let mut solver = EndgameSolver::new(18, None);
    let values = exact_values(&mut solver, &shown);
    let (best, best_value) = *values
        .iter()
        .max_by_key(|v| (v.1, std::cmp::Reverse(v.0)))
        .unwrap();
    assert_eq!(best_value, order[0].best_value);
    h.click_label(&best.to_string());
    step_until(&mut h, "the answer judged", |app| app.practice_judged());
    let verdict = label_with(&h, "Right:");
    assert!(verdict.contains(&best.to_string()), "{verdict}");
    assert!(has_label(&h, "Values proven by the solver."));
    let played = label_with(&h, "In the game,");
    assert!(
        played.contains(&format!("Alice played {}", order[0].played)),
        "{played}"
    );
    assert!(
        played.contains(&format!("{} discs lost", order[0].loss)),
        "{played}"
    );
    assert!(has_label(
        &h,
        "This position comes back in 3 days (2026-11-30)."
    ));
    // The best line on request: proven, starting with a best move, legal to the end.
    h.click_label("Show the best line");
    step_until(&mut h, "the best line", |app| {
        app.practice_best_line().is_some()
    });
    let line = h.state().practice_best_line().unwrap().to_vec();
    let Move::Play(first) = line[0] else {
        panic!("the line starts with a move: {line:?}")
    };
    assert!(values.iter().any(|&(s, v)| s == first && v == best_value));
    let mut p = shown;
    for m in &line {
        p.play_move(*m).unwrap();
    }
    assert!(label_with(&h, "Best line:").contains(&format!("{first}")));
    // The line steps on the board: Right (and "On ›") plays its moves, "‹ Back" takes one
    // back, "« Card" leaves it for the card.
    let mut after = shown;
    after.play_move(line[0]).unwrap();
    h.key_press(eframe::egui::Key::ArrowRight);
    h.run_steps(2);
    assert_eq!(h.state().practice_board(), Some(after));
    assert!(has_label(
        &h,
        &format!("move 1 of {} of the line", line.len())
    ));
    if line.len() > 1 {
        after.play_move(line[1]).unwrap();
        h.click_label("On ›");
        assert_eq!(h.state().practice_board(), Some(after));
        h.click_label("‹ Back");
        h.run_steps(1);
    }
    assert_ne!(h.state().practice_board(), Some(shown));
    h.click_label("« Card");
    h.run_steps(1);
    assert_eq!(h.state().practice_board(), Some(shown));
    // The game underneath did not move with the keys.
    assert_eq!(h.state().game().ply(), 3);
    // Its history: the one answer, right.
    assert!(has_label(
        &h,
        &format!("This position's answers: 2026-11-27 {best} right.")
    ));

    // Wrong: the move played in the game, again.
    h.click_label("Next position");
    assert!(has_label(&h, "Position 2 of 2"));
    step_until_valued(&mut h, "the second position valued");
    assert_eq!(h.state().practice_position().unwrap().0, order[1].position);
    h.click_label(&order[1].played.to_string());
    step_until(&mut h, "the answer judged", |app| app.practice_judged());
    let verdict = label_with(&h, "Missed:");
    assert!(
        verdict.contains(&format!("loses {} discs", order[1].loss)),
        "{verdict}"
    );
    assert!(has_label(
        &h,
        "This position comes back tomorrow (2026-11-28)."
    ));
    // Missed: it comes back at the end of this round, and the overview counts it after.
    h.click_label("Next position");
    assert!(has_label(&h, "Position 3 of 3 (again: missed before)"));
    step_until_valued(&mut h, "the missed position valued again");
    assert_eq!(h.state().practice_position().unwrap().0, order[1].position);
    // Missed again: its history keeps both answers; the schedule stays at tomorrow.
    h.click_label(&order[1].played.to_string());
    step_until(&mut h, "the retry judged", |app| app.practice_judged());
    assert!(has_label(
        &h,
        &format!(
            "This position's answers: 2026-11-27 {0} missed, 2026-11-27 {0} missed.",
            order[1].played
        )
    ));
    assert!(has_label(
        &h,
        "This position comes back tomorrow (2026-11-28)."
    ));
    h.click_label("End practice");
    h.run_steps(2);
    assert!(has_label(
        &h,
        "2 positions to practise, 0 due today, 1 missed today to try again"
    ));
    assert!(has_label(&h, "Start practice (1)"));
    assert!(has_label(&h, "Streak: 0 right in a row (best 1)."));
    // Both positions are endgames (14 and 12 empties): 1 answer right of 3.
    assert!(has_label(&h, "33% right") && has_label(&h, "1 of 3"));

    // The schedule is saved: the miss tomorrow, the right answer in three days.
    let saved = Store::open(&store_path).store;
    let due_of = |p: &Position| {
        saved
            .cards
            .iter()
            .find(|c| c.position == *p)
            .unwrap()
            .schedule
    };
    let right = due_of(&order[0].position);
    let missed = due_of(&order[1].position);
    assert_eq!(
        (right.due, right.right, right.missed),
        (today.plus(3), 1, 0)
    );
    assert_eq!(
        (missed.due, missed.right, missed.missed),
        (today.plus(1), 0, 1)
    );
    drop(h);

    // Reopened the same day (Game menu): the missed position is there to try again; the
    // next day it is due; three days on, both.
    for (day, due, round) in [(today, 0, 1), (today.plus(1), 1, 1), (today.plus(3), 2, 2)] {
        let mut h = harness_sized(1280.0, 900.0);
        h.state_mut().keep_practice_at(Some(store_path.clone()));
        h.state_mut().set_practice_day(day);
        h.click_label("Game");
        h.click_label("Practise your mistakes...");
        h.run_steps(2);
        let overview = label_with(&h, "to practise,");
        let missed = if round > due {
            format!(", {} missed today to try again", round - due)
        } else {
            String::new()
        };
        assert_eq!(
            overview,
            format!("2 positions to practise, {due} due today{missed}")
        );
        assert!(has_label(&h, &format!("Start practice ({round})")));
    }
}

#[test]
fn a_damaged_practice_file_is_set_aside_and_practice_goes_on() {
    let dir = temp_dir("practice-damaged");
    let store_path = dir.path().join(STORE_FILE);
    std::fs::write(&store_path, "{ this is not a practice file").unwrap();
    let mut h = harness();
    h.state_mut().keep_practice_at(Some(store_path.clone()));
    h.state_mut().apply(okapi_app::Command::ShowPractice);
    h.run_steps(2);
    let notice = label_with(&h, "is damaged");
    assert!(notice.contains("practice starts afresh"), "{notice}");
    let mut aside = store_path.as_os_str().to_owned();
    aside.push(".unreadable");
    assert_eq!(
        std::fs::read_to_string(std::path::PathBuf::from(aside)).unwrap(),
        "{ this is not a practice file"
    );
    assert!(has_label(&h, "0 positions to practise, 0 due today"));
}

/// The player choice for the game on the board names each side once: by its colour when
/// the game names no players ("Black", never "Black (Black)"), with the name when it does.
#[test]
fn the_player_choice_names_each_side_once() {
    let dir = temp_dir("practice-sides");
    let mut h = harness();
    h.state_mut()
        .keep_practice_at(Some(dir.path().join(STORE_FILE)));
    let mut game = Game::default();
    for sq in ["f5", "d6", "c3"] {
        game.play(Move::Play(sq.parse().unwrap()), None).unwrap();
    }
    let unnamed = dir.path().join("unnamed.json");
    game.save(&unnamed).unwrap();
    h.state_mut().apply(okapi_app::Command::OpenPath(unnamed));
    h.run_steps(2);
    h.state_mut().apply(okapi_app::Command::ShowPractice);
    h.run_steps(3);
    let choices = |h: &egui_kittest::Harness<'static, okapi_app::App>| -> Vec<String> {
        h.query_all_by_role(eframe::egui::Role::RadioButton)
            .map(|n| text_of(&n))
            .filter(|t| t.starts_with("Black") || t.starts_with("White"))
            .collect()
    };
    assert_eq!(choices(&h), ["Black", "White"]);
    // A game with its players' names: each side with its player's.
    game.black = "Alice".into();
    game.white = "Bob".into();
    let path = dir.path().join("alice-bob.json");
    game.save(&path).unwrap();
    h.state_mut().apply(okapi_app::Command::OpenPath(path));
    h.run_steps(3);
    assert_eq!(choices(&h), ["Black (Alice)", "White (Bob)"]);
}

#[test]
fn a_folder_of_the_players_games_is_collected_once() {
    let dir = temp_dir("practice-folder");
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let moves = "B[F5]W[D6]B[C3]W[D3]B[C4]W[F4]B[C5]W[B3]B[C2]W[E6]";
    std::fs::write(
        games.join("one.ggf"),
        format!("(;GM[Othello]PB[Alice]PW[Bob]TY[8]{moves};)"),
    )
    .unwrap();
    std::fs::write(
        games.join("two.ggf"),
        format!("(;GM[Othello]PB[Carol]PW[alice]TY[8]{moves};)"),
    )
    .unwrap();
    std::fs::write(
        games.join("three.ggf"),
        "(;GM[Othello]PB[Carol]PW[Dave]B[A1];)",
    )
    .unwrap();
    let store_path = dir.path().join(STORE_FILE);
    let mut h = harness_sized(1280.0, 900.0);
    h.state_mut().keep_practice_at(Some(store_path.clone()));
    collect_from(&mut h, "A folder of games", "ALICE");
    h.get_by_label("Folder:").focus();
    h.get_by_label("Folder:")
        .type_text(&games.display().to_string());
    h.run_steps(2);
    h.click_label("Collect");
    step_until(&mut h, "the folder collected", |app| {
        !app.practice_collecting()
    });
    let summary = label_with(&h, "games read");
    assert!(
        summary.starts_with("2 games read, 2 by \"ALICE\""),
        "{summary}"
    );
    assert!(summary.contains("1 file could not be read"), "{summary}");
    assert!(summary.contains("three.ggf"), "{summary}");
    assert!(summary.contains("2 games analysed"), "{summary}");
    // Once collected, a game is not analysed again.
    h.click_label("Collect");
    step_until(&mut h, "the folder read again", |app| {
        !app.practice_collecting()
    });
    let summary = label_with(&h, "games read");
    assert!(
        summary.contains("no game to collect from. (2 collected before)"),
        "{summary}"
    );
}

#[test]
fn the_databases_games_of_a_named_player_are_collected() {
    use okapi_core::db::{Builder, GameNames};
    use okapi_core::formats::records::GameRecord;
    let mut b = Builder::new();
    let moves: Vec<Square> = ["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2", "e6"]
        .iter()
        .map(|s| Square::parse(s).unwrap())
        .collect();
    for (black, white) in [
        ("Takeshi Murakami", "Bob"),
        ("Carol", "Dave"),
        ("Bob", "murakami t."),
    ] {
        let record = GameRecord {
            moves: moves.clone(),
            black_score: 0,
            theoretical: None,
            year: 2001,
        };
        let names = GameNames {
            black,
            white,
            tournament: "Open",
            source: "test",
        };
        b.add(&record, names).unwrap();
    }
    let dir = temp_dir("practice-db");
    let mut h = harness_sized(1280.0, 900.0);
    h.state_mut()
        .database
        .set_database(b.build().unwrap(), Vec::new());
    h.state_mut()
        .keep_practice_at(Some(dir.path().join(STORE_FILE)));
    collect_from(&mut h, "The games database", "murakami");
    h.click_label("Collect");
    step_until(&mut h, "the database's games collected", |app| {
        !app.practice_collecting()
    });
    let summary = label_with(&h, "games read");
    assert!(
        summary.starts_with("3 games read, 2 by \"murakami\"")
            && summary.contains("2 games analysed"),
        "{summary}"
    );
}

#[test]
fn collecting_from_the_database_waits_for_it_to_load() {
    let dir = temp_dir("practice-db-load");
    let mut h = harness_sized(1280.0, 900.0);
    h.state_mut()
        .keep_practice_at(Some(dir.path().join(STORE_FILE)));
    collect_from(&mut h, "The games database", "nobody of that name");
    h.click_label("Collect");
    assert!(h.state().practice_collecting());
    step_until(&mut h, "the database loaded and searched", |app| {
        !app.practice_collecting()
    });
    let summary = label_with(&h, "games read");
    let read: usize = summary
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(read > 100_000, "the shipped database was read: {summary}");
    assert!(
        summary.ends_with("0 by \"nobody of that name\": no game to collect from."),
        "{summary}"
    );
}

/// Every text on the screen: each node's accessible name and value.
fn every_text(h: &egui_kittest::Harness<'static, okapi_app::App>) -> Vec<String> {
    use egui_kittest::kittest::NodeT;
    h.root()
        .children_recursive()
        .flat_map(|n| {
            let node = n.accesskit_node();
            [node.label(), node.value()]
        })
        .flatten()
        .collect()
}

/// The texts that tell a card's answer: the best move named anywhere but on its own
/// square of the board and in the move list's cells of the moves played, the loss as a
/// mark (`-12`) or in discs, the best move's value.
fn telling_texts(
    h: &egui_kittest::Harness<'static, okapi_app::App>,
    best: &[Square],
    m: &Mistake,
) -> Vec<String> {
    let game = h.state().game();
    let played: Vec<String> = (0..game.len())
        .filter_map(|i| match game.move_at(i) {
            Some(Move::Play(sq)) => Some(format!(". {sq}")),
            _ => None,
        })
        .collect();
    let loss = [format!("-{} ", m.loss), format!("{} disc", m.loss)];
    let value = format!("{:+}", m.best_value);
    every_text(h)
        .into_iter()
        .filter(|text| {
            let named = best.iter().any(|sq| {
                let name = sq.to_string();
                let rest = played.iter().fold(text.clone(), |t, p| t.replace(p, ""));
                *text != name && rest.contains(&name)
            });
            named || loss.iter().any(|l| text.contains(l)) || text.contains(&value)
        })
        .collect()
}

#[test]
fn a_card_never_shows_its_answer_until_it_is_judged() {
    let dir = temp_dir("practice-hidden");
    let (game, mistakes) = game_with_mistakes();
    let game_path = dir.path().join("alice-bob.json");
    game.save(&game_path).unwrap();
    let mut h = harness_sized(1280.0, 900.0);
    h.state_mut()
        .keep_practice_at(Some(dir.path().join("data").join(STORE_FILE)));
    h.state_mut().set_practice_day(practice_day());
    h.state_mut().apply(okapi_app::Command::OpenPath(game_path));
    h.run_steps(2);
    h.click_label("Practise mistakes");
    h.run_steps(2);
    h.click_label("Collect");
    step_until(&mut h, "the game collected", |app| {
        !app.practice_collecting()
    });
    // The first card is the larger loss; the game goes to its position, where every move
    // is valued on the board and in the lists, as a player reviewing the game would see it.
    let m = mistakes.iter().max_by_key(|m| m.loss).unwrap();
    let ply = (0..game.len())
        .find(|&i| game.position_at(i) == m.position)
        .unwrap();
    h.state_mut().apply(okapi_app::Command::GoTo(ply));
    let mut solver = EndgameSolver::new(18, None);
    let values = exact_values(&mut solver, &m.position);
    let best: Vec<Square> = values
        .iter()
        .filter(|v| v.1 == m.best_value)
        .map(|v| v.0)
        .collect();
    let evals: Vec<(Square, okapi_core::game::Eval)> = values
        .iter()
        .map(|&(sq, v)| (sq, okapi_core::game::Eval::proven(SolveMode::Exact, v)))
        .collect();
    h.state_mut().show_values(&evals);
    h.run_steps(2);
    let before = telling_texts(&h, &best, m);
    assert!(
        !before.is_empty(),
        "before practice the screen tells the loss and the best move"
    );

    h.click_label("Start practice (2)");
    step_until_valued(&mut h, "the card valued");
    assert_eq!(h.state().practice_position().unwrap().0, m.position);
    let open = telling_texts(&h, &best, m);
    assert!(open.is_empty(), "the open card's answer shows: {open:#?}");
    // Answered but not judged yet is the same.
    h.click_label(&m.played.to_string());
    step_until(&mut h, "the answer judged", |app| app.practice_judged());
    let judged = telling_texts(&h, &best, m);
    let verdict = label_with(&h, "Missed:");
    assert!(
        verdict.contains(&format!("loses {} discs", m.loss))
            && best.iter().any(|sq| verdict.contains(&sq.to_string())),
        "{verdict}"
    );
    // Everything shows again: the move list's mark, the values on the squares.
    assert!(
        judged.iter().any(|t| t.contains(&format!("-{} ", m.loss))),
        "the move list marks the loss again: {judged:#?}"
    );
    assert!(
        judged
            .iter()
            .any(|t| t.starts_with("legal move") && t.contains(&format!("{:+}", m.best_value))),
        "the squares show their values again: {judged:#?}"
    );
    // Missed, it comes back in the round; the second card missed too, the first comes
    // back as the third, its answer hidden again (its history and line with it).
    let other = mistakes.iter().find(|o| o.position != m.position).unwrap();
    h.click_label("Next position");
    step_until_valued(&mut h, "the second card valued");
    h.click_label(&other.played.to_string());
    step_until(&mut h, "the second answer judged", |app| {
        app.practice_judged()
    });
    h.click_label("Next position");
    assert!(has_label(&h, "Position 3 of 4 (again: missed before)"));
    step_until_valued(&mut h, "the first card valued again");
    assert_eq!(h.state().practice_position().unwrap().0, m.position);
    let again = telling_texts(&h, &best, m);
    assert!(
        again.is_empty(),
        "the card tried again shows its answer: {again:#?}"
    );
    assert!(!has_label(&h, "Show the best line"));
    assert!(
        h.query_by_label_contains("This position's answers")
            .is_none()
    );
}

#[test]
fn the_tolerance_the_player_sets_counts_a_close_move_as_found() {
    let dir = temp_dir("practice-tolerance");
    let (game, mistakes) = game_with_mistakes();
    let game_path = dir.path().join("alice-bob.json");
    game.save(&game_path).unwrap();
    let store_path = dir.path().join(STORE_FILE);
    let mut h = harness_sized(1280.0, 900.0);
    h.state_mut().keep_practice_at(Some(store_path.clone()));
    h.state_mut().set_practice_day(practice_day());
    h.state_mut().apply(okapi_app::Command::OpenPath(game_path));
    h.run_steps(2);
    h.click_label("Practise mistakes");
    h.run_steps(2);
    h.click_label("Collect");
    step_until(&mut h, "the game collected", |app| {
        !app.practice_collecting()
    });
    assert_eq!(h.query_all_by_label("no answers yet").count(), 3);
    // Proven values: the first card's mistake counts as found within its loss.
    let m = mistakes.iter().max_by_key(|m| m.loss).unwrap();
    let tolerance = okapi_core::practice::Tolerance {
        searched: 1,
        proven: m.loss,
    };
    h.state_mut().apply(okapi_app::Command::Practice(
        okapi_app::PracticeStep::SetTolerance(tolerance),
    ));
    h.run_steps(1);
    assert_eq!(Store::open(&store_path).store.tolerance, tolerance, "saved");
    h.click_label("Start practice (2)");
    step_until_valued(&mut h, "the card valued");
    h.click_label(&m.played.to_string());
    step_until(&mut h, "the answer judged", |app| app.practice_judged());
    let verdict = label_with(&h, "Right:");
    assert!(
        verdict.contains(&format!("is within {} discs of the best", m.loss)),
        "{verdict}"
    );
    // One disc less than the second card's mistake loses: a miss, said with what was
    // allowed.
    h.click_label("End practice");
    let second = mistakes.iter().find(|o| o.position != m.position).unwrap();
    let tighter = okapi_core::practice::Tolerance {
        proven: second.loss - 1,
        ..tolerance
    };
    h.state_mut().apply(okapi_app::Command::Practice(
        okapi_app::PracticeStep::SetTolerance(tighter),
    ));
    h.run_steps(2);
    // The statistics: one endgame answer, right; a streak of one.
    assert!(has_label(&h, "Endgame"));
    assert_eq!(h.query_all_by_label("no answers yet").count(), 2);
    assert!(has_label(&h, "100% right"));
    assert!(has_label(&h, "Streak: 1 right in a row (best 1)."));
    h.click_label("Start practice (1)");
    step_until_valued(&mut h, "the second card valued");
    h.click_label(&second.played.to_string());
    step_until(&mut h, "the second answer judged", |app| {
        app.practice_judged()
    });
    let verdict = label_with(&h, "Missed:");
    assert!(
        verdict.contains(&format!("(more than the {} discs allowed)", tighter.proven)),
        "{verdict}"
    );
}

/// `n` distinct positions of random games (a fixed seed), each a card due `today`.
fn many_cards(n: usize, today: Day) -> Vec<okapi_core::practice::Card> {
    use okapi_core::game::{Eval, EvalSource};
    use okapi_core::practice::{Card, Origin, Schedule};
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let exact = |value| Eval {
        value,
        source: EvalSource::Exact,
    };
    let mut seen = std::collections::HashSet::new();
    let mut cards = Vec::with_capacity(n);
    while cards.len() < n {
        let mut p = Position::start();
        while !p.is_game_over() && cards.len() < n {
            if p.must_pass() {
                p.force_pass();
                continue;
            }
            let moves: Vec<Square> = p.legal_moves().iter().collect();
            let m = moves[(next() % moves.len() as u64) as usize];
            if seen.insert((p.black(), p.white(), p.side_to_move())) {
                cards.push(Card {
                    position: p,
                    played: m,
                    played_eval: exact(-4),
                    best: m,
                    best_eval: exact(0),
                    origin: Origin {
                        player: "Alice Example".into(),
                        game: format!("Alice Example - Bob Example, games/{}.ggf", cards.len()),
                        ply: 0,
                    },
                    schedule: Schedule::new(today),
                    history: Vec::new(),
                });
            }
            p.play(m).unwrap();
        }
    }
    cards
}

/// The CPU time this thread has used (the machine may be busy with other work: wall
/// time would measure that too).
fn thread_cpu_time() -> std::time::Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(r, 0, "the thread's CPU clock");
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// 100,000 cards froze the window for 16.7 s, the reading quadratic in the cards: it is
/// linear (five times the cards take about five times as long, not twenty-five), and
/// the file is read off the frame: the window draws meanwhile, says so, and the cards
/// come in whole.
#[test]
fn a_hundred_thousand_cards_are_read_in_linear_time_while_the_window_draws() {
    use std::time::{Duration, Instant};
    let today = practice_day();
    let cards = many_cards(100_000, today);
    let text_of_cards = |n: usize| {
        let mut store = Store::default();
        store.add(cards[..n].to_vec());
        store.to_json()
    };
    // The least CPU time of three readings.
    let read_time = |text: &str, n: usize| {
        (0..3)
            .map(|_| {
                let start = thread_cpu_time();
                let (store, skipped) = Store::from_json(text).unwrap();
                let took = thread_cpu_time() - start;
                assert_eq!((store.cards.len(), skipped.len()), (n, 0));
                took
            })
            .min()
            .unwrap()
    };
    let (small, large) = (text_of_cards(20_000), text_of_cards(100_000));
    let ratio = read_time(&large, 100_000).as_secs_f64() / read_time(&small, 20_000).as_secs_f64();
    assert!(
        ratio < 10.0,
        "five times the cards took {ratio:.1} times as long to read: not linear"
    );

    let dir = temp_dir("many-cards");
    let path = dir.path().join("data").join(STORE_FILE);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &large).unwrap();
    let mut h = harness_sized(1280.0, 900.0);
    h.state_mut().keep_practice_at(Some(path));
    h.state_mut().set_practice_day(today);
    let start = Instant::now();
    h.state_mut().apply(okapi_app::Command::ShowPractice);
    let (mut frames, mut slowest) = (0, Duration::ZERO);
    while h.state().practice_store().is_none() {
        assert!(start.elapsed() < Duration::from_secs(300), "never read");
        let frame = Instant::now();
        h.step();
        slowest = slowest.max(frame.elapsed());
        if h.state().practice_store().is_none() {
            frames += 1;
            if frames == 3 {
                assert!(has_label(&h, "Reading your practice positions…"));
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(frames >= 3, "the window drew {frames} frames while reading");
    assert!(
        slowest < Duration::from_secs(2),
        "a frame took {slowest:?} while the file was read"
    );
    assert_eq!(h.state().practice_store().unwrap().cards.len(), 100_000);
    // Read, the window counts its figures once, not every frame.
    h.run_steps(2);
    assert!(has_label(
        &h,
        "100000 positions to practise, 100000 due today"
    ));
    let frame = Instant::now();
    h.run_steps(10);
    assert!(
        frame.elapsed() < Duration::from_secs(5),
        "ten frames of the window took {:?}",
        frame.elapsed()
    );
}
