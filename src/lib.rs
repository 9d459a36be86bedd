//! Okapi: an Othello analyser and opponent.
//!
//! The architecture, one module each: [`board`] (bitboards, moves, symmetry, hashing),
//! [`eval`] (pattern evaluation, weights), [`search`] (midgame, endgame,
//! transposition table, ordering), [`book`] (opening book), [`formats`] (scripts, OBF,
//! game files, WTHOR), [`train`] (fitting the evaluation and the ProbCut model),
//! [`engine`] (the engine thread: requests in, events out), [`cli`] (the command line)
//! and `app` (the egui desktop app, behind the default `gui` feature; it knows no game
//! logic).
//!
//! Imports point one way: `board` <- `eval` <- `search` <- `game` / `book` / `formats` /
//! `train` <- `engine` <- `app` / `cli`, and only `app` and `cli` use the command-line
//! and GUI crates (`tests/layers.rs` checks both).

pub mod board;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod game;
pub mod search;
pub mod train;

#[cfg(feature = "gui")]
pub mod app;
