//! Fits the Multi-ProbCut error model (`coeffs/probcut.json`, [`ProbCutModel`]) on
//! Okapi's own searches: what `okapi train probcut` runs (its options, progress bar and
//! printing are in `cli::train`). Positions are drawn from WTHOR games, searched at a
//! shallow and a deep depth without ProbCut, and the spread of the differences is
//! regressed on the empties and the two depths.

use anyhow::Context;
use okapi_core::board::Board;
use okapi_core::board::random::XorShift64;
use okapi_core::eval::Evaluator;
use okapi_core::formats::records::wthor;
use okapi_core::search::probcut::{MIN_DEPTH, NO_CUT, ProbCutModel, shallow_depth};
use okapi_core::search::{DEFAULT_HASH_BITS, Evaluate, Limits, MidgameSearch, SCALE};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// One observation: a position searched at a shallow and a deep depth.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub empties: u32,
    pub shallow: u32,
    pub deep: u32,
    /// (shallow value - deep value), in discs.
    pub error: f64,
}

/// Searches each position at every deep depth in `depths` and at its shallow depth,
/// without ProbCut, and records the differences.
pub fn collect<E: Evaluate + Clone>(
    eval: &E,
    positions: &[Board],
    depths: std::ops::RangeInclusive<u32>,
    mut progress: impl FnMut(usize),
) -> Vec<Sample> {
    let mut out = Vec::new();
    for (i, &b) in positions.iter().enumerate() {
        let n = b.empty_count();
        let mut search =
            MidgameSearch::new(eval, DEFAULT_HASH_BITS, Arc::new(AtomicBool::new(false)));
        search.set_selectivity(NO_CUT);
        for deep in depths.clone() {
            if deep >= n || deep < MIN_DEPTH {
                continue;
            }
            let shallow = shallow_depth(deep);
            let (Ok(d), Ok(s)) = (
                search.value(b, Limits::depth(deep)),
                search.value(b, Limits::depth(shallow)),
            ) else {
                continue;
            };
            out.push(Sample {
                empties: n,
                shallow,
                deep,
                error: (s - d) as f64 / SCALE as f64,
            });
        }
        progress(i + 1);
    }
    out
}

/// Fits the sigma model: the spread of the errors in each (empties band, shallow, deep)
/// cell, regressed linearly on the three, weighted by the cell sizes.
pub fn fit(samples: &[Sample]) -> ProbCutModel {
    use std::collections::BTreeMap;
    let mut cells: BTreeMap<(u32, u32, u32), Vec<f64>> = BTreeMap::new();
    for s in samples {
        cells
            .entry((s.empties / 4 * 4 + 2, s.shallow, s.deep))
            .or_default()
            .push(s.error);
    }
    // Weighted least squares on [1, n, shallow, deep] -> sd.
    let mut ata = [[0f64; 4]; 4];
    let mut atb = [0f64; 4];
    for (&(n, sh, dp), errs) in &cells {
        if errs.len() < 8 {
            continue;
        }
        let mean = errs.iter().sum::<f64>() / errs.len() as f64;
        let var =
            errs.iter().map(|e| (e - mean) * (e - mean)).sum::<f64>() / (errs.len() - 1) as f64;
        let sd = var.sqrt();
        let x = [1.0, n as f64, sh as f64, dp as f64];
        let w = errs.len() as f64;
        for i in 0..4 {
            for j in 0..4 {
                ata[i][j] += w * x[i] * x[j];
            }
            atb[i] += w * x[i] * sd;
        }
    }
    // Small ridge so an unvaried column (e.g. one empties band) does not make it singular.
    for (i, row) in ata.iter_mut().enumerate() {
        row[i] += 1e-6;
    }
    let x = solve4(ata, atb);
    ProbCutModel {
        k: x[0],
        a: x[1],
        b: x[2],
        c: x[3],
    }
}

/// Gaussian elimination with partial pivoting for the 4x4 normal equations.
fn solve4(mut m: [[f64; 4]; 4], mut v: [f64; 4]) -> [f64; 4] {
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))
            .unwrap();
        m.swap(col, pivot);
        v.swap(col, pivot);
        for row in col + 1..4 {
            let f = m[row][col] / m[col][col];
            for k in col..4 {
                m[row][k] -= f * m[col][k];
            }
            v[row] -= f * v[col];
        }
    }
    let mut x = [0f64; 4];
    for row in (0..4).rev() {
        let s: f64 = (row + 1..4).map(|k| m[row][k] * x[k]).sum();
        x[row] = (v[row] - s) / m[row][row];
    }
    x
}

/// The settings of a fit (`okapi train probcut` documents each and holds the defaults).
#[derive(Debug, Clone)]
pub struct ProbCutFitOptions {
    /// WTHOR game files to draw positions from.
    pub games: Vec<PathBuf>,
    /// Number of positions to search.
    pub positions: usize,
    /// Deepest search measured (each position is searched at 3..=this depth).
    pub max_depth: u32,
    /// Fewest and most empties of the positions drawn.
    pub min_empties: u32,
    pub max_empties: u32,
    /// Evaluation weights (default: the shipped ones).
    pub weights: Option<PathBuf>,
    /// Seed of the draw of positions.
    pub seed: u64,
}

/// What a fit produced.
#[derive(Debug, Clone)]
pub struct ProbCutFit {
    pub model: ProbCutModel,
    /// Observations the model was fitted on.
    pub samples: usize,
    /// Positions searched.
    pub positions: usize,
}

/// Draws the positions, searches them and fits the model. `progress(done, total)` is
/// called with 0 before the first position and after each one.
pub fn run(
    args: &ProbCutFitOptions,
    mut progress: impl FnMut(usize, usize),
) -> anyhow::Result<ProbCutFit> {
    let eval = match &args.weights {
        Some(p) => std::sync::Arc::new(
            Evaluator::load(p).with_context(|| format!("loading {}", p.display()))?,
        ),
        None => Evaluator::shipped(),
    };
    let mut pool = Vec::new();
    for path in &args.games {
        let (_, set) =
            wthor::read_file(path).with_context(|| format!("reading {}", path.display()))?;
        for g in &set.games {
            for p in g.positions() {
                let n = p.board.empty_count();
                if (args.min_empties..=args.max_empties).contains(&n) && p.board.moves() != 0 {
                    pool.push(p.board);
                }
            }
        }
    }
    anyhow::ensure!(!pool.is_empty(), "no positions in the given games");
    anyhow::ensure!(
        args.positions >= 1 && args.max_depth >= MIN_DEPTH,
        "nothing to fit: give at least one position and a depth of {MIN_DEPTH} or more"
    );
    // A reproducible draw without replacement.
    let mut rng = XorShift64::seeded(args.seed);
    // Never more than the pool holds (a capacity of `args.positions` aborted on a 64 GB
    // allocation for --positions 4294967295).
    let mut positions = Vec::with_capacity(args.positions.min(pool.len()));
    for _ in 0..args.positions.min(pool.len()) {
        let i = rng.below(pool.len() as u64) as usize;
        positions.push(pool.swap_remove(i));
    }
    let total = positions.len();
    progress(0, total);
    let samples = collect(&eval, &positions, MIN_DEPTH..=args.max_depth, |i| {
        progress(i, total)
    });
    // The model has four coefficients: fewer samples leave it undetermined (an all-zero
    // model was written for --positions 0).
    anyhow::ensure!(
        samples.len() >= 4,
        "only {} samples from {total} positions: too few to fit the model's 4 coefficients (give more positions or a deeper --max-depth)",
        samples.len()
    );
    Ok(ProbCutFit {
        model: fit(&samples),
        samples: samples.len(),
        positions: total,
    })
}

/// Writes the model as `coeffs/probcut.json` holds it (pretty JSON), atomically
/// ([`okapi_core::formats::write_atomic`]) so a failed write leaves the old model.
pub fn write_model(model: &ProbCutModel, out: &Path) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(model)? + "\n";
    okapi_core::formats::write_atomic(out, text.as_bytes())
        .with_context(|| format!("writing {}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Disc difference plus mobility: an evaluation whose errors the fit can model.
    use okapi_core::board::random::ongoing_positions as positions;
    use okapi_core::search::MobilityEval as TestEval;

    #[test]
    fn probcut_prunes_and_stays_close() {
        let mut full_nodes = 0;
        let mut cut_nodes = 0;
        let mut total_error = 0;
        // The model is fitted on this evaluation's own errors, as `okapi train probcut` does.
        let training = positions(77, 24, 36);
        let model = fit(&collect(&TestEval, &training, 3..=8, |_| {}));
        let boards = positions(31, 6, 36);
        for &b in &boards {
            let mut s = MidgameSearch::new(&TestEval, 18, Arc::new(AtomicBool::new(false)));
            let full = s.value(b, Limits::depth(9)).unwrap();
            full_nodes += s.nodes();
            let mut s = MidgameSearch::new(&TestEval, 18, Arc::new(AtomicBool::new(false)));
            s.set_selectivity(0);
            s.set_probcut_model(model);
            assert_eq!(s.confidence(), 73);
            let cut = s.value(b, Limits::depth(9)).unwrap();
            cut_nodes += s.nodes();
            total_error += (full - cut).abs();
        }
        assert!(cut_nodes < full_nodes, "{cut_nodes} >= {full_nodes}");
        // On average within a few discs of the full-width value.
        assert!(
            total_error / (boards.len() as i32) < 8 * SCALE,
            "{total_error}"
        );
    }

    #[test]
    fn fit_recovers_a_known_spread() {
        // Errors drawn with sd = 1 + 0.05 n + 0.1 deep (a deterministic "normal" sample).
        let mut samples = vec![];
        let mut rng = XorShift64::from_state(1);
        for n in (20..50).step_by(4) {
            for deep in 3..9 {
                let sd = 1.0 + 0.05 * n as f64 + 0.1 * deep as f64;
                for _ in 0..400 {
                    // sum of 12 uniforms - 6 ~ N(0,1)
                    let mut z = -6.0;
                    for _ in 0..12 {
                        z += rng.unit();
                    }
                    samples.push(Sample {
                        empties: n,
                        shallow: shallow_depth(deep),
                        deep,
                        error: z * sd,
                    });
                }
            }
        }
        let m = fit(&samples);
        for (n, deep) in [(22, 4), (38, 8), (46, 6)] {
            let want = 1.0 + 0.05 * (n / 4 * 4 + 2) as f64 + 0.1 * deep as f64;
            let got = m.sigma(n, shallow_depth(deep), deep) as f64 / SCALE as f64;
            assert!(
                (got - want).abs() < 0.15,
                "n {n} deep {deep}: {got} vs {want}"
            );
        }
    }
}
