//! Number formatting shared by the commands' reports.

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
    fn formats() {
        assert_eq!(fmt_duration(Duration::from_millis(1234)), "1.234 s");
        assert_eq!(
            fmt_rate(25_000_000, Duration::from_secs(2)),
            "12.5 M nodes/s"
        );
        assert_eq!(fmt_rate(5, Duration::ZERO), "0.0 M nodes/s");
    }
}
