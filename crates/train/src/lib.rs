//! Training Okapi's data artifacts, a library layer above the engine's core: it reads
//! game records ([`okapi_core::formats`]), searches ([`okapi_core::search`]) and evaluates
//! ([`okapi_core::eval`]), and returns what it fitted and measured. It takes plain option
//! structs and prints nothing: `okapi train eval` / `okapi train probcut` (in `cli`)
//! hold the command-line options, the progress display and the printing.
//!
//! - [`eval_fit`]: the pattern weights (`coeffs/okapi-eval.bin`) and their report;
//! - [`probcut_fit`]: the Multi-ProbCut error model (`coeffs/probcut.json`);
//! - [`selfplay`]: self-play games labelled by Okapi's searches, a store the fitter can
//!   read alongside the game records;
//! - [`records`]: the game records of `--data DIR`, in the one order every command
//!   numbers them;
//! - [`label_files`]: the games' positions valued by Okapi's own searches, a byte each,
//!   kept beside the games in shards (`okapi train label`);
//! - [`search_labels`]: training positions valued by Okapi's own search, kept in a
//!   resumable cache.

pub mod eval_fit;
pub mod label_files;
pub mod probcut_fit;
pub mod records;
pub mod search_labels;
pub mod selfplay;
#[cfg(test)]
mod test_games;
