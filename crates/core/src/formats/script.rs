//! The scrZebra endgame script format: positions to solve in, one result line per input
//! line out.
//!
//! The contract is scrZebra's, written down in `docs/formats.md` ("Endgame scripts"); in short:
//! - a line whose first character is `%` is a comment, copied unchanged; one beginning
//!   with [`END_MARKER`] is copied and ends the script;
//! - a blank line is skipped (nothing is written);
//! - any other line holds a 64-character board (a1, b1, ..., h8; `X * x` Black, `O 0 o`
//!   White, `- .` empty), white space and the side to move (`X`/`*` or `O`/`0`), then
//!   optionally a trailing comment from the first `%` to the end of the line;
//! - a result is `"%2d - %2d"` (Black - White, empties to the winner) or `Black win`,
//!   `Draw`, `White win`; with lines, three spaces and ` move` for each move (`--` for a
//!   pass); then six spaces and the trailing comment, if any.
//!
//! Parsing and formatting here are pure: solving is `engine::script_solve`, files are read
//! by the callers (capped by [`super::MAX_SCRIPT_FILE`]).
//!
//! ```
//! use okapi_core::board::Color;
//! use okapi_core::formats::script::{format_result, Outcome};
//! let outcome = Outcome::exact(Color::White, -12);
//! assert_eq!(format_result(outcome, None, Some("% Ah!")), "38 - 26      % Ah!");
//! assert_eq!(format_result(Outcome::wld(Color::White, -1), None, None), "Black win");
//! ```

use crate::board::{Color, Move, ParseBoardError, PlayError, Position};
use std::fmt;

/// A comment line beginning with this is copied to the output and ends the script.
pub const END_MARKER: &str = "% End of the endgame script";

/// What one input line holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptLine {
    /// A comment line, copied to the output as it is.
    Comment(String),
    /// The end marker line: copied to the output, then later lines are ignored.
    End(String),
    /// A blank line: nothing is written for it.
    Blank,
    /// A position to solve, and its trailing comment (from `%` to the end of the line).
    Position {
        /// The position and the side to move.
        position: Position,
        /// The trailing comment, from its `%` to the end of the line, if any.
        comment: Option<String>,
    },
}

/// Why a position line holds no valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The board and side are not a board string (see [`Position::parse`]).
    #[error(transparent)]
    Board(#[from] ParseBoardError),
    /// Words after the side to move that are not a comment (the words found).
    #[error("unexpected text '{0}' after the side to move (a trailing comment starts with %)")]
    TextAfterSide(String),
}

/// A position line that could not be parsed; its trailing comment is kept for the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// What is wrong with the line.
    pub error: LineError,
    /// Its trailing comment, from its `%`, if any.
    pub comment: Option<String>,
}

/// One line of a script with its 1-based line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberedLine {
    /// The line number, from 1.
    pub number: usize,
    /// The line as it is in the file, without its line end.
    pub raw: Vec<u8>,
    /// The line as read, or why it holds no valid position.
    pub parsed: Result<ScriptLine, BadLine>,
}

impl NumberedLine {
    /// The trailing comment of a position line (from the first `%`) with its bytes as in
    /// the file, whatever their encoding, so the output copies it exactly.
    pub fn raw_trailing_comment(&self) -> Option<&[u8]> {
        match &self.parsed {
            Ok(ScriptLine::Position {
                comment: Some(_), ..
            })
            | Err(BadLine {
                comment: Some(_), ..
            }) => self
                .raw
                .iter()
                .position(|&b| b == b'%')
                .map(|i| &self.raw[i..]),
            _ => None,
        }
    }
}

/// Parses one line (without its line end).
///
/// A line whose first non-blank character is `%` counts as a comment: a comment indented
/// by mistake is still a comment, not a board of zero squares.
pub fn parse_line(line: &str) -> Result<ScriptLine, BadLine> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() {
        return Ok(ScriptLine::Blank);
    }
    if trimmed.starts_with('%') {
        return Ok(if trimmed.starts_with(END_MARKER) {
            ScriptLine::End(line.to_string())
        } else {
            ScriptLine::Comment(line.to_string())
        });
    }
    let (body, comment) = match line.find('%') {
        Some(i) => (&line[..i], Some(line[i..].to_string())),
        None => (line, None),
    };
    let bad = |error: LineError| BadLine {
        error,
        comment: comment.clone(),
    };
    let position = Position::parse(body).map_err(|e| bad(e.into()))?;
    let extra: Vec<&str> = body.split_whitespace().skip(2).collect();
    if !extra.is_empty() {
        return Err(bad(LineError::TextAfterSide(extra.join(" "))));
    }
    Ok(ScriptLine::Position { position, comment })
}

/// Parses a whole script, up to and including the end marker line (later lines are not
/// returned). Never fails: bad lines are returned as such, with their numbers.
pub fn parse_script(bytes: &[u8]) -> Vec<NumberedLine> {
    let mut out = Vec::new();
    for (i, raw) in raw_lines(bytes).enumerate() {
        let parsed = parse_line(&decode(raw));
        let end = matches!(parsed, Ok(ScriptLine::End(_)));
        out.push(NumberedLine {
            number: i + 1,
            raw: raw.to_vec(),
            parsed,
        });
        if end {
            break;
        }
    }
    out
}

/// Splits text into lines without their line ends (`\n` or `\r\n`), decoding each line as
/// UTF-8, or as Latin-1 when it is not valid UTF-8 (old Othello files often are), so no
/// line is ever refused for its encoding.
pub fn text_lines(bytes: &[u8]) -> impl Iterator<Item = String> + '_ {
    raw_lines(bytes).map(decode)
}

/// Splits bytes into lines without their line ends: `\n`, `\r\n`, or a lone `\r` (old
/// Mac files), so a file saved with any of them gives the same lines. A UTF-8 byte-order
/// mark at the start (Windows editors write one) is not part of the first line.
pub fn raw_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> + '_ {
    let mut rest = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .unwrap_or(rest.len());
        let line = &rest[..end];
        let after = match rest.get(end..end + 2) {
            Some(b"\r\n") => end + 2,
            _ => (end + 1).min(rest.len()),
        };
        rest = &rest[after..];
        Some(line)
    })
}

/// UTF-8, or Latin-1 when the bytes are not valid UTF-8.
fn decode(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) => s.to_string(),
        Err(_) => raw.iter().map(|&b| b as char).collect(),
    }
}

/// An output line as bytes: `main` (a result or error), then, if there is a trailing
/// comment, six spaces and the comment's bytes as they were in the input.
pub fn with_raw_comment(main: &str, comment: Option<&[u8]>) -> Vec<u8> {
    let mut out = main.as_bytes().to_vec();
    if let Some(c) = comment {
        out.extend_from_slice(b"      ");
        out.extend_from_slice(c);
    }
    out
}

/// The output bytes of one script line, without the line end: a comment or the end marker
/// as it is, a bad line's `% error:` line, a position's result (`solved`: its outcome and,
/// in line mode, its line). `None` when nothing is written: a blank line, or a position not
/// solved (yet). The command line and the app both write through this, so their files are
/// the same.
pub fn output_line(
    line: &NumberedLine,
    solved: Option<(Outcome, Option<&[Move]>)>,
) -> Option<Vec<u8>> {
    let comment = line.raw_trailing_comment();
    match &line.parsed {
        Ok(ScriptLine::Blank) => None,
        Ok(ScriptLine::Comment(_)) | Ok(ScriptLine::End(_)) => Some(line.raw.clone()),
        Err(BadLine { error, .. }) => Some(with_raw_comment(
            &format_error(&error.to_string(), None),
            comment,
        )),
        Ok(ScriptLine::Position { .. }) => {
            let (outcome, moves) = solved?;
            Some(with_raw_comment(
                &format_result(outcome, moves, None),
                comment,
            ))
        }
    }
}

/// Win, draw or loss, said from Black's side as the script format does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Wld {
    /// Black wins.
    BlackWin,
    /// Neither wins: 32-32.
    Draw,
    /// White wins.
    WhiteWin,
}

/// The result of a position in absolute colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Final disc counts under perfect play, empties to the winner (they sum to 64).
    Exact {
        /// Black's final disc count.
        black: u32,
        /// White's final disc count.
        white: u32,
    },
    /// Only who wins.
    Wld(Wld),
}

impl Outcome {
    /// From an exact score (final disc difference, empties to the winner) for `side`.
    pub fn exact(side: Color, score: i32) -> Outcome {
        let black_diff = if side == Color::Black { score } else { -score };
        let black = (64 + black_diff).clamp(0, 128) as u32 / 2;
        Outcome::Exact {
            black,
            white: 64 - black,
        }
    }

    /// From a win/draw/loss sign (1, 0, -1, or any score's sign) for `side`.
    pub fn wld(side: Color, sign: i32) -> Outcome {
        let black_sign = if side == Color::Black {
            sign.signum()
        } else {
            -sign.signum()
        };
        Outcome::Wld(match black_sign {
            1 => Wld::BlackWin,
            0 => Wld::Draw,
            _ => Wld::WhiteWin,
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Exact { black, white } => write!(f, "{black:2} - {white:2}"),
            Outcome::Wld(Wld::BlackWin) => f.write_str("Black win"),
            Outcome::Wld(Wld::Draw) => f.write_str("Draw"),
            Outcome::Wld(Wld::WhiteWin) => f.write_str("White win"),
        }
    }
}

/// A line in script form: three spaces, then a space and each move (`--` for a pass).
pub fn format_moves(moves: &[Move]) -> String {
    let mut s = String::from("   ");
    for mv in moves {
        s.push(' ');
        s.push_str(&mv.to_string());
    }
    s
}

/// The output line for a solved position, without the line end. `line` is given only in
/// line mode and is left out when empty (a finished game has none).
pub fn format_result(outcome: Outcome, line: Option<&[Move]>, comment: Option<&str>) -> String {
    let mut s = outcome.to_string();
    if let Some(moves) = line.filter(|m| !m.is_empty()) {
        s.push_str(&format_moves(moves));
    }
    push_comment(&mut s, comment);
    s
}

/// Why a result line was not read: what, and at which character (from 0).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("character {offset}: {reason}")]
pub struct ResultLineError {
    /// The character offset, from 0.
    pub offset: usize,
    /// What is wrong there.
    pub reason: String,
}

/// A result line read back: the outcome, the line if one is written, the trailing
/// comment (from its `%`).
pub type ResultLine = (Outcome, Option<Vec<Move>>, Option<String>);

/// Reads a result line as [`format_result`] writes it (checking solved files, the round
/// trip of the format).
pub fn parse_result(text: &str) -> Result<ResultLine, ResultLineError> {
    let bad = |offset: usize, reason: &str| ResultLineError {
        offset: text[..offset.min(text.len())].chars().count(),
        reason: reason.into(),
    };
    let (main, comment) = match text.find('%') {
        Some(i) => {
            let main = text[..i]
                .strip_suffix("      ")
                .ok_or_else(|| bad(i, "a comment follows six spaces"))?;
            (main, Some(text[i..].to_string()))
        }
        None => (text, None),
    };
    let (outcome, rest) = if let Some(rest) = main.strip_prefix("Black win") {
        (Outcome::Wld(Wld::BlackWin), rest)
    } else if let Some(rest) = main.strip_prefix("White win") {
        (Outcome::Wld(Wld::WhiteWin), rest)
    } else if let Some(rest) = main.strip_prefix("Draw") {
        (Outcome::Wld(Wld::Draw), rest)
    } else {
        let counts = main.get(..7).ok_or_else(|| bad(0, "not a result"))?;
        let (b, w) = counts
            .split_once(" - ")
            .ok_or_else(|| bad(0, "not 'black - white'"))?;
        let count = |t: &str, at: usize| {
            t.trim_start()
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= 64 && t.len() == 2)
                .ok_or_else(|| bad(at, "a disc count is two characters, 0 to 64"))
        };
        let (black, white) = (count(b, 0)?, count(w, 5)?);
        if black + white != 64 {
            return Err(bad(0, "the disc counts do not add up to 64"));
        }
        (Outcome::Exact { black, white }, &main[7..])
    };
    let at = main.len() - rest.len();
    if rest.is_empty() {
        return Ok((outcome, None, comment));
    }
    let moves_text = rest
        .strip_prefix("    ")
        .ok_or_else(|| bad(at, "a line follows three spaces"))?;
    let mut moves = Vec::new();
    let mut offset = at + 4;
    for word in moves_text.split(' ') {
        let mv = Move::parse(word).map_err(|e| bad(offset, &e.to_string()))?;
        moves.push(mv);
        offset += word.len() + 1;
    }
    Ok((outcome, Some(moves), comment))
}

/// The output line for a bad position line: `% error: ` and the reason, then the trailing
/// comment like a result would have it, so the output stays aligned with the input.
pub fn format_error(reason: &str, comment: Option<&str>) -> String {
    let mut s = format!("% error: {reason}");
    push_comment(&mut s, comment);
    s
}

/// Replays a line from `position`: the position reached, or the index of the first move
/// that is not legal and why. Checks lines read back from a result file.
pub fn replay(position: &Position, moves: &[Move]) -> Result<Position, (usize, PlayError)> {
    let mut p = *position;
    for (i, &mv) in moves.iter().enumerate() {
        p.play_move(mv).map_err(|e| (i, e))?;
    }
    Ok(p)
}

fn push_comment(s: &mut String, comment: Option<&str>) {
    if let Some(c) = comment {
        s.push_str("      ");
        s.push_str(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_and_every_line_end_give_the_same_lines() {
        let want: Vec<&[u8]> = vec![b"% c", b"", b"x"];
        for text in [
            &b"% c\n\nx\n"[..],
            b"% c\r\n\r\nx\r\n",
            b"% c\r\rx\r",
            b"% c\r\rx",
            b"\xEF\xBB\xBF% c\n\nx",
            b"\xEF\xBB\xBF% c\r\rx\r",
        ] {
            assert_eq!(raw_lines(text).collect::<Vec<_>>(), want, "{text:?}");
        }
        assert_eq!(raw_lines(b"").count(), 0);
        assert_eq!(raw_lines(b"\n").collect::<Vec<_>>(), vec![&b""[..]]);
        // A BOM script's first position and a CR-only script's positions are read.
        let board = "XO---XXX-OOO-OOO-OOOOOO---OOXO---OOXOOO-OOXOOOOOXXXXX---XXXXXX-- X";
        let bom = format!("\u{feff}{board}\n");
        assert!(matches!(
            parse_script(bom.as_bytes())[0].parsed,
            Ok(ScriptLine::Position { .. })
        ));
        let cr = format!("% one\r{board}\r{board} % two\r");
        let lines = parse_script(cr.as_bytes());
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[2].number, 3);
        assert!(
            lines[1..]
                .iter()
                .all(|l| matches!(l.parsed, Ok(ScriptLine::Position { .. })))
        );
    }

    #[test]
    fn a_board_without_discs_is_refused() {
        let line = format!("{} X % empty", "-".repeat(64));
        let err = parse_line(&line).unwrap_err();
        assert_eq!(err.error, LineError::Board(ParseBoardError::NoDiscs));
        assert_eq!(err.comment.as_deref(), Some("% empty"));
        assert!(err.error.to_string().contains("no discs"));
    }
    use crate::board::Square;

    const SPEC_INPUT: &str = "% Here's a bunch of lopsided positions
XO---XXX-OOO-OOO-OOOOOO---OOXO---OOXOOO-OOXOOOOOXXXXX---XXXXXX-- X % Comment for position 1
OOOOOOOOOOOOOOOXOXOXXXX-OOOOXX-OOOOOXX--OOXXO---OX--XO--X------- X % Do close positions exist in Othello?
--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O % Ah! This one is closer.
% End of the endgame script
";

    fn mv(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    #[test]
    fn spec_example_parses() {
        let lines = parse_script(SPEC_INPUT.as_bytes());
        assert_eq!(lines.len(), 5);
        assert_eq!(
            lines[0].parsed,
            Ok(ScriptLine::Comment(
                "% Here's a bunch of lopsided positions".into()
            ))
        );
        match &lines[3].parsed {
            Ok(ScriptLine::Position { position, comment }) => {
                assert_eq!(position.side_to_move(), Color::White);
                assert_eq!(position.empty_count(), 23);
                assert_eq!(comment.as_deref(), Some("% Ah! This one is closer."));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            lines[4].parsed,
            Ok(ScriptLine::End("% End of the endgame script".into()))
        );
        assert_eq!(lines[4].number, 5);
    }

    /// The spec's output lines from the spec's results (the solving is checked in
    /// `tests/script_spec.rs` through the real binary).
    #[test]
    fn spec_example_formats_byte_for_byte() {
        let c1 = Some("% Comment for position 1");
        assert_eq!(
            format_result(Outcome::exact(Color::Black, 62), None, c1),
            "63 -  1      % Comment for position 1"
        );
        assert_eq!(
            format_result(
                Outcome::exact(Color::Black, -56),
                None,
                Some("% Do close positions exist in Othello?")
            ),
            " 4 - 60      % Do close positions exist in Othello?"
        );
        assert_eq!(
            format_result(Outcome::exact(Color::White, -12), None, None),
            "38 - 26"
        );
        assert_eq!(
            format_result(Outcome::wld(Color::Black, 1), None, c1),
            "Black win      % Comment for position 1"
        );
        assert_eq!(
            format_result(Outcome::wld(Color::Black, -1), None, None),
            "White win"
        );
        assert_eq!(
            format_result(Outcome::wld(Color::White, 0), None, None),
            "Draw"
        );
        let line: Vec<Move> = "b4 a5 a4 a3 h3 -- a2 -- h5 h4 e1 c1 g4"
            .split(' ')
            .map(mv)
            .collect();
        assert_eq!(
            format_result(Outcome::exact(Color::Black, 62), Some(&line), c1),
            "63 -  1    b4 a5 a4 a3 h3 -- a2 -- h5 h4 e1 c1 g4      % Comment for position 1"
        );
    }

    #[test]
    fn exact_counts_sum_to_64() {
        assert_eq!(
            Outcome::exact(Color::Black, 0),
            Outcome::Exact {
                black: 32,
                white: 32
            }
        );
        assert_eq!(
            Outcome::exact(Color::White, 64),
            Outcome::Exact {
                black: 0,
                white: 64
            }
        );
        assert_eq!(
            Outcome::exact(Color::White, -64),
            Outcome::Exact {
                black: 64,
                white: 0
            }
        );
        assert_eq!(Outcome::exact(Color::Black, -2).to_string(), "31 - 33");
        assert_eq!(Outcome::exact(Color::Black, 60).to_string(), "62 -  2");
        assert_eq!(Outcome::exact(Color::White, 64).to_string(), " 0 - 64");
    }

    #[test]
    fn lines_with_passes_and_empty_lines() {
        let line = [Move::Pass, Move::Play(Square::parse("a8").unwrap())];
        assert_eq!(
            format_result(Outcome::wld(Color::Black, 0), Some(&line), None),
            "Draw    -- a8"
        );
        assert_eq!(
            format_result(Outcome::exact(Color::Black, 0), Some(&[]), None),
            "32 - 32"
        );
    }

    #[test]
    fn comments_blank_and_end() {
        assert_eq!(parse_line(""), Ok(ScriptLine::Blank));
        assert_eq!(parse_line(" \t "), Ok(ScriptLine::Blank));
        assert_eq!(parse_line("%"), Ok(ScriptLine::Comment("%".into())));
        assert_eq!(
            parse_line("  % indented"),
            Ok(ScriptLine::Comment("  % indented".into()))
        );
        assert_eq!(
            parse_line("% End of the endgame script, really"),
            Ok(ScriptLine::End(
                "% End of the endgame script, really".into()
            ))
        );
        // Not the marker: only a comment.
        assert_eq!(
            parse_line("% end of the endgame script"),
            Ok(ScriptLine::Comment("% end of the endgame script".into()))
        );
    }

    #[test]
    fn end_marker_stops_the_script() {
        let text = format!("% a\n\n% End of the endgame script\n{} X\n", "-".repeat(64));
        let lines = parse_script(text.as_bytes());
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1].parsed, Ok(ScriptLine::Blank));
    }

    #[test]
    fn position_lines() {
        let board = "XO---XXX-OOO-OOO-OOOOOO---OOXO---OOXOOO-OOXOOOOOXXXXX---XXXXXX--";
        for text in [
            format!("{board} X"),
            format!("{board}\t*"),
            format!("  {board}   X  "),
            format!("{board} X%c"),
        ] {
            match parse_line(&text) {
                Ok(ScriptLine::Position { position, .. }) => {
                    assert_eq!(position.side_to_move(), Color::Black)
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        match parse_line(&format!(
            "{} 0 %  two  spaces ",
            board.replace('O', "o").replace('-', ".")
        )) {
            Ok(ScriptLine::Position { position, comment }) => {
                assert_eq!(position.side_to_move(), Color::White);
                assert_eq!(position.white_count(), 28);
                assert_eq!(comment.as_deref(), Some("%  two  spaces "));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_lines_say_why() {
        let board = format!("{}X", "-".repeat(63));
        let err = |text: &str| parse_line(text).unwrap_err();
        assert_eq!(
            err(&format!("{} X", &board[1..])).error,
            LineError::Board(ParseBoardError::WrongLength {
                squares: 63,
                column: 1
            })
        );
        assert!(matches!(
            err(&format!("{}Z{} X % c", &board[..5], &board[6..])),
            BadLine {
                error: LineError::Board(ParseBoardError::BadSquare { ch: 'Z', .. }),
                comment: Some(_)
            }
        ));
        assert_eq!(
            err(&board).error,
            LineError::Board(ParseBoardError::MissingSide { column: 65 })
        );
        assert_eq!(
            err(&format!("{board} % no side")).error,
            LineError::Board(ParseBoardError::MissingSide { column: 66 })
        );
        assert!(matches!(
            err(&format!("  {board} Q")).error,
            LineError::Board(ParseBoardError::BadSide { column: 68, .. })
        ));
        assert_eq!(
            err(&format!("{board} X junk")).error,
            LineError::TextAfterSide("junk".into())
        );
        // The reason is readable.
        let reason = err(&format!("{} X", &board[1..])).error.to_string();
        assert!(reason.contains("63"), "{reason}");
    }

    #[test]
    fn comments_keep_their_bytes() {
        // Latin-1 bytes, not UTF-8: decoded for parsing, copied as they are.
        let mut bytes = b"% caf\xe9\n".to_vec();
        bytes.extend_from_slice("-".repeat(64).as_bytes());
        bytes.extend_from_slice(b" X % na\xefve\r\n");
        let lines = parse_script(&bytes);
        assert_eq!(lines[0].raw, b"% caf\xe9");
        assert_eq!(
            lines[0].parsed,
            Ok(ScriptLine::Comment("% caf\u{e9}".into()))
        );
        assert_eq!(lines[1].raw_trailing_comment(), Some(&b"% na\xefve"[..]));
        assert_eq!(
            with_raw_comment("32 - 32", lines[1].raw_trailing_comment()),
            b"32 - 32      % na\xefve"
        );
        assert_eq!(with_raw_comment("Draw", None), b"Draw");
    }

    #[test]
    fn replay_checks_legality() {
        let start = Position::start();
        let line: Vec<Move> = "f5 d6 c3".split(' ').map(mv).collect();
        assert_eq!(replay(&start, &line).unwrap().empty_count(), 57);
        assert!(matches!(
            replay(&start, &[mv("f5"), mv("f5")]),
            Err((1, PlayError::Occupied(_)))
        ));
        assert!(matches!(
            replay(&start, &[Move::Pass]),
            Err((0, PlayError::PassWithMoves(_)))
        ));
    }

    #[test]
    fn error_lines_keep_the_comment() {
        assert_eq!(format_error("bad", None), "% error: bad");
        assert_eq!(format_error("bad", Some("% c")), "% error: bad      % c");
    }
}
