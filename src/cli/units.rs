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

/// One share of a batch split across machines: `--shard K/N` is share `K` (1 to `N`) of
/// `N`; it takes the items (games, positions, searches) whose number is `K - 1` modulo `N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based: `--shard 1/4` has index 0.
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether item `i` (0-based) is this shard's.
    pub fn contains(&self, i: usize) -> bool {
        i % self.count == self.index
    }
}

/// Reads `K/N` (1 <= K <= N): the numbering of Slurm's `--array=1-N` and of GNU
/// parallel's `{#}`.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let (k, n) = text
        .trim()
        .split_once('/')
        .ok_or_else(|| format!("'{text}': give the shard as K/N, e.g. 2/8"))?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("'{text}': K in K/N must be a whole number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("'{text}': N in K/N must be a whole number"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!(
            "'{text}': the shard K/N needs 1 <= K <= N (shards are numbered from 1)"
        ));
    }
    Ok(Shard {
        index: k - 1,
        count: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_numbered_from_one_and_split_by_remainder() {
        let s = parse_shard("2/3").unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        let mine: Vec<usize> = (0..8).filter(|&i| s.contains(i)).collect();
        assert_eq!(mine, [1, 4, 7]);
        assert_eq!(parse_shard(" 1/1 "), Ok(Shard { index: 0, count: 1 }));
        for bad in ["0/3", "4/3", "1/0", "3", "a/3", "1/b", "", "-1/3", "1/3/4"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

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
