//! The data the threads of a parallel solve share: split points and the pool of threads
//! (see [`super::parallel`] for the search that uses them).

use crate::board::Board;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// A node whose younger brothers several threads search.
pub(super) struct SplitPoint {
    pub(super) board: Board,
    pub(super) alpha: i32,
    pub(super) empties: u32,
    /// The ProbCut pass (`endcut`, table tag) the node is searched in.
    pub(super) endcut: usize,
    pub(super) tag: u8,
    /// The moves left, best first: (square, flipped discs).
    pub(super) moves: Vec<(u32, u64)>,
    /// The next move to hand out.
    pub(super) next: AtomicUsize,
    /// The best value found and its move.
    pub(super) result: Mutex<(i32, u8)>,
    /// A child refuted the node: the others are useless now.
    pub(super) cut: AtomicBool,
    /// Threads working here, the owner included.
    pub(super) workers: AtomicUsize,
    /// The split point the owner was working under when it opened this one.
    pub(super) parent: Option<Arc<SplitPoint>>,
}

impl SplitPoint {
    /// Is the work here useless: a cut here or at any split point above?
    #[inline]
    pub(super) fn aborted(&self) -> bool {
        let mut sp = self;
        loop {
            if sp.cut.load(Ordering::Relaxed) {
                return true;
            }
            match &sp.parent {
                Some(p) => sp = p,
                None => return false,
            }
        }
    }

    pub(super) fn is_below(&self, ancestor: &SplitPoint) -> bool {
        let mut sp = self.parent.as_deref();
        while let Some(p) = sp {
            if std::ptr::eq(p, ancestor) {
                return true;
            }
            sp = p.parent.as_deref();
        }
        false
    }

    pub(super) fn has_work(&self) -> bool {
        !self.cut.load(Ordering::Relaxed) && self.next.load(Ordering::Relaxed) < self.moves.len()
    }

    pub(super) fn record(&self, value: i32, sq: u32) {
        let mut r = self.result.lock().unwrap_or_else(|e| e.into_inner());
        if value > r.0 {
            *r = (value, sq as u8);
            if value > self.alpha {
                self.cut.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// What the threads of one parallel search share besides the table.
pub(super) struct Pool {
    /// Split points that helpers may join.
    pub(super) open: Mutex<Vec<Arc<SplitPoint>>>,
    /// `open.len()`, read without the lock by waiting threads.
    pub(super) open_count: AtomicUsize,
    /// Threads looking for work: idle helpers and owners waiting for their helpers.
    pub(super) idle: AtomicUsize,
    /// The search is over: helpers leave.
    pub(super) done: AtomicBool,
    /// Idle helpers that have waited long sleep on this until a split point opens.
    pub(super) wake: Condvar,
    /// Helpers asleep on `wake`.
    pub(super) asleep: AtomicUsize,
}

impl Pool {
    pub(super) fn new() -> Pool {
        Pool {
            open: Mutex::new(Vec::new()),
            open_count: AtomicUsize::new(0),
            idle: AtomicUsize::new(0),
            done: AtomicBool::new(false),
            wake: Condvar::new(),
            asleep: AtomicUsize::new(0),
        }
    }

    #[inline]
    pub(super) fn has_idle(&self) -> bool {
        self.idle.load(Ordering::Relaxed) > 0
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn publish(&self, sp: &Arc<SplitPoint>) {
        let mut open = self.lock();
        open.push(sp.clone());
        self.open_count.store(open.len(), Ordering::Release);
        if self.asleep.load(Ordering::Relaxed) > 0 {
            self.wake.notify_all();
        }
    }

    /// Waits for a split point to open (or the search to end), for a while at most.
    pub(super) fn sleep(&self) {
        let open = self.lock();
        if open.is_empty() && !self.done.load(Ordering::Acquire) {
            self.asleep.fetch_add(1, Ordering::Relaxed);
            // (The timeout covers a wake-up lost to the race with the search's end.)
            let _ = self.wake.wait_timeout(open, Duration::from_millis(1));
            self.asleep.fetch_sub(1, Ordering::Relaxed);
        }
    }

    pub(super) fn close(&self, sp: &Arc<SplitPoint>) {
        let mut open = self.lock();
        open.retain(|o| !Arc::ptr_eq(o, sp));
        self.open_count.store(open.len(), Ordering::Release);
    }

    /// Joins an open split point with work left that `accept` accepts, the one with the
    /// most empties (the most work) first.
    pub(super) fn join(&self, accept: impl Fn(&SplitPoint) -> bool) -> Option<Arc<SplitPoint>> {
        if self.open_count.load(Ordering::Acquire) == 0 {
            return None;
        }
        let open = self.lock();
        let sp = open
            .iter()
            .filter(|sp| sp.has_work() && accept(sp))
            .max_by_key(|sp| sp.empties)?;
        // Under the lock: the owner closes the split point under it too, and then waits
        // only for the workers counted by then.
        sp.workers.fetch_add(1, Ordering::Relaxed);
        Some(sp.clone())
    }
}

/// Sets `done` when the search ends, even by a panic, so that the helpers leave and the
/// scope that joins them can end.
pub(super) struct Finish<'a>(pub(super) &'a Pool);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.done.store(true, Ordering::Release);
        self.0.wake.notify_all();
    }
}

/// Waits a little for work: spins first (work comes often and soon), then yields the
/// core to other processes; after [`SPINS_BEFORE_SLEEP`] the thread sleeps instead, so
/// that a long wait does not take the core from the threads at work (on a busy machine,
/// from this process's own).
#[inline]
pub(super) fn pause(spins: &mut u32) {
    *spins += 1;
    if *spins < 1 << 10 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// Waits for work that last longer than this many pauses (some milliseconds) sleep.
pub(super) const SPINS_BEFORE_SLEEP: u32 = 1 << 12;
