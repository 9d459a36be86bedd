//! The best known value of each move of each position: every value the engine sends (the
//! live analysis, a hint, a solve and its proven line, the game analysis, a script's
//! solve) is offered here, and every view reads from here — the squares, the values list,
//! the database's Engine column, the game analysis, the move list and the graph — so none
//! of them can contradict a proof another shows.
//!
//! The rule is [`Eval::replaces`]: a proof beats a search (exact beats win/draw/loss,
//! which beats the book, which beats any live search), a deeper search beats a shallower
//! one. A value offered that is weaker than the one known is dropped: stepping away and
//! back, a re-analysis or a shallower search of the same position never downgrades it.
//!
//! A solve also proves what its positions are worth: no move there is worth more. A
//! searched value above that is kept at the proof's value (the views say "≤ −16": the
//! search only bounds it), so no estimate outshines the proof; after a win/draw/loss
//! proof, no move of a lost position shows a draw or better, none of a drawn one a win.

use okapi_core::board::{Move, Position, Square};
use okapi_core::game::{Eval, EvalSource};
use okapi_core::search::SolveMode;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The values of one position's moves, each for the side to move there.
pub(crate) type MoveValues = HashMap<Square, Eval>;

/// How many positions are kept at most: far more than a long session visits (each holds
/// at most a few dozen small values). Past it the store starts afresh rather than grow.
const MOST_POSITIONS: usize = 200_000;

/// The best known value of each move of each position.
#[derive(Default)]
pub(crate) struct KnownValues {
    by_position: HashMap<Position, MoveValues>,
    /// What a solve proved positions worth, for their side to move.
    proven: HashMap<Position, Eval>,
}

impl KnownValues {
    /// Offers a value of `square` in `position`; kept unless a stronger one is known.
    /// True when it was kept.
    pub(crate) fn offer(&mut self, position: Position, square: Square, eval: Eval) -> bool {
        if self.by_position.len() >= MOST_POSITIONS && !self.by_position.contains_key(&position) {
            self.by_position.clear();
            self.proven.clear();
        }
        let eval = self.bounded(&position, eval);
        let moves = self.by_position.entry(position).or_default();
        match moves.get(&square) {
            Some(known) if !eval.replaces(known) => false,
            _ => {
                moves.insert(square, eval);
                true
            }
        }
    }

    /// A solve's result: its score is the first move's proven value, and along the proven
    /// line each move keeps it (negated for the other side, passes included).
    pub(crate) fn offer_proven_line(
        &mut self,
        position: Position,
        mode: SolveMode,
        score: i32,
        line: &[Move],
    ) {
        let mut here = position;
        let mut value = score;
        if line.is_empty() {
            self.prove(position, Eval::proven(mode, score));
        }
        for &mv in line {
            let before = here;
            if here.play_move(mv).is_err() {
                // A line that does not follow from the position (it always should): what
                // came before is proven, the rest is not trusted.
                return;
            }
            let proven = Eval::proven(mode, value);
            // Each position of the proven line is worth its best move's value.
            self.prove(before, proven);
            if let Move::Play(square) = mv {
                self.offer(before, square, proven);
            }
            value = -value;
        }
    }

    /// Takes a proof of what `position` is worth for its side to move: the searched values
    /// of its moves above it come down to it.
    fn prove(&mut self, position: Position, eval: Eval) {
        if self
            .proven
            .get(&position)
            .is_some_and(|known| !eval.replaces(known))
        {
            return;
        }
        self.proven.insert(position, eval);
        if let Some(ceiling) = self.ceiling(&position)
            && let Some(moves) = self.by_position.get_mut(&position)
        {
            for e in moves.values_mut().filter(|e| !e.is_proven()) {
                e.value = e.value.min(ceiling);
            }
        }
    }

    /// The most a move of `position` can be worth by a solve's proof: its exact value;
    /// after a win/draw/loss proof, -2 in a lost position (scores are even) and 0 in a
    /// drawn one.
    pub(crate) fn ceiling(&self, position: &Position) -> Option<i32> {
        let proof = self.proven.get(position)?;
        match proof.source {
            EvalSource::Exact => Some(proof.value),
            EvalSource::Wld => match proof.value.signum() {
                -1 => Some(-2),
                0 => Some(0),
                _ => None,
            },
            _ => None,
        }
    }

    /// `eval`, a value of a move of `position`, as a proof of the position bounds it: a
    /// search above the proof comes down to it (a value kept elsewhere, as the game
    /// record's, reads as the known values do).
    pub(crate) fn bounded(&self, position: &Position, mut eval: Eval) -> Eval {
        if let Some(ceiling) = self.ceiling(position)
            && !eval.is_proven()
        {
            eval.value = eval.value.min(ceiling);
        }
        eval
    }

    /// The label of a value of a move of `position`, one [`Self::bounded`] has brought
    /// down: "≤-16" where a proof bounds a search, as on the board.
    pub(crate) fn label(&self, position: &Position, eval: Eval) -> String {
        let best = self.proven_best(position).map(|(_, best)| best);
        crate::board_view::value_label(eval, best)
    }

    /// The known values of `position`'s moves (none known: an empty map).
    pub(crate) fn of(&self, position: &Position) -> &MoveValues {
        self.by_position
            .get(position)
            .unwrap_or_else(|| self.of_nothing())
    }

    /// The values the board shows for the moves of `here`: those known, once values were
    /// asked for at `here` (`shown_for`); none while a practice card hides its answer;
    /// while practising, those of the position on the board (a card, a lesson), not the
    /// game's.
    pub(crate) fn shown(
        &self,
        here: &Position,
        shown_for: Option<Position>,
        hides_answer: bool,
        practice_board: Option<Position>,
    ) -> &MoveValues {
        match (shown_for, practice_board) {
            _ if hides_answer => self.of_nothing(),
            (_, Some(board)) => self.of(&board),
            (Some(p), None) if p == *here => self.of(here),
            _ => self.of_nothing(),
        }
    }

    /// No values: what a view shows where values are not asked for.
    pub(crate) fn of_nothing(&self) -> &MoveValues {
        static NONE: OnceLock<MoveValues> = OnceLock::new();
        NONE.get_or_init(MoveValues::new)
    }

    /// The known value of `square` in `position`.
    pub(crate) fn get(&self, position: &Position, square: Square) -> Option<Eval> {
        self.by_position.get(position)?.get(&square).copied()
    }

    /// The best proven move of `position` and its value, when a proof says it: the
    /// highest of its exact values (a solve proves its move the best; the game analysis
    /// proves its best move with the move played).
    pub(crate) fn proven_best(&self, position: &Position) -> Option<(Square, Eval)> {
        self.by_position
            .get(position)?
            .iter()
            .filter(|(_, e)| e.source == EvalSource::Exact)
            .max_by_key(|(sq, e)| (e.value, std::cmp::Reverse(**sq)))
            .map(|(sq, e)| (*sq, *e))
    }

    /// Forgets the opening book's values (the book was turned off: the search values
    /// those moves again).
    pub(crate) fn forget_book(&mut self) {
        for moves in self.by_position.values_mut() {
            moves.retain(|_, e| e.source != EvalSource::Book);
        }
    }
}

/// A midgame search's value at `depth`, as the engine sends it: the tests of every view
/// that shows values offer these.
#[cfg(test)]
pub(crate) fn searched(value: i32, depth: u8) -> Eval {
    Eval {
        value,
        source: EvalSource::Midgame {
            depth,
            confidence: 95,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(value: i32) -> Eval {
        Eval {
            value,
            source: EvalSource::Exact,
        }
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn a_proof_is_never_downgraded() {
        let mut known = KnownValues::default();
        let p = Position::start();
        assert!(known.offer(p, sq("f5"), searched(3, 20)));
        assert!(known.offer(p, sq("f5"), exact(-2)));
        // A later, shallower or deeper search does not replace the proof.
        assert!(!known.offer(p, sq("f5"), searched(5, 4)));
        assert!(!known.offer(p, sq("f5"), searched(5, 30)));
        assert!(!known.offer(
            p,
            sq("f5"),
            Eval {
                value: -1,
                source: EvalSource::Wld
            }
        ));
        assert_eq!(known.get(&p, sq("f5")), Some(exact(-2)));
        // Deeper replaces shallower; shallower does not replace deeper.
        assert!(known.offer(p, sq("d3"), searched(1, 10)));
        assert!(!known.offer(p, sq("d3"), searched(4, 6)));
        assert!(known.offer(p, sq("d3"), searched(0, 12)));
        assert_eq!(known.get(&p, sq("d3")), Some(searched(0, 12)));
        assert_eq!(known.proven_best(&p), Some((sq("f5"), exact(-2))));
    }

    #[test]
    fn a_proven_line_proves_each_of_its_moves_for_its_mover() {
        let mut known = KnownValues::default();
        let start = Position::start();
        let line: Vec<Move> = ["f5", "d6", "c3"]
            .iter()
            .map(|s| Move::Play(sq(s)))
            .collect();
        known.offer_proven_line(start, SolveMode::Exact, 4, &line);
        let mut after_f5 = start;
        after_f5.play(sq("f5")).unwrap();
        let mut after_d6 = after_f5;
        after_d6.play(sq("d6")).unwrap();
        assert_eq!(known.get(&start, sq("f5")), Some(exact(4)));
        assert_eq!(known.get(&after_f5, sq("d6")), Some(exact(-4)));
        assert_eq!(known.get(&after_d6, sq("c3")), Some(exact(4)));
        // WLD keeps the sign only.
        let mut wld = KnownValues::default();
        wld.offer_proven_line(start, SolveMode::Wld, 1, &line[..1]);
        assert_eq!(
            wld.get(&start, sq("f5")),
            Some(Eval {
                value: 1,
                source: EvalSource::Wld
            })
        );
        // A line that leaves the rules is cut where it does.
        let mut bad = KnownValues::default();
        bad.offer_proven_line(start, SolveMode::Exact, 2, &[Move::Play(sq("a1"))]);
        assert_eq!(bad.get(&start, sq("a1")), None);
    }

    /// FFO #49 solved, e1 played: g6 searched at -14 beside h4 proven -16 wore the
    /// "best" frame. A proof of the position bounds every searched value of its moves.
    #[test]
    fn a_proof_of_the_position_bounds_its_searched_values() {
        let mut known = KnownValues::default();
        let p = Position::start();
        known.offer(p, sq("d3"), searched(-14, 20));
        known.offer_proven_line(p, SolveMode::Exact, -16, &[Move::Play(sq("f5"))]);
        assert_eq!(known.ceiling(&p), Some(-16));
        assert_eq!(
            known.get(&p, sq("d3")),
            Some(searched(-16, 20)),
            "brought down"
        );
        known.offer(p, sq("c4"), searched(3, 24));
        assert_eq!(
            known.get(&p, sq("c4")),
            Some(searched(-16, 24)),
            "kept down"
        );
        known.offer(p, sq("e6"), searched(-30, 24));
        assert_eq!(
            known.get(&p, sq("e6")),
            Some(searched(-30, 24)),
            "below: as it is"
        );
        assert_eq!(known.proven_best(&p), Some((sq("f5"), exact(-16))));
        // A lost position (win/draw/loss): no move shows a draw or better.
        let mut wld = KnownValues::default();
        wld.offer(p, sq("d3"), searched(1, 20));
        wld.offer_proven_line(p, SolveMode::Wld, -1, &[Move::Play(sq("f5"))]);
        assert_eq!(wld.get(&p, sq("d3")), Some(searched(-2, 20)));
        // A drawn one: no win; a won one: no bound.
        let mut draw = KnownValues::default();
        draw.offer_proven_line(p, SolveMode::Wld, 0, &[Move::Play(sq("f5"))]);
        draw.offer(p, sq("d3"), searched(5, 20));
        assert_eq!(draw.get(&p, sq("d3")), Some(searched(0, 20)));
        let mut win = KnownValues::default();
        win.offer_proven_line(p, SolveMode::Wld, 1, &[Move::Play(sq("f5"))]);
        win.offer(p, sq("d3"), searched(5, 20));
        assert_eq!(win.get(&p, sq("d3")), Some(searched(5, 20)));
    }

    #[test]
    fn turning_the_book_off_forgets_its_values() {
        let mut known = KnownValues::default();
        let p = Position::start();
        let book = Eval {
            value: 0,
            source: EvalSource::Book,
        };
        known.offer(p, sq("f5"), book);
        assert!(!known.offer(p, sq("f5"), searched(1, 20)));
        known.forget_book();
        assert!(known.offer(p, sq("f5"), searched(1, 20)));
    }
}
