//! Okapi: an Othello analyser and opponent. This package is the `okapi` binary and a
//! facade over the workspace's crates, so that the cross-crate tests in `tests/` and
//! anyone using Okapi as a library name one crate:
//!
//! - [`board`], [`eval`], [`search`], [`game`], [`book`], [`formats`], [`db`], [`shard`]:
//!   `okapi-core`;
//! - [`train`]: `okapi-train` (fitting the evaluation and the ProbCut model, self-play);
//! - [`engine`]: `okapi-engine` (the engine thread: requests in, events out);
//! - [`cli`]: `okapi-cli` (the command line), and `app`: `okapi-app` (the egui desktop
//!   app, behind the default `gui` feature).
//!
//! Imports point one way, enforced by the crates' dependencies:
//! `okapi-core` <- `okapi-train` / `okapi-engine` <- `okapi-app` / `okapi-cli`.

pub use okapi_cli as cli;
pub use okapi_core::{board, book, db, eval, formats, game, level, search, shard};
pub use okapi_engine as engine;
pub use okapi_train as train;

#[cfg(feature = "gui")]
pub use okapi_app as app;
