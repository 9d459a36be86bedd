//! OBF files and script comments: the expected answers a script or an OBF file gives,
//! read beside its positions.

use okapi_core::board::Move;
use okapi_core::formats::script::{self, NumberedLine, ScriptLine};

/// What a line says the answer is: its line number, score and best moves.
pub type Expected = (usize, Option<i32>, Vec<Move>);

/// Reads `best:G8` and `score:+18` from a script line's comment (FFO scripts have them;
/// `best:` may list several moves separated by `/` or `,`).
pub fn expected_from_comment(comment: &str) -> (Option<i32>, Vec<Move>) {
    let mut score = None;
    let mut best = Vec::new();
    for word in comment.split_whitespace() {
        let lower = word.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("score:") {
            score = v.trim_start_matches('+').parse().ok();
        } else if let Some(v) = lower.strip_prefix("best:") {
            best = v
                .split(['/', ','])
                .filter_map(|m| Move::parse(m).ok())
                .collect();
        }
    }
    (score, best)
}

/// Reads an OBF file as script lines: each `board side; MOVE:score; ...` line is the
/// position `board side` (the move fields are not part of the scrZebra output; their best
/// score is returned per line number, to compare with the result); `%` comments are kept
/// as in a script; blank lines and `#` comments give nothing.
pub fn parse_obf(bytes: &[u8]) -> (Vec<NumberedLine>, Vec<Expected>) {
    let mut lines = Vec::new();
    let mut expected = Vec::new();
    for (i, raw) in script::raw_lines(bytes).enumerate() {
        let number = i + 1;
        let text = String::from_utf8_lossy(raw);
        let trimmed = text.trim();
        let parsed = if trimmed.starts_with('#') {
            Ok(ScriptLine::Blank)
        } else if let Some((board, _fields)) = text.split_once(';') {
            let entry = okapi_core::formats::obf::parse_line(&text).ok().flatten();
            expected.push((
                number,
                entry.as_ref().and_then(|e| e.best_score()),
                entry.map(|e| e.best_moves()).unwrap_or_default(),
            ));
            script::parse_line(board)
        } else {
            script::parse_line(&text)
        };
        let end = matches!(parsed, Ok(ScriptLine::End(_)));
        lines.push(NumberedLine {
            number,
            raw: raw.to_vec(),
            parsed,
        });
        if end {
            break;
        }
    }
    (lines, expected)
}
