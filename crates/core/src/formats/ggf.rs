//! GGF, the Generic Game Format of GGS and NBoard: `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]
//! RE[..]TI[..]TY[8]BO[8 <64 squares> <side>]B[F5]W[D6/-1.50/2.1]...;)`. The crate's only
//! GGF code: the app's files, `okapi nboard`'s `set game` and `okapi match --save` all
//! read and write through here.
//!
//! Reading ([`read`], [`read_record`]): the first `(;...;)` record of the text.
//! - Property names are letters and digits, in either case (`pb[..]` is `PB[..]`).
//! - In a value, `\]` is `]` and `\\` is `\`; any other `\x` is `x`.
//! - `BO[8 ...]`: 64 squares (`*`/`X` Black, `O` White, `-`/`.` empty), blanks anywhere,
//!   then the side to move; without `BO` the standard start.
//! - `B[..]`/`W[..]`: a move (`F5`, `PA` for a pass), optionally `/eval/time`; a forced
//!   pass left out is inserted; a move by the side not to move is an error.
//! - `PB`, `PW` (names), `DT` (date), `PC` (where the game was played: the game's event),
//!   `C` (comment), `TI` (clock: `15:00`, `1:30:00`, or seconds, before any `//`) go to
//!   the [`Game`]; `RE`, the per-move evals and times, and every other property are in
//!   [`GgfRecord`] (unknown properties kept in order). `PC[Okapi]`, what Okapi writes
//!   for a game of its own, names no event.
//!
//! Errors ([`GgfError`]) give the line and column of the property at fault.
//!
//! Writing ([`write()`], [`write_record`]): the main line (GGF has no variations), names,
//! date, the event as `PC` (`PC[Okapi]` when there is none), comment and clock, `RE` when
//! the line ends the game, special characters escaped.
//!
//! The opening: GGF has no property for it, so the comment `C` ends with a line
//! `Opening: Rose` naming the main line's opening ([`crate::game::openings`]); reading
//! takes that line off again when it names the game's own opening, so the comment a
//! person wrote reads back as written (see [`comment_with_opening`]).

use super::{TextPos, comment_with_opening, comment_without_opening};
use crate::board::{Color, Move, Position, Square};
use crate::calendar;
use crate::game::Game;
use std::time::Duration;

/// Why a GGF text was not read: what, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GgfError {
    /// The text holds no `(;`.
    #[error("no '(;' starts a game")]
    NoGame,
    /// The text ends before the `;)` that closes the game.
    #[error("{at}: the game is not closed with ';)'")]
    Unclosed {
        /// Where the game opens.
        at: TextPos,
    },
    /// Something other than `NAME[` where a property should start.
    #[error("{at}: '{text}' is not a property name")]
    BadName {
        /// What was found (up to 20 characters).
        text: String,
        /// Where.
        at: TextPos,
    },
    /// A property value without its closing `]`.
    #[error("{at}: property {name} is not closed with ']'")]
    UnclosedValue {
        /// The property name.
        name: String,
        /// Where the property starts.
        at: TextPos,
    },
    /// `GM[..]` names another game.
    #[error("{at}: GM[{value}] is not Othello")]
    NotOthello {
        /// The game named.
        value: String,
        /// Where the property starts.
        at: TextPos,
    },
    /// `TY[..]` names another board size.
    #[error("{at}: board type TY[{value}] is not 8x8")]
    NotEightByEight {
        /// The board type given.
        value: String,
        /// Where the property starts.
        at: TextPos,
    },
    /// `BO[..]` is not a board.
    #[error("{at}: BO[{value}]: {reason}")]
    BadBoard {
        /// The value as written.
        value: String,
        /// What is wrong with it.
        reason: String,
        /// Where the property starts.
        at: TextPos,
    },
    /// `BO[..]` after the first move: the moves would be of another board.
    #[error("{at}: BO[...] comes after moves")]
    BoardAfterMoves {
        /// Where the property starts.
        at: TextPos,
    },
    /// A `B[..]` or `W[..]` that is not a move, is illegal, or is played by the side not
    /// to move.
    #[error("{at}: move {number}, {name}[{value}]: {reason}")]
    BadMove {
        /// Which move property it is, from 1 (forced passes the reader inserts not counted).
        number: usize,
        /// `B` or `W`.
        name: String,
        /// The value as written.
        value: String,
        /// What is wrong with it.
        reason: String,
        /// Where the property starts.
        at: TextPos,
    },
}

/// What a GGF record holds beyond the [`Game`].
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GgfRecord {
    /// The game: start position, moves, names, date, event (`PC`), comment and clock.
    pub game: Game,
    /// `RE` as written, if any.
    pub result: Option<String>,
    /// `TI` as written, if any.
    pub time_control: Option<String>,
    /// `TY` as written, if any (`8`; `8r` for a random start, see
    /// [`GgfRecord::random_start`]).
    pub board_type: Option<String>,
    /// For each ply of the game (forced passes inserted by the reader included), the
    /// eval and the time in seconds the move's `/eval/time` gave.
    pub move_info: Vec<MoveInfo>,
    /// Every other property, upper-cased names, in file order.
    pub other: Vec<(String, String)>,
}

/// The `/eval/time` of a move, when given.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct MoveInfo {
    /// The eval written after the move, as a number (`D6/-1.50` gives -1.5).
    pub eval: Option<f64>,
    /// The time written after the eval, in seconds.
    pub seconds: Option<f64>,
}

impl GgfRecord {
    /// Does `TY` name a game of a random start (GGS's `r`, as in `8r` or `8r20`: the
    /// XOT-like games whose first moves were drawn, not chosen)?
    pub fn random_start(&self) -> bool {
        self.board_type
            .as_deref()
            .is_some_and(|t| t.contains(['r', 'R']))
    }
}

/// Reads the first game of a GGF text into a [`Game`] (the cursor at the end).
pub fn read(text: &str) -> Result<Game, GgfError> {
    read_record(text).map(|r| r.game)
}

/// Reads the first game of a GGF text with everything it holds.
pub fn read_record(text: &str) -> Result<GgfRecord, GgfError> {
    let open = text.find("(;").ok_or(GgfError::NoGame)?;
    let at = |i: usize| TextPos::of(text, i);
    let mut i = open + 2;
    let mut record = GgfRecord {
        game: Game::new(Position::start()),
        ..GgfRecord::default()
    };
    record.game.date = String::new();
    let mut number = 0;
    loop {
        // blanks between properties
        let rest = &text[i..];
        let skipped = rest.len() - rest.trim_start().len();
        i += skipped;
        let rest = &text[i..];
        if rest.is_empty() {
            return Err(GgfError::Unclosed { at: at(open) });
        }
        if rest.starts_with(";)") {
            break;
        }
        let name_len = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let name = rest[..name_len].to_ascii_uppercase();
        let after = &rest[name_len..];
        if name.is_empty() || !after.starts_with('[') {
            let shown: String = rest
                .chars()
                .take_while(|&c| c != '[' && c != ']')
                .take(20)
                .collect();
            let shown = if shown.is_empty() {
                rest.chars().take(1).collect()
            } else {
                shown
            };
            if after.is_empty() {
                return Err(GgfError::Unclosed { at: at(open) });
            }
            return Err(GgfError::BadName {
                text: shown,
                at: at(i),
            });
        }
        let prop_at = i;
        let value_start = i + name_len + 1;
        let (value, end) =
            unescape(&text[value_start..]).ok_or_else(|| GgfError::UnclosedValue {
                name: name.clone(),
                at: at(prop_at),
            })?;
        i = value_start + end + 1;
        apply(&mut record, &name, value, &mut number, at(prop_at))?;
    }
    record.game.comment = comment_without_opening(&record.game.comment, &record.game);
    Ok(record)
}

/// The value up to the first unescaped `]`, unescaped, and the byte index of that `]`.
fn unescape(text: &str) -> Option<(String, usize)> {
    let mut value = String::new();
    let mut escaped = false;
    for (j, ch) in text.char_indices() {
        if escaped {
            value.push(ch);
            escaped = false;
        } else if ch == '\\' {
            escaped = true;
        } else if ch == ']' {
            return Some((value, j));
        } else {
            value.push(ch);
        }
    }
    None
}

fn apply(
    record: &mut GgfRecord,
    name: &str,
    value: String,
    number: &mut usize,
    at: TextPos,
) -> Result<(), GgfError> {
    let game = &mut record.game;
    match name {
        "GM" => {
            if !value.trim().eq_ignore_ascii_case("othello") {
                return Err(GgfError::NotOthello { value, at });
            }
        }
        "TY" => {
            if !value.trim_start().starts_with('8') {
                return Err(GgfError::NotEightByEight { value, at });
            }
            record.board_type = Some(value);
        }
        "BO" => {
            if !game.is_empty() {
                return Err(GgfError::BoardAfterMoves { at });
            }
            let start = parse_board(&value).map_err(|reason| GgfError::BadBoard {
                value: value.clone(),
                reason,
                at,
            })?;
            // A new record from that board, with what was read before it.
            let mut fresh = Game::new(start);
            fresh.black = std::mem::take(&mut game.black);
            fresh.white = std::mem::take(&mut game.white);
            fresh.date = std::mem::take(&mut game.date);
            fresh.event = std::mem::take(&mut game.event);
            fresh.comment = std::mem::take(&mut game.comment);
            fresh.time_per_side = game.time_per_side;
            *game = fresh;
        }
        "PB" => game.black = value,
        "PW" => game.white = value,
        "DT" => game.date = value,
        "C" => game.comment = value,
        "PC" if value.trim().eq_ignore_ascii_case(OKAPI_PLACE) => game.event.clear(),
        "PC" => game.event = value,
        "RE" => record.result = Some(value),
        "TI" => {
            game.time_per_side = parse_clock(&value);
            record.time_control = Some(value);
        }
        "B" | "W" => {
            *number += 1;
            let bad = |reason: String| GgfError::BadMove {
                number: *number,
                name: name.to_string(),
                value: value.clone(),
                reason,
                at,
            };
            let mut parts = value.split('/');
            let mv_text = parts.next().unwrap_or("").trim();
            let mv = Move::parse(mv_text)
                .map_err(|_| bad(format!("'{mv_text}' is not a move (F5, PA)")))?;
            let number_of = |t: Option<&str>| t.and_then(|t| t.trim().parse::<f64>().ok());
            let info = MoveInfo {
                eval: number_of(parts.next()),
                seconds: number_of(parts.next()),
            };
            let mover = if name == "B" {
                Color::Black
            } else {
                Color::White
            };
            let position = game.position();
            if position.side_to_move() != mover {
                if position.must_pass() {
                    game.play(Move::Pass, None).expect("a forced pass is legal");
                    record.move_info.push(MoveInfo::default());
                } else {
                    return Err(bad(format!(
                        "{} is to move",
                        position.side_to_move().name()
                    )));
                }
            }
            game.play(mv, None).map_err(|e| bad(e.to_string()))?;
            record.move_info.push(info);
        }
        _ => record.other.push((name.to_string(), value)),
    }
    Ok(())
}

/// `TI`'s main time: `mm:ss`, `h:mm:ss` or seconds, before any `//` or `/`.
fn parse_clock(value: &str) -> Option<Duration> {
    let main = value.split('/').next()?.trim();
    let mut secs: u64 = 0;
    for part in main.split(':') {
        let n: u64 = part.trim().parse().ok()?;
        secs = secs.checked_mul(60)?.checked_add(n)?;
    }
    (secs > 0).then(|| Duration::from_secs(secs))
}

fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// `8 <64 squares, '*' Black, 'O' White, '-' empty; blanks allowed> <side>`.
fn parse_board(value: &str) -> Result<Position, String> {
    let v = value
        .trim()
        .strip_prefix('8')
        .ok_or("not an 8x8 board (it starts with the size, 8)")?;
    let chars: Vec<char> = v.chars().filter(|c| !c.is_whitespace()).collect();
    if chars.len() != 65 {
        return Err(format!(
            "{} squares and side, not 64 squares and the side to move",
            chars.len()
        ));
    }
    let side = match chars[64] {
        '*' | 'X' | 'x' | 'B' | 'b' => "X",
        'O' | 'o' | '0' | 'W' | 'w' => "O",
        c => return Err(format!("bad side to move '{c}'")),
    };
    let squares: String = chars[..64].iter().collect();
    Position::parse(&format!("{squares} {side}")).map_err(|e| e.to_string())
}

/// A move as GGF and NBoard write it: `F5`, `PA`.
pub fn move_text(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
        Move::Pass => "PA".into(),
    }
}

/// The board as GGF's `BO` value: `8 <64 squares> <side>`.
pub fn board_text(p: &Position) -> String {
    let mut s = String::from("8 ");
    for sq in Square::all() {
        s.push(match p.at(sq) {
            Some(Color::Black) => '*',
            Some(Color::White) => 'O',
            None => '-',
        });
    }
    s.push(' ');
    s.push(if p.side_to_move() == Color::Black {
        '*'
    } else {
        'O'
    });
    s
}

/// A value with `\` and `]` escaped.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// What Okapi writes as `PC` for a game with no event: a game of its own.
const OKAPI_PLACE: &str = "Okapi";

/// The game's main line as one GGF record.
pub fn write(game: &Game) -> String {
    write_record(&GgfRecord {
        game: game.clone(),
        ..GgfRecord::default()
    })
}

/// A record as GGF: the game's main line with its event as `PC`, per-move evals and
/// times (by ply), and other properties. `RE` is the main line's result when it ends the
/// game, else the record's, else `?`.
pub fn write_record(record: &GgfRecord) -> String {
    let game = &record.game;
    let mut s = String::from("(;GM[Othello]");
    let place = match game.event.as_str() {
        "" => OKAPI_PLACE,
        event => event,
    };
    s += &format!("PC[{}]", escape(place));
    s += &format!("DT[{}]", escape(&game.date));
    s += &format!("PB[{}]PW[{}]", escape(&game.black), escape(&game.white));
    let main = game.main_line();
    let mut end = game.start();
    for &m in &main {
        let _ = end.play_move(m);
    }
    let result = if end.is_game_over() {
        let (b, w) = end.final_counts();
        format!("{:+}", b as i32 - w as i32)
    } else {
        record.result.clone().unwrap_or_else(|| "?".into())
    };
    s += &format!("RE[{}]", escape(&result));
    if let Some(d) = game.time_per_side {
        s += &format!("TI[{}]", clock_text(d));
    }
    let board_type = record.board_type.as_deref().unwrap_or("8");
    s += &format!(
        "TY[{}]BO[{}]",
        escape(board_type),
        board_text(&game.start())
    );
    let comment = comment_with_opening(game);
    if !comment.is_empty() {
        s += &format!("C[{}]", escape(&comment));
    }
    for (name, value) in &record.other {
        s += &format!("{name}[{}]", escape(value));
    }
    let mut p = game.start();
    for (i, &m) in main.iter().enumerate() {
        let key = if p.side_to_move() == Color::Black {
            "B"
        } else {
            "W"
        };
        let mut text = move_text(m);
        if let Some(info) = record.move_info.get(i) {
            match (info.eval, info.seconds) {
                (None, None) => {}
                (e, t) => {
                    text += &format!(
                        "/{}/{}",
                        e.map_or(String::new(), |e| format!("{e:.2}")),
                        t.map_or(String::new(), |t| format!("{t:.2}"))
                    );
                }
            }
        }
        s += &format!("{key}[{text}]");
        let _ = p.play_move(m);
    }
    s += ";)";
    s
}

/// The current UTC time as GGF dates it (`2026.11.22_06:30:00.GMT`).
pub fn now_utc() -> String {
    let seconds = calendar::seconds_now();
    let (y, m, d) = calendar::day_of(seconds).date();
    let (hours, minutes, seconds) = calendar::time_of_day(seconds);
    format!("{y:04}.{m:02}.{d:02}_{hours:02}:{minutes:02}:{seconds:02}.GMT")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    #[test]
    fn reads_nboard_game_with_evals_and_writes_it_back() {
        let text = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]\
            RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
            B[F5]W[F6/1.5/2]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
        let r = read_record(text).unwrap();
        let g = &r.game;
        assert_eq!(g.len(), 8);
        assert_eq!(g.ply(), 8);
        assert_eq!(g.black, "./mEdax");
        assert_eq!(g.date, "2014-02-21 20:52:27 GMT");
        assert_eq!(g.time_per_side, Some(Duration::from_secs(900)));
        assert_eq!(g.event, "NBoard");
        assert_eq!(r.result.as_deref(), Some("?"));
        assert_eq!(
            r.move_info[1],
            MoveInfo {
                eval: Some(1.5),
                seconds: Some(2.0)
            }
        );
        assert_eq!(g.position().side_to_move(), Color::Black);
        let again = read_record(&write_record(&r)).unwrap();
        assert_eq!(again, r);
        assert_eq!(read(&write(g)).unwrap().moves(), g.moves());
    }

    #[test]
    fn names_escaped_and_case_insensitive() {
        let mut g = crate::formats::transcript::read("f5d6c3d3c4f4").unwrap();
        g.black = "A]B\\C [x] \"q\"".into();
        g.white = "Ödön 李".into();
        let text = write(&g);
        let back = read(&text).unwrap();
        assert_eq!(back.black, g.black);
        assert_eq!(back.white, g.white);
        assert_eq!(back.moves(), g.moves());
        // lowercase names and moves, unknown properties kept
        let r = read_record("(;gm[Othello]pb[x]Pw[y]ZZ[q\\]]b[f5]w[d6];)").unwrap();
        assert_eq!((r.game.black.as_str(), r.game.white.as_str()), ("x", "y"));
        assert_eq!(r.game.moves(), vec![mv("f5"), mv("d6")]);
        assert_eq!(r.other, vec![("ZZ".to_string(), "q]".to_string())]);
    }

    #[test]
    fn forced_passes_inserted_and_written() {
        let start = Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap();
        let mut g = Game::new(start);
        g.pass_if_needed();
        g.play(mv("c1"), None).unwrap();
        let text = write(&g);
        assert!(
            text.contains("B[PA]W[C1]") && text.contains("RE[-64]"),
            "{text}"
        );
        let back = read(&text).unwrap();
        assert_eq!(back.moves(), g.moves());
        assert_eq!(back.start(), start);
        // the pass left out
        let left_out = text.replace("B[PA]", "");
        assert_eq!(read(&left_out).unwrap().moves(), g.moves());
    }

    #[test]
    fn refuses_bad_games_saying_where() {
        let e = |t: &str| read(t).unwrap_err();
        assert_eq!(e("no game"), GgfError::NoGame);
        assert!(matches!(e("(;GM[Chess];)"), GgfError::NotOthello { .. }));
        assert!(
            e("(;GM[Othello]\nB[A1];)")
                .to_string()
                .starts_with("line 2, column 1: move 1")
        );
        assert!(matches!(
            e("(;GM[Othello]B[F5]B[F6];)"),
            GgfError::BadMove { number: 2, .. }
        ));
        assert!(matches!(
            e("(;GM[Othello]BO[8 --- *];)"),
            GgfError::BadBoard { .. }
        ));
        assert!(matches!(
            e("(;GM[Othello]PB[x"),
            GgfError::UnclosedValue { .. }
        ));
        assert!(matches!(e("(;GM[Othello]PB[x]"), GgfError::Unclosed { .. }));
        let err = e("(;GM[Othello]PB[A]B]PW[x];)");
        assert!(matches!(err, GgfError::BadName { .. }), "{err}");
        assert!(matches!(
            e(
                "(;GM[Othello]B[F5]BO[8 ---------------------------O*------*O--------------------------- *];)"
            ),
            GgfError::BoardAfterMoves { .. }
        ));
        assert!(matches!(
            e("(;GM[Othello]TY[10];)"),
            GgfError::NotEightByEight { .. }
        ));
    }

    #[test]
    fn players_and_event_are_kept_and_okapi_is_no_event() {
        let text = "(;GM[Othello]PC[World Championship - 2025]DT[2025]PB[Tastet Marc]\
            PW[Shaman Brian]RE[+8]TY[8]B[F5]W[D6];)";
        let g = read(text).unwrap();
        assert_eq!(
            (g.black.as_str(), g.white.as_str()),
            ("Tastet Marc", "Shaman Brian")
        );
        assert_eq!(g.event, "World Championship - 2025");
        let again = read(&write(&g)).unwrap();
        assert_eq!(
            (again.black, again.white, again.event),
            (g.black, g.white, g.event)
        );
        // The event survives a board given after it.
        let with_board = text.replace(
            "TY[8]",
            "TY[8]BO[8 ---------------------------O*------*O--------------------------- *]",
        );
        assert_eq!(
            read(&with_board).unwrap().event,
            "World Championship - 2025"
        );
        // A game of Okapi's own names no event, and reads back with none.
        let mut own = Game::default();
        own.play(mv("f5"), None).unwrap();
        let written = write(&own);
        assert!(written.contains("PC[Okapi]"), "{written}");
        assert_eq!(read(&written).unwrap().event, "");
    }

    #[test]
    fn the_old_nboard_quarrel_is_settled() {
        // Written by the old app writer: `]` escaped. The old nboard reader refused it.
        let text = "(;GM[Othello]PC[Okapi]DT[2026-01-01]PB[A\\]B]PW[W]TY[8]B[F5];)";
        assert_eq!(read(text).unwrap().black, "A]B");
    }

    #[test]
    fn the_opening_is_named_in_the_comment_and_read_back_as_written() {
        let tiger: Vec<Move> = ["f5", "d6", "c3", "d3", "c4", "f4"]
            .iter()
            .map(|m| Move::parse(m).unwrap())
            .collect();
        let mut game = Game::from_moves(Position::start(), &tiger).unwrap();
        game.comment = "Club final".into();
        let text = write(&game);
        assert!(text.contains("C[Club final\nOpening: Tiger]"), "{text}");
        assert_eq!(read(&text).unwrap().comment, "Club final");
        // no comment of one's own: the name alone, and an empty comment back
        game.comment.clear();
        let text = write(&game);
        assert!(text.contains("C[Opening: Tiger]"), "{text}");
        assert_eq!(read(&text).unwrap().comment, "");
        // a person's own "Opening:" line that is not this game's opening stays
        game.comment = "Opening: Rose".into();
        let back = read(&write(&game)).unwrap();
        assert_eq!(back.comment, "Opening: Rose");
        // a game in no named opening has no note
        let unnamed = Game::from_moves(Position::start(), &tiger[..1]).unwrap();
        assert!(!write(&unnamed).contains("Opening"));
    }

    #[test]
    fn date_looks_right() {
        let d = now_utc();
        assert_eq!(d.len(), "2026.11.22_06:30:00.GMT".len());
        assert!(d.starts_with("20"));
    }

    /// GGS's random-start type (`TY[8r]`, the XOT-like games) is told and written back.
    #[test]
    fn a_random_start_type_is_told_and_kept() {
        let r = read_record("(;GM[Othello]TY[8r]B[F5];)").unwrap();
        assert!(r.random_start());
        let again = write_record(&r);
        assert!(again.contains("TY[8r]"), "{again}");
        assert!(read_record(&again).unwrap().random_start());
        assert!(
            !read_record("(;GM[Othello]TY[8]B[F5];)")
                .unwrap()
                .random_start()
        );
        assert!(!read_record("(;GM[Othello]B[F5];)").unwrap().random_start());
    }
}
