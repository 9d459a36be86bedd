//! The command line. (Under construction: the `cli` branch replaces this file.)

use std::process::ExitCode;

/// Entry point of the `okapi` binary.
pub fn main() -> ExitCode {
    ExitCode::FAILURE
}
