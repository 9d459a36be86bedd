//! A game record and its files: Okapi's own JSON, plain transcripts (`f5d6c3...`) and GGF.
//!
//! [`Game`] is the model the app shows: a start position, the moves played (passes
//! included, so every ply is explicit), a cursor for undo/redo and navigation, the players,
//! date, comment, and the evaluation of each move played with where it came from.
//! The app holds no game logic of its own; it asks the [`Game`].

use crate::board::{Color, Move, Position};
pub use crate::game::{Eval, EvalSource, Game, today};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Who plays a colour: a person or one of the engine's players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    #[default]
    Human,
    /// Plays a random legal move.
    Random,
    /// Plays the move that flips the most discs.
    Greedy,
    /// The engine at the chosen level (settings `level`: depth, time, temperature);
    /// perfect once the exact solver reaches the end. (`perfect` in files, for old games.)
    Perfect,
}

impl Player {
    pub const ALL: [Player; 4] = [
        Player::Human,
        Player::Random,
        Player::Greedy,
        Player::Perfect,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "Human",
            Player::Random => "Okapi (random)",
            Player::Greedy => "Okapi (greedy)",
            Player::Perfect => "Okapi (engine at the chosen level)",
        }
    }

    pub fn is_engine(self) -> bool {
        self != Player::Human
    }
}

/// Errors of reading a game.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("not an Okapi game file: {0}")]
    Json(String),
    #[error("bad start position: {0}")]
    Board(#[from] crate::board::ParseBoardError),
    #[error("move {number} ({text}): {reason}")]
    BadMove {
        number: usize,
        text: String,
        reason: String,
    },
    #[error("not a GGF game: {0}")]
    Ggf(String),
    #[error("the file is empty")]
    Empty,
}

impl Game {
    /// Reads a transcript from the start position: squares with or without separators,
    /// passes optional (they are inserted where forced), `--`/`PA` accepted.
    pub fn from_transcript(text: &str) -> Result<Game, GameError> {
        Game::from_transcript_at(Position::start(), text)
    }

    pub fn from_transcript_at(start: Position, text: &str) -> Result<Game, GameError> {
        let mut game = Game::new(start);
        let mut number = 0;
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() || matches!(c, ',' | ';' | '.' | '0'..='9') {
                // separators and move numbers ("1. f5 d6")
                i += 1;
                continue;
            }
            if i + 1 >= chars.len() {
                return Err(GameError::BadMove {
                    number: number + 1,
                    text: c.to_string(),
                    reason: "a move is a column a-h and a row 1-8".into(),
                });
            }
            let token: String = chars[i..i + 2].iter().collect();
            i += 2;
            number += 1;
            let mv = Move::parse(&token).map_err(|e| GameError::BadMove {
                number,
                text: token.clone(),
                reason: e.to_string(),
            })?;
            if mv == Move::Pass {
                if !game.position().must_pass() {
                    return Err(GameError::BadMove {
                        number,
                        text: token,
                        reason: "a pass with a legal move".into(),
                    });
                }
                game.play(Move::Pass, None).expect("checked");
                number -= 1;
                continue;
            }
            game.pass_if_needed();
            game.play(mv, None).map_err(|e| GameError::BadMove {
                number,
                text: token,
                reason: e.to_string(),
            })?;
        }
        game.pass_if_needed();
        Ok(game)
    }

    /// The game in Okapi's JSON format.
    pub fn to_json(&self) -> String {
        let file = GameFile {
            format: FORMAT_TAG.into(),
            version: 1,
            start: (self.start() != Position::start()).then(|| self.start().to_board_string()),
            moves: self.moves().iter().map(|m| m.to_string()).collect(),
            ply: self.ply(),
            players: Players {
                black: self.black.clone(),
                white: self.white.clone(),
            },
            date: self.date.clone(),
            comment: self.comment.clone(),
            evals: self
                .evals()
                .iter()
                .enumerate()
                .filter_map(|(ply, e)| {
                    e.map(|e| PlyEval {
                        ply,
                        value: e.value,
                        source: e.source,
                    })
                })
                .collect(),
        };
        serde_json::to_string_pretty(&file).expect("a game serialises") + "\n"
    }

    pub fn from_json(text: &str) -> Result<Game, GameError> {
        let file: GameFile =
            serde_json::from_str(text).map_err(|e| GameError::Json(e.to_string()))?;
        if file.format != FORMAT_TAG {
            return Err(GameError::Json(format!(
                "format is '{}', expected '{FORMAT_TAG}'",
                file.format
            )));
        }
        if file.version != 1 {
            return Err(GameError::Json(format!(
                "version {} is newer than this Okapi reads (1)",
                file.version
            )));
        }
        let start = match &file.start {
            Some(s) => Position::parse(s)?,
            None => Position::start(),
        };
        let mut game = Game::new(start);
        for (i, text) in file.moves.iter().enumerate() {
            let mv = Move::parse(text).map_err(|e| GameError::BadMove {
                number: i + 1,
                text: text.clone(),
                reason: e.to_string(),
            })?;
            game.play(mv, None).map_err(|e| GameError::BadMove {
                number: i + 1,
                text: text.clone(),
                reason: e.to_string(),
            })?;
        }
        for e in file.evals {
            if e.ply >= game.len() {
                return Err(GameError::Json(format!(
                    "an eval for ply {} beyond the {} moves",
                    e.ply,
                    game.len()
                )));
            }
            game.set_eval(
                e.ply,
                Eval {
                    value: e.value,
                    source: e.source,
                },
            );
        }
        game.go_to(file.ply);
        game.black = file.players.black;
        game.white = file.players.white;
        game.date = file.date;
        game.comment = file.comment;
        Ok(game)
    }

    /// The game as one GGF record (`(;GM[Othello]...;)`).
    pub fn to_ggf(&self) -> String {
        let mut s = String::from("(;GM[Othello]PC[Okapi]");
        s += &format!("DT[{}]", ggf_escape(&self.date));
        s += &format!(
            "PB[{}]PW[{}]",
            ggf_escape(&self.black),
            ggf_escape(&self.white)
        );
        if let Some((b, w)) = self.result() {
            s += &format!("RE[{:+}]", b as i32 - w as i32);
        }
        s += "TY[8]BO[8 ";
        let board = self.start().to_board_string();
        for row in 0..8 {
            for ch in board[row * 8..row * 8 + 8].chars() {
                s.push(if ch == 'X' { '*' } else { ch });
            }
            s.push(' ');
        }
        s.push(if self.start().side_to_move() == Color::Black {
            '*'
        } else {
            'O'
        });
        s.push(']');
        if !self.comment.is_empty() {
            s += &format!("C[{}]", ggf_escape(&self.comment));
        }
        for (i, mv) in self.moves().iter().enumerate() {
            let side = if self.position_at(i).side_to_move() == Color::Black {
                'B'
            } else {
                'W'
            };
            let m = match mv {
                Move::Play(sq) => sq.to_string().to_uppercase(),
                Move::Pass => "PA".into(),
            };
            s += &format!("{side}[{m}]");
        }
        s += ";)\n";
        s
    }

    /// Reads the first game of a GGF file.
    pub fn from_ggf(text: &str) -> Result<Game, GameError> {
        let begin = text
            .find("(;")
            .ok_or_else(|| GameError::Ggf("no '(;' starts a game".into()))?;
        let body = &text[begin + 2..];
        let end = body
            .find(";)")
            .ok_or_else(|| GameError::Ggf("the game has no closing ';)'".into()))?;
        let body = &body[..end];
        let mut props: Vec<(String, String)> = Vec::new();
        let mut rest = body;
        while let Some(open) = rest.find('[') {
            let key = rest[..open].trim().to_string();
            let after = &rest[open + 1..];
            let mut value = String::new();
            let mut close = None;
            let mut escaped = false;
            for (j, ch) in after.char_indices() {
                if escaped {
                    value.push(ch);
                    escaped = false;
                } else if ch == '\\' {
                    escaped = true;
                } else if ch == ']' {
                    close = Some(j);
                    break;
                } else {
                    value.push(ch);
                }
            }
            let close = close
                .ok_or_else(|| GameError::Ggf(format!("property {key} is not closed with ']'")))?;
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_uppercase()) {
                return Err(GameError::Ggf(format!("'{key}' is not a property name")));
            }
            props.push((key, value));
            rest = &after[close + 1..];
        }
        if props.iter().all(|(k, _)| k != "GM") {
            return Err(GameError::Ggf("no GM[Othello] property".into()));
        }
        let get = |k: &str| {
            props
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
        if let Some(gm) = get("GM")
            && !gm.eq_ignore_ascii_case("othello")
        {
            return Err(GameError::Ggf(format!("GM[{gm}] is not Othello")));
        }
        if let Some(ty) = get("TY")
            && !ty.trim_start().starts_with('8')
        {
            return Err(GameError::Ggf(format!("board type TY[{ty}] is not 8x8")));
        }
        let start = match get("BO") {
            Some(bo) => {
                let mut parts = bo.split_whitespace();
                if parts.next() != Some("8") {
                    return Err(GameError::Ggf(format!("BO[{bo}] is not an 8x8 board")));
                }
                let rest: String = parts.collect();
                if rest.chars().count() != 65 {
                    return Err(GameError::Ggf(format!(
                        "BO[{bo}] does not hold 64 squares and a side"
                    )));
                }
                let (squares, side) = rest.split_at(64);
                Position::parse(&format!("{squares} {side}"))?
            }
            None => Position::start(),
        };
        let mut game = Game::new(start);
        let mut number = 0;
        for (key, value) in &props {
            if key != "B" && key != "W" {
                continue;
            }
            number += 1;
            let text = value.split('/').next().unwrap_or("").trim().to_string();
            let bad = |reason: String| GameError::BadMove {
                number,
                text: text.clone(),
                reason,
            };
            let mv = Move::parse(&text).map_err(|e| bad(e.to_string()))?;
            let mover = if key == "B" {
                Color::Black
            } else {
                Color::White
            };
            if game.position().side_to_move() != mover {
                // A GGF file may leave out a forced pass.
                if game.position().must_pass() {
                    game.play(Move::Pass, None).expect("forced pass");
                } else {
                    return Err(bad(format!("{} is not to move", mover.name())));
                }
            }
            game.play(mv, None).map_err(|e| bad(e.to_string()))?;
        }
        game.pass_if_needed();
        game.black = get("PB").unwrap_or_default();
        game.white = get("PW").unwrap_or_default();
        game.date = get("DT").unwrap_or_default();
        game.comment = get("C").unwrap_or_default();
        Ok(game)
    }

    /// Reads a game file, telling the format by its content: JSON, GGF or a transcript.
    pub fn read(path: &Path) -> Result<Game, GameError> {
        let bytes = std::fs::read(path).map_err(|source| GameError::Io {
            path: path.into(),
            source,
        })?;
        let text = String::from_utf8_lossy(&bytes);
        Game::parse_any(&text)
    }

    /// Parses JSON, GGF or a transcript, by content.
    pub fn parse_any(text: &str) -> Result<Game, GameError> {
        let t = text.trim_start_matches('\u{feff}').trim();
        if t.is_empty() {
            return Err(GameError::Empty);
        }
        if t.starts_with('{') {
            Game::from_json(t)
        } else if t.contains("(;") {
            Game::from_ggf(t)
        } else {
            Game::from_transcript(t)
        }
    }

    /// Writes the game atomically in the format the extension names (`.ggf`, `.txt`
    /// transcript, anything else Okapi JSON).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        let text = match ext.as_str() {
            "ggf" => self.to_ggf(),
            "txt" | "trn" => self.transcript() + "\n",
            _ => self.to_json(),
        };
        write_atomic(path, text.as_bytes())
    }
}

const FORMAT_TAG: &str = "okapi-game";

#[derive(Serialize, Deserialize)]
struct GameFile {
    format: String,
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<String>,
    moves: Vec<String>,
    /// Where the cursor stood when saved.
    #[serde(default)]
    ply: usize,
    #[serde(default)]
    players: Players,
    #[serde(default)]
    date: String,
    #[serde(default)]
    comment: String,
    #[serde(default)]
    evals: Vec<PlyEval>,
}

#[derive(Serialize, Deserialize, Default)]
struct Players {
    #[serde(default)]
    black: String,
    #[serde(default)]
    white: String,
}

#[derive(Serialize, Deserialize)]
struct PlyEval {
    ply: usize,
    value: i32,
    source: EvalSource,
}

fn ggf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes `bytes` to a temporary file beside `path`, syncs it, then renames it over
/// `path`: a crash leaves the old file or the new one, never half of one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    #[test]
    fn transcript_round_trip_with_passes() {
        // A short game that ends with the board not full, with a forced pass on the way:
        // (a known 9-move wipe-out: f5 d6 c5 f4 e3 f6 d3 f3 ... ) use a simple real game.
        let t = "f5d6c3d3c4f4f6f3e6e7d7c6f7";
        let g = Game::from_transcript(t).unwrap();
        assert_eq!(g.transcript(), t);
        let spaced = Game::from_transcript("1. f5 d6 2. C3 d3 c4 f4 f6 f3 e6 e7 d7 c6 f7").unwrap();
        assert_eq!(spaced.moves(), g.moves());
        let err = Game::from_transcript("f5d6a1").unwrap_err().to_string();
        assert!(err.contains("move 3 (a1)"), "{err}");
        let err = Game::from_transcript("f5z9").unwrap_err().to_string();
        assert!(err.contains("move 2"), "{err}");
    }

    #[test]
    fn forced_passes_inserted() {
        // Black (b1) has no move; White (a1) plays c1 and wipes Black out.
        let start = Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap();
        assert!(start.must_pass());
        let g = Game::from_transcript_at(start, "c1").unwrap();
        assert_eq!(g.moves(), &[Move::Pass, sq("c1")]);
        assert_eq!(g.result(), Some((0, 64)));
        let g = Game::from_transcript_at(start, "-- c1").unwrap();
        assert_eq!(g.moves(), &[Move::Pass, sq("c1")]);
        let ggf = Game::from_ggf(&g.to_ggf()).unwrap();
        assert_eq!(ggf.moves(), g.moves());
        assert_eq!(ggf.start(), start);
    }

    #[test]
    fn json_round_trip() {
        let mut g = Game::from_transcript("f5d6c3d3c4").unwrap();
        g.black = "Alice".into();
        g.white = "Okapi (greedy)".into();
        g.comment = "test \"game\"".into();
        g.set_eval(
            0,
            Eval {
                value: 0,
                source: EvalSource::Heuristic { depth: 4 },
            },
        );
        g.set_eval(
            1,
            Eval {
                value: 2,
                source: EvalSource::Exact,
            },
        );
        // a weaker source never replaces a stronger one
        g.set_eval(
            1,
            Eval {
                value: 1,
                source: EvalSource::Wld,
            },
        );
        g.undo();
        let back = Game::from_json(&g.to_json()).unwrap();
        assert_eq!(back, g);
        assert_eq!(
            back.evals()[1],
            Some(Eval {
                value: 2,
                source: EvalSource::Exact
            })
        );
        assert_eq!(back.ply(), 4);
    }

    #[test]
    fn bad_json_refused_with_reason() {
        for (text, want) in [
            ("{", "not an Okapi game file"),
            (
                r#"{"format":"other","version":1,"moves":[]}"#,
                "expected 'okapi-game'",
            ),
            (
                r#"{"format":"okapi-game","version":1,"moves":["f5","a1"]}"#,
                "move 2 (a1)",
            ),
            (
                r#"{"format":"okapi-game","version":1,"moves":["f5"],"evals":[{"ply":3,"value":1,"source":"exact"}]}"#,
                "beyond",
            ),
        ] {
            let err = Game::parse_any(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
        assert!(matches!(Game::parse_any("  \n"), Err(GameError::Empty)));
    }

    #[test]
    fn ggf_round_trip_and_read() {
        let mut g = Game::from_transcript("f5d6c3d3c4f4").unwrap();
        g.black = "a]b".into();
        g.white = "W".into();
        let back = Game::from_ggf(&g.to_ggf()).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.black, "a]b");
        let text = "(;GM[Othello]PC[NEC]DT[2003.01.01]PB[x]PW[y]RE[+2]TI[5:00]TY[8]\
            BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
            B[f5//0.01]W[d6/-1.5/3]B[c3];)";
        let g = Game::from_ggf(text).unwrap();
        assert_eq!(g.transcript(), "f5d6c3");
        assert_eq!(g.black, "x");
        assert!(
            Game::from_ggf("(;GM[Chess];)")
                .unwrap_err()
                .to_string()
                .contains("not Othello")
        );
        assert!(
            Game::from_ggf("(;GM[Othello]B[f5]W[a1];)")
                .unwrap_err()
                .to_string()
                .contains("move 2")
        );
    }

    #[test]
    fn atomic_save_and_read_every_format() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let g = Game::from_transcript("f5d6c3d3c4f4f6").unwrap();
        for name in ["g.okapi.json", "g.ggf", "g.txt"] {
            let p = dir.join(name);
            g.save(&p).unwrap();
            let back = Game::read(&p).unwrap();
            assert_eq!(back.moves(), g.moves(), "{name}");
        }
        let leftovers: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }
}
