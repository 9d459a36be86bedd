//! A book build split across machines: each shard searches its share of the build's
//! search blocks ([`super::build::Plan::search_blocks`]: block `b` is shard `b mod N`'s) and
//! writes a *part*; [`merge`] puts the parts together into the very book the whole build
//! makes, or refuses, naming the file, parts that do not belong together (the checks every
//! sharded job shares are [`crate::shard`]'s).
//!
//! # Part format (little-endian)
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `OKAPIBKS` |
//! | 2 | format version (1) |
//! | 4, 4 | shard index (0-based), shard count |
//! | 4 × 5 | max ply, min games, depth, selectivity, check games |
//! | 8 | check margin (f64) |
//! | 4, 4 | hash bits, block |
//! | 8 | fingerprint of the evaluation ([`evaluation_fingerprint`]) |
//! | 8, 8 | games read, distinct positions seen |
//! | 4, 4 | book positions `n`, searched positions `m` |
//! | 4 | length `L` of the compressed payload |
//! | L | zlib payload: `n` × (player u64, opponent u64, games u32, sum of results i64), then `m` × (position number u32, alternative square u8 (255 none), value i16, source u8), then searches, checked, deepened, nodes (u64 each) and search seconds (f64) |
//! | 8 | FNV-1a checksum of the header and the uncompressed payload |
//!
//! Every part holds the whole table of book positions, so the merge needs no game records
//! and checks that all parts were counted from the same ones.

use super::build::{BuildOptions, BuildReport, Counted, Plan, Searched, finish};
use super::{Alternative, Book, BookSource, NO_SQUARE};
use crate::binary::{FNV_OFFSET, HeaderError, check_header, fnv1a, le_u32, seal, unseal};
use crate::board::Board;
use crate::board::random::{XorShift64, nth_bit};
use crate::search::Evaluate;
use crate::shard::{MergeError, Part, Shard, check_set};
use std::time::Duration;

/// The first 8 bytes of a shard part file.
pub const MAGIC: &[u8; 8] = b"OKAPIBKS";
/// The part format version this build reads and writes.
pub const VERSION: u16 = 1;
const HEADER_LEN: usize = 8 + 2 + 8 + 20 + 8 + 8 + 8 + 16 + 8 + 4;
const COUNTED_BYTES: usize = 8 + 8 + 4 + 8;
const SEARCHED_BYTES: usize = 4 + 1 + 2 + 1;
const STATS_BYTES: usize = 5 * 8;

/// One shard's share of a book build.
#[derive(Clone, Debug, PartialEq)]
pub struct BookPart {
    /// Which shard of the build the part is.
    pub shard: Shard,
    /// The build's options, the same in every part of one build.
    pub options: BuildOptions,
    /// Fingerprint of the evaluation weights the searches used.
    pub weights: u64,
    /// Games read (the same in every part).
    pub games: u64,
    /// Distinct positions up to `max_ply` in the games (the same in every part).
    pub positions_seen: u64,
    /// Every book position with its games (not only the shard's).
    pub counts: Vec<Counted>,
    /// The shard's searches.
    pub searched: Searched,
    /// Time the shard's searches took.
    pub elapsed: Duration,
}

/// Why a part file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    /// Not a part (no `OKAPIBKS`), a part of another format version, or cut inside its
    /// header.
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// The header and the data disagree, or a record holds impossible values; says which.
    #[error("book shard part is truncated or malformed: {0}")]
    Malformed(String),
    /// The checksum at the end of the file does not match its contents: the file is corrupt.
    #[error(
        "book shard part checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt"
    )]
    Checksum {
        /// The checksum the file ends with.
        stored: u64,
        /// The checksum of what was read.
        computed: u64,
    },
}

/// A fingerprint of an evaluation: FNV-1a of the values it gives the positions of 64
/// fixed random games (about 3,800 positions, every phase). Shards searching with other
/// weights give other values, and their parts are refused by [`merge`].
pub fn evaluation_fingerprint<E: Evaluate + Clone>(eval: &E) -> u64 {
    // A fixed sequence: the positions must never change.
    let mut rng = XorShift64::from_state(0x9E37_79B9_7F4A_7C15);
    let mut hash = FNV_OFFSET;
    for _ in 0..64 {
        let mut b = Board::START;
        while !b.is_game_over() {
            hash = fnv1a(hash, &eval.evaluate(&b).to_le_bytes());
            let moves = b.moves();
            if moves == 0 {
                b = b.passed();
                continue;
            }
            let sq = nth_bit(moves, rng.below(moves.count_ones() as u64));
            b = b.play(sq).expect("a legal move");
        }
    }
    hash
}

impl BookPart {
    /// The shard's part of a build of `plan`.
    pub fn new(
        shard: Shard,
        options: &BuildOptions,
        weights: u64,
        plan: &Plan,
        searched: Searched,
        elapsed: Duration,
    ) -> BookPart {
        BookPart {
            shard,
            options: options.clone(),
            weights,
            games: plan.games as u64,
            positions_seen: plan.positions_seen as u64,
            counts: plan.counts(),
            searched,
            elapsed,
        }
    }

    fn header(&self, payload_len: u32) -> Vec<u8> {
        let o = &self.options;
        let mut h = Vec::with_capacity(HEADER_LEN);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&VERSION.to_le_bytes());
        for x in [
            self.shard.index as u32,
            self.shard.count as u32,
            o.max_ply,
            o.min_games,
            o.depth,
            o.selectivity as u32,
            o.check_games,
        ] {
            h.extend_from_slice(&x.to_le_bytes());
        }
        h.extend_from_slice(&o.check_margin.to_bits().to_le_bytes());
        h.extend_from_slice(&o.hash_bits.to_le_bytes());
        h.extend_from_slice(&o.block.to_le_bytes());
        for x in [self.weights, self.games, self.positions_seen] {
            h.extend_from_slice(&x.to_le_bytes());
        }
        h.extend_from_slice(&(self.counts.len() as u32).to_le_bytes());
        h.extend_from_slice(&(self.searched.alternatives.len() as u32).to_le_bytes());
        h.extend_from_slice(&payload_len.to_le_bytes());
        debug_assert_eq!(h.len(), HEADER_LEN);
        h
    }

    /// The part file's bytes (the layout in the module doc).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(
            self.counts.len() * COUNTED_BYTES
                + self.searched.alternatives.len() * SEARCHED_BYTES
                + STATS_BYTES,
        );
        for c in &self.counts {
            raw.extend_from_slice(&c.player.to_le_bytes());
            raw.extend_from_slice(&c.opponent.to_le_bytes());
            raw.extend_from_slice(&c.games.to_le_bytes());
            raw.extend_from_slice(&c.sum.to_le_bytes());
        }
        for &(i, alt) in &self.searched.alternatives {
            raw.extend_from_slice(&i.to_le_bytes());
            raw.push(alt.map_or(NO_SQUARE, |a| a.square));
            raw.extend_from_slice(&alt.map_or(0i16, |a| a.value).to_le_bytes());
            raw.push(alt.map_or(0, |a| a.source.to_byte()));
        }
        let s = &self.searched;
        for x in [
            s.searches as u64,
            s.checked as u64,
            s.deepened as u64,
            s.nodes,
        ] {
            raw.extend_from_slice(&x.to_le_bytes());
        }
        raw.extend_from_slice(&self.elapsed.as_secs_f64().to_bits().to_le_bytes());
        seal(&raw, |len| self.header(len))
    }

    /// Reads a part's bytes, checking the checksum and every field.
    pub fn from_bytes(bytes: &[u8]) -> Result<BookPart, PartError> {
        check_header(
            bytes,
            MAGIC,
            Some(VERSION),
            HEADER_LEN + 8,
            "a book shard part",
        )?;
        let u32_at = |i: usize| le_u32(bytes, i);
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let shard = Shard::new(u32_at(10) as usize, u32_at(14) as usize)
            .map_err(|e| PartError::Malformed(format!("the header names shard {e}")))?;
        let selectivity = u32_at(30);
        let check_margin = f64::from_bits(u64_at(38));
        let depth = u32_at(26);
        if selectivity > 5 || depth > 60 || !check_margin.is_finite() {
            return Err(PartError::Malformed("build options out of range".into()));
        }
        let options = BuildOptions {
            max_ply: u32_at(18),
            min_games: u32_at(22),
            depth,
            selectivity: selectivity as usize,
            check_games: u32_at(34),
            check_margin,
            hash_bits: u32_at(46),
            block: u32_at(50),
        };
        let weights = u64_at(54);
        let games = u64_at(62);
        let positions_seen = u64_at(70);
        let n = u32_at(78) as usize;
        let m = u32_at(82) as usize;
        let payload_len = u32_at(86) as usize;
        let expected = n
            .checked_mul(COUNTED_BYTES)
            .and_then(|a| m.checked_mul(SEARCHED_BYTES).map(|b| a + b + STATS_BYTES))
            .filter(|&x| x <= 1 << 31)
            .ok_or_else(|| PartError::Malformed(format!("{n} positions is too many")))?;
        let raw = unseal(bytes, HEADER_LEN, payload_len, expected).map_err(|e| {
            e.into_error(PartError::Malformed, |stored, computed| {
                PartError::Checksum { stored, computed }
            })
        })?;
        let r64 = |i: usize| u64::from_le_bytes(raw[i..i + 8].try_into().expect("8 bytes"));
        let r32 = |i: usize| u32::from_le_bytes(raw[i..i + 4].try_into().expect("4 bytes"));
        let counts = (0..n)
            .map(|k| {
                let at = k * COUNTED_BYTES;
                Counted {
                    player: r64(at),
                    opponent: r64(at + 8),
                    games: r32(at + 16),
                    sum: r64(at + 20) as i64,
                }
            })
            .collect();
        let mut searched = Searched::default();
        let base = n * COUNTED_BYTES;
        for k in 0..m {
            let at = base + k * SEARCHED_BYTES;
            let i = r32(at);
            let alt = match raw[at + 4] {
                NO_SQUARE => None,
                sq if sq < 64 => Some(Alternative {
                    square: sq,
                    value: i16::from_le_bytes([raw[at + 5], raw[at + 6]]),
                    source: BookSource::from_byte(raw[at + 7]).ok_or_else(|| {
                        PartError::Malformed(format!("searched position {k}: bad source"))
                    })?,
                }),
                _ => {
                    return Err(PartError::Malformed(format!(
                        "searched position {k}: bad square"
                    )));
                }
            };
            searched.alternatives.push((i, alt));
        }
        let stats = base + m * SEARCHED_BYTES;
        searched.searches = r64(stats) as usize;
        searched.checked = r64(stats + 8) as usize;
        searched.deepened = r64(stats + 16) as usize;
        searched.nodes = r64(stats + 24);
        let secs = f64::from_bits(r64(stats + 32));
        Ok(BookPart {
            shard,
            options,
            weights,
            games,
            positions_seen,
            counts,
            searched,
            elapsed: Duration::try_from_secs_f64(secs).unwrap_or_default(),
        })
    }
}

impl Part for BookPart {
    fn shard(&self) -> Shard {
        self.shard
    }
}

/// What makes `part` another build's than `first`: other options, weights or game
/// records.
/// ([`check_set`] checks the number of shards.)
fn differs((_, part): &(String, BookPart), (_, first): &(String, BookPart)) -> Option<String> {
    if part.options != first.options {
        return Some(format!(
            "other build options ({:?} against {:?})",
            part.options, first.options
        ));
    }
    if part.weights != first.weights {
        return Some("its searches used other evaluation weights".into());
    }
    if part.games != first.games
        || part.positions_seen != first.positions_seen
        || part.counts != first.counts
    {
        return Some(format!(
            "it was counted from other game records ({} games, {} book positions against {} and {})",
            part.games,
            part.counts.len(),
            first.games,
            first.counts.len()
        ));
    }
    None
}

/// The book the whole build makes, from the parts of all its shards (`(file name, part)`,
/// in any order), and the build's report (`elapsed`: the shards' search time added up).
/// Refused, naming the file, when a part is of another build (options, weights, records,
/// number of shards), a shard comes twice or is missing ([`check_set`]), or a part does
/// not hold exactly its share of the searches.
pub fn merge(parts: &[(String, BookPart)]) -> Result<(Book, BuildReport), MergeError> {
    let parts = check_set(parts, differs)?;
    let (first_name, first) = parts[0];
    let plan = Plan::from_counts(
        first.counts.clone(),
        first.games as usize,
        first.positions_seen as usize,
    )
    .map_err(|what| MergeError::Damaged {
        file: first_name.clone(),
        what,
    })?;
    let blocks = plan.search_blocks(&first.options);
    for (name, part) in &parts {
        let share: Vec<u32> = blocks
            .iter()
            .enumerate()
            .filter(|(b, _)| part.shard.contains(*b as u64))
            .flat_map(|(_, block)| block.iter().copied())
            .collect();
        let held: Vec<u32> = part.searched.alternatives.iter().map(|a| a.0).collect();
        if held != share {
            return Err(MergeError::Damaged {
                file: name.clone(),
                what: format!(
                    "shard {} holds {} searched positions, not the {} of its share",
                    part.shard,
                    held.len(),
                    share.len()
                ),
            });
        }
    }
    let searched: Vec<Searched> = parts.iter().map(|(_, p)| p.searched.clone()).collect();
    let (book, mut report) = finish(plan, &first.options, &searched);
    report.elapsed = parts.iter().map(|(_, p)| p.elapsed).sum();
    Ok((book, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::build::{build, search};
    use crate::eval::Evaluator;
    use crate::formats::records::wthor;

    fn options() -> BuildOptions {
        BuildOptions {
            max_ply: 8,
            min_games: 3,
            depth: 2,
            hash_bits: 12,
            block: 3,
            ..BuildOptions::default()
        }
    }

    fn parts(count: usize) -> Vec<(String, BookPart)> {
        let bytes = include_bytes!("../../../../tests/data/wthor-2018-sample.wtb");
        let games = wthor::parse(bytes).unwrap().1.games;
        let eval = Evaluator::shipped();
        let plan = Plan::new(&games, &options());
        (0..count)
            .map(|k| {
                let shard = Shard::new(k, count).unwrap();
                let s = search(&plan, &options(), &eval, shard, &mut |_, _| {});
                let part = BookPart::new(shard, &options(), 7, &plan, s, Duration::ZERO);
                (format!("part{}", k + 1), part)
            })
            .collect()
    }

    #[test]
    fn parts_round_trip_and_merge_into_the_whole_build() {
        let parts = parts(3);
        for (_, p) in &parts {
            assert_eq!(&BookPart::from_bytes(&p.to_bytes()).unwrap(), p);
        }
        let bytes = include_bytes!("../../../../tests/data/wthor-2018-sample.wtb");
        let games = wthor::parse(bytes).unwrap().1.games;
        let whole = build(&games, &options(), &Evaluator::shipped(), &mut |_, _| {}).0;
        let mut shuffled = parts.clone();
        shuffled.rotate_left(1);
        let (merged, report) = merge(&shuffled).unwrap();
        assert_eq!(merged.to_bytes(), whole.to_bytes());
        assert!(report.searches > 3, "more than one block to split");
    }

    #[test]
    fn parts_that_do_not_belong_are_refused_by_name() {
        let parts = parts(3);
        let err = |p: &[(String, BookPart)]| merge(p).unwrap_err().to_string();
        assert!(err(&parts[..2]).contains("shard 3/3 is missing"));
        let mut twice = parts.clone();
        twice[2] = (String::from("again"), parts[1].1.clone());
        assert!(err(&twice).contains("again and part2 are both shard 2/3"));
        let mut other = parts.clone();
        other[1].1.options.depth = 3;
        assert!(err(&other).contains("part2 does not belong with part1: other build options"));
        let mut other = parts.clone();
        other[2].1.weights = 8;
        assert!(err(&other).contains("part3 does not belong with part1: its searches used other"));
        let mut other = parts.clone();
        other[2].1.counts[0].games += 1;
        assert!(err(&other).contains("part3 does not belong with part1: it was counted"));
        let mut other = parts.clone();
        other[1].1.shard.count = 4;
        assert!(err(&other).contains("part2 does not belong with part1: it is shard 2/4"));
        let mut cut = parts.clone();
        cut[0].1.searched.alternatives.pop();
        assert!(err(&cut).contains("part1: shard 1/3 holds"));
        assert!(matches!(merge(&[]), Err(MergeError::NoParts)));

        let bytes = parts[0].1.to_bytes();
        let mut corrupt = bytes.clone();
        let n = corrupt.len();
        corrupt[n - 3] ^= 1;
        assert!(matches!(
            BookPart::from_bytes(&corrupt),
            Err(PartError::Checksum { .. }) | Err(PartError::Malformed(_))
        ));
        assert!(matches!(
            BookPart::from_bytes(&bytes[..bytes.len() - 1]),
            Err(PartError::Malformed(_))
        ));
        assert!(matches!(
            BookPart::from_bytes(b"OKAPIBOK and more"),
            Err(PartError::Header(HeaderError::Magic { .. }))
        ));
    }
}
