//! Test positions with known answers, as `okapi bench` and the solver's tests read them:
//! the FFO script files (`tests/data/ffo*.scr`; each line's comment holds its answer,
//! `% ffo#NN best:G8,A5 score:+18`) and Edax OBF files (`fforum-40-59.obf`; every move
//! with its score).
//!
//! ```
//! use okapi_core::formats::test_positions::parse_ffo_comment;
//! let (number, best, score) = parse_ffo_comment("% ffo#59 best:G8 score:-64").unwrap();
//! assert_eq!((number, best.len(), score), (59, 1, -64));
//! ```

use super::{MAX_SCRIPT_FILE, ReadError, obf, read_capped, script};
use crate::board::{Move, Position};
use std::path::{Path, PathBuf};

/// A test position and its expected answer, when the file gives one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestPosition {
    /// The FFO number (or the position's rank in a file without numbers).
    pub number: u32,
    /// The position and the side to move.
    pub position: Position,
    /// The exact score for the side to move, when known.
    pub expected_score: Option<i32>,
    /// The moves known to reach the expected score (empty if not known).
    pub best_moves: Vec<Move>,
}

/// Why a file of test positions could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TestPositionsError {
    /// The file could not be read (missing, unreadable, too large).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A line is not a position of the format.
    #[error("{}:{line}: {error}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong on it.
        error: String,
    },
    /// The number in an OBF file's name does not fit the positions it holds.
    #[error("{}: {error}", path.display())]
    Name {
        /// The file.
        path: PathBuf,
        /// What is wrong with its name.
        error: String,
    },
}

/// The answer in an FFO comment `ffo#NN best:<moves> score:<score>`: the number, the best
/// moves and the score; `None` for any other comment.
pub fn parse_ffo_comment(comment: &str) -> Option<(u32, Vec<Move>, i32)> {
    let start = comment.find("ffo#")? + 4;
    let digits: String = comment[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let number = digits.parse().ok()?;
    let field = |name: &str| {
        comment
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name))
            .map(str::to_string)
    };
    let best = field("best:")?
        .split(',')
        .map(Move::parse)
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    let score = field("score:")?.trim_start_matches('+').parse().ok()?;
    Some((number, best, score))
}

/// Reads the test positions of a script (numbers and answers from FFO comments; a
/// position without one is numbered by its rank) or of an OBF file (`.obf`: numbered
/// from the first number of a `fforum-40-59.obf` style name, else from 1).
pub fn read(path: &Path) -> Result<Vec<TestPosition>, TestPositionsError> {
    let bytes = read_capped(path, MAX_SCRIPT_FILE)?;
    let is_obf = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("obf"));
    if is_obf {
        read_obf(path, &bytes)
    } else {
        read_script(path, &bytes)
    }
}

fn read_obf(path: &Path, bytes: &[u8]) -> Result<Vec<TestPosition>, TestPositionsError> {
    let entries = obf::parse_file(bytes).map_err(|e| TestPositionsError::Line {
        path: path.into(),
        line: e.line,
        error: e.error.to_string(),
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    let first = obf::first_number_in_name(&stem, entries.len())
        .map_err(|error| TestPositionsError::Name {
            path: path.into(),
            error,
        })?
        .unwrap_or(1);
    Ok(entries
        .into_iter()
        .enumerate()
        .map(|(i, (_, entry))| TestPosition {
            number: first + i as u32,
            expected_score: entry.best_score(),
            best_moves: entry.best_moves(),
            position: entry.position,
        })
        .collect())
}

fn read_script(path: &Path, bytes: &[u8]) -> Result<Vec<TestPosition>, TestPositionsError> {
    let mut out = Vec::new();
    for line in script::parse_script(bytes) {
        match line.parsed {
            Ok(script::ScriptLine::Position { position, comment }) => {
                let known = comment.as_deref().and_then(parse_ffo_comment);
                let rank = out.len() as u32 + 1;
                out.push(match known {
                    Some((number, best_moves, score)) => TestPosition {
                        number,
                        position,
                        expected_score: Some(score),
                        best_moves,
                    },
                    None => TestPosition {
                        number: rank,
                        position,
                        expected_score: None,
                        best_moves: vec![],
                    },
                });
            }
            Ok(_) => {}
            Err(bad) => {
                return Err(TestPositionsError::Line {
                    path: path.into(),
                    line: line.number,
                    error: bad.error.to_string(),
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn data(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data")
            .join(name)
    }

    #[test]
    fn ffo_comments() {
        let (n, best, score) = parse_ffo_comment("% ffo#04 best:H8,A5 score:+0").unwrap();
        assert_eq!(n, 4);
        assert_eq!(
            best,
            vec![
                Move::Play(Square::parse("h8").unwrap()),
                Move::Play(Square::parse("a5").unwrap())
            ]
        );
        assert_eq!(score, 0);
        assert_eq!(
            parse_ffo_comment("% ffo#59 best:G8 score:-64").unwrap().2,
            -64
        );
        assert_eq!(parse_ffo_comment("% just a comment"), None);
    }

    #[test]
    fn ffo_files_read_with_answers() {
        let ps = read(&data("ffo40-59.scr")).unwrap();
        assert_eq!(ps.len(), 20);
        assert!(
            ps.iter()
                .enumerate()
                .all(|(i, p)| p.number == 40 + i as u32 && p.expected_score.is_some())
        );
        let obf = read(&data("fforum-40-59.obf")).unwrap();
        assert_eq!(obf.len(), 20);
        assert_eq!(obf[0].number, 40);
        assert_eq!(obf[0].expected_score, Some(38));
        assert_eq!(obf[0].position, ps[0].position);
    }

    #[test]
    fn a_bad_line_is_named_by_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.scr");
        std::fs::write(&path, "% a comment\nnot a board X\n").unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{}:2: ", path.display())), "{e}");
        let missing = read(&dir.path().join("missing.scr")).unwrap_err();
        assert!(matches!(missing, TestPositionsError::Read(_)), "{missing}");
    }
}
