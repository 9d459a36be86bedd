//! Number formatting shared by the commands' reports, and the parsers of the values
//! several commands take (threads, hash bits; shards are
//! [`okapi_core::shard::Shard::parse`]'s).

use std::time::Duration;

/// Seconds with millisecond precision: `1.234 s`.
pub fn fmt_duration(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// Nodes (or leaves) per second in millions: `12.3 M nodes/s`.
pub fn fmt_rate(count: u64, d: Duration) -> String {
    format!("{:.1} M nodes/s", per_second(count, d) / 1e6)
}

/// Count per second (0 for a zero duration).
pub fn per_second(count: u64, d: Duration) -> f64 {
    let s = d.as_secs_f64();
    if s > 0.0 { count as f64 / s } else { 0.0 }
}

/// A number of discs that must be finite and not negative (randomness, temperature):
/// NaN or a negative number is refused with a message instead of silently dropped.
pub fn non_negative_discs(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of discs"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("'{text}': give a number of discs, 0 or more"));
    }
    Ok(v)
}

/// A parser of a number from `lo` to `hi` (`what` names it in the message): for the
/// options whose values are counts, depths or rates, so `--positions 4294967295` (a
/// 64 GB allocation) or `--max-depth 1000` (a search for ever) is refused at once with
/// what is allowed. NaN is outside every range.
pub fn number_in<T>(
    lo: T,
    hi: T,
    what: &'static str,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let v: T = text
            .trim()
            .parse()
            .map_err(|_| format!("'{text}' is not {what}"))?;
        if !(v >= lo && v <= hi) {
            return Err(format!("'{text}': give {what} from {lo} to {hi}"));
        }
        Ok(v)
    }
}

/// The longest `okapi match --move-timeout`: a day. Longer is no limit at all, and a
/// time of 1e30 s or `inf` does not fit a duration (it panicked).
pub const MAX_MOVE_TIMEOUT: f64 = 86_400.0;

/// Seconds an external engine may take for a move: more than 0, at most
/// [`MAX_MOVE_TIMEOUT`] (NaN, negatives and 0 were quietly made 0.01 s).
pub fn parse_move_timeout(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(v > 0.0 && v <= MAX_MOVE_TIMEOUT) {
        return Err(format!(
            "'{text}': give a number of seconds more than 0 and at most {MAX_MOVE_TIMEOUT} (a day)"
        ));
    }
    Ok(v)
}

/// A number of threads, 1 to a few per core of this machine
/// ([`okapi_engine::Machine::max_threads`]): `--threads N`, `-n N`, the console's
/// `threads N`.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    parse_threads_on(text, &okapi_engine::Machine::this())
}

fn parse_threads_on(text: &str, machine: &okapi_engine::Machine) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of threads"))?;
    okapi_engine::config::check_threads(machine, n).map_err(|e| format!("'{text}': {e}"))
}

/// A table size in bits, within [`okapi_engine::config::HASH_BITS`]: `--hash-bits N`,
/// `-h N`.
pub fn parse_hash_bits(text: &str) -> Result<u32, String> {
    let n: u32 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of bits"))?;
    okapi_engine::config::check_hash_bits(n).map_err(|e| format!("'{text}': {e}"))
}

/// A range of empty squares, `LO-HI` with 0 <= LO <= HI <= 60 (`--empties 14-44`).
pub fn parse_empties_range(s: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = s
        .split_once('-')
        .ok_or_else(|| format!("expected LO-HI, such as 14-44, not {s:?}"))?;
    let lo: u32 = lo.trim().parse().map_err(|e| format!("{lo:?}: {e}"))?;
    let hi: u32 = hi.trim().parse().map_err(|e| format!("{hi:?}: {e}"))?;
    if lo > hi || hi > 60 {
        return Err(format!("expected 0 <= LO <= HI <= 60, not {s:?}"));
    }
    Ok((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discs_must_be_finite_and_not_negative() {
        assert_eq!(non_negative_discs("1.5"), Ok(1.5));
        assert_eq!(non_negative_discs("0"), Ok(0.0));
        for bad in ["nan", "NaN", "-1", "inf", "x", ""] {
            assert!(non_negative_discs(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn numbers_in_a_range() {
        let positions = number_in(1usize, 100_000, "a number of positions");
        assert_eq!(positions("300"), Ok(300));
        assert_eq!(
            positions("0"),
            Err("'0': give a number of positions from 1 to 100000".into())
        );
        assert!(positions("4294967295").is_err());
        assert!(positions("18446744073709551616").is_err());
        assert_eq!(
            positions("x"),
            Err("'x' is not a number of positions".into())
        );
        let rate = number_in(0.0f32, 1.0, "a rate");
        assert_eq!(rate("0.5"), Ok(0.5));
        for bad in ["nan", "inf", "-0.1", "1.1"] {
            assert!(rate(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn move_timeouts_are_positive_and_at_most_a_day() {
        assert_eq!(parse_move_timeout("0.5"), Ok(0.5));
        assert_eq!(parse_move_timeout("86400"), Ok(86_400.0));
        for bad in ["1e30", "inf", "nan", "NaN", "-1", "0", "x", "", "86401"] {
            assert!(parse_move_timeout(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn formats() {
        assert_eq!(fmt_duration(Duration::from_millis(1234)), "1.234 s");
        assert_eq!(
            fmt_rate(25_000_000, Duration::from_secs(2)),
            "12.5 M nodes/s"
        );
        assert_eq!(fmt_rate(5, Duration::ZERO), "0.0 M nodes/s");
    }

    #[test]
    fn threads_from_1_to_the_maximum() {
        let two_cores = okapi_engine::Machine {
            cores: 2,
            memory: None,
        };
        let parse = |t: &str| parse_threads_on(t, &two_cores);
        assert_eq!(parse("1"), Ok(1));
        assert_eq!(parse(" 8 "), Ok(8));
        let most = okapi_engine::Machine::this().max_threads();
        assert!(parse_threads(&most.to_string()).is_ok());
        assert!(parse_threads(&(most + 1).to_string()).is_err());
        assert_eq!(
            parse("0"),
            Err("'0': give a number of threads from 1 to 8 (4 per core of this machine's 2; more only slows the search)".into())
        );
        for bad in ["x", "", "-1", "1.5", "9", "1024"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_threads("two"),
            Err("'two' is not a number of threads".into())
        );
    }

    #[test]
    fn hash_bits_in_the_engine_s_one_range() {
        assert_eq!(parse_hash_bits("10"), Ok(10));
        assert_eq!(parse_hash_bits(" 30 "), Ok(30));
        assert_eq!(
            parse_hash_bits("31"),
            Err("'31': give 10 to 30 (a table of 16 KiB to 16 GiB)".into())
        );
        for bad in ["9", "0", "x", "", "-1"] {
            assert!(parse_hash_bits(bad).is_err(), "{bad}");
        }
    }
}
