//! A classic hand-crafted feature evaluation — mobility, potential mobility (frontier),
//! corners, X- and C-squares next to empty corners, stable discs, disc count, parity —
//! with linear weights per phase. Okapi does not play with it: it is the baseline the
//! pattern evaluation is measured against (`okapi train` fits both on the same data and
//! reports both errors).

use crate::board::stability::stable_discs;
use crate::board::{moves, potential_moves};

/// How many features [`features`] returns.
pub const NUM_FEATURES: usize = 9;
/// The features' names, in the order of [`features`], for reports.
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "bias",
    "mobility",
    "potential mobility",
    "corners",
    "X-squares",
    "C-squares",
    "stable discs",
    "discs",
    "parity",
];

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// X-squares (diagonally next to a corner) whose corner is empty.
fn x_squares(empty: u64) -> u64 {
    let mut x = 0;
    for (corner, xsq) in [(0, 9), (7, 14), (56, 49), (63, 54)] {
        if empty >> corner & 1 != 0 {
            x |= 1u64 << xsq;
        }
    }
    x
}

/// C-squares (next to a corner along an edge) whose corner is empty.
fn c_squares(empty: u64) -> u64 {
    let mut c = 0;
    for (corner, a, b) in [(0, 1, 8), (7, 6, 15), (56, 57, 48), (63, 62, 55)] {
        if empty >> corner & 1 != 0 {
            c |= (1u64 << a) | (1u64 << b);
        }
    }
    c
}

/// The feature vector of a position, each feature as (side to move) - (opponent).
pub fn features(p: u64, o: u64) -> [f64; NUM_FEATURES] {
    let empty = !(p | o);
    let diff = |a: u64, b: u64| a.count_ones() as f64 - b.count_ones() as f64;
    let x = x_squares(empty);
    let c = c_squares(empty);
    [
        1.0,
        diff(moves(p, o), moves(o, p)),
        // Empty squares next to the opponent's discs are the side to move's potential moves.
        diff(potential_moves(p, o), potential_moves(o, p)),
        diff(p & CORNERS, o & CORNERS),
        diff(p & x, o & x),
        diff(p & c, o & c),
        diff(stable_discs(p, o), stable_discs(o, p)),
        diff(p, o),
        (empty.count_ones() & 1) as f64,
    ]
}

/// Linear weights per phase (same phases as the pattern evaluation).
#[derive(Clone, Debug)]
pub struct FeatureEval {
    /// Empty squares per phase: the phase of a position is `empties / phase_width`.
    pub phase_width: u32,
    /// One weight vector per phase, phase 0 (fewest empties) first; the last serves every
    /// phase past it.
    pub weights: Vec<[f64; NUM_FEATURES]>,
}

impl FeatureEval {
    /// The value of the position (`p` to move, `o` the opponent), in discs from `p`'s view,
    /// clamped to ±64.
    pub fn evaluate(&self, p: u64, o: u64) -> f64 {
        let e = (!(p | o)).count_ones();
        let phase = ((e / self.phase_width) as usize).min(self.weights.len() - 1);
        let f = features(p, o);
        f.iter()
            .zip(&self.weights[phase])
            .map(|(a, b)| a * b)
            .sum::<f64>()
            .clamp(-64.0, 64.0)
    }
}

/// Least squares with a small ridge term: solves `(X'X + ridge I) w = X'y` given the
/// accumulated `X'X` and `X'y` (Gaussian elimination with partial pivoting).
pub fn solve_normal_equations(
    xtx: &[[f64; NUM_FEATURES]; NUM_FEATURES],
    xty: &[f64; NUM_FEATURES],
    ridge: f64,
) -> [f64; NUM_FEATURES] {
    const N: usize = NUM_FEATURES;
    let mut a = [[0.0; N + 1]; N];
    for i in 0..N {
        a[i][..N].copy_from_slice(&xtx[i]);
        a[i][i] += ridge;
        a[i][N] = xty[i];
    }
    for col in 0..N {
        let pivot = (col..N)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        if a[col][col].abs() < 1e-12 {
            continue;
        }
        for row in 0..N {
            if row != col {
                let factor = a[row][col] / a[col][col];
                for k in col..=N {
                    a[row][k] -= factor * a[col][k];
                }
            }
        }
    }
    let mut w = [0.0; N];
    for i in 0..N {
        if a[i][i].abs() >= 1e-12 {
            w[i] = a[i][N] / a[i][i];
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_of_the_start_position_are_balanced() {
        let b = crate::board::Board::START;
        let f = features(b.player, b.opponent);
        assert_eq!(f, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn normal_equations_recover_a_linear_model() {
        let truth = [1.0, 2.0, -1.0, 0.5, 0.0, 3.0, -2.0, 1.5, 0.25];
        let mut xtx = [[0.0; NUM_FEATURES]; NUM_FEATURES];
        let mut xty = [0.0; NUM_FEATURES];
        let mut s = 7u64;
        for _ in 0..500 {
            let mut x = [0.0; NUM_FEATURES];
            for v in x.iter_mut() {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *v = ((s >> 33) % 21) as f64 - 10.0;
            }
            let y: f64 = x.iter().zip(&truth).map(|(a, b)| a * b).sum();
            for i in 0..NUM_FEATURES {
                xty[i] += x[i] * y;
                for j in 0..NUM_FEATURES {
                    xtx[i][j] += x[i] * x[j];
                }
            }
        }
        let w = solve_normal_equations(&xtx, &xty, 0.0);
        for i in 0..NUM_FEATURES {
            assert!((w[i] - truth[i]).abs() < 1e-6, "{w:?}");
        }
    }
}
