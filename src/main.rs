//! The `okapi` binary: the desktop app with no arguments, the command line otherwise.

fn main() -> std::process::ExitCode {
    okapi::cli::main()
}
