//! The WTHOR database format (French Othello Federation), `.wtb` game files.
//!
//! A 16-byte little-endian header: century, year, month, day of creation (u8 each), the
//! number of games (u32), an unused u16, the year of the games (u16), the board size (u8,
//! 8), the type (u8, 0 for games), the depth of the theoretical score (u8, 22 or 24) and a
//! padding byte. Then one 68-byte record per game: tournament, Black and White player
//! numbers (u16 each), Black's final disc count (u8), Black's disc count under perfect play
//! from the theoretical depth (u8), and 60 move bytes `10 * row + col` (1-based, a1 = 11,
//! h8 = 88), 0 after the last move. Passes are not stored.

use super::{
    GameRecord, Place, RecordError, RecordSet, SkippedGame, TheoreticalScore, validate_moves,
};
use crate::board::Square;
use std::path::Path;

/// Bytes of the file header.
pub const HEADER_LEN: usize = 16;
/// Bytes of one game record.
pub const RECORD_LEN: usize = 68;

/// The header of a `.wtb` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WthorHeader {
    /// Number of games the header announces.
    pub games: u32,
    /// The year of the games.
    pub year: u16,
    /// The board size as written (8, or 0 in old files, which means 8).
    pub board_size: u8,
    /// Empty squares of the position the theoretical scores are from (22 or 24).
    pub theoretical_depth: u8,
}

/// A file that is not a WTHOR game file at all (as opposed to a bad game inside one).
#[derive(Debug, thiserror::Error)]
pub enum WthorError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] crate::formats::ReadError),
    /// The header or the file length is not a WTHOR game file's.
    #[error("not a WTHOR game file: byte {offset}: {reason}")]
    Format {
        /// The byte offset at fault.
        offset: usize,
        /// What is wrong there.
        reason: String,
    },
}

/// The years a WTHOR file's games may be of: the federation's files start in 1977;
/// a header year outside this range (65535) is a damaged header, not a date.
pub const YEARS: std::ops::RangeInclusive<u16> = 1970..=2100;

/// Parses the header; refuses files that are not 8x8 game files.
pub fn parse_header(bytes: &[u8]) -> Result<WthorHeader, WthorError> {
    if bytes.len() < HEADER_LEN {
        return Err(WthorError::Format {
            offset: bytes.len(),
            reason: format!("{} bytes, shorter than the 16-byte header", bytes.len()),
        });
    }
    let games = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]);
    let year = u16::from_le_bytes([bytes[10], bytes[11]]);
    let board_size = bytes[12];
    let kind = bytes[13];
    let theoretical_depth = bytes[14];
    // Old files write 0 for an 8x8 board.
    if board_size != 8 && board_size != 0 {
        return Err(WthorError::Format {
            offset: 12,
            reason: format!("board size {board_size}, only 8x8 is supported"),
        });
    }
    if !YEARS.contains(&year) {
        return Err(WthorError::Format {
            offset: 10,
            reason: format!(
                "the games' year {year} is not a year of Othello games ({} to {})",
                YEARS.start(),
                YEARS.end()
            ),
        });
    }
    if kind != 0 {
        return Err(WthorError::Format {
            offset: 13,
            reason: format!("file type {kind} (solitaires?), expected games (0)"),
        });
    }
    Ok(WthorHeader {
        games,
        year,
        board_size: 8,
        theoretical_depth,
    })
}

/// Decodes one 68-byte record (without validating the moves).
fn decode_record(rec: &[u8], header: &WthorHeader) -> Result<GameRecord, RecordError> {
    let black_discs = rec[6];
    let theoretical_discs = rec[7];
    if black_discs > 64 {
        return Err(RecordError::Malformed(format!(
            "Black's disc count {black_discs} > 64"
        )));
    }
    let mut moves = Vec::with_capacity(60);
    let mut ended = false;
    for (i, &b) in rec[8..68].iter().enumerate() {
        if b == 0 {
            ended = true;
            continue;
        }
        if ended {
            return Err(RecordError::Malformed(format!(
                "move byte {b} after the end of the game"
            )));
        }
        let (row, col) = (b / 10, b % 10);
        if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
            return Err(RecordError::BadSquare {
                index: i + 1,
                text: format!("byte {b}"),
            });
        }
        moves.push(Square::from_coords(col as u32 - 1, row as u32 - 1));
    }
    let theoretical = (header.theoretical_depth > 0
        && theoretical_discs <= 64
        && moves.len() >= 60 - header.theoretical_depth as usize)
        .then(|| TheoreticalScore {
            empties: header.theoretical_depth,
            black_score: (2 * theoretical_discs as i32 - 64) as i8,
        });
    Ok(GameRecord {
        moves,
        black_score: (2 * black_discs as i32 - 64) as i8,
        theoretical,
        year: header.year,
    })
}

/// One game of a `.wtb` file with the numbers of its tournament and players (indices into
/// `WTHOR.TRN` and `WTHOR.JOU`, see [`parse_names`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    /// The moves, result and year.
    pub record: GameRecord,
    /// The tournament's number in `WTHOR.TRN`.
    pub tournament: u16,
    /// Black's number in `WTHOR.JOU`.
    pub black: u16,
    /// White's number in `WTHOR.JOU`.
    pub white: u16,
}

/// The games of a `.wtb` file that replayed, with their tournament and player numbers, and
/// those skipped.
#[derive(Clone, Debug, Default)]
pub struct WthorGames {
    /// The games that replayed.
    pub games: Vec<WthorGame>,
    /// The games skipped, with why.
    pub skipped: Vec<SkippedGame>,
    /// Games the header announces that the file does not hold (a file cut short; also
    /// among `skipped`, as one entry).
    pub missing_games: usize,
}

/// Reads all games of a `.wtb` file held in memory, keeping the tournament and player
/// numbers. The header's game count is checked against the file size: a truncated file
/// keeps its whole records and reports the missing ones; a file with more bytes than its
/// count accounts for is refused.
pub fn parse_games(bytes: &[u8]) -> Result<(WthorHeader, WthorGames), WthorError> {
    let header = parse_header(bytes)?;
    let body = &bytes[HEADER_LEN..];
    // The header's count must account for every byte: each of the 42 WTHOR files of
    // 1977-2018 is exactly 16 + 68 * count bytes, so more bytes than the count says means
    // a damaged header (its games would be silently left out) or another format. Fewer is
    // a cut-short file: its whole records are kept and the missing ones reported below.
    let announced = HEADER_LEN as u64 + RECORD_LEN as u64 * u64::from(header.games);
    if bytes.len() as u64 > announced {
        return Err(WthorError::Format {
            offset: 4,
            reason: format!(
                "the header counts {} games ({announced} bytes with the header) but the file has {} bytes",
                header.games,
                bytes.len()
            ),
        });
    }
    let mut set = WthorGames::default();
    let available = body.len() / RECORD_LEN;
    let le16 = |rec: &[u8], at: usize| u16::from_le_bytes([rec[at], rec[at + 1]]);
    for (i, rec) in body
        .chunks_exact(RECORD_LEN)
        .enumerate()
        .take(header.games as usize)
    {
        let number = i + 1;
        match decode_record(rec, &header).and_then(|g| validate_moves(&g.moves, None).map(|()| g)) {
            Ok(record) => set.games.push(WthorGame {
                record,
                tournament: le16(rec, 0),
                black: le16(rec, 2),
                white: le16(rec, 4),
            }),
            Err(reason) => set.skipped.push(SkippedGame {
                number,
                at: Place::Byte(HEADER_LEN + i * RECORD_LEN),
                reason,
            }),
        }
    }
    let announced = header.games as usize;
    if available < announced {
        set.missing_games = announced - available;
        set.skipped.push(SkippedGame {
            number: available + 1,
            at: Place::Byte(HEADER_LEN + available * RECORD_LEN),
            reason: RecordError::Malformed(format!(
                "file truncated: header announces {} games, {} present",
                header.games, available
            )),
        });
    }
    Ok((header, set))
}

/// Reads all games of a `.wtb` file held in memory (see [`parse_games`]).
pub fn parse(bytes: &[u8]) -> Result<(WthorHeader, RecordSet), WthorError> {
    let (header, games) = parse_games(bytes)?;
    Ok((
        header,
        RecordSet {
            games: games.games.into_iter().map(|g| g.record).collect(),
            skipped: games.skipped,
        },
    ))
}

/// Reads a `.wtb` file with its tournament and player numbers (see [`parse_games`]).
pub fn read_games_file(path: &Path) -> Result<(WthorHeader, WthorGames), WthorError> {
    let bytes = crate::formats::read_capped(path, crate::formats::MAX_RECORD_FILE)?;
    parse_games(&bytes)
}

/// The length of one name in `WTHOR.JOU` (players).
pub const PLAYER_NAME_LEN: usize = 20;
/// The length of one name in `WTHOR.TRN` (tournaments).
pub const TOURNAMENT_NAME_LEN: usize = 26;

/// Reads a WTHOR name file held in memory: `WTHOR.JOU` (`name_len` 20) or `WTHOR.TRN` (26).
/// A 16-byte header (the game files' layout, except that the number of names is the u16 at
/// byte 8; the u32 at byte 4, the game count of a game file, is 0),
/// then fixed-length Latin-1 names padded with NULs. The count is checked against the size;
/// a name is returned without its padding and trailing spaces, converted to UTF-8.
pub fn parse_names(bytes: &[u8], name_len: usize) -> Result<Vec<String>, WthorError> {
    if bytes.len() < HEADER_LEN {
        return Err(WthorError::Format {
            offset: bytes.len(),
            reason: format!("{} bytes, shorter than the 16-byte header", bytes.len()),
        });
    }
    let count = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let body = &bytes[HEADER_LEN..];
    if body.len() / name_len != count || !body.len().is_multiple_of(name_len) {
        return Err(WthorError::Format {
            offset: 8,
            reason: format!(
                "the header announces {count} names of {name_len} bytes, the file holds {} bytes of names",
                body.len()
            ),
        });
    }
    Ok(body
        .chunks_exact(name_len)
        .map(|raw| {
            let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
            // Latin-1 maps byte for byte onto the first 256 code points.
            let name: String = raw[..end].iter().map(|&b| b as char).collect();
            name.trim_end().to_string()
        })
        .collect())
}

/// Reads `WTHOR.JOU` or `WTHOR.TRN` (see [`parse_names`]).
pub fn read_names(path: &Path, name_len: usize) -> Result<Vec<String>, WthorError> {
    // The federation's files are under 100 kB; 16 MB leaves room for any growth.
    let bytes = crate::formats::read_capped(path, 16 << 20)?;
    parse_names(&bytes, name_len)
}

/// Writes a name file (tests, small extracts); names longer than `name_len - 1` bytes of
/// Latin-1 are cut, characters outside Latin-1 become `?`.
pub fn write_names(names: &[String], name_len: usize) -> Vec<u8> {
    let mut out = vec![0u8; HEADER_LEN];
    // More than 65,535 names do not fit the header's count; they are not written.
    let names = &names[..names.len().min(u16::MAX as usize)];
    out[8..10].copy_from_slice(&(names.len() as u16).to_le_bytes());
    for name in names {
        let mut raw = vec![0u8; name_len];
        for (slot, c) in raw.iter_mut().zip(name.chars().take(name_len - 1)) {
            *slot = u8::try_from(u32::from(c)).unwrap_or(b'?');
        }
        out.extend_from_slice(&raw);
    }
    out
}

/// Reads a `.wtb` file (at most [`MAX_RECORD_FILE`](crate::formats::MAX_RECORD_FILE)).
pub fn read_file(path: &Path) -> Result<(WthorHeader, RecordSet), WthorError> {
    let bytes = crate::formats::read_capped(path, crate::formats::MAX_RECORD_FILE)?;
    parse(&bytes)
}

/// Encodes games as a `.wtb` file (used by tests and to write small extracts), with
/// tournament and player numbers 0.
pub fn write(games: &[GameRecord], year: u16, theoretical_depth: u8) -> Vec<u8> {
    let games: Vec<WthorGame> = games
        .iter()
        .map(|g| WthorGame {
            record: g.clone(),
            tournament: 0,
            black: 0,
            white: 0,
        })
        .collect();
    write_games(&games, year, theoretical_depth)
}

/// Encodes games with their tournament and player numbers as a `.wtb` file.
pub fn write_games(games: &[WthorGame], year: u16, theoretical_depth: u8) -> Vec<u8> {
    let mut out = vec![0u8; HEADER_LEN];
    out[0] = 20;
    out[4..8].copy_from_slice(&(games.len() as u32).to_le_bytes());
    out[10..12].copy_from_slice(&year.to_le_bytes());
    out[12] = 8;
    out[14] = theoretical_depth;
    for wg in games {
        let g = &wg.record;
        let mut rec = [0u8; RECORD_LEN];
        rec[0..2].copy_from_slice(&wg.tournament.to_le_bytes());
        rec[2..4].copy_from_slice(&wg.black.to_le_bytes());
        rec[4..6].copy_from_slice(&wg.white.to_le_bytes());
        rec[6] = ((g.black_score as i32 + 64) / 2) as u8;
        rec[7] = g
            .theoretical
            .map_or(0, |t| ((t.black_score as i32 + 64) / 2) as u8);
        for (i, sq) in g.moves.iter().enumerate().take(60) {
            rec[8 + i] = ((sq.row() + 1) * 10 + sq.col() + 1) as u8;
        }
        out.extend_from_slice(&rec);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wthor_header_year_65535_is_refused() {
        let mut bytes = write(&[], 2000, 22);
        bytes[10..12].copy_from_slice(&65535u16.to_le_bytes());
        let e = parse(&bytes).unwrap_err().to_string();
        assert!(e.contains("byte 10: the games' year 65535"), "{e}");
        bytes[10..12].copy_from_slice(&1977u16.to_le_bytes());
        assert_eq!(parse(&bytes).unwrap().0.year, 1977);
    }

    fn game(moves: &str) -> GameRecord {
        GameRecord {
            moves: moves
                .split_whitespace()
                .map(|s| Square::parse(s).unwrap())
                .collect(),
            black_score: 10,
            theoretical: None,
            year: 2000,
        }
    }

    #[test]
    fn round_trip_and_corrupt_games_are_skipped() {
        let good = game("f5 d6 c3 d3 c4 f4");
        let bad = game("f5 a1");
        let mut bytes = write(&[good.clone(), bad, good.clone()], 2000, 22);
        // A record with an out-of-board byte.
        let mut rec = [0u8; RECORD_LEN];
        rec[8] = 99;
        bytes.extend_from_slice(&rec);
        bytes[4] = 4;
        let (header, set) = parse(&bytes).unwrap();
        assert_eq!(header.year, 2000);
        assert_eq!(header.theoretical_depth, 22);
        assert_eq!(set.games.len(), 2);
        assert_eq!(set.games[0].moves, good.moves);
        assert_eq!(set.games[0].black_score, 10);
        assert_eq!(set.skipped.len(), 2);
        assert_eq!(set.skipped[0].number, 2);
        assert!(matches!(
            set.skipped[1].reason,
            RecordError::BadSquare { .. }
        ));
    }

    #[test]
    fn truncated_and_foreign_files_never_panic() {
        let bytes = write(&[game("f5 d6"), game("f5 f6")], 1999, 24);
        let (_, set) = parse(&bytes[..HEADER_LEN + RECORD_LEN + 10]).unwrap();
        assert_eq!(set.games.len(), 1);
        assert_eq!(set.skipped.len(), 1);
        assert!(parse(&bytes[..5]).is_err());
        let mut other = bytes.clone();
        other[13] = 1;
        assert!(parse(&other).is_err());
    }

    #[test]
    fn names_and_numbers_round_trip() {
        let names = vec!["Tastet Marc".to_string(), "Léger Éric".to_string()];
        let bytes = write_names(&names, PLAYER_NAME_LEN);
        assert_eq!(bytes.len(), HEADER_LEN + 2 * PLAYER_NAME_LEN);
        assert_eq!(parse_names(&bytes, PLAYER_NAME_LEN).unwrap(), names);
        // A count that disagrees with the size, or a tournament file read as players.
        let mut bad = bytes.clone();
        bad[8] = 3;
        assert!(parse_names(&bad, PLAYER_NAME_LEN).is_err());
        assert!(parse_names(&bytes, TOURNAMENT_NAME_LEN).is_err());
        assert!(parse_names(&bytes[..3], PLAYER_NAME_LEN).is_err());
        let g = WthorGame {
            record: game("f5 d6 c3"),
            tournament: 7,
            black: 1,
            white: 0,
        };
        let (_, set) = parse_games(&write_games(std::slice::from_ref(&g), 2000, 22)).unwrap();
        assert_eq!(set.games, vec![g]);
    }

    #[test]
    fn a_header_counting_fewer_games_than_the_file_holds_is_refused() {
        let mut bytes = write(&[game("f5 d6"), game("f5 f6"), game("f5 f4")], 1999, 24);
        bytes[4] = 1;
        let err = parse(&bytes).unwrap_err().to_string();
        assert!(
            err.contains("byte 4: the header counts 1 games (84 bytes with the header) but the file has 220 bytes"),
            "{err}"
        );
        // A stray byte after the last record too.
        let mut bytes = write(&[game("f5 d6")], 1999, 24);
        bytes.push(0);
        assert!(parse(&bytes).is_err());
    }
}
