//! Solving a script file: shared by the scrZebra compatibility form (`okapi -script`) and
//! `okapi solve`, so both write identical files, whatever the threads and however the
//! run is split into shards.

use super::script_shards::{self, ShardHeader};
use super::units::{fmt_duration, fmt_rate};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use okapi_core::board::{Move, Position};
use okapi_core::formats::AtomicFile;
use okapi_core::formats::script::{self, BadLine, NumberedLine, Outcome, ScriptLine};
use okapi_core::game::{Eval, numbered_line};
use okapi_core::search::SolveMode;
use okapi_core::shard::Shard;
use okapi_engine::script_solve::{self, ScriptRunError, ScriptSettings, ScriptSolution};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
    /// Threads: small positions solved this many at a time, large ones with this many
    /// threads each (see [`script_solve::solve_in_order`]).
    pub threads: usize,
    /// Solve only this shard's positions and write a shard output
    /// ([`super::script_shards`]) instead of the script output.
    pub shard: Option<Shard>,
    pub feedback: Feedback,
}

impl ScriptOptions {
    /// The settings both command-line forms have: WLD or exact, lines, table size,
    /// threads; no shard.
    pub fn new(
        wld: bool,
        lines: bool,
        hash_bits: u32,
        threads: usize,
        feedback: Feedback,
    ) -> ScriptOptions {
        let mode = if wld {
            SolveMode::Wld
        } else {
            SolveMode::Exact
        };
        ScriptOptions {
            mode,
            lines,
            hash_bits,
            threads,
            shard: None,
            feedback,
        }
    }
}

impl ScriptOptions {
    /// How the solver runs for these options (the shipped evaluation orders the moves).
    fn settings(&self) -> ScriptSettings {
        ScriptSettings {
            mode: self.mode,
            lines: self.lines,
            hash_bits: self.hash_bits,
            threads: self.threads,
            evaluator: okapi_core::eval::Evaluator::shipped(),
        }
    }
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub positions: usize,
    pub errors: usize,
    /// Wall-clock time of the solving: with several threads, less than the sum of the
    /// positions' own times.
    pub total_time: Duration,
    /// The longest solve and the input line of its position.
    pub largest: Option<(Duration, usize)>,
    pub nodes: u64,
}

/// Solves the script `input`, writing results to `output` (standard output if `None`)
/// line by line in input order, each flushed as soon as it and every line before it are
/// done, so nothing solved is lost on interruption. The file is the same whatever
/// `opts.threads`.
///
/// Bad lines are reported on standard error as `IN:LINE: reason` and get a `% error:`
/// line; they are counted in [`RunStats::errors`] and do not stop the run. Only I/O
/// failures (unreadable input, unwritable output) are errors of the run itself.
///
/// With `opts.shard`, only that shard's positions are solved (positions and bad position
/// lines are numbered together, in input order) and the output is a shard output.
pub fn run_script(
    input: &Path,
    output: Option<&Path>,
    opts: &ScriptOptions,
) -> anyhow::Result<RunStats> {
    // The error names the file once ("cannot read D: Is a directory").
    let bytes = okapi_core::formats::read_capped(input, okapi_core::formats::MAX_SCRIPT_FILE)?;
    if let Some(path) = output {
        // Creating the output truncates it: an output that is the input under another
        // name (a hard link, `./x`) would be emptied before it is solved.
        anyhow::ensure!(
            !okapi_core::formats::same_file(input, path),
            "the output file {} is the input file {}",
            path.display(),
            input.display()
        );
    }
    run_script_bytes(&bytes, input, output, opts)
}

/// Solves one position given on the command line (a board string) and says what a
/// player asks of it ([`position_report`]): the best move with its score, and the proven
/// line with `--line`; to `output` (written whole, atomically) or standard output. The
/// summary (nodes, time) goes to standard error, as a script's does. A script's result
/// line (`41 - 23`) is what `okapi solve SCRIPT` and `-script` write, unchanged.
pub fn run_position(
    position: &Position,
    output: Option<&Path>,
    opts: &ScriptOptions,
) -> anyhow::Result<RunStats> {
    anyhow::ensure!(
        opts.shard.is_none(),
        "--shard splits a script's positions; one position is solved whole"
    );
    let settings = opts.settings();
    let bar = progress_bar(opts.feedback, 1);
    if let Some(bar) = &bar {
        bar.set_message(format!("{} empties", position.empty_count()));
    }
    let start = Instant::now();
    let mut found = None;
    let run = script_solve::solve_in_order(
        std::slice::from_ref(position),
        &settings,
        &Arc::new(AtomicBool::new(false)),
        |_, solved| {
            found = Some(solved);
            Ok::<(), anyhow::Error>(())
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match run {
        Ok(()) => {}
        Err(ScriptRunError::Receiver(e)) => return Err(e),
        Err(ScriptRunError::Stopped) => anyhow::bail!("the solver was stopped"),
    }
    let solved = found.context("the solver gave no result")?;
    let mut stats = RunStats::default();
    stats.add(&solved, 1);
    stats.total_time = start.elapsed();
    let report = position_report(position, &solved, opts.lines);
    match output {
        Some(path) => okapi_core::formats::write_atomic(path, report.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => {
            let mut out = io::stdout().lock();
            out.write_all(report.as_bytes())
                .and_then(|()| out.flush())
                .context("cannot write to standard output")?;
        }
    }
    if opts.feedback != Feedback::Quiet {
        errln!("{}", stats.summary());
    }
    Ok(stats)
}

/// One solved position as a player reads it: the best move, its score for the side to
/// move (`+18`, or `win`/`draw`/`loss` for a WLD solve), whose move it is, and the
/// result in words with the final discs; with `with_line`, a second line with the proven
/// line, numbered as the game counts its moves.
///
/// ```text
/// g8 +18 (Black to move): Black wins by 18, 41-23
/// line: 47. g8 48. h7 49. a8 ...
/// ```
pub fn position_report(position: &Position, solved: &ScriptSolution, with_line: bool) -> String {
    let side = position.side_to_move();
    let value = Eval::proven(solved.mode, solved.solution.score);
    let mut verdict = value.verdict(side);
    if let Outcome::Exact { black, white } = solved.outcome {
        verdict += &format!(", {black}-{white}");
    }
    let mut report = match solved.solution.best_move {
        None => format!("game over: {verdict}\n"),
        Some(mv) => format!(
            "{} {} ({} to move): {verdict}\n",
            match mv {
                Move::Pass => "pass".to_string(),
                mv => mv.to_string(),
            },
            value.label(),
            side.name()
        ),
    };
    if with_line && !solved.solution.line.is_empty() {
        report += &format!("line: {}\n", numbered_line(position, &solved.solution.line));
    }
    report
}

/// [`run_script`] on a script's bytes; `input` names it in messages.
fn run_script_bytes(
    bytes: &[u8],
    input: &Path,
    output: Option<&Path>,
    opts: &ScriptOptions,
) -> anyhow::Result<RunStats> {
    let lines = script::parse_script(bytes);
    let owned = owned_lines(&lines, opts.shard);
    let mut writer = LineWriter {
        out: Output::open(output)?,
        out_name: output.map_or_else(|| "standard output".into(), Path::to_path_buf),
        input,
        lines: &lines,
        owned: &owned,
        written: 0,
        bar: None,
        with_lines: opts.lines,
        sharded: opts.shard.is_some(),
    };
    if let Some(shard) = opts.shard {
        let header = shard_header(shard, bytes, &lines, &owned, opts);
        writer.write(format!("{}\n", header.to_line()).as_bytes())?;
    }
    // The positions to solve, and the input line of each.
    let (at, positions): (Vec<usize>, Vec<Position>) = lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| match &line.parsed {
            Ok(ScriptLine::Position { position, .. }) if owned[i] => Some((i, *position)),
            _ => None,
        })
        .unzip();
    let bar = progress_bar(opts.feedback, positions.len());
    writer.bar = bar.clone();
    let show_next = |k: usize| {
        if let (Some(bar), Some(&i)) = (&bar, at.get(k)) {
            bar.set_message(format!(
                "line {}, {} empties",
                lines[i].number,
                positions[k].empty_count()
            ));
        }
    };
    show_next(0);

    let mut stats = RunStats::default();
    let settings = opts.settings();
    let start = Instant::now();
    let run = script_solve::solve_in_order(
        &positions,
        &settings,
        &Arc::new(AtomicBool::new(false)),
        |k, solved| {
            let line = &lines[at[k]];
            stats.add(&solved, line.number);
            if opts.feedback == Feedback::Echo {
                outln!("Line {}:\n{}", line.number, positions[k]);
                outln!("{}\n", describe(&solved));
            }
            writer.write_upto(at[k], Some(&solved), &mut stats)?;
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            show_next(k + 1);
            Ok(())
        },
    );
    stats.total_time = start.elapsed();
    match run {
        Ok(()) => {}
        Err(ScriptRunError::Receiver(e)) => return Err(e),
        Err(ScriptRunError::Stopped) => anyhow::bail!("the solver was stopped"),
    }
    writer.write_upto(lines.len(), None, &mut stats)?;
    let out_name = writer.out_name.clone();
    writer
        .out
        .finish()
        .with_context(|| format!("cannot write to {}", out_name.display()))?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match opts.feedback {
        Feedback::Echo => outln!("{}", stats.summary()),
        Feedback::Progress => errln!("{}", stats.summary()),
        Feedback::Quiet => {}
    }
    Ok(stats)
}

/// Which lines a run writes: positions and bad lines are numbered together, and a shard
/// owns those of its numbers; comments go with the first shard; blank lines give nothing.
fn owned_lines(lines: &[NumberedLine], shard: Option<Shard>) -> Vec<bool> {
    let mut entry = 0;
    lines
        .iter()
        .map(|line| match &line.parsed {
            Ok(ScriptLine::Position { .. }) | Err(_) => {
                entry += 1;
                shard.is_none_or(|s| s.contains(entry as u64 - 1))
            }
            Ok(ScriptLine::Blank) => false,
            Ok(_) => shard.is_none_or(|s| s.index == 0),
        })
        .collect()
}

/// The header of shard `shard`'s output of the script `bytes` (read as `lines`, of which
/// the shard writes the `owned` ones).
fn shard_header(
    shard: Shard,
    bytes: &[u8],
    lines: &[NumberedLine],
    owned: &[bool],
    opts: &ScriptOptions,
) -> ShardHeader {
    ShardHeader {
        shard,
        input: script_shards::input_hash(bytes),
        outputs: lines
            .iter()
            .filter(|l| !matches!(l.parsed, Ok(ScriptLine::Blank)))
            .count(),
        own: owned.iter().filter(|&&o| o).count(),
        mode: opts.mode,
        lines: opts.lines,
    }
}

/// The progress bar of `okapi solve` on a terminal, for `positions` positions.
fn progress_bar(feedback: Feedback, positions: usize) -> Option<ProgressBar> {
    if feedback != Feedback::Progress || !io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(positions as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} {msg}")
            .expect("a valid progress template"),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

impl RunStats {
    /// Counts a solved position (of input line `line`).
    fn add(&mut self, solved: &ScriptSolution, line: usize) {
        self.positions += 1;
        self.nodes += solved.solution.nodes;
        if self
            .largest
            .is_none_or(|(t, _)| solved.solution.elapsed > t)
        {
            self.largest = Some((solved.solution.elapsed, line));
        }
    }
}

/// Writes a run's output lines in input order as the positions are solved.
struct LineWriter<'a> {
    out: Output<'a>,
    /// The output, for messages.
    out_name: PathBuf,
    /// The script, for messages.
    input: &'a Path,
    lines: &'a [NumberedLine],
    /// The lines this run writes ([`owned_lines`]).
    owned: &'a [bool],
    /// The lines before this one are written.
    written: usize,
    /// Bad lines are reported above the progress bar.
    bar: Option<ProgressBar>,
    with_lines: bool,
    /// Each line is a shard output record.
    sharded: bool,
}

impl LineWriter<'_> {
    /// Writes one line (with its line end).
    fn write(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        self.out.write_line(bytes).map_err(|e| {
            anyhow::Error::new(e).context(format!("cannot write to {}", self.out_name.display()))
        })
    }

    /// Writes the lines before `upto` not written yet: comments, bad lines (reported on
    /// standard error and counted) and blank lines; with `solved`, line `upto` is its
    /// position, solved, and is written too (positions come in order).
    fn write_upto(
        &mut self,
        upto: usize,
        solved: Option<&ScriptSolution>,
        stats: &mut RunStats,
    ) -> anyhow::Result<()> {
        let end = if solved.is_some() { upto + 1 } else { upto };
        let lines = self.lines;
        for (i, line) in lines.iter().enumerate().take(end).skip(self.written) {
            if !self.owned[i] {
                continue;
            }
            let result = match &line.parsed {
                Err(BadLine { error, .. }) => {
                    stats.errors += 1;
                    let msg = format!("{}:{}: {error}", self.input.display(), line.number);
                    match &self.bar {
                        Some(bar) => bar.suspend(|| errln!("{msg}")),
                        None => errln!("{msg}"),
                    }
                    None
                }
                Ok(ScriptLine::Position { .. }) => {
                    let solved = solved
                        .filter(|_| i == upto)
                        .expect("positions come in order");
                    Some(solved.script_result(self.with_lines))
                }
                Ok(_) => None,
            };
            // Comments and the end marker are copied with their bytes as in the input,
            // whatever the encoding; blank lines give nothing.
            let Some(bytes) = script::output_line(line, result) else {
                continue;
            };
            let bytes = if self.sharded {
                script_shards::record(line.number, &bytes)
            } else {
                // Results for people and their tools: scrZebra's line end on the
                // platform (CRLF on Windows).
                [&bytes[..], okapi_core::formats::LINE_END.as_bytes()].concat()
            };
            self.write(&bytes)?;
        }
        self.written = end;
        Ok(())
    }
}

/// Where a run's lines go. Each line is written whole and flushed. A file is written
/// beside its place and takes it when the run is done ([`AtomicFile`]): a run killed
/// half-way, or failing on a full disk, leaves the previous result whole (a rerun of a
/// long script cut it at the first line, as scrZebra does). What an interrupted run
/// solved is in the temporary file `.OUT.PID.tmp`. An output that is no regular file (a
/// device, a FIFO: `-o /dev/stdout`) is written in place ([`AtomicFile`] does both).
enum Output<'a> {
    File {
        file: AtomicFile,
        /// Bytes of the whole lines written.
        whole: u64,
    },
    Stdout(io::StdoutLock<'a>),
}

impl Output<'_> {
    /// A new file to take the place of `path`, a device, or standard output.
    fn open(path: Option<&Path>) -> anyhow::Result<Self> {
        let cannot = |path: &Path| format!("cannot create the output file {}", path.display());
        Ok(match path {
            Some(path) => {
                let file = AtomicFile::create(path).with_context(|| cannot(path))?;
                #[cfg(unix)]
                if file.temporary_path() != path {
                    stopped::keep_partial(file.temporary_path(), path);
                }
                Output::File { file, whole: 0 }
            }
            None => Output::Stdout(io::stdout().lock()),
        })
    }

    /// Writes one line (with its line end) and flushes it.
    fn write_line(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Output::File { file, whole } => {
                match file.write_all(bytes).and_then(|_| file.flush()) {
                    Ok(()) => {
                        *whole += bytes.len() as u64;
                        Ok(())
                    }
                    Err(e) => {
                        // Drop the part of the line that got through (a device cannot be
                        // cut back); the error is reported either way.
                        let _ = file.file().set_len(*whole);
                        Err(e)
                    }
                }
            }
            Output::Stdout(out) => out.write_all(bytes).and_then(|_| out.flush()),
        }
    }

    /// The run is done: a file takes its place.
    fn finish(self) -> io::Result<()> {
        match self {
            Output::File { file, .. } => {
                #[cfg(unix)]
                stopped::done();
                file.commit()
            }
            Output::Stdout(_) => Ok(()),
        }
    }
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

/// A run stopped by a signal (SIGTERM from a job scheduler, Ctrl+C, a closed terminal)
/// left its temporary file `.OUT.PID.tmp` behind, named for a process that is gone. Its
/// lines are moved to `OUT.partial` instead (one name: the next stopped run replaces it)
/// and the run says so; `OUT` stays as it was. Only a SIGKILL, which no program sees,
/// leaves the temporary file.
#[cfg(unix)]
mod stopped {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

    static TEMPORARY: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());
    static PARTIAL: AtomicPtr<libc::c_char> = AtomicPtr::new(std::ptr::null_mut());
    static MESSAGE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
    static MESSAGE_LEN: AtomicUsize = AtomicUsize::new(0);

    /// On a stopping signal, `temporary` becomes `OUT.partial` beside `out`.
    pub fn keep_partial(temporary: &Path, out: &Path) {
        let mut partial = out.as_os_str().to_owned();
        partial.push(".partial");
        let message = format!(
            "okapi: stopped; {} is as it was, the lines solved are in {}\n",
            out.display(),
            Path::new(&partial).display()
        );
        let (Ok(temporary), Ok(partial)) = (
            CString::new(temporary.as_os_str().as_bytes()),
            CString::new(partial.as_bytes()),
        ) else {
            return;
        };
        // Leaked on purpose: the handler may read them at any moment of the run.
        let message = Box::leak(message.into_bytes().into_boxed_slice());
        MESSAGE_LEN.store(message.len(), Ordering::SeqCst);
        MESSAGE.store(message.as_mut_ptr(), Ordering::SeqCst);
        PARTIAL.store(partial.into_raw(), Ordering::SeqCst);
        TEMPORARY.store(temporary.into_raw(), Ordering::SeqCst);
        for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
            // SAFETY: the handler only calls async-signal-safe functions (rename, write,
            // signal, raise) on data set before it was installed.
            unsafe {
                libc::signal(signal, on_signal as *const () as libc::sighandler_t);
            }
        }
    }

    /// The run is done: its file takes its place, nothing to move on a signal.
    pub fn done() {
        TEMPORARY.store(std::ptr::null_mut(), Ordering::SeqCst);
    }

    extern "C" fn on_signal(signal: libc::c_int) {
        let temporary = TEMPORARY.swap(std::ptr::null_mut(), Ordering::SeqCst);
        // SAFETY: pointers set by `keep_partial` and never freed; only async-signal-safe
        // calls.
        unsafe {
            if !temporary.is_null() && libc::rename(temporary, PARTIAL.load(Ordering::SeqCst)) == 0
            {
                let message = MESSAGE.load(Ordering::SeqCst);
                libc::write(2, message.cast(), MESSAGE_LEN.load(Ordering::SeqCst));
            }
            // Ends as the signal would have ended it (the status says which).
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
}
