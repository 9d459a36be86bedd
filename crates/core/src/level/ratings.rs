//! The playing levels on one Elo scale: the table the app's level picker and the
//! console show (`data/levels-elo.json`, built in; `okapi ladder-fit` makes it from the
//! games of `tools/level-ladder`), and the strengths a player is told.
//!
//! A level is rated as it plays: its name (`8`, `8t2`, `0.1s`, `random`) with the solve
//! setting it played under (`solve_from`: the app's "Solve moves from N empties", 0 for the
//! level's own solving depths as the console plays it). Two entries that play the same way
//! (level 14 solves from 21 empties anyway, so a solve setting of 20 changes nothing)
//! answer the same lookups.
//!
//! The ladder's intervals are wide at the top (±100 to ±300 Elo), so neighbouring levels
//! can come out in the wrong order (level 20 below 17) although a deeper search is never
//! weaker in any pairing measured. A player is told [`LevelRatings::strength`]: the
//! measured ratings made to rise with depth (and with time a move) by the weighted
//! isotonic fit (pool-adjacent-violators, each level weighted by the inverse variance of
//! its rating): levels whose ratings are out of order are shown at their pooled rating,
//! which says what the games measured (they could not tell them apart) and nothing more.

use super::{Level, SearchLevel};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// A level's place on the scale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelRating {
    /// The level as `Level::parse` reads it.
    pub level: String,
    /// The solve setting it was measured under.
    pub solve_from: u32,
    /// Elo above the anchor.
    pub elo: f64,
    /// The 95% interval's lower end.
    pub low: f64,
    /// The 95% interval's upper end.
    pub high: f64,
    /// Games the level played in the ladder.
    pub games: u32,
    /// Its mean seconds a move over those games (on the machine and load of the ladder).
    pub seconds_a_move: f64,
}

/// The table of `data/levels-elo.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelRatings {
    /// The level at Elo 0.
    pub anchor: String,
    /// How the games were played and on what (free text for the reader of the file).
    pub measured: String,
    /// The commands that regenerate the table.
    pub command: String,
    /// The levels, best first.
    pub levels: Vec<LevelRating>,
}

/// What is wrong with a ratings table.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RatingsError {
    /// A table's level that `Level::parse` does not read, and why.
    #[error("level '{0}' is not a level: {1}")]
    BadLevel(String, super::LevelError),
    /// The table's JSON, with the parser's message.
    #[error("the ratings table is not valid JSON: {0}")]
    Json(String),
}

/// A level's strength as a player is told it (see the module's notes).
#[derive(Clone, Debug, PartialEq)]
pub enum Strength {
    /// Measured in the ladder's games.
    Measured {
        /// Elo, made to rise with the level (the pooled rating where levels are tied).
        elo: f64,
        /// The 95% interval of the level's own rating (widened to hold `elo`).
        low: f64,
        /// Its upper end.
        high: f64,
        /// The other levels of its kind shown at the same rating (names as
        /// `Level::parse` reads them), shallowest first; empty when it stands alone.
        tied_with: Vec<String>,
    },
    /// Not measured; it searches more than `than`, the strongest measured level of its
    /// kind below it, whose strength `elo` is this level's lower bound.
    AtLeast {
        /// The lower bound.
        elo: f64,
        /// The measured level below (as `Level::parse` reads it).
        than: String,
    },
}

impl Strength {
    /// The Elo shown (the lower bound for a level not measured).
    pub fn elo(&self) -> f64 {
        match self {
            Strength::Measured { elo, .. } | Strength::AtLeast { elo, .. } => *elo,
        }
    }

    /// "≈ 1650 Elo (95% interval 1590..1710)", or "≥ 2180 Elo" for a level not measured.
    pub fn text(&self) -> String {
        match self {
            Strength::Measured { elo, low, high, .. } => {
                format!("≈ {elo:.0} Elo (95% interval {low:.0}..{high:.0})")
            }
            Strength::AtLeast { elo, .. } => format!("≥ {elo:.0} Elo"),
        }
    }
}

/// How a level plays under a solve setting: two (name, setting) pairs that give the same
/// level are the same player.
fn effective(name: &str, solve_from: u32) -> Result<Level, RatingsError> {
    Level::parse(name)
        .map(|l| l.solving_from(solve_from))
        .map_err(|e| RatingsError::BadLevel(name.to_string(), e))
}

/// A full-strength search level's place among its kind: depth levels by depth, time
/// levels by time (`true` first for time levels, which are never compared with depths).
fn kind_key(s: &SearchLevel) -> KindKey {
    (
        s.limits.time.is_some(),
        s.limits.time.unwrap_or_default(),
        s.limits.depth,
    )
}

/// A full-strength search level's place among its kind (see [`kind_key`]).
type KindKey = (bool, std::time::Duration, u32);

/// A measured level among its kind: its place, its rating, the rating it is told (the
/// isotonic fit's) and the block of levels told the same.
struct Ordered<'a> {
    key: KindKey,
    rating: &'a LevelRating,
    elo: f64,
    block: usize,
}

/// The weighted least-squares non-decreasing fit of `values` (in their order) with
/// `weights` (pool-adjacent-violators): each run of values out of order is replaced by
/// its weighted mean. Returns, for each value, its fitted value and the index of its
/// block (equal for pooled values).
fn isotonic(values: &[f64], weights: &[f64]) -> Vec<(f64, usize)> {
    // Blocks as (weighted mean, total weight, count).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
    for (&v, &w) in values.iter().zip(weights) {
        blocks.push((v, w, 1));
        while blocks.len() > 1 && blocks[blocks.len() - 2].0 > blocks[blocks.len() - 1].0 {
            let (v2, w2, n2) = blocks.pop().expect("two blocks");
            let (v1, w1, n1) = blocks.pop().expect("two blocks");
            blocks.push(((v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, n1 + n2));
        }
    }
    blocks
        .iter()
        .enumerate()
        .flat_map(|(b, &(v, _, n))| std::iter::repeat_n((v, b), n))
        .collect()
}

impl LevelRatings {
    /// Reads a table (`data/levels-elo.json`'s format), checking that its levels parse.
    pub fn from_json(text: &str) -> Result<LevelRatings, RatingsError> {
        let table: LevelRatings =
            serde_json::from_str(text).map_err(|e| RatingsError::Json(e.to_string()))?;
        for l in &table.levels {
            effective(&l.level, l.solve_from)?;
        }
        Ok(table)
    }

    /// The table built into the program: `data/levels-elo.json`.
    pub fn shipped() -> &'static LevelRatings {
        static TABLE: OnceLock<LevelRatings> = OnceLock::new();
        TABLE.get_or_init(|| {
            LevelRatings::from_json(include_str!("../../../../data/levels-elo.json"))
                .expect("data/levels-elo.json is checked by the tests")
        })
    }

    /// The rating of `level` playing under the solve setting `solve_from` (the app's
    /// setting; 0 for the console), if the ladder measured a level that plays the same.
    pub fn find(&self, level: &Level, solve_from: u32) -> Option<&LevelRating> {
        let wanted = level.solving_from(solve_from);
        self.levels
            .iter()
            .find(|l| effective(&l.level, l.solve_from).is_ok_and(|e| e == wanted))
    }

    /// The measured full-strength levels of one kind (depth or time a move) as they play
    /// under `solve_from`, in order, each with its isotonic rating and block.
    fn ordered_kind(&self, timed: bool, solve_from: u32) -> Vec<Ordered<'_>> {
        let mut measured: Vec<(KindKey, &LevelRating)> = self
            .levels
            .iter()
            .filter_map(|r| {
                let Ok(plain @ Level::Search(s)) = Level::parse(&r.level) else {
                    return None;
                };
                // The entry that answers for the level under this setting, once.
                let answers = self
                    .find(&plain, solve_from)
                    .is_some_and(|f| std::ptr::eq(f, r));
                (answers && s.temperature <= 0.0 && s.limits.time.is_some() == timed)
                    .then(|| (kind_key(&s), r))
            })
            .collect();
        measured.sort_by_key(|m| m.0);
        measured.dedup_by(|a, b| a.0 == b.0);
        let values: Vec<f64> = measured.iter().map(|(_, r)| r.elo).collect();
        // Inverse variance: the 95% interval is ±1.96 standard errors.
        let weights: Vec<f64> = measured
            .iter()
            .map(|(_, r)| (3.92 / (r.high - r.low).max(1.0)).powi(2))
            .collect();
        measured
            .iter()
            .zip(isotonic(&values, &weights))
            .map(|(&(key, rating), (elo, block))| Ordered {
                key,
                rating,
                elo,
                block,
            })
            .collect()
    }

    /// The strength to tell a player of `level` playing under the solve setting
    /// `solve_from`: its measured rating, made to rise with depth and time a move (see the
    /// module's notes); for an unmeasured deeper level, the strength of the measured one
    /// below it as a lower bound; `None` when neither is known.
    pub fn strength(&self, level: &Level, solve_from: u32) -> Option<Strength> {
        let full_strength = match level {
            Level::Search(s) if s.temperature <= 0.0 => Some(s),
            _ => None,
        };
        let Some(s) = full_strength else {
            // Beginners and weakened levels: as measured, if they were.
            return self.find(level, solve_from).map(|r| Strength::Measured {
                elo: r.elo,
                low: r.low,
                high: r.high,
                tied_with: Vec::new(),
            });
        };
        let kind = self.ordered_kind(s.limits.time.is_some(), solve_from);
        if let Some(r) = self.find(level, solve_from) {
            let me = kind.iter().find(|k| std::ptr::eq(k.rating, r))?;
            return Some(Strength::Measured {
                elo: me.elo,
                low: r.low.min(me.elo),
                high: r.high.max(me.elo),
                tied_with: kind
                    .iter()
                    .filter(|k| k.block == me.block && !std::ptr::eq(k.rating, r))
                    .map(|k| k.rating.level.clone())
                    .collect(),
            });
        }
        // Not measured: it searches more than every measured level of its kind below it
        // (under the same setting), so it is at least as strong as the deepest of them.
        let key = kind_key(s);
        let below = kind.iter().rev().find(|k| k.key < key)?;
        Some(Strength::AtLeast {
            elo: below.elo,
            than: below.rating.level.clone(),
        })
    }

    /// What the scale means, in one sentence a player reads, with the reference points
    /// every player knows from the table itself (random play, greedy play).
    pub fn scale_sentence(&self) -> String {
        let greedy = self
            .find(&Level::Greedy, 0)
            .map(|g| {
                format!(
                    ", greedy play (always flipping the most discs) {:.0}",
                    g.elo
                )
            })
            .unwrap_or_default();
        format!(
            "On this scale random play is 0{greedy}; a side 200 points stronger wins about 3 \
             games in 4."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unmeasured deep level is told the deepest measured one below it; a measured
    /// level, a weakened one and the random player have none to be told.
    #[test]
    fn an_unmeasured_level_finds_the_deepest_measured_below_it() {
        let json = r#"{"anchor": "random", "measured": "", "command": "", "levels": [
            {"level": "random", "solve_from": 0, "elo": 0, "low": 0, "high": 0, "games": 1, "seconds_a_move": 0},
            {"level": "12", "solve_from": 0, "elo": 1900, "low": 1800, "high": 2000, "games": 1, "seconds_a_move": 0},
            {"level": "16", "solve_from": 20, "elo": 2200, "low": 2100, "high": 2300, "games": 1, "seconds_a_move": 0},
            {"level": "2s", "solve_from": 0, "elo": 2300, "low": 2200, "high": 2400, "games": 1, "seconds_a_move": 0},
            {"level": "2s", "solve_from": 20, "elo": 2350, "low": 2250, "high": 2450, "games": 1, "seconds_a_move": 0}
        ]}"#;
        let t = LevelRatings::from_json(json).unwrap();
        let below = |l: &str, solve: u32| match t.strength(&Level::parse(l).unwrap(), solve) {
            Some(Strength::AtLeast { than, elo }) => Some((than, elo)),
            _ => None,
        };
        // Level 16 plays the same under either setting (it solves from 24 anyway).
        assert_eq!(below("25", 0), Some(("16".into(), 2200.0)));
        assert_eq!(below("25", 20), Some(("16".into(), 2200.0)));
        assert_eq!(below("14", 0), Some(("12".into(), 1900.0)));
        // Time levels: the measured one under the same setting.
        assert_eq!(below("10s", 0), Some(("2s".into(), 2300.0)));
        assert_eq!(below("10s", 20), Some(("2s".into(), 2350.0)));
        assert_eq!(below("1s", 0), None);
        assert_eq!(below("8t2", 0), None);
        assert_eq!(below("random", 0), None);
        assert_eq!(below("10", 0), None);
    }

    #[test]
    fn the_shipped_table_reads_and_rates_the_anchor_zero() {
        let t = LevelRatings::shipped();
        assert!(!t.levels.is_empty());
        let anchor = Level::parse(&t.anchor).unwrap();
        assert_eq!(t.find(&anchor, 0).map(|r| r.elo), Some(0.0));
        for l in &t.levels {
            assert!(l.low <= l.elo && l.elo <= l.high, "{l:?}");
            assert!(l.games > 0);
        }
    }

    #[test]
    fn the_isotonic_fit_pools_values_out_of_order_by_their_weights() {
        let fit = isotonic(&[1.0, 3.0, 2.0, 4.0, 0.0], &[1.0, 1.0, 3.0, 1.0, 1.0]);
        // 3 and 2 pool to (3 + 6) / 4; then 4 and 0 pool to 2, below 2.25: all three pool.
        let values: Vec<f64> = fit.iter().map(|f| f.0).collect();
        let pooled = (3.0 + 6.0 + 4.0 + 0.0) / 6.0;
        assert_eq!(values, vec![1.0, pooled, pooled, pooled, pooled]);
        assert_eq!(fit.iter().map(|f| f.1).collect::<Vec<_>>(), [0, 1, 1, 1, 1]);
        let rising = isotonic(&[1.0, 2.0, 2.0, 5.0], &[1.0; 4]);
        assert_eq!(
            rising.iter().map(|f| f.0).collect::<Vec<_>>(),
            [1.0, 2.0, 2.0, 5.0]
        );
    }

    /// The strengths a player is told rise with depth and with time a move, under the
    /// app's solve setting and the console's; levels whose ratings were out of order say
    /// which they are tied with.
    #[test]
    fn shipped_strengths_rise_with_depth_and_time() {
        let t = LevelRatings::shipped();
        for solve_from in [0, 20] {
            let depths: Vec<f64> = (1..=30)
                .map(|d| t.strength(&Level::numbered(d), solve_from).unwrap().elo())
                .collect();
            assert!(
                depths.windows(2).all(|w| w[0] <= w[1]),
                "{solve_from}: {depths:?}"
            );
            let times: Vec<f64> = [0.1, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0]
                .iter()
                .map(|&s| {
                    let l = Level::timed(std::time::Duration::from_secs_f64(s));
                    t.strength(&l, solve_from).unwrap().elo()
                })
                .collect();
            assert!(
                times.windows(2).all(|w| w[0] <= w[1]),
                "{solve_from}: {times:?}"
            );
        }
        // Level 13 was measured a little below level 12 under the app's setting.
        let (twelve, thirteen) = (
            t.find(&Level::numbered(12), 20).unwrap(),
            t.find(&Level::numbered(13), 20).unwrap(),
        );
        assert!(
            thirteen.elo < twelve.elo,
            "the table changed: pick another pair"
        );
        let Some(Strength::Measured {
            elo,
            tied_with,
            low,
            high,
        }) = t.strength(&Level::numbered(13), 20)
        else {
            panic!()
        };
        assert!(tied_with.contains(&"12".to_string()), "{tied_with:?}");
        assert!(thirteen.elo < elo && elo < twelve.elo && low <= elo && elo <= high);
        // Weakened and beginner levels are told as measured.
        let warm = Level::parse("8t2").unwrap();
        assert_eq!(
            t.strength(&warm, 0).unwrap().elo(),
            t.find(&warm, 0).unwrap().elo
        );
        assert!(t.strength(&Level::parse("8t3").unwrap(), 0).is_none());
        // A depth the ladder did not reach is told at least the deepest measured one.
        let deep = t.strength(&Level::numbered(40), 20).unwrap();
        assert!(
            matches!(deep, Strength::AtLeast { ref than, .. } if than == "30"),
            "{deep:?}"
        );
        assert_eq!(
            deep.elo(),
            t.strength(&Level::numbered(30), 20).unwrap().elo()
        );
    }

    #[test]
    fn the_scale_is_told_with_random_and_greedy_play() {
        let s = LevelRatings::shipped().scale_sentence();
        assert!(
            s.contains("random play is 0") && s.contains("greedy play"),
            "{s}"
        );
    }
}
