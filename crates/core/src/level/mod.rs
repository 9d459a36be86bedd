//! Playing strength: the levels users know from WZebra (midgame depth, exact and WLD
//! endgame depths, or a time per move), weakening by a temperature over the moves'
//! values for practice, the beginner opponents at the bottom, and time allotment for a
//! game clock; [`ratings`], the levels' measured strengths.

pub mod ratings;

use crate::board::{Board, Move, Square};
use crate::search::probcut::{LEVELS, MIN_DEPTH, NO_CUT};
use crate::search::{Evaluate, Limits, MidgameSearch, MoveValue, SCALE, Stopped};
use std::time::Duration;

/// Why a level's text was not read (see [`Level::parse`]); each says the text it read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LevelError {
    /// The confidence after `@` is not one of the search's.
    #[error("'{0}': the confidence after @ is one of 73, 87, 95, 99, 100 or full")]
    Confidence(String),
    /// A confidence on a level that does not search (`random@95`).
    #[error("'{0}': only search levels have a confidence")]
    ConfidenceOfNoSearch(String),
    /// A time that is not a number (`xs`).
    #[error("bad time '{0}'")]
    Time(String),
    /// A time too short to search or too long to wait for.
    #[error("bad time '{0}': give {min} s to 1000000 s a move", min = MIN_MOVE_TIME.as_secs_f64())]
    TimeRange(String),
    /// Nothing a level is made of.
    #[error("'{0}' is not a level (random, greedy, a depth like 12, 12t1.5, or a time like 5s)")]
    Unknown(String),
    /// A depth outside 1 to 60.
    #[error("level depth must be 1..60, not {0}")]
    Depth(u32),
    /// A temperature that is not a number (`8tx`).
    #[error("bad temperature in '{0}'")]
    Temperature(String),
    /// A temperature below 0, infinite or not a number: the level's text, then the
    /// temperature's.
    #[error("temperature in '{0}' must be a number of discs, 0 or more (not {1})")]
    TemperatureRange(String, String),
}

/// A playing level.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Level {
    /// Any legal move, uniformly.
    Random,
    /// The move that flips the most discs (ties at random).
    Greedy,
    /// A search.
    Search(SearchLevel),
}

/// A searching level: what to search, how selectively, and how much to weaken.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchLevel {
    /// Midgame depth, exact and WLD solving depths, time per move.
    pub limits: Limits,
    /// ProbCut level index (see [`crate::search::probcut::LEVELS`]), or `NO_CUT`.
    pub selectivity: usize,
    /// Weakening: 0 plays the best move; above, moves are drawn with probability
    /// proportional to exp(value / temperature), value and temperature in discs.
    pub temperature: f64,
}

/// The shortest time a move a level takes: a millisecond. Shorter is no time control
/// anyone means, and 1e-300 s was a zero duration.
pub const MIN_MOVE_TIME: Duration = Duration::from_millis(1);

/// Time levels thinking less than this a move search at ProbCut 73% (see
/// [`Level::timed`]).
pub const SHORT_MOVE: Duration = Duration::from_millis(30);

impl Level {
    /// WZebra-style numbered levels: depth `n`, exact from 1.5 n (at most n + 10, and
    /// at most 24) empties, WLD two empties earlier; selective search (ProbCut at 95%).
    pub fn numbered(n: u32) -> Level {
        let n = n.clamp(1, 60);
        // Capped: an exact solve from 30+ empties takes far too long for a move.
        let exact = (n * 3 / 2).min(n + 10).min(24);
        Level::Search(SearchLevel {
            limits: Limits {
                depth: n,
                exact_empties: exact,
                wld_empties: exact + 2,
                time: None,
            },
            // ProbCut at 95% at every depth (it never cuts below `probcut::MIN_DEPTH`);
            // it was full width below 10, and depth 8 cost three times NTest's time. At
            // depth 8, on 40 WTHOR 2017 positions from 50 to 26 empties (okapi bench
            // --midgame), 594 k nodes instead of 2.61 M; against the full-width depth 8 at
            // equal depth, 200 games: see the README's strength notes.
            selectivity: 2,
            temperature: 0.0,
        })
    }

    /// A level that thinks for `time` per move, then plays its best.
    pub fn timed(time: Duration) -> Level {
        Level::Search(SearchLevel {
            limits: Limits {
                depth: 60,
                exact_empties: 18,
                wld_empties: 20,
                time: Some(time),
            },
            // ProbCut at 87% rather than the depth levels' 95%: against 95% at 0.05 s a
            // move, 384-95-321 over 800 games from two sets of openings (+27, +5 .. +50); at
            // 0.5 s, 46-29-45 (+3, -52 .. +58, 120 games);
            // 73% at 0.05 s: 162-62-176 (-12, -44 .. +19, 400 games). Below
            // `SHORT_MOVE` a move, 73%: against 87% at 0.015 s, 464-120-416 over 1,000
            // games (+17, -3 .. +37), the iterations a few plies shallow where more
            // pruning pays.
            selectivity: if time < SHORT_MOVE { 0 } else { 1 },
            temperature: 0.0,
        })
    }

    /// Parses `random`, `greedy`, a number (`12`), or `12t1.5` (depth 12, temperature
    /// 1.5 discs), or `5s` (five seconds a move); a search level may end with `@C`, the
    /// ProbCut confidence instead of the level's own (`8@99`, `0.1s@95`: C one of 73, 87,
    /// 95, 99, 100) or `@full` for a full-width search.
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        let lower = text.trim().to_ascii_lowercase();
        let Some((t, confidence)) = lower.split_once('@') else {
            return Level::parse_plain(text, &lower);
        };
        let selectivity = match confidence {
            "full" => NO_CUT,
            c => LEVELS
                .iter()
                .position(|l| c.parse() == Ok(l.1))
                .ok_or_else(|| LevelError::Confidence(text.to_string()))?,
        };
        match Level::parse_plain(text, t)? {
            Level::Search(mut s) => {
                s.selectivity = selectivity;
                Ok(Level::Search(s))
            }
            _ => Err(LevelError::ConfidenceOfNoSearch(text.to_string())),
        }
    }

    fn parse_plain(text: &str, t: &str) -> Result<Level, LevelError> {
        match t {
            "random" => return Ok(Level::Random),
            "greedy" => return Ok(Level::Greedy),
            _ => {}
        }
        if let Some(secs) = t.strip_suffix('s') {
            let s: f64 = secs
                .parse()
                .map_err(|_| LevelError::Time(text.to_string()))?;
            let min = MIN_MOVE_TIME.as_secs_f64();
            if !(s >= min && s < 1e6) {
                // 1e-300 s was a zero duration: shown as "0s", then every move "stopped".
                return Err(LevelError::TimeRange(text.to_string()));
            }
            return Ok(Level::timed(Duration::from_secs_f64(s)));
        }
        let (depth, temp) = match t.split_once('t') {
            Some((d, tmp)) => (d, Some(tmp)),
            None => (t, None),
        };
        let n: u32 = depth
            .parse()
            .map_err(|_| LevelError::Unknown(text.to_string()))?;
        if n == 0 || n > 60 {
            return Err(LevelError::Depth(n));
        }
        let mut level = Level::numbered(n);
        if let (Some(tmp), Level::Search(s)) = (temp, &mut level) {
            let temperature: f64 = tmp
                .parse()
                .map_err(|_| LevelError::Temperature(text.to_string()))?;
            // NaN and infinity parse as numbers; a negative temperature was dropped
            // silently (it played as 0).
            if !(temperature.is_finite() && temperature >= 0.0) {
                return Err(LevelError::TemperatureRange(
                    text.to_string(),
                    tmp.to_string(),
                ));
            }
            s.temperature = temperature;
        }
        Ok(level)
    }

    /// The level, solving exactly from at least `empties` empties (WLD two earlier)
    /// when it plays at full strength: a front end's "solve from N empties" setting.
    pub fn solving_from(mut self, empties: u32) -> Level {
        if let Level::Search(s) = &mut self
            && s.temperature <= 0.0
        {
            s.limits.exact_empties = s.limits.exact_empties.max(empties);
            s.limits.wld_empties = s.limits.wld_empties.max(s.limits.exact_empties);
        }
        self
    }

    /// What the level does, in one plain sentence for a player choosing it.
    pub fn description(&self) -> String {
        let s = match self {
            Level::Random => return "Plays any legal move at random.".into(),
            Level::Greedy => {
                return "Plays the move that flips the most discs, looking no further.".into();
            }
            Level::Search(s) => s,
        };
        let think = match s.limits.time {
            // "Up to": a search that reaches the end of the game stops there, and long
            // levels often do (30 s took 4-7 s a move on average over the level
            // ladder's games: 30 s at 52 empties, seconds from about 40).
            Some(t) => format!(
                "Thinks up to {} s a move, as many moves ahead as that allows",
                t.as_secs_f64()
            ),
            None if s.limits.depth == 1 => "Looks one move ahead".into(),
            None => format!("Looks {} moves ahead", s.limits.depth),
        };
        let prune =
            if s.selectivity < NO_CUT && (s.limits.time.is_some() || s.limits.depth >= MIN_DEPTH) {
                ", skipping lines that look clearly lost"
            } else {
                ""
            };
        if s.temperature > 0.0 {
            // The chance of a move a given number of discs worse than the best, relative
            // to the best's: exp(-discs / temperature).
            let worse = |discs: f64| 100.0 * (-discs / s.temperature).exp();
            format!(
                "{think}{prune}, then draws its move at random, favouring the better ones: a move 2 discs worse than the best is played {:.0}% as often, one 10 discs worse {:.0}% as often.",
                worse(2.0),
                worse(10.0)
            )
        } else {
            format!(
                "{think}{prune}, and plays perfectly from {} empty squares on.",
                s.limits.exact_empties
            )
        }
    }

    /// The level as [`Level::parse`] reads it (`8`, `12t1.5`, `5s`, `greedy`, `8@99`).
    pub fn name(&self) -> String {
        match self {
            Level::Random => "random".into(),
            Level::Greedy => "greedy".into(),
            Level::Search(s) => {
                let (mut name, default) = match s.limits.time {
                    Some(t) => (format!("{}s", t.as_secs_f64()), Level::timed(t)),
                    None => (
                        format!("{}", s.limits.depth),
                        Level::numbered(s.limits.depth),
                    ),
                };
                if s.temperature > 0.0 {
                    name += &format!("t{}", s.temperature);
                }
                // The confidence only when it is not the level's own.
                if let Level::Search(d) = default
                    && d.selectivity != s.selectivity
                {
                    match LEVELS.get(s.selectivity) {
                        Some(l) => name += &format!("@{}", l.1),
                        None => name += "@full",
                    }
                }
                name
            }
        }
    }
}

/// A move choice and, for weakened levels, every move's value and chance (as a
/// tablebase program's `show lines`).
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move chosen.
    pub mv: Move,
    /// Value of the chosen move in 1/`SCALE` discs, if a search gave one.
    pub value: Option<i32>,
    /// (move, value, probability) for each candidate when a temperature was used.
    pub candidates: Vec<(Move, i32, f64)>,
    /// The chosen move's line, when a search gave one.
    pub pv: Vec<Move>,
}

/// Picks a move at `level`. `rng` gives uniform numbers in [0, 1).
pub fn choose_move<E: Evaluate + Clone>(
    search: &mut MidgameSearch<E>,
    board: Board,
    level: &Level,
    rng: &mut dyn FnMut() -> f64,
) -> Result<Choice, Stopped> {
    let mv = board.moves();
    if mv == 0 {
        return Ok(Choice {
            mv: Move::Pass,
            value: None,
            candidates: vec![],
            pv: vec![],
        });
    }
    let squares: Vec<u32> = crate::board::BitBoard(mv)
        .iter()
        .map(|s| s.index())
        .collect();
    match level {
        Level::Random => {
            let i = ((rng() * squares.len() as f64) as usize).min(squares.len() - 1);
            Ok(Choice {
                mv: Move::Play(Square::new(squares[i])),
                value: None,
                candidates: vec![],
                pv: vec![],
            })
        }
        Level::Greedy => {
            let most = squares
                .iter()
                .map(|&s| board.flips(s).count_ones())
                .max()
                .unwrap_or(0);
            let best: Vec<u32> = squares
                .iter()
                .copied()
                .filter(|&s| board.flips(s).count_ones() == most)
                .collect();
            let i = ((rng() * best.len() as f64) as usize).min(best.len() - 1);
            Ok(Choice {
                mv: Move::Play(Square::new(best[i])),
                value: None,
                candidates: vec![],
                pv: vec![],
            })
        }
        Level::Search(s) => {
            search.set_selectivity(s.selectivity);
            if s.temperature <= 0.0 {
                let r = search.best_move(board, s.limits, |_| {})?;
                return Ok(Choice {
                    mv: r.best.mv,
                    value: Some(r.best.value),
                    candidates: vec![],
                    pv: r.best.pv,
                });
            }
            // Every move's value at the level's depth, then a draw from their softmax.
            let mut latest: Vec<MoveValue> = Vec::new();
            search.analyze_moves(board, s.limits, |v| {
                match latest.iter_mut().find(|x| x.mv == v.mv) {
                    Some(x) => *x = v.clone(),
                    None => latest.push(v.clone()),
                }
            })?;
            let candidates = softmax(&latest, s.temperature);
            let mut x = rng();
            let mut pick = candidates.len() - 1;
            for (i, c) in candidates.iter().enumerate() {
                if x < c.2 {
                    pick = i;
                    break;
                }
                x -= c.2;
            }
            let chosen = latest
                .iter()
                .find(|v| v.mv == candidates[pick].0)
                .expect("chosen move was analysed");
            Ok(Choice {
                mv: chosen.mv,
                value: Some(chosen.value),
                candidates,
                pv: chosen.pv.clone(),
            })
        }
    }
}

/// Probabilities proportional to exp(value / temperature) (values in 1/`SCALE` discs,
/// temperature in discs), best first.
pub fn softmax(values: &[MoveValue], temperature: f64) -> Vec<(Move, i32, f64)> {
    let best = values.iter().map(|v| v.value).max().unwrap_or(0);
    let weights: Vec<f64> = values
        .iter()
        .map(|v| (((v.value - best) as f64 / SCALE as f64) / temperature.max(1e-6)).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut out: Vec<(Move, i32, f64)> = values
        .iter()
        .zip(&weights)
        .map(|(v, w)| (v.mv, v.value, w / total))
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.1));
    out
}

/// Time to spend on a move with `remaining` on the clock, `empties` empty squares left
/// and `increment` added per move: an even share of the moves still to play (about half
/// the empties), more in the middle game where decisions matter most, never more than a
/// third of what is left.
pub fn allot_time(remaining: Duration, increment: Duration, empties: u32) -> Duration {
    let own_moves_left = (empties.saturating_sub(12) / 2).max(1) as f64;
    let share = remaining.as_secs_f64() / own_moves_left;
    let midgame_bonus = if (20..=44).contains(&empties) {
        1.3
    } else {
        1.0
    };
    let t = share * midgame_bonus + increment.as_secs_f64() * 0.8;
    Duration::from_secs_f64(t.min(remaining.as_secs_f64() / 3.0).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::search::SearchSource;

    #[test]
    fn descriptions_say_what_the_level_does() {
        assert!(Level::Random.description().contains("at random"));
        assert!(Level::Greedy.description().contains("flips the most"));
        let six = Level::numbered(6).description();
        assert!(
            six.starts_with("Looks 6 moves ahead") && six.contains("from 9 empty"),
            "{six}"
        );
        assert!(six.contains("skipping"), "{six}");
        // ProbCut never cuts at depth 1 or 2.
        assert!(!Level::numbered(2).description().contains("skipping"));
        assert!(
            Level::parse("12@full")
                .unwrap()
                .description()
                .contains("ahead, and plays")
        );
        assert!(
            Level::numbered(6)
                .solving_from(20)
                .description()
                .contains("from 20 empty")
        );
        let warm = Level::parse("8t2").unwrap().description();
        // exp(-1) and exp(-5).
        assert!(
            warm.contains("37% as often") && warm.contains("one 10 discs worse 1% as often"),
            "{warm}"
        );
        assert!(
            Level::parse("0.5s")
                .unwrap()
                .description()
                .starts_with("Thinks up to 0.5 s a move")
        );
    }

    #[test]
    fn a_confidence_after_at_sets_probcut_and_names_the_level() {
        let Ok(Level::Search(s)) = Level::parse("8@99") else {
            panic!()
        };
        assert_eq!(LEVELS[s.selectivity].1, 99);
        let Ok(Level::Search(f)) = Level::parse("12@full") else {
            panic!()
        };
        assert_eq!(f.selectivity, NO_CUT);
        for text in ["8@99", "12@full", "0.1s@95", "6t2@73"] {
            assert_eq!(Level::parse(text).unwrap().name(), text);
        }
        // The level's own confidence is not written.
        let own = Level::numbered(12);
        assert_eq!(own.name(), "12");
        assert_eq!(Level::parse(&own.name()), Ok(own));
        for bad in ["8@98", "random@95", "8@", "@95"] {
            assert!(Level::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parse_levels() {
        assert_eq!(Level::parse("random"), Ok(Level::Random));
        assert_eq!(Level::parse("Greedy"), Ok(Level::Greedy));
        let Ok(Level::Search(s)) = Level::parse("12t1.5") else {
            panic!()
        };
        assert_eq!((s.limits.depth, s.temperature), (12, 1.5));
        assert_eq!(s.limits.exact_empties, 18);
        let Ok(Level::Search(s)) = Level::parse("2s") else {
            panic!()
        };
        assert_eq!(s.limits.time, Some(Duration::from_secs(2)));
        assert_eq!(LEVELS[s.selectivity].1, 87);
        // Very short times prune more; their names stay plain.
        let Ok(Level::Search(s)) = Level::parse("0.015s") else {
            panic!()
        };
        assert_eq!(LEVELS[s.selectivity].1, 73);
        assert_eq!(Level::parse("0.015s").unwrap().name(), "0.015s");
        assert_eq!(Level::parse("0.015s@87").unwrap().name(), "0.015s@87");
        assert!(Level::parse("0").is_err());
        assert!(Level::parse("x").is_err());
        assert_eq!(Level::parse("8t2").unwrap().name(), "8t2");
        assert_eq!(Level::parse("8t0").unwrap().name(), "8");
    }

    #[test]
    fn level_times_under_a_millisecond_are_refused() {
        for bad in ["1e-300s", "0s", "0.0009s", "-1s", "nans", "infs", "1e6s"] {
            let e = Level::parse(bad).unwrap_err();
            assert_eq!(e, LevelError::TimeRange(bad.to_string()));
            assert!(
                e.to_string().ends_with("give 0.001 s to 1000000 s a move"),
                "{bad}: {e}"
            );
        }
        assert_eq!(Level::parse("xs").unwrap_err().to_string(), "bad time 'xs'");
        assert_eq!(Level::parse("0.001s").unwrap().name(), "0.001s");
    }

    #[test]
    fn parse_refuses_temperatures_that_are_not_numbers_of_discs() {
        for bad in [
            "8tnan",
            "8tNaN",
            "8tinf",
            "8t-inf",
            "8tinfinity",
            "8t-1",
            "8t-0.5",
        ] {
            let err = Level::parse(bad).expect_err(bad);
            assert!(
                matches!(err, LevelError::TemperatureRange(..)),
                "{bad}: {err}"
            );
            assert!(err.to_string().contains("0 or more"), "{bad}: {err}");
        }
        assert_eq!(
            Level::parse("8tx").unwrap_err(),
            LevelError::Temperature("8tx".into())
        );
    }

    #[test]
    fn softmax_prefers_better_moves() {
        let mk = |sq, value| MoveValue {
            mv: Move::Play(Square::new(sq)),
            value,
            source: SearchSource::Midgame { depth: 1 },
            pv: vec![],
        };
        let p = softmax(&[mk(1, 0), mk(2, 2 * SCALE), mk(3, -6 * SCALE)], 2.0);
        assert_eq!(p[0].0, Move::Play(Square::new(2)));
        assert!((p.iter().map(|x| x.2).sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((p[0].2 / p[1].2 - 1f64.exp()).abs() < 1e-9);
        assert!(p[2].2 < p[1].2);
    }

    #[test]
    fn time_allotment_is_sane() {
        let t = allot_time(Duration::from_secs(300), Duration::ZERO, 50);
        assert!(t > Duration::from_secs(5) && t < Duration::from_secs(40));
        assert!(allot_time(Duration::from_secs(3), Duration::ZERO, 10) <= Duration::from_secs(1));
    }
}
