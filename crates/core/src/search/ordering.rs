//! Move lists for the searches: the legal moves of a node with their ordering values,
//! on the stack, tried best first by selection.

use std::mem::MaybeUninit;

/// One move in a node's ordered move list.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// The square played (`a1 = 0 ... h8 = 63`).
    pub sq: u32,
    /// The discs it flips.
    pub flipped: u64,
    /// Its ordering value: higher is tried first.
    pub value: i32,
}

/// Up to 64 candidates, left uninitialised beyond the length (clearing the whole array
/// at every node would cost more than the ordering itself). The arrays here are made
/// with an inline `const` element: written `[MaybeUninit::uninit(); 64]`, rustc 1.95
/// zeroed them with a `memset` at every node all the same, in the endgame's null-window
/// and ordering searches and the midgame's (2% of an FFO solve's profile; without it
/// FFO 40-49 takes 0.966 of the time).
pub struct MoveList {
    items: [MaybeUninit<Candidate>; 64],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            items: [const { MaybeUninit::uninit() }; 64],
            len: 0,
        }
    }

    /// Adds a candidate (a board has at most 64 squares, so the list never overflows).
    #[inline(always)]
    pub fn push(&mut self, c: Candidate) {
        self.items[self.len].write(c);
        self.len += 1;
    }

    /// The candidates, to reorder in place (see [`pick_best`]).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Candidate] {
        // SAFETY: the first `len` items were written by `push`.
        unsafe {
            std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut Candidate, self.len)
        }
    }
}

/// For a search told the legal moves of its position: not generated yet. (No position
/// has every square a legal move.)
pub const MOVES_UNKNOWN: u64 = u64::MAX;

/// The legal moves of each child of a node, by the square played, as the node's
/// ordering generated them, so that the child's search need not generate them again.
/// Left uninitialised where not written (as [`MoveList`]'s items): clearing the 512
/// bytes at every node cost 1% of a solve.
pub struct ChildMoves {
    moves: [MaybeUninit<u64>; 64],
    /// The squares whose moves were written.
    known: u64,
}

impl ChildMoves {
    /// None known.
    #[inline(always)]
    pub fn new() -> ChildMoves {
        ChildMoves {
            moves: [const { MaybeUninit::uninit() }; 64],
            known: 0,
        }
    }

    /// The child after `sq` has the legal moves `moves`.
    #[inline(always)]
    pub fn set(&mut self, sq: u32, moves: u64) {
        self.moves[sq as usize & 63].write(moves);
        self.known |= 1 << (sq & 63);
    }

    /// The legal moves of the child after `sq`, or [`MOVES_UNKNOWN`].
    #[inline(always)]
    pub fn get(&self, sq: u32) -> u64 {
        let sq = sq & 63;
        if self.known >> sq & 1 == 0 {
            return MOVES_UNKNOWN;
        }
        // SAFETY: `known` has the bit of `sq` only once `set` has written its entry.
        unsafe { self.moves[sq as usize].assume_init() }
    }
}

impl Default for ChildMoves {
    fn default() -> Self {
        ChildMoves::new()
    }
}

/// Moves the best candidate to the front (a selection step: most nodes cut off after
/// one or two moves, so sorting the whole list would be wasted).
#[inline(always)]
pub fn pick_best(list: &mut [Candidate]) {
    let mut best = 0;
    for i in 1..list.len() {
        if list[i].value > list[best].value {
            best = i;
        }
    }
    list.swap(0, best);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_moves_are_unknown_until_set() {
        let mut c = ChildMoves::new();
        assert_eq!(c.get(19), MOVES_UNKNOWN);
        c.set(19, 0x0000_0010_0800_0000);
        c.set(63, 0);
        assert_eq!(c.get(19), 0x0000_0010_0800_0000);
        // No moves at all is known, not unknown.
        assert_eq!(c.get(63), 0);
        assert_eq!(c.get(0), MOVES_UNKNOWN);
        c.set(19, 1);
        assert_eq!(c.get(19), 1);
    }

    #[test]
    fn picks_in_value_order() {
        let mut l = MoveList::new();
        for (sq, value) in [(1, 5), (2, 9), (3, -1), (4, 7)] {
            l.push(Candidate {
                sq,
                flipped: 0,
                value,
            });
        }
        let s = l.as_mut_slice();
        let mut order = vec![];
        for i in 0..s.len() {
            pick_best(&mut s[i..]);
            order.push(s[i].sq);
        }
        assert_eq!(order, [2, 4, 1, 3]);
    }
}
