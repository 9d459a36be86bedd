//! What the `okapi` binary starts: the desktop app or the command line. The two front ends
//! stand side by side (neither crate depends on the other); this is the one place that
//! picks between them, before either runs.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// What a command line asks the binary to start.
#[derive(Debug, PartialEq, Eq)]
pub enum Launch {
    /// The desktop app, optionally with a game or script file to open.
    App(Option<PathBuf>),
    /// The command line (`okapi_cli::main`); `okapi app [FILE]` is parsed there and
    /// comes back as [`okapi_cli::Run::App`].
    CommandLine,
    /// A lone argument that names a file to open (a path, a game file's name) but no file
    /// is there: what is wrong, in a sentence (clap said "unrecognized subcommand").
    NotAFile(String),
}

/// Picks the front end from the arguments (the program's name first, as
/// `std::env::args_os` gives them): no arguments, or a single existing file, is the app
/// (the form Windows' "Open with", a file association and a file dropped on the program
/// use, and a desktop entry's `%f`); anything else is the command line.
pub fn choose(args: &[OsString]) -> Launch {
    choose_with(args, |p| p.is_file())
}

/// Does a word look like a file's name rather than a command: a folder in it, or an
/// extension (`game.ggf`)?
fn looks_like_a_path(word: &std::ffi::OsStr) -> bool {
    let path = Path::new(word);
    path.components().count() > 1 || path.extension().is_some() || path.is_absolute()
}

/// [`choose`], with `is_file` telling which paths are existing files (tests give their
/// own). A lone argument that is a command's name (`okapi console`, `okapi nboard`) or an
/// option stays a command even when a file of that name is in the current folder.
fn choose_with(args: &[OsString], is_file: impl Fn(&Path) -> bool) -> Launch {
    match args {
        [] | [_] => Launch::App(None),
        [_, only] => {
            let path = Path::new(only);
            let command_like = only
                .to_str()
                .is_some_and(|t| t.starts_with('-') || okapi_cli::is_command_name(t));
            if command_like {
                Launch::CommandLine
            } else if is_file(path) {
                Launch::App(Some(path.to_path_buf()))
            } else if path.is_dir() {
                Launch::NotAFile(format!(
                    "{} is a folder: open a game or script file in it (okapi FILE), or see \
                     okapi --help",
                    path.display()
                ))
            } else if looks_like_a_path(only) {
                Launch::NotAFile(match std::fs::metadata(path) {
                    Ok(_) => format!(
                        "{} is not a regular file (a FIFO, a device or a socket): it is not \
                         opened",
                        path.display()
                    ),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        format!("{}: no such file", path.display())
                    }
                    Err(e) => format!("cannot open {}: {e}", path.display()),
                })
            } else {
                Launch::CommandLine
            }
        }
        _ => Launch::CommandLine,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn no_arguments_open_the_app() {
        assert_eq!(choose(&os(&["okapi"])), Launch::App(None));
        assert_eq!(choose(&[]), Launch::App(None));
    }

    #[test]
    fn a_lone_existing_file_opens_in_the_app() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("my game.ggf");
        std::fs::write(&game, "(;GM[Othello];)").unwrap();
        let arg = game.to_str().unwrap();
        assert_eq!(
            choose(&os(&["okapi", arg])),
            Launch::App(Some(game.clone()))
        );
        // Two arguments: the command line, which says what is wrong with them.
        assert_eq!(choose(&os(&["okapi", arg, arg])), Launch::CommandLine);
    }

    /// `okapi /missing/game.ggf` and `okapi DIR` said "unrecognized subcommand" (and from
    /// a file manager nothing at all): the file is missing, or is a folder.
    #[test]
    fn a_lone_missing_file_or_folder_is_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.ggf");
        let Launch::NotAFile(said) = choose(&os(&["okapi", missing.to_str().unwrap()])) else {
            panic!("a missing file is not a command");
        };
        assert!(said.ends_with("missing.ggf: no such file"), "{said}");
        let Launch::NotAFile(said) = choose(&os(&["okapi", "game.ggf"])) else {
            panic!("a missing file is not a command");
        };
        assert_eq!(said, "game.ggf: no such file");
        let Launch::NotAFile(said) = choose(&os(&["okapi", dir.path().to_str().unwrap()])) else {
            panic!("a folder is not a command");
        };
        assert!(said.contains("is a folder"), "{said}");
        #[cfg(unix)]
        {
            let Launch::NotAFile(said) = choose(&os(&["okapi", "/dev/null"])) else {
                panic!("a device is not a command");
            };
            assert!(said.contains("not a regular file"), "{said}");
        }
        // A word that is neither a command nor a path is the command line's to refuse.
        assert_eq!(choose(&os(&["okapi", "slove"])), Launch::CommandLine);
    }

    #[test]
    fn commands_and_options_stay_commands_even_as_file_names() {
        let every_path_is_a_file = |_: &Path| true;
        for word in [
            "nboard", "console", "play", "perft", "app", "-script", "--help", "-V",
        ] {
            assert_eq!(
                choose_with(&os(&["okapi", word]), every_path_is_a_file),
                Launch::CommandLine,
                "{word}"
            );
        }
        assert_eq!(
            choose_with(&os(&["okapi", "game.ggf"]), every_path_is_a_file),
            Launch::App(Some(PathBuf::from("game.ggf")))
        );
        assert_eq!(choose(&os(&["okapi", "perft", "3"])), Launch::CommandLine);
    }
}
