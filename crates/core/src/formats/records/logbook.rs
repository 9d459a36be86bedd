//! Logistello's book games (`logbook.gam`, published by Michael Buro): one game per line,
//! `+d3-c3+c4...: -04 10` — each move with `+` for Black or `-` for White (so passes are
//! visible as two moves of one colour), a colon, then Black's final disc difference and a
//! number we ignore.

use super::{GameRecord, Place, RecordError, RecordSet, SkippedGame, validate_moves};
use crate::board::Square;
use std::io::BufRead;

/// Parses one line.
pub fn parse_line(line: &str) -> Result<GameRecord, RecordError> {
    let (moves_text, rest) = line
        .split_once(':')
        .ok_or_else(|| RecordError::Malformed("no ':' before the result".into()))?;
    let score_text = rest.split_whitespace().next().unwrap_or("");
    let black_score: i32 = score_text
        .trim_start_matches('+')
        .parse()
        .ok()
        .filter(|s: &i32| s.abs() <= 64)
        .ok_or_else(|| {
            RecordError::Malformed(format!("result '{score_text}' is not a disc difference"))
        })?;
    let bytes = moves_text.trim().as_bytes();
    if bytes.len() % 3 != 0 {
        return Err(RecordError::Malformed(
            "moves are not in +xy / -xy groups".into(),
        ));
    }
    let mut moves = Vec::with_capacity(bytes.len() / 3);
    let mut colours = Vec::with_capacity(bytes.len() / 3);
    for (i, chunk) in bytes.chunks(3).enumerate() {
        let black = match chunk[0] {
            b'+' => true,
            b'-' => false,
            _ => {
                return Err(RecordError::Malformed(format!(
                    "move {} has no +/- colour",
                    i + 1
                )));
            }
        };
        let text = String::from_utf8_lossy(&chunk[1..]).into_owned();
        let sq = Square::parse(&text).map_err(|_| RecordError::BadSquare { index: i + 1, text })?;
        moves.push(sq);
        colours.push(black);
    }
    validate_moves(&moves, Some(&colours))?;
    Ok(GameRecord {
        moves,
        black_score: black_score as i8,
        theoretical: None,
        year: 0,
    })
}

/// Parses every line of a (decompressed) logbook; skipped games are numbered by line.
pub fn parse<R: BufRead>(reader: R) -> std::io::Result<RecordSet> {
    let mut set = RecordSet::default();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match parse_line(&line) {
            Ok(g) => set.games.push(g),
            Err(reason) => set.skipped.push(SkippedGame {
                number: i + 1,
                at: Place::Line(i + 1),
                reason,
            }),
        }
    }
    Ok(set)
}

/// Reads `logbook.gam` or `logbook.gam.gz` (gzip detected by its magic bytes); the file
/// and its unpacked text are each capped at [`MAX_RECORD_FILE`](crate::formats::MAX_RECORD_FILE).
pub fn read_file(path: &std::path::Path) -> Result<RecordSet, crate::formats::ReadError> {
    use crate::formats::{CapError, MAX_RECORD_FILE, ReadError, read_capped, read_capped_from};
    let bytes = read_capped(path, MAX_RECORD_FILE)?;
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        read_capped_from(flate2::read::GzDecoder::new(&bytes[..]), MAX_RECORD_FILE).map_err(
            |e| match e {
                CapError::Io(reason) => ReadError::Io {
                    path: path.into(),
                    reason,
                },
                CapError::TooLarge => ReadError::TooLarge {
                    path: path.into(),
                    limit: MAX_RECORD_FILE,
                },
            },
        )?
    } else {
        bytes
    };
    Ok(parse_text(&String::from_utf8_lossy(&text)))
}

/// Parses every line of a (decompressed) logbook held in memory.
pub fn parse_text(text: &str) -> RecordSet {
    parse(text.as_bytes()).expect("reading memory cannot fail")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_with_passes_and_refuses_bad_ones() {
        let text = "+f5-d6+c3-d3: +04 10\n+f5+d6: -02 1\nnonsense\n+f5-f6: -64 0\n";
        let set = parse(text.as_bytes()).unwrap();
        assert_eq!(set.games.len(), 2);
        assert_eq!(set.games[0].black_score, 4);
        assert_eq!(set.games[1].black_score, -64);
        assert_eq!(set.skipped.len(), 2);
        assert_eq!(set.skipped[0].number, 2);
        assert!(matches!(
            set.skipped[0].reason,
            RecordError::WrongColour { index: 2, .. }
        ));
    }
}
