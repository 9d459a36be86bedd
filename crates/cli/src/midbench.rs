//! `okapi bench --midgame`: speed of the midgame search (nodes, nodes/s and time to
//! each depth) on a fixed set of middle-game positions.

use okapi_core::board::Position;
use okapi_core::eval::Evaluator;
use okapi_core::search::{Limits, MidgameSearch, SCALE};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Positions of a script file (comments and blank lines skipped).
pub fn load_positions(path: &Path) -> anyhow::Result<Vec<Position>> {
    let bytes = okapi_core::formats::read_capped(path, okapi_core::formats::MAX_SCRIPT_FILE)?;
    let text = String::from_utf8(bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let body = line.split('%').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        out.push(
            Position::parse(body)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), i + 1))?,
        );
    }
    Ok(out)
}

/// For each position and each of `depths`, a fresh iterative-deepening search to that
/// depth: its value, best move, time, nodes and nodes/s; then the median per depth. Each
/// search uses `threads` (several: lazy SMP, nodes of all threads counted).
pub fn run(
    path: &Path,
    eval: std::sync::Arc<Evaluator>,
    depths: &[u32],
    selectivity: usize,
    hash_bits: u32,
    threads: usize,
) -> anyhow::Result<()> {
    // A depth-0 search has no move to give: it reported "the search was stopped".
    if let Some(d) = depths.iter().find(|&&d| !(1..=60).contains(&d)) {
        anyhow::bail!("--depths: a midgame depth is 1 to 60 plies, not {d}");
    }
    anyhow::ensure!(!depths.is_empty(), "--depths: no depth given");
    let positions = load_positions(path)?;
    let conf = okapi_core::search::probcut::LEVELS
        .get(selectivity)
        .map_or(100, |l| l.1);
    outln!(
        "midgame search on {} positions of {}, selectivity {conf}%, hash 2^{hash_bits} entries, {threads} thread{}",
        positions.len(),
        path.display(),
        if threads == 1 { "" } else { "s" }
    );
    outln!(
        "{:>3} {:>8} {:>8} {:>5} {:>10} {:>14} {:>10}",
        "#",
        "depth",
        "value",
        "move",
        "time (s)",
        "nodes",
        "Mnodes/s"
    );
    let mut per_depth: Vec<Vec<(Duration, u64)>> = vec![Vec::new(); depths.len()];
    for (i, pos) in positions.iter().enumerate() {
        for (k, &depth) in depths.iter().enumerate() {
            let mut search = MidgameSearch::new(&eval, hash_bits, Arc::new(AtomicBool::new(false)));
            search.set_selectivity(selectivity);
            search.set_threads(threads);
            let r = search.best_move(pos.board(), Limits::depth(depth), |_| {})?;
            let nodes = search.nodes();
            per_depth[k].push((r.elapsed, nodes));
            outln!(
                "{:>3} {:>8} {:>+8.2} {:>5} {:>10.3} {:>14} {:>10.2}",
                i + 1,
                format!("{depth}@{conf}%"),
                r.best.value as f64 / SCALE as f64,
                r.best.mv.to_string(),
                r.elapsed.as_secs_f64(),
                nodes,
                nodes as f64 / r.elapsed.as_secs_f64().max(1e-9) / 1e6
            );
            anyhow::ensure!(
                !crate::stdout_closed(),
                "standard output is closed; stopped after position {}",
                i + 1
            );
        }
    }
    for (k, d) in depths.iter().enumerate() {
        let mut rows = per_depth[k].clone();
        rows.sort();
        let (t, _) = rows[rows.len() / 2];
        let nodes: u64 = rows.iter().map(|r| r.1).sum();
        let time: f64 = rows.iter().map(|r| r.0.as_secs_f64()).sum();
        outln!(
            "depth {d}@{conf}%: median time {:.3} s, total {:.3} s, {} nodes, {:.2} M nodes/s",
            t.as_secs_f64(),
            time,
            nodes,
            nodes as f64 / time.max(1e-9) / 1e6
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_zero_is_refused_before_anything_runs() {
        let err = run(
            Path::new("no such file"),
            Evaluator::shipped(),
            &[12, 0],
            2,
            10,
            1,
        )
        .unwrap_err();
        assert!(err.to_string().contains("not 0"), "{err}");
        let err = run(
            Path::new("no such file"),
            Evaluator::shipped(),
            &[61],
            2,
            10,
            1,
        )
        .unwrap_err();
        assert!(err.to_string().contains("not 61"), "{err}");
    }
}
