//! A game clock: time left for each colour, running for the side to move.

use crate::board::Color;
use std::time::{Duration, Instant};

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

    pub fn stop(&mut self) {
        self.stop_at(Instant::now());
    }

    fn stop_at(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.left[side as usize] = self.left_at(side, now);
            self.running = None;
        }
    }

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
    fn formats() {
        assert_eq!(format_clock(Duration::from_secs(59)), "0:59");
        assert_eq!(format_clock(Duration::from_secs(600)), "10:00");
        assert_eq!(format_clock(Duration::from_secs(3725)), "1:02:05");
    }
}
