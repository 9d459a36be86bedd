//! The board: bitboards, squares, moves, flips, symmetry, hashing and stable discs.
//!
//! Squares are numbered `a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63`, the order
//! in which the scrZebra script format lists them (a1 top-left, row by row).
//!
//! Two views of a position exist:
//! - [`Board`]: side-relative (`player` to move, `opponent`), what the search works on;
//! - [`Position`]: absolute colours with the side to move and an incrementally kept
//!   Zobrist key, what files, the app and the book work on.
//!
//! ```
//! use okapi_core::board::{Position, Square};
//! let mut pos = Position::start();
//! assert_eq!(pos.legal_moves().len(), 4);
//! pos.play(Square::parse("f5").unwrap()).unwrap();
//! assert_eq!(pos.black_count(), 4);
//! assert_eq!(pos.white_count(), 1);
//! ```

mod bitboard;
pub(crate) mod cpu;
pub(crate) mod hash;
mod moves;
pub mod perft;
mod position;
pub mod random;
mod square;
pub(crate) mod stability;
pub mod symmetry;

pub use bitboard::BitBoard;
pub use moves::{NEIGHBOURS, adjacent_empties, flips, last_flip_count, moves, potential_moves};
#[cfg(target_arch = "x86_64")]
pub use moves::{flips_avx2, moves_avx2};
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub use moves::{flips_simd128, moves_simd128};
pub use position::{Color, Move, ParseBoardError, PlayError, Position};
pub use square::{ParseSquareError, Square};

/// A side-relative board: the discs of the side to move and of its opponent.
///
/// Plain `u64`s inside because the search spends its life on them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    /// The discs of the side to move, one bit per square (`a1` is bit 0).
    pub player: u64,
    /// The discs of the side that moves next, one bit per square.
    pub opponent: u64,
}

impl Board {
    /// The standard start position, Black to move (d5, e4 Black; d4, e5 White).
    pub const START: Board = Board {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    /// A board from the side to move's discs and its opponent's (they should not overlap).
    #[inline]
    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// Empty squares.
    #[inline]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// How many squares are empty: the number of moves left, passes aside.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// Legal moves of the side to move.
    #[inline]
    pub fn moves(&self) -> u64 {
        moves(self.player, self.opponent)
    }

    /// Discs flipped if the side to move plays `sq` (0 if the move is illegal or the
    /// square is occupied by the player; the caller checks emptiness).
    #[inline]
    pub fn flips(&self, sq: u32) -> u64 {
        flips(self.player, self.opponent, sq)
    }

    /// The board after the side to move plays `sq` flipping `flipped`, seen from the
    /// new side to move.
    #[inline]
    pub const fn after(&self, sq: u32, flipped: u64) -> Board {
        Board {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ (1u64 << sq),
        }
    }

    /// Plays `sq` if it is legal.
    #[inline]
    pub fn play(&self, sq: u32) -> Option<Board> {
        if sq >= 64 || (self.empties() >> sq) & 1 == 0 {
            return None;
        }
        let f = self.flips(sq);
        if f == 0 {
            None
        } else {
            Some(self.after(sq, f))
        }
    }

    /// The board after a pass.
    #[inline]
    pub const fn passed(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Neither side can move.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && moves(self.opponent, self.player) == 0
    }

    /// Final score of a finished game from the side to move's view, empty squares going
    /// to the winner (the scoring used by the FFO suite and the script format).
    #[inline]
    pub const fn final_score(&self) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let e = 64 - p - o;
        if p > o {
            p - o + e
        } else if p < o {
            p - o - e
        } else {
            0
        }
    }

    /// Disc difference, player minus opponent, ignoring empties.
    #[inline]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// A fast, well-mixed 64-bit key of the board, for the transposition table.
    ///
    /// Not incremental on purpose: two multiplies cost less than updating a Zobrist key
    /// over every flipped disc, and the search always has both bitboards at hand.
    #[inline]
    pub const fn key(&self) -> u64 {
        let a = self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let b = self
            .opponent
            .rotate_left(23)
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let x = a ^ b;
        (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (x >> 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_four_moves() {
        let m = Board::START.moves();
        let names: Vec<String> = BitBoard(m).iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        let b = Board::new(0xFF, 0xF00);
        assert_eq!(b.final_score(), 8 - 4 + 52);
        let b = Board::new(0xFF, 0xFF00);
        assert_eq!(b.final_score(), 0);
        let b = Board::new(0x1FF, 0xFF00);
        assert_eq!(b.final_score(), 1 + 47);
    }
}
