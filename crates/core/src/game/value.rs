//! What is known about a move: its value for the mover and where the value came from.
//!
//! These are the game record's types (a move's value is saved with the game); the engine
//! produces them, the front ends show them.

use crate::board::Color;
use crate::search::{MoveValue, SCALE, SearchSource, SolveMode};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Where a value came from, weakest first: a value is never replaced by a weaker one.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvalSource {
    /// A depth-limited search on a disc-count/mobility heuristic (no trained evaluation).
    Heuristic {
        /// Plies searched.
        depth: u8,
    },
    /// The trained evaluation searched `depth` plies, with ProbCut cutting at
    /// `confidence` percent (100: a full-width search). Deeper replaces shallower.
    Midgame {
        /// Plies searched.
        depth: u8,
        /// The ProbCut confidence, in percent (100: no selective cut).
        confidence: u8,
    },
    /// The opening book: the negamax of its searched positions (ranked above any live
    /// midgame search: it looked further along the lines it knows).
    Book,
    /// A win/draw/loss proof: the value is 1, 0 or -1.
    Wld,
    /// The exact final disc difference, proven to the end.
    Exact,
}

impl fmt::Display for EvalSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalSource::Heuristic { depth } => write!(f, "heuristic d{depth}"),
            EvalSource::Midgame { depth, confidence } => write!(f, "{depth}@{confidence}%"),
            EvalSource::Book => write!(f, "book"),
            EvalSource::Wld => write!(f, "WLD"),
            EvalSource::Exact => write!(f, "exact"),
        }
    }
}

/// A value of a move from the mover's point of view, with its source.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Eval {
    /// Disc difference (exact, heuristic) or 1/0/-1 (WLD).
    pub value: i32,
    /// Where `value` came from.
    pub source: EvalSource,
}

impl Eval {
    /// The value as a player reads it: `+4`, `-2`, `win`, `draw`, `loss`, `~+3`.
    pub fn label(&self) -> String {
        match self.source {
            EvalSource::Exact => format!("{:+}", self.value),
            EvalSource::Wld => match self.value.signum() {
                1 => "win".into(),
                0 => "draw".into(),
                _ => "loss".into(),
            },
            EvalSource::Heuristic { .. } => format!("~{:+}", self.value),
            EvalSource::Midgame { .. } | EvalSource::Book => format!("{:+}", self.value),
        }
    }

    /// A solve's result as a value: the exact disc difference, or the win/draw/loss sign.
    pub fn proven(mode: SolveMode, score: i32) -> Eval {
        match mode {
            SolveMode::Exact => Eval {
                value: score,
                source: EvalSource::Exact,
            },
            SolveMode::Wld => Eval {
                value: score.signum(),
                source: EvalSource::Wld,
            },
        }
    }

    /// A search's value as it is shown and kept: the exact disc difference, the
    /// win/draw/loss sign, or the midgame estimate rounded to whole discs with its depth
    /// and the search's ProbCut `confidence` (percent, 100: full width).
    pub fn of_search(v: &MoveValue, confidence: u32) -> Eval {
        match v.source {
            SearchSource::Exact => Eval {
                value: v.value / SCALE,
                source: EvalSource::Exact,
            },
            SearchSource::Wld => Eval {
                value: v.value.signum(),
                source: EvalSource::Wld,
            },
            SearchSource::Midgame { depth } => Eval {
                value: (v.value as f64 / SCALE as f64).round() as i32,
                source: EvalSource::Midgame {
                    depth: depth.min(255) as u8,
                    confidence: confidence.min(100) as u8,
                },
            },
        }
    }

    /// What the value says of the game for `mover`, whose value it is, as players say
    /// it: "Black wins by 18", "White wins", "a draw" for a proof; an estimate is its
    /// label for the mover ("Black +3").
    pub fn verdict(&self, mover: Color) -> String {
        let (winner, margin) = match self.value.signum() {
            0 if self.is_proven() => return "a draw".into(),
            -1 => (mover.opposite(), -self.value),
            _ => (mover, self.value),
        };
        match self.source {
            EvalSource::Exact => format!("{} wins by {margin}", winner.name()),
            EvalSource::Wld => format!("{} wins", winner.name()),
            _ => format!("{} {}", mover.name(), self.label()),
        }
    }

    /// Is the value proven to the end of the game (exact or win/draw/loss)?
    pub fn is_proven(&self) -> bool {
        matches!(self.source, EvalSource::Exact | EvalSource::Wld)
    }

    /// Is this value at least as strong a claim as `other` (so it may replace it)?
    pub fn replaces(&self, other: &Eval) -> bool {
        self.source >= other.source
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_is_said_as_players_say_it() {
        let exact = |v| Eval::proven(SolveMode::Exact, v);
        assert_eq!(exact(18).verdict(Color::Black), "Black wins by 18");
        assert_eq!(exact(-4).verdict(Color::Black), "White wins by 4");
        assert_eq!(exact(-4).verdict(Color::White), "Black wins by 4");
        assert_eq!(exact(0).verdict(Color::White), "a draw");
        let wld = Eval::proven(SolveMode::Wld, 12);
        assert_eq!(wld.value, 1, "a WLD proof keeps the sign");
        assert_eq!(wld.verdict(Color::White), "White wins");
        assert_eq!(
            Eval::proven(SolveMode::Wld, -3).verdict(Color::White),
            "Black wins"
        );
        assert_eq!(
            Eval::proven(SolveMode::Wld, 0).verdict(Color::Black),
            "a draw"
        );
        // An estimate is no verdict: the mover's value as it reads.
        let guess = Eval {
            value: -3,
            source: EvalSource::Midgame {
                depth: 12,
                confidence: 95,
            },
        };
        assert_eq!(guess.verdict(Color::Black), "Black -3");
        assert!(!guess.is_proven() && exact(0).is_proven());
    }

    #[test]
    fn a_search_value_is_kept_in_whole_discs_with_its_source() {
        let value = |value, source| MoveValue {
            mv: crate::board::Move::Pass,
            value,
            source,
            pv: vec![],
        };
        let exact = Eval::of_search(&value(-6 * SCALE, SearchSource::Exact), 100);
        assert_eq!((exact.value, exact.source), (-6, EvalSource::Exact));
        let wld = Eval::of_search(&value(3 * SCALE, SearchSource::Wld), 100);
        assert_eq!((wld.value, wld.source), (1, EvalSource::Wld));
        let guess = Eval::of_search(
            &value(5 * SCALE / 2, SearchSource::Midgame { depth: 300 }),
            120,
        );
        assert_eq!(guess.value, 3, "2.5 discs round away from zero");
        assert_eq!(
            guess.source,
            EvalSource::Midgame {
                depth: 255,
                confidence: 100
            },
            "depth and confidence are clamped to what a record keeps"
        );
    }
}
