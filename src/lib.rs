//! Okapi: an Othello analyser and opponent.
//!
//! The architecture, one module each: [`board`] (bitboards, moves, symmetry, hashing),
//! [`eval`] (pattern evaluation, weights, training), [`search`] (midgame, endgame,
//! transposition table, ordering), [`book`] (opening book), [`formats`] (scripts, OBF,
//! game files, WTHOR), [`engine`] (the engine thread: requests in, events out),
//! [`cli`] (the command line) and `app` (the egui desktop app, behind the default `gui`
//! feature; it knows no game logic).

pub mod board;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod game;
pub mod search;

#[cfg(feature = "gui")]
pub mod app;
