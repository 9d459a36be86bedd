//! (module under construction)

pub mod game;
