//! scrZebra's command line, accepted exactly:
//! `okapi -script IN OUT [-e 0|1] [-h N] [-wld 0|1] [-line 0|1] [-b 0|1] [-n N]`, options
//! in any order (`-n`, the threads, is the multi-threaded scrZebra fork's spelling).
//! Single-dash words are not clap's style, so this form is parsed here by hand.

use super::script_run::{Feedback, ScriptOptions, run_script};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

pub const USAGE: &str =
    "usage: okapi -script <input> <output> [-e 0|1] [-h N] [-wld 0|1] [-line 0|1] [-b 0|1] [-n N]
  -script IN OUT  solve the positions of IN, write the results to OUT (replaced when done)
  -wld 0|1        1: win/draw/loss only; 0 (default): exact score
  -line 0|1       1: write the optimal (exact) or semi-optimal (WLD) line; default 0
  -h N            hash table of about 16 * 2^N bytes; default 18 (4 MB), at most 30
  -e 0|1          1 (default): echo each board, its result and a summary; 0: quiet
  -b 0|1          opening book; accepted, but without effect: no book holds endgame results
  -n N            threads (default: all the cores): positions under 20 empties solved N
                  at a time, larger ones with N threads each; the output is the same
See also `okapi solve --help` for the same with long options.";

/// The compatibility form's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompatArgs {
    pub input: PathBuf,
    pub output: PathBuf,
    pub echo: bool,
    pub hash_bits: u32,
    pub wld: bool,
    pub line: bool,
    pub book: bool,
    /// Threads; `None`: all the cores.
    pub threads: Option<usize>,
}

/// Parses the arguments after the program name.
pub fn parse(args: &[OsString]) -> Result<CompatArgs, String> {
    let mut files: Option<(PathBuf, PathBuf)> = None;
    let (mut echo, mut hash_bits, mut wld, mut line, mut book) = (true, 18, false, false, false);
    let mut threads = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let flag = arg.to_str().unwrap_or("");
        let mut value = |what: &str| -> Result<String, String> {
            match it.next() {
                Some(v) => v
                    .to_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("{flag}: {what} is not valid text")),
                None => Err(format!("{flag} needs {what}")),
            }
        };
        match flag {
            "-script" => {
                if files.is_some() {
                    return Err("-script given twice".into());
                }
                let input = it
                    .next()
                    .ok_or("-script needs an input file and an output file")?;
                let output = it
                    .next()
                    .ok_or("-script needs an output file after the input file")?;
                files = Some((input.into(), output.into()));
            }
            "-e" => echo = switch(flag, &value("0 or 1")?)?,
            "-wld" => wld = switch(flag, &value("0 or 1")?)?,
            "-line" => line = switch(flag, &value("0 or 1")?)?,
            "-b" => book = switch(flag, &value("0 or 1")?)?,
            "-h" => {
                let v = value("a number N (table of 16 * 2^N bytes)")?;
                hash_bits = super::units::parse_hash_bits(&v).map_err(|e| format!("-h {e}"))?;
            }
            "-n" => {
                let v = value("a number of threads")?;
                threads = Some(super::units::parse_threads(&v).map_err(|e| format!("-n {e}"))?);
            }
            _ => return Err(format!("unknown option '{}'", arg.to_string_lossy())),
        }
    }
    let (input, output) = files.ok_or("-script IN OUT is required")?;
    Ok(CompatArgs {
        input,
        output,
        echo,
        hash_bits,
        wld,
        line,
        book,
        threads,
    })
}

fn switch(flag: &str, v: &str) -> Result<bool, String> {
    match v {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(format!("{flag} {v}: expected 0 or 1")),
    }
}

/// Runs the compatibility form: exit status 0 if every line was fine, 1 if any line was
/// bad (the others are still solved), 2 if the run could not be done.
pub fn main(args: &[OsString]) -> ExitCode {
    let args = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            errln!("okapi: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if args.book {
        errln!(
            "okapi: note: -b 1 has no effect: positions are solved exactly and no opening book holds endgame results"
        );
    }
    let feedback = if args.echo {
        Feedback::Echo
    } else {
        Feedback::Quiet
    };
    let config = match super::engine_flags::engine_config("-h", args.hash_bits, args.threads) {
        Ok(c) => c,
        Err(e) => {
            errln!("okapi: {e}");
            return ExitCode::from(2);
        }
    };
    let opts = ScriptOptions::new(
        args.wld,
        args.line,
        config.hash_bits(),
        config.threads(),
        feedback,
    );
    super::finish_script_run(run_script(&args.input, Some(&args.output), &opts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn any_order_and_defaults() {
        let a = parse(&args("-script in.scr out.txt")).unwrap();
        assert_eq!(
            a,
            CompatArgs {
                input: "in.scr".into(),
                output: "out.txt".into(),
                echo: true,
                hash_bits: 18,
                wld: false,
                line: false,
                book: false,
                threads: None
            }
        );
        let a = parse(&args("-e 0 -line 1 -h 20 -script a b -wld 1 -b 1")).unwrap();
        assert!(!a.echo && a.line && a.wld && a.book);
        assert_eq!(a.hash_bits, 20);
        assert_eq!(a.output, PathBuf::from("b"));
        assert_eq!(a.threads, None);
        let a = parse(&args("-script a b -n 3")).unwrap();
        assert_eq!(a.threads, Some(3));
    }

    #[test]
    fn the_usage_states_the_small_position_threshold() {
        let n = okapi_engine::script_solve::SMALL_POSITION_EMPTIES;
        assert!(
            USAGE.contains(&format!("positions under {n} empties")),
            "{USAGE}"
        );
    }

    #[test]
    fn clear_errors() {
        let err = |s: &str| parse(&args(s)).unwrap_err();
        assert_eq!(
            err("-script a"),
            "-script needs an output file after the input file"
        );
        assert_eq!(
            err("-script"),
            "-script needs an input file and an output file"
        );
        assert_eq!(err("-script a b -wld 2"), "-wld 2: expected 0 or 1");
        assert_eq!(err("-script a b -line"), "-line needs 0 or 1");
        assert_eq!(
            err("-script a b -h 99"),
            "-h '99': give 10 to 30 (a table of 16 KiB to 16 GiB)"
        );
        assert_eq!(err("-script a b -x 1"), "unknown option '-x'");
        assert_eq!(err("-wld 1"), "-script IN OUT is required");
        assert_eq!(err("-script a b -script c d"), "-script given twice");
        assert!(err("-script a b -n 0").starts_with("-n '0': give a number of threads from 1 to"));
        assert!(err("-script a b -n 100000").contains("per core"));
        assert_eq!(err("-script a b -n x"), "-n 'x' is not a number of threads");
        assert_eq!(err("-script a b -n"), "-n needs a number of threads");
    }
}
