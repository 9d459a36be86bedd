//! The position index: from a position, canonical under the 8 symmetries of the board,
//! to the games that reach it.
//!
//! Every position of every game gets a 64-bit key that is the same for all 8 symmetric
//! images of the position: for each symmetry `s` a Zobrist hash of `s(position)`, kept up
//! to date move by move (a move toggles its square and the discs it flips in all 8
//! hashes), and the key is a mix of the smallest of the 8 (the set of 8 hashes is the same
//! for every image, so its minimum is too). The index is a counting sort of (key bucket,
//! game) pairs: `starts[b]..starts[b + 1]` are the games with a position whose key falls in
//! bucket `b`, in game order. A look-up replays each candidate game to the position's ply
//! and compares boards, so a bucket shared by several positions (or a 64-bit collision)
//! never adds a wrong game. Nothing is stored on disk: the index is built at load (see
//! `okapi bench --db` for what that costs).

use crate::board::symmetry::{Symmetry, transform};
use crate::board::{Board, moves};
use std::sync::OnceLock;

/// Per square, the 8 symmetric images' Zobrist values.
type Lane = [u64; 8];

struct Tables {
    /// `disc[colour][square][s]`: the Zobrist value of a disc of `colour` (0 Black, 1 White)
    /// on `s(square)`.
    disc: [[Lane; 64]; 2],
    /// `flip[square][s]`: a disc on `square` changing colour (Black's value ^ White's).
    flip: [Lane; 64],
}

/// XORed into the key when White is to move (the same for every symmetry).
const WHITE_TO_MOVE: u64 = 0x6A09_E667_F3BC_C909;

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    mix(*state)
}

/// The splitmix64 finaliser: the minimum of 8 hashes is biased towards small numbers; this
/// spreads it again over all 64 bits (the bucket is taken from the top bits).
fn mix(x: u64) -> u64 {
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        // A fixed seed: keys only live in memory, but fixed keys make runs reproducible.
        let mut state = 0x4F4B_4150_4944_4221;
        let mut base = [[0u64; 64]; 2];
        for colour in &mut base {
            for v in colour.iter_mut() {
                *v = splitmix(&mut state);
            }
        }
        let mut disc = [[[0u64; 8]; 64]; 2];
        let mut flip = [[0u64; 8]; 64];
        for sq in 0..64u32 {
            for (k, s) in Symmetry::ALL.iter().enumerate() {
                let to = s.square(sq) as usize;
                disc[0][sq as usize][k] = base[0][to];
                disc[1][sq as usize][k] = base[1][to];
                flip[sq as usize][k] = base[0][to] ^ base[1][to];
            }
        }
        Tables { disc, flip }
    })
}

/// A position as the index sees it: Black's and White's discs and whether Black is to move,
/// with a forced pass already made (the side to move has a move, or the game is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndexedPosition {
    /// Black's discs.
    pub black: u64,
    /// White's discs.
    pub white: u64,
    /// Whether Black is to move (meaningless once the game is over).
    pub black_to_move: bool,
}

impl IndexedPosition {
    /// `board` is from the view of the side to move (Black if `black_to_move`); a forced
    /// pass is made here.
    pub fn from_board(board: Board, black_to_move: bool) -> IndexedPosition {
        let (board, black_to_move) = if board.moves() == 0 && !board.is_game_over() {
            (board.passed(), !black_to_move)
        } else {
            (board, black_to_move)
        };
        let (black, white) = if black_to_move {
            (board.player, board.opponent)
        } else {
            (board.opponent, board.player)
        };
        IndexedPosition {
            black,
            white,
            black_to_move,
        }
    }

    /// Moves played to reach it (passes are not plies here).
    pub fn ply(&self) -> usize {
        ((self.black | self.white).count_ones() as usize).saturating_sub(4)
    }

    /// Neither side can move.
    pub fn is_game_over(&self) -> bool {
        moves(self.black, self.white) == 0 && moves(self.white, self.black) == 0
    }

    /// The image of the position under `s`.
    pub fn transformed(&self, s: Symmetry) -> IndexedPosition {
        IndexedPosition {
            black: transform(self.black, s),
            white: transform(self.white, s),
            black_to_move: self.black_to_move,
        }
    }

    /// Equal as positions: the same discs, and the same side to move unless the game is over
    /// (a finished game has no side to move).
    pub fn same_as(&self, other: &IndexedPosition) -> bool {
        self.black == other.black
            && self.white == other.white
            && (self.black_to_move == other.black_to_move || self.is_game_over())
    }

    /// The index key, the same for the 8 images of the position.
    pub fn key(&self) -> u64 {
        let t = tables();
        let mut h = [0u64; 8];
        for (colour, mut discs) in [(0, self.black), (1, self.white)] {
            while discs != 0 {
                let sq = discs.trailing_zeros() as usize;
                discs &= discs - 1;
                xor_lane(&mut h, &t.disc[colour][sq]);
            }
        }
        finish_key(&h, self.black_to_move, self.is_game_over())
    }
}

#[inline]
fn xor_lane(h: &mut Lane, t: &Lane) {
    for k in 0..8 {
        h[k] ^= t[k];
    }
}

#[inline]
fn finish_key(h: &Lane, black_to_move: bool, game_over: bool) -> u64 {
    let min = h.iter().copied().min().unwrap_or(0);
    let side = if black_to_move || game_over {
        0
    } else {
        WHITE_TO_MOVE
    };
    mix(min) ^ side
}

/// A move that does not replay: which one (0-based) of the game's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// 0-based.
    pub index: usize,
}

/// Replays a game given as square indices (0..64), calling `visit(ply, &position)` for the
/// position before each move and for the final one (forced passes made, as
/// [`IndexedPosition::from_board`] does) with its key when `with_keys` (else 0), until
/// `visit` returns false. Never panics on a bad game.
fn replay(
    moves: &[u8],
    mut visit: impl FnMut(usize, &IndexedPosition, u64) -> bool,
    with_keys: bool,
) -> Result<(), IllegalMove> {
    let t = tables();
    let mut board = Board::START;
    let mut black = true;
    let mut h = [0u64; 8];
    if with_keys {
        for (colour, mut discs) in [(0, board.player), (1, board.opponent)] {
            while discs != 0 {
                let sq = discs.trailing_zeros() as usize;
                discs &= discs - 1;
                xor_lane(&mut h, &t.disc[colour][sq]);
            }
        }
    }
    let position = |board: &Board, black: bool| {
        let (b, w) = if black {
            (board.player, board.opponent)
        } else {
            (board.opponent, board.player)
        };
        IndexedPosition {
            black: b,
            white: w,
            black_to_move: black,
        }
    };
    for (ply, &sq) in moves.iter().enumerate() {
        let sq = sq as u32;
        let legal = |b: &Board| {
            if sq < 64 && (b.empties() >> sq) & 1 == 1 {
                b.flips(sq)
            } else {
                0
            }
        };
        let mut flipped = legal(&board);
        if flipped == 0 {
            if board.moves() != 0 {
                return Err(IllegalMove { index: ply });
            }
            board = board.passed();
            black = !black;
            flipped = legal(&board);
            if flipped == 0 {
                return Err(IllegalMove { index: ply });
            }
        }
        let key = if with_keys {
            finish_key(&h, black, false)
        } else {
            0
        };
        if !visit(ply, &position(&board, black), key) {
            return Ok(());
        }
        if with_keys {
            xor_lane(&mut h, &t.disc[usize::from(!black)][sq as usize]);
            let mut f = flipped;
            while f != 0 {
                let s = f.trailing_zeros() as usize;
                f &= f - 1;
                xor_lane(&mut h, &t.flip[s]);
            }
        }
        board = board.after(sq, flipped);
        black = !black;
    }
    let over = board.is_game_over();
    if board.moves() == 0 && !over {
        board = board.passed();
        black = !black;
    }
    let key = if with_keys {
        finish_key(&h, black, over)
    } else {
        0
    };
    visit(moves.len(), &position(&board, black), key);
    Ok(())
}

/// The position of a game (squares as indices) after `ply` moves, if it has that many.
pub fn position_at(moves: &[u8], ply: usize) -> Option<IndexedPosition> {
    if ply > moves.len() {
        return None;
    }
    let mut found = None;
    replay(
        moves,
        |k, p, _| {
            if k == ply {
                found = Some(*p);
                false
            } else {
                true
            }
        },
        false,
    )
    .ok()?;
    found
}

/// The keys of every position of a game, in order (`moves.len() + 1` of them).
pub fn game_keys(moves: &[u8]) -> Result<Vec<u64>, IllegalMove> {
    let mut keys = Vec::with_capacity(moves.len() + 1);
    replay(
        moves,
        |_, _, key| {
            keys.push(key);
            true
        },
        true,
    )?;
    Ok(keys)
}

/// The games reaching each position, bucketed by key.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// The bucket of a key is its top `bits` bits.
    bits: u32,
    /// Each entry is `game << tag_bits | tag`, the tag being the low `tag_bits` (8) of
    /// the key's top half (bits 32..40 of the key; the bucket is at most bits 48..64).
    tag_bits: u32,
    /// `starts[b]..starts[b + 1]` index `entries` for bucket `b`.
    starts: Vec<u32>,
    /// Per position of every game, in bucket order and in game order within a bucket:
    /// the game and its tag in one word (4 bytes a position: the 8.8 million positions
    /// of the shipped WTHOR take 35 MB; a game word and a 16-bit tag took 53 MB).
    entries: Vec<u32>,
}

/// A game whose moves do not replay, found while indexing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadGame {
    /// 0-based game number.
    pub game: usize,
    /// Its move that does not replay.
    pub mv: IllegalMove,
}

impl Index {
    /// Indexes the games `starts[g]..starts[g + 1]` of `moves` (square indices).
    ///
    /// A counting sort: one replay of the games with their keys counts the positions of
    /// each bucket and keeps each position's bucket and tag (3 bytes), then each position
    /// goes to its bucket's next slot. Memory, on the shipped WTHOR's 8.8 million
    /// positions (`okapi bench --db`, docs/engine.md): keeping the key's whole top half (4
    /// bytes) beside a game word and a 16-bit tag made the load's peak 116 MB; one word a
    /// position 100 MB; these 3 bytes 84 MB. Replaying the games a second time instead
    /// of keeping anything (peak 68 MB) doubled the indexing's CPU time (242 to 546 ms),
    /// past the 0.5 s a load may take.
    pub fn build(moves: &[u8], starts: &[u32]) -> Result<Index, BadGame> {
        let games = starts.len().saturating_sub(1);
        let entries = moves.len() + games;
        // About 128 positions a bucket (at most 2^16 buckets, so the bucket and the tag
        // are disjoint bits of the key's top half): few buckets keep the counting sort's
        // counters and write heads in the cache. With 2^21 buckets indexing WTHOR's
        // ~8.8M positions took 800 ms of CPU, with 2^16 255 ms (`okapi bench --db`).
        let bits = (entries / 128)
            .max(256)
            .next_power_of_two()
            .trailing_zeros()
            .min(16);
        let shift = 32 - bits;
        // The game number takes the bits it needs, the tag 8 of the rest (fewer only past
        // 2^24 games). An 8-bit tag lets one position in 256 of those sharing the bucket
        // (about 128) through to the replay that checks candidates: about half a replay
        // more a query, and the same query times (`okapi bench --db`).
        let game_bits = usize::BITS - games.saturating_sub(1).leading_zeros();
        let tag_bits = (32 - game_bits.min(32)).min(8);
        let tag_mask = ((1u64 << tag_bits) - 1) as u32;
        // Each position's bucket and tag, in game order (3 bytes a position).
        let mut buckets: Vec<u16> = Vec::with_capacity(entries);
        let mut tags: Vec<u8> = Vec::with_capacity(entries);
        let mut counts = vec![0u32; (1usize << bits) + 1];
        // Allocated before the buckets and tags, so that nothing kept sits above them in
        // the heap once they are freed (the allocator could not give their memory back).
        let mut next = vec![0u32; counts.len()];
        for g in 0..games {
            let m = &moves[starts[g] as usize..starts[g + 1] as usize];
            replay(
                m,
                |_, _, key| {
                    let hi = (key >> 32) as u32;
                    let b = hi >> shift;
                    buckets.push(b as u16);
                    tags.push(hi as u8);
                    counts[b as usize + 1] += 1;
                    true
                },
                true,
            )
            .map_err(|mv| BadGame { game: g, mv })?;
        }
        for b in 1..counts.len() {
            counts[b] += counts[b - 1];
        }
        next.copy_from_slice(&counts);
        let mut out = vec![0u32; buckets.len()];
        let mut e = 0;
        for g in 0..games {
            let n = starts[g + 1] as usize - starts[g] as usize + 1;
            let word = ((g as u64) << tag_bits) as u32;
            for (&b, &tag) in buckets[e..e + n].iter().zip(&tags[e..e + n]) {
                let slot = &mut next[b as usize];
                out[*slot as usize] = word | (u32::from(tag) & tag_mask);
                *slot += 1;
            }
            e += n;
        }
        Ok(Index {
            bits,
            tag_bits,
            starts: counts,
            entries: out,
        })
    }

    /// The games with a position whose key shares `key`'s bucket and tag, in game order
    /// (a game may appear twice if two of its positions do): candidates, to be checked by
    /// replay.
    pub fn candidates(&self, key: u64) -> impl Iterator<Item = u32> + '_ {
        let hi = (key >> 32) as u32;
        let range = if self.starts.len() < 2 {
            0..0
        } else {
            let b = (hi >> (32 - self.bits)) as usize;
            self.starts[b] as usize..self.starts[b + 1] as usize
        };
        let tag_bits = self.tag_bits;
        let tag_mask = ((1u64 << tag_bits) - 1) as u32;
        let tag = hi & tag_mask;
        self.entries[range]
            .iter()
            .filter(move |&&e| e & tag_mask == tag)
            .map(move |&e| (u64::from(e) >> tag_bits) as u32)
    }

    /// Bytes held.
    pub fn memory(&self) -> usize {
        (self.starts.capacity() + self.entries.capacity()) * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn squares(text: &str) -> Vec<u8> {
        text.as_bytes()
            .chunks(2)
            .map(|c| {
                Square::parse(std::str::from_utf8(c).unwrap())
                    .unwrap()
                    .index() as u8
            })
            .collect()
    }

    #[test]
    fn incremental_keys_equal_full_keys_and_are_symmetric() {
        let game = squares("f5d6c3d3c4f4f6f3e6e7");
        let keys = game_keys(&game).unwrap();
        for (ply, key) in keys.iter().enumerate() {
            let p = position_at(&game, ply).unwrap();
            assert_eq!(p.key(), *key, "ply {ply}");
            for s in Symmetry::ALL {
                assert_eq!(p.transformed(s).key(), *key, "ply {ply} {s:?}");
            }
        }
        // The side to move is part of the key.
        let p = position_at(&game, 3).unwrap();
        let other = IndexedPosition {
            black_to_move: !p.black_to_move,
            ..p
        };
        assert_ne!(p.key(), other.key());
    }

    #[test]
    fn transpositions_share_a_key_and_bad_games_are_refused() {
        // f5 d6 c3 d3 c4 and f5 d6 c4 d3 c3 reach the same position.
        let a = game_keys(&squares("f5d6c3d3c4")).unwrap();
        let b = game_keys(&squares("f5d6c4d3c3")).unwrap();
        assert_eq!(a[5], b[5]);
        assert_ne!(a[3], b[3]);
        assert_eq!(
            game_keys(&squares("f5a1")).unwrap_err(),
            IllegalMove { index: 1 }
        );
        assert_eq!(game_keys(&[99]).unwrap_err(), IllegalMove { index: 0 });
        let moves = [squares("f5d6"), squares("f5a1")].concat();
        let err = Index::build(&moves, &[0, 2, 4]).unwrap_err();
        assert_eq!(err.game, 1);
    }

    #[test]
    fn candidates_hold_every_game_reaching_a_position() {
        let games = ["f5d6c3d3c4", "f5d6c4d3c3", "e6f4", "f5f6"];
        let mut moves = Vec::new();
        let mut starts = vec![0u32];
        for g in games {
            moves.extend(squares(g));
            starts.push(moves.len() as u32);
        }
        let index = Index::build(&moves, &starts).unwrap();
        let start = position_at(&moves[..5], 0).unwrap();
        let mut c: Vec<u32> = index.candidates(start.key()).collect();
        c.dedup();
        assert_eq!(c, [0, 1, 2, 3]);
        let after = position_at(&moves[..5], 5).unwrap();
        let c: Vec<u32> = index.candidates(after.key()).collect();
        assert!(c.contains(&0) && c.contains(&1), "{c:?}");
    }

    #[test]
    fn game_numbers_and_tags_share_a_word_without_mixing() {
        // 70,000 games (17 bits of game number, the tag beside them): every game comes
        // back whole from the entries, in game order.
        let lines = [squares("f5d6c3"), squares("e6f4"), squares("c4c3")];
        let mut moves = Vec::new();
        let mut starts = vec![0u32];
        for g in 0..70_000 {
            moves.extend(&lines[g % 3]);
            starts.push(moves.len() as u32);
        }
        let index = Index::build(&moves, &starts).unwrap();
        assert_eq!(index.tag_bits, 8);
        let start = position_at(&lines[0], 0).unwrap();
        let mut c: Vec<u32> = index.candidates(start.key()).collect();
        c.dedup();
        assert_eq!(c, (0..70_000).collect::<Vec<u32>>());
        // f5 d6 c3 only in every third game (its symmetric images are not in the others).
        let after = position_at(&lines[0], 3).unwrap();
        let c: Vec<u32> = index
            .candidates(after.key())
            .filter(|&g| {
                let m = &moves[starts[g as usize] as usize..starts[g as usize + 1] as usize];
                position_at(m, 3).is_some_and(|p| {
                    Symmetry::ALL
                        .iter()
                        .any(|&s| p.transformed(s).same_as(&after))
                })
            })
            .collect();
        assert_eq!(c, (0..70_000).step_by(3).collect::<Vec<u32>>());
    }
}
