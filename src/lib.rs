//! Okapi: an Othello analyser and opponent.
//!
//! The architecture, one module each: [`board`] (bitboards, moves, symmetry, hashing),
//! [`search`] (endgame solver, transposition table), [`formats`] (scrZebra scripts,
//! OBF), [`cli`] (the command line), and `app` (the egui desktop app, behind the
//! default `gui` feature).

pub mod board;
pub mod search;
