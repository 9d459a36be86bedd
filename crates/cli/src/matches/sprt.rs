//! The sequential probability ratio test of `okapi match --sprt`: after each pair of games
//! (one opening, both colours), the generalized log-likelihood ratio (GSPRT) of "A − B is
//! `elo1`" against "A − B is `elo0`" (logistic Elo), stopping the match once it leaves
//! [ln(β/(1−α)), ln((1−β)/α)].
//!
//! The test is fishtest's: the results are counted as a multinomial over the unit's
//! possible scores (a pentanomial over the pair's 0, ½, 1, 1½, 2 points — pairs of games
//! with colours swapped are correlated, and counting them as pairs gives the true, smaller
//! variance — or a trinomial over loss, draw, win), empty classes count 10⁻³, and the
//! likelihood under each hypothesis is that of the distribution nearest the observed one
//! with the hypothesis' expected score (its maximum-likelihood estimate under that
//! constraint: p_i = p̂_i / (1 + x (a_i − s)), x the root of Σ p̂_i (a_i − s) / (1 + x (a_i − s))
//! = 0; M. Van den Bergh, "Support for the MLE of a multinomial under a linear constraint").

use super::elo::{Pentanomial, expected_score};
use std::fmt;

/// What a count of zero is taken as (fishtest's regularisation): it keeps every
/// likelihood finite before all outcomes have been seen.
const EMPTY_CLASS: f64 = 1e-3;

/// The distribution of largest likelihood for the observed frequencies `observed` (over the
/// scores `values`, ascending, at least two) whose mean is `mean`, strictly between the
/// first and last value.
fn constrained_mle(values: &[f64], observed: &[f64], mean: f64) -> Vec<f64> {
    let (first, last) = (values[0], values[values.len() - 1]);
    // g(x) = Σ p̂ (a − s) / (1 + x (a − s)) decreases on the interval where every
    // denominator is positive; its root there is the Lagrange multiplier.
    let g = |x: f64| -> f64 {
        values
            .iter()
            .zip(observed)
            .map(|(&a, &p)| p * (a - mean) / (1.0 + x * (a - mean)))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / (last - mean), 1.0 / (mean - first));
    // Bisection: 200 halvings reach the limit of f64 on any interval here.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    values
        .iter()
        .zip(observed)
        .map(|(&a, &p)| p / (1.0 + x * (a - mean)))
        .collect()
}

/// The GSPRT log-likelihood ratio of `elo1` against `elo0` for `counts`: how many units
/// scored each of the equally spaced scores from 0 to full (3 classes: loss, draw, win;
/// 5: a pair's 0, ½, 1, 1½, 2 points).
pub fn llr(counts: &[u64], elo0: f64, elo1: f64) -> f64 {
    let k = counts.len();
    assert!(k >= 2, "a result needs at least two classes");
    let regular: Vec<f64> = counts
        .iter()
        .map(|&c| (c as f64).max(EMPTY_CLASS))
        .collect();
    let n: f64 = regular.iter().sum();
    let observed: Vec<f64> = regular.iter().map(|c| c / n).collect();
    let values: Vec<f64> = (0..k).map(|i| i as f64 / (k - 1) as f64).collect();
    let p0 = constrained_mle(&values, &observed, expected_score(elo0));
    let p1 = constrained_mle(&values, &observed, expected_score(elo1));
    n * observed
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(&p, (&q0, &q1))| p * (q1 / q0).ln())
        .sum::<f64>()
}

/// Why an `--sprt` text was not read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtParseError {
    #[error(
        "--sprt takes ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (e.g. 0,10 or 0,10,0.05,0.05), not '{0}'"
    )]
    Shape(String),
    #[error("'{0}' in --sprt is not a number")]
    Number(String),
    #[error("--sprt needs ELO0 < ELO1, both finite (got {} and {})", figure(*.0), figure(*.1))]
    Order(f64, f64),
    #[error(
        "--sprt's error rates must lie strictly between 0 and 0.5 (got alpha {}, beta {})",
        figure(*.0),
        figure(*.1)
    )]
    Rate(f64, f64),
    #[error(
        "--sprt's Elo values must lie from -{MAX_SPRT_ELO} to {MAX_SPRT_ELO} (got {} and {}): beyond, one side scores all but every game and the test never decides",
        figure(*.0),
        figure(*.1)
    )]
    Range(f64, f64),
}

/// A number as a person reads it back: `1e308`, not its 309 digits.
fn figure(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e6).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// The largest Elo difference `--sprt` takes: 1000 Elo is a score of 99.7%; at 1e308 the
/// expected score rounds to 1 and the log-likelihood ratio never leaves its bounds.
pub const MAX_SPRT_ELO: f64 = 1000.0;

/// A test of "A − B = `elo1`" (H1) against "A − B = `elo0`" (H0), wrong with probability at
/// most `alpha` when H0 holds and `beta` when H1 holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The ratio is still between the bounds.
    Continue,
    /// Below the lower bound: A − B is `elo0` (or less) rather than `elo1`.
    H0,
    /// Above the upper bound: A − B is `elo1` (or more) rather than `elo0`.
    H1,
}

impl Sprt {
    /// Reads `ELO0,ELO1` (error rates 0.05) or `ELO0,ELO1,ALPHA,BETA`.
    pub fn parse(text: &str) -> Result<Sprt, SprtParseError> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 2 && parts.len() != 4 {
            return Err(SprtParseError::Shape(text.to_string()));
        }
        let numbers = parts
            .iter()
            .map(|p| {
                p.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| SprtParseError::Number(p.to_string()))
            })
            .collect::<Result<Vec<f64>, _>>()?;
        let (elo0, elo1) = (numbers[0], numbers[1]);
        let (alpha, beta) = match numbers[..] {
            [_, _, a, b] => (a, b),
            _ => (0.05, 0.05),
        };
        if elo0 >= elo1 {
            return Err(SprtParseError::Order(elo0, elo1));
        }
        if elo0.abs() > MAX_SPRT_ELO || elo1.abs() > MAX_SPRT_ELO {
            return Err(SprtParseError::Range(elo0, elo1));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(SprtParseError::Rate(alpha, beta));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The ratio below which H0 is accepted: ln(β / (1 − α)).
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The ratio above which H1 is accepted: ln((1 − β) / α).
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of the pairs counted so far.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        llr(&pairs.0, self.elo0, self.elo1)
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper_bound() {
            Verdict::H1
        } else if llr <= self.lower_bound() {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SPRT H0: A − B = {} Elo, H1: A − B = {} Elo (alpha {}, beta {}; bounds {:.2} .. {:.2})",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.lower_bound(),
            self.upper_bound()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of `tools/sprt-reference.py`, the same test written apart in 40-digit
    /// arithmetic (mpmath): trinomials as (losses, draws, wins), pentanomials from 0 to 2.
    #[test]
    fn llr_agrees_with_a_high_precision_reference() {
        let cases: [(&[u64], f64, f64, f64); 6] = [
            (&[10, 20, 30], 0.0, 10.0, 0.829121343803767),
            (&[120, 80, 100], -10.0, 10.0, -1.56967461894805),
            (&[3, 40, 100, 60, 5], 0.0, 20.0, 2.19137354556147),
            (&[1, 12, 40, 30, 7], 0.0, 50.0, 6.32903265558035),
            (&[0, 0, 5, 0, 0], 0.0, 10.0, -0.140506862319767),
            (&[0, 5, 30, 50, 15], 0.0, 150.0, 26.8467678454647),
        ];
        for (counts, elo0, elo1, want) in cases {
            let got = llr(counts, elo0, elo1);
            assert!(
                (got - want).abs() < 1e-9,
                "{counts:?} {elo0}..{elo1}: {got} vs {want}"
            );
        }
    }

    /// Near the hypotheses the ratio is the normal approximation's
    /// N (s1 − s0)(2 m − s0 − s1) / (2 σ²), computed here by hand for a pentanomial.
    #[test]
    fn llr_is_close_to_the_normal_approximation_for_close_hypotheses() {
        let counts = [20u64, 200, 560, 200, 20];
        // Mean 0.5 (a symmetric count), variance of the pair score over [0, 1]:
        // (2·20·0.25 + 2·200·0.0625) / 1000 = 0.035.
        let (s0, s1) = (expected_score(-2.0), expected_score(2.0));
        let approx = 1000.0 * (s1 - s0) * (1.0 - s0 - s1) / (2.0 * 0.035);
        assert!(approx.abs() < 1e-9, "symmetric hypotheses around the mean");
        assert!(llr(&counts, -2.0, 2.0).abs() < 1e-9);
        // A mean between the hypotheses (0.505, about +3.5 Elo), where the approximation
        // holds: 0.2885 against the exact 0.2881.
        let counts = [20u64, 190, 560, 210, 20];
        let n = 1000.0;
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean: f64 = counts
            .iter()
            .zip(values)
            .map(|(&c, a)| c as f64 * a)
            .sum::<f64>()
            / n;
        let var: f64 = counts
            .iter()
            .zip(values)
            .map(|(&c, a)| c as f64 * (a - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (expected_score(0.0), expected_score(5.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let exact = llr(&counts, 0.0, 5.0);
        assert!(
            (exact - approx).abs() < 0.005 * approx.abs(),
            "{exact} vs {approx}"
        );
    }

    #[test]
    fn llr_rises_with_wins_and_is_antisymmetric() {
        let even = [5u64, 10, 5];
        let good = [4u64, 10, 6];
        assert!(llr(&good, 0.0, 10.0) > llr(&even, 0.0, 10.0));
        // Swapping A and B mirrors the counts and the hypotheses.
        let counts = [3u64, 7, 11, 9, 2];
        let mirrored = [2u64, 9, 11, 7, 3];
        let a = llr(&counts, 0.0, 20.0);
        let b = llr(&mirrored, -20.0, 0.0);
        assert!((a + b).abs() < 1e-9, "{a} {b}");
    }

    /// `--sprt 0,1e308` printed the 309 digits of 1e308 in its error.
    #[test]
    fn an_sprt_error_writes_huge_numbers_short() {
        let said = Sprt::parse("0,1e308").unwrap_err().to_string();
        assert!(said.contains("got 0 and 1e308"), "{said}");
        assert!(said.len() < 200, "{said}");
        let said = Sprt::parse("0,10,1e300,0.05").unwrap_err().to_string();
        assert!(said.contains("alpha 1e300, beta 0.05"), "{said}");
    }

    #[test]
    fn bounds_verdicts_and_parsing() {
        let t = Sprt::parse("0,10").unwrap();
        assert_eq!((t.alpha, t.beta), (0.05, 0.05));
        // ln(0.95 / 0.05) = 2.944...
        assert!((t.upper_bound() - 2.944_438_979).abs() < 1e-6);
        assert!((t.lower_bound() + 2.944_438_979).abs() < 1e-6);
        assert_eq!(t.verdict(3.0), Verdict::H1);
        assert_eq!(t.verdict(-3.0), Verdict::H0);
        assert_eq!(t.verdict(0.5), Verdict::Continue);
        let t = Sprt::parse("-5, 5, 0.1, 0.2").unwrap();
        assert!((t.upper_bound() - (0.8f64 / 0.1).ln()).abs() < 1e-12);
        assert!((t.lower_bound() - (0.2f64 / 0.9).ln()).abs() < 1e-12);
        assert!(matches!(Sprt::parse("0"), Err(SprtParseError::Shape(_))));
        assert!(matches!(
            Sprt::parse("0,1e308"),
            Err(SprtParseError::Range(..))
        ));
        assert!(matches!(
            Sprt::parse("-1001,0"),
            Err(SprtParseError::Range(..))
        ));
        assert!(Sprt::parse("-1000,1000").is_ok());
        assert!(matches!(
            Sprt::parse("0,1,0.05"),
            Err(SprtParseError::Shape(_))
        ));
        assert!(matches!(Sprt::parse("0,x"), Err(SprtParseError::Number(_))));
        assert!(matches!(
            Sprt::parse("0,nan"),
            Err(SprtParseError::Number(_))
        ));
        assert!(matches!(
            Sprt::parse("10,0"),
            Err(SprtParseError::Order(..))
        ));
        assert!(matches!(
            Sprt::parse("0,10,0,0.05"),
            Err(SprtParseError::Rate(..))
        ));
        assert!(matches!(
            Sprt::parse("0,10,0.05,0.5"),
            Err(SprtParseError::Rate(..))
        ));
    }
}
