//! The one engine configuration: the transposition table's size and the search threads,
//! checked once against the ranges Okapi takes and against this machine (its cores and its
//! memory). The app's settings file and menus, the command line's flags, `okapi nboard`,
//! the console and `okapi match` all build it with [`EngineConfig::new`] (or
//! [`EngineConfig::shared`], for engines running side by side); every way goes through
//! [`EngineConfig::shared_on`]'s checks.

/// Threads per core a search may be given. More threads than cores search no faster
/// (they take turns), and far more make every move slow: 1024 threads on this 2-core
/// machine took 90 s for a depth-8 move (found by probing with extreme inputs), well under a second
/// with 2. Four per core leaves room for tests of thread counts above the cores.
pub const THREADS_PER_CORE: usize = 4;

/// Share of the available memory the table may take: at most half, the rest left to the
/// program's other needs and to the rest of the machine. (A policy, not a measurement:
/// the table's pages are mapped as the search touches them, and a long solve touches
/// nearly all of them.)
pub const TABLE_SHARE_DIVISOR: u64 = 2;

/// What bounds a configuration on the machine it runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Cores this process may run on.
    pub cores: usize,
    /// Bytes of memory available without swapping; `None` where unknown.
    pub memory: Option<u64>,
}

impl Machine {
    /// This machine: its cores and the memory available now.
    pub fn this() -> Machine {
        Machine {
            cores: okapi_core::search::available_threads(),
            memory: available_memory(),
        }
    }

    /// The most threads a search may be given here.
    pub fn max_threads(&self) -> usize {
        self.cores.max(1).saturating_mul(THREADS_PER_CORE)
    }
}

/// Why a configuration was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "give {} to {} (a table of {} to {})",
        HASH_BITS.start(),
        HASH_BITS.end(),
        size(table_bytes(*HASH_BITS.start())),
        size(table_bytes(*HASH_BITS.end()))
    )]
    HashBits { bits: u32 },
    #[error(
        "give a number of threads from 1 to {max} ({THREADS_PER_CORE} per core of this machine's {cores}; more only slows the search)"
    )]
    Threads {
        threads: usize,
        max: usize,
        cores: usize,
    },
}

/// The table sizes taken, in bits (`2^bits` entries of 16 bytes; the app's menus show
/// this range), and the size when nothing says otherwise: the search's own.
pub use okapi_core::search::{DEFAULT_HASH_BITS, HASH_BITS};

/// A table asked for that this machine's memory could not hold, and the size used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemoryCap {
    pub requested: u32,
    pub used: u32,
    /// Bytes of memory available when the configuration was made.
    pub available: u64,
    /// Engines with a table each that share the memory (`okapi match` runs several).
    pub engines: u32,
}

impl MemoryCap {
    /// The one-line warning, naming the setting as the user wrote it (`-h`,
    /// `--hash-bits`, `hash_bits`).
    pub fn message(&self, setting: &str) -> String {
        let (requested, used) = (table_bytes(self.requested), table_bytes(self.used));
        if self.engines > 1 {
            return format!(
                "{setting} {} asks for {} hash tables of {} ({} in all), more than half of the {} of memory available; using {setting} {} ({} each)",
                self.requested,
                self.engines,
                size(requested),
                size(requested.saturating_mul(u64::from(self.engines))),
                size(self.available),
                self.used,
                size(used),
            );
        }
        format!(
            "{setting} {} asks for a {} hash table, more than half of the {} of memory available; using {setting} {} ({})",
            self.requested,
            size(requested),
            size(self.available),
            self.used,
            size(used),
        )
    }
}

/// The engine's table size and threads, within Okapi's ranges and this machine's means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EngineConfig {
    hash_bits: u32,
    threads: usize,
    capped: Option<MemoryCap>,
}

impl Default for EngineConfig {
    /// A table of 16 MiB and every core.
    fn default() -> Self {
        EngineConfig {
            hash_bits: DEFAULT_HASH_BITS,
            threads: okapi_core::search::available_threads(),
            capped: None,
        }
    }
}

impl EngineConfig {
    /// A table of `2^hash_bits` entries and `threads` search threads on this machine: an
    /// error if either is outside what Okapi takes; a table larger than half the memory
    /// available is made smaller (see [`EngineConfig::capped`]).
    pub fn new(hash_bits: u32, threads: usize) -> Result<EngineConfig, ConfigError> {
        EngineConfig::shared(hash_bits, threads, 1)
    }

    /// [`EngineConfig::new`] for each of `engines` engines running at once (see
    /// [`EngineConfig::shared_on`]).
    pub fn shared(
        hash_bits: u32,
        threads: usize,
        engines: u32,
    ) -> Result<EngineConfig, ConfigError> {
        EngineConfig::shared_on(&Machine::this(), hash_bits, threads, engines)
    }

    /// [`EngineConfig::new`] on `machine`.
    pub fn on(
        machine: &Machine,
        hash_bits: u32,
        threads: usize,
    ) -> Result<EngineConfig, ConfigError> {
        EngineConfig::shared_on(machine, hash_bits, threads, 1)
    }

    /// [`EngineConfig::new`] for each of `engines` engines running at once on `machine`
    /// (`okapi match --concurrency K` runs one per Okapi side and game): their tables
    /// together take at most half the memory available.
    pub fn shared_on(
        machine: &Machine,
        hash_bits: u32,
        threads: usize,
        engines: u32,
    ) -> Result<EngineConfig, ConfigError> {
        let requested = check_hash_bits(hash_bits)?;
        let threads = check_threads(machine, threads)?;
        let (hash_bits, capped) = fit_to_memory(requested, machine.memory, engines.max(1));
        Ok(EngineConfig {
            hash_bits,
            threads,
            capped,
        })
    }

    /// The table holds `2^hash_bits` entries of 16 bytes.
    pub fn hash_bits(&self) -> u32 {
        self.hash_bits
    }

    /// Threads every search may use.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The table asked for was larger than the memory allows: what was asked and what is
    /// used, for the front end to say.
    pub fn capped(&self) -> Option<MemoryCap> {
        self.capped
    }
}

/// A table size within [`HASH_BITS`] (a flag's own check, before the configuration is
/// made).
pub fn check_hash_bits(bits: u32) -> Result<u32, ConfigError> {
    if HASH_BITS.contains(&bits) {
        Ok(bits)
    } else {
        Err(ConfigError::HashBits { bits })
    }
}

/// A number of threads from 1 to [`Machine::max_threads`] (a flag's own check).
pub fn check_threads(machine: &Machine, threads: usize) -> Result<usize, ConfigError> {
    let max = machine.max_threads();
    if (1..=max).contains(&threads) {
        Ok(threads)
    } else {
        Err(ConfigError::Threads {
            threads,
            max,
            cores: machine.cores.max(1),
        })
    }
}

/// The request if `engines` tables of its size take at most 1/[`TABLE_SHARE_DIVISOR`] of
/// the `available` bytes (or if they are unknown), else the largest size that does (at
/// least the smallest size taken).
fn fit_to_memory(requested: u32, available: Option<u64>, engines: u32) -> (u32, Option<MemoryCap>) {
    let Some(available) = available else {
        return (requested, None);
    };
    let budget = available / TABLE_SHARE_DIVISOR / u64::from(engines);
    if table_bytes(requested) <= budget {
        return (requested, None);
    }
    let used = (*HASH_BITS.start()..requested)
        .rev()
        .find(|&b| table_bytes(b) <= budget)
        .unwrap_or(*HASH_BITS.start());
    let cap = MemoryCap {
        requested,
        used,
        available,
        engines,
    };
    (used, Some(cap))
}

/// Bytes of memory this program may still give its hash tables: the memory the machine
/// has available (below), and no more than the address space its limit leaves
/// (`ulimit -v`, RLIMIT_AS, where the system has one: at `ulimit -v 2000000` a 2 GiB table
/// aborted `okapi nboard --hash-bits 27`). `None` where neither is known.
///
/// What this program already holds counts as its own: the tables' pages it has touched
/// (its resident memory, on Linux) and the tables' address space. The app asks again at
/// every new position; counting its own table as taken halved the table once it filled
/// (then the next position started over on a new one).
pub fn available_memory() -> Option<u64> {
    let physical = platform::physical_available();
    let address_space = platform::address_space_left()
        .map(|left| left.saturating_add(okapi_core::search::live_table_bytes() as u64));
    match (physical, address_space) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(target_os = "linux")]
mod platform {
    /// `MemAvailable` (memory new programs can have without swapping) plus this
    /// process's resident memory.
    pub fn physical_available() -> Option<u64> {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let available = super::meminfo_available(&text)?;
        Some(available.saturating_add(statm_bytes(1).unwrap_or(0)))
    }

    /// The address space RLIMIT_AS leaves this process (`None`: no limit).
    pub fn address_space_left() -> Option<u64> {
        let limit = super::rlimit_address_space()?;
        Some(limit.saturating_sub(statm_bytes(0)?))
    }

    /// Field `field` of `/proc/self/statm` (0: the address space, 1: resident), in bytes.
    fn statm_bytes(field: usize) -> Option<u64> {
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let pages: u64 = statm.split_whitespace().nth(field)?.parse().ok()?;
        // SAFETY: sysconf reads a constant of the system.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        pages.checked_mul(u64::try_from(page).ok()?)
    }
}

#[cfg(target_vendor = "apple")]
mod platform {
    /// Free, inactive and purgeable pages (what macOS gives a program without paging
    /// others out), from the kernel's VM statistics.
    pub fn physical_available() -> Option<u64> {
        // SAFETY: host_statistics64 fills at most `count` words of the struct it is
        // given; the struct is plain integers, valid when zeroed.
        unsafe {
            let mut stats: libc::vm_statistics64 = std::mem::zeroed();
            let mut count = libc::HOST_VM_INFO64_COUNT;
            #[allow(deprecated)] // libc points to the mach2 crate; the call is the same
            let host = libc::mach_host_self();
            let status = libc::host_statistics64(
                host,
                libc::HOST_VM_INFO64,
                &mut stats as *mut libc::vm_statistics64 as libc::host_info64_t,
                &mut count,
            );
            if status != libc::KERN_SUCCESS {
                return None;
            }
            let page = u64::try_from(libc::sysconf(libc::_SC_PAGESIZE)).ok()?;
            let pages = u64::from(stats.free_count)
                + u64::from(stats.inactive_count)
                + u64::from(stats.purgeable_count);
            pages.checked_mul(page)
        }
    }

    /// The address space RLIMIT_AS leaves (`None`: no limit, macOS's default). The space
    /// already used is not known cheaply here, so the whole limit is taken.
    pub fn address_space_left() -> Option<u64> {
        super::rlimit_address_space()
    }
}

#[cfg(windows)]
mod platform {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};

    /// The physical memory available, and no more than the commit charge left (the
    /// table's pages are committed when it is made: beyond the commit limit the
    /// allocation fails).
    pub fn physical_available() -> Option<u64> {
        // SAFETY: GlobalMemoryStatusEx fills the struct whose size it is told.
        unsafe {
            let mut status: MEMORYSTATUSEX = std::mem::zeroed();
            status.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
            if GlobalMemoryStatusEx(&mut status) == 0 {
                return None;
            }
            Some(status.ullAvailPhys.min(status.ullAvailPageFile))
        }
    }

    /// Windows has no per-process address-space limit of the `ulimit -v` kind (job
    /// objects' limits are on committed memory, which [`physical_available`] bounds).
    pub fn address_space_left() -> Option<u64> {
        None
    }
}

#[cfg(not(any(target_os = "linux", target_vendor = "apple", windows)))]
mod platform {
    /// Not known on this system.
    pub fn physical_available() -> Option<u64> {
        None
    }

    pub fn address_space_left() -> Option<u64> {
        #[cfg(unix)]
        return super::rlimit_address_space();
        #[cfg(not(unix))]
        return None;
    }
}

/// The soft limit on this process's address space (`ulimit -v`), `None` if unlimited.
#[cfg(unix)]
fn rlimit_address_space() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    // `rlim_t` is a u64 on Linux and macOS, an i64 on some BSDs.
    #[allow(clippy::useless_conversion)]
    u64::try_from(limit.rlim_cur).ok()
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
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

/// `16 GiB`, `512 MiB`, `7.6 GiB`, `16 KiB`.
pub fn size(bytes: u64) -> String {
    const GIB: f64 = (1u64 << 30) as f64;
    const MIB: f64 = (1u64 << 20) as f64;
    let b = bytes as f64;
    let trim = |x: f64| {
        let s = format!("{x:.1}");
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
    };
    if b >= GIB {
        format!("{} GiB", trim(b / GIB))
    } else if b >= MIB {
        format!("{} MiB", trim(b / MIB))
    } else {
        format!("{} KiB", trim(b / 1024.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GIB: u64 = 1 << 30;

    fn machine(cores: usize, memory: Option<u64>) -> Machine {
        Machine { cores, memory }
    }

    #[test]
    fn reads_meminfo() {
        let text =
            "MemTotal:       24684084 kB\nMemFree:         1000 kB\nMemAvailable:   22901060 kB\n";
        assert_eq!(meminfo_available(text), Some(22901060 * 1024));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n"), None);
        assert_eq!(meminfo_available("MemAvailable: x kB\n"), None);
    }

    #[test]
    fn hash_bits_are_taken_within_one_range() {
        let m = machine(2, None);
        for bits in [10, 20, 30] {
            assert_eq!(EngineConfig::on(&m, bits, 1).unwrap().hash_bits(), bits);
        }
        for bits in [0, 9, 31, 64] {
            let e = EngineConfig::on(&m, bits, 1).unwrap_err();
            assert_eq!(e, ConfigError::HashBits { bits });
            assert_eq!(e.to_string(), "give 10 to 30 (a table of 16 KiB to 16 GiB)");
        }
    }

    #[test]
    fn threads_are_bounded_by_the_cores() {
        let m = machine(2, None);
        assert_eq!(EngineConfig::on(&m, 20, 1).unwrap().threads(), 1);
        assert_eq!(EngineConfig::on(&m, 20, 8).unwrap().threads(), 8);
        let e = EngineConfig::on(&m, 20, 1024).unwrap_err();
        assert_eq!(
            e.to_string(),
            "give a number of threads from 1 to 8 (4 per core of this machine's 2; more only slows the search)"
        );
        assert!(EngineConfig::on(&m, 20, 0).is_err());
        assert!(Machine::this().max_threads() >= THREADS_PER_CORE);
    }

    #[test]
    fn requests_within_memory_are_kept() {
        let c = EngineConfig::on(&machine(2, None), 30, 1).unwrap();
        assert_eq!((c.hash_bits(), c.capped()), (30, None));
        let c = EngineConfig::on(&machine(2, Some(8 * GIB)), 18, 1).unwrap();
        assert_eq!((c.hash_bits(), c.capped()), (18, None));
        // 4 GiB is exactly half of 8 GiB.
        let c = EngineConfig::on(&machine(2, Some(8 * GIB)), 28, 1).unwrap();
        assert_eq!((c.hash_bits(), c.capped()), (28, None));
    }

    #[test]
    fn a_table_larger_than_memory_allows_is_capped_with_a_warning() {
        // 30 asks for 16 GiB; 6 GiB available allow 3 GiB, so 2 GiB (27).
        let c = EngineConfig::on(&machine(2, Some(6 * GIB)), 30, 1).unwrap();
        assert_eq!(c.hash_bits(), 27);
        let cap = c.capped().unwrap();
        assert_eq!(
            cap.message("-h"),
            "-h 30 asks for a 16 GiB hash table, more than half of the 6 GiB of memory available; using -h 27 (2 GiB)"
        );
        let c = EngineConfig::on(&machine(2, Some(300 << 20)), 24, 1).unwrap();
        assert_eq!(c.hash_bits(), 23);
        assert!(
            c.capped()
                .unwrap()
                .message("--hash-bits")
                .contains("--hash-bits 24 asks for a 256 MiB")
        );
        // Eight engines at once share the memory: 8 GiB allow 8 tables of 512 MiB.
        let eight = EngineConfig::shared_on(&machine(2, Some(8 * GIB)), 28, 1, 8).unwrap();
        assert_eq!(eight.hash_bits(), 25);
        assert_eq!(
            eight.capped().unwrap().message("--hash-bits"),
            "--hash-bits 28 asks for 8 hash tables of 4 GiB (32 GiB in all), more than half of the 8 GiB of memory available; using --hash-bits 25 (512 MiB each)"
        );
        // Tiny memory still gives the smallest table.
        let c = EngineConfig::on(&machine(2, Some(10)), 20, 1).unwrap();
        assert_eq!(c.hash_bits(), *HASH_BITS.start());
    }
}
