//! The pattern set: which squares each pattern reads, its symmetric instances, and the
//! tables that turn bitboards into base-3 pattern indices (from scratch or incrementally).
//!
//! A pattern is a prototype list of squares; its instances are the images of that list
//! under the 8 board symmetries, duplicates (the same set of squares) removed. Because
//! every instance lists its squares in the image order of the prototype, a board and its
//! mirror image produce the same multiset of indices, so instances can share one weight
//! table and the evaluation is exactly symmetric. A symmetry that maps an instance onto
//! itself in a different order (the edge read backwards, the 3x3 corner transposed) is a
//! *self-symmetry*: indices related by it must share a weight, which training enforces by
//! folding them onto one canonical index ([`Pattern::canonical`]).
//!
//! Index of an instance: `sum cell(sq_i) * 3^(n-1-i)` with cell 0 = empty, 1 = the side
//! to move's disc, 2 = the opponent's disc.

use crate::board::symmetry::Symmetry;
use std::sync::OnceLock;

/// Identifies the pattern set in weight files.
pub const PATTERN_SET_ID: u16 = 3;

/// The prototypes, as square names. Chosen after Logistello and Edax: the edge with both
/// X-squares and the plain edge (its 3^8 configurations are all well populated, so it
/// carries the value of corners and edges where a 10-square configuration is rare),
/// the 3x3 and 2x5 corner blocks, rows/columns 2–4 and the diagonals of
/// length 4 to 8; and the four corners and the four X-squares as one small pattern each
/// (81 configurations, one instance): they generalise where the large patterns meet a
/// configuration absent from the training games (whose weight is then 0).
const PROTOTYPES: [(&str, &str); 14] = [
    ("edge+2x", "a1 b1 c1 d1 e1 f1 g1 h1 b2 g2"),
    ("edge", "a1 b1 c1 d1 e1 f1 g1 h1"),
    ("corner3x3", "a1 b1 c1 a2 b2 c2 a3 b3 c3"),
    ("corner2x5", "a1 b1 c1 d1 e1 a2 b2 c2 d2 e2"),
    ("row2", "a2 b2 c2 d2 e2 f2 g2 h2"),
    ("row3", "a3 b3 c3 d3 e3 f3 g3 h3"),
    ("row4", "a4 b4 c4 d4 e4 f4 g4 h4"),
    ("diag8", "a1 b2 c3 d4 e5 f6 g7 h8"),
    ("diag7", "b1 c2 d3 e4 f5 g6 h7"),
    ("diag6", "c1 d2 e3 f4 g5 h6"),
    ("diag5", "d1 e2 f3 g4 h5"),
    ("diag4", "e1 f2 g3 h4"),
    ("corners", "a1 h1 a8 h8"),
    ("x-squares", "b2 g2 b7 g7"),
];

/// The most squares a pattern has (the edge with its X-squares, the 2x5 corner block).
pub const MAX_PATTERN_LEN: usize = 10;
/// Number of pattern instances on the board.
pub const NUM_INSTANCES: usize = 52;

/// Lanes of an [`IndexVector`]: the instances, padded to whole SIMD registers.
pub const INDEX_LANES: usize = 64;

/// One u16 per pattern instance (lanes past [`NUM_INSTANCES`] stay 0), aligned for SIMD:
/// updates of all the indices at once are plain lane-wise adds that the compiler
/// vectorises, instead of a walk over the few instances each square belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct IndexVector(pub [u16; INDEX_LANES]);

impl IndexVector {
    /// Every index 0.
    pub const ZERO: IndexVector = IndexVector([0; INDEX_LANES]);

    /// `self += m * v`, lane by lane (modulo 2^16: intermediate sums may wrap, the final
    /// indices are in range).
    #[inline(always)]
    pub fn add_scaled(&mut self, v: &IndexVector, m: u16) {
        for (x, &y) in self.0.iter_mut().zip(v.0.iter()) {
            *x = x.wrapping_add(y.wrapping_mul(m));
        }
    }

    /// `self -= v`, lane by lane (modulo 2^16 as above).
    #[inline(always)]
    pub fn sub(&mut self, v: &IndexVector) {
        for (x, &y) in self.0.iter_mut().zip(v.0.iter()) {
            *x = x.wrapping_sub(y);
        }
    }

    /// The indices of the instances, without the padding.
    #[inline]
    pub fn instances(&self) -> [u16; NUM_INSTANCES] {
        let mut out = [0u16; NUM_INSTANCES];
        out.copy_from_slice(&self.0[..NUM_INSTANCES]);
        out
    }
}

/// `POW3[k] = 3^k`, for `k` up to [`MAX_PATTERN_LEN`].
pub const POW3: [u32; 11] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049];

/// One pattern: its squares (prototype order), its weight-table size and offset.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// The pattern's name, for reports and weight dumps (`"edge+2x"`).
    pub name: &'static str,
    /// How many squares it reads.
    pub len: usize,
    /// Number of weights: `3^len`.
    pub size: usize,
    /// Offset of this pattern's weights inside one phase's weight vector.
    pub offset: usize,
    /// `canonical[i]`: the smallest index equivalent to `i` under the self-symmetries.
    pub canonical: Vec<u32>,
}

/// One instance: which pattern, and its squares in order.
#[derive(Clone, Copy, Debug)]
pub struct Instance {
    /// Which pattern it is an image of (an index into [`PatternSet::patterns`]).
    pub pattern: usize,
    /// How many squares it reads (its pattern's `len`).
    pub len: usize,
    /// Its squares (indices `a1 = 0 ... h8 = 63`) in the image order of the prototype; the
    /// first `len` are used.
    pub squares: [u8; MAX_PATTERN_LEN],
}

/// All tables derived from the prototypes.
#[derive(Debug)]
pub struct PatternSet {
    /// The patterns, in prototype order.
    pub patterns: Vec<Pattern>,
    /// Their instances ([`NUM_INSTANCES`] of them), pattern by pattern.
    pub instances: Vec<Instance>,
    /// Weights per phase (all patterns, bias excluded).
    pub weights_per_phase: usize,
    /// `digits[sq]`: what each instance's index gains per unit of digit at `sq`
    /// (`3^position` of `sq` in the instance, 0 in instances without it).
    pub digits: Box<[IndexVector; 64]>,
    /// `swap[i]`: index `i` with the colours exchanged (digits 1 <-> 2), for 10 digits
    /// (and therefore for any shorter pattern too).
    pub swap: Vec<u16>,
}

fn parse_square(name: &str) -> u8 {
    crate::board::Square::parse(name)
        .expect("valid prototype square")
        .index() as u8
}

/// Index of the digits of `index` (`len` digits, most significant first) reordered by
/// `perm`: the digit at position `perm[i]` moves to position `i`.
fn permute_index(index: u32, len: usize, perm: &[usize]) -> u32 {
    let digit = |pos: usize| (index / POW3[len - 1 - pos]) % 3;
    (0..len).fold(0, |acc, i| acc * 3 + digit(perm[i]))
}

impl PatternSet {
    fn build() -> PatternSet {
        let mut patterns = Vec::new();
        let mut instances = Vec::new();
        let mut offset = 0;
        for (p, &(name, text)) in PROTOTYPES.iter().enumerate() {
            let proto: Vec<u8> = text.split_whitespace().map(parse_square).collect();
            let len = proto.len();
            let mut seen: Vec<Vec<u8>> = Vec::new();
            let mut self_perms: Vec<Vec<usize>> = Vec::new();
            for sym in Symmetry::ALL {
                let image: Vec<u8> = proto.iter().map(|&s| sym.square(s as u32) as u8).collect();
                let mut set = image.clone();
                set.sort_unstable();
                if let Some(first) = seen.iter().position(|s| {
                    let mut t = s.clone();
                    t.sort_unstable();
                    t == set
                }) {
                    // The same squares in another order: a self-symmetry of instance `first`.
                    if first == 0 {
                        let perm = image
                            .iter()
                            .map(|sq| proto.iter().position(|x| x == sq).unwrap())
                            .collect();
                        self_perms.push(perm);
                    }
                    continue;
                }
                seen.push(image.clone());
                let mut squares = [0u8; MAX_PATTERN_LEN];
                squares[..len].copy_from_slice(&image);
                instances.push(Instance {
                    pattern: p,
                    len,
                    squares,
                });
            }
            let size = POW3[len] as usize;
            let canonical = (0..size as u32)
                .map(|i| {
                    self_perms
                        .iter()
                        .map(|perm| permute_index(i, len, perm))
                        .fold(i, u32::min)
                })
                .collect();
            patterns.push(Pattern {
                name,
                len,
                size,
                offset,
                canonical,
            });
            offset += size;
        }
        let mut digits = Box::new([IndexVector::ZERO; 64]);
        for (k, inst) in instances.iter().enumerate() {
            for i in 0..inst.len {
                digits[inst.squares[i] as usize].0[k] = POW3[inst.len - 1 - i] as u16;
            }
        }
        let swap = (0..POW3[10])
            .map(|i| {
                let mut out = 0;
                for d in (0..10).rev() {
                    let digit = (i / POW3[d]) % 3;
                    out = out * 3 + [0, 2, 1][digit as usize];
                }
                out as u16
            })
            .collect();
        assert_eq!(instances.len(), NUM_INSTANCES);
        PatternSet {
            patterns,
            instances,
            weights_per_phase: offset,
            digits,
            swap,
        }
    }

    /// The (lazily built, shared) pattern set.
    pub fn get() -> &'static PatternSet {
        static SET: OnceLock<PatternSet> = OnceLock::new();
        SET.get_or_init(PatternSet::build)
    }

    /// The sum of the digit vectors of `squares`: what the indices gain when each of
    /// those squares' digits goes up by one.
    #[inline(always)]
    pub fn digit_sum(&self, squares: u64) -> IndexVector {
        let mut v = IndexVector::ZERO;
        let mut s = squares;
        while s != 0 {
            v.add_scaled(&self.digits[s.trailing_zeros() as usize], 1);
            s &= s - 1;
        }
        v
    }

    /// Pattern indices of all instances, from scratch, from the side to move's view.
    #[inline]
    pub fn indices(&self, player: u64, opponent: u64) -> [u16; NUM_INSTANCES] {
        self.index_vector(player, opponent).instances()
    }

    /// [`indices`](Self::indices) as an [`IndexVector`].
    #[inline]
    pub fn index_vector(&self, player: u64, opponent: u64) -> IndexVector {
        let mut v = self.digit_sum(player);
        v.add_scaled(&self.digit_sum(opponent), 2);
        v
    }

    /// [`index_vector`](Self::index_vector) from both sides' views at once: (`player`'s,
    /// `opponent`'s), from one sum over each side's discs.
    #[inline]
    pub fn index_vectors_both(&self, player: u64, opponent: u64) -> (IndexVector, IndexVector) {
        let p = self.digit_sum(player);
        let o = self.digit_sum(opponent);
        let mut own = p;
        own.add_scaled(&o, 2);
        let mut other = o;
        other.add_scaled(&p, 2);
        (own, other)
    }

    /// The same indices computed square by square along each instance (the slow,
    /// obviously right way; tests compare the two).
    pub fn indices_reference(&self, player: u64, opponent: u64) -> [u16; NUM_INSTANCES] {
        let mut idx = [0u16; NUM_INSTANCES];
        for (k, inst) in self.instances.iter().enumerate() {
            let mut v = 0u32;
            for &sq in &inst.squares[..inst.len] {
                let cell = if player >> sq & 1 != 0 {
                    1
                } else if opponent >> sq & 1 != 0 {
                    2
                } else {
                    0
                };
                v = v * 3 + cell;
            }
            idx[k] = v as u16;
        }
        idx
    }

    /// Weight offset of instance `k` inside a phase.
    #[inline]
    pub fn offset_of(&self, k: usize) -> usize {
        self.patterns[self.instances[k].pattern].offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_counts_and_sizes() {
        let set = PatternSet::get();
        let counts: Vec<usize> = (0..set.patterns.len())
            .map(|p| set.instances.iter().filter(|i| i.pattern == p).count())
            .collect();
        assert_eq!(counts, vec![4, 4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4, 1, 1]);
        assert_eq!(set.weights_per_phase, 173_988);
        // The edge reads the same backwards: its canonical map folds mirror indices.
        let edge = &set.patterns[0];
        let one_at_a1 = POW3[9];
        let one_at_h1 = POW3[2];
        assert_eq!(
            edge.canonical[one_at_a1 as usize],
            edge.canonical[one_at_h1 as usize]
        );
        // The 2x5 block has no self-symmetry.
        let c25 = &set.patterns[3];
        assert!(
            c25.canonical
                .iter()
                .enumerate()
                .all(|(i, &c)| c as usize == i)
        );
    }

    #[test]
    fn fast_indices_match_reference_and_swap() {
        let set = PatternSet::get();
        let mut rng = crate::board::random::XorShift64::from_state(0x1234_5678_9abc_def1);
        for _ in 0..1000 {
            let x = rng.next_u64();
            let occ = x.rotate_left(11) | x;
            let p = x & occ;
            let o = occ & !p;
            let a = set.indices(p, o);
            assert_eq!(a, set.indices_reference(p, o));
            let b = set.indices(o, p);
            for k in 0..NUM_INSTANCES {
                assert_eq!(set.swap[a[k] as usize], b[k]);
            }
        }
    }
}
