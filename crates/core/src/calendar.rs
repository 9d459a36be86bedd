//! The calendar, in one place: a day as a count from 1970-01-01 (UTC), read and written
//! as a Gregorian date (`2026-11-28`), and today by the system clock. Game records date
//! their games with it, GGF stamps its games with it, and the practice schedules by it.

use std::fmt;

/// Seconds in a day (UTC has no leap seconds in the system clock's count).
const SECONDS_PER_DAY: i64 = 86_400;

/// A calendar day, counted from 1970-01-01 (UTC): days compare and add as numbers and
/// read as `2026-11-28`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(pub i64);

impl Day {
    /// Today, by the system clock (UTC).
    pub fn today() -> Day {
        day_of(seconds_now())
    }

    /// The day `days` later.
    pub fn plus(self, days: u32) -> Day {
        Day(self.0 + i64::from(days))
    }

    /// Days from `self` to `later` (negative when `later` is earlier).
    pub fn until(self, later: Day) -> i64 {
        later.0 - self.0
    }

    /// The day's date: year, month (1 to 12) and day of the month (1 to 31).
    pub fn date(self) -> (i64, u32, u32) {
        civil_from_days(self.0)
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
        (day.date() == (y, m, d)).then_some(day)
    }
}

impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = self.date();
        write!(f, "{y:04}-{m:02}-{d:02}")
    }
}

/// The system clock's time in seconds since 1970-01-01 00:00 UTC (0 for a clock set
/// before then).
pub fn seconds_now() -> i64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The time of day of `seconds` since 1970 (UTC): hours, minutes, seconds.
pub fn time_of_day(seconds: i64) -> (i64, i64, i64) {
    let rem = seconds.rem_euclid(SECONDS_PER_DAY);
    (rem / 3600, rem / 60 % 60, rem % 60)
}

/// The day `seconds` since 1970 (UTC) fall on.
pub fn day_of(seconds: i64) -> Day {
    Day(seconds.div_euclid(SECONDS_PER_DAY))
}

/// Days since 1970-01-01 to a Gregorian date (the well-known era-based conversion).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A Gregorian date to days since 1970-01-01 (the inverse of [`civil_from_days`]).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_dates_both_ways() {
        assert_eq!(Day(0).date(), (1970, 1, 1));
        assert_eq!(Day(19_723).date(), (2024, 1, 1));
        assert_eq!(Day(11_016).date(), (2000, 2, 29));
        assert_eq!(Day(-1).date(), (1969, 12, 31));
        for days in [-800_000, -1, 0, 59, 11_016, 20_420, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
    }

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
    fn a_moment_is_a_day_and_a_time_of_day() {
        // 2026-11-22 06:30:00 UTC.
        let seconds = 1_795_329_000;
        assert_eq!(day_of(seconds).to_string(), "2026-11-22");
        assert_eq!(time_of_day(seconds), (6, 30, 0));
        assert_eq!(day_of(-1), Day(-1));
        assert_eq!(time_of_day(-1), (23, 59, 59));
        assert!(Day::today() > Day::parse("2020-01-01").unwrap());
    }
}
