//! Transcripts: the moves of a game as squares, `f5d6c3`, `F5 D6 C3`, `1. f5 d6 2. c3`,
//! `F5-D6-C3`.
//!
//! Reading: a move is a column `a-h` and a row `1-8` (either case); anything else that is
//! not a letter is a separator (blanks, `,;./`, a single `-`), and digits standing where a
//! move would start are move numbers. A pass is `--`, `PA` or `PS` and is optional: a pass
//! the rules force is inserted (after the last move too). A pass that is not forced is an
//! error. Errors give the character
//! offset of the move (0-based) and its number in the text (1-based).
//!
//! Writing: the squares of the current line, lowercase, passes left out.
//!
//! ```
//! use okapi_core::formats::transcript;
//! let game = transcript::read("1. f5 d6 2. C3").unwrap();
//! assert_eq!(transcript::write(&game), "f5d6c3");
//! let err = transcript::read("f5 d6 a1").unwrap_err();
//! assert_eq!((err.offset, err.number), (6, 3));
//! ```

use crate::board::{Move, Position};
use crate::game::{Game, transcript_of};

/// Why a transcript was not read: what, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ('{text}') at character {offset}: {reason}")]
pub struct TranscriptError {
    /// Character offset of the move in the text, from 0.
    pub offset: usize,
    /// The move's number among the moves written, from 1.
    pub number: usize,
    /// The move as written.
    pub text: String,
    /// Why it cannot be played or read (not a move, illegal here).
    pub reason: String,
}

/// Reads a transcript from the standard start position; the cursor ends after the last
/// move.
pub fn read(text: &str) -> Result<Game, TranscriptError> {
    read_at(Position::start(), text)
}

/// Reads a transcript from `start`.
pub fn read_at(start: Position, text: &str) -> Result<Game, TranscriptError> {
    let mut game = Game::new(start);
    let chars: Vec<char> = text.chars().collect();
    let mut number = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let pass_dashes = c == '-' && chars.get(i + 1) == Some(&'-');
        if !pass_dashes && !c.is_alphabetic() {
            // separators, move numbers
            i += 1;
            continue;
        }
        number += 1;
        let offset = i;
        let token: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        i += 2;
        let bad = |reason: String| TranscriptError {
            offset,
            number,
            text: token.clone(),
            reason,
        };
        if token.chars().count() < 2 {
            return Err(bad("a move is a column a-h and a row 1-8".into()));
        }
        let mv = Move::parse(&token).map_err(|e| bad(e.to_string()))?;
        if mv == Move::Pass {
            if !game.position().must_pass() {
                return Err(bad("a pass, but the side to move has a legal move".into()));
            }
        } else {
            game.pass_if_needed();
        }
        game.play(mv, None).map_err(|e| bad(e.to_string()))?;
    }
    // Only move numbers (`5`, `1.`): not the empty game the separators alone would give
    // (`okapi book show 5` showed the start position).
    if number == 0
        && let Some(offset) = chars.iter().position(char::is_ascii_digit)
    {
        return Err(TranscriptError {
            offset,
            number: 1,
            text: text.trim().chars().take(12).collect(),
            reason: "a number, not a move: a move is a column a-h and a row 1-8 (f5d6c3)".into(),
        });
    }
    game.pass_if_needed();
    Ok(game)
}

/// The moves of a transcript from the start position, passes made explicit.
pub fn read_moves(text: &str) -> Result<Vec<Move>, TranscriptError> {
    read(text).map(|g| g.moves())
}

/// The game's current line as a transcript, `f5d6c3...`, passes left out.
pub fn write(game: &Game) -> String {
    transcript_of(&game.moves())
}

/// Moves as a transcript, passes left out.
pub fn write_moves(moves: &[Move]) -> String {
    transcript_of(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    #[test]
    fn separators_numbers_and_case() {
        let t = "f5d6c3d3c4f4f6f3e6e7d7c6f7";
        let g = read(t).unwrap();
        assert_eq!(write(&g), t);
        assert_eq!(g.ply(), 13);
        for text in [
            "1. f5 d6 2. C3 d3 c4 f4 f6 f3 e6 e7 d7 c6 f7",
            "F5-D6-C3-D3-C4-F4-F6-F3-E6-E7-D7-C6-F7",
            "f5,d6;c3/d3 c4\tf4\nf6 f3 e6 e7 d7 c6 f7\n",
        ] {
            assert_eq!(read(text).unwrap().moves(), g.moves(), "{text}");
        }
        assert!(read("").unwrap().is_empty());
        assert!(read(" \n").unwrap().is_empty());
    }

    #[test]
    fn numbers_without_moves_are_refused() {
        for text in ["5", " 12 ", "1."] {
            let e = read(text).unwrap_err();
            assert!(e.reason.contains("a number, not a move"), "{text}: {e}");
        }
        assert_eq!(read("1. f5").unwrap().ply(), 1);
    }

    #[test]
    fn errors_say_where() {
        let e = read("f5d6a1").unwrap_err();
        assert_eq!((e.offset, e.number, e.text.as_str()), (4, 3, "a1"));
        assert!(
            e.to_string().contains("move 3 ('a1') at character 4"),
            "{e}"
        );
        let e = read("f5 z9").unwrap_err();
        assert_eq!((e.offset, e.number), (3, 2));
        let e = read("f5 d").unwrap_err();
        assert_eq!((e.offset, e.number), (3, 2));
        let e = read("éé f5").unwrap_err();
        assert_eq!(e.offset, 0);
        let e = read("f5 -- d6").unwrap_err();
        assert!(e.reason.contains("legal move"), "{e}");
    }

    #[test]
    fn forced_passes_inserted() {
        // Black (b1) has no move; White (a1) plays c1 and wipes Black out.
        let start = Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap();
        assert!(start.must_pass());
        for text in ["c1", "-- c1", "PA c1", "ps,c1"] {
            let g = read_at(start, text).unwrap();
            assert_eq!(g.moves(), &[Move::Pass, sq("c1")], "{text}");
            assert_eq!(g.result(), Some((0, 64)));
        }
    }
}
