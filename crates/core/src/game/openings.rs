//! Opening names: Robert Gatliff's list of the named Othello openings (`assets/openings.txt`,
//! 77 lines, provenance in `assets/openings-SOURCE.md`), compiled in and parsed on first use.
//!
//! A name belongs to a *position*, not to a move order: every line of the list is played
//! from the standard start and the position it reaches is keyed by its canonical form
//! under the 8 symmetries of the board ([`crate::board::symmetry::canonical`]) and the side
//! to move. So a game reaches "Tiger" whether it starts f5, d3, c4 or e6, and whichever
//! order (a transposition) it plays the Tiger's moves in.
//!
//! Three questions are answered:
//! - [`Openings::name`]: the name of exactly this position, if it is a named one (what the
//!   database panel shows for a row; see [`opening_name`]).
//! - [`Openings::of_line`]: the opening a game is in: the **deepest named position on the
//!   game's line so far**. A game that has left the named lines keeps the last name it had
//!   (after f5 d6 c3 d3 c4 g5 g6, off every named line, it is still "Tiger"), as WZebra
//!   shows it: a player asks "which opening was this game?", and the answer does not
//!   vanish at the first move off the book line. The name is the *last* named position on
//!   the line, not the longest line of the list: a game that leaves a named line and
//!   transposes into another named position later is in the later one.
//! - [`Openings::leads_to`]: for a legal move, the name of the position it makes, or if
//!   that position is not named but lies on named lines, the next names along them
//!   (after f5, the move d6 "leads to: Perpendicular Opening"; from the start, f5 leads
//!   towards the Perpendicular, Parallel and Diagonal Openings).
//!
//! ```
//! use okapi_core::board::{Move, Position};
//! use okapi_core::game::openings::{self, opening_name};
//! let mut p = Position::start();
//! // The Tiger (f5 d6 c3 d3 c4) reflected in the h1-a8 diagonal: the same opening.
//! for m in ["d3", "c5", "f6", "f5", "e6"] {
//!     p.play_move(Move::parse(m).unwrap()).unwrap();
//! }
//! assert_eq!(opening_name(&p), Some("Tiger"));
//! assert_eq!(openings::shipped().list().len(), 77);
//! ```

use crate::board::symmetry::canonical;
use crate::board::{Color, Move, Position, Square};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The shipped list: `moves<TAB>name` a line, `#` comments.
static SHIPPED_TEXT: &str = include_str!("../../../../assets/openings.txt");

/// One named opening: its line from the standard start and its name (alternative names of
/// the same line separated by `/`, as the source writes them: "Aubrey/Tanaka").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<'a> {
    /// The name as the list writes it ("Aubrey/Tanaka").
    pub name: &'a str,
    /// The line from the standard start, Black first, no passes.
    pub moves: Vec<Square>,
}

/// Why a list of openings was not read: the line (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningListError {
    /// A line of the list that is not an opening.
    #[error("line {line}: {reason}")]
    Bad {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// The position key: the canonical side-relative board under the 8 symmetries and the
/// colour to move (two positions with the same discs and different sides to move are
/// different positions).
type Key = (u64, u64, Color);

fn key(p: &Position) -> Key {
    let c = canonical(&p.board()).0;
    (c.player, c.opponent, p.side_to_move())
}

/// The list, indexed by position.
#[derive(Clone, Debug, Default)]
pub struct Openings<'a> {
    list: Vec<Opening<'a>>,
    /// The named positions: the opening whose line ends there.
    named: HashMap<Key, usize>,
    /// Every position on a named line (the start excluded) that is not named itself, with
    /// the next named position along each line through it: the names, nearest first (by
    /// moves to go), without repeats. Built once, so a hover is one lookup.
    ahead: HashMap<Key, Vec<&'a str>>,
}

/// The opening a line is in: the deepest named position on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOpening<'a> {
    /// The opening's name.
    pub name: &'a str,
    /// The ply whose position is named: the line's first `ply` moves reach it.
    pub ply: usize,
}

/// What a move leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeadsTo<'a> {
    /// The position after the move is this named opening.
    Named(&'a str),
    /// The position after the move is on the named lines of these openings (the next
    /// named position along each line, shallowest first, without repeats), not named
    /// itself.
    Towards(Vec<&'a str>),
}

impl<'a> LeadsTo<'a> {
    /// What the app's tooltip says: "leads to: Rose", or "towards: Horse, Ralle, Rose"
    /// (at most `max` names, then "and N more").
    pub fn text(&self, max: usize) -> String {
        match self {
            LeadsTo::Named(name) => format!("leads to: {name}"),
            LeadsTo::Towards(names) => {
                let shown: Vec<&str> = names.iter().take(max).copied().collect();
                let mut text = format!("towards: {}", shown.join(", "));
                if names.len() > shown.len() {
                    text += &format!(" and {} more", names.len() - shown.len());
                }
                text
            }
        }
    }
}

impl<'a> Openings<'a> {
    /// Reads a list: one opening a line, `moves<TAB>name` (moves from the standard start,
    /// Black first, no passes, `f5d6c3`), blank lines and `#` comments skipped. Every
    /// move must be legal, and two lines must not name the same position.
    pub fn parse(text: &'a str) -> Result<Openings<'a>, OpeningListError> {
        let mut openings = Openings::default();
        for (n, raw) in text.lines().enumerate() {
            let line = n + 1;
            let bad = |reason: String| OpeningListError::Bad { line, reason };
            let trimmed = raw.trim_start().trim_end_matches(['\r', ' ']);
            if trimmed.trim().is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (moves_text, name) = trimmed
                .split_once('\t')
                .ok_or_else(|| bad("expected the moves, a tab, and the name".into()))?;
            let name = name.trim();
            if name.is_empty() {
                return Err(bad("the name is empty".into()));
            }
            let moves_text = moves_text.trim();
            if moves_text.is_empty() || !moves_text.is_ascii() || moves_text.len() % 2 != 0 {
                return Err(bad(format!(
                    "'{moves_text}' is not a list of squares (f5d6c3...)"
                )));
            }
            let mut moves = Vec::with_capacity(moves_text.len() / 2);
            let mut p = Position::start();
            for k in 0..moves_text.len() / 2 {
                let text = &moves_text[2 * k..2 * k + 2];
                let sq = Square::parse(text).map_err(|e| bad(e.to_string()))?;
                p.play(sq)
                    .map_err(|e| bad(format!("move {} ({text}): {e}", k + 1)))?;
                moves.push(sq);
            }
            if let Some(&other) = openings.named.get(&key(&p)) {
                return Err(bad(format!(
                    "'{name}' names the position of '{}' again",
                    openings.list[other].name
                )));
            }
            openings.named.insert(key(&p), openings.list.len());
            openings.list.push(Opening { name, moves });
        }
        // Once every named position is known (a later line may name a position in the
        // middle of an earlier one): along each line, from its end back, the next named
        // position after each unnamed one.
        let mut ahead: HashMap<Key, Vec<(usize, &'a str)>> = HashMap::new();
        for opening in &openings.list {
            let mut positions = Vec::with_capacity(opening.moves.len());
            let mut p = Position::start();
            for &sq in &opening.moves {
                p.play(sq).expect("checked legal above");
                positions.push(key(&p));
            }
            let mut next: Option<(usize, &'a str)> = None;
            for (ply, k) in positions.iter().enumerate().rev() {
                match openings.named.get(k) {
                    Some(&i) => next = Some((ply, openings.list[i].name)),
                    None => {
                        if let Some((at, name)) = next {
                            ahead.entry(*k).or_default().push((at - ply, name));
                        }
                    }
                }
            }
        }
        for (k, mut names) in ahead {
            names.sort();
            let mut unique: Vec<&'a str> = Vec::with_capacity(names.len());
            for (_, name) in names {
                if !unique.contains(&name) {
                    unique.push(name);
                }
            }
            openings.ahead.insert(k, unique);
        }
        Ok(openings)
    }

    /// Every opening, in the list's order.
    pub fn list(&self) -> &[Opening<'a>] {
        &self.list
    }

    /// The name of `position` if it is a named opening (in any of its 8 orientations,
    /// however its moves were ordered).
    pub fn name(&self, position: &Position) -> Option<&'a str> {
        self.named.get(&key(position)).map(|&i| self.list[i].name)
    }

    /// The opening the line `moves` from `start` is in: its deepest named position
    /// (see the module's notes). None if no position of the line is named; an illegal
    /// move ends the line there.
    pub fn of_line(&self, start: Position, moves: &[Move]) -> Option<LineOpening<'a>> {
        let mut p = start;
        let mut found = self.name(&p).map(|name| LineOpening { name, ply: 0 });
        for (i, &mv) in moves.iter().enumerate() {
            if p.play_move(mv).is_err() {
                break;
            }
            if let Some(name) = self.name(&p) {
                found = Some(LineOpening { name, ply: i + 1 });
            }
        }
        found
    }

    /// What playing `square` at `position` leads to; None if the move is illegal or its
    /// position is on no named line.
    pub fn leads_to(&self, position: &Position, square: Square) -> Option<LeadsTo<'a>> {
        let mut next = *position;
        next.play(square).ok()?;
        if let Some(name) = self.name(&next) {
            return Some(LeadsTo::Named(name));
        }
        let ahead = self.ahead.get(&key(&next))?;
        Some(LeadsTo::Towards(ahead.clone()))
    }
}

/// The shipped list (`assets/openings.txt`), parsed on first use: 0.14 ms (median of 51
/// parses, release build, on the shared 2-core development machine). After that the
/// opening of a 12-move line takes 0.6 µs and a move's "leads to" 0.17 µs (medians of 51
/// runs of 1,000), so the app asks again every frame instead of keeping a cache in step
/// with the game.
pub fn shipped() -> &'static Openings<'static> {
    static OPENINGS: OnceLock<Openings<'static>> = OnceLock::new();
    OPENINGS.get_or_init(|| {
        Openings::parse(SHIPPED_TEXT).expect("the shipped opening list is valid (tested)")
    })
}

/// The name of `position` in the shipped list, if it is a named opening: what the
/// database panel shows beside a row.
pub fn opening_name(position: &Position) -> Option<&'static str> {
    shipped().name(position)
}

/// The opening the line `moves` from `start` is in, by the shipped list: its deepest
/// named position (see the module's notes).
pub fn opening_of_line(start: Position, moves: &[Move]) -> Option<LineOpening<'static>> {
    shipped().of_line(start, moves)
}

/// What playing `square` at `position` leads to, by the shipped list.
pub fn leads_to(position: &Position, square: Square) -> Option<LeadsTo<'static>> {
    shipped().leads_to(position, square)
}

/// The opening of a game's current line up to its cursor (the status line's name).
pub fn opening_at_cursor(game: &super::Game) -> Option<LineOpening<'static>> {
    let moves = game.moves();
    opening_of_line(game.start(), &moves[..game.ply().min(moves.len())])
}

/// The opening of a game's main line, whole (what a saved game's comment names).
pub fn opening_of_main_line(game: &super::Game) -> Option<LineOpening<'static>> {
    opening_of_line(game.start(), &game.main_line())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::symmetry::{Symmetry, transform};

    fn squares(line: &str) -> Vec<Square> {
        (0..line.len() / 2)
            .map(|k| Square::parse(&line[2 * k..2 * k + 2]).unwrap())
            .collect()
    }

    fn moves(line: &str) -> Vec<Move> {
        squares(line).into_iter().map(Move::Play).collect()
    }

    fn sym(line: &str, s: Symmetry) -> Vec<Move> {
        squares(line)
            .into_iter()
            .map(|sq| Move::Play(Square::new(s.square(sq.index()))))
            .collect()
    }

    fn play(moves: &[Move]) -> Position {
        let mut p = Position::start();
        for (i, &m) in moves.iter().enumerate() {
            p.play_move(m)
                .unwrap_or_else(|e| panic!("move {} of {moves:?}: {e}", i + 1));
        }
        p
    }

    #[test]
    fn the_shipped_list_is_read_whole() {
        let o = shipped();
        assert_eq!(o.list().len(), 77);
        assert_eq!(o.named.len(), 77, "no two lines name one position");
        assert_eq!(o.list()[0].name, "Perpendicular Opening");
        let tiger = o.list().iter().find(|x| x.name == "Tiger").unwrap();
        assert_eq!(tiger.moves, squares("f5d6c3d3c4"));
    }

    /// A dozen known names, each reached through the 4 symmetric images of its line a game
    /// from the standard start can play (the start is symmetric under the identity, the
    /// half turn and the two diagonal reflections: f5, c4, e6 and d3 are Black's four
    /// first moves), through a different order of the same moves (a transposition), and as
    /// a set-up position in each of the 8 orientations (the other 4 swap the start's
    /// diagonals, so only a set-up board reaches them).
    #[test]
    fn known_names_under_symmetry_and_transposition() {
        // (name, its line as the list gives it, the same position by another move order;
        // the Cat and the Horse have none, found by trying every order of each side's moves)
        let cases = [
            ("Tiger", "f5d6c3d3c4", "f5d6c4d3c3"),
            ("Rose", "f5d6c5f4e3c6d3f6e6d7", "f5d6c5f6e6f4d3c6e3d7"),
            ("Buffalo/Kenichi Variation", "f5f6e6f4c3", "e6f6f5f4c3"),
            ("Cow", "f5f6e6f4e3", "f5f4e3f6e6"),
            ("Heath/Tobidashi", "f5f6e6f4g5", "e6f6f5f4g5"),
            ("No-Kung", "f5d6c3d3c4f4f6g5", "f5d6c3f4f6d3c4g5"),
            ("Cat", "f5d6c4d3c5", "f5d6c4d3c5"),
            ("Horse", "f5d6c5f4d3", "f5d6c5f4d3"),
            ("Snake/Peasant", "f5f6e6f4g6", "e6f6f5f4g6"),
            ("Stephenson", "f5d6c3d3c4f4f6", "f5d6c4f4f6d3c3"),
            ("Chimney", "f5f6e6f4e3d6", "f5f4e3d6e6f6"),
            ("Perpendicular Opening", "f5d6", "f5d6"),
            ("Parallel Opening", "f5f4", "f5f4"),
            ("Diagonal Opening", "f5f6", "f5f6"),
            ("Rose-v-Toth", "f5f6e6f4e3c5c4", "f5f4e3f6e6c5c4"),
        ];
        let playable = [
            Symmetry::Identity,
            Symmetry::Rotate180,
            Symmetry::FlipDiagonal,
            Symmetry::FlipAntiDiagonal,
        ];
        let o = shipped();
        for (name, line, transposed) in cases {
            let mut first_moves = Vec::new();
            for s in playable {
                let moves = sym(line, s);
                first_moves.push(moves[0].to_string());
                let p = play(&moves);
                assert_eq!(o.name(&p), Some(name), "{name}: {line} under {s:?}");
                let t = play(&sym(transposed, s));
                // the transposed order reaches the very same position
                assert_eq!(t, p, "{name}: {transposed} under {s:?}");
                assert_eq!(o.name(&t), Some(name), "{name}: {transposed} under {s:?}");
            }
            first_moves.sort();
            assert_eq!(first_moves, ["c4", "d3", "e6", "f5"]);
            let p = play(&moves(line));
            for s in Symmetry::ALL {
                let image = Position::from_discs(
                    transform(p.black(), s),
                    transform(p.white(), s),
                    p.side_to_move(),
                );
                assert_eq!(o.name(&image), Some(name), "{name} set up under {s:?}");
            }
        }
    }

    #[test]
    fn a_mirror_image_is_the_same_position_to_the_key() {
        let p = play(&moves("f5d6c3d3c4"));
        for s in Symmetry::ALL {
            let q = Position::from_discs(
                transform(p.black(), s),
                transform(p.white(), s),
                p.side_to_move(),
            );
            assert_eq!(key(&q), key(&p));
        }
        // the same discs with the other side to move are another position
        let mut q = p;
        q.force_pass();
        assert_eq!(shipped().name(&q), None);
    }

    #[test]
    fn a_line_keeps_the_last_name_it_had() {
        let o = shipped();
        let start = Position::start();
        assert_eq!(o.of_line(start, &[]), None);
        assert_eq!(o.of_line(start, &moves("f5")), None);
        let at = |line: &str| o.of_line(start, &moves(line)).unwrap();
        assert_eq!(at("f5d6").name, "Perpendicular Opening");
        assert_eq!(at("f5d6c3d3c4f4f6f3").name, "Comp'Oth");
        // e6 e7 name nothing (the line goes on towards the F.A.T. Draw): still Comp'Oth,
        // from ply 8
        assert_eq!(
            at("f5d6c3d3c4f4f6f3e6e7"),
            LineOpening {
                name: "Comp'Oth",
                ply: 8
            }
        );
        // off every named line (g5 g6 after the Tiger): still the Tiger
        assert_eq!(
            at("f5d6c3d3c4g5g6"),
            LineOpening {
                name: "Tiger",
                ply: 5
            }
        );
        assert_eq!(
            o.leads_to(&play(&moves("f5d6c3d3c4")), Square::parse("g5").unwrap()),
            None
        );
        // the deepest of the names on the line: the Rose at ply 10, not the Perpendicular
        // Opening at ply 2
        assert_eq!(at("f5d6c5f4e3c6d3f6e6d7").name, "Rose");
        // the mirror image of the Rose from e6 (f5 d6 ... turned in the a1-h8 diagonal)
        let mirrored = sym("f5d6c5f4e3c6d3f6e6d7", Symmetry::FlipDiagonal);
        assert_eq!(o.of_line(start, &mirrored).unwrap().name, "Rose");
        // an illegal move ends the line where it is
        let mut broken = moves("f5d6c3d3c4");
        broken.push(Move::Play(Square::parse("a1").unwrap()));
        broken.extend(moves("f4"));
        assert_eq!(o.of_line(start, &broken).unwrap().name, "Tiger");
    }

    #[test]
    fn a_move_leads_to_a_name_or_towards_the_next_ones() {
        let o = shipped();
        let sq = |s: &str| Square::parse(s).unwrap();
        let before_rose = play(&moves("f5d6c5f4e3c6d3f6e6"));
        assert_eq!(
            o.leads_to(&before_rose, sq("d7")),
            Some(LeadsTo::Named("Rose"))
        );
        // from the start, f5 is on every line: the three second-move openings come next
        let towards = match o.leads_to(&Position::start(), sq("f5")) {
            Some(LeadsTo::Towards(names)) => names,
            other => panic!("{other:?}"),
        };
        let mut sorted = towards.clone();
        sorted.sort();
        assert_eq!(
            sorted,
            [
                "Diagonal Opening",
                "Parallel Opening",
                "Perpendicular Opening"
            ]
        );
        // the same from a mirror image of the start move (c4)
        assert_eq!(
            o.leads_to(&Position::start(), sq("c4")),
            Some(LeadsTo::Towards(towards))
        );
        // f5 d6 c3: towards the Tiger (c3 d3 c4 next), Bent Ganglion is g5 from here
        let after_c3 = play(&moves("f5d6"));
        match o.leads_to(&after_c3, sq("c3")) {
            Some(LeadsTo::Towards(names)) => {
                assert!(
                    names.contains(&"Tiger") && names.contains(&"Bent Ganglion"),
                    "{names:?}"
                )
            }
            other => panic!("{other:?}"),
        }
        // an illegal move, and a move off every named line
        assert_eq!(o.leads_to(&Position::start(), sq("a1")), None);
        assert_eq!(o.leads_to(&play(&moves("f5d6")), sq("e3")), None);
        assert_eq!(
            LeadsTo::Towards(vec!["A", "B", "C"]).text(2),
            "towards: A, B and 1 more"
        );
        assert_eq!(LeadsTo::Named("Rose").text(3), "leads to: Rose");
    }

    #[test]
    fn bad_lists_are_refused_with_the_line_and_why() {
        let err = |text: &'static str| match Openings::parse(text) {
            Err(OpeningListError::Bad { line, reason }) => (line, reason),
            Ok(_) => panic!("{text:?} was read"),
        };
        assert_eq!(err("# c\n\nf5d6 Perp").0, 3);
        assert!(err("f5d6\t").1.contains("empty"));
        assert!(err("f5d\tX").1.contains("not a list of squares"));
        assert!(err("f5z9\tX").1.contains("'z9' is not a square"));
        let (line, reason) = err("f5d6\tA\nf5a1\tB");
        assert_eq!(line, 2);
        assert!(reason.contains("move 2 (a1)"), "{reason}");
        assert!(err("f5d6\tA\nf5d6\tB").1.contains("again"));
        assert!(
            err("f5d6\tA\nc4e3\tB").1.contains("again"),
            "a mirror image is the same"
        );
        assert!(err("é5\tA").1.contains("not a list of squares"));
        let ok = Openings::parse("# only a comment\n").unwrap();
        assert!(ok.list().is_empty());
        assert_eq!(ok.name(&Position::start()), None);
    }

    #[test]
    fn the_cursor_and_the_main_line_have_their_openings() {
        let mut game =
            super::super::Game::from_moves(Position::start(), &moves("f5d6c3d3c4f4")).unwrap();
        assert_eq!(opening_at_cursor(&game).unwrap().name, "Tiger");
        game.go_to(3);
        assert_eq!(
            opening_at_cursor(&game).unwrap().name,
            "Perpendicular Opening"
        );
        assert_eq!(opening_of_main_line(&game).unwrap().name, "Tiger");
        game.go_to(0);
        assert_eq!(opening_at_cursor(&game), None);
    }

    proptest::proptest! {
        /// Any text is read or refused with a reason, never a panic: random text in the
        /// list's own alphabet, and the shipped list with a line of random moves added.
        #[test]
        fn any_list_is_read_or_refused(
            text in "[a-i0-9\t\n# A-Z/é]{0,300}",
            extra in "[a-h1-8]{0,40}",
        ) {
            let _ = Openings::parse(&text);
            let longer = format!("{SHIPPED_TEXT}\n{extra}\tExtra\n");
            if let Ok(o) = Openings::parse(&longer) {
                proptest::prop_assert_eq!(o.list().len(), 78);
            }
        }
    }
}
