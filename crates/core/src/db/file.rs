//! The `.okdb` file: a games database on disk, in the convention of Okapi's binary files
//! ([`crate::binary`]: magic, version, a zlib payload, a checksum).
//!
//! | bytes | field (integers little-endian) |
//! |-------|-------|
//! | 8 | magic `OKAPIGDB` |
//! | 2 | format version (2; version 1 is read too) |
//! | 2 | reserved, 0 |
//! | 4 | games `G` |
//! | 4 | players `P` |
//! | 4 | tournaments `T` |
//! | 4 | sources `S` |
//! | 4 | uncompressed payload length `R` |
//! | 4 | compressed payload length `L` |
//! | L | zlib payload (below) |
//! | 8 | checksum: 64-bit FNV-1a of the 36 header bytes then the uncompressed payload |
//!
//! The payload: the `P` player names, `T` tournament names and `S` source names, UTF-8,
//! each ended by a NUL; then the games column by column (columns of small numbers
//! compress far better than rows): Black's player `u32`, White's `u32`, tournament `u32`,
//! source `u32`, year `u16`, Black's final disc difference `i8`, the theoretical score's
//! empties `u8` (0 for none) and score `i8`, the number of moves `u8` (at most 60), and
//! (from version 2) the game's kind `u8`: bit 0 set for a game not played to its end (its
//! score is no result, [`GameInfo::finished`]), bit 1 for an XOT game (its first moves
//! were drawn, not chosen, [`GameInfo::xot`]), the other bits 0; then every game's moves,
//! one byte each (square index, a1 = 0, h8 = 63).
//!
//! A version 1 file has no kinds column: its games are finished, and XOT where their
//! tournament's name says so ([`super::is_xot_event`]).
//!
//! The position index is not stored: it is built at load (`okapi bench --db` measures
//! it).

use super::{Builder, Database, DbError, GameInfo, Names};
use crate::binary::{HeaderError, check_header, le_u16, le_u32, seal, unseal};
use crate::formats::records::TheoreticalScore;

/// The file's first 8 bytes.
pub const MAGIC: &[u8; 8] = b"OKAPIGDB";
/// The format version this build writes.
pub const VERSION: u16 = 2;
/// The oldest format version this build reads (no kinds column).
pub const OLDEST_VERSION: u16 = 1;
/// A game's kind byte: not played to its end.
const UNFINISHED: u8 = 1;
/// A game's kind byte: an XOT game.
const XOT: u8 = 2;
const HEADER_LEN: usize = 36;
/// The most an `.okdb` file may hold (the whole of WTHOR is under 10 MB).
pub const MAX_FILE: u64 = 256 << 20;
/// The most its payload may unpack to (2,000,000 games of 60 moves and their columns).
const MAX_RAW: usize = 512 << 20;
/// Bytes a game takes in the columns, besides its moves.
const GAME_COLUMNS: usize = 4 * 4 + 2 + 1 + 1 + 1 + 1 + 1;

/// The file's bytes.
pub fn write(db: &Database) -> Vec<u8> {
    write_version(db, VERSION)
}

/// The file's bytes in format `version` (1 has no kinds column).
fn write_version(db: &Database, version: u16) -> Vec<u8> {
    let g = db.games.len();
    let mut raw = Vec::with_capacity(g * GAME_COLUMNS + db.moves.len());
    for names in [&db.players, &db.tournaments, &db.sources] {
        for n in names {
            raw.extend_from_slice(n.as_bytes());
            raw.push(0);
        }
    }
    let games = &db.games;
    games.iter().for_each(|x| raw.extend(x.black.to_le_bytes()));
    games.iter().for_each(|x| raw.extend(x.white.to_le_bytes()));
    games
        .iter()
        .for_each(|x| raw.extend(x.tournament.to_le_bytes()));
    games
        .iter()
        .for_each(|x| raw.extend(x.source.to_le_bytes()));
    games.iter().for_each(|x| raw.extend(x.year.to_le_bytes()));
    games.iter().for_each(|x| raw.push(x.black_score as u8));
    games
        .iter()
        .for_each(|x| raw.push(x.theoretical.map_or(0, |t| t.empties)));
    games
        .iter()
        .for_each(|x| raw.push(x.theoretical.map_or(0, |t| t.black_score) as u8));
    for id in 0..g {
        raw.push(db.moves(id).len() as u8);
    }
    if version >= 2 {
        games.iter().for_each(|x| {
            raw.push(if x.finished { 0 } else { UNFINISHED } | if x.xot { XOT } else { 0 })
        });
    }
    raw.extend_from_slice(&db.moves);
    let counts = [
        g as u32,
        db.players.len() as u32,
        db.tournaments.len() as u32,
        db.sources.len() as u32,
        raw.len() as u32,
    ];
    seal(&raw, |payload_len| {
        let mut h = Vec::with_capacity(HEADER_LEN);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&version.to_le_bytes());
        h.extend_from_slice(&0u16.to_le_bytes());
        for c in counts {
            h.extend_from_slice(&c.to_le_bytes());
        }
        h.extend_from_slice(&payload_len.to_le_bytes());
        h
    })
}

/// A cursor over the payload that reports where it ran out.
struct Reader<'a> {
    raw: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], DbError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.raw.len())
            .ok_or_else(|| {
                DbError::Malformed(format!(
                    "the payload ends at byte {} inside {what}",
                    self.raw.len()
                ))
            })?;
        let out = &self.raw[self.at..end];
        self.at = end;
        Ok(out)
    }

    /// A column of `g` little-endian `u32`s, each below `limit` (an index into a list of
    /// that many names).
    fn u32s(&mut self, g: usize, what: &str, limit: usize) -> Result<Vec<u32>, DbError> {
        let col = self.take(4 * g, what)?;
        let v: Vec<u32> = col
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if let Some(i) = v.iter().position(|&x| x as usize >= limit) {
            return Err(DbError::Malformed(format!(
                "game {}: {what} {} of {limit}",
                i + 1,
                v[i]
            )));
        }
        Ok(v)
    }

    fn names(&mut self, count: usize, what: &str) -> Result<Vec<String>, DbError> {
        let mut out = Vec::with_capacity(count.min(1 << 16));
        for i in 0..count {
            let rest = &self.raw[self.at..];
            let len = rest
                .iter()
                .position(|&b| b == 0)
                .ok_or_else(|| DbError::Malformed(format!("{what} name {} has no end", i + 1)))?;
            let name = std::str::from_utf8(&rest[..len])
                .map_err(|_| DbError::Malformed(format!("{what} name {} is not UTF-8", i + 1)))?;
            out.push(name.to_string());
            self.at += len + 1;
        }
        Ok(out)
    }
}

/// Reads a file's bytes into a [`Builder`] (not yet indexed), checking everything: a
/// corrupt or foreign file is refused with the reason, never half-read.
pub fn read(bytes: &[u8]) -> Result<Builder, DbError> {
    let (counts, raw) = unpack(bytes)?;
    let Counts {
        g,
        p,
        t,
        s,
        version,
    } = counts;
    let mut r = Reader { raw: &raw, at: 0 };
    let players = r.names(p, "player")?;
    let tournaments = r.names(t, "tournament")?;
    let sources = r.names(s, "source")?;
    let columns = Columns {
        black: r.u32s(g, "Black's player", p)?,
        white: r.u32s(g, "White's player", p)?,
        tournament: r.u32s(g, "tournament", t)?,
        source: r.u32s(g, "source", s)?,
        years: r.take(2 * g, "years")?,
        scores: r.take(g, "scores")?,
        theo_empties: r.take(g, "theoretical depths")?,
        theo_scores: r.take(g, "theoretical scores")?,
        lengths: r.take(g, "move counts")?,
        kinds: if version >= 2 {
            Some(r.take(g, "game kinds")?)
        } else {
            None
        },
    };
    let total: usize = columns.lengths.iter().map(|&n| n as usize).sum();
    let moves = r.take(total, "moves")?;
    if r.at != raw.len() {
        return Err(DbError::Malformed(format!(
            "{} bytes after the last game",
            raw.len() - r.at
        )));
    }
    let (mut games, starts) = columns.games(g)?;
    if version < 2 {
        // No kinds column: the tournament's name tells an XOT game.
        let xot: Vec<bool> = tournaments.iter().map(|t| super::is_xot_event(t)).collect();
        for game in &mut games {
            game.xot = xot[game.tournament as usize];
        }
    }
    if let Some(i) = moves.iter().position(|&m| m >= 64) {
        return Err(DbError::Malformed(format!(
            "move byte {} at {i} is not a square",
            moves[i]
        )));
    }
    Ok(Builder {
        players: Names::from_list(players),
        tournaments: Names::from_list(tournaments),
        sources: Names::from_list(sources),
        games,
        moves: moves.to_vec(),
        starts,
    })
}

/// How many games, players, tournaments and sources a file holds.
struct Counts {
    g: usize,
    p: usize,
    t: usize,
    s: usize,
    /// The file's format version.
    version: u16,
}

/// The header's counts and the checked, uncompressed payload of a file's bytes.
fn unpack(bytes: &[u8]) -> Result<(Counts, Vec<u8>), DbError> {
    const WHAT: &str = "an Okapi games database";
    check_header(bytes, MAGIC, None, HEADER_LEN + 8, WHAT)?;
    let version = le_u16(bytes, MAGIC.len());
    if !(OLDEST_VERSION..=VERSION).contains(&version) {
        return Err(HeaderError::Version {
            what: WHAT,
            found: version,
            expected: VERSION,
        }
        .into());
    }
    let game_columns = if version >= 2 {
        GAME_COLUMNS
    } else {
        GAME_COLUMNS - 1
    };
    let count = |at| le_u32(bytes, at) as usize;
    let (g, p, t, s, raw_len, payload_len) = (
        count(12),
        count(16),
        count(20),
        count(24),
        count(28),
        count(32),
    );
    if g > super::MAX_GAMES {
        return Err(DbError::TooManyGames);
    }
    if raw_len > MAX_RAW || raw_len < g * game_columns + p + t + s {
        return Err(DbError::Malformed(format!(
            "an unpacked size of {raw_len} bytes does not fit {g} games"
        )));
    }
    let raw = unseal(bytes, HEADER_LEN, payload_len, raw_len).map_err(|e| {
        e.into_error(DbError::Malformed, |stored, computed| DbError::Checksum {
            stored,
            computed,
        })
    })?;
    Ok((
        Counts {
            g,
            p,
            t,
            s,
            version,
        },
        raw,
    ))
}

/// The per-game columns of a file, read.
struct Columns<'a> {
    black: Vec<u32>,
    white: Vec<u32>,
    tournament: Vec<u32>,
    source: Vec<u32>,
    years: &'a [u8],
    scores: &'a [u8],
    theo_empties: &'a [u8],
    theo_scores: &'a [u8],
    lengths: &'a [u8],
    /// Version 2 on: each game's kind bits.
    kinds: Option<&'a [u8]>,
}

impl Columns<'_> {
    /// The `g` games' facts, and where each one's moves start in the moves (with the end
    /// after the last): refused when a game has more than 60 moves or a score beyond 64.
    fn games(&self, g: usize) -> Result<(Vec<GameInfo>, Vec<u32>), DbError> {
        let score = |b: u8, what: &str, i: usize| {
            let v = b as i8;
            if v.unsigned_abs() > 64 {
                Err(DbError::Malformed(format!("game {}: {what} {v}", i + 1)))
            } else {
                Ok(v)
            }
        };
        let mut games = Vec::with_capacity(g);
        let mut starts = Vec::with_capacity(g + 1);
        starts.push(0u32);
        let mut end = 0u32;
        for i in 0..g {
            if self.lengths[i] > 60 {
                return Err(DbError::Malformed(format!(
                    "game {}: {} moves",
                    i + 1,
                    self.lengths[i]
                )));
            }
            let kind = self.kinds.map_or(0, |k| k[i]);
            if kind & !(UNFINISHED | XOT) != 0 {
                return Err(DbError::Malformed(format!(
                    "game {}: kind {kind:#04x} has unknown bits",
                    i + 1
                )));
            }
            end += u32::from(self.lengths[i]);
            starts.push(end);
            let theoretical = match self.theo_empties[i] {
                0 => None,
                empties => Some(TheoreticalScore {
                    empties,
                    black_score: score(self.theo_scores[i], "theoretical score", i)?,
                }),
            };
            games.push(GameInfo {
                black: self.black[i],
                white: self.white[i],
                tournament: self.tournament[i],
                source: self.source[i],
                year: le_u16(self.years, 2 * i),
                black_score: score(self.scores[i], "score", i)?,
                theoretical,
                finished: kind & UNFINISHED == 0,
                xot: kind & XOT != 0,
            });
        }
        Ok((games, starts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_and_foreign_files_are_refused() {
        let db = Builder::new().build().unwrap();
        let bytes = write(&db);
        assert!(Database::from_bytes(&bytes).unwrap().is_empty());
        assert!(matches!(
            Database::from_bytes(b"OKAPIBOK"),
            Err(DbError::Header(HeaderError::Magic { .. }))
        ));
        assert!(matches!(
            Database::from_bytes(&bytes[..20]),
            Err(DbError::Header(HeaderError::Short { .. }))
        ));
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert!(matches!(
            Database::from_bytes(&v3),
            Err(DbError::Header(HeaderError::Version { found: 3, .. }))
        ));
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(matches!(
            Database::from_bytes(&flipped),
            Err(DbError::Checksum { .. })
        ));
    }

    fn record(moves: &str, black_score: i8) -> crate::formats::records::GameRecord {
        crate::formats::records::GameRecord {
            moves: crate::formats::transcript::read_moves(moves)
                .unwrap()
                .into_iter()
                .filter_map(crate::board::Move::square)
                .collect(),
            black_score,
            theoretical: None,
            year: 2025,
        }
    }

    /// A game stopped half-way and an XOT game stay what they are through the file; a
    /// version 1 file (no kinds column) reads as finished games, XOT by their tournament.
    #[test]
    fn unfinished_and_xot_games_keep_their_kind() {
        let mut b = Builder::new();
        let names = |tournament| super::super::GameNames {
            black: "A",
            white: "B",
            tournament,
            source: "test",
        };
        b.add(&record("f5d6c3d3c4", 10), names("Paris Open"))
            .unwrap();
        b.add_unfinished(&record("f5f6e6f4", 4), names("Club"))
            .unwrap();
        b.add(&record("e6f4c3c4d3", -2), names("Zurich (XOT) - 2025"))
            .unwrap();
        let db = b.build().unwrap();
        let kinds = |db: &Database| -> Vec<(bool, bool)> {
            (0..db.len())
                .map(|i| (db.game(i).finished, db.game(i).xot))
                .collect()
        };
        assert_eq!(kinds(&db), [(true, false), (false, false), (true, true)]);
        let again = Database::from_bytes(&write(&db)).unwrap();
        assert_eq!(kinds(&again), kinds(&db));
        let old = Database::from_bytes(&write_version(&db, 1)).unwrap();
        assert_eq!(kinds(&old), [(true, false), (true, false), (true, true)]);
        // Unknown kind bits are refused, not guessed at.
        let mut b = Builder::new();
        b.add(&record("f5", 0), names("x")).unwrap();
        let mut one = b.build().unwrap();
        one.games[0].finished = false;
        let bytes = write(&one);
        let (_, mut raw) = unpack(&bytes).unwrap();
        let at = raw.len() - 1 - 1; // the kinds byte, before the one move
        assert_eq!(raw[at], UNFINISHED);
        raw[at] = 0x80;
        let counts = [1u32, 2, 1, 1, raw.len() as u32];
        let forged = seal(&raw, |payload_len| {
            let mut h = Vec::with_capacity(HEADER_LEN);
            h.extend_from_slice(MAGIC);
            h.extend_from_slice(&VERSION.to_le_bytes());
            h.extend_from_slice(&0u16.to_le_bytes());
            for c in counts {
                h.extend_from_slice(&c.to_le_bytes());
            }
            h.extend_from_slice(&payload_len.to_le_bytes());
            h
        });
        let err = Database::from_bytes(&forged).unwrap_err().to_string();
        assert!(err.contains("unknown bits"), "{err}");
    }
}
