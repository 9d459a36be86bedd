//! The opening book: positions of the opening, each with a value, the number of games
//! through it and where the value comes from, built by [`build`] from the public game
//! records and stored in a small binary file (see [`Book::to_bytes`] for the layout).
//!
//! Positions are kept in their canonical form under the 8 symmetries of the board (the
//! smallest `(player, opponent)` pair), so a position and its mirror images share one
//! entry. Values are from the side to move's view, in 1/[`SCALE`] discs, and are the
//! negamax of the book tree: a position's value is the best of its book children's values
//! (negated) and of its *alternative*, the best move that leaves the book, valued by
//! Okapi's own search. So every value is the minimax of searched leaves, and the book
//! always knows whether leaving it is better than staying in it.
//!
//! ```
//! use okapi_core::book::{canonical, Book};
//! use okapi_core::board::Board;
//! // The four first moves are symmetric: one entry serves them all.
//! let after: Vec<_> = [19, 26, 37, 44]
//!     .iter()
//!     .map(|&sq| canonical(&Board::START.play(sq).unwrap()).0)
//!     .collect();
//! assert!(after.iter().all(|b| *b == after[0]));
//! let empty = Book::default();
//! assert!(empty.moves(&Board::START).is_empty());
//! ```

pub mod build;
pub mod shard;

use crate::binary::{HeaderError, check_header, le_u16, le_u32, seal, unseal};
use crate::board::symmetry::Symmetry;
use crate::board::{BitBoard, Board, Square};
use crate::search::SCALE;
use std::path::Path;
use std::sync::OnceLock;

/// The first 8 bytes of a book file.
pub const MAGIC: &[u8; 8] = b"OKAPIBOK";
/// The book file format version this build reads and writes.
pub const VERSION: u16 = 1;
const HEADER_LEN: usize = 32;
/// Bytes per entry in the uncompressed payload.
const ENTRY_BYTES: usize = 8 + 8 + 2 + 1 + 4 + 1 + 1 + 2 + 1;
/// `alt_square` of an entry without an alternative.
const NO_SQUARE: u8 = 255;

/// The shipped book's file name under `book/`.
pub const SHIPPED_FILE: &str = "okapi.book";
static SHIPPED: &[u8] = include_bytes!("../../../../book/okapi.book");

/// The book shipped in `book/` (compiled into the binary), parsed on first use: a few
/// milliseconds, paid by the first lookup and not by commands that never look.
pub fn shipped() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| Book::from_bytes(SHIPPED).expect("the shipped book is valid"))
}

/// Where a book value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum BookSource {
    /// The mean result of the games through the position (WTHOR's perfect-play scores
    /// where it has them): only in books built without a search (`--depth 0`).
    Games,
    /// Okapi's midgame search, `depth` plies.
    Search {
        /// Plies searched, 1..=60.
        depth: u8,
    },
    /// The search reached the end of the game: a proven score.
    Exact,
}

impl BookSource {
    fn to_byte(self) -> u8 {
        match self {
            BookSource::Games => 0,
            BookSource::Search { depth } => depth.clamp(1, 60),
            BookSource::Exact => 255,
        }
    }

    fn from_byte(b: u8) -> Option<BookSource> {
        match b {
            0 => Some(BookSource::Games),
            1..=60 => Some(BookSource::Search { depth: b }),
            255 => Some(BookSource::Exact),
            _ => None,
        }
    }
}

impl std::fmt::Display for BookSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookSource::Games => write!(f, "games"),
            BookSource::Search { depth } => write!(f, "depth {depth}"),
            BookSource::Exact => write!(f, "exact"),
        }
    }
}

/// The best move that leaves the book from a position, with its searched value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// The move, in the orientation of the canonical position.
    pub square: u8,
    /// In 1/[`SCALE`] discs, from the mover's view.
    pub value: i16,
    /// Where `value` comes from.
    pub source: BookSource,
}

/// One book position (canonical) and what the book knows of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The side to move's discs (canonical position).
    pub player: u64,
    /// Its opponent's discs.
    pub opponent: u64,
    /// Negamax value for the side to move, in 1/[`SCALE`] discs.
    pub value: i16,
    /// The source of the leaf that gives `value`.
    pub source: BookSource,
    /// Games of the records through the position.
    pub games: u32,
    /// Their mean result for the side to move, in discs (a check, not a book value).
    pub result: i8,
    /// The best move out of the book and its searched value (`None` in books built without
    /// a search, or when every move stays in the book).
    pub alt: Option<Alternative>,
}

impl Entry {
    /// The entry's position, side-relative (in its canonical orientation).
    pub fn board(&self) -> Board {
        Board::new(self.player, self.opponent)
    }
}

/// How the book was built, as its header records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BookInfo {
    /// Positions up to this many plies were counted.
    pub max_ply: u16,
    /// Positions seen in fewer games were left out.
    pub min_games: u32,
    /// Search depth of the leaves (0: game results).
    pub depth: u16,
    /// Games read to build it.
    pub games: u32,
}

/// Why a book file cannot be read; the text says it to a user.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read (missing, unreadable, or over the size cap).
    #[error(transparent)]
    Read(#[from] crate::formats::ReadError),
    /// An I/O error on the book file at `path`.
    #[error("cannot read book file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Not a book (no `OKAPIBOK`), a book of another format version, or cut inside its
    /// header.
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// The header and the data disagree, or an entry holds impossible values; says which.
    #[error("book file is truncated or malformed: {0}")]
    Malformed(String),
    /// The checksum at the end of the file does not match its contents: the file is corrupt.
    #[error(
        "book file checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt"
    )]
    Checksum {
        /// The checksum the file ends with.
        stored: u64,
        /// The checksum of what was read.
        computed: u64,
    },
}

/// A move from a position and what the book knows of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BookMove {
    /// The move.
    pub square: Square,
    /// In 1/[`SCALE`] discs, from the mover's view.
    pub value: i32,
    /// Where `value` comes from.
    pub source: BookSource,
    /// Games through the position after the move (0 when it leaves the book).
    pub games: u32,
    /// Whether the move leads to a book position (else it is the searched alternative,
    /// or it ends the game).
    pub in_book: bool,
}

impl BookMove {
    /// The value in discs.
    pub fn discs(&self) -> f64 {
        self.value as f64 / SCALE as f64
    }
}

/// Positions are stored in their canonical form (see [`crate::board::symmetry::canonical`]).
pub use crate::board::symmetry::canonical;

/// The position after `sq` from the view of the side that moves next (a forced pass
/// resolved), and whether that side is the opponent of the mover (`-1`) or the mover
/// again (`+1`): the sign that turns its value into the mover's.
pub fn child(board: &Board, sq: u32) -> Option<(Board, i32)> {
    let next = board.play(sq)?;
    if next.moves() == 0 && !next.is_game_over() {
        Some((next.passed(), 1))
    } else {
        Some((next, -1))
    }
}

/// An opening book in memory: entries sorted by canonical position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    entries: Vec<Entry>,
    info: BookInfo,
}

impl Book {
    /// A book of `entries` (any order; they are sorted). Entries must be canonical.
    pub fn new(mut entries: Vec<Entry>, info: BookInfo) -> Book {
        entries.sort_unstable_by_key(|e| (e.player, e.opponent));
        entries.dedup_by_key(|e| (e.player, e.opponent));
        Book { entries, info }
    }

    /// How many positions the book holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How the book was built.
    pub fn info(&self) -> BookInfo {
        self.info
    }

    /// All entries, sorted by canonical position.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry of `board` (in any orientation), with the symmetry that maps `board` to
    /// the entry's orientation.
    pub fn probe(&self, board: &Board) -> Option<(&Entry, Symmetry)> {
        let (c, s) = canonical(board);
        self.entries
            .binary_search_by_key(&(c.player, c.opponent), |e| (e.player, e.opponent))
            .ok()
            .map(|i| (&self.entries[i], s))
    }

    /// Every move of `board` whose value the book knows, best first: the moves into book
    /// positions, the alternative that leaves the book, and moves that end the game.
    /// Empty when `board` is not in the book. The other legal moves are not worth more
    /// than the alternative at the book's search depth (it is the best of them).
    pub fn moves(&self, board: &Board) -> Vec<BookMove> {
        let Some((entry, sym)) = self.probe(board) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for square in BitBoard(board.moves()) {
            let Some((next, sign)) = child(board, square.index()) else {
                continue;
            };
            if next.is_game_over() {
                out.push(BookMove {
                    square,
                    value: sign * next.final_score() * SCALE,
                    source: BookSource::Exact,
                    games: 0,
                    in_book: false,
                });
            } else if let Some((e, _)) = self.probe(&next) {
                out.push(BookMove {
                    square,
                    value: sign * e.value as i32,
                    source: e.source,
                    games: e.games,
                    in_book: true,
                });
            }
        }
        if let Some(alt) = entry.alt {
            let square = Square::new(sym.inverse().square(alt.square as u32));
            if !out.iter().any(|m| m.square == square) {
                out.push(BookMove {
                    square,
                    value: alt.value as i32,
                    source: alt.source,
                    games: 0,
                    in_book: false,
                });
            }
        }
        out.sort_by_key(|m| (std::cmp::Reverse(m.value), std::cmp::Reverse(m.games)));
        out
    }

    /// A move to play from `board`, or `None` when the book does not know the position.
    ///
    /// Only moves with a known value are candidates, and only those within `randomness`
    /// discs of the best, drawn with weights falling linearly from the best (weight
    /// `randomness + 1 - loss`): with `randomness` 0 the best move (ties drawn at random).
    /// A move whose value is unknown, or known to lose more than `randomness` discs, is
    /// never chosen. `uniform` gives numbers in [0, 1).
    pub fn choose(
        &self,
        board: &Board,
        randomness: f64,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Option<BookMove> {
        let moves = self.moves(board);
        let best = moves.first()?.value;
        let randomness = randomness.max(0.0);
        let weighted: Vec<(BookMove, f64)> = moves
            .into_iter()
            .map(|m| (m, (best - m.value) as f64 / SCALE as f64))
            .filter(|&(_, loss)| loss <= randomness + 1e-9)
            .map(|(m, loss)| (m, randomness + 1.0 - loss))
            .collect();
        let total: f64 = weighted.iter().map(|w| w.1).sum();
        let mut x = uniform() * total;
        for &(m, w) in &weighted {
            if x < w {
                return Some(m);
            }
            x -= w;
        }
        weighted.last().map(|w| w.0)
    }

    /// Loads a book file.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let bytes = crate::formats::read_capped(path, crate::formats::MAX_BOOK_FILE)?;
        Book::from_bytes(&bytes)
    }

    fn header(&self, payload_len: u32) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10..12].copy_from_slice(&self.info.max_ply.to_le_bytes());
        h[12..16].copy_from_slice(&self.info.min_games.to_le_bytes());
        h[16..18].copy_from_slice(&self.info.depth.to_le_bytes());
        // 18..20 reserved, zero.
        h[20..24].copy_from_slice(&(self.entries.len() as u32).to_le_bytes());
        h[24..28].copy_from_slice(&self.info.games.to_le_bytes());
        h[28..32].copy_from_slice(&payload_len.to_le_bytes());
        h
    }

    /// The uncompressed payload, column by column (all players, all opponents, ...): the
    /// columns of sorted keys and small numbers compress far better than rows.
    fn raw_payload(&self) -> Vec<u8> {
        let e = &self.entries;
        let mut raw = Vec::with_capacity(e.len() * ENTRY_BYTES);
        e.iter()
            .for_each(|x| raw.extend_from_slice(&x.player.to_le_bytes()));
        e.iter()
            .for_each(|x| raw.extend_from_slice(&x.opponent.to_le_bytes()));
        e.iter()
            .for_each(|x| raw.extend_from_slice(&x.value.to_le_bytes()));
        e.iter().for_each(|x| raw.push(x.source.to_byte()));
        e.iter()
            .for_each(|x| raw.extend_from_slice(&x.games.to_le_bytes()));
        e.iter().for_each(|x| raw.push(x.result as u8));
        e.iter()
            .for_each(|x| raw.push(x.alt.map_or(NO_SQUARE, |a| a.square)));
        e.iter()
            .for_each(|x| raw.extend_from_slice(&x.alt.map_or(0i16, |a| a.value).to_le_bytes()));
        e.iter()
            .for_each(|x| raw.push(x.alt.map_or(0, |a| a.source.to_byte())));
        raw
    }

    /// The file: a 32-byte header (all integers little-endian: magic `OKAPIBOK`, version
    /// u16, max ply u16, min games u32, search depth u16, reserved u16, entries u32, games
    /// read u32, payload length u32), the zlib-compressed payload, then the 64-bit FNV-1a
    /// checksum of the header and the uncompressed payload.
    pub fn to_bytes(&self) -> Vec<u8> {
        seal(&self.raw_payload(), |len| self.header(len).to_vec())
    }

    /// Reads a book file's bytes, checking everything: a corrupt or foreign file is
    /// refused with the reason, never half-read.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        check_header(
            bytes,
            MAGIC,
            Some(VERSION),
            HEADER_LEN + 8,
            "an Okapi book file",
        )?;
        let info = BookInfo {
            max_ply: le_u16(bytes, 10),
            min_games: le_u32(bytes, 12),
            depth: le_u16(bytes, 16),
            games: le_u32(bytes, 24),
        };
        let n = le_u32(bytes, 20) as usize;
        let payload_len = le_u32(bytes, 28) as usize;
        let expected = n
            .checked_mul(ENTRY_BYTES)
            .filter(|&x| x <= 1 << 31)
            .ok_or_else(|| BookError::Malformed(format!("{n} entries is too many")))?;
        let raw = unseal(bytes, HEADER_LEN, payload_len, expected).map_err(|e| {
            e.into_error(BookError::Malformed, |stored, computed| {
                BookError::Checksum { stored, computed }
            })
        })?;
        // Column offsets, in the order raw_payload writes them.
        let players = 0;
        let opponents = players + 8 * n;
        let values = opponents + 8 * n;
        let sources = values + 2 * n;
        let games = sources + n;
        let results = games + 4 * n;
        let alt_squares = results + n;
        let alt_values = alt_squares + n;
        let alt_sources = alt_values + 2 * n;
        let u64_at = |i: usize| u64::from_le_bytes(raw[i..i + 8].try_into().expect("8 bytes"));
        let i16_at = |i: usize| i16::from_le_bytes([raw[i], raw[i + 1]]);
        let bad = |i: usize, what: &str| BookError::Malformed(format!("entry {i}: {what}"));
        let max_value = 64 * SCALE as i16;
        let mut entries = Vec::with_capacity(n);
        for i in 0..n {
            let (player, opponent) = (u64_at(players + 8 * i), u64_at(opponents + 8 * i));
            if player & opponent != 0 {
                return Err(bad(i, "a square holds both colours"));
            }
            if let Some(prev) = entries.last().map(|e: &Entry| (e.player, e.opponent))
                && prev >= (player, opponent)
            {
                return Err(bad(i, "entries are not sorted"));
            }
            let value = i16_at(values + 2 * i);
            if value.abs() > max_value {
                return Err(bad(i, "value out of range"));
            }
            let source =
                BookSource::from_byte(raw[sources + i]).ok_or_else(|| bad(i, "bad source"))?;
            let g = u32::from_le_bytes(raw[games + 4 * i..games + 4 * i + 4].try_into().unwrap());
            let alt = match raw[alt_squares + i] {
                NO_SQUARE => None,
                sq if sq < 64 => {
                    // The alternative is a move of the entry's position: a square already
                    // holding a disc (or any illegal one) would be offered to the player.
                    if (player | opponent) >> sq & 1 != 0 {
                        return Err(bad(i, "the alternative move is onto an occupied square"));
                    }
                    if Board::new(player, opponent).moves() >> sq & 1 == 0 {
                        return Err(bad(i, "the alternative move is not legal"));
                    }
                    let value = i16_at(alt_values + 2 * i);
                    if value.abs() > max_value {
                        return Err(bad(i, "alternative value out of range"));
                    }
                    Some(Alternative {
                        square: sq,
                        value,
                        source: BookSource::from_byte(raw[alt_sources + i])
                            .ok_or_else(|| bad(i, "bad alternative source"))?,
                    })
                }
                _ => return Err(bad(i, "bad alternative square")),
            };
            entries.push(Entry {
                player,
                opponent,
                value,
                source,
                games: g,
                result: raw[results + i] as i8,
                alt,
            });
        }
        Ok(Book { entries, info })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::symmetry::transform;

    fn entry(board: Board, value: i16, games: u32, alt: Option<Alternative>) -> Entry {
        let c = canonical(&board).0;
        Entry {
            player: c.player,
            opponent: c.opponent,
            value,
            source: BookSource::Search { depth: 4 },
            games,
            result: 0,
            alt,
        }
    }

    /// The start position after Black's f5.
    fn after_f5() -> Board {
        Board::START
            .play(Square::parse("f5").unwrap().index())
            .unwrap()
    }

    /// A hand-made book: the start position, f5 (and so its symmetric twins), and the
    /// three answers to f5 with chosen values.
    fn tiny() -> Book {
        let f5 = after_f5();
        let mut entries = vec![entry(Board::START, 0, 10, None), entry(f5, 0, 10, None)];
        for (mv, v) in [
            ("d6", 0),
            ("f6", -2 * SCALE as i16),
            ("f4", -6 * SCALE as i16),
        ] {
            let b = f5.play(Square::parse(mv).unwrap().index()).unwrap();
            // The value is for Black, who moves next: White's move value is its negation.
            entries.push(entry(b, -v, 5, None));
        }
        Book::new(entries, BookInfo::default())
    }

    #[test]
    fn moves_are_the_same_in_every_orientation() {
        let book = tiny();
        let f5 = after_f5();
        let moves = book.moves(&f5);
        assert_eq!(moves.len(), 3);
        assert_eq!(moves[0].square, Square::parse("d6").unwrap());
        assert_eq!(moves[2].value, -6 * SCALE);
        for s in Symmetry::ALL {
            let t = Board::new(transform(f5.player, s), transform(f5.opponent, s));
            let tm = book.moves(&t);
            let mapped: Vec<(u32, i32)> = moves
                .iter()
                .map(|m| (s.square(m.square.index()), m.value))
                .collect();
            let got: Vec<(u32, i32)> = tm.iter().map(|m| (m.square.index(), m.value)).collect();
            assert_eq!(got, mapped, "{s:?}");
        }
    }

    #[test]
    fn choice_stays_within_the_window() {
        let book = tiny();
        let f5 = after_f5();
        let mut x = 0.0;
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            x = (x + 0.137) % 1.0;
            let mut u = || x;
            let m = book.choose(&f5, 3.0, &mut u).unwrap();
            assert!(m.value >= -3 * SCALE, "{m:?}");
            seen.insert(m.square);
        }
        assert_eq!(seen.len(), 2, "d6 and f6 are within 3 discs, f4 is not");
        let mut u = || 0.999;
        assert_eq!(
            book.choose(&f5, 0.0, &mut u).unwrap().square,
            Square::parse("d6").unwrap()
        );
        let unknown = f5.play(Square::parse("d6").unwrap().index()).unwrap();
        let unknown = unknown.play(BitBoard(unknown.moves()).iter().next().unwrap().index());
        assert!(book.choose(&unknown.unwrap(), 3.0, &mut u).is_none());
    }

    #[test]
    fn file_round_trip_and_corruption_refused() {
        let mut book = tiny();
        // A legal move of the entry: the reader refuses any other.
        let legal = book.entries[0].board().moves().trailing_zeros() as u8;
        book.entries[0].alt = Some(Alternative {
            square: legal,
            value: -3,
            source: BookSource::Exact,
        });
        book.info = BookInfo {
            max_ply: 20,
            min_games: 3,
            depth: 4,
            games: 77,
        };
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        let mut bad = bytes.clone();
        bad[HEADER_LEN + 3] ^= 0x40;
        assert!(Book::from_bytes(&bad).is_err());
        let last = bytes.len() - 1;
        let mut bad = bytes.clone();
        bad[last] ^= 1;
        assert!(matches!(
            Book::from_bytes(&bad),
            Err(BookError::Checksum { .. })
        ));
        assert!(matches!(
            Book::from_bytes(&bytes[..bytes.len() - 5]),
            Err(BookError::Malformed(_))
        ));
        assert!(matches!(
            Book::from_bytes(b"OKAPIEVW and more bytes than that"),
            Err(BookError::Header(HeaderError::Magic { .. }))
        ));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(matches!(
            Book::from_bytes(&v2),
            Err(BookError::Header(HeaderError::Version { found: 2, .. }))
        ));
    }

    #[test]
    fn a_move_onto_an_occupied_square_is_refused() {
        let mut book = tiny();
        let e = book.entries[0];
        let occupied = (e.player | e.opponent).trailing_zeros() as u8;
        book.entries[0].alt = Some(Alternative {
            square: occupied,
            value: 0,
            source: BookSource::Exact,
        });
        let err = Book::from_bytes(&book.to_bytes()).unwrap_err().to_string();
        assert!(
            err.contains("entry 0: the alternative move is onto an occupied square"),
            "{err}"
        );
        let empty_illegal = (0..64u8)
            .find(|&sq| (e.player | e.opponent) >> sq & 1 == 0 && e.board().moves() >> sq & 1 == 0)
            .unwrap();
        book.entries[0].alt.as_mut().unwrap().square = empty_illegal;
        let err = Book::from_bytes(&book.to_bytes()).unwrap_err().to_string();
        assert!(err.contains("not legal"), "{err}");
    }
}
