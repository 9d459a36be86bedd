//! Who plays a colour in the app's New game dialog: a person or one of the engine's
//! players.

use serde::{Deserialize, Serialize};

/// Who plays a colour: a person or one of the engine's players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    #[default]
    Human,
    /// Plays a random legal move.
    Random,
    /// Plays the move that flips the most discs.
    Greedy,
    /// The engine at the chosen level (settings `level`: depth, time, temperature);
    /// perfect once the exact solver reaches the end. (`perfect` in files, for old games.)
    Perfect,
}

impl Player {
    pub const ALL: [Player; 4] = [
        Player::Human,
        Player::Random,
        Player::Greedy,
        Player::Perfect,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "Human",
            Player::Random => "Okapi (random)",
            Player::Greedy => "Okapi (greedy)",
            Player::Perfect => "Okapi (engine at the chosen level)",
        }
    }

    pub fn is_engine(self) -> bool {
        self != Player::Human
    }
}
