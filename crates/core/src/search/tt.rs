//! The transposition table, shared by the midgame search and the endgame solver.
//!
//! Entries are 16 bytes, four to a 64-byte bucket (one cache line). An entry holds
//! bounds on the score found by a search of a given depth and selectivity; an endgame
//! solve is a search of depth = empties with no selectivity, so its bounds serve any
//! later query on the same position. Replacement keeps the deeper / newer entries.
//!
//! The table is shared by the threads of a parallel search without locks: an entry is
//! two atomic words, the data and the key XOR the data. A probe that reads an entry
//! while another thread writes it (or two writes that interleave) sees a key that
//! matches no position, so a torn entry is a miss, never wrong bounds.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// The table sizes Okapi takes, in bits (`2^bits` entries of 16 bytes): 16 KiB to
/// 16 GiB. Every front end checks a size against this range (`okapi_engine::EngineConfig`);
/// the table (`TranspositionTable::with_bits`) keeps any other request inside it.
pub const HASH_BITS: std::ops::RangeInclusive<u32> = 10..=30;
/// The table size every front end starts with, in bits: 2^20 entries, 16 MiB. The app's
/// settings, the engine's configuration and the command line's `--hash-bits` flags all
/// default to this one value.
pub const DEFAULT_HASH_BITS: u32 = 20;

/// No ProbCut: the bounds are proven.
pub const NO_SELECTIVITY: u8 = u8::MAX;
/// No best move stored.
pub const NO_MOVE: u8 = 64;

/// An entry as read from the table (date 0: empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The position's key ([`Board::key`](crate::board::Board::key)).
    pub key: u64,
    /// Lower bound on the score, in the units of the search that stored it.
    pub lower: i16,
    /// Upper bound on the score.
    pub upper: i16,
    /// The best move found (a square index), or [`NO_MOVE`].
    pub best: u8,
    /// Depth of the search that stored it (the empties, for an endgame solve).
    pub depth: u8,
    /// Its ProbCut level (an index into [`LEVELS`](super::probcut::LEVELS)), or
    /// [`NO_SELECTIVITY`] for proven bounds; deeper and less selective entries answer
    /// shallower and more selective probes.
    pub selectivity: u8,
    /// The search that stored it (see [`TranspositionTable::new_search`]), 0 for an empty slot.
    pub date: u8,
}

impl Entry {
    /// Everything but the key in one word.
    #[inline(always)]
    fn data(&self) -> u64 {
        self.lower as u16 as u64
            | (self.upper as u16 as u64) << 16
            | (self.best as u64) << 32
            | (self.depth as u64) << 40
            | (self.selectivity as u64) << 48
            | (self.date as u64) << 56
    }

    #[inline(always)]
    fn from_words(key_xor_data: u64, data: u64) -> Entry {
        Entry {
            key: key_xor_data ^ data,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u8,
            depth: (data >> 40) as u8,
            selectivity: (data >> 48) as u8,
            date: (data >> 56) as u8,
        }
    }
}

/// One entry in memory: the key XOR the data, then the data (all zero: empty).
#[derive(Default)]
#[repr(C)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline(always)]
    fn read(&self) -> Entry {
        let data = self.data.load(Relaxed);
        Entry::from_words(self.key_xor_data.load(Relaxed), data)
    }

    #[inline(always)]
    fn write(&self, e: &Entry) {
        let data = e.data();
        self.key_xor_data.store(e.key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Slot; 4]);

/// What a probe found: bounds usable at the asked depth, and the stored best move.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    /// `i16::MIN` when there is no lower bound.
    pub lower: i32,
    /// `i16::MAX` when there is no upper bound.
    pub upper: i32,
    /// The stored best move (a square index), or [`NO_MOVE`].
    pub best: u8,
    /// Depth of the search that stored the entry.
    pub depth: u8,
}

/// The buckets, in memory of their own from the system: the kernel hands pages out
/// zeroed and maps them as they are first touched, so a large `-h` costs only the memory
/// the search reaches (writing the zeros ourselves faulted in all of it: 16 GB up front at
/// `-h 30`). An anonymous mapping on Linux, macOS and the BSDs, `VirtualAlloc` on
/// Windows; the global allocator elsewhere and for tables under 2 MB.
///
/// Tables up to [`HUGE_PAGE_TABLES_UP_TO`] are aligned to 2 MB and, on Linux, advised to
/// live in huge pages: the table is probed at random, and with 4 KB pages nearly every
/// probe of a large table also missed the TLB (perf on FFO #48: the probes' cache and TLB
/// misses took a quarter of the solve's time). Larger tables keep small pages: the first
/// touch of a huge page zeroes 2 MB, and a search probing an 8 GB table at random touches
/// a new one at nearly every node until the whole table is resident. In the app at
/// `hash_bits` 29 the start position's analysis ran 1,687 nodes in 6.6 s while the kernel
/// zeroed pages (63% of the time in `clear_page_erms`) and the process grew to 5 GB in
/// 20 s; with small pages a probe's first touch zeroes 4 KB and the memory grows with
/// what the search stores.
struct BucketStore {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    /// From the system's pages (freed by [`BucketStore::unmap`]), not from the global
    /// allocator.
    mapped: bool,
}

// SAFETY: the store owns its memory exclusively, like a `Box<[Bucket]>`; buckets are
// atomics, shared between threads through `&`.
unsafe impl Send for BucketStore {}
unsafe impl Sync for BucketStore {}

const HUGE_PAGE: usize = 2 << 20;

/// The largest table advised into huge pages (see [`BucketStore`]): 256 MiB, `-h 24`,
/// which the kernel zeroes in well under a second however it is touched. The default
/// sizes (`-h 18` of scripts, 20 of the app, 23 of the benchmark) are below it. (Only
/// the Unix allocation reads it: Windows gives its tables ordinary pages.)
#[cfg(unix)]
pub const HUGE_PAGE_TABLES_UP_TO: usize = 256 << 20;

/// Bytes of the tables alive in this process (their address space, touched or not).
static LIVE_TABLE_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Bytes of the transposition tables alive in this process: what a front end making a
/// new configuration may count as its own (the table it replaces is given back first).
pub fn live_table_bytes() -> usize {
    LIVE_TABLE_BYTES.load(Relaxed)
}

/// The system gave no memory for a table of this many bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no memory for a hash table of {bytes} bytes")]
pub struct TableAllocError {
    /// The bytes asked for.
    pub bytes: usize,
}

impl BucketStore {
    fn layout(len: usize) -> Result<std::alloc::Layout, TableAllocError> {
        let bytes = len
            .checked_mul(std::mem::size_of::<Bucket>())
            .ok_or(TableAllocError { bytes: usize::MAX })?
            .max(1);
        std::alloc::Layout::from_size_align(bytes, HUGE_PAGE.min(bytes.next_power_of_two()))
            .map_err(|_| TableAllocError { bytes })
    }

    fn zeroed(len: usize) -> Result<BucketStore, TableAllocError> {
        let layout = Self::layout(len)?;
        let store = Self::zeroed_with(len, layout)?;
        LIVE_TABLE_BYTES.fetch_add(layout.size(), Relaxed);
        Ok(store)
    }

    fn zeroed_with(len: usize, layout: std::alloc::Layout) -> Result<BucketStore, TableAllocError> {
        #[cfg(any(unix, windows))]
        if layout.size() >= HUGE_PAGE {
            let ptr = Self::map(layout.size()).ok_or(TableAllocError {
                bytes: layout.size(),
            })?;
            return Ok(BucketStore {
                ptr,
                len,
                mapped: true,
            });
        }
        // SAFETY: the layout has a non-zero size. All-zero bytes are a valid (empty)
        // bucket of atomics.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let ptr = std::ptr::NonNull::new(raw as *mut Bucket).ok_or(TableAllocError {
            bytes: layout.size(),
        })?;
        Ok(BucketStore {
            ptr,
            len,
            mapped: false,
        })
    }

    /// A fresh anonymous mapping of `size` bytes (a multiple of 2 MB here), zeroed by
    /// the kernel; `None` when the system refuses it (the memory or the address space
    /// allowed to the process is exhausted: `ulimit -v`). Tables that get huge pages are
    /// aligned to 2 MB: one 2 MB more is mapped and the ends beyond the aligned range are
    /// given back.
    #[cfg(unix)]
    fn map(size: usize) -> Option<std::ptr::NonNull<Bucket>> {
        let huge = size <= HUGE_PAGE_TABLES_UP_TO;
        let extra = if huge { HUGE_PAGE } else { 0 };
        // SAFETY: a new private anonymous mapping; no memory of ours is involved.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size.checked_add(extra)?,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANON,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let start = raw as usize;
        let aligned = if huge {
            start.next_multiple_of(HUGE_PAGE)
        } else {
            start
        };
        // SAFETY: both ranges lie in the mapping just made, outside the aligned range
        // kept, and start and end on page boundaries (mmap gives pages; HUGE_PAGE and
        // `size` are multiples of the page size).
        unsafe {
            if aligned > start {
                libc::munmap(raw, aligned - start);
            }
            let tail = start + size + extra - (aligned + size);
            if tail > 0 {
                libc::munmap((aligned + size) as *mut libc::c_void, tail);
            }
            // Advice only: on failure the table works the same with small pages. It is
            // given before the memory is first touched, so its pages fault in huge.
            #[cfg(target_os = "linux")]
            if huge {
                libc::madvise(aligned as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
            }
        }
        std::ptr::NonNull::new(aligned as *mut Bucket)
    }

    /// Committed pages of `size` bytes from `VirtualAlloc`, zeroed by the system as they
    /// are first touched (and aligned to 64 KB); `None` when the commit limit (memory and
    /// page file) cannot hold them.
    #[cfg(windows)]
    fn map(size: usize) -> Option<std::ptr::NonNull<Bucket>> {
        use windows_sys::Win32::System::Memory::{
            MEM_COMMIT, MEM_RESERVE, PAGE_READWRITE, VirtualAlloc,
        };
        // SAFETY: a new allocation of the process's own address space; no memory of
        // ours is involved.
        let raw = unsafe {
            VirtualAlloc(
                std::ptr::null(),
                size,
                MEM_RESERVE | MEM_COMMIT,
                PAGE_READWRITE,
            )
        };
        std::ptr::NonNull::new(raw as *mut Bucket)
    }

    /// Gives back what [`BucketStore::map`] made.
    #[cfg(any(unix, windows))]
    fn unmap(&mut self) {
        let size = Self::layout(self.len).map_or(0, |l| l.size());
        // SAFETY: `map` made exactly this range (its start and size), and the store is
        // being dropped: nothing refers to it any more.
        #[cfg(unix)]
        unsafe {
            libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, size);
        }
        #[cfg(windows)]
        {
            let _ = size;
            // SAFETY: as above; MEM_RELEASE takes the allocation's base and size 0.
            unsafe {
                windows_sys::Win32::System::Memory::VirtualFree(
                    self.ptr.as_ptr() as *mut core::ffi::c_void,
                    0,
                    windows_sys::Win32::System::Memory::MEM_RELEASE,
                );
            }
        }
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `len` initialised buckets live at `ptr` for the store's lifetime.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for BucketStore {
    fn drop(&mut self) {
        if let Ok(layout) = Self::layout(self.len) {
            LIVE_TABLE_BYTES.fetch_sub(layout.size(), Relaxed);
        }
        if self.mapped {
            #[cfg(any(unix, windows))]
            self.unmap();
        } else if let Ok(layout) = Self::layout(self.len) {
            // SAFETY: allocated in `zeroed` with this very layout.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout) };
        }
    }
}

/// The transposition table: a power of two of 64-byte buckets of four entries, shared
/// without locks by the threads of a search (see the module doc).
pub struct TranspositionTable {
    buckets: BucketStore,
    mask: usize,
    date: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `16 << bits` bytes (`2^bits` entries), the scrZebra `-h` meaning;
    /// `bits` outside [`HASH_BITS`] is brought to its nearer end. When the system cannot
    /// give that much memory (a process limit, `ulimit -v`), the largest smaller table it
    /// can give is made instead ([`TranspositionTable::bits`] says which): a smaller table
    /// searches a little slower, where aborting lost the program. Only when not even the
    /// smallest size can be had does the allocation fail as any other would.
    pub fn with_bits(bits: u32) -> TranspositionTable {
        let bits = bits.clamp(*HASH_BITS.start(), *HASH_BITS.end());
        let mut last = None;
        for b in (*HASH_BITS.start()..=bits).rev() {
            match TranspositionTable::try_with_bits(b) {
                Ok(table) => return table,
                Err(e) => last = Some(e),
            }
        }
        let bytes = last.map_or(1, |e| e.bytes);
        std::alloc::handle_alloc_error(
            std::alloc::Layout::from_size_align(bytes, 1).expect("a byte count is a layout"),
        )
    }

    /// A table of exactly `16 << bits` bytes, or the error when the system has not the
    /// memory for it; `bits` outside [`HASH_BITS`] is brought to its nearer end.
    pub fn try_with_bits(bits: u32) -> Result<TranspositionTable, TableAllocError> {
        let bits = bits.clamp(*HASH_BITS.start(), *HASH_BITS.end());
        let buckets = 1usize << (bits - 2);
        Ok(TranspositionTable {
            buckets: BucketStore::zeroed(buckets)?,
            mask: buckets - 1,
            date: AtomicU8::new(1),
        })
    }

    /// The table's size in bits: it holds `2^bits` entries of 16 bytes.
    pub fn bits(&self) -> u32 {
        (self.buckets.len * 4).trailing_zeros()
    }

    /// Bytes of memory the table holds (its buckets).
    pub fn size_bytes(&self) -> usize {
        self.buckets.len * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything (not to be called while a search runs).
    pub fn clear(&self) {
        for b in self.buckets.as_slice() {
            for slot in &b.0 {
                slot.write(&Entry::default());
            }
        }
        self.date.store(1, Relaxed);
    }

    /// Starts a new search: entries of older searches become first to go.
    pub fn new_search(&self) {
        let date = self.date.load(Relaxed);
        self.date.store(date.wrapping_add(1).max(1), Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // High bits pick the bucket; the full key is checked in the entry.
        &self.buckets.as_slice()[(key >> 20) as usize & self.mask]
    }

    /// Asks the CPU to fetch the bucket of `key` into the cache ahead of the probe (a no-op
    /// off x86-64).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::board::cpu::prefetch(self.bucket(key));
    }

    /// Looks up a position. Bounds come back only if the entry's search was at least as
    /// deep and as sure as asked; the best move comes back in any case.
    #[inline]
    pub fn probe(&self, key: u64, depth: u8, selectivity: u8) -> Option<Probe> {
        let b = self.bucket(key);
        for slot in &b.0 {
            let e = slot.read();
            if e.key == key && e.date != 0 {
                return Some(if e.depth >= depth && e.selectivity >= selectivity {
                    Probe {
                        lower: e.lower as i32,
                        upper: e.upper as i32,
                        best: e.best,
                        depth: e.depth,
                    }
                } else {
                    Probe {
                        lower: i16::MIN as i32,
                        upper: i16::MAX as i32,
                        best: e.best,
                        depth: e.depth,
                    }
                });
            }
        }
        None
    }

    /// Stores the result of a search of `key` in window (`alpha`, `beta`) that returned `score`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        depth: u8,
        selectivity: u8,
        alpha: i32,
        beta: i32,
        score: i32,
        best: u8,
    ) {
        let (lower, upper) = if score >= beta {
            (score, i16::MAX as i32)
        } else if score <= alpha {
            (i16::MIN as i32, score)
        } else {
            (score, score)
        };
        let date = self.date.load(Relaxed);
        let entry = Entry {
            key,
            lower: lower as i16,
            upper: upper as i16,
            best,
            depth,
            selectivity,
            date,
        };
        let bucket = &self.bucket(key).0;
        // Same position: refine (same depth) or replace (deeper or surer).
        for slot in bucket {
            let mut e = slot.read();
            if e.key == key && e.date != 0 {
                if e.depth == depth && e.selectivity == selectivity {
                    e.lower = e.lower.max(lower as i16);
                    e.upper = e.upper.min(upper as i16);
                    if e.lower > e.upper {
                        // Bounds from different windows disagree only through search
                        // instability; trust the newer result.
                        e.lower = lower as i16;
                        e.upper = upper as i16;
                    }
                    if best != NO_MOVE {
                        e.best = best;
                    }
                    e.date = date;
                    slot.write(&e);
                    return;
                }
                if (depth, selectivity) >= (e.depth, e.selectivity) {
                    // A search that found no best move keeps the one known before.
                    let best = if best == NO_MOVE { e.best } else { best };
                    slot.write(&Entry { best, ..entry });
                } else if e.best == NO_MOVE {
                    e.best = best;
                    slot.write(&e);
                }
                return;
            }
        }
        // Otherwise replace the least valuable: stale first, then shallowest.
        let mut victim = 0;
        let mut worst = u32::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let e = slot.read();
            let fresh = (e.date == date) as u32;
            let value = if e.date == 0 {
                0
            } else {
                1 + fresh * 256 + e.depth as u32
            };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        bucket[victim].write(&entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resident memory of this process, in bytes.
    #[cfg(target_os = "linux")]
    fn resident_bytes() -> u64 {
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
        let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
        pages * 4096
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_large_table_costs_only_what_is_touched() {
        // 1 GB asked: making it must not write it all (it did, zeroing by hand).
        let before = resident_bytes();
        let tt = TranspositionTable::with_bits(26);
        let grown = resident_bytes().saturating_sub(before);
        assert!(grown < 256 << 20, "making the table took {grown} bytes");
        assert_eq!(tt.size_bytes(), 1 << 30);
        // It reads as empty and works at both ends.
        assert!(tt.probe(0, 0, 0).is_none());
        assert!(tt.probe(u64::MAX, 0, 0).is_none());
        tt.store(u64::MAX, 10, NO_SELECTIVITY, -5, -4, 3, 19);
        assert_eq!(tt.probe(u64::MAX, 10, NO_SELECTIVITY).unwrap().best, 19);
    }

    #[test]
    fn memory_limits_an_impossible_table_is_an_error_not_an_abort() {
        // 2^50 buckets: more than any address space; the size overflows further up.
        assert!(BucketStore::zeroed(1 << 50).is_err());
        assert!(BucketStore::zeroed(usize::MAX / 8).is_err());
        let before = live_table_bytes();
        let tt = TranspositionTable::try_with_bits(12).unwrap();
        assert_eq!((tt.bits(), tt.size_bytes()), (12, 16 << 12));
        assert!(live_table_bytes() >= before + (16 << 12));
    }

    /// Run by [`memory_limits_a_table_over_the_limit_falls_back_to_a_smaller_one`] in a
    /// process of its own under a limit: makes a 4 GiB table and says what it got.
    #[test]
    #[ignore = "run by memory_limits_a_table_over_the_limit_falls_back_to_a_smaller_one"]
    fn table_under_a_limit_in_a_child_process() {
        let tt = TranspositionTable::with_bits(28);
        println!("table bits {}", tt.bits());
        tt.store(u64::MAX, 10, NO_SELECTIVITY, -5, -4, 3, 19);
        assert_eq!(tt.probe(u64::MAX, 10, NO_SELECTIVITY).unwrap().best, 19);
    }

    #[test]
    #[cfg(unix)]
    fn memory_limits_a_table_over_the_limit_falls_back_to_a_smaller_one() {
        use std::os::unix::process::CommandExt;
        // This test binary again, running only the test above, with 1 GiB of address
        // space (`ulimit -v 1048576`): the 4 GiB table cannot be mapped.
        let mut child = std::process::Command::new(std::env::current_exe().unwrap());
        child.args([
            "--ignored",
            "--exact",
            "search::tt::tests::table_under_a_limit_in_a_child_process",
            "--nocapture",
            "--test-threads",
            "1",
        ]);
        // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            child.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 1 << 30,
                    rlim_max: 1 << 30,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = child.output().unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{:?}: {said}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let bits: u32 = said
            .lines()
            .find_map(|l| l.split("table bits ").nth(1))
            .unwrap_or_else(|| panic!("no table made: {said}"))
            .trim()
            .parse()
            .unwrap();
        assert!(
            (20..28).contains(&bits),
            "a table of {bits} bits under 1 GiB"
        );
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::with_bits(10);
        tt.store(42, 10, NO_SELECTIVITY, -5, -4, 3, 19);
        let p = tt.probe(42, 10, NO_SELECTIVITY).unwrap();
        assert_eq!((p.lower, p.best), (3, 19));
        assert!(p.upper >= 64);
        tt.store(42, 10, NO_SELECTIVITY, 10, 11, 6, NO_MOVE);
        let p = tt.probe(42, 10, NO_SELECTIVITY).unwrap();
        assert_eq!((p.lower, p.upper, p.best), (3, 6, 19));
        // shallower request sees bounds, deeper only the move
        assert_eq!(tt.probe(42, 8, 0).unwrap().lower, 3);
        assert!(tt.probe(42, 12, NO_SELECTIVITY).unwrap().lower < -64);
        assert!(tt.probe(43, 1, 0).is_none());
    }

    #[test]
    fn a_torn_entry_matches_no_position() {
        let tt = TranspositionTable::with_bits(10);
        tt.store(42, 10, NO_SELECTIVITY, -5, -4, 3, 19);
        tt.store(42 + (1 << 40), 12, NO_SELECTIVITY, 0, 1, -8, 7);
        // Half of one entry written over the other, as two threads writing the same slot
        // at once might leave it: neither key finds bounds in it.
        let slots = &tt.bucket(42).0;
        let (a, b) = (slots[0].read(), slots[1].read());
        assert_eq!((a.key, b.key), (42, 42 + (1 << 40)));
        slots[0].data.store(b.data(), Relaxed);
        assert!(tt.probe(42, 0, 0).is_none());
        assert_eq!(tt.probe(42 + (1 << 40), 0, 0).unwrap().upper, -8);
        slots[0].key_xor_data.store(b.key ^ a.data(), Relaxed);
        slots[0].data.store(a.data(), Relaxed);
        assert!(tt.probe(42, 0, 0).is_none());
    }

    #[test]
    fn threads_storing_at_once_never_read_wrong_bounds() {
        // Two threads write and read the same small table; every position's bounds are a
        // function of its key, so any hit with other bounds would be a torn read.
        let tt = TranspositionTable::with_bits(10);
        let bounds_of = |key: u64| ((key % 61) as i32 - 30, (key % 7) as u8);
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = &tt;
                s.spawn(move || {
                    let mut rng =
                        crate::board::random::XorShift64::from_state(0x9E37_79B9_7F4A_7C15u64 ^ t);
                    for _ in 0..200_000 {
                        let x = rng.next_u64();
                        // Few distinct keys, all in few buckets: many collisions.
                        let key = ((x % 64) << 20) | (x % 5);
                        let (score, best) = bounds_of(key);
                        tt.store(key, 20, NO_SELECTIVITY, score - 1, score + 1, score, best);
                        if let Some(p) = tt.probe(key ^ 1, 20, NO_SELECTIVITY) {
                            let (score, best) = bounds_of(key ^ 1);
                            assert_eq!((p.lower, p.upper, p.best), (score, score, best));
                        }
                    }
                });
            }
        });
    }
}
