//! The 8 symmetries of the board (the dihedral group of the square).
//!
//! ```
//! use okapi_core::board::symmetry::{transform, Symmetry};
//! let a1 = 1u64;
//! assert_eq!(transform(a1, Symmetry::Rotate180), 1 << 63);
//! assert_eq!(transform(a1, Symmetry::FlipVertical), 1 << 56);
//! ```

/// One of the 8 symmetries of the board; a position and its 8 images have the same value,
/// which the book and the pattern evaluation use to share what they learn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Symmetry {
    /// Leaves every square where it is.
    Identity,
    /// Row 1 <-> row 8.
    FlipVertical,
    /// Column a <-> column h.
    FlipHorizontal,
    /// Reflection in the a1-h8 diagonal.
    FlipDiagonal,
    /// Reflection in the h1-a8 diagonal.
    FlipAntiDiagonal,
    /// A quarter turn: `a1` goes to `a8`, `a8` to `h8`.
    Rotate90,
    /// A half turn: `a1` goes to `h8`.
    Rotate180,
    /// Three quarter turns, the inverse of [`Symmetry::Rotate90`]: `a1` goes to `h1`.
    Rotate270,
}

impl Symmetry {
    /// All 8 symmetries, [`Symmetry::Identity`] first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipVertical,
        Symmetry::FlipHorizontal,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
    ];

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }

    /// Where the square with index `sq` goes.
    pub const fn square(self, sq: u32) -> u32 {
        transform(1u64 << sq, self).trailing_zeros()
    }
}

/// Row 1 <-> row 8 (one byte swap, each row being a byte).
#[inline]
pub const fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Column a <-> column h (bits reversed within each byte).
#[inline]
pub const fn flip_horizontal(b: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let b = ((b >> 1) & K1) | ((b & K1) << 1);
    let b = ((b >> 2) & K2) | ((b & K2) << 2);
    ((b >> 4) & K4) | ((b & K4) << 4)
}

/// Reflection in the a1-h8 diagonal (square (c, r) goes to (r, c)).
#[inline]
pub const fn flip_diagonal(b: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut b = b;
    let mut t = K4 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    t = K2 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    t = K1 & (b ^ (b << 7));
    b ^= t ^ (t >> 7);
    b
}

/// The bit set `b` moved by the symmetry `s`.
#[inline]
pub const fn transform(b: u64, s: Symmetry) -> u64 {
    match s {
        Symmetry::Identity => b,
        Symmetry::FlipVertical => flip_vertical(b),
        Symmetry::FlipHorizontal => flip_horizontal(b),
        Symmetry::FlipDiagonal => flip_diagonal(b),
        Symmetry::FlipAntiDiagonal => flip_vertical(flip_horizontal(flip_diagonal(b))),
        Symmetry::Rotate90 => flip_vertical(flip_diagonal(b)),
        Symmetry::Rotate180 => flip_vertical(flip_horizontal(b)),
        Symmetry::Rotate270 => flip_diagonal(flip_vertical(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(sq: u32, s: Symmetry) -> u32 {
        let (c, r) = (sq % 8, sq / 8);
        let (c2, r2) = match s {
            Symmetry::Identity => (c, r),
            Symmetry::FlipVertical => (c, 7 - r),
            Symmetry::FlipHorizontal => (7 - c, r),
            Symmetry::FlipDiagonal => (r, c),
            Symmetry::FlipAntiDiagonal => (7 - r, 7 - c),
            Symmetry::Rotate90 => (r, 7 - c),
            Symmetry::Rotate180 => (7 - c, 7 - r),
            Symmetry::Rotate270 => (7 - r, c),
        };
        r2 * 8 + c2
    }

    #[test]
    fn each_symmetry_moves_squares_as_it_says() {
        for s in Symmetry::ALL {
            for sq in 0..64 {
                assert_eq!(s.square(sq), slow(sq, s), "{s:?} {sq}");
                assert_eq!(s.inverse().square(s.square(sq)), sq);
            }
        }
    }

    #[test]
    fn symmetries_preserve_moves() {
        let b = crate::board::Board::START;
        let mut x = b;
        // play a few moves to get an asymmetric position
        for sq in [37, 43, 18] {
            x = x.play(sq).unwrap();
        }
        for s in Symmetry::ALL {
            let t = crate::board::Board::new(transform(x.player, s), transform(x.opponent, s));
            assert_eq!(t.moves(), transform(x.moves(), s));
        }
    }
}
