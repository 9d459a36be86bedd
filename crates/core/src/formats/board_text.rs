//! Board strings as people exchange them: 64 squares and the side to move, in any of the
//! common character conventions, compact or spaced, on one line or eight.
//!
//! | convention | Black | White | empty | seen in |
//! |---|---|---|---|---|
//! | `X`/`O` | `X` `x` | `O` `o` `0` | `-` `.` `_` | Okapi, scrZebra scripts, Edax |
//! | `*`/`O` | `*` | `O` `o` `0` | `-` `.` | Edax, FFO |
//! | `b`/`w` | `B` `b` | `W` `w` | `-` `.` | NBoard, GGS dumps |
//!
//! Accepted shapes: `XO--...-- X` (64 characters, blank, side), the same without the
//! blank (65 characters), squares separated by blanks, eight rows on eight lines with or
//! without row numbers and an `a b c d e f g h` header (Okapi's own diagram), and the side
//! as a last token (`X`, `*`, `B`, `O`, `0`, `W`, `Black`, `White`, optionally followed by
//! `to move`).
//!
//! A string that mixes the `X`/`O` and `b`/`w` letters is refused as ambiguous (is `b` a
//! disc or a typo beside `X` and `O`?), with the letters named. Errors say what is wrong:
//! the count ("a board has 64 squares, this has 68"), the character and its square, the
//! side.
//!
//! Writing is [`Position::to_board_string`]: `X`, `O`, `-`, a blank and `X` or `O`.
//! (The strict reader of script and OBF lines, with columns, is [`Position::parse`].)

use crate::board::{Color, Position, Square};

/// Why a board string was not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardTextError {
    /// Not 64 squares.
    #[error("a board has 64 squares, this has {squares}")]
    Count {
        /// The squares the text has.
        squares: usize,
    },
    /// A character that is no disc and no empty square.
    #[error(
        "'{ch}' at square {square} is not a disc or an empty square (Black: X * B, White: O 0 W, empty: - . _)"
    )]
    BadSquare {
        /// The character.
        ch: char,
        /// The square it stands for.
        square: Square,
    },
    /// Letters of both the X/O and the b/w conventions.
    #[error(
        "ambiguous: it mixes the X/O and b/w conventions ({letters}), so which letter is which colour is unclear; use one convention"
    )]
    Ambiguous {
        /// The disc letters found, in order of appearance.
        letters: String,
    },
    /// No side to move after the squares.
    #[error("the side to move is missing: add X (Black) or O (White) after the 64 squares")]
    MissingSide,
    /// No disc on the board: no game reaches it (see
    /// [`ParseBoardError::NoDiscs`](crate::board::ParseBoardError::NoDiscs)).
    #[error("impossible position: the board has no discs")]
    NoDiscs,
    /// 63 squares and a side that is also a disc letter, as 64 separate characters: a
    /// square missing, or the side left out (its last square read as the side).
    #[error(
        "a board has 64 squares and then the side to move; this has 63 and '{side}', or 64 and no side to move"
    )]
    SquareOrSideMissing {
        /// The last character, read as the side.
        side: String,
    },
    /// A side to move that is no colour.
    #[error("'{side}' is not a side to move (X, *, B or Black; O, 0, W or White)")]
    BadSide {
        /// The side as written.
        side: String,
    },
}

/// The two families of disc letters: mixing them is ambiguous.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    XO,
    BW,
}

/// What a square character means, and in which family.
fn square_char(ch: char) -> Option<(Option<Color>, Option<Family>)> {
    Some(match ch {
        'X' | 'x' | '*' => (Some(Color::Black), Some(Family::XO)),
        'O' | 'o' | '0' => (Some(Color::White), Some(Family::XO)),
        'B' | 'b' => (Some(Color::Black), Some(Family::BW)),
        'W' | 'w' => (Some(Color::White), Some(Family::BW)),
        '-' | '.' | '_' => (None, None),
        _ => return None,
    })
}

fn side_token(token: &str) -> Option<Color> {
    match token.to_ascii_lowercase().as_str() {
        "x" | "*" | "b" | "black" => Some(Color::Black),
        "o" | "0" | "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// The square characters and the side token of a board text, after taking out what is
/// not a square: a coordinate header, row numbers, `to move`.
fn split(text: &str) -> (Vec<char>, Option<String>) {
    let text = text.trim_start_matches('\u{feff}').trim();
    let mut tokens: Vec<String> = Vec::new();
    let mut side_line: Option<String> = None;
    for line in text.lines() {
        let mut line = line.trim();
        let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.eq_ignore_ascii_case("abcdefgh") {
            continue; // a coordinate header or footer
        }
        let lower = line.to_ascii_lowercase();
        if let Some(i) = lower.find("to move") {
            line = line[..i].trim_end();
        }
        // Okapi's diagram ends "Black to move (2-2)": the side on a line of its own.
        let first = line.split_whitespace().next().unwrap_or("");
        if first.eq_ignore_ascii_case("black") || first.eq_ignore_ascii_case("white") {
            side_line = Some(first.to_string());
            continue;
        }
        // Row numbers before (and after) a row of a diagram.
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let is_row_number = |w: &str| w.len() == 1 && matches!(w.as_bytes()[0], b'1'..=b'8');
        if words.len() > 1 && is_row_number(words[0]) {
            words.remove(0);
            if words.len() > 1 && words.last().is_some_and(|w| is_row_number(w)) {
                words.pop();
            }
        }
        tokens.extend(words.into_iter().map(str::to_string));
    }
    if side_line.is_some() {
        return (tokens.concat().chars().collect(), side_line);
    }
    match tokens.len() {
        0 => (Vec::new(), None),
        1 => {
            let chars: Vec<char> = tokens[0].chars().collect();
            if chars.len() == 65 {
                (chars[..64].to_vec(), Some(chars[64].to_string()))
            } else {
                (chars, None)
            }
        }
        _ => {
            let last = tokens.last().expect("two tokens or more");
            if side_token(last).is_some() || last.chars().count() == 1 {
                let side = tokens.pop();
                (tokens.concat().chars().collect(), side)
            } else {
                (tokens.concat().chars().collect(), None)
            }
        }
    }
}

/// Are the squares written one by one, separated by blanks (rather than as a block)?
fn spaced(text: &str) -> bool {
    text.split_whitespace()
        .filter(|w| w.chars().count() == 1)
        .count()
        >= 32
}

/// Reads a board string in any of the conventions above. A board with no disc is
/// refused: no game reaches it.
pub fn read(text: &str) -> Result<Position, BoardTextError> {
    let (squares, side) = split(text);
    if squares.len() != 64 {
        // 63 squares and a one-character side, written as 64 separate characters: a
        // board whose side was left out (its last square taken for the side) when that
        // character is no side, else either. Written as a block of 63 and a side, it is
        // a square short (the count below).
        if squares.len() == 63
            && let Some(side) = side.as_ref().filter(|s| s.chars().count() == 1)
            && spaced(text)
        {
            return Err(match side_token(side) {
                None => BoardTextError::MissingSide,
                Some(_) => BoardTextError::SquareOrSideMissing { side: side.clone() },
            });
        }
        return Err(BoardTextError::Count {
            squares: squares.len()
                + usize::from(side.as_ref().is_some_and(|s| side_token(s).is_none())),
        });
    }
    let (mut black, mut white) = (0u64, 0u64);
    let mut families: Vec<(Family, char)> = Vec::new();
    for (i, &ch) in squares.iter().enumerate() {
        let square = Square::new(i as u32);
        let (color, family) = square_char(ch).ok_or(BoardTextError::BadSquare { ch, square })?;
        match color {
            Some(Color::Black) => black |= square.bit(),
            Some(Color::White) => white |= square.bit(),
            None => {}
        }
        if let Some(f) = family
            && !families.contains(&(f, ch))
        {
            families.push((f, ch));
        }
    }
    let has = |f: Family| families.iter().any(|(g, _)| *g == f);
    if has(Family::XO) && has(Family::BW) {
        let letters: Vec<String> = families.iter().map(|(_, c)| c.to_string()).collect();
        return Err(BoardTextError::Ambiguous {
            letters: letters.join(" "),
        });
    }
    let side = side.ok_or(BoardTextError::MissingSide)?;
    let side = side_token(&side).ok_or(BoardTextError::BadSide { side })?;
    if black | white == 0 {
        return Err(BoardTextError::NoDiscs);
    }
    Ok(Position::from_discs(black, white, side))
}

/// The position as a board string (`X`, `O`, `-`, a blank and the side).
pub fn write(position: &Position) -> String {
    position.to_board_string()
}

/// Does the text look like a board string (even a wrong one), rather than a transcript or
/// prose? At least 16 square characters, and three quarters of all its characters square
/// characters: transcripts are mostly `a`-`h` and `1`-`8`, which are not.
pub fn looks_like_board(text: &str) -> bool {
    let (squares, _) = split(text);
    let board_chars = squares
        .iter()
        .filter(|c| square_char(**c).is_some())
        .count();
    board_chars >= 16 && board_chars * 4 >= squares.len() * 3
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position after f5 d6 c3, in one convention.
    fn sample() -> Position {
        crate::formats::transcript::read("f5d6c3")
            .unwrap()
            .position()
    }

    fn in_convention(p: &Position, black: char, white: char, empty: char, sep: &str) -> String {
        let cells: Vec<String> = Square::all()
            .map(|sq| {
                match p.at(sq) {
                    Some(Color::Black) => black,
                    Some(Color::White) => white,
                    None => empty,
                }
                .to_string()
            })
            .collect();
        cells.join(sep)
    }

    #[test]
    fn every_common_convention_reads() {
        let p = sample();
        assert_eq!(p.side_to_move(), Color::White);
        for (b, w, e) in [
            ('X', 'O', '-'),
            ('*', 'O', '.'),
            ('b', 'w', '.'),
            ('x', 'o', '-'),
            ('X', '0', '.'),
        ] {
            for sep in ["", " "] {
                let squares = in_convention(&p, b, w, e, sep);
                for side in ["O", "W", "white", "White to move", "0"] {
                    let text = format!("{squares} {side}");
                    assert_eq!(read(&text), Ok(p), "{text}");
                }
                if sep.is_empty() {
                    // 65 characters: the side glued on.
                    assert_eq!(read(&format!("{squares}O")), Ok(p));
                }
            }
            // Eight lines of eight, the side below.
            let rows: Vec<String> = in_convention(&p, b, w, e, "")
                .chars()
                .collect::<Vec<_>>()
                .chunks(8)
                .map(|r| r.iter().collect())
                .collect();
            assert_eq!(read(&format!("{}\nO\n", rows.join("\n"))), Ok(p));
        }
        // Okapi's own diagram (row numbers, a header, "White to move (4-1)").
        assert_eq!(read(&p.to_string()), Ok(p));
        assert_eq!(read(&write(&p)), Ok(p));
        assert_eq!(read(&format!("\u{feff}{}\r\n", write(&p))), Ok(p));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let board = "-".repeat(27) + "OX------XO" + &"-".repeat(27);
        assert_eq!(board.len(), 64);
        let e = read(&format!("{board}XXXX X")).unwrap_err();
        assert_eq!(e, BoardTextError::Count { squares: 68 });
        assert_eq!(e.to_string(), "a board has 64 squares, this has 68");
        assert_eq!(
            read(&format!("{}----", "-".repeat(64))),
            Err(BoardTextError::Count { squares: 68 })
        );
        assert_eq!(read(&board), Err(BoardTextError::MissingSide));
        let e = read(&format!("{} X", board.replacen('-', "Q", 1))).unwrap_err();
        assert_eq!(
            e,
            BoardTextError::BadSquare {
                ch: 'Q',
                square: Square::parse("a1").unwrap()
            }
        );
        assert!(e.to_string().contains("'Q' at square a1"), "{e}");
        assert_eq!(
            read(&format!("{board} Q")),
            Err(BoardTextError::BadSide { side: "Q".into() })
        );
        let mixed = board.replacen('-', "b", 1);
        let e = read(&format!("{mixed} X")).unwrap_err();
        assert!(matches!(e, BoardTextError::Ambiguous { .. }), "{e}");
        assert!(e.to_string().contains("ambiguous"), "{e}");
        // Spaced squares whose side was left out: the last square is not taken for it.
        // Spaced squares ending in a disc letter: 63 squares and a side, or 64 and none.
        let spaced: Vec<String> = "X".repeat(64).chars().map(String::from).collect();
        let e = read(&spaced.join(" ")).unwrap_err();
        assert_eq!(e, BoardTextError::SquareOrSideMissing { side: "X".into() });
        assert!(
            e.to_string()
                .contains("this has 63 and 'X', or 64 and no side")
        );
        let spaced: Vec<String> = board.chars().map(String::from).collect();
        assert_eq!(read(&spaced.join(" ")), Err(BoardTextError::MissingSide));
    }

    #[test]
    fn board_string_messages_63_squares_and_a_side_is_a_square_short() {
        // The side is there: a square is missing, not the side (it said "the side to
        // move is missing").
        let board63 = "-".repeat(27) + "OX------XO" + &"-".repeat(26);
        let e = read(&format!("{board63} X")).unwrap_err();
        assert_eq!(e, BoardTextError::Count { squares: 63 });
        assert_eq!(e.to_string(), "a board has 64 squares, this has 63");
    }

    #[test]
    fn a_board_with_no_discs_is_refused() {
        for text in [
            format!("{} X", "-".repeat(64)),
            format!("{} O", ".".repeat(64)),
            format!("{}w", "-".repeat(64)),
        ] {
            let e = read(&text).unwrap_err();
            assert_eq!(e, BoardTextError::NoDiscs, "{text}");
            assert_eq!(e.to_string(), "impossible position: the board has no discs");
        }
        // One disc is a position (set-up may make positions no game reaches).
        assert!(read(&format!("X{} O", "-".repeat(63))).is_ok());
    }

    #[test]
    fn boards_are_told_from_transcripts_and_prose() {
        let p = sample();
        assert!(looks_like_board(&write(&p)));
        assert!(looks_like_board(&p.to_string()));
        assert!(looks_like_board(&format!("{} X", "-".repeat(68))));
        for not in [
            "f5d6c3d3c4",
            "1. f5 d6 2. c3 d3",
            "F5 D6 C3",
            "hello",
            "",
            "  ",
        ] {
            assert!(!looks_like_board(not), "{not}");
        }
        // No move is read as a board.
        assert!(read("f5 d6").is_err());
    }
}
