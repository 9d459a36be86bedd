//! The core of Okapi, an Othello (Reversi) analyser and opponent: everything that knows the
//! game and nothing of a user interface.
//!
//! One module a layer, imports pointing one way (`tests/layers.rs` checks it):
//! [`board`] (bitboards, moves, symmetry, hashing) <- [`eval`] (the trained pattern
//! evaluation) <- [`search`] (midgame PVS with Multi-ProbCut, the exact/WLD endgame solver,
//! the transposition table, parallel search) <- [`game`] (the game record with variations,
//! the session rules every front end shares) / [`book`] (the opening book) / [`formats`]
//! (one reader and one writer per file format) / [`db`] (the games database: master games
//! by position).
//!
//! The engine thread (`okapi-engine`), the training commands (`okapi-train`), the desktop
//! app (`okapi-app`) and the command line (`okapi-cli`) are crates built on this one; it uses
//! no command-line or GUI crate.

pub mod board;
pub mod book;
pub mod db;
pub mod eval;
pub mod formats;
pub mod game;
pub mod search;
