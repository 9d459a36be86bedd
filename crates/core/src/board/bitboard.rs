use super::Square;
use std::fmt;

/// A set of squares, one bit per square (`a1` is bit 0).
///
/// ```
/// use okapi_core::board::{BitBoard, Square};
/// let corners = BitBoard(0x8100_0000_0000_0081);
/// assert_eq!(corners.len(), 4);
/// assert!(corners.contains(Square::parse("h8").unwrap()));
/// assert_eq!(corners.to_string(),
///     "X......X\n........\n........\n........\n........\n........\n........\nX......X\n");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct BitBoard(pub u64);

impl BitBoard {
    /// No squares.
    pub const EMPTY: BitBoard = BitBoard(0);

    /// How many squares are in the set.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The set has no square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// The squares in increasing index order (`a1` first).
    #[inline]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl IntoIterator for BitBoard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        BitIter(self.0)
    }
}

impl FromIterator<Square> for BitBoard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> BitBoard {
        BitBoard(iter.into_iter().fold(0, |acc, s| acc | s.bit()))
    }
}

/// Squares of a bit set in increasing order.
#[derive(Clone, Copy, Debug)]
pub struct BitIter(pub u64);

impl Iterator for BitIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Square::new(sq))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitIter {}

impl fmt::Display for BitBoard {
    /// An 8x8 diagram, row 1 on top, `X` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for col in 0..8 {
                let c = if self.0 >> (row * 8 + col) & 1 != 0 {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
