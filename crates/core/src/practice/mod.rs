//! Practising one's own mistakes: the positions of analysed games where a player lost
//! discs against the best move, drilled one at a time and brought back by spaced
//! repetition until they are known.
//!
//! - [`Card`]: one position to practise (the position and side to move, the move played,
//!   the best move and their values, the discs lost, where it comes from) and its
//!   [`Schedule`].
//! - [`collect`]: the cards of one analysed game for one side, from the game analysis'
//!   values ([`AnalysedMove`], what the engine's game analysis gives per move).
//! - [`PlayerGame`], [`games_of_player`], [`folder_games`]: a named player's games in a
//!   games database or in a folder of game files (read by the database's own folder
//!   reader, so every format it reads is read here too), with the plies to analyse.
//! - [`judge`]: an answer against fresh values of every move, within the player's
//!   [`Tolerance`].
//! - [`Store`]: the cards kept in the data folder with every answer given ([`Attempt`]),
//!   read and written whole (atomic writes; a damaged file is set aside, never fatal);
//!   [`Stats`]: how the practice goes, by game [`Phase`], and the [`Streak`].
//!
//! No engine here: the front end asks its engine for the values (the game analysis for
//! the cards, an analysis of the position for the judgement) and hands them in.

pub mod openings;
mod schedule;
mod store;

pub use crate::calendar::Day;
pub use schedule::{Attempt, INTERVALS, Schedule, Streak};
pub use store::{Added, FileStamp, MAX_STORE_FILE, Opened, STORE_FILE, Store, StoreError};

use crate::board::{Color, Move, Position, Square};
use crate::db::{Database, Filter, PlayerSide};
use crate::game::{Eval, EvalSource};
use std::path::Path;

/// The fewest discs lost that make a move worth practising by default: the game
/// analysis' "mistake" band (3–7 discs; 1–2 is within a 12-ply search's noise).
pub const DEFAULT_MIN_LOSS: i32 = 3;

/// Up to this many empties a practice position is judged by the solver's proven values of
/// every move, above it by the search's, as the game analysis values moves. Proving every
/// move of FFO #26-34 (20 empties, hard positions chosen for solvers) took 0.6-4.3 s,
/// median 1.7 s, on 2 cores shared with other builds (load 12); 18-19 empties 0.2-1 s,
/// 22 empties 3.7 s, 24 empties 22 s. Game positions are easier, and the values are asked
/// for as the position shows, while the player thinks.
pub const SOLVER_EMPTIES: u32 = 20;

/// How far from the best a move may be and still count as found, in discs: one figure for
/// values searched, one for values proven by the solver. The player sets both; by default a
/// disc by the search (its values move by a disc or two from one depth to the next, so a
/// difference this small says nothing) and none by the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tolerance {
    /// Discs allowed when a value was searched (or taken from the book).
    pub searched: i32,
    /// Discs allowed when both values are proven.
    pub proven: i32,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            searched: 1,
            proven: 0,
        }
    }
}

impl Tolerance {
    /// The most either figure may be: a value is -64 to 64 discs.
    pub const MAX: i32 = 64;

    /// The discs allowed for values proven or not.
    pub fn allowed(&self, proven: bool) -> i32 {
        if proven { self.proven } else { self.searched }
    }

    /// Both figures within 0 to [`Tolerance::MAX`].
    pub fn clamped(self) -> Tolerance {
        Tolerance {
            searched: self.searched.clamp(0, Self::MAX),
            proven: self.proven.clamp(0, Self::MAX),
        }
    }
}

/// The part of the game a position is in, by its empty squares: the opening (more than 40
/// empties: the first 20 moves), the endgame (the solver's reach, [`SOLVER_EMPTIES`] or
/// fewer) and the midgame between.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// More than 40 empties.
    Opening,
    /// 21 to 40 empties.
    Midgame,
    /// 20 empties or fewer.
    Endgame,
}

impl Phase {
    /// All three, in the order of a game.
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Midgame, Phase::Endgame];

    /// The phase of a position.
    pub fn of(position: &Position) -> Phase {
        match position.empty_count() {
            e if e <= SOLVER_EMPTIES => Phase::Endgame,
            e if e > 40 => Phase::Opening,
            _ => Phase::Midgame,
        }
    }

    /// Its name, as a player says it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "Opening",
            Phase::Midgame => "Midgame",
            Phase::Endgame => "Endgame",
        }
    }

    /// Which empties it spans, said.
    pub fn span(self) -> String {
        match self {
            Phase::Opening => "more than 40 empties".into(),
            Phase::Midgame => format!("{} to 40 empties", SOLVER_EMPTIES + 1),
            Phase::Endgame => format!("{SOLVER_EMPTIES} empties or fewer"),
        }
    }
}

/// Answers counted: right and missed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Answers that counted as found.
    pub right: u32,
    /// Answers missed.
    pub missed: u32,
}

impl Tally {
    /// Answers in all.
    pub fn answers(&self) -> u32 {
        self.right + self.missed
    }

    /// The share answered right, 0 to 1; `None` before any answer.
    pub fn accuracy(&self) -> Option<f64> {
        (self.answers() > 0).then(|| f64::from(self.right) / f64::from(self.answers()))
    }
}

/// How the practice goes: answers by game phase, the streak, what is due.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions kept.
    pub cards: usize,
    /// Positions due today (not counting those missed today, which are due tomorrow).
    pub due: usize,
    /// Positions whose last answer today was a miss.
    pub missed_today: usize,
    /// Answers in the opening, the midgame and the endgame ([`Phase::ALL`]'s order).
    pub phases: [Tally; 3],
    /// Right answers in a row.
    pub streak: Streak,
}

impl Stats {
    /// The answers in one phase.
    pub fn phase(&self, phase: Phase) -> Tally {
        self.phases[Phase::ALL.iter().position(|&p| p == phase).unwrap_or(0)]
    }
}

/// One move of a game valued against the best move for its mover, as the game analysis
/// gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnalysedMove {
    /// The move's place in the game (0: the first move; passes count).
    pub ply: usize,
    /// The position before the move.
    pub position: Position,
    /// The move played.
    pub played: Square,
    /// Its value for the mover.
    pub played_eval: Eval,
    /// The best move the analysis found.
    pub best: Square,
    /// Its value for the mover.
    pub best_eval: Eval,
}

impl AnalysedMove {
    /// Discs lost against the best move; `None` for win/draw/loss values, which count
    /// no discs.
    pub fn loss(&self) -> Option<i32> {
        let wld = |e: &Eval| e.source == EvalSource::Wld;
        (!wld(&self.played_eval) && !wld(&self.best_eval))
            .then(|| (self.best_eval.value - self.played_eval.value).max(0))
    }
}

/// Where a card comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The player whose move it was (the name the game gives, else the colour).
    pub player: String,
    /// The game, as a person recognises it: players, tournament or file, date.
    pub game: String,
    /// The move's place in the game (0: the first move; passes count).
    pub ply: usize,
}

impl Origin {
    /// The move number as written in a transcript (`23` for the 23rd move).
    pub fn move_number(&self) -> usize {
        self.ply + 1
    }
}

/// One position to practise: find the best move where the move played lost discs.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// The position, with the side to move.
    pub position: Position,
    /// The move played in the game.
    pub played: Square,
    /// Its value for the mover, from the game analysis.
    pub played_eval: Eval,
    /// The best move the game analysis found.
    pub best: Square,
    /// Its value for the mover.
    pub best_eval: Eval,
    /// Where the position comes from.
    pub origin: Origin,
    /// When it comes back.
    pub schedule: Schedule,
    /// Every answer given, oldest first.
    pub history: Vec<Attempt>,
}

impl Card {
    /// Discs the move played lost against the best move.
    pub fn loss(&self) -> i32 {
        (self.best_eval.value - self.played_eval.value).max(0)
    }

    /// Was it answered on `day` already? (A later answer the same day is a retry: it is
    /// kept in the history but does not move the schedule.)
    pub fn answered_on(&self, day: Day) -> bool {
        self.schedule.last_seen == Some(day)
    }

    /// Was its last answer, given on `day`, a miss? Such a position is practised again the
    /// same day, until it is answered right.
    pub fn missed_on(&self, day: Day) -> bool {
        self.answered_on(day)
            && self
                .history
                .last()
                .is_some_and(|a| a.day == day && !a.right)
    }

    /// Its answers right and missed: from the history, or for a position kept before
    /// answers were recorded one by one, from the schedule's counts.
    pub fn tally(&self) -> Tally {
        if self.history.is_empty() {
            return Tally {
                right: self.schedule.right,
                missed: self.schedule.missed,
            };
        }
        let right = self.history.iter().filter(|a| a.right).count() as u32;
        Tally {
            right,
            missed: self.history.len() as u32 - right,
        }
    }
}

/// The cards of one analysed game: the moves of `side` that lost at least `min_loss`
/// discs (at least 1), each due on `today`. Win/draw/loss values are left out (they count
/// no discs), and so are positions with a single legal move (nothing to find).
pub fn collect(
    analysed: &[AnalysedMove],
    side: Color,
    min_loss: i32,
    player: &str,
    game: &str,
    today: Day,
) -> Vec<Card> {
    let min_loss = min_loss.max(1);
    analysed
        .iter()
        .filter(|m| m.position.side_to_move() == side)
        .filter(|m| m.position.legal_moves().len() > 1)
        .filter(|m| m.loss().is_some_and(|l| l >= min_loss))
        .map(|m| Card {
            position: m.position,
            played: m.played,
            played_eval: m.played_eval,
            best: m.best,
            best_eval: m.best_eval,
            origin: Origin {
                player: player.to_string(),
                game: game.to_string(),
                ply: m.ply,
            },
            schedule: Schedule::new(today),
            history: Vec::new(),
        })
        .collect()
}

/// The moves of `side` in a game from `start`, as the game analysis takes them: the ply
/// (passes counted), the position before the move and the move. Passes forced by the
/// position are taken as they come; a move that does not replay ends the list there
/// with its ply and why.
pub fn plies_of_side(
    start: Position,
    moves: &[Move],
    side: Color,
) -> (Vec<(usize, Position, Square)>, Option<String>) {
    let mut plies = Vec::new();
    let mut p = start;
    let mut ply = 0;
    for &mv in moves {
        if p.must_pass() && mv != Move::Pass {
            p.force_pass();
            ply += 1;
        }
        if let Move::Play(sq) = mv
            && p.side_to_move() == side
            && p.is_legal(sq)
        {
            plies.push((ply, p, sq));
        }
        if let Err(e) = p.play_move(mv) {
            return (plies, Some(format!("move {} ({mv}): {e}", ply + 1)));
        }
        ply += 1;
    }
    (plies, None)
}

/// The answer given in a practice position, judged against the values of every move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The move chosen.
    pub chosen: Square,
    /// Its value for the mover.
    pub chosen_eval: Eval,
    /// The best move.
    pub best: Square,
    /// Its value.
    pub best_eval: Eval,
    /// The discs allowed by the tolerance for these values ([`Tolerance::allowed`]).
    pub allowed: i32,
    /// The move counts as found: it loses no more than `allowed` discs.
    pub right: bool,
}

impl Judgement {
    /// Discs the chosen move loses against the best.
    pub fn loss(&self) -> i32 {
        (self.best_eval.value - self.chosen_eval.value).max(0)
    }

    /// Both values were proven by the solver.
    pub fn proven(&self) -> bool {
        self.chosen_eval.source == EvalSource::Exact && self.best_eval.source == EvalSource::Exact
    }
}

/// Judges `chosen` against `values`, one per legal move (exact where the solver reached,
/// else the search's): right when it loses no more than `tolerance` allows against the
/// best (its figure for proven values when both are proven, else its figure for searched
/// ones). `None` when `chosen` has no value yet.
pub fn judge(values: &[(Square, Eval)], chosen: Square, tolerance: Tolerance) -> Option<Judgement> {
    let chosen_eval = values.iter().find(|(s, _)| *s == chosen)?.1;
    // The best value; among equals the move chosen (it is as good), else the first square in
    // board order (a1, b1, ... h8).
    let &(best, best_eval) = values
        .iter()
        .max_by_key(|(s, e)| (e.value, *s == chosen, std::cmp::Reverse(*s)))?;
    let loss = best_eval.value - chosen_eval.value;
    let proven = chosen_eval.source == EvalSource::Exact && best_eval.source == EvalSource::Exact;
    let allowed = tolerance.clamped().allowed(proven);
    Some(Judgement {
        chosen,
        chosen_eval,
        best,
        best_eval,
        allowed,
        right: loss <= allowed,
    })
}

/// A game of a named player from a games database, with the colour the player had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerGame {
    /// The player's colour in this game.
    pub side: Color,
    /// The player's name as the game gives it.
    pub player: String,
    /// The game as a person recognises it (`Alice - Bob, Open 2001`).
    pub label: String,
    /// The moves from the standard start (passes left out, as the database keeps them).
    pub moves: Vec<Square>,
}

impl PlayerGame {
    /// The player's moves, as the game analysis takes them (see [`plies_of_side`]).
    pub fn plies(&self) -> (Vec<(usize, Position, Square)>, Option<String>) {
        let moves: Vec<Move> = self.moves.iter().map(|&s| Move::Play(s)).collect();
        plies_of_side(Position::start(), &moves, self.side)
    }

    /// What identifies the game and side in the practice file, so a game collected once
    /// is not analysed again: the colour and the moves.
    pub fn key(&self) -> String {
        game_key(self.side, self.moves.iter().map(|&s| Move::Play(s)))
    }
}

/// The key of a game and side (see [`PlayerGame::key`]): `B:` or `W:` and the moves.
pub fn game_key(side: Color, moves: impl IntoIterator<Item = Move>) -> String {
    let mut key = String::from(if side == Color::Black { "B:" } else { "W:" });
    for mv in moves {
        if let Move::Play(sq) = mv {
            key.push_str(&sq.to_string());
        }
    }
    key
}

/// The games of the player whose name contains `name` (case-insensitive, as the
/// database's player filter reads it), with either colour, in database order; none for a
/// blank name.
pub fn games_of_player(db: &Database, name: &str) -> Vec<PlayerGame> {
    if name.trim().is_empty() {
        return Vec::new();
    }
    let mut games = Vec::new();
    for (side, player_side) in [
        (Color::Black, PlayerSide::Black),
        (Color::White, PlayerSide::White),
    ] {
        let filter = Filter {
            player: name.to_string(),
            side: player_side,
            ..Filter::default()
        };
        // Every game starts from the standard position: the query finds them all.
        for hit in db.query(&Position::start(), &filter).games {
            let id = hit.id as usize;
            let info = db.game(id);
            let (black, white) = (db.player(info.black), db.player(info.white));
            let mut label = format!("{black} - {white}");
            let tournament = db.tournament(info.tournament);
            if !tournament.is_empty() {
                label += &format!(", {tournament}");
            }
            if info.year > 0 && !tournament.contains(&info.year.to_string()) {
                label += &format!(" {}", info.year);
            }
            if tournament.is_empty() {
                let source = db.source(info.source);
                if let Some(file) = Path::new(source).file_name() {
                    label += &format!(" ({})", file.to_string_lossy());
                }
            }
            games.push((
                id,
                PlayerGame {
                    side,
                    player: if side == Color::Black { black } else { white }.to_string(),
                    label,
                    moves: db.squares(id),
                },
            ));
        }
    }
    games.sort_by_key(|(id, g)| (*id, g.side == Color::White));
    games.into_iter().map(|(_, g)| g).collect()
}

/// What reading a folder of games found.
#[derive(Debug, Default)]
pub struct FolderGames {
    /// The named player's games.
    pub games: Vec<PlayerGame>,
    /// Games read in all, anyone's.
    pub read: usize,
    /// Files that could not be read, with why.
    pub bad_files: Vec<String>,
}

/// The games of the player named `name` in the folder `dir` and its subfolders: every
/// kind of game file the games database reads there (WTHOR, PGN, GGF, Okapi JSON,
/// transcripts), read by the database's own folder reader; a file that does not read is
/// reported and skipped.
pub fn folder_games(dir: &Path, name: &str) -> Result<FolderGames, crate::db::DbError> {
    let mut builder = crate::db::Builder::new();
    let report = crate::db::sources::add_folder(&mut builder, dir);
    let db = builder.build()?;
    Ok(FolderGames {
        games: games_of_player(&db, name),
        read: db.len(),
        bad_files: report
            .bad_files
            .iter()
            .map(|(p, why)| format!("{}: {why}", p.display()))
            .collect(),
    })
}

#[cfg(test)]
mod tests;
