//! Multi-ProbCut (Buro): a shallow search predicts a deep one; when the prediction is
//! far enough outside the window, the deep search is skipped.
//!
//! The error of the prediction is modelled as normal with a standard deviation that grows
//! with the empties and the depths: `sigma = k + a * empties + b * shallow + c * deep` (in
//! discs), fitted by [`fit`] on Okapi's own searches (`okapi train probcut`). A
//! selectivity level sets how many sigmas the prediction must clear, and so how sure the
//! cut is: the confidence shown to users as `depth@confidence`.

use super::midgame::{Evaluate, Limits, MidgameSearch, SCALE};
use crate::board::Board;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Selectivity levels: (sigmas the prediction must clear, confidence in percent).
pub const LEVELS: [(f64, u32); 5] = [(1.1, 73), (1.5, 87), (2.0, 95), (2.6, 99), (3.3, 100)];
/// No ProbCut at all.
pub const NO_CUT: usize = LEVELS.len();

/// Depth of the shallow search that predicts a search of `depth`.
#[inline]
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// The smallest depth at which ProbCut is tried.
pub const MIN_DEPTH: u32 = 3;

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProbCutModel {
    pub k: f64,
    pub a: f64,
    pub b: f64,
    pub c: f64,
}

impl Default for ProbCutModel {
    /// The model shipped in `coeffs/probcut.json`.
    fn default() -> Self {
        serde_json::from_str(include_str!("../../coeffs/probcut.json"))
            .expect("coeffs/probcut.json is valid")
    }
}

impl ProbCutModel {
    /// Standard deviation, in evaluation units, of (shallow value - deep value).
    #[inline]
    pub fn sigma(&self, empties: u32, shallow: u32, deep: u32) -> i32 {
        let s = self.k + self.a * empties as f64 + self.b * shallow as f64 + self.c * deep as f64;
        (s.max(0.5) * SCALE as f64) as i32
    }
}

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
pub fn collect<E: Evaluate + ?Sized>(
    eval: &E,
    positions: &[Board],
    depths: std::ops::RangeInclusive<u32>,
    mut progress: impl FnMut(usize),
) -> Vec<Sample> {
    let mut out = Vec::new();
    for (i, &b) in positions.iter().enumerate() {
        let n = b.empty_count();
        let mut search = MidgameSearch::new(eval, 20, Arc::new(AtomicBool::new(false)));
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

/// `okapi train probcut`: fits the ProbCut model on the shipped evaluation.
#[derive(clap::Args, Debug, Clone)]
pub struct ProbCutArgs {
    /// WTHOR game files to draw positions from.
    #[arg(long, num_args = 1.., default_values = ["../shared/data/wthor/WTH_2016.wtb"])]
    pub games: Vec<std::path::PathBuf>,
    /// Number of positions to search.
    #[arg(long, default_value_t = 300)]
    pub positions: usize,
    /// Deepest search measured (each position is searched at 3..=this depth).
    #[arg(long, default_value_t = 10)]
    pub max_depth: u32,
    /// Fewest and most empties of the positions drawn.
    #[arg(long, default_value_t = 16)]
    pub min_empties: u32,
    #[arg(long, default_value_t = 50)]
    pub max_empties: u32,
    /// Evaluation weights (default: the shipped coeffs/okapi-eval.bin).
    #[arg(long)]
    pub weights: Option<std::path::PathBuf>,
    /// Where to write the model.
    #[arg(long, default_value = "coeffs/probcut.json")]
    pub out: std::path::PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs `okapi train probcut`.
pub fn run(args: &ProbCutArgs) -> anyhow::Result<()> {
    use anyhow::Context;
    let eval = match &args.weights {
        Some(p) => {
            crate::eval::Evaluator::load(p).with_context(|| format!("loading {}", p.display()))?
        }
        None => crate::eval::Evaluator::embedded(),
    };
    let mut pool = Vec::new();
    for path in &args.games {
        let (_, set) = crate::formats::records::wthor::read_file(path)
            .with_context(|| format!("reading {}", path.display()))?;
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
    // A reproducible draw without replacement.
    let mut state = args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut positions = Vec::with_capacity(args.positions);
    for _ in 0..args.positions.min(pool.len()) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let i = (state % pool.len() as u64) as usize;
        positions.push(pool.swap_remove(i));
    }
    let bar = indicatif::ProgressBar::new(positions.len() as u64);
    let samples = collect(&eval, &positions, MIN_DEPTH..=args.max_depth, |i| {
        bar.set_position(i as u64)
    });
    bar.finish_and_clear();
    let model = fit(&samples);
    println!(
        "{} samples from {} positions",
        samples.len(),
        positions.len()
    );
    println!(
        "model: sigma = {:.3} + {:.4} * empties + {:.3} * shallow + {:.3} * deep (discs)",
        model.k, model.a, model.b, model.c
    );
    println!("{:>7} {:>6} {:>6}", "empties", "depth", "sigma");
    for n in [20, 30, 40, 50] {
        for d in [4, 8, 12, 16] {
            println!(
                "{n:>7} {d:>6} {:>6.2}",
                model.sigma(n, shallow_depth(d), d) as f64 / SCALE as f64
            );
        }
    }
    let text = serde_json::to_string_pretty(&model)? + "\n";
    let tmp = args.out.with_extension("json.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &args.out)
        .with_context(|| format!("renaming to {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_known_spread() {
        // Errors drawn with sd = 1 + 0.05 n + 0.1 deep (a deterministic "normal" sample).
        let mut samples = vec![];
        let mut seed = 1u64;
        for n in (20..50).step_by(4) {
            for deep in 3..9 {
                let sd = 1.0 + 0.05 * n as f64 + 0.1 * deep as f64;
                for _ in 0..400 {
                    // sum of 12 uniforms - 6 ~ N(0,1)
                    let mut z = -6.0;
                    for _ in 0..12 {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        z += (seed >> 11) as f64 / (1u64 << 53) as f64;
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

    #[test]
    fn shipped_model_loads() {
        let m = ProbCutModel::default();
        assert!(m.sigma(30, 2, 6) > 0);
    }
}
