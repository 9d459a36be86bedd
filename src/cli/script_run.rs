//! Solving a script file: shared by the scrZebra compatibility form (`okapi -script`) and
//! `okapi solve`, so both write identical files.

use super::units::{fmt_duration, fmt_rate};
use crate::board::Move;
use crate::engine::script_solve::{self, ScriptSolution};
use crate::formats::script::{self, BadLine, ScriptLine};
use crate::search::{EndgameSolver, SolveMode};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What the user sees while a script is solved (the output file is the same either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feedback {
    /// scrZebra's `-e 1`: each board, its result and the summary on standard output.
    Echo,
    /// `okapi solve`: a progress bar on standard error when it is a terminal, then the
    /// summary on standard error.
    Progress,
    /// Nothing but errors.
    Quiet,
}

#[derive(Clone, Debug)]
pub struct ScriptOptions {
    pub mode: SolveMode,
    pub lines: bool,
    /// Table of about `16 << hash_bits` bytes.
    pub hash_bits: u32,
    pub feedback: Feedback,
}

impl ScriptOptions {
    /// The settings both command-line forms have: WLD or exact, lines, table size.
    pub fn new(wld: bool, lines: bool, hash_bits: u32, feedback: Feedback) -> ScriptOptions {
        let mode = if wld {
            SolveMode::Wld
        } else {
            SolveMode::Exact
        };
        ScriptOptions {
            mode,
            lines,
            hash_bits,
            feedback,
        }
    }
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub positions: usize,
    pub errors: usize,
    pub total_time: Duration,
    /// The longest solve and the input line of its position.
    pub largest: Option<(Duration, usize)>,
    pub nodes: u64,
}

/// Solves the script `input`, writing results to `output` (standard output if `None`)
/// line by line, flushed after each line so nothing solved is lost on interruption.
///
/// Bad lines are reported on standard error as `IN:LINE: reason` and get a `% error:`
/// line; they are counted in [`RunStats::errors`] and do not stop the run. Only I/O
/// failures (unreadable input, unwritable output) are errors of the run itself.
pub fn run_script(
    input: &Path,
    output: Option<&Path>,
    opts: &ScriptOptions,
) -> anyhow::Result<RunStats> {
    let bytes = crate::formats::read_capped(input, crate::formats::MAX_SCRIPT_FILE)
        .with_context(|| format!("cannot read the script {}", input.display()))?;
    let lines = script::parse_script(&bytes);
    if let Some(path) = output {
        let same = |a: &Path, b: &Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y);
        anyhow::ensure!(
            !same(input, path),
            "the output file {} is the input file",
            path.display()
        );
    }
    let mut out: Box<dyn Write> = match output {
        Some(path) => Box::new(BufWriter::new(File::create(path).with_context(|| {
            format!("cannot create the output file {}", path.display())
        })?)),
        None => Box::new(io::stdout().lock()),
    };
    let out_name: PathBuf = output
        .map(Path::to_path_buf)
        .unwrap_or_else(|| "standard output".into());
    let total_positions = lines
        .iter()
        .filter(|l| matches!(l.parsed, Ok(ScriptLine::Position { .. })))
        .count();

    let bar = match opts.feedback {
        Feedback::Progress if io::stderr().is_terminal() => {
            let bar = ProgressBar::with_draw_target(
                Some(total_positions as u64),
                ProgressDrawTarget::stderr(),
            );
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} {msg}",
                )
                .expect("a valid progress template"),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            Some(bar)
        }
        _ => None,
    };

    let mut solver = EndgameSolver::new(opts.hash_bits);
    let mut stats = RunStats::default();
    let write_err = |e: io::Error| {
        anyhow::Error::new(e).context(format!("cannot write to {}", out_name.display()))
    };
    for line in &lines {
        let bytes = match &line.parsed {
            Err(BadLine { error, .. }) => {
                stats.errors += 1;
                let msg = format!("{}:{}: {error}", input.display(), line.number);
                match &bar {
                    Some(bar) => bar.suspend(|| eprintln!("{msg}")),
                    None => eprintln!("{msg}"),
                }
                script::output_line(line, None)
            }
            Ok(ScriptLine::Position { position, .. }) => {
                if let Some(bar) = &bar {
                    bar.set_message(format!(
                        "line {}, {} empties",
                        line.number,
                        position.empty_count()
                    ));
                }
                if opts.feedback == Feedback::Echo {
                    println!("Line {}:\n{}", line.number, position);
                }
                let solved =
                    script_solve::solve_position(&mut solver, position, opts.mode, opts.lines)
                        .context("the solver was stopped")?;
                stats.positions += 1;
                stats.nodes += solved.solution.nodes;
                stats.total_time += solved.solution.elapsed;
                if stats
                    .largest
                    .is_none_or(|(t, _)| solved.solution.elapsed > t)
                {
                    stats.largest = Some((solved.solution.elapsed, line.number));
                }
                if opts.feedback == Feedback::Echo {
                    println!("{}\n", describe(&solved));
                }
                if let Some(bar) = &bar {
                    bar.inc(1);
                }
                script::output_line(line, Some(solved.script_result(opts.lines)))
            }
            // Comments and the end marker are copied with their bytes as in the input,
            // whatever the encoding; blank lines give nothing.
            Ok(_) => script::output_line(line, None),
        };
        let Some(bytes) = bytes else { continue };
        out.write_all(&bytes)
            .and_then(|_| out.write_all(b"\n"))
            .and_then(|_| out.flush())
            .map_err(write_err)?;
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match opts.feedback {
        Feedback::Echo => println!("{}", stats.summary()),
        Feedback::Progress => eprintln!("{}", stats.summary()),
        Feedback::Quiet => {}
    }
    Ok(stats)
}

/// The human summary of a solved position that `okapi solve` prints.
fn describe(solved: &ScriptSolution) -> String {
    let best = match solved.solution.best_move {
        Some(Move::Pass) => "pass".to_string(),
        Some(m) => m.to_string(),
        None => "none (game over)".to_string(),
    };
    let score = match solved.mode {
        SolveMode::Exact => format!("{:+}", solved.solution.score),
        SolveMode::Wld => {
            ["loss", "draw", "win"][(solved.solution.score.signum() + 1) as usize].to_string()
        }
    };
    format!(
        "Result: {}  best move {best}  score {score} for the side to move  {} nodes in {} ({})",
        solved.outcome,
        solved.solution.nodes,
        fmt_duration(solved.solution.elapsed),
        fmt_rate(solved.solution.nodes, solved.solution.elapsed)
    )
}

impl RunStats {
    /// The end-of-run summary: positions, total and largest time, nodes, nodes per second.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{} position{} solved",
            self.positions,
            if self.positions == 1 { "" } else { "s" }
        );
        if self.errors > 0 {
            s.push_str(&format!(
                ", {} bad line{}",
                self.errors,
                if self.errors == 1 { "" } else { "s" }
            ));
        }
        s.push_str(&format!("\nTotal time {}", fmt_duration(self.total_time)));
        if let Some((t, line)) = self.largest {
            s.push_str(&format!(", largest {} (line {line})", fmt_duration(t)));
        }
        s.push_str(&format!(
            "\nNodes {} ({})",
            self.nodes,
            fmt_rate(self.nodes, self.total_time)
        ));
        s
    }
}
