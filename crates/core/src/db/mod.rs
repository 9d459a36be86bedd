//! The games database: master games (the French Othello Federation's WTHOR database,
//! shipped as `data/wthor.okdb`) and the user's own, searchable by position.
//!
//! - [`Database`]: the games (players, tournament, year, Black's score, the theoretical
//!   score, the moves as one byte each) and an [`index`] from every position, canonical
//!   under the 8 symmetries of the board (transpositions come free: the key is the
//!   position, not the moves that reached it), to the games reaching it.
//! - [`Database::query`]: for a position and a [`Filter`], each next move with its games,
//!   Black's wins, draws and losses and the average final disc difference, mapped back to
//!   the board's orientation, and the games themselves.
//! - [`file`](mod@file): the compact `.okdb` file (names, then the games column by column, zlib,
//!   checksummed like the book and the weights).
//! - [`sources`]: reading WTHOR (`.wtb` with `WTHOR.JOU`/`.TRN`), the PGN-like text
//!   exports, GGF files and Okapi's own saved games into a [`Builder`]; a corrupt or foreign
//!   file in a user's folder is reported by name and skipped.
//!
//! No user interface here: the app's Database tab and `okapi db` are built on this.

pub mod file;
pub mod index;
pub mod sources;

use crate::board::symmetry::{Symmetry, transform};
use crate::board::{Color, Position, Square};
use crate::formats::records::{GameRecord, TheoreticalScore};
use index::{Index, IndexedPosition};
use std::collections::HashMap;

/// The most games a database holds (game numbers are `u32`; this keeps memory bounded:
/// about 80 bytes a game, 160 MB at the limit).
pub const MAX_GAMES: usize = 2_000_000;

/// The shipped database's path in the repository (built by `okapi db build`, see
/// `data/README.md`).
pub const SHIPPED_FILE: &str = "data/wthor.okdb";
static SHIPPED: &[u8] = include_bytes!("../../../../data/wthor.okdb");

/// The shipped database's bytes (compiled into the binary): the WTHOR games 1977-2025.
pub fn shipped_bytes() -> &'static [u8] {
    SHIPPED
}

/// The shipped database, read and indexed (a few hundred milliseconds: call it off the
/// user interface's thread; `okapi bench --db` measures it).
pub fn load_shipped() -> Result<Database, DbError> {
    Database::from_bytes(SHIPPED)
}

/// Why a database could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] crate::formats::ReadError),
    /// Not a games database (no `OKAPIGDB`), one of another format version, or cut inside
    /// its header.
    #[error(transparent)]
    Header(#[from] crate::binary::HeaderError),
    /// Cut short or inconsistent: what is wrong.
    #[error("games database is truncated or malformed: {0}")]
    Malformed(String),
    #[error(
        "games database checksum mismatch (stored {stored:016x}, computed {computed:016x}): the file is corrupt"
    )]
    /// The payload does not match its checksum.
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the payload read.
        computed: u64,
    },
    #[error("game {game}: move {index} does not replay", index = .mv.index + 1)]
    /// A game whose moves do not replay.
    BadGame {
        /// The game's number (from 1).
        game: usize,
        /// Its first move that does not replay.
        mv: index::IllegalMove,
    },
    /// More games than [`MAX_GAMES`].
    #[error("more than {MAX_GAMES} games")]
    TooManyGames,
}

/// One game's facts (the moves are kept apart, see [`Database::moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// Index into [`Database::player`].
    pub black: u32,
    /// Index into [`Database::player`].
    pub white: u32,
    /// Index into [`Database::tournament`].
    pub tournament: u32,
    /// Index into [`Database::source`]: the file or collection the game came from.
    pub source: u32,
    /// 0 when unknown.
    pub year: u16,
    /// Black's final disc difference (empties to the winner).
    pub black_score: i8,
    /// WTHOR's perfect-play score, where the file has one.
    pub theoretical: Option<TheoreticalScore>,
    /// The game was played to its end: `black_score` is its result. An unfinished game
    /// (a saved game stopped half-way) has the disc difference where it stops, which is
    /// no result: it is left out of the win and score figures.
    pub finished: bool,
    /// An XOT game: its first moves were drawn from the XOT list, not chosen by the
    /// players, so its opening says nothing of what players choose ([`XotGames`]). Told
    /// by the tournament's name ([`is_xot_event`]) or a GGF random-start type (`TY[8r]`).
    pub xot: bool,
}

/// Does an event's name say its games are XOT (`Zurich (XOT) - 2025`, `XOT cup`)? The
/// word XOT in any letter case, alone (not inside another word).
pub fn is_xot_event(name: &str) -> bool {
    name.split(|c: char| !c.is_alphanumeric())
        .any(|word| word.eq_ignore_ascii_case("xot"))
}

impl GameInfo {
    /// Black's and White's disc counts as WTHOR writes a result (`40-24`).
    pub fn result_text(&self) -> String {
        let b = (64 + i32::from(self.black_score)) / 2;
        format!("{b}-{}", 64 - b)
    }
}

/// Names interned once (players, tournaments, sources).
#[derive(Clone, Debug, Default)]
struct Names {
    names: Vec<String>,
    ids: HashMap<String, u32>,
}

impl Names {
    fn id(&mut self, name: &str) -> u32 {
        // One line of printable text: names go to tables, CSV and a one-line file format.
        let clean: String = name
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let clean = clean.trim();
        if let Some(&id) = self.ids.get(clean) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(clean.to_string());
        self.ids.insert(clean.to_string(), id);
        id
    }

    fn from_list(names: Vec<String>) -> Names {
        let ids = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u32))
            .collect();
        Names { names, ids }
    }
}

/// Collects games, then [`Builder::build`] indexes them.
#[derive(Clone, Debug)]
pub struct Builder {
    players: Names,
    tournaments: Names,
    sources: Names,
    games: Vec<GameInfo>,
    moves: Vec<u8>,
    starts: Vec<u32>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            players: Names::default(),
            tournaments: Names::default(),
            sources: Names::default(),
            games: Vec::new(),
            moves: Vec::new(),
            starts: vec![0],
        }
    }
}

/// The names of a game, as the source gives them.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameNames<'a> {
    /// Black's name.
    pub black: &'a str,
    /// White's name.
    pub white: &'a str,
    /// The tournament or event.
    pub tournament: &'a str,
    /// The file or collection the game comes from.
    pub source: &'a str,
}

impl Builder {
    /// An empty builder.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Adds a game that replays (the readers of [`crate::formats::records`] only return
    /// such games; [`Builder::build`] checks again).
    pub fn add(&mut self, record: &GameRecord, names: GameNames) -> Result<(), DbError> {
        if self.games.len() >= MAX_GAMES {
            return Err(DbError::TooManyGames);
        }
        let info = GameInfo {
            black: self.players.id(names.black),
            white: self.players.id(names.white),
            tournament: self.tournaments.id(names.tournament),
            source: self.sources.id(names.source),
            year: record.year,
            black_score: record.black_score,
            theoretical: record.theoretical,
            finished: true,
            xot: is_xot_event(names.tournament),
        };
        self.games.push(info);
        self.moves
            .extend(record.moves.iter().take(60).map(|s| s.index() as u8));
        self.starts.push(self.moves.len() as u32);
        Ok(())
    }

    /// Marks the game added last as XOT ([`GameInfo::xot`]) whatever its tournament.
    pub fn mark_last_xot(&mut self) {
        if let Some(last) = self.games.last_mut() {
            last.xot = true;
        }
    }

    /// Adds a game that stops before its end ([`GameInfo::finished`]).
    pub fn add_unfinished(&mut self, record: &GameRecord, names: GameNames) -> Result<(), DbError> {
        self.add(record, names)?;
        if let Some(last) = self.games.last_mut() {
            last.finished = false;
        }
        Ok(())
    }

    /// Games added so far.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// No game added yet.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Adds every game of a database (the shipped one, before the user's folders).
    pub fn extend(&mut self, db: &Database) -> Result<(), DbError> {
        for id in 0..db.len() {
            let g = db.games[id];
            let record = GameRecord {
                moves: db.squares(id),
                black_score: g.black_score,
                theoretical: g.theoretical,
                year: g.year,
            };
            self.add(
                &record,
                GameNames {
                    black: db.player(g.black),
                    white: db.player(g.white),
                    tournament: db.tournament(g.tournament),
                    source: db.source(g.source),
                },
            )?;
            if let Some(last) = self.games.last_mut() {
                last.finished = g.finished;
                last.xot = g.xot;
            }
        }
        Ok(())
    }

    /// Indexes the games.
    pub fn build(self) -> Result<Database, DbError> {
        let index = Index::build(&self.moves, &self.starts).map_err(|e| DbError::BadGame {
            game: e.game + 1,
            mv: e.mv,
        })?;
        Ok(Database {
            players: self.players.names,
            tournaments: self.tournaments.names,
            sources: self.sources.names,
            games: self.games,
            moves: self.moves,
            starts: self.starts,
            index,
        })
    }
}

/// Games searchable by position.
#[derive(Clone, Debug, Default)]
pub struct Database {
    players: Vec<String>,
    tournaments: Vec<String>,
    sources: Vec<String>,
    games: Vec<GameInfo>,
    /// Square indices, game after game.
    moves: Vec<u8>,
    /// `starts[g]..starts[g + 1]` are game `g`'s moves.
    starts: Vec<u32>,
    index: Index,
}

/// Whose games a player filter keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlayerSide {
    #[default]
    /// The player with either colour.
    Either,
    /// The player with Black.
    Black,
    /// The player with White.
    White,
}

/// Whether a query keeps XOT games ([`GameInfo::xot`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum XotGames {
    /// Left out (the default): an XOT game's first moves were drawn, not chosen, and
    /// would count in the opening statistics as if players had chosen them.
    #[default]
    Exclude,
    /// Only XOT games.
    Only,
    /// Every game, XOT or not.
    Include,
}

impl XotGames {
    /// Does a game of this kind pass?
    pub fn keeps(self, xot: bool) -> bool {
        match self {
            XotGames::Exclude => !xot,
            XotGames::Only => xot,
            XotGames::Include => true,
        }
    }
}

/// Which games a query keeps. Text matches are case-insensitive substrings. The default
/// keeps every game but the XOT ones ([`XotGames::Exclude`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Part of a player's name; empty for any player.
    pub player: String,
    /// Which colour the player must have.
    pub side: PlayerSide,
    /// Part of a tournament's name; empty for any.
    pub tournament: String,
    /// The first year kept.
    pub from_year: Option<u16>,
    /// The last year kept.
    pub to_year: Option<u16>,
    /// XOT games left out, alone, or kept with the others.
    pub xot: XotGames,
}

impl Filter {
    /// Keeps every game (XOT games included).
    pub fn is_empty(&self) -> bool {
        self.names_and_years_empty() && self.xot == XotGames::Include
    }

    /// Keeps every player, tournament and year.
    fn names_and_years_empty(&self) -> bool {
        self.player.trim().is_empty()
            && self.tournament.trim().is_empty()
            && self.from_year.is_none()
            && self.to_year.is_none()
    }
}

/// One next move from the queried position, over the games kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveStats {
    /// In the queried board's orientation. Moves equivalent under a symmetry of the
    /// position itself (the four first moves) are one row, shown as the one most played.
    pub square: Square,
    /// Games that played the move.
    pub games: u32,
    /// Of them, won by Black.
    pub black_wins: u32,
    /// Of them, drawn.
    pub draws: u32,
    /// Of them, lost by Black.
    pub black_losses: u32,
    /// Sum of Black's final disc differences.
    pub black_score_sum: i64,
    /// Of the games, those not played to their end: in `games`, in no result.
    pub unfinished: u32,
}

impl MoveStats {
    /// The games with a result (played to their end).
    pub fn finished(&self) -> u32 {
        self.games - self.unfinished
    }

    /// Black's score in per cent over the finished games, a draw counting half.
    pub fn black_win_percent(&self) -> f64 {
        if self.finished() == 0 {
            return 0.0;
        }
        100.0 * (self.black_wins as f64 + 0.5 * self.draws as f64) / self.finished() as f64
    }

    /// Black's average final disc difference over the finished games.
    pub fn average_black_score(&self) -> f64 {
        if self.finished() == 0 {
            return 0.0;
        }
        self.black_score_sum as f64 / self.finished() as f64
    }
}

/// A game reaching the queried position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameHit {
    /// The game's number in the database.
    pub id: u32,
    /// The game's board at that point is this symmetry of the queried board.
    pub symmetry: Symmetry,
    /// The game's next move in the queried board's orientation; `None` if it ended there.
    pub next: Option<Square>,
}

/// What a query found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// Most played first.
    pub moves: Vec<MoveStats>,
    /// In database order (by source, then as the source lists them).
    pub games: Vec<GameHit>,
}

impl Database {
    /// Reads `.okdb` bytes and indexes the games (see [`file`](mod@file)).
    pub fn from_bytes(bytes: &[u8]) -> Result<Database, DbError> {
        file::read(bytes)?.build()
    }

    /// Loads an `.okdb` file.
    pub fn load(path: &std::path::Path) -> Result<Database, DbError> {
        let bytes = crate::formats::read_capped(path, file::MAX_FILE)?;
        Database::from_bytes(&bytes)
    }

    /// The `.okdb` file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        file::write(self)
    }

    /// Games held.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// No game held.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Game `id`'s facts.
    pub fn game(&self, id: usize) -> &GameInfo {
        &self.games[id]
    }

    /// Game `id`'s moves as square indices (0 = a1 .. 63 = h8), passes left out.
    pub fn moves(&self, id: usize) -> &[u8] {
        &self.moves[self.starts[id] as usize..self.starts[id + 1] as usize]
    }

    /// Game `id`'s moves as squares.
    pub fn squares(&self, id: usize) -> Vec<Square> {
        self.moves(id)
            .iter()
            .map(|&s| Square::new(u32::from(s)))
            .collect()
    }

    /// Player `id`'s name (empty if there is none).
    pub fn player(&self, id: u32) -> &str {
        self.players.get(id as usize).map_or("", |s| s.as_str())
    }

    /// Tournament `id`'s name (empty if there is none).
    pub fn tournament(&self, id: u32) -> &str {
        self.tournaments.get(id as usize).map_or("", |s| s.as_str())
    }

    /// Source `id`'s name (empty if there is none).
    pub fn source(&self, id: u32) -> &str {
        self.sources.get(id as usize).map_or("", |s| s.as_str())
    }

    /// Every player's name, by number.
    pub fn players(&self) -> &[String] {
        &self.players
    }

    /// Every tournament's name, by number.
    pub fn tournaments(&self) -> &[String] {
        &self.tournaments
    }

    /// Every source's name, by number.
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    /// Bytes held by the games and the index (not counting allocator overhead).
    pub fn memory(&self) -> usize {
        let names: usize = [&self.players, &self.tournaments, &self.sources]
            .iter()
            .flat_map(|v| v.iter())
            .map(|s| s.capacity() + std::mem::size_of::<String>())
            .sum();
        names
            + self.games.capacity() * std::mem::size_of::<GameInfo>()
            + self.moves.capacity()
            + self.starts.capacity() * 4
            + self.index.memory()
    }

    /// Bytes held by the position index alone.
    pub fn index_memory(&self) -> usize {
        self.index.memory()
    }

    /// The games kept by `filter`'s names and years as a per-game mask, or `None` for all
    /// (the XOT choice is checked game by game, [`Database::query`]).
    fn filter_mask(&self, filter: &Filter) -> Option<Vec<bool>> {
        if filter.names_and_years_empty() {
            return None;
        }
        let matching = |names: &[String], needle: &str| -> Option<Vec<bool>> {
            let needle = needle.trim().to_lowercase();
            (!needle.is_empty()).then(|| {
                names
                    .iter()
                    .map(|n| n.to_lowercase().contains(&needle))
                    .collect()
            })
        };
        let players = matching(&self.players, &filter.player);
        let tournaments = matching(&self.tournaments, &filter.tournament);
        let from = filter.from_year.unwrap_or(0);
        let to = filter.to_year.unwrap_or(u16::MAX);
        Some(
            self.games
                .iter()
                .map(|g| {
                    let player_ok = players.as_ref().is_none_or(|p| match filter.side {
                        PlayerSide::Either => p[g.black as usize] || p[g.white as usize],
                        PlayerSide::Black => p[g.black as usize],
                        PlayerSide::White => p[g.white as usize],
                    });
                    let tournament_ok = tournaments
                        .as_ref()
                        .is_none_or(|t| t[g.tournament as usize]);
                    player_ok && tournament_ok && (from..=to).contains(&g.year)
                })
                .collect(),
        )
    }

    /// Every game reaching `position` (under the 8 symmetries, by any move order) that
    /// `filter` keeps, and the next moves' statistics.
    pub fn query(&self, position: &Position, filter: &Filter) -> Answer {
        let query =
            IndexedPosition::from_board(position.board(), position.side_to_move() == Color::Black);
        let ply = query.ply();
        let images: Vec<(Symmetry, IndexedPosition)> = Symmetry::ALL
            .iter()
            .map(|&s| (s, query.transformed(s)))
            .collect();
        // The symmetries that leave the queried position as it is: moves they exchange are
        // the same move.
        let own: Vec<Symmetry> = images
            .iter()
            .filter(|(_, p)| *p == query)
            .map(|&(s, _)| s)
            .collect();
        let mask = self.filter_mask(filter);
        let mut answer = Answer::default();
        // Per class of equivalent squares (its smallest member): stats and how often each
        // member was the square played as mapped.
        let mut classes: Vec<Option<(MoveStats, [u32; 64])>> = vec![None; 64];
        let mut last = u32::MAX;
        for g in self.index.candidates(query.key()) {
            if g == last {
                continue;
            }
            last = g;
            let id = g as usize;
            if mask.as_ref().is_some_and(|m| !m[id]) || !filter.xot.keeps(self.games[id].xot) {
                continue;
            }
            let moves = self.moves(id);
            let Some(at) = index::position_at(moves, ply) else {
                continue;
            };
            let Some(&(s, _)) = images.iter().find(|(_, img)| img.same_as(&at)) else {
                continue;
            };
            // The game's board is s(query): its move m is s⁻¹(m) on the queried board.
            let next = moves
                .get(ply)
                .map(|&m| Square::new(s.inverse().square(u32::from(m))));
            answer.games.push(GameHit {
                id: g,
                symmetry: s,
                next,
            });
            let Some(sq) = next else { continue };
            let class = own
                .iter()
                .map(|t| t.square(sq.index()))
                .min()
                .unwrap_or(sq.index());
            let (stats, seen) = classes[class as usize].get_or_insert((
                MoveStats {
                    square: sq,
                    games: 0,
                    black_wins: 0,
                    draws: 0,
                    black_losses: 0,
                    black_score_sum: 0,
                    unfinished: 0,
                },
                [0; 64],
            ));
            let info = &self.games[id];
            stats.games += 1;
            if !info.finished {
                // Where it stopped is no result (short games moved Black's score from
                // 48% to 67%).
                stats.unfinished += 1;
                seen[sq.index() as usize] += 1;
                continue;
            }
            match info.black_score.signum() {
                1 => stats.black_wins += 1,
                0 => stats.draws += 1,
                _ => stats.black_losses += 1,
            }
            stats.black_score_sum += i64::from(info.black_score);
            seen[sq.index() as usize] += 1;
        }
        answer.moves = classes
            .into_iter()
            .flatten()
            .map(|(mut stats, seen)| {
                let most = (0..64).max_by_key(|&i| (seen[i], std::cmp::Reverse(i)));
                stats.square = Square::new(most.unwrap_or(0) as u32);
                stats
            })
            .collect();
        answer
            .moves
            .sort_by_key(|m| (std::cmp::Reverse(m.games), m.square.index()));
        answer
    }

    /// Game `id` drawn in the queried board's orientation (`symmetry` from its
    /// [`GameHit`]): the start position and the moves, so that replaying them passes
    /// through the queried position.
    pub fn oriented(&self, id: usize, symmetry: Symmetry) -> (Position, Vec<Square>) {
        let back = symmetry.inverse();
        let start = Position::start();
        let start = Position::from_discs(
            transform(start.black(), back),
            transform(start.white(), back),
            Color::Black,
        );
        let moves = self
            .moves(id)
            .iter()
            .map(|&m| Square::new(back.square(u32::from(m))))
            .collect();
        (start, moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &str, black_score: i8, year: u16) -> GameRecord {
        GameRecord {
            moves: moves
                .as_bytes()
                .chunks(2)
                .map(|c| Square::parse(std::str::from_utf8(c).unwrap()).unwrap())
                .collect(),
            black_score,
            theoretical: None,
            year,
        }
    }

    fn sample() -> Database {
        let mut b = Builder::new();
        let games = [
            ("f5d6c3d3c4", 10, "Alice", "Bob", 2001),
            ("f5d6c4d3c3", -4, "Bob", "Alice", 2002),
            ("e6f4c3c4d3", 0, "Carol", "Alice", 2003),
            ("f5f6e6f4", 20, "Carol", "Dave", 2004),
        ];
        for (m, score, black, white, year) in games {
            b.add(
                &record(m, score, year),
                GameNames {
                    black,
                    white,
                    tournament: "Open",
                    source: "test",
                },
            )
            .unwrap();
        }
        b.build().unwrap()
    }

    fn after(moves: &str) -> Position {
        let mut p = Position::start();
        for c in moves.as_bytes().chunks(2) {
            p.play(Square::parse(std::str::from_utf8(c).unwrap()).unwrap())
                .unwrap();
        }
        p
    }

    #[test]
    fn the_start_merges_the_four_first_moves() {
        let db = sample();
        let a = db.query(&Position::start(), &Filter::default());
        assert_eq!(a.games.len(), 4);
        assert_eq!(a.moves.len(), 1);
        assert_eq!(a.moves[0].games, 4);
        assert_eq!(a.moves[0].square.to_string(), "f5");
        assert_eq!((a.moves[0].black_wins, a.moves[0].draws), (2, 1));
        assert_eq!(a.moves[0].black_score_sum, 26);
    }

    #[test]
    fn symmetric_and_transposed_games_map_to_the_board() {
        let db = sample();
        // After f5 d6, e6 f4 is the same position reflected: game 3's next move shows
        // reflected back on the queried board.
        let a = db.query(&after("f5d6"), &Filter::default());
        assert_eq!(a.games.len(), 3);
        let total: u32 = a.moves.iter().map(|m| m.games).sum();
        assert_eq!(total, 3);
        for hit in &a.games {
            let (start, moves) = db.oriented(hit.id as usize, hit.symmetry);
            let mut p = start;
            for &m in &moves[..2] {
                p.play(m).unwrap();
            }
            assert_eq!(p, after("f5d6"), "game {}", hit.id);
            assert_eq!(hit.next, Some(moves[2]));
        }
        // Transpositions: both orders reach the position after five moves, and so does
        // game 3's reflection of it (e6 f4 c3 c4 d3).
        let a = db.query(&after("f5d6c3d3c4"), &Filter::default());
        assert_eq!(a.games.len(), 3);
        assert!(a.games.iter().all(|g| g.next.is_none()));
        assert!(a.moves.is_empty());
    }

    #[test]
    fn filters_keep_players_sides_tournaments_and_years() {
        let db = sample();
        let count = |f: Filter| db.query(&Position::start(), &f).games.len();
        let player = |name: &str, side| Filter {
            player: name.into(),
            side,
            ..Filter::default()
        };
        assert_eq!(count(player("alice", PlayerSide::Either)), 3);
        assert_eq!(count(player("alice", PlayerSide::Black)), 1);
        assert_eq!(count(player("ALICE", PlayerSide::White)), 2);
        assert_eq!(count(player("nobody", PlayerSide::Either)), 0);
        let years = Filter {
            from_year: Some(2002),
            to_year: Some(2003),
            ..Filter::default()
        };
        assert_eq!(count(years), 2);
        let tournament = Filter {
            tournament: "ope".into(),
            ..Filter::default()
        };
        assert_eq!(count(tournament), 4);
    }

    /// XOT games (told by the tournament's name) are out of the statistics unless asked
    /// for: alone, or with the others.
    #[test]
    fn xot_games_are_left_out_unless_asked_for() {
        assert!(is_xot_event("Zurich (XOT) - 2025"));
        assert!(is_xot_event("xot cup"));
        assert!(!is_xot_event("Xotic Open"));
        assert!(!is_xot_event(""));
        let mut b = Builder::new();
        b.extend(&sample()).unwrap();
        let names = GameNames {
            black: "Eve",
            white: "Frank",
            tournament: "Zurich (XOT) - 2025",
            source: "test",
        };
        b.add(&record("f5d6c3d3c4", -30, 2025), names).unwrap();
        let db = b.build().unwrap();
        let stats = |xot| {
            let a = db.query(
                &Position::start(),
                &Filter {
                    xot,
                    ..Filter::default()
                },
            );
            (a.games.len(), a.moves[0].black_score_sum)
        };
        assert_eq!(Filter::default().xot, XotGames::Exclude);
        assert_eq!(stats(XotGames::Exclude), (4, 26));
        assert_eq!(stats(XotGames::Only), (1, -30));
        assert_eq!(stats(XotGames::Include), (5, -4));
        assert!(
            Filter {
                xot: XotGames::Include,
                ..Filter::default()
            }
            .is_empty()
        );
    }

    #[test]
    fn the_file_round_trips() {
        let db = sample();
        let again = Database::from_bytes(&db.to_bytes()).unwrap();
        assert_eq!(again.len(), db.len());
        for id in 0..db.len() {
            assert_eq!(again.moves(id), db.moves(id));
            assert_eq!(again.game(id), db.game(id));
        }
        assert_eq!(again.players(), db.players());
        let a = again.query(&after("f5d6"), &Filter::default());
        assert_eq!(a, db.query(&after("f5d6"), &Filter::default()));
    }
}
