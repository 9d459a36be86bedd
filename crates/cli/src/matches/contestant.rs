//! What one side of a match is, whoever plays it: an Okapi level on its own engine
//! (`players.rs`), another program or another Okapi binary (`external.rs`).

use okapi_core::board::Move;
use okapi_core::game::Game;

/// One side of a match.
pub trait Contestant {
    fn name(&self) -> String;
    /// The move to play at the cursor of `game` (the side to move has a legal move).
    fn choose(&mut self, game: &Game) -> anyhow::Result<Move>;
}
