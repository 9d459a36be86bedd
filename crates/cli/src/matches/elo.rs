//! The Elo scale, in one place for every command that rates (`okapi match`, its SPRT,
//! `okapi ladder-fit`): the logistic model, in which a side `d` Elo stronger scores
//! 1 / (1 + 10^(-d/400)) on average; and A's tally over a match (its games, and its pairs
//! of games by points for the sequential test) with the Elo difference it gives and its
//! interval.

use std::fmt;
use std::time::Duration;

/// A's results over the match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub discs_a: u32,
    pub discs_b: u32,
    pub time_a: Duration,
    pub time_b: Duration,
    pub moves_a: u32,
    pub moves_b: u32,
    /// Complete pairs (A Black, then A White, from one opening) by A's points.
    pub pentanomial: Pentanomial,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score fraction.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

/// Elo per logit (natural logistic unit): 400 / ln 10. A fit that works in logits (its
/// win chances 1 / (1 + e^-x)) gives Elo by this factor.
pub const ELO_PER_LOGIT: f64 = 400.0 / std::f64::consts::LN_10;

/// The expected score of a side `elo` Elo stronger than the other (the logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + (-elo / ELO_PER_LOGIT).exp())
}

/// The Elo difference a score fraction gives: the inverse of [`expected_score`] (infinite
/// at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        ELO_PER_LOGIT * (score / (1.0 - score)).ln()
    }
}

/// Elo difference and its 95% interval, from the score's standard error over the games
/// (each game scoring 1, 1/2 or 0). When every game ended the same way the error is
/// unmeasured and the rule of three bounds the score instead (3/N from the end).
pub fn elo_interval(t: &Tally) -> (f64, f64, f64) {
    let n = t.games().max(1) as f64;
    let s = t.score();
    let var = (t.wins as f64 * (1.0 - s).powi(2)
        + t.draws as f64 * (0.5 - s).powi(2)
        + t.losses as f64 * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    if se == 0.0 {
        let edge = (3.0 / n).min(0.5);
        return match s {
            x if x >= 1.0 => (elo(s), elo(1.0 - edge), f64::INFINITY),
            x if x <= 0.0 => (elo(s), f64::NEG_INFINITY, elo(edge)),
            _ => (elo(s), elo(s), elo(s)),
        };
    }
    (elo(s), elo(s - 1.96 * se), elo(s + 1.96 * se))
}

pub(super) fn elo_text(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{:+.0}", x.round() + 0.0)
    }
}

/// A's score in a game: 1, 1/2 or 0.
pub(super) fn points(a_discs: u32, b_discs: u32) -> f64 {
    match a_discs.cmp(&b_discs) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

/// How many game pairs A scored 0, ½, 1, 1½ and 2 points in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Counts a pair from A's score in each of its two games (0, ½ or 1 each).
    pub fn add(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "0: {a}, 1/2: {b}, 1: {c}, 3/2: {d}, 2: {e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_from_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.8).abs() < 0.1);
        // 400 Elo: ten times the odds.
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        for d in [-800.0, -35.5, 0.0, 1.0, 190.0, 1200.0] {
            assert!((elo(expected_score(d)) - d).abs() < 1e-9, "{d}");
        }
        let t = Tally {
            wins: 60,
            draws: 0,
            losses: 40,
            ..Tally::default()
        };
        let (e, lo, hi) = elo_interval(&t);
        assert!(
            lo < e && e < hi && lo > -20.0 && hi < 160.0,
            "{lo} {e} {hi}"
        );
        let all = Tally {
            wins: 10,
            ..Tally::default()
        };
        let (e, lo, hi) = elo_interval(&all);
        assert_eq!((e, hi), (f64::INFINITY, f64::INFINITY));
        assert!((lo - elo(0.7)).abs() < 1e-9);
    }

    #[test]
    fn pairs_are_counted_by_their_points() {
        let mut p = Pentanomial::default();
        p.add(1.0, 1.0);
        p.add(1.0, 0.0);
        p.add(0.5, 0.5);
        p.add(0.5, 0.0);
        p.add(0.0, 0.0);
        p.add(1.0, 0.5);
        assert_eq!(p.0, [1, 1, 2, 1, 1]);
        assert_eq!(p.pairs(), 6);
        assert_eq!(p.to_string(), "0: 1, 1/2: 1, 1: 2, 3/2: 1, 2: 1");
    }
}
