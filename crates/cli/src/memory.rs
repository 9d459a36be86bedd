//! Sizing the transposition table to the machine: `-h 30` / `--hash-bits 30` ask for a
//! 16 GiB table, which a machine with less memory than that cannot give without swapping
//! or being killed. The commands cap the request to what the memory available allows and
//! say so on standard error. The table's size does not change any result within the
//! memory it gets (only the time), so a capped run writes the same answers.

/// Share of the available memory the table may take: at most half, the rest left to the
/// program's other needs and to the rest of the machine. (A policy, not a measurement:
/// the table's pages are mapped as the search touches them, and a long solve touches
/// nearly all of them.)
pub const TABLE_SHARE_DIVISOR: u64 = 2;

/// Bytes of memory available to new programs without swapping (`MemAvailable` of
/// `/proc/meminfo` on Linux); `None` where unknown.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_available(&text)
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn meminfo_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => n.checked_mul(1024),
        None => Some(n),
        Some(_) => None,
    }
}

/// Bytes of a table of `bits` (16 bytes an entry, `2^bits` entries).
pub fn table_bytes(bits: u32) -> u64 {
    16u64 << bits
}

/// The hash bits to use for a request of `requested` (written `flag N` on the command
/// line) given `available` bytes of memory: the request if its table takes at most
/// 1/[`TABLE_SHARE_DIVISOR`] of them (or if the memory is unknown), else the largest
/// size that does, with a one-line warning saying what was asked, what is used and why.
pub fn fit_hash_bits(flag: &str, requested: u32, available: Option<u64>) -> (u32, Option<String>) {
    let Some(available) = available else {
        return (requested, None);
    };
    let budget = available / TABLE_SHARE_DIVISOR;
    if table_bytes(requested) <= budget {
        return (requested, None);
    }
    let bits = (0..requested)
        .rev()
        .find(|&b| table_bytes(b) <= budget)
        .unwrap_or(0);
    let warning = format!(
        "okapi: warning: {flag} {requested} asks for a {} hash table, more than half of the {} of memory available; using {flag} {bits} ({})",
        size(table_bytes(requested)),
        size(available),
        size(table_bytes(bits)),
    );
    (bits, Some(warning))
}

/// The hash bits for a command's `flag N`, capped to this machine's memory; the warning,
/// if any, goes to standard error.
pub fn hash_bits_for_this_machine(flag: &str, requested: u32) -> u32 {
    let (bits, warning) = fit_hash_bits(flag, requested, available_memory());
    if let Some(w) = warning {
        errln!("{w}");
    }
    bits
}

/// `16 GiB`, `512 MiB`, `7.6 GiB`.
fn size(bytes: u64) -> String {
    const GIB: f64 = (1u64 << 30) as f64;
    const MIB: f64 = (1u64 << 20) as f64;
    let b = bytes as f64;
    if b >= GIB {
        format!("{} GiB", trim(b / GIB))
    } else if b >= MIB {
        format!("{} MiB", trim(b / MIB))
    } else {
        format!("{} KiB", trim(b / 1024.0))
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    #[test]
    fn reads_meminfo() {
        let text =
            "MemTotal:       24684084 kB\nMemFree:         1000 kB\nMemAvailable:   22901060 kB\n";
        assert_eq!(meminfo_available(text), Some(22901060 * 1024));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n"), None);
        assert_eq!(meminfo_available("MemAvailable: x kB\n"), None);
    }

    #[test]
    fn requests_within_memory_are_kept() {
        assert_eq!(fit_hash_bits("-h", 30, None), (30, None));
        assert_eq!(fit_hash_bits("-h", 18, Some(8 * GIB)), (18, None));
        // 4 GiB is exactly half of 8 GiB.
        assert_eq!(fit_hash_bits("-h", 28, Some(8 * GIB)), (28, None));
    }

    #[test]
    fn a_table_larger_than_memory_allows_is_capped_with_a_warning() {
        // -h 30 asks for 16 GiB; 6 GiB available allow 3 GiB, so 2 GiB (-h 27).
        let (bits, warning) = fit_hash_bits("-h", 30, Some(6 * GIB));
        assert_eq!(bits, 27);
        let w = warning.unwrap();
        assert_eq!(
            w,
            "okapi: warning: -h 30 asks for a 16 GiB hash table, more than half of the 6 GiB of memory available; using -h 27 (2 GiB)"
        );
        assert!(!w.contains('\n'));
        let (bits, warning) = fit_hash_bits("--hash-bits", 24, Some(300 << 20));
        assert_eq!(bits, 23);
        assert!(
            warning
                .unwrap()
                .contains("--hash-bits 24 asks for a 256 MiB")
        );
        // Tiny memory still gives a table.
        assert_eq!(fit_hash_bits("-h", 20, Some(10)).0, 0);
    }
}
