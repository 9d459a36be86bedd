//! Properties of the script format over random positions: what Okapi writes as a board it
//! reads back, with any of the accepted spellings and trailing comments; results always
//! count 64 discs and keep their fixed width.

use okapi::board::{Color, Position};
use okapi::formats::script::{Outcome, ScriptLine, parse_line};
use proptest::prelude::*;

fn any_position() -> impl Strategy<Value = Position> {
    (any::<u64>(), any::<u64>(), any::<bool>()).prop_map(|(a, b, white)| {
        let side = if white { Color::White } else { Color::Black };
        Position::from_discs(a & !b, b & !a, side)
    })
}

proptest! {
    #[test]
    fn boards_read_back(p in any_position(), spelling in 0usize..3, comment in "[ -~]{0,20}") {
        let (black, white, empty) = [('X', 'O', '-'), ('*', '0', '.'), ('x', 'o', '-')][spelling];
        let text: String = p
            .to_board_string()
            .chars()
            .take(64)
            .map(|c| match c { 'X' => black, 'O' => white, _ => empty })
            .collect();
        let side = match (p.side_to_move(), spelling) {
            (Color::Black, 1) => '*',
            (Color::Black, _) => 'X',
            (Color::White, 1) => '0',
            (Color::White, _) => 'O',
        };
        let line = format!("{text} {side} %{comment}");
        match parse_line(&line) {
            Ok(ScriptLine::Position { position, comment: c }) => {
                prop_assert_eq!(position, p);
                prop_assert_eq!(c, Some(format!("%{comment}")));
            }
            other => prop_assert!(false, "{:?}", other),
        }
    }

    #[test]
    fn exact_results_count_64(score in -32i32..=32, white in any::<bool>()) {
        let side = if white { Color::White } else { Color::Black };
        let outcome = Outcome::exact(side, 2 * score);
        let text = outcome.to_string();
        prop_assert_eq!(text.len(), 7);
        let (b, w) = text.split_once(" - ").unwrap();
        let (b, w): (i32, i32) = (b.trim().parse().unwrap(), w.trim().parse().unwrap());
        prop_assert_eq!(b + w, 64);
        prop_assert_eq!(if white { w - b } else { b - w }, 2 * score);
    }
}
