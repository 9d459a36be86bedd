//! The `okapi` binary: the desktop app with no arguments or with one file to open, the
//! command line otherwise ([`okapi::launch::choose`] picks).
//!
//! On Windows it is a GUI program, so that the app opens with no console window behind
//! it; the command line then writes to the console of the prompt it was typed in
//! ([`okapi::windows_console`]).
#![cfg_attr(all(windows, feature = "gui"), windows_subsystem = "windows")]

use okapi::launch::{Launch, choose};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    match choose(&args) {
        Launch::App(file) => run_app(file),
        Launch::NotAFile(why) => {
            report_not_a_file(&why);
            ExitCode::from(2)
        }
        Launch::CommandLine => {
            #[cfg(windows)]
            okapi::windows_console::attach(okapi::cli::is_interactive(&args));
            match okapi::cli::main(args) {
                okapi::cli::Run::Exit(code) => code,
                okapi::cli::Run::App(file) => run_app(file),
            }
        }
    }
}

#[cfg(feature = "gui")]
fn run_app(file: Option<PathBuf>) -> ExitCode {
    match okapi::app::run(file) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            okapi::app::report_start_failure(&format!("{e:#}"));
            ExitCode::FAILURE
        }
    }
}

/// A file to open that is not there: said on standard error, and in a message box where
/// the program was started from a file manager (Windows, macOS) and no terminal shows it.
#[cfg(feature = "gui")]
fn report_not_a_file(why: &str) {
    okapi::app::report_start_failure(why);
}

#[cfg(not(feature = "gui"))]
fn report_not_a_file(why: &str) {
    eprintln!("okapi: {why}");
}

#[cfg(not(feature = "gui"))]
fn run_app(_file: Option<PathBuf>) -> ExitCode {
    eprintln!(
        "okapi: this build has no desktop app (built without the `gui` feature); \
         see `okapi --help` for the command line"
    );
    ExitCode::FAILURE
}
