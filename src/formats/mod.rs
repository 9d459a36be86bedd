//! File formats: the scrZebra endgame script, Edax's OBF test files, game files (Okapi
//! JSON, transcripts, GGF), and the game records used for training and the book (WTHOR,
//! PGN-like text, Logistello's games).

pub mod game;
pub mod obf;
pub mod records;
pub mod script;
