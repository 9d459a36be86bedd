//! A game clock: time left for each colour, running for the side to move.

use crate::board::Color;
use crate::level::allot_time;
use crate::search::Limits;
use std::time::Duration;
use web_time::Instant;

/// Time left for Black and White, with at most one side's time running. Time is read
/// from [`Instant`] when asked, so nothing ticks in the background.
#[derive(Clone, Debug)]
pub struct Clock {
    left: [Duration; 2],
    /// The colour whose time runs, and since when.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// Both sides get `per_side`; the clock starts stopped.
    pub fn new(per_side: Duration) -> Clock {
        Clock {
            left: [per_side; 2],
            running: None,
        }
    }

    /// Time left for `side` now (never below zero).
    pub fn left(&self, side: Color) -> Duration {
        self.left_at(side, Instant::now())
    }

    fn left_at(&self, side: Color, now: Instant) -> Duration {
        let mut left = self.left[side as usize];
        if let Some((running, since)) = self.running
            && running == side
        {
            left = left.saturating_sub(now.saturating_duration_since(since));
        }
        left
    }

    /// Runs `side`'s time from now on, stopping the other's.
    pub fn run_for(&mut self, side: Color) {
        self.run_for_at(side, Instant::now());
    }

    fn run_for_at(&mut self, side: Color, now: Instant) {
        if self.running.is_some_and(|(s, _)| s == side) {
            return;
        }
        self.stop_at(now);
        self.running = Some((side, now));
    }

    /// Stops the running time, if any, keeping what is left.
    pub fn stop(&mut self) {
        self.stop_at(Instant::now());
    }

    fn stop_at(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.left[side as usize] = self.left_at(side, now);
            self.running = None;
        }
    }

    /// The colour whose time runs, if any.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(s, _)| s)
    }

    /// The side whose time is up, if any.
    pub fn flagged(&self) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|&s| self.left(s).is_zero())
    }
}

/// Time for the engine's move with `left` on its clock and `empties` empty squares:
/// [`allot_time`]'s share, less a little for the UI to receive and play the move.
pub fn clock_allotment(left: Duration, empties: u32) -> Duration {
    allot_time(left, Duration::ZERO, empties).saturating_sub(Duration::from_millis(20))
}

/// Empties from which an exact solve should finish within `time` on one core. The level's
/// own exact and WLD solves do not watch the clock (the midgame search does, and so do the
/// solves its iterations start when they reach the end), so they are used only where they
/// fit: the hardest FFO positions take about 0.6 s at 20 empties, 1-3 s at 22-23 and
/// 5-30 s at 24-26 (docs/engine.md, "Endgame"); game positions are usually easier.
pub fn solvable_empties(time: Duration) -> u32 {
    let s = time.as_secs_f64();
    match s {
        _ if s >= 20.0 => 24,
        _ if s >= 6.0 => 22,
        _ if s >= 2.0 => 20,
        _ if s >= 0.5 => 18,
        _ if s >= 0.15 => 16,
        _ => 14,
    }
}

/// Makes a search level's limits keep to `time`: the search stops by then (or by its own
/// time, if shorter), and solves only from as many empties as fit in it.
pub fn fit_to_time(limits: &mut Limits, time: Duration) {
    // The search needs a moment for its first iteration; with none it would give no move.
    let time = time.max(Duration::from_millis(10));
    limits.time = Some(limits.time.map_or(time, |own| own.min(time)));
    let cap = solvable_empties(time);
    limits.exact_empties = limits.exact_empties.min(cap);
    // Win/draw/loss costs about what an exact solve two empties fewer does.
    limits.wld_empties = limits.wld_empties.min(cap + 2).max(limits.exact_empties);
}

/// `m:ss`, or `h:mm:ss` from an hour.
pub fn format_clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_for_the_side_to_move_only() {
        let t0 = Instant::now();
        let mut c = Clock::new(Duration::from_secs(60));
        c.run_for_at(Color::Black, t0);
        c.run_for_at(Color::White, t0 + Duration::from_secs(10));
        assert_eq!(c.left[Color::Black as usize], Duration::from_secs(50));
        assert_eq!(
            c.left_at(Color::White, t0 + Duration::from_secs(15)),
            Duration::from_secs(55)
        );
        assert_eq!(
            c.left_at(Color::Black, t0 + Duration::from_secs(15)),
            Duration::from_secs(50)
        );
        c.stop_at(t0 + Duration::from_secs(100));
        assert_eq!(c.left[Color::White as usize], Duration::ZERO);
        assert_eq!(c.flagged(), Some(Color::White));
        assert_eq!(c.running(), None);
    }

    #[test]
    fn the_clock_bounds_the_search() {
        let mut limits = Limits {
            depth: 30,
            exact_empties: 24,
            wld_empties: 26,
            time: None,
        };
        // 5 minutes left at move 1: a few seconds a move, a midgame-sized solve.
        let t = clock_allotment(Duration::from_secs(300), 60);
        assert!(
            t > Duration::from_secs(5) && t < Duration::from_secs(20),
            "{t:?}"
        );
        fit_to_time(&mut limits, t);
        assert_eq!(limits.time, Some(t));
        assert_eq!(limits.depth, 30, "depth stays; the time stops it");
        assert!(limits.exact_empties < 24 && limits.exact_empties >= 18);
        assert!(limits.wld_empties >= limits.exact_empties);
        // A timed level keeps its own time when shorter.
        let mut timed = Limits {
            time: Some(Duration::from_secs(1)),
            ..limits
        };
        fit_to_time(&mut timed, Duration::from_secs(10));
        assert_eq!(timed.time, Some(Duration::from_secs(1)));
        // Seconds left: a fraction of them, and no deep solve.
        let t = clock_allotment(Duration::from_secs(2), 30);
        assert!(t < Duration::from_secs(1), "{t:?}");
        fit_to_time(&mut limits, t);
        assert!(limits.exact_empties <= 16, "{limits:?}");
        // Nothing left: zero time, never a panic.
        assert_eq!(clock_allotment(Duration::ZERO, 40), Duration::ZERO);
    }

    #[test]
    fn formats() {
        assert_eq!(format_clock(Duration::from_secs(59)), "0:59");
        assert_eq!(format_clock(Duration::from_secs(600)), "10:00");
        assert_eq!(format_clock(Duration::from_secs(3725)), "1:02:05");
    }
}
