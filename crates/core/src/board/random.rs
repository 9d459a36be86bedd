//! Okapi's one small random generator ([`XorShift64`]) and reproducible random play-outs,
//! for tests, benchmarks and the data whose positions must never change (a book shard's
//! evaluation fingerprint, a ProbCut fit's draw). Play that must be varied or seeded by
//! a user (levels, self-play) uses `rand`'s ChaCha instead.

use super::Board;

/// Marsaglia's xorshift64 (shifts 13, 7, 17): fast, reproducible, never 0 from a non-zero
/// state. Its sequences are part of stored data (fingerprints, fitted models): never
/// change it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct XorShift64 {
    state: u64,
}

impl XorShift64 {
    /// A generator in exactly this state (a zero state stays zero: give a non-zero one).
    pub const fn from_state(state: u64) -> XorShift64 {
        XorShift64 { state }
    }

    /// A generator for `seed` (any value, 0 included): the state is `seed` times the
    /// golden ratio's 64-bit constant, made odd.
    pub const fn seeded(seed: u64) -> XorShift64 {
        XorShift64::from_state(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next value (the state after one step).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut s = self.state;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        self.state = s;
        s
    }

    /// The next value reduced to `0..n` (`n > 0`; modulo, slightly biased for huge `n`).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// A uniform value in `[0, 1)` from the top 53 bits of the next value.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The `index`-th set bit of `mask` (counting from the lowest), `index < mask.count_ones()`.
#[inline]
pub fn nth_bit(mask: u64, index: u64) -> u32 {
    let mut m = mask;
    for _ in 0..index {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// `count` positions reached by uniformly random legal play from the start, stopped at
/// `empties` empty squares (or earlier where the game ends; passes included), the same
/// for the same `seed`.
pub fn random_positions(seed: u64, count: usize, empties: u32) -> Vec<Board> {
    let mut rng = XorShift64::seeded(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut b = Board::START;
        while b.empty_count() > empties && !b.is_game_over() {
            let mv = b.moves();
            if mv == 0 {
                b = b.passed();
                continue;
            }
            let sq = nth_bit(mv, rng.below(mv.count_ones() as u64));
            b = b.after(sq, b.flips(sq));
        }
        out.push(b);
    }
    out
}

/// Up to `count` of the first `4 × count` [`random_positions`] whose game is still going
/// (the searches' tests want a move to search).
pub fn ongoing_positions(seed: u64, count: usize, empties: u32) -> Vec<Board> {
    random_positions(seed, 4 * count, empties)
        .into_iter()
        .filter(|b| !b.is_game_over())
        .take(count)
        .collect()
}
