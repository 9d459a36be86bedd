//! Every writer against its reader, over random legal games (from the start or a random
//! position, with random variations, values, names, seats, clock and cursor).

mod common;

use common::{Rng, canonical, random_game, random_position};
use okapi::board::{Color, Move, Position};
use okapi::formats::script::{Outcome, format_result, parse_result};
use okapi::formats::{self, Format, ggf, okapi_json, transcript};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// JSON keeps the whole record: the tree with its values, the current line and the
    /// cursor, names, seats, clock, date, comment; and writing again gives the same text.
    #[test]
    fn json_keeps_everything(seed in any::<u64>()) {
        let g = random_game(seed);
        let text = okapi_json::write(&g);
        let back = okapi_json::read(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(canonical(&back), canonical(&g));
        prop_assert_eq!(okapi_json::write(&back), text);
        // through the content sniffer too
        let sniffed = formats::read_game(&formats::write_game(&g, Format::OkapiJson)).unwrap();
        prop_assert_eq!(canonical(&sniffed), canonical(&g));
    }

    /// GGF keeps the main line, the start, names (with `]`, `\`, quotes, non-ASCII),
    /// date, event, comment and clock.
    #[test]
    fn ggf_keeps_the_main_line_and_names(seed in any::<u64>()) {
        let g = random_game(seed);
        let text = ggf::write(&g);
        let back = ggf::read(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.main_line(), g.main_line());
        prop_assert_eq!(back.start(), g.start());
        prop_assert_eq!(&back.black, &g.black);
        prop_assert_eq!(&back.white, &g.white);
        prop_assert_eq!(&back.date, &g.date);
        prop_assert_eq!(&back.event, &g.event);
        prop_assert_eq!(&back.comment, &g.comment);
        prop_assert_eq!(back.time_per_side, g.time_per_side);
        let record = ggf::read_record(&text).unwrap();
        prop_assert_eq!(ggf::write_record(&record), text);
        // Saved as a file, GGF keeps the current line (what is on screen).
        let sniffed = formats::read_game(&formats::write_game(&g, Format::Ggf)).unwrap();
        prop_assert_eq!(sniffed.main_line(), g.moves());
    }

    /// A transcript keeps the current line from the start (passes come back where forced).
    #[test]
    fn transcripts_keep_the_line(seed in any::<u64>()) {
        let g = random_game(seed);
        let text = transcript::write(&g);
        let back = transcript::read_at(g.start(), &text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let mut want = g.moves();
        if g.position_at(g.len()).must_pass() {
            want.push(Move::Pass);
        }
        prop_assert_eq!(back.moves(), want);
        if g.start() == Position::start() {
            let sniffed = formats::read_game(&formats::write_game(&g, Format::Transcript));
            if !text.is_empty() {
                prop_assert_eq!(sniffed.unwrap().moves(), back.moves());
            }
        }
    }

    /// Board strings: any placement of discs, either side to move.
    #[test]
    fn board_strings(black in any::<u64>(), white in any::<u64>(), white_to_move in any::<bool>(), seed in any::<u64>()) {
        let side = if white_to_move { Color::White } else { Color::Black };
        for p in [Position::from_discs(black, white, side), random_position(&mut Rng(seed))] {
            prop_assert_eq!(Position::parse(&p.to_board_string()), Ok(p));
        }
    }

    /// Script results: exact and WLD outcomes, lines with passes, comments.
    #[test]
    fn script_results(seed in any::<u64>(), score in -64i32..=64, wld in any::<bool>(), lines in any::<bool>(), comment in proptest::option::of("%[ -~éß李]{0,20}")) {
        let mut rng = Rng(seed);
        let g = random_game(rng.next());
        let side = if score % 2 == 0 { Color::Black } else { Color::White };
        let outcome = if wld { Outcome::wld(side, score) } else { Outcome::exact(side, score - score % 2) };
        let moves = g.moves();
        let line = lines.then_some(&moves[..]);
        let text = format_result(outcome, line, comment.as_deref());
        let (o, l, c) = parse_result(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?;
        prop_assert_eq!(o, outcome);
        prop_assert_eq!(l, line.filter(|m| !m.is_empty()).map(|m| m.to_vec()));
        prop_assert_eq!(c, comment);
    }
}
