//! Edax's OBF test-position format: `board side; MOVE:score; MOVE:score; ...`.
//!
//! The board and side are written as in the script format (64 squares a1..h8, then the
//! side to move); each optional `MOVE:score` field gives the exact score of a move for the
//! side to move (`A2:+38`; a pass is `PS` or `--`). Blank lines and lines starting with
//! `%` or `#` are skipped.
//!
//! ```
//! use okapi_core::formats::obf::parse_line;
//! let e = parse_line("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;")
//!     .unwrap()
//!     .unwrap();
//! assert_eq!(e.best_score(), Some(38));
//! assert_eq!(e.moves.len(), 2);
//! ```

use super::script::text_lines;
use crate::board::{Move, ParseBoardError, Position};

/// One OBF position with the scores it lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfEntry {
    /// The position and the side to move.
    pub position: Position,
    /// Moves with their exact scores for the side to move, in file order.
    pub moves: Vec<(Move, i32)>,
}

impl ObfEntry {
    /// The best listed score: the position's value if every move is listed.
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().map(|&(_, s)| s).max()
    }

    /// The moves listed with the best score.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.best_score();
        self.moves
            .iter()
            .filter(|&&(_, s)| Some(s) == best)
            .map(|&(m, _)| m)
            .collect()
    }

    /// The listed score of `mv`, if it is listed.
    pub fn score_of(&self, mv: Move) -> Option<i32> {
        self.moves.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
    }
}

/// Why an OBF line holds no position; columns count characters from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObfError {
    /// The board and side are not a board string (see [`Position::parse`]).
    #[error(transparent)]
    Board(#[from] ParseBoardError),
    /// A field after the board that is not `MOVE:score` with a score within ±64.
    #[error("bad move field '{text}' at column {column} (expected MOVE:score, e.g. A2:+38)")]
    BadField {
        /// The field, trimmed.
        text: String,
        /// Its column in the line, from 1.
        column: usize,
    },
}

/// An error in an OBF file: the line and what is wrong on it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct ObfFileError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong on it.
    pub error: ObfError,
}

/// Parses one line: `Ok(None)` for blank and comment lines.
pub fn parse_line(line: &str) -> Result<Option<ObfEntry>, ObfError> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('%') || trimmed.starts_with('#') {
        return Ok(None);
    }
    let mut fields = line.split(';');
    let first = fields.next().unwrap_or("");
    let position = Position::parse(first)?;
    let mut moves = Vec::new();
    let mut column = first.chars().count() + 2;
    for raw in fields {
        let field = raw.trim();
        let here = column + raw.chars().take_while(|c| c.is_whitespace()).count();
        column += raw.chars().count() + 1;
        if field.is_empty() {
            continue;
        }
        let bad = || ObfError::BadField {
            text: field.to_string(),
            column: here,
        };
        let (mv, score) = field.split_once(':').ok_or_else(bad)?;
        let mv = Move::parse(mv.trim()).map_err(|_| bad())?;
        let score: i32 = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .ok()
            .filter(|s: &i32| s.abs() <= 64)
            .ok_or_else(bad)?;
        moves.push((mv, score));
    }
    Ok(Some(ObfEntry { position, moves }))
}

/// Parses a file: the entries with their 1-based line numbers, or the first error with
/// its line number.
pub fn parse_file(bytes: &[u8]) -> Result<Vec<(usize, ObfEntry)>, ObfFileError> {
    let mut out = Vec::new();
    for (i, line) in text_lines(bytes).enumerate() {
        if let Some(entry) =
            parse_line(&line).map_err(|error| ObfFileError { line: i + 1, error })?
        {
            out.push((i + 1, entry));
        }
    }
    Ok(out)
}

/// The number of the first position of an OBF file named like `fforum-40-59.obf`: the
/// first number in its name, or `None` when there is none. A number too large for the
/// positions after it (past `u32`) is an error, never a silent renumbering.
pub fn first_number_in_name(stem: &str, positions: usize) -> Result<Option<u32>, String> {
    let digits: String = stem
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(char::is_ascii_digit)
        .collect();
    if digits.is_empty() {
        return Ok(None);
    }
    let too_large = || {
        format!(
            "the number {digits} in the file name is too large to number {positions} positions from (at most {})",
            u32::MAX
        )
    };
    let first: u32 = digits.parse().map_err(|_| too_large())?;
    let last = u32::try_from(positions.saturating_sub(1)).map_err(|_| too_large())?;
    first.checked_add(last).ok_or_else(too_large)?;
    Ok(Some(first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Square};

    #[test]
    fn parses_fields() {
        let text = "% comment\n\n--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- O; G8:+18; h1:-12; PS:0;\n";
        let entries = parse_file(text.as_bytes()).unwrap();
        assert_eq!(entries.len(), 1);
        let (line, e) = &entries[0];
        assert_eq!(*line, 3);
        assert_eq!(e.position.side_to_move(), Color::White);
        assert_eq!(e.moves[1], (Move::Play(Square::parse("h1").unwrap()), -12));
        assert_eq!(e.moves[2], (Move::Pass, 0));
        assert_eq!(
            e.best_moves(),
            vec![Move::Play(Square::parse("g8").unwrap())]
        );
        assert_eq!(
            e.score_of(Move::Play(Square::parse("h1").unwrap())),
            Some(-12)
        );
    }

    #[test]
    fn no_fields_is_fine() {
        let e = parse_line(&format!("{}O X", "-".repeat(63)))
            .unwrap()
            .unwrap();
        assert!(e.moves.is_empty());
        assert_eq!(e.best_score(), None);
    }

    #[test]
    fn errors_name_the_line() {
        let board = format!("{}O", "-".repeat(63));
        let text = format!("{board} X;\n{board} X; A2=3;\n");
        let err = parse_file(text.as_bytes()).unwrap_err();
        assert_eq!(
            err,
            ObfFileError {
                line: 2,
                error: ObfError::BadField {
                    text: "A2=3".into(),
                    column: 69
                }
            }
        );
        assert!(
            err.to_string()
                .starts_with("line 2: bad move field 'A2=3' at column 69"),
            "{err}"
        );
        assert!(matches!(
            parse_line(" XO X"),
            Err(ObfError::Board(ParseBoardError::WrongLength {
                squares: 2,
                column: 2
            }))
        ));
        assert!(matches!(
            parse_line(&format!("{board} X; A2:+99;")),
            Err(ObfError::BadField { .. })
        ));
    }

    #[test]
    fn file_numbers_never_wrap() {
        assert_eq!(first_number_in_name("fforum-40-59", 20), Ok(Some(40)));
        assert_eq!(first_number_in_name("positions", 20), Ok(None));
        assert_eq!(first_number_in_name("x4294967295", 1), Ok(Some(u32::MAX)));
        let err = first_number_in_name("x4294967295", 2).unwrap_err();
        assert!(err.contains("too large"), "{err}");
        let err = first_number_in_name("x99999999999999999999", 1).unwrap_err();
        assert!(err.contains("99999999999999999999"), "{err}");
    }
}
