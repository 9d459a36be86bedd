//! What is known about a move: its value for the mover and where the value came from.
//!
//! These are the game record's types (a move's value is saved with the game); the engine
//! produces them, the front ends show them.

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

    /// Is this value at least as strong a claim as `other` (so it may replace it)?
    pub fn replaces(&self, other: &Eval) -> bool {
        self.source >= other.source
    }
}
