//! The match's openings: transcripts from a file, or balanced positions after random
//! plies.

use anyhow::{Context, anyhow, bail};
use okapi_core::board::symmetry::{Symmetry, transform};
use okapi_core::board::{Move, Position, Square};
use okapi_core::eval::Evaluator;
use okapi_core::search::{Limits, MidgameSearch, SCALE};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Reads transcripts (`f5d6c3`, `F5-D6-C3`, `f5 d6 c3`), one opening per line.
pub fn read_openings(path: &Path) -> anyhow::Result<Vec<Vec<Move>>> {
    // Capped as every reader of a person's file is (`--openings /dev/zero` grew to 2 GB);
    // the error names the file.
    let bytes = okapi_core::formats::read_capped(path, okapi_core::formats::MAX_SCRIPT_FILE)?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("the openings file {} is not text", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves =
            parse_transcript(line).map_err(|e| anyhow!("{}:{}: {e}", path.display(), i + 1))?;
        out.push(moves);
    }
    if out.is_empty() {
        bail!("{} has no openings", path.display());
    }
    Ok(out)
}

/// A transcript: moves as pairs of characters, separators ignored; checked for legality.
pub fn parse_transcript(text: &str) -> Result<Vec<Move>, String> {
    let chars: Vec<char> = text.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    if !chars.len().is_multiple_of(2) {
        return Err(format!("'{text}' is not a list of moves"));
    }
    okapi_core::formats::transcript::read_moves(&chars.iter().collect::<String>())
        .map_err(|e| e.to_string())
}

fn canonical(p: &Position) -> (u64, u64) {
    Symmetry::ALL
        .iter()
        .map(|&s| (transform(p.black(), s), transform(p.white(), s)))
        .min()
        .expect("eight symmetries")
}

/// `count` distinct openings of `plies` random moves (no passes), distinct up to the
/// board's symmetries, each balanced: a depth-6 search scores it within 2 discs.
pub fn balanced_openings(count: usize, plies: u32, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6f70_656e);
    let mut search =
        MidgameSearch::new(&Evaluator::shipped(), 16, Arc::new(AtomicBool::new(false)));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut attempts = 0;
    while out.len() < count && attempts < 200_000 {
        attempts += 1;
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal: Vec<Square> = pos.legal_moves().iter().collect();
            if legal.is_empty() {
                break;
            }
            let sq = legal[rng.random_range(0..legal.len())];
            pos.play(sq).expect("a legal move");
            moves.push(Move::Play(sq));
        }
        if moves.len() != plies as usize || !seen.insert(canonical(&pos)) {
            continue;
        }
        // Small searches would rather call a quiet position balanced than spend long.
        let Ok(v) = search.value(pos.board(), Limits::depth(6)) else {
            continue;
        };
        if v.abs() <= 2 * SCALE {
            out.push(moves);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts() {
        assert_eq!(parse_transcript("f5d6c3").unwrap().len(), 3);
        assert_eq!(parse_transcript("F5-D6-C3").unwrap().len(), 3);
        assert!(parse_transcript("f5f5").is_err());
        assert!(parse_transcript("f5d").is_err());
    }

    #[test]
    fn openings_are_distinct_balanced_and_reproducible() {
        let a = balanced_openings(6, 6, 1);
        assert_eq!(a.len(), 6);
        assert_eq!(a, balanced_openings(6, 6, 1));
        let keys: HashSet<_> = a
            .iter()
            .map(|m| {
                let mut p = Position::start();
                for &x in m {
                    p.play_move(x).unwrap();
                }
                canonical(&p)
            })
            .collect();
        assert_eq!(keys.len(), 6);
    }
}
