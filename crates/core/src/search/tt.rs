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

/// The buckets, in memory aligned to 2 MB and (on Linux) advised to live in huge pages:
/// the table is probed at random, and with 4 KB pages nearly every probe of a large table
/// also missed the TLB (perf on FFO #48: the probes' cache and TLB misses took a quarter
/// of the solve's time).
///
/// On Linux a table of 2 MB or more is an anonymous mapping of its own: the kernel hands
/// it out zeroed and maps its pages as they are first touched, so a large `-h` costs only
/// the memory the search reaches (writing the zeros ourselves faulted in all of it: 16 GB
/// up front at `-h 30`).
struct BucketStore {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    /// From `mmap` (freed by `munmap`), not from the global allocator.
    mapped: bool,
}

// SAFETY: the store owns its memory exclusively, like a `Box<[Bucket]>`; buckets are
// atomics, shared between threads through `&`.
unsafe impl Send for BucketStore {}
unsafe impl Sync for BucketStore {}

const HUGE_PAGE: usize = 2 << 20;

impl BucketStore {
    fn layout(len: usize) -> std::alloc::Layout {
        let bytes = (len * std::mem::size_of::<Bucket>()).max(1);
        std::alloc::Layout::from_size_align(bytes, HUGE_PAGE.min(bytes.next_power_of_two()))
            .expect("table size fits in memory")
    }

    fn zeroed(len: usize) -> BucketStore {
        let layout = Self::layout(len);
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE {
            return Self::mapped(len, layout);
        }
        // SAFETY: the layout has a non-zero size. All-zero bytes are a valid (empty)
        // bucket of atomics.
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw as *mut Bucket) else {
            std::alloc::handle_alloc_error(layout)
        };
        BucketStore {
            ptr,
            len,
            mapped: false,
        }
    }

    /// A fresh anonymous mapping of `layout.size()` bytes (a multiple of 2 MB here),
    /// aligned to 2 MB: one 2 MB more is mapped and the ends beyond the aligned range are
    /// given back.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, layout: std::alloc::Layout) -> BucketStore {
        let size = layout.size();
        // SAFETY: a new private anonymous mapping; no memory of ours is involved.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size + HUGE_PAGE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            std::alloc::handle_alloc_error(layout)
        }
        let start = raw as usize;
        let aligned = start.next_multiple_of(HUGE_PAGE);
        // SAFETY: both ranges lie in the mapping just made, outside the aligned range
        // kept, and start and end on page boundaries (mmap gives pages; HUGE_PAGE and
        // `size` are multiples of the page size).
        unsafe {
            if aligned > start {
                libc::munmap(raw, aligned - start);
            }
            let tail = start + size + HUGE_PAGE - (aligned + size);
            if tail > 0 {
                libc::munmap((aligned + size) as *mut libc::c_void, tail);
            }
            // Advice only: on failure the table works the same with small pages. It is
            // given before the memory is first touched, so its pages fault in huge.
            libc::madvise(aligned as *mut libc::c_void, size, libc::MADV_HUGEPAGE);
        }
        BucketStore {
            ptr: std::ptr::NonNull::new(aligned as *mut Bucket).expect("mmap is not null"),
            len,
            mapped: true,
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
        let layout = Self::layout(self.len);
        if self.mapped {
            // SAFETY: mapped in `mapped` with exactly this start and size.
            #[cfg(target_os = "linux")]
            unsafe {
                libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, layout.size());
            }
        } else {
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
    /// `bits` outside [`HASH_BITS`] is brought to its nearer end.
    pub fn with_bits(bits: u32) -> TranspositionTable {
        let bits = bits.clamp(*HASH_BITS.start(), *HASH_BITS.end());
        let buckets = 1usize << (bits - 2);
        TranspositionTable {
            buckets: BucketStore::zeroed(buckets),
            mask: buckets - 1,
            date: AtomicU8::new(1),
        }
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
                    slot.write(&Entry {
                        key,
                        lower: lower as i16,
                        upper: upper as i16,
                        best,
                        depth,
                        selectivity,
                        date,
                    });
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
        bucket[victim].write(&Entry {
            key,
            lower: lower as i16,
            upper: upper as i16,
            best,
            depth,
            selectivity,
            date,
        });
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
