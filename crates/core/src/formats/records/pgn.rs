//! The PGN-like text export of the WTHOR games of 2019–2025.
//!
//! ```text
//! [Event "Beijing Open - 2019"]
//! [Date "2019"]
//! [Black "Chen Xun"]
//! [White "Chen Kai"]
//! [Result "45-19"]
//! 1. F5 D6
//! 2. C3 G5
//! ```
//! Tags in brackets, `Result` giving Black's and White's disc counts; then numbered moves.
//! Passes are not written. A new `[Event` tag after moves starts the next game.

use super::{GameRecord, Place, RecordError, RecordSet, SkippedGame, validate_moves};
use crate::board::Square;

/// One game's text while it is being collected.
#[derive(Default)]
struct Pending {
    /// The line the game starts on.
    line: usize,
    tags: Vec<(String, String)>,
    moves: Vec<String>,
}

impl Pending {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn finish(self) -> Result<PgnGame, RecordError> {
        let result = self
            .tag("Result")
            .ok_or_else(|| RecordError::Malformed("no Result tag".into()))?;
        let (b, w) = result
            .split_once('-')
            .and_then(|(b, w)| Some((b.trim().parse::<i32>().ok()?, w.trim().parse::<i32>().ok()?)))
            .filter(|&(b, w)| b >= 0 && w >= 0 && b + w <= 64)
            .ok_or_else(|| {
                RecordError::Malformed(format!("Result \"{result}\" is not two disc counts"))
            })?;
        // Empty squares go to the winner, as in WTHOR.
        let empties = 64 - b - w;
        let black_score = match b.cmp(&w) {
            std::cmp::Ordering::Greater => b - w + empties,
            std::cmp::Ordering::Less => b - w - empties,
            std::cmp::Ordering::Equal => 0,
        };
        let year = self
            .tag("Date")
            .and_then(|d| d.get(..4))
            .and_then(|y| y.parse().ok())
            .unwrap_or(0);
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let sq = Square::parse(text).map_err(|_| RecordError::BadSquare {
                index: i + 1,
                text: text.clone(),
            })?;
            moves.push(sq);
        }
        validate_moves(&moves, None)?;
        let tag = |name| self.tag(name).unwrap_or("").to_string();
        Ok(PgnGame {
            event: tag("Event"),
            black: tag("Black"),
            white: tag("White"),
            record: GameRecord {
                moves,
                black_score: black_score as i8,
                theoretical: None,
                year,
            },
        })
    }
}

/// One game of a PGN-like file with its event and players (empty when the tag is absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The moves, result and year.
    pub record: GameRecord,
    /// The `Event` tag.
    pub event: String,
    /// The `Black` tag.
    pub black: String,
    /// The `White` tag.
    pub white: String,
}

/// Reads a PGN-like file (at most [`MAX_RECORD_FILE`](crate::formats::MAX_RECORD_FILE)).
pub fn read_file(path: &std::path::Path) -> Result<RecordSet, crate::formats::ReadError> {
    let bytes = crate::formats::read_capped(path, crate::formats::MAX_RECORD_FILE)?;
    Ok(parse(&String::from_utf8_lossy(&bytes)))
}

/// Parses every game of a file; skipped games are numbered by their order in the file.
pub fn parse(text: &str) -> RecordSet {
    let (games, skipped) = parse_games(text);
    RecordSet {
        games: games.into_iter().map(|g| g.record).collect(),
        skipped,
    }
}

/// Parses every game of a file with its tags; skipped games are numbered by their order in
/// the file.
pub fn parse_games(text: &str) -> (Vec<PgnGame>, Vec<SkippedGame>) {
    let mut set = (Vec::new(), Vec::new());
    let mut pending: Option<Pending> = None;
    let mut number = 0usize;
    let flush =
        |p: Option<Pending>, set: &mut (Vec<PgnGame>, Vec<SkippedGame>), number: &mut usize| {
            if let Some(p) = p {
                *number += 1;
                let line = p.line;
                match p.finish() {
                    Ok(g) => set.0.push(g),
                    Err(reason) => set.1.push(SkippedGame {
                        number: *number,
                        at: Place::Line(line),
                        reason,
                    }),
                }
            }
        };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let start = || Pending {
            line: i + 1,
            ..Pending::default()
        };
        if line.is_empty() {
            continue;
        }
        if let Some(inner) = line.strip_prefix('[') {
            // A tag after moves starts a new game.
            if pending.as_ref().is_some_and(|p| !p.moves.is_empty()) {
                flush(pending.take(), &mut set, &mut number);
            }
            let p = pending.get_or_insert_with(start);
            let inner = inner.trim_end_matches(']');
            let (name, value) = inner.split_once(' ').unwrap_or((inner, ""));
            p.tags
                .push((name.to_string(), value.trim().trim_matches('"').to_string()));
            continue;
        }
        let p = pending.get_or_insert_with(start);
        for token in line.split_whitespace() {
            // Move numbers ("12.") and a trailing result token are not moves.
            if token.ends_with('.') || token.contains('-') && token.len() > 2 {
                continue;
            }
            p.moves.push(token.to_string());
        }
    }
    flush(pending.take(), &mut set, &mut number);
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_games_and_skips_bad_ones() {
        let text = "[Event \"A\"]\n[Date \"2019\"]\n[Result \"40-20\"]\n1. F5 D6\n2. C3 D3\n\
                    [Event \"B\"]\n[Result \"x\"]\n1. F5 D6\n\
                    [Event \"C\"]\n[Result \"30-30\"]\n1. F5 A1\n\
                    [Event \"D\"]\n[Result \"33-31\"]\n1. E6\n";
        let set = parse(text);
        let (tagged, _) = parse_games(text);
        assert_eq!(tagged[0].event, "A");
        assert_eq!(tagged[0].black, "");
        assert_eq!(set.games.len(), 2);
        assert_eq!(set.games[0].moves.len(), 4);
        assert_eq!(set.games[0].black_score, 24);
        assert_eq!(set.games[0].year, 2019);
        assert_eq!(set.games[1].black_score, 2);
        assert_eq!(set.skipped.len(), 2);
        assert_eq!(set.skipped[0].number, 2);
        assert_eq!(set.skipped[0].at, Place::Line(6));
        assert!(
            set.skipped[1]
                .to_string()
                .starts_with("game 3 (line 9): move 2"),
            "{}",
            set.skipped[1]
        );
        assert!(matches!(
            set.skipped[1].reason,
            RecordError::Illegal { index: 2, .. }
        ));
    }
}
