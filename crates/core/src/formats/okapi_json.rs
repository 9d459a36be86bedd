//! Okapi's own game files (JSON), version 3: the whole move tree with the values of its
//! moves and the game analysis, the cursor, the players and their seats, the clock.
//! Version 1 files (the main line only) and version 2 files (no analysis) are still read.
//!
//! ```text
//! {
//!   "format": "okapi-game", "version": 3,
//!   "start": "---...XO... X",                  // optional; absent = the standard start
//!   "players": { "black": { "name": "Ann", "seat": "human" },
//!                "white": { "name": "Okapi", "seat": "okapi:8" } },
//!   "time_per_side": 300,                      // seconds; absent = no clock
//!   "date": "2026-11-22", "comment": "",
//!   "event": "World Championship - 2025",     // where it was played; absent = none
//!   "opening": "Tiger",                        // the main line's opening; absent = none
//!   "moves": ["f5", "d6", "--", ...],          // the main line, passes as "--"
//!   "evals": [ { "ply": 0, "value": -4, "source": "exact" }, ... ],
//!   "analysis": [ { "ply": 0, "best": "f5", "value": -4, "source": "exact" }, ... ],
//!   "variations": [                            // each branching off an earlier line
//!     { "from": 0, "at": 1, "moves": ["f6", "e6"], "evals": [...], "analysis": [...] },
//!     { "from": 1, "at": 1, "moves": ["f4"] }
//!   ],
//!   "proofs": [ { "position": "---...XO... O", "mode": "exact", "score": -16,
//!                 "line": ["h4", "g6", "--", ...] } ],   // solves, newest first
//!   "line": ["f5", "f6", "f4"],                // the current line; absent = the main line
//!   "ply": 2,                                  // the cursor: plies along the current line
//!   "file": "/home/ann/games/g.ggf",           // the app's autosave only: where it is saved
//!   "settled": true                            // the app's autosave only: nothing unsaved
//! }
//! ```
//!
//! A variation's `from` is the line it branches off: 0 the main line, `k` the k-th
//! variation of the list (which must come before it); `at` is the ply of that line its
//! first move replaces. Evals are by ply of their own line; `value` is for the side that
//! made the move (disc difference, or 1/0/-1 for `"wld"`). An `analysis` entry is what
//! the game analysis found for the move at `ply`: the best move of the position before it
//! and that move's value for the same side ([`BestMove`]). Variations are a flat list so
//! that no tree is too deep to read back. A `proofs` entry is a solve of a position of
//! the game ([`ProvenLine`]): its board string, `"exact"` or `"wld"`, the result for the
//! side to move there and the proven line from it; one the board refutes is left out.
//!
//! The app's autosave of the game in progress is such a file with where the game is saved
//! ([`SavedState`]), so that a restart asks about what is unsaved and nothing else.
//!
//! Version 2 has no analysis. Version 1 has `players: {"black": "name", "white": "name"}`, no variations, no line.
//!
//! Errors ([`JsonError`]) give the line and column of a syntax error, and the place in
//! the file (`variations[2].moves[3]`) of a move that cannot be played.

use super::{ReadWarning, TextPos};
use crate::board::{Move, Position};
use crate::game::SolveMode;
use crate::game::{BestMove, Eval, EvalSource, Game, NodeId, ProvenLine, Seat};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

const FORMAT_TAG: &str = "okapi-game";
/// The version this Okapi writes.
pub const VERSION: u32 = 3;

/// Why a JSON game was not read: what, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// The text is not JSON, or not the shape of a game file.
    #[error("{at}: not an Okapi game file: {message}")]
    Syntax {
        /// Where the JSON reader stopped.
        at: TextPos,
        /// The JSON reader's message, without its own position.
        message: String,
    },
    /// The `format` field is not `okapi-game` (the one in the file).
    #[error("not an Okapi game file: format is '{0}', expected '{FORMAT_TAG}'")]
    Format(String),
    /// A version newer than [`VERSION`] (or 0): written by a later Okapi.
    #[error("version {0} is newer than this Okapi reads ({VERSION})")]
    Version(u32),
    /// The `start` board string does not read (the reason).
    #[error("start: {0}")]
    Start(String),
    /// A move that is not a move, cannot be played where it stands, or (in `line`) leaves
    /// the recorded moves.
    #[error("move {number} ({text}) at {place}: {reason}")]
    BadMove {
        /// The move's number in its list, from 1.
        number: usize,
        /// Where it stands in the file (`variations[2].moves[3]`).
        place: String,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// Any other field with an impossible value (a variation off a later line, an eval
    /// past its line's moves, an unknown seat, a negative clock).
    #[error("{place}: {reason}")]
    Bad {
        /// Where it stands in the file (`variations[1].from`).
        place: String,
        /// What is wrong with it.
        reason: String,
    },
}

#[derive(Serialize, Deserialize)]
struct GameFile {
    format: String,
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<String>,
    #[serde(default)]
    players: Players,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_per_side: Option<f64>,
    #[serde(default)]
    date: String,
    #[serde(default)]
    comment: String,
    /// Where or at which tournament the game was played.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    event: String,
    /// The opening of the main line, by name (written for people and other programs;
    /// the reader recomputes it from the moves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opening: Option<String>,
    moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    evals: Vec<PlyEval>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    analysis: Vec<PlyBest>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    variations: Vec<Variation>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    proofs: Vec<Proof>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<Vec<String>>,
    #[serde(default)]
    ply: usize,
    /// The autosave's: the file the game is saved in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// The autosave's: everything in the game counts as saved.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    settled: bool,
}

/// Where the game on screen is saved, as the app's autosave keeps it for the next start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavedState {
    /// The file the game was last opened from or saved to. A name that is not UTF-8 is
    /// not kept (JSON holds text): the next start then asks about the game's moves.
    pub file: Option<PathBuf>,
    /// Nothing in the game is unsaved: it is all in its file, it is a database game or a
    /// paste, or the player chose to discard what was not saved.
    pub settled: bool,
}

#[derive(Serialize, Deserialize, Default)]
struct Players {
    #[serde(default)]
    black: PlayerEntry,
    #[serde(default)]
    white: PlayerEntry,
}

/// Version 1 wrote a name; version 2 a name and a seat.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum PlayerEntry {
    Name(String),
    Full {
        #[serde(default)]
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<String>,
    },
}

impl Default for PlayerEntry {
    fn default() -> Self {
        PlayerEntry::Name(String::new())
    }
}

#[derive(Serialize, Deserialize)]
struct PlyEval {
    ply: usize,
    value: i32,
    source: EvalSource,
}

/// The game analysis of the move at `ply`: the best move there and its value.
#[derive(Serialize, Deserialize)]
struct PlyBest {
    ply: usize,
    best: String,
    value: i32,
    source: EvalSource,
}

/// A solve kept with the game ([`ProvenLine`]).
#[derive(Serialize, Deserialize)]
struct Proof {
    /// The position solved, as a board string.
    position: String,
    mode: ProofMode,
    score: i32,
    line: Vec<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ProofMode {
    Exact,
    Wld,
}

impl Proof {
    fn of(p: &ProvenLine) -> Proof {
        Proof {
            position: p.position.to_board_string(),
            mode: match p.mode {
                SolveMode::Exact => ProofMode::Exact,
                SolveMode::Wld => ProofMode::Wld,
            },
            score: p.score,
            line: p.line.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// The proof as the game keeps it; `place` is where it stands in the file.
    fn read(&self, place: &str) -> Result<ProvenLine, JsonError> {
        let position = Position::parse(&self.position).map_err(|e| JsonError::Bad {
            place: format!("{place}.position"),
            reason: e.to_string(),
        })?;
        check_value(self.score, || format!("{place}.score"))?;
        let line = self
            .line
            .iter()
            .enumerate()
            .map(|(i, text)| parse_move(text, i, &format!("{place}.line[{i}]")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ProvenLine {
            position,
            mode: match self.mode {
                ProofMode::Exact => SolveMode::Exact,
                ProofMode::Wld => SolveMode::Wld,
            },
            score: self.score,
            line,
        })
    }
}

#[derive(Serialize, Deserialize)]
struct Variation {
    from: usize,
    at: usize,
    moves: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    evals: Vec<PlyEval>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    analysis: Vec<PlyBest>,
}

/// A line of the tree being written: the node before its first move and its nodes.
struct Line {
    base: NodeId,
    nodes: Vec<NodeId>,
}

fn move_texts(game: &Game, nodes: &[NodeId]) -> Vec<String> {
    nodes
        .iter()
        .map(|&n| game.move_of(n).expect("not the root").to_string())
        .collect()
}

fn evals_of(game: &Game, nodes: &[NodeId]) -> Vec<PlyEval> {
    nodes
        .iter()
        .enumerate()
        .filter_map(|(ply, &n)| {
            game.eval_of(n).map(|e| PlyEval {
                ply,
                value: e.value,
                source: e.source,
            })
        })
        .collect()
}

fn analysis_of(game: &Game, nodes: &[NodeId]) -> Vec<PlyBest> {
    nodes
        .iter()
        .enumerate()
        .filter_map(|(ply, &n)| {
            game.best_of(n).map(|b| PlyBest {
                ply,
                best: b.square.to_string(),
                value: b.eval.value,
                source: b.eval.source,
            })
        })
        .collect()
}

/// The line from `first` on, following the main continuation.
fn line_from(game: &Game, first: NodeId) -> Vec<NodeId> {
    let mut nodes = vec![first];
    while let Some(&next) = game.children(*nodes.last().expect("one")).first() {
        nodes.push(next);
    }
    nodes
}

/// The game as Okapi JSON, version 3.
pub fn write(game: &Game) -> String {
    write_with_state(game, &SavedState::default())
}

/// The game as Okapi JSON with where it is saved: the app's autosave.
pub fn write_with_state(game: &Game, state: &SavedState) -> String {
    let root = game.root();
    let main = match game.children(root).first() {
        Some(&first) => line_from(game, first),
        None => Vec::new(),
    };
    let mut lines = vec![Line {
        base: root,
        nodes: main,
    }];
    let mut variations = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        // A variation's own first move has its alternatives listed with it, off its
        // parent line: its branches start at its second move.
        let first = usize::from(k > 0);
        for at in first..lines[k].nodes.len() {
            let branch = if at == 0 {
                lines[k].base
            } else {
                lines[k].nodes[at - 1]
            };
            for &alt in &game.children(branch)[1..] {
                let nodes = line_from(game, alt);
                variations.push(Variation {
                    from: k,
                    at,
                    moves: move_texts(game, &nodes),
                    evals: evals_of(game, &nodes),
                    analysis: analysis_of(game, &nodes),
                });
                lines.push(Line {
                    base: branch,
                    nodes,
                });
            }
        }
        k += 1;
    }
    let current = game.moves();
    let main_moves = move_texts(game, &lines[0].nodes);
    let current_texts: Vec<String> = current.iter().map(|m| m.to_string()).collect();
    let seat = |s: Seat| Some(s.label());
    let file = GameFile {
        format: FORMAT_TAG.into(),
        version: VERSION,
        start: (game.start() != Position::start()).then(|| game.start().to_board_string()),
        players: Players {
            black: PlayerEntry::Full {
                name: game.black.clone(),
                seat: seat(game.seats[0]),
            },
            white: PlayerEntry::Full {
                name: game.white.clone(),
                seat: seat(game.seats[1]),
            },
        },
        time_per_side: game.time_per_side.map(|d| d.as_secs_f64()),
        date: game.date.clone(),
        comment: game.comment.clone(),
        event: game.event.clone(),
        opening: crate::game::openings::opening_of_main_line(game).map(|o| o.name.to_string()),
        evals: evals_of(game, &lines[0].nodes),
        analysis: analysis_of(game, &lines[0].nodes),
        moves: main_moves.clone(),
        variations,
        proofs: game.proofs().iter().map(Proof::of).collect(),
        line: (current_texts != main_moves).then_some(current_texts),
        ply: game.ply(),
        file: state
            .file
            .as_ref()
            .and_then(|p| p.to_str())
            .map(str::to_string),
        settled: state.settled,
    };
    serde_json::to_string_pretty(&file).expect("a game serialises") + "\n"
}

/// Reads an Okapi game file, version 1, 2 or 3.
pub fn read(text: &str) -> Result<Game, JsonError> {
    read_with_state(text).map(|(game, _)| game)
}

/// Reads an Okapi game file with where it is saved, if it says (the app's autosave).
pub fn read_with_state(text: &str) -> Result<(Game, SavedState), JsonError> {
    read_warned(text).map(|(game, state, _)| (game, state))
}

/// Reads an Okapi game file with where it is saved and what of it was left out
/// ([`ReadWarning`]): proven values the game's own moves refute.
pub fn read_warned(text: &str) -> Result<(Game, SavedState, Vec<ReadWarning>), JsonError> {
    let file: GameFile = serde_json::from_str(text).map_err(|e| JsonError::Syntax {
        at: TextPos {
            line: e.line(),
            column: e.column(),
        },
        message: strip_position(&e.to_string()),
    })?;
    if file.format != FORMAT_TAG {
        return Err(JsonError::Format(file.format));
    }
    if file.version > VERSION || file.version == 0 {
        return Err(JsonError::Version(file.version));
    }
    let start = match &file.start {
        Some(s) => Position::parse(s).map_err(|e| JsonError::Start(e.to_string()))?,
        None => Position::start(),
    };
    let mut game = Game::new(start);
    let root = game.root();
    let mut lines: Vec<Line> = Vec::new();
    let nodes = play_line(
        &mut game,
        root,
        &file.moves,
        (&file.evals, &file.analysis),
        "",
    )?;
    lines.push(Line { base: root, nodes });
    for (v, var) in file.variations.iter().enumerate() {
        let place = format!("variations[{v}]");
        let parent = lines.get(var.from).ok_or_else(|| JsonError::Bad {
            place: format!("{place}.from"),
            reason: format!("line {} is not an earlier line", var.from),
        })?;
        if var.at > parent.nodes.len() {
            return Err(JsonError::Bad {
                place: format!("{place}.at"),
                reason: format!(
                    "ply {} is past the {} plies of its line",
                    var.at,
                    parent.nodes.len()
                ),
            });
        }
        let base = if var.at == 0 {
            parent.base
        } else {
            parent.nodes[var.at - 1]
        };
        let nodes = play_line(
            &mut game,
            base,
            &var.moves,
            (&var.evals, &var.analysis),
            &format!("{place}."),
        )?;
        lines.push(Line { base, nodes });
    }
    // The current line, then the cursor on it.
    let current = file.line.as_ref().unwrap_or(&file.moves);
    game.go_to_node(root);
    for (i, text) in current.iter().enumerate() {
        let mv = parse_move(text, i, &format!("line[{i}]"))?;
        let known = game
            .children(game.cursor())
            .iter()
            .any(|&c| game.move_of(c) == Some(mv));
        if !known {
            return Err(JsonError::BadMove {
                number: i + 1,
                place: format!("line[{i}]"),
                text: text.clone(),
                reason: "the current line leaves the recorded moves".into(),
            });
        }
        game.play(mv, None).expect("a recorded move");
    }
    game.go_to(file.ply);
    let (black, white) = (file.players.black, file.players.white);
    for (i, (entry, place)) in [(black, "players.black"), (white, "players.white")]
        .into_iter()
        .enumerate()
    {
        let (name, seat) = match entry {
            PlayerEntry::Name(name) => (name, None),
            PlayerEntry::Full { name, seat } => (name, seat),
        };
        if let Some(seat) = seat {
            game.seats[i] = Seat::parse(&seat).map_err(|e| JsonError::Bad {
                place: format!("{place}.seat"),
                reason: e.to_string(),
            })?;
        }
        if i == 0 {
            game.black = name;
        } else {
            game.white = name;
        }
    }
    game.time_per_side = match file.time_per_side {
        None => None,
        Some(secs) => Some(
            Duration::try_from_secs_f64(secs)
                .ok()
                .filter(|d| d.as_secs() < 1 << 40)
                .ok_or_else(|| JsonError::Bad {
                    place: "time_per_side".into(),
                    reason: format!("{secs} is not a number of seconds"),
                })?,
        )
        .filter(|d| !d.is_zero()),
    };
    game.date = file.date;
    game.comment = file.comment;
    game.event = file.event;
    // Oldest first, so the newest ends first again.
    for (k, proof) in file.proofs.iter().enumerate().rev() {
        game.keep_proof(proof.read(&format!("proofs[{k}]"))?);
    }
    // Proofs the moves refute (a damaged or hostile file) go; the engine proves anew.
    let warnings = ReadWarning::refuted_proofs(game.drop_refuted_proofs());
    let state = SavedState {
        file: file.file.map(PathBuf::from),
        settled: file.settled,
    };
    Ok((game, state, warnings))
}

fn parse_move(text: &str, index: usize, place: &str) -> Result<Move, JsonError> {
    Move::parse(text).map_err(|e| JsonError::BadMove {
        number: index + 1,
        place: place.into(),
        text: text.into(),
        reason: e.to_string(),
    })
}

/// The largest value a move can have: all 64 discs.
const MAX_VALUE: i32 = 64;

/// A value read from a file: a disc difference (a WLD proof's sign too). Anything beyond
/// 64 is a damaged file, and the app would draw its graph with a grid line every few
/// discs up to it (1e9: a hang at every start from the autosave).
fn check_value(value: i32, place: impl FnOnce() -> String) -> Result<(), JsonError> {
    if value.abs() > MAX_VALUE {
        return Err(JsonError::Bad {
            place: place(),
            reason: format!("{value} is not a value from -{MAX_VALUE} to {MAX_VALUE}"),
        });
    }
    Ok(())
}

/// Plays `moves` from `base` with their evals and analysis; the nodes of the line.
fn play_line(
    game: &mut Game,
    base: NodeId,
    moves: &[String],
    (evals, analysis): (&[PlyEval], &[PlyBest]),
    prefix: &str,
) -> Result<Vec<NodeId>, JsonError> {
    game.go_to_node(base);
    let mut nodes = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let place = format!("{prefix}moves[{i}]");
        let mv = parse_move(text, i, &place)?;
        game.play(mv, None).map_err(|e| JsonError::BadMove {
            number: i + 1,
            place,
            text: text.clone(),
            reason: e.to_string(),
        })?;
        nodes.push(game.cursor());
    }
    for (k, e) in evals.iter().enumerate() {
        check_value(e.value, || format!("{prefix}evals[{k}].value"))?;
        let Some(&node) = nodes.get(e.ply) else {
            return Err(JsonError::Bad {
                place: format!("{prefix}evals[{k}]"),
                reason: format!("an eval for ply {} beyond the {} moves", e.ply, nodes.len()),
            });
        };
        game.set_eval_of(
            node,
            Some(Eval {
                value: e.value,
                source: e.source,
            }),
        );
    }
    for (k, a) in analysis.iter().enumerate() {
        let place = format!("{prefix}analysis[{k}]");
        check_value(a.value, || format!("{place}.value"))?;
        let Some(&node) = nodes.get(a.ply) else {
            return Err(JsonError::Bad {
                place,
                reason: format!(
                    "an analysis of ply {} beyond the {} moves",
                    a.ply,
                    nodes.len()
                ),
            });
        };
        // The best move of the position before the move: one of its legal moves.
        let before = match a.ply {
            0 => game.position_of(base),
            ply => game.position_of(nodes[ply - 1]),
        };
        let square = match Move::parse(&a.best) {
            Ok(Move::Play(sq)) if before.legal_moves().contains(sq) => sq,
            _ => {
                return Err(JsonError::Bad {
                    place: format!("{place}.best"),
                    reason: format!("'{}' is not a legal move there", a.best),
                });
            }
        };
        game.set_best_of(
            node,
            Some(BestMove {
                square,
                eval: Eval {
                    value: a.value,
                    source: a.source,
                },
            }),
        );
    }
    Ok(nodes)
}

/// serde_json's message without its " at line L column C" (given apart).
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript;
    use crate::level::Level;

    fn mv(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    /// A file claiming "exact +64" on every move of a game that ends otherwise: its
    /// proofs are not kept (the engine proves anew), the game is.
    #[test]
    fn proofs_the_board_refutes_are_not_read() {
        let mut g = transcript::read("f5d6c3d3c4f4f6f3e6e7").unwrap();
        for i in 0..g.len() {
            let black = g.position_at(i).side_to_move() == crate::board::Color::Black;
            g.set_eval(
                i,
                Eval {
                    value: if black { 64 } else { -64 },
                    source: EvalSource::Exact,
                },
            );
        }
        // Not a game's end: the odd value and the reply valued above its position go.
        g.set_eval(
            0,
            Eval {
                value: 63,
                source: EvalSource::Exact,
            },
        );
        let text = write(&g);
        let back = read(&text).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.eval_at(0), None, "odd");
        // "Black wins by 64" from each mover's side agrees with itself while the game
        // has no end to refute it.
        assert!((1..g.len()).all(|i| back.eval_at(i) == g.eval_at(i)));
        // The same game played to a wipeout-free end refutes every proof.
        let mut ended = g.clone();
        ended.go_to(ended.len());
        loop {
            let p = ended.position();
            if p.is_game_over() {
                break;
            }
            let mv = match p.legal_moves().iter().next() {
                Some(sq) => Move::Play(sq),
                None => Move::Pass,
            };
            ended.play(mv, None).unwrap();
        }
        let (b, w) = ended.result().unwrap();
        assert_ne!(b.abs_diff(w), 64);
        for i in 0..ended.len() {
            let black = ended.position_at(i).side_to_move() == crate::board::Color::Black;
            ended.set_eval(
                i,
                Eval {
                    value: if black { 64 } else { -64 },
                    source: EvalSource::Exact,
                },
            );
        }
        let (back, _, warnings) = read_warned(&write(&ended)).unwrap();
        assert!(
            (0..back.len()).all(|i| back
                .eval_at(i)
                .is_none_or(|e| e.source != EvalSource::Exact)),
            "{:?}",
            back.evals()
        );
        // Said, not dropped silently: one for each proven value left out.
        assert_eq!(
            warnings,
            [ReadWarning::RefutedProofs { count: ended.len() }]
        );
        assert_eq!(
            read_warned(&text).unwrap().2,
            [ReadWarning::RefutedProofs { count: 1 }],
            "the odd one"
        );
    }

    /// A solve's proven line is kept in the file with its position, newest first; a
    /// proof the board refutes is left out, a proof that is no proof is an error saying
    /// where.
    #[test]
    fn solves_are_kept_in_the_file() {
        let mut g = transcript::read("f5d6c3d3c4").unwrap();
        let at = |g: &Game, ply| g.position_at(ply);
        let first = ProvenLine {
            position: at(&g, 2),
            mode: SolveMode::Exact,
            score: -4,
            line: vec![mv("c3"), mv("d3")],
        };
        let second = ProvenLine {
            position: at(&g, 4),
            mode: SolveMode::Wld,
            score: 1,
            line: vec![mv("c4")],
        };
        g.keep_proof(first.clone());
        g.keep_proof(second.clone());
        let text = write(&g);
        assert!(text.contains("\"proofs\""), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.proofs(), [second.clone(), first.clone()]);
        // A line that cannot be played from its position, or an odd exact score: not a
        // proof, not kept.
        let refuted = text.replace("\"c3\",\n        \"d3\"", "\"a1\",\n        \"d3\"");
        assert_ne!(refuted, text);
        assert_eq!(
            read(&refuted).unwrap().proofs(),
            std::slice::from_ref(&second)
        );
        let odd = text.replace("\"score\": -4", "\"score\": -5");
        assert_ne!(odd, text);
        assert_eq!(read(&odd).unwrap().proofs(), [second]);
        // Not a move at all, or a value past 64: the file is refused, saying where.
        let junk = text.replace("\"c3\",\n        \"d3\"", "\"zz\",\n        \"d3\"");
        assert_ne!(junk, text);
        let e = read(&junk).unwrap_err().to_string();
        assert!(e.contains("proofs[1].line[0]"), "{e}");
        let huge = text.replace("\"score\": -4", "\"score\": -400");
        let e = read(&huge).unwrap_err().to_string();
        assert!(e.contains("proofs[1].score"), "{e}");
    }

    #[test]
    fn round_trip_with_variations_evals_seats_and_cursor() {
        let mut g = transcript::read("f5d6c3d3c4").unwrap();
        g.black = "Ann \"the\" ]\\ Ödön 李".into();
        g.white = "Okapi".into();
        g.seats = [Seat::Human, Seat::Engine(Level::numbered(8))];
        g.time_per_side = Some(Duration::from_secs(300));
        g.comment = "a\nb".into();
        g.event = "World Championship - 2025".into();
        g.set_eval(
            1,
            Eval {
                value: 2,
                source: EvalSource::Exact,
            },
        );
        g.go_to(1);
        g.play(
            mv("f6"),
            Some(Eval {
                value: -1,
                source: EvalSource::Midgame {
                    depth: 4,
                    confidence: 95,
                },
            }),
        )
        .unwrap();
        g.play(mv("e6"), None).unwrap();
        g.go_to(2);
        let other = g
            .position()
            .legal_moves()
            .iter()
            .map(Move::Play)
            .find(|&m| m != mv("e6"))
            .unwrap();
        g.play(other, None).unwrap();
        g.go_to(2);
        let text = write(&g);
        let back = read(&text).unwrap();
        assert_eq!(back.tree_size(), g.tree_size());
        assert_eq!(back.main_line(), g.main_line());
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.ply(), 2);
        assert_eq!(back.evals(), g.evals());
        assert_eq!(back.alternatives(1), vec![mv("d6"), mv("f6")]);
        assert_eq!(back.alternatives(2), vec![mv("e6"), other]);
        assert_eq!(
            (back.black.as_str(), back.white.as_str()),
            (g.black.as_str(), "Okapi")
        );
        assert_eq!(back.seats, g.seats);
        assert_eq!(back.time_per_side, g.time_per_side);
        assert_eq!(back.comment, g.comment);
        assert_eq!(back.event, g.event);
        assert_eq!(write(&back), text);
    }

    #[test]
    fn reads_version_1() {
        let text = r#"{
          "format": "okapi-game", "version": 1,
          "moves": ["f5", "d6", "c3"], "ply": 2,
          "players": { "black": "Alice", "white": "Okapi (greedy)" },
          "date": "2026-11-22", "comment": "c",
          "evals": [ { "ply": 1, "value": 2, "source": "exact" },
                     { "ply": 0, "value": 0, "source": { "heuristic": { "depth": 4 } } } ]
        }"#;
        let g = read(text).unwrap();
        assert_eq!(g.moves(), vec![mv("f5"), mv("d6"), mv("c3")]);
        assert_eq!(g.ply(), 2);
        assert_eq!(g.black, "Alice");
        assert_eq!(
            g.eval_at(1),
            Some(Eval {
                value: 2,
                source: EvalSource::Exact
            })
        );
        assert_eq!(
            g.eval_at(0).unwrap().source,
            EvalSource::Heuristic { depth: 4 }
        );
        assert_eq!(g.seats, [Seat::Human; 2]);
    }

    #[test]
    fn bad_files_refused_saying_where() {
        for (text, want) in [
            ("{", "line 1, column 1"),
            ("{\n  \"format\": 3}", "line 2, column 13"),
            (
                r#"{"format":"other","version":1,"moves":[]}"#,
                "expected 'okapi-game'",
            ),
            (
                r#"{"format":"okapi-game","version":9,"moves":[]}"#,
                "version 9",
            ),
            (
                r#"{"format":"okapi-game","version":1,"moves":["f5","a1"]}"#,
                "move 2 (a1) at moves[1]",
            ),
            (
                r#"{"format":"okapi-game","version":1,"moves":["f5"],"evals":[{"ply":3,"value":1,"source":"exact"}]}"#,
                "evals[0]: an eval for ply 3 beyond",
            ),
            (
                r#"{"format":"okapi-game","version":2,"moves":["f5"],"variations":[{"from":1,"at":0,"moves":[]}]}"#,
                "variations[0].from",
            ),
            (
                r#"{"format":"okapi-game","version":2,"moves":["f5"],"variations":[{"from":0,"at":0,"moves":["e6","zz"]}]}"#,
                "move 2 (zz) at variations[0].moves[1]",
            ),
            (
                r#"{"format":"okapi-game","version":2,"moves":["f5"],"players":{"black":{"name":"x","seat":"robot"}}}"#,
                "players.black.seat",
            ),
            (
                r#"{"format":"okapi-game","version":2,"moves":["f5"],"time_per_side":-1}"#,
                "time_per_side",
            ),
            (
                r#"{"format":"okapi-game","version":2,"moves":["f5"],"evals":[{"ply":0,"value":1000000000,"source":"exact"}]}"#,
                "evals[0].value: 1000000000 is not a value from -64 to 64",
            ),
            (
                r#"{"format":"okapi-game","version":2,"moves":["f5"],"evals":[{"ply":0,"value":-65,"source":"wld"}]}"#,
                "evals[0].value: -65 is not a value from -64 to 64",
            ),
            (
                r#"{"format":"okapi-game","version":2,"moves":["f5"],"line":["d3"]}"#,
                "line[0]",
            ),
            (
                r#"{"format":"okapi-game","version":3,"moves":["f5"],"analysis":[{"ply":0,"best":"a1","value":0,"source":"exact"}]}"#,
                "analysis[0].best: 'a1' is not a legal move there",
            ),
            (
                r#"{"format":"okapi-game","version":3,"moves":["f5"],"analysis":[{"ply":0,"best":"f5","value":99,"source":"exact"}]}"#,
                "analysis[0].value: 99 is not a value from -64 to 64",
            ),
            (
                r#"{"format":"okapi-game","version":3,"moves":["f5"],"analysis":[{"ply":1,"best":"f5","value":0,"source":"exact"}]}"#,
                "analysis[0]: an analysis of ply 1 beyond the 1 moves",
            ),
            (
                r#"{"format":"okapi-game","version":3,"moves":["f5"],"variations":[{"from":0,"at":0,"moves":["e6"],"analysis":[{"ply":0,"best":"--","value":0,"source":"exact"}]}]}"#,
                "variations[0].analysis[0].best",
            ),
        ] {
            let err = read(text).unwrap_err().to_string();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    #[test]
    fn the_main_lines_opening_is_written_and_not_needed_to_read() {
        let mv = |t: &str| Move::parse(t).unwrap();
        let mut g =
            Game::from_moves(Position::start(), &["f5", "f6", "e6", "f4", "e3"].map(mv)).unwrap();
        let text = write(&g);
        assert!(text.contains("\"opening\": \"Cow\""), "{text}");
        assert_eq!(read(&text).unwrap(), g);
        // the name follows the main line, not the cursor's variation
        g.go_to(4);
        g.play(mv("g5"), None).unwrap();
        let text = write(&g);
        assert!(text.contains("\"opening\": \"Cow\""), "{text}");
        // one opening named by a file that disagrees is not believed: the moves decide
        let edited = text.replace("\"Cow\"", "\"Rose\"");
        assert_eq!(read(&edited).unwrap(), g);
    }

    fn midgame(value: i32) -> Eval {
        Eval {
            value,
            source: EvalSource::Midgame {
                depth: 12,
                confidence: 95,
            },
        }
    }

    /// The game analysis (each move's best move and value) and where the game is saved
    /// come back as written, in the main line and in a variation.
    #[test]
    fn the_analysis_and_the_saved_state_round_trip() {
        let mut g = transcript::read("f5d6c3d3c4").unwrap();
        g.set_eval(1, midgame(-3));
        let best = |sq: &str, e: Eval| BestMove {
            square: crate::board::Square::parse(sq).unwrap(),
            eval: e,
        };
        g.set_best(1, best("f6", midgame(-1)));
        g.set_best(
            4,
            best(
                "c4",
                Eval {
                    value: 2,
                    source: EvalSource::Exact,
                },
            ),
        );
        g.go_to(2);
        g.play(mv("c5"), Some(midgame(-5))).unwrap();
        g.set_best(2, best("c3", midgame(-1)));
        let state = SavedState {
            file: Some(PathBuf::from("/home/ann/games/game 1.ggf")),
            settled: true,
        };
        let text = write_with_state(&g, &state);
        assert!(text.contains("\"version\": 3"), "{text}");
        assert!(text.contains("\"best\": \"f6\""), "{text}");
        let (back, back_state) = read_with_state(&text).unwrap();
        assert_eq!(back, g);
        assert_eq!(back_state, state);
        assert_eq!(back.best_at(1), Some(best("f6", midgame(-1))));
        assert_eq!(back.best_at(2), Some(best("c3", midgame(-1))));
        // A game file says nothing of where it is saved, and reads as unsaved anywhere.
        let plain = write(&g);
        assert!(
            !plain.contains("\"file\"") && !plain.contains("settled"),
            "{plain}"
        );
        assert_eq!(read_with_state(&plain).unwrap().1, SavedState::default());
        assert_eq!(read(&plain).unwrap(), g);
        // A version 2 file (no analysis) still reads.
        let v2 = plain.replace("\"version\": 3", "\"version\": 2");
        let v2 = v2[..v2.find("  \"analysis\"").unwrap()].to_string()
            + &v2[v2.find("  \"variations\"").unwrap()..];
        let old = read(&v2).unwrap();
        assert_eq!(old.moves(), g.moves());
        assert_eq!(old.best_at(1), None);
    }

    /// A best move whose proof is impossible (odd exact, or below the move's own proof)
    /// is not read; the game and its other values are.
    #[test]
    fn impossible_proven_best_moves_are_not_read() {
        let mut g = transcript::read("f5d6c3").unwrap();
        let exact = |value| Eval {
            value,
            source: EvalSource::Exact,
        };
        let sq = |s: &str| crate::board::Square::parse(s).unwrap();
        g.set_best(
            0,
            BestMove {
                square: sq("f5"),
                eval: exact(3),
            },
        );
        g.set_eval(1, exact(4));
        g.set_best(
            1,
            BestMove {
                square: sq("f6"),
                eval: exact(2),
            },
        );
        g.set_best(
            2,
            BestMove {
                square: sq("c3"),
                eval: midgame(1),
            },
        );
        let back = read(&write(&g)).unwrap();
        assert_eq!(back.best_at(0), None, "odd");
        assert_eq!(back.best_at(1), None, "below the move's own proof");
        assert_eq!(back.best_at(2), g.best_at(2));
    }
}
