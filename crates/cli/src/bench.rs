//! `okapi bench`: solves test positions with known answers one by one (on all cores by
//! default, or `--threads N`) and reports, per position, the answer, whether it is right,
//! time, nodes and nodes/s; then the totals, the median time, the CPU time and, with
//! several threads, each thread's share of the nodes.
//!
//! Positions come from the FFO script files (the expected answer in the comment:
//! `ffo#NN best:G8,A5 score:+18`) or from an OBF file (every move's score listed).

use super::units::{fmt_duration, fmt_rate};
use anyhow::{Context, bail};
use okapi_core::board::Move;
use okapi_core::formats::test_positions;
pub use okapi_core::formats::test_positions::TestPosition;
use okapi_core::search::{EndgameSolver, SolveMode};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Reads test positions from a script (`.scr`, numbers and answers from FFO comments) or
/// an OBF file (`.obf`): okapi-core's reader, its errors as the command's.
pub fn load(path: &Path) -> anyhow::Result<Vec<TestPosition>> {
    Ok(test_positions::read(path)?)
}

/// The directory of the FFO files: `tests/data` under the working directory, else the
/// one of the source tree the binary was built from.
pub fn data_dir() -> PathBuf {
    let local = PathBuf::from("tests/data");
    if local.join("ffo40-59.scr").exists() {
        local
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data")
    }
}

/// FFO positions `from..=to` from the three FFO script files.
pub fn load_ffo(from: u32, to: u32) -> anyhow::Result<Vec<TestPosition>> {
    let dir = data_dir();
    let mut all = Vec::new();
    for name in ["ffo1-39.scr", "ffo40-59.scr", "ffo60-79.scr"] {
        all.extend(load(&dir.join(name))?);
    }
    Ok(all
        .into_iter()
        .filter(|p| (from..=to).contains(&p.number))
        .collect())
}

/// One bench result.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub number: u32,
    pub empties: u32,
    pub best_move: Option<Move>,
    pub score: i32,
    pub expected: Option<i32>,
    /// `None` when the answer is not known.
    pub right: Option<bool>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Nodes of each thread (empty on one thread).
    pub thread_nodes: Vec<u64>,
}

/// Solves each position with a fresh table (so every row is reproducible on its own),
/// printing a row as each is done and the totals at the end. Returns the rows.
///
/// With `runs` > 1, each position is solved that many times and its row shows the median
/// time (the answer must be the same every time, and on one thread the node count too,
/// since the table is cleared before each solve). The solver orders its moves with
/// `evaluator` (`None`: by mobility and corners alone, no selective passes: `--plain`).
/// `threads` is the number of threads each solve uses.
pub fn run(
    positions: &[TestPosition],
    hash_bits: u32,
    runs: u32,
    evaluator: Option<std::sync::Arc<okapi_core::eval::Evaluator>>,
    threads: usize,
) -> anyhow::Result<Vec<BenchRow>> {
    outln!(
        "{:>4} {:>7} {:>5} {:>6} {:>14} {:>10} {:>14} {:>16}",
        "#",
        "empties",
        "move",
        "score",
        "expected",
        "time",
        "nodes",
        "speed"
    );
    // Loaded before the clock starts (by the caller).
    let mut solver = EndgameSolver::new(hash_bits, evaluator);
    solver.set_threads(threads);
    let cpu_before = cpu_time();
    let mut rows = Vec::new();
    for p in positions {
        let mut times = Vec::new();
        let mut sol = None;
        let mut thread_nodes = Vec::new();
        for _ in 0..runs.max(1) {
            solver.table().clear();
            let s = solver
                .solve(p.position.board(), SolveMode::Exact, false)
                .context("the solver was stopped")?;
            times.push(s.elapsed);
            if let Some(first) = &sol {
                let first: &okapi_core::search::Solution = first;
                // Several threads share out the work differently every run.
                let same_nodes = threads > 1 || first.nodes == s.nodes;
                if first.score != s.score || !same_nodes {
                    bail!(
                        "#{}: a repeated solve gave a different score or node count",
                        p.number
                    );
                }
            }
            thread_nodes = solver.thread_nodes().to_vec();
            sol = Some(s);
        }
        let sol = sol.expect("at least one run");
        let right = p.expected_score.map(|e| {
            e == sol.score
                && (p.best_moves.is_empty()
                    || sol.best_move.is_some_and(|m| p.best_moves.contains(&m)))
        });
        let row = BenchRow {
            number: p.number,
            empties: p.position.empty_count(),
            best_move: sol.best_move,
            score: sol.score,
            expected: p.expected_score,
            right,
            nodes: sol.nodes,
            elapsed: median(&mut times),
            thread_nodes,
        };
        let expected = match (row.expected, row.right) {
            (Some(e), Some(true)) => format!("{e:+} OK"),
            (Some(e), _) => format!("{e:+} WRONG"),
            (None, _) => "?".to_string(),
        };
        let mv = row.best_move.map_or("-".to_string(), |m| m.to_string());
        outln!(
            "{:>4} {:>7} {:>5} {:>+6} {:>14} {:>10} {:>14} {:>16}",
            row.number,
            row.empties,
            mv,
            row.score,
            expected,
            fmt_duration(row.elapsed),
            row.nodes,
            fmt_rate(row.nodes, row.elapsed)
        );
        rows.push(row);
        // Its reader is gone (`okapi bench | head`): the rows are the only output.
        anyhow::ensure!(
            !crate::stdout_closed(),
            "standard output is closed; stopped after #{}",
            p.number
        );
    }
    if let (Some(before), Some(after)) = (cpu_before, cpu_time()) {
        let wall: Duration = rows.iter().map(|r| r.elapsed).sum::<Duration>() * runs.max(1);
        outln!("{}", cpu_line(after.saturating_sub(before), wall, threads));
    }
    if let Some(line) = thread_shares(&rows) {
        outln!("{line}");
    }
    // The totals last: scripts read the node total from the last line.
    outln!("{}", totals(&rows));
    Ok(rows)
}

/// CPU time of the solves against their wall time: how many cores they kept busy.
fn cpu_line(cpu: Duration, wall: Duration, threads: usize) -> String {
    let busy = cpu.as_secs_f64() / wall.as_secs_f64().max(1e-9);
    format!(
        "{threads} thread{}: cpu time {} for {} of solving ({busy:.2} cores busy)",
        if threads == 1 { "" } else { "s" },
        fmt_duration(cpu),
        fmt_duration(wall)
    )
}

/// Each thread's share of the nodes, over the positions solved on several threads.
pub fn thread_shares(rows: &[BenchRow]) -> Option<String> {
    let width = rows.iter().map(|r| r.thread_nodes.len()).max()?;
    if width < 2 {
        return None;
    }
    let mut sums = vec![0u64; width];
    for r in rows {
        for (sum, n) in sums.iter_mut().zip(&r.thread_nodes) {
            *sum += n;
        }
    }
    let total: u64 = sums.iter().sum();
    let shares: Vec<String> = sums
        .iter()
        .map(|&n| format!("{n} ({:.0}%)", 100.0 * n as f64 / total.max(1) as f64))
        .collect();
    Some(format!("nodes per thread: {}", shares.join(", ")))
}

/// CPU time of this process so far (all threads), where the system tells it.
fn cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        // SAFETY: getrusage fills the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
            return None;
        }
        let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        Some(Duration::from_micros(
            micros(usage.ru_utime) + micros(usage.ru_stime),
        ))
    }
    #[cfg(not(unix))]
    None
}

/// Totals: positions, right and wrong, total time, median time, nodes, nodes/s.
pub fn totals(rows: &[BenchRow]) -> String {
    let time: Duration = rows.iter().map(|r| r.elapsed).sum();
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let right = rows.iter().filter(|r| r.right == Some(true)).count();
    let wrong = rows.iter().filter(|r| r.right == Some(false)).count();
    let mut times: Vec<Duration> = rows.iter().map(|r| r.elapsed).collect();
    let median = median(&mut times);
    format!(
        "{} positions: {right} right, {wrong} wrong{}\ntotal time {}, median {}, nodes {nodes}, {}",
        rows.len(),
        if right + wrong < rows.len() {
            format!(", {} unknown", rows.len() - right - wrong)
        } else {
            String::new()
        },
        fmt_duration(time),
        fmt_duration(median),
        fmt_rate(nodes, time)
    )
}

/// The median of some durations (zero for none).
fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    match times.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_even_and_odd() {
        let row = |ms: u64| BenchRow {
            number: 1,
            empties: 1,
            best_move: None,
            score: 0,
            expected: Some(0),
            right: Some(true),
            nodes: 1000,
            elapsed: Duration::from_millis(ms),
            thread_nodes: vec![],
        };
        assert!(totals(&[row(1), row(3), row(100)]).contains("median 0.003 s"));
        assert!(totals(&[row(1), row(3)]).contains("median 0.002 s"));
    }

    #[test]
    fn ffo_files_load_with_answers() {
        let ps = load_ffo(1, 79).unwrap();
        assert_eq!(ps.len(), 79);
        assert!(
            ps.iter()
                .enumerate()
                .all(|(i, p)| p.number == i as u32 + 1 && p.expected_score.is_some())
        );
        let obf = load(&data_dir().join("fforum-40-59.obf")).unwrap();
        assert_eq!(obf.len(), 20);
        assert_eq!(obf[0].number, 40);
        assert_eq!(obf[0].expected_score, Some(38));
    }
}
