//! A stand-in midgame search until the trained evaluation lands: depth-limited
//! alpha-beta on a disc-count / mobility / corner heuristic. Its values are labelled
//! [`EvalSource::Heuristic`](crate::formats::game::EvalSource) wherever they are shown, and
//! the beginner opponents (random, greedy) live here too.

use crate::board::{BitBoard, Board, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// X-squares (diagonal to a corner), with the corner each guards.
const X_SQUARES: [(u32, u32); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];

/// Heuristic values are kept inside this bound so that proven results at the leaves
/// (final disc differences) can outrank them.
const HEURISTIC_BOUND: i32 = 40;

/// The search gave up because the stop flag was raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted;

/// Depth-limited alpha-beta with a stop flag.
pub struct HeuristicSearch {
    stop: Arc<AtomicBool>,
    pub nodes: u64,
}

impl HeuristicSearch {
    pub fn new(stop: Arc<AtomicBool>) -> HeuristicSearch {
        HeuristicSearch { stop, nodes: 0 }
    }

    /// The static value of `b` for the side to move, roughly in discs.
    pub fn evaluate(b: Board) -> i32 {
        if b.is_game_over() {
            return b.final_score();
        }
        let my_moves = b.moves();
        let their_moves = crate::board::moves(b.opponent, b.player);
        let mobility = my_moves.count_ones() as i32 - their_moves.count_ones() as i32;
        let corners =
            (b.player & CORNERS).count_ones() as i32 - (b.opponent & CORNERS).count_ones() as i32;
        let mut x = 0;
        let empty = b.empties();
        for (xs, corner) in X_SQUARES {
            if empty >> corner & 1 != 0 {
                x += (b.player >> xs & 1) as i32 - (b.opponent >> xs & 1) as i32;
            }
        }
        // Few discs are an asset in the midgame, many at the end.
        let discs = b.disc_difference();
        let disc_weight = if b.empty_count() > 20 { -1 } else { 2 };
        let v = (8 * mobility + 24 * corners - 12 * x + disc_weight * discs) / 4;
        v.clamp(-HEURISTIC_BOUND, HEURISTIC_BOUND)
    }

    /// The value of `b` searched `depth` plies deep.
    pub fn search(
        &mut self,
        b: Board,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, Interrupted> {
        self.nodes += 1;
        if self.nodes & 4095 == 0 && self.stop.load(Ordering::Relaxed) {
            return Err(Interrupted);
        }
        if depth == 0 {
            return Ok(Self::evaluate(b));
        }
        let moves = b.moves();
        if moves == 0 {
            if b.passed().moves() == 0 {
                return Ok(b.final_score());
            }
            return Ok(-self.search(b.passed(), depth - 1, -beta, -alpha)?);
        }
        let mut best = -65;
        for sq in BitBoard(moves) {
            let child = b.after(sq.index(), b.flips(sq.index()));
            let v = -self.search(child, depth - 1, -beta, -alpha)?;
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Ok(best)
    }

    /// The value of each legal move of `b` at `depth` (the move itself counts as a ply),
    /// from the mover's point of view.
    pub fn move_values(&mut self, b: Board, depth: u32) -> Result<Vec<(Square, i32)>, Interrupted> {
        let mut out = Vec::new();
        for sq in BitBoard(b.moves()) {
            let child = b.after(sq.index(), b.flips(sq.index()));
            out.push((sq, -self.search(child, depth.saturating_sub(1), -65, 65)?));
        }
        Ok(out)
    }
}

/// A small xorshift generator: the random player needs no more.
pub struct Rng(u64);

impl Rng {
    pub fn seeded(seed: u64) -> Rng {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng((seed ^ t).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// A uniformly random legal move.
pub fn random_move(b: Board, rng: &mut Rng) -> Option<Square> {
    let moves: Vec<Square> = BitBoard(b.moves()).iter().collect();
    if moves.is_empty() {
        None
    } else {
        Some(moves[rng.below(moves.len() as u64) as usize])
    }
}

/// The move that flips the most discs (the first such in a1..h8 order).
pub fn greedy_move(b: Board) -> Option<Square> {
    BitBoard(b.moves()).iter().max_by_key(|sq| {
        (
            b.flips(sq.index()).count_ones(),
            std::cmp::Reverse(sq.index()),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn greedy_takes_most_discs() {
        // After f5 d6, Black's c3 flips one, others too; check against a brute count.
        let mut p = Position::start();
        p.play(Square::parse("f5").unwrap()).unwrap();
        p.play(Square::parse("d6").unwrap()).unwrap();
        let b = p.board();
        let best = greedy_move(b).unwrap();
        let most = BitBoard(b.moves())
            .iter()
            .map(|s| b.flips(s.index()).count_ones())
            .max()
            .unwrap();
        assert_eq!(b.flips(best.index()).count_ones(), most);
    }

    #[test]
    fn random_moves_are_legal_and_vary() {
        let b = Position::start().board();
        let mut rng = Rng::seeded(7);
        let mut seen = 0u64;
        for _ in 0..200 {
            let m = random_move(b, &mut rng).unwrap();
            assert!(b.moves() & m.bit() != 0);
            seen |= m.bit();
        }
        assert_eq!(
            seen,
            b.moves(),
            "all four opening moves are chosen sometimes"
        );
    }

    #[test]
    fn search_finds_a_wipeout() {
        // Black b1, White a1 and c1... White to move at d1 wins everything: search sees
        // the final score at the leaf.
        let p = Position::parse(&format!("OXX{} O", "-".repeat(61))).unwrap();
        let mut s = HeuristicSearch::new(Arc::new(AtomicBool::new(false)));
        let values = s.move_values(p.board(), 3).unwrap();
        assert_eq!(values, vec![(Square::parse("d1").unwrap(), 64)]);
    }

    #[test]
    fn search_stops() {
        let stop = Arc::new(AtomicBool::new(true));
        let mut s = HeuristicSearch::new(stop);
        assert_eq!(
            s.search(Position::start().board(), 12, -65, 65),
            Err(Interrupted)
        );
    }
}
