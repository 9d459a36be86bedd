//! The command line.
//!
//! - `okapi` with no arguments, or with one game or script file, opens the desktop app:
//!   the binary picks that before the command line runs (the two front ends stand side
//!   by side), and `okapi app [FILE]` parsed here comes back to it as [`Run::App`];
//! - `okapi -script IN OUT [-e 0|1] [-h N] [-wld 0|1] [-line 0|1] [-b 0|1] [-n N]` is
//!   scrZebra's endgame script solver, flag for flag ([`compat`], parsed by hand:
//!   single-dash words);
//! - subcommands with long options (clap): `solve`, `perft`, `bench`, `train`, `nboard`,
//!   `match`, `console`, `book`, `app`.

/// `println!` that never panics: a closed standard output (`okapi bench | head`) makes
/// writes fail with a broken pipe, which `println!` turns into a panic (exit 101, and a
/// script run cut short). The line is dropped instead and [`stdout_closed`] says so, for
/// the commands whose only output is standard output to stop early; the command then
/// ends with the error and a failure status ([`finish_stdout`]), never 0 with its output
/// cut (a full disk, `> /dev/full`, a closed standard output).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            $crate::stdout_failed(e);
        }
    }};
}

/// `print!` that never panics (see [`outln!`]): for text that ends its own lines.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout(), $($arg)*) {
            $crate::stdout_failed(e);
        }
    }};
}

/// `eprintln!` that never panics: a closed standard error loses the message, not the run.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// The first error writing to standard output (its reader is gone, the disk is full).
static STDOUT_ERROR: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Notes that a write to standard output failed, and why.
pub fn stdout_failed(e: std::io::Error) {
    let _ = STDOUT_ERROR.set(e.to_string());
}

/// Has a write to standard output failed?
pub fn stdout_closed() -> bool {
    STDOUT_ERROR.get().is_some()
}

/// The end of a command that printed: what is still buffered is written, and an output
/// that failed on the way turns a success into a failure with a message, as a solve's
/// failed output does (a script of results cut short is worse than none).
pub fn finish_stdout(code: ExitCode) -> ExitCode {
    use std::io::Write as _;
    if let Err(e) = std::io::stdout().flush() {
        stdout_failed(e);
    }
    match STDOUT_ERROR.get() {
        Some(why) if code == ExitCode::SUCCESS => {
            errln!("okapi: cannot write to standard output: {why}");
            ExitCode::from(2)
        }
        _ => code,
    }
}

pub mod bench;
pub mod book;
pub mod compat;
pub mod console;
pub mod db;
pub mod engine_flags;
#[cfg(all(feature = "gui", unix, not(target_os = "macos")))]
pub mod install;
pub mod ladder;
pub mod matches;
pub mod midbench;
pub mod nboard;
pub mod perft;
pub mod script_run;
pub mod script_shards;
pub mod train;
pub mod train_label;
pub mod units;

use clap::{Parser, Subcommand};
use okapi_core::board::Position;
use okapi_core::shard::Shard;
use script_run::{Feedback, RunStats, ScriptOptions};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "okapi",
    version,
    about = "Okapi: an Othello analyser, endgame solver and opponent",
    long_about = "Okapi: an Othello analyser, endgame solver and opponent.\n\n\
        With no arguments, or with one game or script file, opens the desktop app.\n\n\
        scrZebra's script solver is also accepted exactly as scrZebra spells it:\n  \
        okapi -script IN OUT [-e 0|1] [-h N] [-wld 0|1] [-line 0|1] [-b 0|1] [-n N]\n\
        (`okapi solve` does the same with long options and writes the same file)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: CliCommand,
}

#[derive(Subcommand, Debug)]
pub enum CliCommand {
    /// Solve the positions of an endgame script (scrZebra format) exactly or win/draw/loss.
    ///
    /// Writes one line per input line, in the scrZebra format, flushed position by
    /// position: comments copied, results as `63 -  1` (Black - White, empties to the
    /// winner) or `Black win`/`Draw`/`White win`, optionally the line, then the trailing
    /// comment. Bad lines are reported with their number on standard error and get a
    /// `% error:` line; the rest is still solved and the exit status is 1.
    ///
    /// With --threads N, positions under 20 empties are solved N at a time and larger
    /// ones with N threads each; the file is the same for any N. A long script can be
    /// split across machines with --shard K/N, and the shard outputs merged back with
    /// --merge into exactly the file one run writes.
    Solve(SolveArgs),
    /// Count the leaves of the game tree from the start position, depth by depth.
    ///
    /// A pass counts as a ply and a finished game is a leaf (the published counts: 4, 12,
    /// 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800).
    Perft(PerftArgs),
    /// Solve FFO test positions one by one (on all cores, or --threads N) and report speed and correctness.
    ///
    /// Per position: number, empties, best move, score, expected score with OK or WRONG,
    /// time, nodes and nodes/s; then the totals and the median time. The table is
    /// cleared before each position. Exit status 1 if any answer is wrong.
    Bench(BenchArgs),
    /// Train Okapi's data artifacts: the evaluation weights and the ProbCut model.
    #[command(subcommand)]
    Train(train::TrainCommand),
    /// The opening book: build it from game records, show a position's book moves, figures.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// The games database: statistics of a position's next moves, the games reaching it,
    /// and building the database file.
    #[command(subcommand)]
    Db(db::DbCommand),
    /// Open the desktop app, optionally with a game or script file.
    App {
        /// A file to open.
        file: Option<PathBuf>,
    },
    /// Speak the NBoard protocol (version 2) on standard input and output, as an engine.
    Nboard(nboard::NboardArgs),
    /// Play two engines against each other from balanced openings, both colours each.
    Match(matches::MatchArgs),
    /// A text console to play and analyse: moves, undo, levels, hints, show lines, solve.
    #[command(alias = "play")]
    Console(console::ConsoleArgs),
    /// The levels' Elo table (data/levels-elo.json) from tools/level-ladder's match results.
    LadderFit(ladder::LadderFitArgs),
    /// Put Okapi in the desktop's applications menu: writes the desktop entry
    /// ~/.local/share/applications/okapi.desktop and its icon.
    #[cfg(all(feature = "gui", unix, not(target_os = "macos")))]
    InstallDesktop(install::InstallArgs),
}

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The script to solve, or one position as a board string (64 squares a1..h8, then
    /// the side to move; X/O/-, */O/. or b/w/.; quoted, or its two words unquoted); with
    /// --merge, the shard outputs to merge (all N of them).
    #[arg(required = true, value_name = "INPUT")]
    pub input: Vec<PathBuf>,
    /// Where to write the results (replaced when the run is done: a killed run leaves the
    /// previous file); standard output if not given.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Win/draw/loss only (scrZebra's -wld 1).
    #[arg(long)]
    pub wld: bool,
    /// Also write the proven line: optimal (exact) or semi-optimal (WLD) (-line 1).
    #[arg(long, alias = "lines")]
    pub line: bool,
    /// Hash table of about 16 * 2^N bytes (-h N).
    #[arg(long, value_name = "N", default_value_t = 18, value_parser = units::parse_hash_bits)]
    pub hash_bits: u32,
    /// Threads, 1 or more (-n N); default: all the cores. Positions under 20 empties are
    /// solved N at a time, one thread each; larger ones one at a time with N threads.
    #[arg(long, value_name = "N", value_parser = units::parse_threads)]
    pub threads: Option<usize>,
    /// Solve only shard K of N (K from 1): the positions whose index i (0-based, bad
    /// position lines counted) has i mod N = K-1. The output is a shard output (each
    /// result with its input line number); merge the N of them with --merge.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Merge the shard outputs given as INPUT (shards 1/N to N/N, any order) into OUT:
    /// exactly the file the unsharded run writes.
    #[arg(long, value_name = "OUT", conflicts_with_all = ["output", "wld", "line", "hash_bits", "threads", "shard", "quiet"])]
    pub merge: Option<PathBuf>,
    /// No progress bar and no summary; only errors.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Count up to this depth.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Also list the count under each first move at the last depth.
    #[arg(long)]
    pub divide: bool,
    /// Start from this position instead: a board string (64 squares a1..h8, then the side
    /// to move; X/O/-, */O/. or b/w/.) or a file holding one.
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Play every move down to the leaves (flips computed at the last ply too) instead of
    /// counting the last ply's moves: measures move making.
    #[arg(long)]
    pub full: bool,
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// First FFO position.
    #[arg(long, default_value_t = 40)]
    pub from: u32,
    /// Last FFO position.
    #[arg(long, default_value_t = 59)]
    pub to: u32,
    /// Hash table of about 16 * 2^N bytes.
    #[arg(long, value_name = "N", default_value_t = 23, value_parser = units::parse_hash_bits)]
    pub hash_bits: u32,
    /// Solve each position this many times and show its median time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub runs: u32,
    /// Read the positions from this script (answers in `ffo#NN best:.. score:..` comments)
    /// or OBF file instead of the FFO files in tests/data; --from/--to still select.
    #[arg(long, value_name = "PATH")]
    pub file: Option<PathBuf>,
    /// Benchmark the midgame search instead: time and nodes to each of --depths on the
    /// middle-game positions of tests/data/midgame36.scr (or --file).
    #[arg(long)]
    pub midgame: bool,
    /// Depths for --midgame.
    #[arg(long, value_delimiter = ',', default_values_t = [12, 16, 20], value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depths: Vec<u32>,
    /// ProbCut level for --midgame: 0..4 (73%..100%), 5 = none.
    #[arg(long, default_value_t = 2, value_parser = units::number_in(0usize, 5, "a ProbCut level"))]
    pub selectivity: usize,
    /// Solve without the evaluation: moves ordered by mobility and parity alone, no
    /// selective passes. More nodes, each cheaper: the raw speed of the search.
    #[arg(long, conflicts_with = "midgame")]
    pub plain: bool,
    /// Benchmark the games database instead: load time, query times, memory (--runs
    /// loads).
    #[arg(long, conflicts_with = "midgame")]
    pub db: bool,
    /// Threads each solve (or, with --midgame, each search) uses (default: all cores).
    #[arg(long, value_name = "N", value_parser = units::parse_threads)]
    pub threads: Option<usize>,
    /// Evaluate (and order the endgame's moves) with these weights instead of the
    /// shipped ones: a candidate evaluation's speed and nodes beside the shipped one's.
    #[arg(long, value_name = "FILE", conflicts_with = "plain")]
    pub weights: Option<PathBuf>,
}

/// Exit status of a command that returns a `Result`: errors go to standard error.
fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("okapi: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// What the command line did, or asks the binary to do.
#[derive(Debug)]
pub enum Run {
    /// The command ran (or its arguments were refused): the exit status.
    Exit(ExitCode),
    /// `okapi app [FILE]`: the desktop app, which the binary starts (this crate does not
    /// depend on it).
    App(Option<PathBuf>),
}

/// Is `word` one of the commands (or an alias of one)? A lone argument that is one is a
/// command, never a file to open in the app.
pub fn is_command_name(word: &str) -> bool {
    use clap::CommandFactory;
    Cli::command()
        .get_subcommands()
        .any(|c| c.get_name() == word || c.get_all_aliases().any(|a| a == word))
}

/// Is the command of `args` (the program's name first) an interactive session a person
/// types into (`okapi console`)? On Windows it gets a console window of its own.
pub fn is_interactive(args: &[OsString]) -> bool {
    use clap::CommandFactory;
    let Some(word) = args.get(1).and_then(|a| a.to_str()) else {
        return false;
    };
    Cli::command()
        .find_subcommand("console")
        .is_some_and(|c| c.get_name() == word || c.get_all_aliases().any(|a| a == word))
}

/// Runs the command line on `args` (the program's name first).
pub fn main(args: Vec<OsString>) -> Run {
    if args.len() <= 1 {
        return Run::App(None);
    }
    if is_scrzebra_form(&args) {
        return Run::Exit(compat::main(&args[1..]));
    }
    let args = db_moves_as_values(board_words_as_values(args));
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return Run::Exit(if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            });
        }
    };
    // A conversation with a host (a GUI, a person) writes line by line and says itself
    // when a line could not be written (2, as a solve's failed output): the end of its
    // input is the end of the session (0).
    let conversation = matches!(cli.command, CliCommand::Console(_) | CliCommand::Nboard(_));
    let code = match cli.command {
        CliCommand::App { file } => return Run::App(file),
        CliCommand::Solve(a) => solve(a),
        CliCommand::Perft(a) => {
            let position = match a.position.as_deref().map(position_arg).transpose() {
                Ok(p) => p.unwrap_or_else(Position::start),
                Err(e) => {
                    errln!("okapi: --position: {e}");
                    return Run::Exit(ExitCode::from(2));
                }
            };
            perft::run(&position, a.depth, a.divide, a.full);
            ExitCode::SUCCESS
        }
        CliCommand::Bench(a) => bench(a),
        CliCommand::Train(c) => report(train::run(c)),
        CliCommand::Book(c) => report(book::run(c)),
        CliCommand::Db(c) => report(db::run(c)),
        CliCommand::Nboard(a) => nboard::main(a),
        CliCommand::Match(a) => matches::main(a),
        CliCommand::Console(a) => console::main(a),
        CliCommand::LadderFit(a) => report(ladder::run(&a)),
        #[cfg(all(feature = "gui", unix, not(target_os = "macos")))]
        CliCommand::InstallDesktop(a) => report(install::run(a)),
    };
    Run::Exit(if conversation {
        code
    } else {
        finish_stdout(code)
    })
}

fn solve(a: SolveArgs) -> ExitCode {
    if let Some(output) = &a.merge {
        return report(script_shards::merge(&a.input, output));
    }
    let input = match solve_input(&a.input) {
        Ok(input) => input,
        Err(e) => {
            errln!("okapi: {e}");
            return ExitCode::from(2);
        }
    };
    let feedback = if a.quiet {
        Feedback::Quiet
    } else {
        Feedback::Progress
    };
    let config = match engine_flags::engine_config("--hash-bits", a.hash_bits, a.threads) {
        Ok(c) => c,
        Err(e) => {
            errln!("okapi: {e}");
            return ExitCode::from(2);
        }
    };
    let mut opts = ScriptOptions::new(
        a.wld,
        a.line,
        config.hash_bits(),
        config.threads(),
        feedback,
    );
    opts.shard = a.shard;
    finish_script_run(match input {
        SolveInput::Script(path) => script_run::run_script(path, a.output.as_deref(), &opts),
        SolveInput::Board(position) => {
            script_run::run_position(&position, a.output.as_deref(), &opts)
        }
    })
}

/// Is this scrZebra's form (`okapi -script IN OUT -e 1 ...`)? Its words all start with a
/// single dash, so the first one does; a subcommand's value that is `-script` (`okapi solve
/// in.scr -o -script`, an output file so named) is not the form.
fn is_scrzebra_form(args: &[OsString]) -> bool {
    args.get(1)
        .and_then(|a| a.to_str())
        .is_some_and(|a| a.starts_with('-') && !a.starts_with("--"))
        && args[1..].iter().any(|a| a == "-script")
}

/// `okapi db stats --` (and `games`): clap takes the `--` for the end of the options and
/// the moves for none, the start, while `f5 -- d6` reads `--` as a pass (refused there:
/// Black has moves). A last `--` is made the moves, so it is read as everywhere else.
fn db_moves_as_values(mut args: Vec<OsString>) -> Vec<OsString> {
    let query = args.get(1).is_some_and(|a| a == "db")
        && args.get(2).is_some_and(|a| a == "stats" || a == "games");
    if query && args.last().is_some_and(|a| a == "--") {
        args.push("--".into());
    }
    args
}

/// A board string given to `okapi solve` often starts with `-` (an empty a1): clap would
/// take it for an option. Such words (see `board_like` below: no option looks like that;
/// a wrong board too, so that the board reader says what is wrong), with the side word
/// after an unquoted one, are moved after a `--` at the end, where they are values
/// whatever their first character.
fn board_words_as_values(args: Vec<OsString>) -> Vec<OsString> {
    if args.get(1).is_none_or(|a| a != "solve") {
        return args;
    }
    let is_square = |c: char| c.is_whitespace() || "-_.*XxOo0BbWw".contains(c);
    // 16 characters or more, half of them square characters, no `=` and no path: a board
    // string cut short or mistyped still reaches the board reader, which says what is
    // wrong (32 and three quarters let a shorter one through to clap's "unexpected
    // argument"); `-o/a/path` or `--output=x` stay options.
    let board_like = |a: &str| {
        let chars = a.chars().filter(|c| !c.is_whitespace()).count();
        a.starts_with('-')
            && !a.contains(['=', '/', '\\'])
            && chars >= 16
            && a.chars().filter(|&c| is_square(c)).count() * 2 >= a.chars().count()
    };
    let is_side = |a: &str| {
        ["x", "o", "*", "0", "b", "w", "black", "white"].contains(&a.to_ascii_lowercase().as_str())
    };
    let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let (mut kept, mut boards) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < end {
        match args[i].to_str() {
            Some(a) if i >= 2 && board_like(a) => {
                let mut word = a.to_string();
                if let Some(side) = args[..end].get(i + 1).and_then(|s| s.to_str())
                    && is_side(side)
                {
                    word = format!("{word} {side}");
                    i += 1;
                }
                boards.push(OsString::from(word));
            }
            _ => kept.push(args[i].clone()),
        }
        i += 1;
    }
    if boards.is_empty() {
        return args;
    }
    kept.push("--".into());
    kept.extend(boards);
    kept.extend(args.into_iter().skip(end + 1));
    kept
}

/// What `okapi solve` was given: a script file, or one position as a board string.
#[derive(Debug, PartialEq)]
enum SolveInput<'a> {
    Script(&'a std::path::Path),
    Board(Position),
}

/// Tells a script file from a board string: an existing file is a script; otherwise the
/// words (a board string quoted, or its squares and side as two words) are read as a
/// board when they look like one (mostly square characters, or 60 characters or more with
/// no `/`), with the board reader's errors (the count, a character and its square, the
/// side); anything else is a script that cannot be read.
fn solve_input(input: &[PathBuf]) -> Result<SolveInput<'_>, String> {
    if let [path] = input
        && path.is_file()
    {
        return Ok(SolveInput::Script(path));
    }
    let several = || {
        format!(
            "solve takes one script ({} given); several files are for --merge",
            input.len()
        )
    };
    if input.iter().any(|p| p.is_file()) {
        return Err(several());
    }
    let words: Vec<String> = input
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let text = words.join(" ");
    let squares = text.chars().filter(|c| !c.is_whitespace()).count();
    let board_like = okapi_core::formats::board_text::looks_like_board(&text)
        || (squares >= 60 && !text.contains('/'));
    match input {
        _ if board_like => okapi_core::formats::board_text::read(&text)
            .map(SolveInput::Board)
            .map_err(|e| format!("the board string: {e}")),
        [path] => Ok(SolveInput::Script(path)),
        _ => Err(several()),
    }
}

/// Exit status of a script run: 0 all fine, 1 some bad lines, 2 the run failed.
fn finish_script_run(result: anyhow::Result<RunStats>) -> ExitCode {
    match result {
        Ok(stats) if stats.errors == 0 => ExitCode::SUCCESS,
        Ok(stats) => {
            errln!(
                "okapi: {} bad line{} (see above)",
                stats.errors,
                if stats.errors == 1 { "" } else { "s" }
            );
            ExitCode::from(1)
        }
        Err(e) => {
            errln!("okapi: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn bench(a: BenchArgs) -> ExitCode {
    if a.db {
        return report(db::bench(a.runs.max(5)));
    }
    let config = match engine_flags::engine_config("--hash-bits", a.hash_bits, a.threads) {
        Ok(c) => c,
        Err(e) => {
            errln!("okapi: {e}");
            return ExitCode::from(2);
        }
    };
    let (hash_bits, threads) = (config.hash_bits(), config.threads());
    let evaluator = match &a.weights {
        Some(path) => match okapi_core::eval::Evaluator::load(path) {
            Ok(e) => std::sync::Arc::new(e),
            Err(e) => {
                errln!("okapi: {e}");
                return ExitCode::from(2);
            }
        },
        None => okapi_core::eval::Evaluator::shipped(),
    };
    if a.midgame {
        let path = a
            .file
            .clone()
            .unwrap_or_else(|| bench::data_dir().join("midgame36.scr"));
        return report(midbench::run(
            &path,
            evaluator,
            &a.depths,
            a.selectivity,
            hash_bits,
            threads,
        ));
    }
    let positions = match &a.file {
        Some(path) => bench::load(path).map(|ps| {
            ps.into_iter()
                .filter(|p| (a.from..=a.to).contains(&p.number))
                .collect()
        }),
        None => bench::load_ffo(a.from, a.to),
    };
    let positions: Vec<_> = match positions {
        Ok(ps) => ps,
        Err(e) => {
            errln!("okapi: {e:#}");
            return ExitCode::from(2);
        }
    };
    if positions.is_empty() {
        errln!("okapi: no positions numbered {} to {}", a.from, a.to);
        return ExitCode::from(2);
    }
    let evaluator = (!a.plain).then_some(evaluator);
    match bench::run(&positions, hash_bits, a.runs, evaluator, threads) {
        Ok(rows) if rows.iter().any(|r| r.right == Some(false)) => ExitCode::from(1),
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("okapi: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn subcommands_parse() {
        let cli = Cli::try_parse_from([
            "okapi",
            "solve",
            "in.scr",
            "-o",
            "out",
            "--wld",
            "--line",
            "--hash-bits",
            "20",
        ])
        .unwrap();
        match cli.command {
            CliCommand::Solve(a) => {
                assert!(a.wld && a.line && a.hash_bits == 20 && !a.quiet && a.threads.is_none())
            }
            other => panic!("{other:?}"),
        }
        let cli = Cli::try_parse_from(["okapi", "solve", "in", "--threads", "3", "--shard", "2/3"])
            .unwrap();
        match cli.command {
            CliCommand::Solve(a) => {
                assert_eq!(a.threads, Some(3));
                assert_eq!(a.shard, Some(Shard { index: 1, count: 3 }));
            }
            other => panic!("{other:?}"),
        }
        for bad in [
            &["okapi", "solve", "in", "--threads", "0"][..],
            &["okapi", "solve", "in", "--threads", "x"],
            &["okapi", "solve", "in", "--shard", "0/3"],
            &["okapi", "solve", "in", "--shard", "4/3"],
            &["okapi", "solve", "in", "--shard", "1/0"],
            &["okapi", "solve", "in", "--shard", "x"],
            &["okapi", "solve", "a", "b", "--merge", "out", "--wld"],
        ] {
            assert!(Cli::try_parse_from(bad).is_err(), "{bad:?}");
        }
        assert!(Cli::try_parse_from(["okapi", "solve", "in", "--hash-bits", "31"]).is_err());
        let cli = Cli::try_parse_from(["okapi", "bench", "--from", "40", "--to", "44"]).unwrap();
        assert!(matches!(
            cli.command,
            CliCommand::Bench(BenchArgs {
                from: 40,
                to: 44,
                ..
            })
        ));
        assert!(Cli::try_parse_from(["okapi", "perft", "0"]).is_err());
    }
}

/// A position given on the command line: a board string in any common convention
/// ([`okapi_core::formats::board_text`]), or the name of a file holding one.
pub fn position_arg(arg: &str) -> Result<Position, String> {
    let path = std::path::Path::new(arg);
    if arg.len() < 64 && path.is_file() {
        let bytes = okapi_core::formats::read_capped(path, okapi_core::formats::MAX_GAME_FILE)
            .map_err(|e| e.to_string())?;
        okapi_core::formats::board_text::read(&String::from_utf8_lossy(&bytes))
            .map_err(|e| format!("{}: {e}", path.display()))
    } else if arg.len() < 64 && path.is_dir() {
        Err(format!(
            "{arg} is a folder, not a position or a file holding one"
        ))
    } else {
        okapi_core::formats::board_text::read(arg).map_err(|e| {
            // Shorter than a board's 64 squares: meant as a file's name.
            if arg.len() < 64 {
                format!("no such file as {arg} (nor is it a board: {e})")
            } else {
                e.to_string()
            }
        })
    }
}

#[cfg(test)]
mod position_arg_tests {
    use super::*;

    #[test]
    fn a_position_comes_as_a_board_string_or_a_file() {
        let p = okapi_core::formats::transcript::read("f5d6c3")
            .unwrap()
            .position();
        assert_eq!(position_arg(&p.to_board_string()), Ok(p));
        let dots = p.to_board_string().replace('-', ".").replace('X', "*");
        assert_eq!(position_arg(&dots), Ok(p));
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("b.txt");
        std::fs::write(&file, p.to_string()).unwrap();
        assert_eq!(position_arg(file.to_str().unwrap()), Ok(p));
        let err = position_arg(&format!("{} X", "-".repeat(68))).unwrap_err();
        assert_eq!(err, "a board has 64 squares, this has 68");
    }

    #[test]
    fn board_words_starting_with_a_hyphen_are_values() {
        let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
        let os = |words: &[&str]| -> Vec<OsString> { words.iter().map(OsString::from).collect() };
        let parse = |words: &[&str]| match Cli::try_parse_from(board_words_as_values(os(words))) {
            Ok(Cli {
                command: CliCommand::Solve(a),
            }) => (a.input, a.wld, a.quiet),
            other => panic!("{words:?}: {other:?}"),
        };
        let quoted = format!("{board} X");
        let want = vec![PathBuf::from(&quoted)];
        assert_eq!(
            parse(&["okapi", "solve", &quoted]),
            (want.clone(), false, false)
        );
        assert_eq!(
            parse(&["okapi", "solve", "--wld", board, "X", "--quiet"]),
            (want.clone(), true, true)
        );
        assert_eq!(
            parse(&["okapi", "solve", "-q", "--", &quoted]),
            (want, false, true)
        );
        // A wrong board too, so that the board reader can say what is wrong with it.
        let typo = format!("{}?{} X", &board[..3], &board[4..]);
        assert_eq!(
            parse(&["okapi", "solve", &typo]),
            (vec![PathBuf::from(&typo)], false, false)
        );
        let long_output = "--output=/a/folder/with/a/long/name/out.txt";
        assert_eq!(
            parse(&["okapi", "solve", "in.scr", long_output]).0,
            [PathBuf::from("in.scr")]
        );
        // Options and files are left alone.
        assert_eq!(
            parse(&["okapi", "solve", "in.scr", "--wld"]),
            (vec![PathBuf::from("in.scr")], true, false)
        );
        let other = os(&["okapi", "perft", "3", "--position", board]);
        assert_eq!(board_words_as_values(other.clone()), other);
    }

    #[test]
    fn solve_takes_a_script_or_a_board_string() {
        let p = okapi_core::formats::transcript::read("f5d6c3")
            .unwrap()
            .position();
        let args = |words: &[&str]| -> Vec<PathBuf> { words.iter().map(PathBuf::from).collect() };
        let board = p.to_board_string();
        assert_eq!(solve_input(&args(&[&board])), Ok(SolveInput::Board(p)));
        // Unquoted: the squares and the side as two words; the b/w convention.
        let (squares, side) = board.split_once(' ').unwrap();
        assert_eq!(
            solve_input(&args(&[squares, side])),
            Ok(SolveInput::Board(p))
        );
        let bw = squares
            .replace('X', "b")
            .replace('O', "w")
            .replace('-', ".");
        assert_eq!(solve_input(&args(&[&bw, "w"])), Ok(SolveInput::Board(p)));
        // A script file stays a script, and a missing file is read (and refused) as one.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("in.scr");
        std::fs::write(&file, format!("{board}\n")).unwrap();
        assert_eq!(
            solve_input(std::slice::from_ref(&file)),
            Ok(SolveInput::Script(&file))
        );
        let missing = dir.path().join("missing.scr");
        assert_eq!(
            solve_input(std::slice::from_ref(&missing)),
            Ok(SolveInput::Script(&missing))
        );
        // The board reader's errors: the count, a character and its square, the side.
        let err = |words: &[&str]| solve_input(&args(words)).unwrap_err();
        assert_eq!(
            err(&[&format!("{} X", "-".repeat(68))]),
            "the board string: a board has 64 squares, this has 68"
        );
        let bad = format!("{}?{} X", &squares[..10], &squares[11..]);
        assert!(
            err(&[&bad]).contains("'?' at square c2"),
            "{}",
            err(&[&bad])
        );
        assert!(err(&[squares]).contains("the side to move is missing"));
        assert!(err(&[squares, "Z"]).contains("'Z' is not a side to move"));
        assert_eq!(
            err(&["a.scr", "b.scr"]),
            "solve takes one script (2 given); several files are for --merge"
        );
    }
}
