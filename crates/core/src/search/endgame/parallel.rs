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

use super::split_point::{Finish, Pool, SPINS_BEFORE_SLEEP, SplitPoint, pause};
use super::state::{EndgameSolver, INF};
use crate::board::Board;
use crate::search::ordering::Candidate;
use crate::search::tt::NO_MOVE;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How a thread searches a child of a split point: the null-window search, handed in by
/// the solver so that the parallel search and the null-window search, which opens the
/// split points, need not name each other.
pub(super) type ChildSearch = fn(&mut EndgameSolver, Board, i32, u32) -> i32;

impl EndgameSolver {
    /// Runs `search` on this solver with `threads() - 1` helper threads that join its
    /// split points; their nodes are added to this solver's, and each thread's nodes are
    /// kept for [`thread_nodes`](EndgameSolver::thread_nodes).
    pub(super) fn with_helpers<R>(
        &mut self,
        child: ChildSearch,
        search: impl FnOnce(&mut Self) -> R,
    ) -> R {
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
                        h.help(child);
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
    fn help(&mut self, child: ChildSearch) {
        let pool = self.pool().expect("a helper has a pool").clone();
        self.help_while(
            &pool,
            || !pool.done.load(Ordering::Acquire),
            |_| true,
            || pool.sleep(),
            child,
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
        child: ChildSearch,
    ) {
        pool.idle.fetch_add(1, Ordering::Relaxed);
        let mut spins = 0u32;
        while busy() {
            match pool.join(&accept) {
                Some(sp) => {
                    pool.idle.fetch_sub(1, Ordering::Relaxed);
                    self.work_as_helper(&sp, child);
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
    fn work_as_helper(&mut self, sp: &Arc<SplitPoint>, child: ChildSearch) {
        let saved = self.enter(sp);
        self.search_moves_of(sp, child);
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
        child: ChildSearch,
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
            result: Mutex::new((-INF, NO_MOVE)),
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
        self.search_moves_of(&sp, child);
        pool.close(&sp);
        // Helpful master: while helpers are still at work here, help at the split points
        // they open below.
        self.help_while(
            &pool,
            || sp.workers.load(Ordering::Acquire) > 1,
            |o| o.is_below(&sp),
            || std::thread::sleep(Duration::from_micros(100)),
            child,
        );
        self.leave(saved);
        *sp.result.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the moves of `sp` one by one until none is left or the work is useless.
    fn search_moves_of(&mut self, sp: &SplitPoint, search: ChildSearch) {
        while !sp.cut.load(Ordering::Relaxed) {
            let i = sp.next.fetch_add(1, Ordering::Relaxed);
            let Some(&(sq, flipped)) = sp.moves.get(i) else {
                break;
            };
            let child = sp.board.after(sq, flipped);
            let v = -search(self, child, -sp.alpha - 1, sp.empties - 1);
            if self.is_stopped() {
                break;
            }
            sp.record(v, sq);
        }
    }
}

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
