//! When a practice position comes back: days on the calendar, and the spaced-repetition
//! ladder a position climbs when it is answered right and falls down when it is missed.

use std::fmt;

/// A calendar day, counted from 1970-01-01 (UTC): due dates compare as numbers and read
/// as `2026-11-28` in the practice file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i64);

impl Day {
    /// Today, by the system clock (UTC).
    pub fn today() -> Day {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Day((secs / 86_400) as i64)
    }

    /// The day `days` later.
    pub fn plus(self, days: u32) -> Day {
        Day(self.0 + i64::from(days))
    }

    /// Days from `self` to `later` (negative when `later` is earlier).
    pub fn until(self, later: Day) -> i64 {
        later.0 - self.0
    }

    /// Reads `YYYY-MM-DD`; `None` for anything else or a date that does not exist.
    pub fn parse(text: &str) -> Option<Day> {
        let mut parts = text.trim().splitn(3, '-');
        let y: i64 = parts.next()?.parse().ok()?;
        let m: u32 = parts.next()?.parse().ok()?;
        let d: u32 = parts.next()?.parse().ok()?;
        if !(1..=9999).contains(&y) || !(1..=12).contains(&m) || d == 0 {
            return None;
        }
        let day = Day(days_from_civil(y, m, d));
        // 2026-02-30 does not exist: it would come back as another date.
        (crate::game::record::civil_from_days(day.0) == (y, m, d)).then_some(day)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = crate::game::record::civil_from_days(self.0);
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// A Gregorian date to days since 1970-01-01 (the inverse of
/// [`civil_from_days`](crate::game::record::civil_from_days)).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The days a position waits before it comes back, one rung per right answer in a row: a
/// position missed comes back the next day, then after 3, 7, 14 days... A right answer
/// moves it one rung further out; a miss puts it back on the first.
pub const INTERVALS: [u32; 7] = [1, 3, 7, 14, 30, 60, 120];

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
    fn days_read_and_print_as_dates() {
        assert_eq!(Day(0).to_string(), "1970-01-01");
        assert_eq!(Day::parse("1970-01-01"), Some(Day(0)));
        for text in ["2026-11-27", "2000-02-29", "1999-12-31", "2100-03-01"] {
            let day = Day::parse(text).unwrap();
            assert_eq!(day.to_string(), text);
            assert_eq!(Day::parse(&day.plus(1).to_string()), Some(day.plus(1)));
        }
        assert_eq!(
            Day::parse("2026-11-27")
                .unwrap()
                .until(Day::parse("2027-01-03").unwrap()),
            37
        );
        for bad in [
            "",
            "2026",
            "2026-13-01",
            "2026-02-30",
            "2100-02-29",
            "x-1-1",
            "2026-1-0",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
    }

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
    fn a_new_position_answered_right_waits_three_days() {
        let today = Day(20_000);
        let mut s = Schedule::new(today);
        assert_eq!(s.answered(true, today), 3);
        assert_eq!(s.step, Some(1));
    }
}
