//! The fit of a ladder of `okapi match` games (`tools/level-ladder`): every level's Elo,
//! with its 95% interval, by maximum likelihood over all the pairings at once.
//!
//! A level is rated as it plays: its name (`8`, `8t2`, `0.1s`, `random`) with the solve
//! setting it played under (`solve_from`: the app's "Solve moves from N empties", 0 for the
//! level's own solving depths as the console plays it). Two entries that play the same way
//! (level 14 solves from 21 empties anyway, so a solve setting of 20 changes nothing) are
//! one player of the fit.

use crate::matches::{ELO_PER_LOGIT, expected_score};
use okapi_core::level::Level;
use okapi_core::level::ratings::LevelRating;

/// One pairing of the ladder: A's results against B over `wins + draws + losses` games.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingResult {
    /// Level A as `Level::parse` reads it.
    pub a: String,
    /// Level B.
    pub b: String,
    /// The solve setting both sides played under (see the module's notes).
    pub solve_from: u32,
    /// A's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A's losses.
    pub losses: u32,
    /// Mean seconds a move of A.
    pub a_seconds: f64,
    /// Mean seconds a move of B.
    pub b_seconds: f64,
}

impl PairingResult {
    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// What is wrong with a results file or a ladder.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum FitError {
    /// A results file's line: the file, the line's number (from 1) and what is wrong.
    #[error("{source_name}:{line}: {message}")]
    BadLine {
        /// The file's name as given.
        source_name: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// An anchor that `Level::parse` does not read, and why.
    #[error("level '{0}' is not a level: {1}")]
    BadLevel(String, okapi_core::level::LevelError),
    /// A level that no chain of pairings ties to the anchor.
    #[error("no pairing ties level {0} to the anchor {1}: the ladder needs a game between them")]
    Disconnected(String, String),
    /// The anchor is in no pairing.
    #[error("the anchor {0} played no game")]
    NoAnchor(String),
}

/// Reads the results file `tools/level-ladder` appends to: one pairing a line,
/// `a,b,solve_from,games,wins,draws,losses,a_seconds_a_move,b_seconds_a_move`; `#` starts a
/// comment. `source_name` names the file in errors.
pub fn read_results(text: &str, source_name: &str) -> Result<Vec<PairingResult>, FitError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |message: String| FitError::BadLine {
            source_name: source_name.to_string(),
            line: i + 1,
            message,
        };
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 9 {
            return Err(bad(format!(
                "{} fields, expected 9 (a,b,solve_from,games,wins,draws,losses,a_seconds,b_seconds)",
                f.len()
            )));
        }
        for name in &f[..2] {
            Level::parse(name).map_err(|e| bad(e.to_string()))?;
        }
        let count = |k: usize, what: &str| -> Result<u32, FitError> {
            f[k].parse()
                .map_err(|_| bad(format!("{what} '{}' is not a count", f[k])))
        };
        let seconds = |k: usize| -> Result<f64, FitError> {
            f[k].parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| bad(format!("'{}' is not a number of seconds", f[k])))
        };
        let r = PairingResult {
            a: f[0].to_string(),
            b: f[1].to_string(),
            solve_from: count(2, "solve_from")?,
            wins: count(4, "wins")?,
            draws: count(5, "draws")?,
            losses: count(6, "losses")?,
            a_seconds: seconds(7)?,
            b_seconds: seconds(8)?,
        };
        let games = count(3, "games")?;
        if r.games() != games || games == 0 {
            return Err(bad(format!(
                "{} wins + {} draws + {} losses is not the {games} games",
                r.wins, r.draws, r.losses
            )));
        }
        if r.a == r.b {
            return Err(bad(format!("level {} against itself", r.a)));
        }
        out.push(r);
    }
    Ok(out)
}

/// How a level plays under a solve setting: two (name, setting) pairs that give the same
/// level are the same player.
fn effective(name: &str, solve_from: u32) -> Result<Level, FitError> {
    Level::parse(name)
        .map(|l| l.solving_from(solve_from))
        .map_err(|e| FitError::BadLevel(name.to_string(), e))
}

/// Rates every level of `results` by maximum likelihood under the logistic (Elo) model,
/// a draw counting half a win, with `anchor` (played under any setting) at 0. Each pairing
/// counts one more game, a draw, so that a pairing one side won every game of keeps a
/// finite difference; it moves an even pairing not at all and a 60-0 one to 60.5-0.5
/// (+830 Elo rather than infinite). The 95% intervals are ±1.96 standard errors from the
/// curvature of the likelihood at its maximum (its inverse Hessian), so a level far from
/// the anchor in the ladder carries the errors of the steps between. Best first.
pub fn fit(results: &[PairingResult], anchor: &str) -> Result<Vec<LevelRating>, FitError> {
    let (players, pairs) = players_and_pairs(results)?;
    let anchor_level = effective(anchor, 0)?;
    let Some(a0) = players.iter().position(|p| p.0 == anchor_level) else {
        return Err(FitError::NoAnchor(anchor.to_string()));
    };
    let n = players.len();
    // Every player must be reachable from the anchor, or its rating is undetermined.
    if let Some(k) = unreached(n, a0, &pairs) {
        return Err(FitError::Disconnected(
            players[k].1.clone(),
            anchor.to_string(),
        ));
    }
    // The free players (all but the anchor) by their position in the system.
    let free: Vec<usize> = (0..n).filter(|&k| k != a0).collect();
    let slot = |k: usize| free.iter().position(|&f| f == k);
    let m = free.len();
    let (r, info) = maximum_likelihood(n, &free, &pairs);
    let mut games = vec![0u32; n];
    let mut seconds = vec![0.0f64; n];
    for (res, &(i, j, _, _)) in results.iter().zip(&pairs) {
        // Seconds weighted by games (both sides play about as many moves a game).
        seconds[i] += res.a_seconds * res.games() as f64;
        seconds[j] += res.b_seconds * res.games() as f64;
        games[i] += res.games();
        games[j] += res.games();
    }
    let mut out: Vec<LevelRating> = (0..n)
        .map(|k| {
            let sd = slot(k).map_or(0.0, |a| {
                let mut unit = vec![0.0; m];
                unit[a] = 1.0;
                solve(&info, &unit)[a].max(0.0).sqrt()
            });
            let elo = r[k] * ELO_PER_LOGIT;
            let half = 1.96 * sd * ELO_PER_LOGIT;
            LevelRating {
                level: players[k].1.clone(),
                solve_from: players[k].2,
                elo,
                low: elo - half,
                high: elo + half,
                games: games[k],
                seconds_a_move: seconds[k] / games[k].max(1) as f64,
            }
        })
        .collect();
    out.sort_by(|x, y| y.elo.total_cmp(&x.elo));
    Ok(out)
}

/// A player of the ladder: its level, and the name and the smallest setting it was seen
/// under (a level that plays the same under any setting is told as the console plays
/// it).
type Player = (Level, String, u32);

/// A pairing as the fit counts it: (player A, player B, A's points with the virtual draw,
/// games with it).
type Pair = (usize, usize, f64, f64);

/// The players of `results` and their pairings, each with its virtual draw.
fn players_and_pairs(results: &[PairingResult]) -> Result<(Vec<Player>, Vec<Pair>), FitError> {
    let mut players: Vec<Player> = Vec::new();
    let mut index = |name: &str, sf: u32| -> Result<usize, FitError> {
        let level = effective(name, sf)?;
        Ok(match players.iter().position(|p| p.0 == level) {
            Some(i) => {
                if sf < players[i].2 {
                    players[i].1 = name.to_string();
                    players[i].2 = sf;
                }
                i
            }
            None => {
                players.push((level, name.to_string(), sf));
                players.len() - 1
            }
        })
    };
    let mut pairs = Vec::with_capacity(results.len());
    for r in results {
        let i = index(&r.a, r.solve_from)?;
        let j = index(&r.b, r.solve_from)?;
        let points = r.wins as f64 + 0.5 * r.draws as f64 + 0.5;
        pairs.push((i, j, points, r.games() as f64 + 1.0));
    }
    Ok((players, pairs))
}

/// A player the pairings do not link to player `a0` (the anchor), if there is one.
fn unreached(n: usize, a0: usize, pairs: &[Pair]) -> Option<usize> {
    let mut reached = vec![false; n];
    reached[a0] = true;
    loop {
        let mut grew = false;
        for &(i, j, _, _) in pairs {
            if reached[i] != reached[j] {
                reached[i] = true;
                reached[j] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    reached.iter().position(|r| !r)
}

/// The ratings of the `n` players (in logistic units, the anchor, not in `free`, at 0)
/// that make `pairs` likeliest, and the information matrix of the `free` players there.
fn maximum_likelihood(n: usize, free: &[usize], pairs: &[Pair]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let slot = |k: usize| free.iter().position(|&f| f == k);
    let m = free.len();
    let mut r = vec![0.0f64; n];
    let mut info = vec![vec![0.0f64; m]; m];
    // Newton's method on a concave likelihood; the virtual draws keep the maximum finite.
    for _ in 0..100 {
        let mut grad = vec![0.0f64; m];
        for row in info.iter_mut() {
            row.fill(0.0);
        }
        for &(i, j, s, g) in pairs {
            let p = expected_score((r[i] - r[j]) * ELO_PER_LOGIT);
            let w = g * p * (1.0 - p);
            let (si, sj) = (slot(i), slot(j));
            if let Some(a) = si {
                grad[a] += s - g * p;
                info[a][a] += w;
            }
            if let Some(b) = sj {
                grad[b] -= s - g * p;
                info[b][b] += w;
            }
            if let (Some(a), Some(b)) = (si, sj) {
                info[a][b] -= w;
                info[b][a] -= w;
            }
        }
        let step = solve(&info, &grad);
        let mut largest = 0.0f64;
        for (k, &f) in free.iter().enumerate() {
            r[f] += step[k];
            largest = largest.max(step[k].abs());
        }
        if largest < 1e-9 {
            break;
        }
    }
    (r, info)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` symmetric
/// positive definite here, as the information matrix of a connected ladder is).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut r = row.clone();
            r.push(v);
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs()))
            .unwrap_or(c);
        m.swap(c, p);
        let d = m[c][c];
        if d.abs() < 1e-300 {
            continue;
        }
        for r in 0..n {
            if r != c {
                let f = m[r][c] / d;
                if f != 0.0 {
                    for k in c..=n {
                        m[r][k] -= f * m[c][k];
                    }
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if m[i][i].abs() < 1e-300 {
                0.0
            } else {
                m[i][n] / m[i][i]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use okapi_core::level::ratings::LevelRatings;

    /// The results a ladder would give on average if the levels had these ratings.
    fn expected_results(
        ratings: &[(&str, f64)],
        edges: &[(usize, usize)],
        games: u32,
    ) -> Vec<PairingResult> {
        edges
            .iter()
            .map(|&(i, j)| {
                let p = expected_score(ratings[i].1 - ratings[j].1);
                let wins = (p * games as f64).round() as u32;
                PairingResult {
                    a: ratings[i].0.into(),
                    b: ratings[j].0.into(),
                    solve_from: 0,
                    wins,
                    draws: 0,
                    losses: games - wins,
                    a_seconds: 0.01,
                    b_seconds: 0.02,
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_the_ratings_that_made_the_scores() {
        let truth = [
            ("random", 0.0),
            ("greedy", 150.0),
            ("1", 450.0),
            ("2", 600.0),
            ("3", 900.0),
        ];
        let edges = [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4), (3, 4)];
        let fitted = fit(&expected_results(&truth, &edges, 100_000), "random").unwrap();
        for (name, elo) in truth {
            let r = fitted.iter().find(|r| r.level == name).unwrap();
            assert!((r.elo - elo).abs() < 2.0, "{name}: {} for {elo}", r.elo);
            assert!(r.low <= r.elo && r.elo <= r.high);
        }
        assert_eq!(fitted[0].level, "3", "best first");
        let anchor = fitted.iter().find(|r| r.level == "random").unwrap();
        assert_eq!((anchor.elo, anchor.low, anchor.high), (0.0, 0.0, 0.0));
    }

    #[test]
    fn fewer_games_and_longer_chains_give_wider_intervals() {
        let truth = [("random", 0.0), ("1", 200.0), ("2", 400.0), ("3", 600.0)];
        let chain = [(0, 1), (1, 2), (2, 3)];
        let many = fit(&expected_results(&truth, &chain, 1000), "random").unwrap();
        let few = fit(&expected_results(&truth, &chain, 100), "random").unwrap();
        let width = |f: &[LevelRating], name: &str| {
            let r = f.iter().find(|r| r.level == name).unwrap();
            r.high - r.low
        };
        assert!(width(&few, "3") > 2.5 * width(&many, "3"));
        assert!(width(&many, "3") > width(&many, "2") && width(&many, "2") > width(&many, "1"));
        // One pairing of 100 games near 76%: about ±80 Elo at 95%.
        let w = width(&few, "1") / 2.0;
        assert!((60.0..100.0).contains(&w), "{w}");
    }

    #[test]
    fn a_pairing_won_every_game_stays_finite() {
        let results = vec![PairingResult {
            a: "8".into(),
            b: "random".into(),
            solve_from: 0,
            wins: 60,
            draws: 0,
            losses: 0,
            a_seconds: 0.01,
            b_seconds: 0.0,
        }];
        let f = fit(&results, "random").unwrap();
        let top = &f[0];
        assert_eq!(top.level, "8");
        // 60.5 of 61 points.
        assert!((top.elo - 830.0).abs() < 5.0, "{}", top.elo);
        assert!(top.low.is_finite() && top.high.is_finite());
    }

    #[test]
    fn levels_that_play_the_same_are_one_player() {
        // Level 14 solves from 21 empties: a solve setting of 20 changes nothing.
        let mut r = expected_results(&[("random", 0.0), ("14", 2000.0)], &[(0, 1)], 100);
        r.push(PairingResult {
            solve_from: 20,
            ..r[0].clone()
        });
        r.swap(0, 1);
        let f = fit(&r, "random").unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].games, 200);
        // Told with the smallest setting it played under.
        assert_eq!((f[0].solve_from, f[1].solve_from), (0, 0));
        let table = LevelRatings {
            anchor: "random".into(),
            measured: String::new(),
            command: String::new(),
            levels: f,
        };
        assert!(table.find(&Level::numbered(14), 20).is_some());
        assert!(table.find(&Level::numbered(14), 0).is_some());
        assert!(table.find(&Level::numbered(13), 0).is_none());
        // Level 8 solving from 20 is not level 8.
        let eight = expected_results(&[("random", 0.0), ("8", 1500.0)], &[(0, 1)], 100);
        let table = LevelRatings {
            levels: fit(&eight, "random").unwrap(),
            ..table
        };
        assert!(table.find(&Level::numbered(8), 0).is_some());
        assert!(table.find(&Level::numbered(8), 20).is_none());
    }

    #[test]
    fn a_level_not_tied_to_the_anchor_is_an_error() {
        let mut r = expected_results(&[("random", 0.0), ("1", 400.0)], &[(0, 1)], 10);
        r.extend(expected_results(&[("5", 0.0), ("6", 100.0)], &[(0, 1)], 10));
        assert!(matches!(fit(&r, "random"), Err(FitError::Disconnected(..))));
        assert!(matches!(fit(&r, "greedy"), Err(FitError::NoAnchor(_))));
    }

    #[test]
    fn results_files_are_read_and_bad_lines_told_with_their_number() {
        let text = "# comment\nrandom,greedy,0,60,23,0,37,0.00158,0.00147\n\n8t2,4,20,4,1,1,2,0.01,0.002\n";
        let r = read_results(text, "x.csv").unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[1].a.as_str(), r[1].solve_from, r[1].draws),
            ("8t2", 20, 1)
        );
        for (bad, what) in [
            ("random,greedy,0,60,23,0,36,0.1,0.1", "is not the 60 games"),
            ("random,greedy,0,60,23,0,37,0.1", "8 fields"),
            ("random,grumpy,0,60,23,0,37,0.1,0.1", "not a level"),
            ("random,greedy,0,60,x,0,37,0.1,0.1", "wins 'x'"),
            ("random,greedy,0,60,23,0,37,-1,0.1", "seconds"),
            ("4,4,0,2,1,0,1,0.1,0.1", "itself"),
        ] {
            let e = read_results(&format!("#\n{bad}\n"), "x.csv")
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("x.csv:2: ") && e.contains(what), "{bad}: {e}");
        }
    }
}
