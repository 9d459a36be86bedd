//! When a practice position comes back: days on the calendar, and the spaced-repetition
//! ladder a position climbs when it is answered right and falls down when it is missed.

use crate::board::Square;
use crate::calendar::Day;

/// The days a position waits before it comes back, one rung per right answer in a row: a
/// position missed comes back the next day, then after 3, 7, 14 days... A right answer
/// moves it one rung further out; a miss puts it back on the first.
pub const INTERVALS: [u32; 7] = [1, 3, 7, 14, 30, 60, 120];

/// One answer given to a position: the day, the move chosen and whether it counted as
/// found (within the tolerance of the best).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The day it was given.
    pub day: Day,
    /// The move chosen.
    pub played: Square,
    /// It counted as found.
    pub right: bool,
}

/// Right answers in a row, over every position: the run going on and the longest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Streak {
    /// Right answers since the last miss.
    pub current: u32,
    /// The longest run of right answers.
    pub best: u32,
}

impl Streak {
    /// Takes one more answer.
    pub fn take(&mut self, right: bool) {
        if right {
            self.current = self.current.saturating_add(1);
            self.best = self.best.max(self.current);
        } else {
            self.current = 0;
        }
    }
}

/// Where a position stands in the practice: when it is due and how it has gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The first day it is shown again.
    pub due: Day,
    /// The rung of [`INTERVALS`] it waits on; `None` until it is first answered.
    pub step: Option<usize>,
    /// Times answered right.
    pub right: u32,
    /// Times missed.
    pub missed: u32,
    /// The day it was last answered.
    pub last_seen: Option<Day>,
}

impl Schedule {
    /// A new position: due at once.
    pub fn new(today: Day) -> Schedule {
        Schedule {
            due: today,
            step: None,
            right: 0,
            missed: 0,
            last_seen: None,
        }
    }

    /// Is it to be shown on `today`?
    pub fn is_due(&self, today: Day) -> bool {
        self.due <= today
    }

    /// Takes an answer given on `today` and returns the days until the position comes
    /// back: a miss, 1 day (the first rung); a right answer, one rung further out (a new
    /// position answered right at the first try skips the first rung: 3 days).
    pub fn answered(&mut self, right: bool, today: Day) -> u32 {
        let last = INTERVALS.len() - 1;
        let step = if right {
            self.right += 1;
            self.step.map_or(1, |s| (s + 1).min(last))
        } else {
            self.missed += 1;
            0
        };
        self.step = Some(step);
        self.last_seen = Some(today);
        self.due = today.plus(INTERVALS[step]);
        INTERVALS[step]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misses_come_back_tomorrow_and_right_answers_move_out() {
        let today = Day::parse("2026-11-27").unwrap();
        let mut s = Schedule::new(today);
        assert!(s.is_due(today));
        // Missed: tomorrow, not today.
        assert_eq!(s.answered(false, today), 1);
        assert_eq!(s.due, today.plus(1));
        assert!(!s.is_due(today));
        assert!(s.is_due(today.plus(1)));
        // Then right, right, right: 3, 7, 14 days.
        let mut day = today.plus(1);
        for wait in [3, 7, 14] {
            assert_eq!(s.answered(true, day), wait);
            assert_eq!(s.due, day.plus(wait));
            day = s.due;
        }
        assert_eq!(
            (s.right, s.missed, s.last_seen),
            (3, 1, Some(today.plus(11)))
        );
        // A miss anywhere puts it back on the first rung.
        assert_eq!(s.answered(false, day), 1);
        assert_eq!(s.step, Some(0));
        // Right answers stop climbing at the last rung.
        for _ in 0..20 {
            s.answered(true, day);
        }
        assert_eq!(s.step, Some(INTERVALS.len() - 1));
        assert_eq!(s.due, day.plus(*INTERVALS.last().unwrap()));
    }

    #[test]
    fn a_streak_counts_right_answers_in_a_row_and_keeps_the_longest() {
        let mut s = Streak::default();
        for right in [true, true, true, false, true] {
            s.take(right);
        }
        assert_eq!(
            s,
            Streak {
                current: 1,
                best: 3
            }
        );
        s.take(false);
        assert_eq!(
            s,
            Streak {
                current: 0,
                best: 3
            }
        );
    }

    #[test]
    fn a_new_position_answered_right_waits_three_days() {
        let today = Day(20_000);
        let mut s = Schedule::new(today);
        assert_eq!(s.answered(true, today), 3);
        assert_eq!(s.step, Some(1));
    }
}
