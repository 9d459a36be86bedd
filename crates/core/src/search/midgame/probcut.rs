//! Multi-ProbCut in the midgame search: a shallow search predicts whether a deep one
//! fails high or low, by the error model of [`crate::search::probcut`].

use super::state::{INF, MidgameSearch};
use crate::board::Board;
use crate::board::cpu::Cpu;
use crate::eval::Evaluate;
use crate::search::probcut;

impl<E: Evaluate + Clone> MidgameSearch<E> {
    /// Tries to predict a fail-high or fail-low of a `depth` search by a shallow one:
    /// `search(self, b, depth, alpha, beta)`, the principal variation search (handed in,
    /// so that ProbCut and the search that calls it need not name each other).
    #[inline(always)]
    pub(super) fn probcut<K: Cpu>(
        &mut self,
        cpu: K,
        b: Board,
        depth: u32,
        alpha: i32,
        beta: i32,
        mut search: impl FnMut(&mut Self, Board, u32, i32, i32) -> i32,
    ) -> Option<i32> {
        let shallow = probcut::shallow_depth(depth);
        let sigma = self.probcut.sigma(b.empty_count(), shallow, depth);
        let margin = (probcut::LEVELS[self.selectivity].0 * sigma as f64) as i32;
        // The static value gates each test: a cut is unlikely on the far side of it, and
        // a failed test is pure cost.
        let static_value = self.static_value(cpu, &b);
        let high = beta + margin;
        if high < INF && static_value >= beta {
            let v = if shallow == 0 {
                static_value
            } else {
                search(self, b, shallow, high - 1, high)
            };
            if self.stopped {
                return Some(0);
            }
            if v >= high {
                return Some(beta);
            }
        }
        let low = alpha - margin;
        if low > -INF && static_value <= alpha {
            let v = if shallow == 0 {
                static_value
            } else {
                search(self, b, shallow, low, low + 1)
            };
            if self.stopped {
                return Some(0);
            }
            if v <= low {
                return Some(alpha);
            }
        }
        None
    }
}
