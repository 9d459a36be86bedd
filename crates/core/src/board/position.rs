use super::hash;
use super::{BitBoard, Board, Square};
use std::fmt;

/// The colour of a disc or of a side; Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Color {
    /// The side that moves first (`X` or `*` in board strings).
    Black,
    /// The side that moves second (`O` or `0` in board strings).
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The colour's name in English, capitalised (`"Black"`), as messages show it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

/// A move: a disc on a square, or a pass (written `--` as in scrZebra lines).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Move {
    /// A disc played on this square.
    Play(Square),
    /// No move: the side to move has none and hands the move over.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => write!(f, "{sq}"),
            Move::Pass => write!(f, "--"),
        }
    }
}

impl Move {
    /// Parses a square (`f5`), or `--`, `pa`, `pass` for a pass.
    pub fn parse(text: &str) -> Result<Move, super::ParseSquareError> {
        match text.to_ascii_lowercase().as_str() {
            "--" | "pa" | "ps" | "pass" => Ok(Move::Pass),
            _ => Square::parse(text).map(Move::Play),
        }
    }

    /// The square played, or `None` for a pass.
    pub fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

/// Why [`Position::play`] or [`Position::pass`] refused a move; the text says it to a user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The square already holds a disc.
    #[error("{0} is occupied")]
    Occupied(Square),
    /// The square is empty but flips no disc.
    #[error("{0} flips nothing, so it is not a legal move")]
    FlipsNothing(Square),
    /// A pass while the side to move (named in the field) has a legal move.
    #[error("cannot pass: {0} has a legal move")]
    PassWithMoves(&'static str),
    /// Neither side can move: nothing more can be played.
    #[error("the game is over")]
    GameOver,
}

/// Why a board string was not read; columns count characters from 1 in the text given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseBoardError {
    /// The board part (up to the first white space) is not 64 characters long.
    #[error("the board has {squares} squares, not 64 (columns {column} to {})", column + squares.saturating_sub(1))]
    WrongLength {
        /// How many characters the board part has.
        squares: usize,
        /// The column of its first character in the text, from 1.
        column: usize,
    },
    /// A character in the 64 squares that is not a disc or an empty square.
    #[error(
        "bad character '{ch}' at column {column}, square {square} (use X * x for Black, O 0 o for White, - . for empty)"
    )]
    BadSquare {
        /// The character read.
        ch: char,
        /// The square it stands for.
        square: Square,
        /// Its column in the text, from 1.
        column: usize,
    },
    /// Nothing follows the 64 squares.
    #[error("missing side to move at column {column} (X or * for Black, O or 0 for White)")]
    MissingSide {
        /// The column just after the squares, from 1.
        column: usize,
    },
    /// The word after the squares is not a side to move.
    #[error("bad side to move '{side}' at column {column} (X or * for Black, O or 0 for White)")]
    BadSide {
        /// The word read.
        side: String,
        /// Its column in the text, from 1.
        column: usize,
    },
    /// No game reaches a board without discs (the four centre discs are never removed);
    /// calling it a 32-32 draw would answer a question nobody asked. Refused here, the one
    /// reader of board strings, so scripts, GGF, Okapi JSON, the console and the app agree.
    #[error("impossible position: the board has no discs")]
    NoDiscs,
}

/// A position with absolute colours, the side to move, and its Zobrist key.
///
/// Any placement of discs is allowed (board set-up may make positions no game reaches).
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Position {
    black: u64,
    white: u64,
    side: Color,
    key: u64,
}

/// A move serialised as it is written (`"f5"`, `"--"`).
impl From<Move> for String {
    fn from(mv: Move) -> String {
        mv.to_string()
    }
}

impl TryFrom<String> for Move {
    type Error = super::ParseSquareError;
    fn try_from(text: String) -> Result<Move, super::ParseSquareError> {
        Move::parse(&text)
    }
}

/// A position serialised as its board string (the key is made again when read).
impl From<Position> for String {
    fn from(position: Position) -> String {
        position.to_board_string()
    }
}

impl TryFrom<String> for Position {
    type Error = ParseBoardError;
    fn try_from(text: String) -> Result<Position, ParseBoardError> {
        Position::parse(&text)
    }
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.key)
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// The standard start position, Black to move.
    pub fn start() -> Position {
        Position::from_discs(Board::START.player, Board::START.opponent, Color::Black)
    }

    /// From disc sets; overlapping squares count as Black.
    pub fn from_discs(black: u64, white: u64, side: Color) -> Position {
        let white = white & !black;
        Position {
            black,
            white,
            side,
            key: hash::full_key(black, white, side == Color::White),
        }
    }

    /// From a side-relative board and the colour of its side to move.
    pub fn from_board(board: Board, side: Color) -> Position {
        match side {
            Color::Black => Position::from_discs(board.player, board.opponent, side),
            Color::White => Position::from_discs(board.opponent, board.player, side),
        }
    }

    /// The side-relative view the search works on: the side to move's discs first.
    #[inline]
    pub fn board(&self) -> Board {
        match self.side {
            Color::Black => Board::new(self.black, self.white),
            Color::White => Board::new(self.white, self.black),
        }
    }

    /// Whose move it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Black's discs, one bit per square.
    #[inline]
    pub fn black(&self) -> u64 {
        self.black
    }

    /// White's discs, one bit per square.
    #[inline]
    pub fn white(&self) -> u64 {
        self.white
    }

    /// How many discs Black has.
    pub fn black_count(&self) -> u32 {
        self.black.count_ones()
    }

    /// How many discs White has.
    pub fn white_count(&self) -> u32 {
        self.white.count_ones()
    }

    /// How many squares are empty.
    pub fn empty_count(&self) -> u32 {
        64 - (self.black | self.white).count_ones()
    }

    /// The colour of the disc on `sq`, if any.
    pub fn at(&self, sq: Square) -> Option<Color> {
        if self.black & sq.bit() != 0 {
            Some(Color::Black)
        } else if self.white & sq.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The Zobrist key, kept incrementally.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The side to move's legal moves (empty when it must pass or the game is over).
    pub fn legal_moves(&self) -> BitBoard {
        BitBoard(self.board().moves())
    }

    /// `sq` is a legal move for the side to move.
    pub fn is_legal(&self, sq: Square) -> bool {
        self.legal_moves().contains(sq)
    }

    /// The side to move has no move but the game goes on.
    pub fn must_pass(&self) -> bool {
        let b = self.board();
        b.moves() == 0 && b.passed().moves() != 0
    }

    /// Neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.board().is_game_over()
    }

    /// Plays a disc, or says why it cannot be played.
    pub fn play(&mut self, sq: Square) -> Result<u64, PlayError> {
        if (self.black | self.white) & sq.bit() != 0 {
            return Err(PlayError::Occupied(sq));
        }
        let flipped = self.board().flips(sq.index());
        if flipped == 0 {
            return Err(PlayError::FlipsNothing(sq));
        }
        let mover = self.side as usize;
        match self.side {
            Color::Black => {
                self.black |= flipped | sq.bit();
                self.white &= !flipped;
            }
            Color::White => {
                self.white |= flipped | sq.bit();
                self.black &= !flipped;
            }
        }
        self.key ^=
            hash::square_key(mover, sq.index()) ^ hash::flip_key(flipped) ^ hash::WHITE_TO_MOVE;
        self.side = self.side.opposite();
        Ok(flipped)
    }

    /// Passes, which is legal only when the side to move has no move and the game goes on.
    pub fn pass(&mut self) -> Result<(), PlayError> {
        if self.board().moves() != 0 {
            return Err(PlayError::PassWithMoves(self.side.name()));
        }
        if self.is_game_over() {
            return Err(PlayError::GameOver);
        }
        self.force_pass();
        Ok(())
    }

    /// Hands the move to the other side without checking (board set-up).
    pub fn force_pass(&mut self) {
        self.side = self.side.opposite();
        self.key ^= hash::WHITE_TO_MOVE;
    }

    /// Plays a disc or a pass, or says why it cannot be played (see [`Position::play`] and
    /// [`Position::pass`]).
    pub fn play_move(&mut self, mv: Move) -> Result<(), PlayError> {
        match mv {
            Move::Play(sq) => self.play(sq).map(|_| ()),
            Move::Pass => self.pass(),
        }
    }

    /// The result if the game ends here: Black's discs, White's discs, empties to the winner.
    pub fn final_counts(&self) -> (u32, u32) {
        let (b, w) = (self.black_count(), self.white_count());
        let e = 64 - b - w;
        if b > w {
            (b + e, w)
        } else if w > b {
            (b, w + e)
        } else {
            (b + e / 2, w + e / 2)
        }
    }

    /// Parses the 64-character board string of the script and OBF formats followed by
    /// white space and the side to move (`X`/`*` Black, `O`/`0` White); text after the
    /// side is not read. The one reader of board strings: every format holding a board
    /// reads it here. Errors give the column (in characters, from 1) in `text`.
    pub fn parse(text: &str) -> Result<Position, ParseBoardError> {
        let t = text.trim_start();
        let column = text[..text.len() - t.len()].chars().count() + 1;
        let (squares, after) = match t.find(char::is_whitespace) {
            Some(i) => (&t[..i], &t[i..]),
            None => (t, ""),
        };
        let (black, white) = parse_squares(squares, column)?;
        let side_text = after.trim_start();
        let side_column = column
            + squares.chars().count()
            + after[..after.len() - side_text.len()].chars().count();
        let side = match side_text.split_whitespace().next() {
            None => {
                return Err(ParseBoardError::MissingSide {
                    column: side_column,
                });
            }
            Some("X") | Some("*") | Some("x") | Some("B") | Some("b") => Color::Black,
            Some("O") | Some("0") | Some("o") | Some("W") | Some("w") => Color::White,
            Some(other) => {
                return Err(ParseBoardError::BadSide {
                    side: other.to_string(),
                    column: side_column,
                });
            }
        };
        if black | white == 0 {
            return Err(ParseBoardError::NoDiscs);
        }
        Ok(Position::from_discs(black, white, side))
    }

    /// The board as 64 characters (`X`, `O`, `-`), a space and the side (`X` or `O`).
    pub fn to_board_string(&self) -> String {
        let mut s = String::with_capacity(66);
        for sq in Square::all() {
            s.push(match self.at(sq) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '-',
            });
        }
        s.push(' ');
        s.push(if self.side == Color::Black { 'X' } else { 'O' });
        s
    }
}

/// Parses exactly 64 square characters, the first at `column` of the text.
pub(crate) fn parse_squares(squares: &str, column: usize) -> Result<(u64, u64), ParseBoardError> {
    let n = squares.chars().count();
    if n != 64 {
        return Err(ParseBoardError::WrongLength { squares: n, column });
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, ch) in squares.chars().enumerate() {
        match ch {
            '*' | 'X' | 'x' => black |= 1 << i,
            'O' | '0' | 'o' => white |= 1 << i,
            '-' | '.' => {}
            _ => {
                return Err(ParseBoardError::BadSquare {
                    ch,
                    square: Square::new(i as u32),
                    column: column + i,
                });
            }
        }
    }
    Ok((black, white))
}

impl fmt::Display for Position {
    /// A diagram with coordinates, `X` Black, `O` White, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  a b c d e f g h")?;
        for r in 0..8 {
            write!(f, "{}", r + 1)?;
            for c in 0..8 {
                let ch = match self.at(Square::from_coords(c, r)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        write!(
            f,
            "{} to move ({}-{})",
            self.side.name(),
            self.black_count(),
            self.white_count()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_incremental() {
        let mut p = Position::start();
        for mv in ["f5", "d6", "c3", "d3", "c4"] {
            p.play(Square::parse(mv).unwrap()).unwrap();
            assert_eq!(
                p.key(),
                hash::full_key(p.black(), p.white(), p.side_to_move() == Color::White)
            );
        }
    }

    #[test]
    fn parse_errors_say_where() {
        assert_eq!(
            Position::parse("  XO- X"),
            Err(ParseBoardError::WrongLength {
                squares: 3,
                column: 3
            })
        );
        let bad = format!(" {}Z{} X", "-".repeat(10), "-".repeat(53));
        let err = Position::parse(&bad).unwrap_err();
        assert!(matches!(
            err,
            ParseBoardError::BadSquare {
                ch: 'Z',
                column: 12,
                ..
            }
        ));
        assert!(
            err.to_string()
                .starts_with("bad character 'Z' at column 12, square c2"),
            "{err}"
        );
        assert_eq!(
            Position::parse(&"-".repeat(64)),
            Err(ParseBoardError::MissingSide { column: 65 })
        );
        let err = Position::parse(&format!("{} \tQ", "-".repeat(64))).unwrap_err();
        assert_eq!(
            err,
            ParseBoardError::BadSide {
                side: "Q".into(),
                column: 67
            }
        );
        assert!(err.to_string().contains("'Q' at column 67"), "{err}");
        // non-ASCII counts one column a character
        let err = Position::parse(&format!("é{} X", "-".repeat(63))).unwrap_err();
        assert!(matches!(err, ParseBoardError::BadSquare { column: 1, .. }));
        assert_eq!(
            Position::parse(&format!("{} X", "-".repeat(64))),
            Err(ParseBoardError::NoDiscs)
        );
        assert!(Position::parse(&format!("X{} O", "-".repeat(63))).is_ok());
    }

    #[test]
    fn play_and_pass_rules() {
        let mut p = Position::start();
        assert_eq!(
            p.play(Square::parse("a1").unwrap()),
            Err(PlayError::FlipsNothing(Square::new(0)))
        );
        assert_eq!(
            p.play(Square::parse("d4").unwrap()),
            Err(PlayError::Occupied(Square::parse("d4").unwrap()))
        );
        assert!(p.pass().is_err());
        let s = p.to_board_string();
        assert_eq!(Position::parse(&s).unwrap(), p);
    }
}
