//! Every engine the app runs, under one budget: the board's (live analysis, its moves,
//! solves and the game analysis), the script panel's (while a script is solved) and the
//! practice window's (while the window is open). Together they take at most the table
//! size and the threads of the settings: each engine is given its share when it starts,
//! and every engine open is given its new share whenever one starts or stops (a search
//! already running keeps its table until it ends: the engine takes a new configuration
//! between requests). An engine no longer in use is dropped with its table.

use crate::platform::Instant;
use okapi_core::board::{Move, Position, Square};
use okapi_core::game::Eval;
use okapi_core::search::{HASH_BITS, SolveMode};
use okapi_engine::config::table_bytes;
use okapi_engine::script_solve::SMALL_TABLE_BITS;
use okapi_engine::{Configuration, Engine, EngineConfig, EngineOptions, Request};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The engines the app runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EngineUse {
    /// The board's: always there.
    Board,
    /// The script panel's, while a script is being solved.
    Script,
    /// The practice window's, while the window is open.
    Practice,
}

/// What the board's engine is doing for the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Task {
    Idle,
    Analysing,
    Solving(SolveMode),
    Thinking,
    AnalysingGame,
}

/// The last solve's figures, shown beside its proven line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolveStats {
    pub(crate) nodes: u64,
    pub(crate) elapsed: Duration,
}

/// One move of the game valued against the best move (for its mover).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlyAnalysis {
    /// The position before the move and the move: the entry holds only while they match.
    pub(crate) key: (Position, Move),
    pub(crate) played: Eval,
    pub(crate) best: Eval,
    pub(crate) best_move: Square,
}

impl PlyAnalysis {
    /// Discs lost against the best move.
    pub(crate) fn loss(&self) -> i32 {
        self.best.value - self.played.value
    }
}

/// The engine's last move and, at a weakened level, every candidate's value and chance
/// (practice: "show lines").
#[derive(Clone, Debug)]
pub(crate) struct EngineLines {
    pub(crate) position: Position,
    pub(crate) played: Move,
    pub(crate) candidates: Vec<(Move, Eval, f64)>,
}

/// The board's engine thread and what it is doing for the app.
pub(crate) struct EngineLink {
    pub(crate) thread: Engine,
    pub(crate) task: Task,
    pub(crate) task_started: Instant,
    /// What the engine says it is doing, for the status bar.
    pub(crate) status: String,
    /// An engine move held back until then (engine against engine, at a person's pace).
    pub(crate) paced_move: Option<(Instant, Request)>,
    /// The deepest midgame depth the current analysis has valued every move at so far.
    pub(crate) analysis_depth: Option<u32>,
}

impl EngineLink {
    fn new(thread: Engine) -> EngineLink {
        EngineLink {
            thread,
            task: Task::Idle,
            task_started: Instant::now(),
            status: String::new(),
            paced_move: None,
            analysis_depth: None,
        }
    }
}

/// Wakes the UI; shared by every engine thread.
type Notify = Arc<Mutex<Box<dyn Fn() + Send>>>;

/// The app's engines and their one budget.
pub(crate) struct EngineHub {
    pub(crate) board: EngineLink,
    script: Option<Engine>,
    practice: Option<Engine>,
    /// The settings' configuration: the table and threads all engines share, the solve
    /// limit and book use.
    budget: Configuration,
    /// The practice engine's own solve limit (its cards are proven further).
    practice_solve_limit: u32,
    notify: Notify,
}

impl EngineHub {
    /// The board's engine, with the whole of `budget`; `notify` wakes the UI.
    pub(crate) fn new(budget: Configuration, notify: impl Fn() + Send + 'static) -> EngineHub {
        let notify: Notify = Arc::new(Mutex::new(Box::new(notify)));
        let alone = share_of(
            budget,
            budget.solve_limit,
            EngineUse::Board,
            &[EngineUse::Board],
        );
        EngineHub {
            board: EngineLink::new(spawn_engine(alone, waker(&notify))),
            script: None,
            practice: None,
            budget,
            practice_solve_limit: budget.solve_limit,
            notify,
        }
    }

    /// A callback for another thread of the app that wakes the UI.
    pub(crate) fn waker(&self) -> impl Fn() + Send + 'static {
        waker(&self.notify)
    }

    /// The engine of `which`, if it runs.
    pub(crate) fn get(&self, which: EngineUse) -> Option<&Engine> {
        match which {
            EngineUse::Board => Some(&self.board.thread),
            EngineUse::Script => self.script.as_ref(),
            EngineUse::Practice => self.practice.as_ref(),
        }
    }

    /// The engine of `which`, if it runs.
    pub(crate) fn get_mut(&mut self, which: EngineUse) -> Option<&mut Engine> {
        match which {
            EngineUse::Board => Some(&mut self.board.thread),
            EngineUse::Script => self.script.as_mut(),
            EngineUse::Practice => self.practice.as_mut(),
        }
    }

    /// The engine of `which`, started if it is not running, configured with its share
    /// of `budget` (the settings' configuration; the others are given their new share).
    pub(crate) fn open(&mut self, which: EngineUse, budget: Configuration) -> &mut Engine {
        let (changed, was_open) = (self.budget != budget, self.get(which).is_some());
        self.budget = budget;
        if !was_open {
            let engine = self.spawn_counting(which);
            match which {
                EngineUse::Board => self.board.thread = engine,
                EngineUse::Script => self.script = Some(engine),
                EngineUse::Practice => self.practice = Some(engine),
            }
        }
        if changed || !was_open {
            self.reconfigure_all();
        }
        self.get_mut(which).expect("opened above")
    }

    /// The practice engine, solving exactly up to `solve_limit` empties.
    pub(crate) fn open_practice(&mut self, budget: Configuration, solve_limit: u32) -> &mut Engine {
        let changed = self.practice_solve_limit != solve_limit;
        self.practice_solve_limit = solve_limit;
        if changed && self.practice.is_some() {
            self.reconfigure_all();
        }
        self.open(EngineUse::Practice, budget)
    }

    /// Drops the engine of `which` (not the board's) with its table; the others are given
    /// their new, larger share.
    pub(crate) fn close(&mut self, which: EngineUse) {
        let closed = match which {
            EngineUse::Board => None,
            EngineUse::Script => self.script.take(),
            EngineUse::Practice => self.practice.take(),
        };
        if closed.is_some() {
            self.reconfigure_all();
        }
    }

    /// Which engines run.
    pub(crate) fn running(&self) -> Vec<EngineUse> {
        [EngineUse::Board, EngineUse::Script, EngineUse::Practice]
            .into_iter()
            .filter(|&w| self.get(w).is_some())
            .collect()
    }

    /// The configuration `which` is given with the engines running now.
    pub(crate) fn share(&self, which: EngineUse) -> Configuration {
        self.share_among(which, &self.running())
    }

    /// The bytes of the tables the running engines are given (a script's solvers
    /// included): never more than the budget's table, unless that is smaller than what a
    /// script's solvers need to write the command line's lines.
    pub(crate) fn table_bytes(&self) -> u64 {
        let running = self.running();
        running
            .iter()
            .map(|&w| {
                let share = self.share_among(w, &running);
                let own = table_bytes(share.engine.hash_bits());
                match w {
                    EngineUse::Script => own + script_solver_bytes(share.engine.threads()),
                    _ => own,
                }
            })
            .sum()
    }

    /// The budget's table, in bytes: what the settings give all engines together.
    pub(crate) fn budget_bytes(&self) -> u64 {
        table_bytes(self.budget.engine.hash_bits())
    }

    /// `which`'s share when `running` run: the threads divided among them (each at least
    /// one); the script engine's table the smallest (its solvers make their own, of the
    /// command line's size, counted first), the others' the budget's table less that,
    /// divided among them.
    fn share_among(&self, which: EngineUse, running: &[EngineUse]) -> Configuration {
        share_of(self.budget, self.practice_solve_limit, which, running)
    }
    /// Gives every running engine its share now (taken between requests).
    fn reconfigure_all(&self) {
        for which in self.running() {
            if let Some(engine) = self.get(which) {
                engine.configure(self.share(which));
            }
        }
    }

    /// A new engine for `which`, counted among the running ones.
    fn spawn_counting(&self, which: EngineUse) -> Engine {
        let mut running = self.running();
        if !running.contains(&which) {
            running.push(which);
        }
        spawn_engine(self.share_among(which, &running), waker(&self.notify))
    }
}

/// A callback for an engine thread that calls the shared `notify`.
fn waker(notify: &Notify) -> impl Fn() + Send + 'static {
    let notify = notify.clone();
    move || {
        if let Ok(f) = notify.lock() {
            f()
        }
    }
}

/// An engine thread made with `configuration`'s table from the start (not the engine's
/// default one: both would be alive until the first configuration is taken).
fn spawn_engine(configuration: Configuration, notify: impl Fn() + Send + 'static) -> Engine {
    let options = EngineOptions {
        config: configuration.engine,
        ..EngineOptions::default()
    };
    let engine = crate::platform::spawn_engine(options, notify);
    engine.configure(configuration);
    engine
}

/// `which`'s share of `budget` when `running` run (see [`EngineHub::share`]).
fn share_of(
    budget: Configuration,
    practice_solve_limit: u32,
    which: EngineUse,
    running: &[EngineUse],
) -> Configuration {
    let engines = running.len().max(1);
    let threads = (budget.engine.threads() / engines).max(1);
    let smallest = *HASH_BITS.start();
    let searching = running.iter().filter(|&&w| w != EngineUse::Script).count();
    let bits = if which == EngineUse::Script {
        smallest
    } else {
        let reserved = if running.contains(&EngineUse::Script) {
            let script_threads = threads;
            table_bytes(smallest) + script_solver_bytes(script_threads)
        } else {
            0
        };
        let left = table_bytes(budget.engine.hash_bits()).saturating_sub(reserved);
        let each = left / searching.max(1) as u64;
        (smallest..=budget.engine.hash_bits())
            .rev()
            .find(|&b| table_bytes(b) <= each)
            .unwrap_or(smallest)
    };
    let engine = EngineConfig::shared(bits, threads, engines as u32)
        .unwrap_or_else(|_| EngineConfig::new(smallest, 1).unwrap_or_default());
    let solve_limit = match which {
        EngineUse::Practice => practice_solve_limit,
        _ => budget.solve_limit,
    };
    Configuration {
        engine,
        solve_limit,
        book: budget.book,
    }
}

/// The most bytes a script's solvers hold at once on `threads` threads: a table of the
/// command line's size for a large position, one small table per thread kept beside it
/// ([`okapi_engine::script_solve::solve_in_order`]).
pub(crate) fn script_solver_bytes(threads: usize) -> u64 {
    table_bytes(crate::script::SCRIPT_HASH_BITS)
        + threads.max(1) as u64 * table_bytes(SMALL_TABLE_BITS.min(crate::script::SCRIPT_HASH_BITS))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(bits: u32, threads: usize) -> Configuration {
        Configuration {
            engine: EngineConfig::new(bits, threads).unwrap(),
            solve_limit: 20,
            book: true,
        }
    }

    #[test]
    fn the_engines_share_one_table_and_the_threads() {
        let b = budget(24, 2);
        let mut hub = EngineHub::new(b, || {});
        assert_eq!(hub.share(EngineUse::Board).engine.hash_bits(), 24);
        assert_eq!(hub.table_bytes(), table_bytes(24));
        hub.open_practice(b, 30);
        assert_eq!(hub.share(EngineUse::Board).engine.hash_bits(), 23);
        assert_eq!(hub.share(EngineUse::Practice).engine.hash_bits(), 23);
        assert_eq!(hub.share(EngineUse::Practice).solve_limit, 30);
        assert_eq!(hub.share(EngineUse::Board).engine.threads(), 1);
        hub.open(EngineUse::Script, b);
        assert!(
            hub.table_bytes() <= hub.budget_bytes(),
            "{}",
            hub.table_bytes()
        );
        assert_eq!(
            hub.share(EngineUse::Script).engine.hash_bits(),
            *HASH_BITS.start()
        );
        hub.close(EngineUse::Script);
        hub.close(EngineUse::Practice);
        assert_eq!(hub.running(), [EngineUse::Board]);
        assert_eq!(hub.share(EngineUse::Board).engine.hash_bits(), 24);
        assert_eq!(hub.share(EngineUse::Board).engine.threads(), 2);
    }
}
