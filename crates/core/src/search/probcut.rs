//! Multi-ProbCut (Buro): a shallow search predicts a deep one; when the prediction is
//! far enough outside the window, the deep search is skipped.
//!
//! The error of the prediction is modelled as normal with a standard deviation that grows
//! with the empties and the depths: `sigma = k + a * empties + b * shallow + c * deep` (in
//! discs), fitted on Okapi's own searches by `okapi train probcut` (`train::probcut_fit`). A
//! selectivity level sets how many sigmas the prediction must clear, and so how sure the
//! cut is: the confidence shown to users as `depth@confidence`.

use crate::eval::SCALE;

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

/// The model of a shallow search's error: `sigma = k + a * empties + b * shallow + c * deep`
/// discs (see the module doc), fitted by `okapi train probcut`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProbCutModel {
    /// The constant term, in discs.
    pub k: f64,
    /// Discs per empty square.
    pub a: f64,
    /// Discs per ply of the shallow search.
    pub b: f64,
    /// Discs per ply of the deep search.
    pub c: f64,
}

impl Default for ProbCutModel {
    /// The model shipped in `coeffs/probcut.json`.
    fn default() -> Self {
        serde_json::from_str(include_str!("../../../../coeffs/probcut.json"))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_model_loads() {
        let m = ProbCutModel::default();
        assert!(m.sigma(30, 2, 6) > 0);
    }
}
