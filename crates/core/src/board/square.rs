use std::fmt;
use std::str::FromStr;

/// A square, `a1 = 0 ... h8 = 63` (column a..h, row 1..8).
#[derive(
    Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize,
)]
#[serde(into = "String", try_from = "String")]
pub struct Square(u8);

/// A square serialised by its name (`"f5"`).
impl From<Square> for String {
    fn from(square: Square) -> String {
        square.to_string()
    }
}

impl TryFrom<String> for Square {
    type Error = ParseSquareError;
    fn try_from(text: String) -> Result<Square, ParseSquareError> {
        Square::parse(&text)
    }
}

/// Text that is not a square name; holds the text given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square (expected a column a-h and a row 1-8, e.g. f5)")]
pub struct ParseSquareError(pub String);

impl Square {
    /// The square with this index (0..64).
    ///
    /// # Panics
    /// If `index >= 64`.
    #[inline]
    pub const fn new(index: u32) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index as u8)
    }

    /// The square with this index, or `None` if `index >= 64`: [`Square::new`] without the panic.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// From a column 0..8 (a..h) and a row 0..8 (1..8).
    #[inline]
    pub const fn from_coords(col: u32, row: u32) -> Square {
        Square::new(row * 8 + col)
    }

    /// The index, `a1 = 0 ... h8 = 63`.
    #[inline]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// The column, 0..8 for a..h.
    #[inline]
    pub const fn col(self) -> u32 {
        self.0 as u32 % 8
    }

    /// The row, 0..8 for 1..8.
    #[inline]
    pub const fn row(self) -> u32 {
        self.0 as u32 / 8
    }

    /// The one-square bitboard of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses `f5` or `F5`.
    pub fn parse(text: &str) -> Result<Square, ParseSquareError> {
        let b = text.as_bytes();
        if b.len() == 2 {
            let c = b[0].to_ascii_lowercase();
            let r = b[1];
            if (b'a'..=b'h').contains(&c) && (b'1'..=b'8').contains(&r) {
                return Ok(Square::from_coords((c - b'a') as u32, (r - b'1') as u32));
            }
        }
        Err(ParseSquareError(text.to_string()))
    }

    /// All 64 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square::new)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse(s)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = (b'a' + self.col() as u8) as char;
        let r = (b'1' + self.row() as u8) as char;
        write!(f, "{c}{r}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()).unwrap(), sq);
        }
        assert_eq!(Square::parse("A1").unwrap().index(), 0);
        assert_eq!(Square::parse("h8").unwrap().index(), 63);
        assert_eq!(Square::parse("b1").unwrap().index(), 1);
        assert_eq!(Square::parse("a2").unwrap().index(), 8);
        assert!(Square::parse("i1").is_err());
        assert!(Square::parse("a9").is_err());
        assert!(Square::parse("a").is_err());
        assert!(Square::parse("a10").is_err());
    }
}
