//! Solving the positions of a scrZebra script: shared by the command line
//! (`okapi -script`, `okapi solve`) and the engine thread, so a script solved in the app
//! gives the same results. The format itself (reading lines, writing results) is
//! `formats::script`.
//!
//! With several threads, small positions (fewer than [`SMALL_POSITION_EMPTIES`] empties)
//! are solved several at a time, one thread each, and larger ones one at a time with
//! every thread. Results come back in input order, each as soon as every position before
//! it is done. Every position is solved on a cleared table whose size depends only on the
//! position, so its result (the line included: among optimal moves the table's move
//! ordering picks one) depends on nothing else: not on the positions before it, the
//! thread that took it, or the shard it fell in.

use okapi_core::board::{Move, Position};
use okapi_core::formats::script::Outcome;
use okapi_core::search::{EndgameSolver, Solution, SolveMode, Stopped};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Positions with fewer empties than this are solved several at a time, one thread each;
/// from this many up, one at a time with every thread. Measured one position at a time on
/// one thread (FFO #1-#38, docs/engine.md "Threads in scripts"): 14-16 empties take 0.1-16 ms,
/// 17-19 empties 23-170 ms, 20 empties 72-570 ms: below 20 a position is too short for a
/// parallel search to pay, while several at once need nothing shared.
pub const SMALL_POSITION_EMPTIES: u32 = 20;

/// Table of the small positions: `16 << SMALL_TABLE_BITS` bytes (1 MB) per thread, or the
/// run's own size if that is smaller, cleared before each. Nodes for FFO #1-#25 with
/// 2^12 entries: 8.13 M; 2^14: 7.94 M; 2^16: 7.910 M; 2^20: 7.908 M (docs/engine.md "Threads in
/// scripts").
pub const SMALL_TABLE_BITS: u32 = 16;

/// One solved position in script terms: the solver's answer and its script outcome.
#[derive(Clone, Debug)]
pub struct ScriptSolution {
    pub outcome: Outcome,
    pub mode: SolveMode,
    /// The line is empty when the game is over.
    pub solution: Solution,
}

impl ScriptSolution {
    /// What the script output shows: the outcome and, in line mode, the line.
    pub fn script_result(&self, lines: bool) -> (Outcome, Option<&[Move]>) {
        (self.outcome, lines.then_some(&self.solution.line[..]))
    }
}

/// How a script is solved.
#[derive(Clone, Debug)]
pub struct ScriptSettings {
    pub mode: SolveMode,
    /// Prove and keep each position's line.
    pub lines: bool,
    /// Table of about `16 << hash_bits` bytes for the large positions.
    pub hash_bits: u32,
    /// Threads (at least 1): small positions solved at once, or a large position's threads.
    pub threads: usize,
    /// The evaluation the solvers order their moves with.
    pub evaluator: Arc<okapi_core::eval::Evaluator>,
}

/// Why a script run ended early.
#[derive(Debug, thiserror::Error)]
pub enum ScriptRunError<E> {
    #[error("the solver was stopped")]
    Stopped,
    /// The receiver of the results refused one (an output that cannot be written).
    #[error(transparent)]
    Receiver(E),
}

/// Solves one position on `solver` as it is; a finished game is "solved" as its final
/// count. [`solve_in_order`] is what scripts use: it clears the table first.
pub fn solve_position(
    solver: &mut EndgameSolver,
    position: &Position,
    mode: SolveMode,
    lines: bool,
) -> Result<ScriptSolution, Stopped> {
    let side = position.side_to_move();
    let mut solution = solver.solve(position.board(), mode, lines)?;
    if position.is_game_over() {
        solution.line.clear();
    }
    let outcome = match mode {
        SolveMode::Exact => Outcome::exact(side, solution.score),
        SolveMode::Wld => Outcome::wld(side, solution.score),
    };
    Ok(ScriptSolution {
        outcome,
        mode,
        solution,
    })
}

/// Is this position solved with others at once, one thread each?
pub fn is_small(position: &Position) -> bool {
    position.empty_count() < SMALL_POSITION_EMPTIES
}

/// A solver whose table has held nothing since it was last cleared.
struct CleanSolver {
    solver: EndgameSolver,
    used: bool,
}

impl CleanSolver {
    fn new(
        settings: &ScriptSettings,
        hash_bits: u32,
        threads: usize,
        stop: &Arc<AtomicBool>,
    ) -> CleanSolver {
        let evaluator = Some(settings.evaluator.clone());
        let mut solver = EndgameSolver::with_stop(hash_bits, stop.clone(), evaluator);
        solver.set_threads(threads);
        CleanSolver {
            solver,
            used: false,
        }
    }

    /// Solves `position` on a table holding nothing of earlier positions.
    fn solve(
        &mut self,
        position: &Position,
        settings: &ScriptSettings,
    ) -> Result<ScriptSolution, Stopped> {
        if self.used {
            self.solver.table().clear();
        }
        self.used = true;
        solve_position(&mut self.solver, position, settings.mode, settings.lines)
    }
}

/// Solves `positions` and hands each result to `receive(index, solution)` in input order,
/// as soon as it and every position before it are solved; `receive` runs on the calling
/// thread. Small positions run up to `settings.threads` at once, one thread each; a large
/// position waits for the ones before it and then runs alone with every thread. The
/// results are the same whatever the number of threads. `stop` ends the run with
/// [`ScriptRunError::Stopped`]; an error of `receive` ends it (positions being solved
/// finish first) and is returned.
pub fn solve_in_order<E>(
    positions: &[Position],
    settings: &ScriptSettings,
    stop: &Arc<AtomicBool>,
    mut receive: impl FnMut(usize, ScriptSolution) -> Result<(), E>,
) -> Result<(), ScriptRunError<E>> {
    let threads = settings.threads.max(1);
    let small_bits = settings.hash_bits.min(SMALL_TABLE_BITS);
    let mut small: Vec<CleanSolver> = Vec::new();
    let mut next = 0;
    while next < positions.len() {
        if !is_small(&positions[next]) {
            // A new table rather than a cleared one: its memory is taken only as the
            // search reaches it, where clearing touches all of it (docs/engine.md "Threads in
            // scripts": FFO #26-#34, user time as with the kept table at -h 18 and 24).
            let mut solver = CleanSolver::new(settings, settings.hash_bits, threads, stop);
            // On several threads the table's move depends on their timing: the line and
            // the best move must not, or -n would change the file.
            solver.solver.set_canonical_lines(true);
            let solved = solver
                .solve(&positions[next], settings)
                .map_err(|Stopped| ScriptRunError::Stopped)?;
            receive(next, solved).map_err(ScriptRunError::Receiver)?;
            next += 1;
            continue;
        }
        let end = positions[next..]
            .iter()
            .position(|p| !is_small(p))
            .map_or(positions.len(), |n| next + n);
        let batch = &positions[next..end];
        let workers = threads.min(batch.len());
        while small.len() < workers {
            small.push(CleanSolver::new(settings, small_bits, 1, stop));
        }
        let first = next;
        let mut deliver = |i: usize, solved| receive(first + i, solved);
        if workers == 1 {
            for (i, position) in batch.iter().enumerate() {
                let solved = small[0]
                    .solve(position, settings)
                    .map_err(|Stopped| ScriptRunError::Stopped)?;
                deliver(i, solved).map_err(ScriptRunError::Receiver)?;
            }
        } else {
            solve_batch(batch, settings, &mut small[..workers], &mut deliver)?;
        }
        next = end;
    }
    Ok(())
}

/// Small positions on one thread per solver, delivered in order on the calling thread.
fn solve_batch<E>(
    batch: &[Position],
    settings: &ScriptSettings,
    solvers: &mut [CleanSolver],
    deliver: &mut impl FnMut(usize, ScriptSolution) -> Result<(), E>,
) -> Result<(), ScriptRunError<E>> {
    let taken = AtomicUsize::new(0);
    // Set when the run ends early: the workers take no further position.
    let abandon = AtomicBool::new(false);
    let (results, done) = crossbeam_channel::unbounded();
    std::thread::scope(|scope| {
        for solver in solvers.iter_mut() {
            let results = results.clone();
            let (taken, abandon) = (&taken, &abandon);
            scope.spawn(move || {
                while !abandon.load(Ordering::SeqCst) {
                    let i = taken.fetch_add(1, Ordering::SeqCst);
                    let Some(position) = batch.get(i) else { break };
                    let solved = solver.solve(position, settings);
                    if results.send((i, solved)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(results);
        // Results that came early wait here for the ones before them.
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        let outcome = (|| {
            while next < batch.len() {
                let Ok((i, solved)) = done.recv() else {
                    unreachable!("the workers answer every position they take")
                };
                waiting.insert(i, solved);
                while let Some(solved) = waiting.remove(&next) {
                    let solved = solved.map_err(|Stopped| ScriptRunError::Stopped)?;
                    deliver(next, solved).map_err(ScriptRunError::Receiver)?;
                    next += 1;
                }
            }
            Ok(())
        })();
        if outcome.is_err() {
            abandon.store(true, Ordering::SeqCst);
        }
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FFO #1-#19 (14 to 16 empties) and the position after each one's first legal move,
    /// with FFO #26 and #27 (20 empties: large) among them; from the repository's test
    /// data.
    fn positions() -> Vec<Position> {
        let text = include_str!("../../../tests/data/ffo1-39.scr");
        let ffo: Vec<Position> = text
            .lines()
            .filter(|l| !l.starts_with('%') && l.len() > 64)
            .map(|l| Position::parse(l).unwrap())
            .collect();
        let mut out = Vec::new();
        for (i, p) in ffo[..19].iter().enumerate() {
            out.push(*p);
            let mut next = *p;
            next.play(p.legal_moves().iter().next().unwrap()).unwrap();
            out.push(next);
            if i == 5 || i == 11 {
                out.push(ffo[if i == 5 { 25 } else { 26 }]);
            }
        }
        out
    }

    fn run(positions: &[Position], threads: usize, lines: bool) -> Vec<(usize, i32, Vec<Move>)> {
        let settings = ScriptSettings {
            mode: SolveMode::Exact,
            lines,
            hash_bits: 18,
            threads,
            evaluator: okapi_core::eval::Evaluator::shipped(),
        };
        let mut got = Vec::new();
        solve_in_order(
            positions,
            &settings,
            &Arc::new(AtomicBool::new(false)),
            |i, s| {
                got.push((i, s.solution.score, s.solution.line));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        got
    }

    #[test]
    fn results_come_in_order_and_do_not_depend_on_the_threads() {
        let all = positions();
        assert!(!is_small(&all[12]) && !is_small(&all[25]));
        assert_eq!(all.iter().filter(|p| !is_small(p)).count(), 2);
        assert!(all.iter().filter(|p| is_small(p)).count() > 30);
        let one = run(&all, 1, true);
        assert_eq!(
            one.iter().map(|r| r.0).collect::<Vec<_>>(),
            (0..all.len()).collect::<Vec<_>>()
        );
        assert_eq!(run(&all, 3, true), one);
        // Each result is the position's own: solved alone it is the same.
        for i in [0, 7, 12, 29] {
            let alone = run(&all[i..=i], 1, true);
            assert_eq!(
                (alone[0].1, &alone[0].2),
                (one[i].1, &one[i].2),
                "position {i}"
            );
        }
    }

    #[test]
    fn a_receiver_error_and_a_stop_end_the_run() {
        let all: Vec<Position> = positions().into_iter().filter(is_small).take(12).collect();
        let settings = ScriptSettings {
            mode: SolveMode::Wld,
            lines: false,
            hash_bits: 16,
            threads: 2,
            evaluator: okapi_core::eval::Evaluator::shipped(),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let mut seen = Vec::new();
        let r = solve_in_order(&all, &settings, &stop, |i, _| {
            seen.push(i);
            if i == 4 { Err("disk full") } else { Ok(()) }
        });
        assert!(matches!(r, Err(ScriptRunError::Receiver("disk full"))));
        assert_eq!(seen, vec![0, 1, 2, 3, 4]);
        stop.store(true, Ordering::SeqCst);
        let r = solve_in_order(&all, &settings, &stop, |_, _| Ok::<(), ()>(()));
        assert!(matches!(r, Err(ScriptRunError::Stopped)));
    }
}
