//! The endgame solver on several threads: Young Brothers Wait (YBWC) with split points.
//!
//! A null-window node with enough empties, once its eldest brother is searched without a
//! cut-off, may become a *split point* when a thread is idle: its younger brothers are
//! then taken one by one by the node's owner and by the helpers that join, each with the
//! node's null window. A child that refutes the node (a cut) ends the split point: the
//! threads still searching under it see the cut at their next node and give up (their
//! unfinished subtrees store nothing in the table). The owner waits for its helpers
//! before going on; while it waits, it helps at split points opened under its own
//! ("helpful master"), so that no thread sits idle while the work left is below it.
//!
//! All threads share the lockless transposition table and the stop flag; each has its own
//! [`EndgameSolver`] for the rest (node count, ProbCut pass, evaluation state).

use super::endgame::EndgameSolver;
use super::ordering::Candidate;
use crate::board::Board;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// A node whose younger brothers several threads search.
pub(super) struct SplitPoint {
    board: Board,
    alpha: i32,
    empties: u32,
    /// The ProbCut pass (`endcut`, table tag) the node is searched in.
    endcut: usize,
    tag: u8,
    /// The moves left, best first: (square, flipped discs).
    moves: Vec<(u32, u64)>,
    /// The next move to hand out.
    next: AtomicUsize,
    /// The best value found and its move.
    result: Mutex<(i32, u8)>,
    /// A child refuted the node: the others are useless now.
    cut: AtomicBool,
    /// Threads working here, the owner included.
    workers: AtomicUsize,
    /// The split point the owner was working under when it opened this one.
    parent: Option<Arc<SplitPoint>>,
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

    fn is_below(&self, ancestor: &SplitPoint) -> bool {
        let mut sp = self.parent.as_deref();
        while let Some(p) = sp {
            if std::ptr::eq(p, ancestor) {
                return true;
            }
            sp = p.parent.as_deref();
        }
        false
    }

    fn has_work(&self) -> bool {
        !self.cut.load(Ordering::Relaxed) && self.next.load(Ordering::Relaxed) < self.moves.len()
    }

    fn record(&self, value: i32, sq: u32) {
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
    open: Mutex<Vec<Arc<SplitPoint>>>,
    /// `open.len()`, read without the lock by waiting threads.
    open_count: AtomicUsize,
    /// Threads looking for work: idle helpers and owners waiting for their helpers.
    idle: AtomicUsize,
    /// The search is over: helpers leave.
    done: AtomicBool,
    /// Idle helpers that have waited long sleep on this until a split point opens.
    wake: Condvar,
    /// Helpers asleep on `wake`.
    asleep: AtomicUsize,
}

impl Pool {
    fn new() -> Pool {
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

    fn lock(&self) -> MutexGuard<'_, Vec<Arc<SplitPoint>>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn publish(&self, sp: &Arc<SplitPoint>) {
        let mut open = self.lock();
        open.push(sp.clone());
        self.open_count.store(open.len(), Ordering::Release);
        if self.asleep.load(Ordering::Relaxed) > 0 {
            self.wake.notify_all();
        }
    }

    /// Waits for a split point to open (or the search to end), for a while at most.
    fn sleep(&self) {
        let open = self.lock();
        if open.is_empty() && !self.done.load(Ordering::Acquire) {
            self.asleep.fetch_add(1, Ordering::Relaxed);
            // (The timeout covers a wake-up lost to the race with the search's end.)
            let _ = self.wake.wait_timeout(open, Duration::from_millis(1));
            self.asleep.fetch_sub(1, Ordering::Relaxed);
        }
    }

    fn close(&self, sp: &Arc<SplitPoint>) {
        let mut open = self.lock();
        open.retain(|o| !Arc::ptr_eq(o, sp));
        self.open_count.store(open.len(), Ordering::Release);
    }

    /// Joins an open split point with work left that `accept` accepts, the one with the
    /// most empties (the most work) first.
    fn join(&self, accept: impl Fn(&SplitPoint) -> bool) -> Option<Arc<SplitPoint>> {
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
struct Finish<'a>(&'a Pool);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        self.0.done.store(true, Ordering::Release);
        self.0.wake.notify_all();
    }
}

impl EndgameSolver {
    /// Runs `search` on this solver with `threads() - 1` helper threads that join its
    /// split points; their nodes are added to this solver's, and each thread's nodes are
    /// kept for [`thread_nodes`](EndgameSolver::thread_nodes).
    pub(super) fn with_helpers<R>(&mut self, search: impl FnOnce(&mut Self) -> R) -> R {
        let pool = Arc::new(Pool::new());
        let helpers: Vec<EndgameSolver> = (1..self.threads())
            .map(|_| self.helper(pool.clone()))
            .collect();
        let nodes_before = self.nodes();
        let (result, helper_nodes) = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .into_iter()
                .map(|mut h| {
                    scope.spawn(move || {
                        h.help();
                        h.nodes()
                    })
                })
                .collect();
            let finish = Finish(&pool);
            self.set_pool(Some(pool.clone()));
            let result = search(self);
            self.set_pool(None);
            drop(finish);
            let nodes: Vec<u64> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            (result, nodes)
        });
        let mut per_thread = vec![self.nodes() - nodes_before];
        per_thread.extend(&helper_nodes);
        self.add_helper_nodes(helper_nodes.iter().sum(), per_thread);
        result
    }

    /// A helper's life: join split points until the search is over.
    fn help(&mut self) {
        let pool = self.pool().expect("a helper has a pool").clone();
        self.help_while(
            &pool,
            || !pool.done.load(Ordering::Acquire),
            |_| true,
            || pool.sleep(),
        );
    }

    /// Counted idle while `busy` holds: works at the split points `accept` takes, and
    /// between them spins, yields, then waits with `sleep`.
    fn help_while(
        &mut self,
        pool: &Pool,
        busy: impl Fn() -> bool,
        accept: impl Fn(&SplitPoint) -> bool,
        sleep: impl Fn(),
    ) {
        pool.idle.fetch_add(1, Ordering::Relaxed);
        let mut spins = 0u32;
        while busy() {
            match pool.join(&accept) {
                Some(sp) => {
                    pool.idle.fetch_sub(1, Ordering::Relaxed);
                    self.work_as_helper(&sp);
                    pool.idle.fetch_add(1, Ordering::Relaxed);
                    spins = 0;
                }
                None if spins < SPINS_BEFORE_SLEEP => pause(&mut spins),
                None => sleep(),
            }
        }
        pool.idle.fetch_sub(1, Ordering::Relaxed);
    }

    /// Searches moves of `sp`, joined as a helper, until none is left, then leaves it.
    fn work_as_helper(&mut self, sp: &Arc<SplitPoint>) {
        let saved = self.enter(sp);
        self.search_moves_of(sp);
        sp.workers.fetch_sub(1, Ordering::Release);
        self.leave(saved);
    }

    /// Makes `b` (with `alpha`, at `empties`) a split point and searches `rest`, its
    /// moves not yet searched, with whichever threads join. Returns the best value and
    /// move among `rest` (`stopped` is set if the search was stopped or made useless by a
    /// cut above).
    pub(super) fn split(
        &mut self,
        b: Board,
        alpha: i32,
        empties: u32,
        rest: &mut [Candidate],
    ) -> (i32, u8) {
        rest.sort_by_key(|c| std::cmp::Reverse(c.value));
        let (endcut, tag) = self.pass();
        let sp = Arc::new(SplitPoint {
            board: b,
            alpha,
            empties,
            endcut,
            tag,
            moves: rest.iter().map(|c| (c.sq, c.flipped)).collect(),
            next: AtomicUsize::new(0),
            result: Mutex::new((-super::endgame::INF, super::tt::NO_MOVE)),
            cut: AtomicBool::new(false),
            workers: AtomicUsize::new(1),
            parent: self.split_point().cloned(),
        });
        let pool = self
            .pool()
            .expect("split only in a parallel search")
            .clone();
        pool.publish(&sp);
        let saved = self.enter(&sp);
        self.search_moves_of(&sp);
        pool.close(&sp);
        // Helpful master: while helpers are still at work here, help at the split points
        // they open below.
        self.help_while(
            &pool,
            || sp.workers.load(Ordering::Acquire) > 1,
            |o| o.is_below(&sp),
            || std::thread::sleep(Duration::from_micros(100)),
        );
        self.leave(saved);
        *sp.result.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the moves of `sp` one by one until none is left or the work is useless.
    fn search_moves_of(&mut self, sp: &SplitPoint) {
        while !sp.cut.load(Ordering::Relaxed) {
            let i = sp.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(sq, flipped)) = sp.moves.get(i) else {
                break;
            };
            let child = sp.board.after(sq, flipped);
            let v = -self.dispatch_nws(child, -sp.alpha - 1, sp.empties - 1);
            if self.is_stopped() {
                break;
            }
            sp.record(v, sq);
        }
    }
}

/// Waits a little for work: spins first (work comes often and soon), then yields the
/// core to other processes; after [`SPINS_BEFORE_SLEEP`] the thread sleeps instead, so
/// that a long wait does not take the core from the threads at work (on a busy machine,
/// from this process's own).
#[inline]
fn pause(spins: &mut u32) {
    *spins += 1;
    if *spins < 1 << 10 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// Waits for work that last longer than this many pauses (some milliseconds) sleep.
const SPINS_BEFORE_SLEEP: u32 = 1 << 12;

/// What a thread was doing before it entered a split point.
pub(super) struct Saved {
    split: Option<Arc<SplitPoint>>,
    endcut: usize,
    tag: u8,
}

impl EndgameSolver {
    /// Starts working at `sp`: its pass, and `sp` as the split point whose cut (or one
    /// above it) ends the work.
    fn enter(&mut self, sp: &Arc<SplitPoint>) -> Saved {
        let (endcut, tag) = self.pass();
        let saved = Saved {
            split: self.replace_split_point(Some(sp.clone())),
            endcut,
            tag,
        };
        self.set_pass(sp.endcut, sp.tag);
        self.refresh_stopped();
        saved
    }

    /// Back to what the thread did before [`enter`](Self::enter); a cut at the split
    /// point left ended only the work there.
    fn leave(&mut self, saved: Saved) {
        self.replace_split_point(saved.split);
        self.set_pass(saved.endcut, saved.tag);
        self.refresh_stopped();
    }
}
