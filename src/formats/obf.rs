//! Edax's OBF test-position format: `board side; MOVE:score; MOVE:score; ...`.
//!
//! The board and side are written as in the script format (64 squares a1..h8, then the
//! side to move); each optional `MOVE:score` field gives the exact score of a move for the
//! side to move (`A2:+38`; a pass is `PS` or `--`). Blank lines and lines starting with
//! `%` or `#` are skipped.
//!
//! ```
//! use okapi::formats::obf::parse_line;
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

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObfError {
    #[error(transparent)]
    Board(#[from] ParseBoardError),
    #[error("bad move field '{0}' (expected MOVE:score, e.g. A2:+38)")]
    BadField(String),
}

/// Parses one line: `Ok(None)` for blank and comment lines.
pub fn parse_line(line: &str) -> Result<Option<ObfEntry>, ObfError> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('%') || trimmed.starts_with('#') {
        return Ok(None);
    }
    let mut fields = trimmed.split(';');
    let position = Position::parse(fields.next().unwrap_or(""))?;
    let mut moves = Vec::new();
    for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
        let bad = || ObfError::BadField(field.to_string());
        let (mv, score) = field.split_once(':').ok_or_else(bad)?;
        let mv = Move::parse(mv.trim()).map_err(|_| bad())?;
        let score: i32 = score
            .trim()
            .trim_start_matches('+')
            .parse()
            .map_err(|_| bad())?;
        moves.push((mv, score));
    }
    Ok(Some(ObfEntry { position, moves }))
}

/// Parses a file: the entries with their 1-based line numbers, or the first error with
/// its line number.
pub fn parse_file(bytes: &[u8]) -> Result<Vec<(usize, ObfEntry)>, (usize, ObfError)> {
    let mut out = Vec::new();
    for (i, line) in text_lines(bytes).enumerate() {
        if let Some(entry) = parse_line(&line).map_err(|e| (i + 1, e))? {
            out.push((i + 1, entry));
        }
    }
    Ok(out)
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
        let e = parse_line(&format!("{} X", "-".repeat(64)))
            .unwrap()
            .unwrap();
        assert!(e.moves.is_empty());
        assert_eq!(e.best_score(), None);
    }

    #[test]
    fn errors_name_the_line() {
        let text = format!("{} X;\n{} X; A2=3;\n", "-".repeat(64), "-".repeat(64));
        assert_eq!(
            parse_file(text.as_bytes()),
            Err((2, ObfError::BadField("A2=3".into())))
        );
        assert!(matches!(
            parse_line("XO X"),
            Err(ObfError::Board(ParseBoardError::WrongLength(2)))
        ));
    }
}
