//! Reproducible random play-outs, for tests and benchmarks.

use super::Board;

/// `count` positions reached by uniformly random legal play from the start, stopped at
/// `empties` empty squares (or earlier where the game ends; passes included), the same
/// for the same `seed`.
pub fn random_positions(seed: u64, count: usize, empties: u32) -> Vec<Board> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut b = Board::START;
        while b.empty_count() > empties && !b.is_game_over() {
            let mv = b.moves();
            if mv == 0 {
                b = b.passed();
                continue;
            }
            let mut m = mv;
            for _ in 0..next() % mv.count_ones() as u64 {
                m &= m - 1;
            }
            let sq = m.trailing_zeros();
            b = b.after(sq, b.flips(sq));
        }
        out.push(b);
    }
    out
}
