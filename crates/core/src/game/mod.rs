//! The game, with no user interface: the record (a start position and a tree of moves
//! with their values, the players, the clock, a comment) and the session that owns the
//! rules of a game in progress. Every front end plays through [`Session`].

pub mod clock;
pub mod openings;
pub(crate) mod record;
mod session;
mod value;

/// The kind of a solve kept with a game ([`ProvenLine::mode`]): part of the game's
/// record, so its readers and writers need not reach into the search.
pub use crate::search::SolveMode;
pub use record::{
    BestMove, Game, KEPT_SOLVES, NewMove, NodeId, ProvenLine, Seat, SeatError, Unsaved,
    numbered_line, occasion, today, transcript_of,
};
pub use session::{Next, Session, SessionError, seat_name};
pub use value::{Eval, EvalSource};
