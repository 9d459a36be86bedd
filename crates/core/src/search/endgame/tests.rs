//! The endgame solver against plain negamax, the plain solver and itself on two threads.

use super::*;
use crate::board::cpu::{Avx2, probe};
use crate::board::random::random_positions;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Plain negamax to the end: the reference the solver must agree with.
fn negamax(b: Board) -> i32 {
    let mv = b.moves();
    if mv == 0 {
        if b.passed().moves() == 0 {
            return b.final_score();
        }
        return -negamax(b.passed());
    }
    let mut best = -INF;
    let mut m = mv;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        best = best.max(-negamax(b.after(sq, b.flips(sq))));
    }
    best
}

fn replay(b: Board, line: &[Move]) -> Board {
    let mut b = b;
    for mv in line {
        b = match mv {
            Move::Pass => {
                assert_eq!(b.moves(), 0, "pass with moves");
                b.passed()
            }
            Move::Play(sq) => b.play(sq.index()).expect("illegal move in line"),
        };
    }
    assert!(b.is_game_over(), "line stops before the end");
    b
}

#[test]
fn agrees_with_negamax_and_lines_are_optimal() {
    // Every copy of the search functions: portable, and the fast ones this CPU can run
    // (AVX2 alone, and with AVX-512 where it has it).
    let fast =
        crate::board::cpu::detect_for_test("agrees_with_negamax_and_lines_are_optimal", true);
    for fast_path in [None, fast.map(Avx2::without_avx512), fast] {
        let mut solver = EndgameSolver::new(16, Some(crate::eval::Evaluator::shipped()));
        solver.fast_path = fast_path;
        agrees_with_negamax(&mut solver);
    }
}

fn agrees_with_negamax(solver: &mut EndgameSolver) {
    for empties in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] {
        for b in random_positions(empties as u64 * 7919, 60, empties) {
            let want = negamax(b);
            let s = solver.solve(b, SolveMode::Exact, true).unwrap();
            assert_eq!(s.score, want, "{b:?}");
            let end = replay(b, &s.line);
            // The final board from the root's side: flip sign if an odd number of plies.
            let sign = if s.line.len().is_multiple_of(2) {
                1
            } else {
                -1
            };
            assert_eq!(
                sign * end.final_score(),
                want,
                "line {:?} not optimal",
                s.line
            );
            let w = solver.solve(b, SolveMode::Wld, true).unwrap();
            assert_eq!(w.score, want.signum());
            let end = replay(b, &w.line);
            assert_eq!(
                (sign_of(&w.line) * end.final_score()).signum(),
                want.signum()
            );
        }
    }
}

/// Every position along `line` has the root's value `score` (exact, or the WLD
/// result), by `reference`, from the root side's view: no move of the line gives
/// anything away. Replaying to the right final score alone would not show this, since
/// two mistakes can cancel out.
fn line_keeps_value(
    reference: &mut EndgameSolver,
    b: Board,
    line: &[Move],
    mode: SolveMode,
    score: i32,
) {
    let mut b = b;
    let mut sign = 1;
    for (ply, mv) in line.iter().enumerate() {
        b = match mv {
            Move::Pass => b.passed(),
            Move::Play(sq) => b.play(sq.index()).expect("illegal move in line"),
        };
        sign = -sign;
        let v = reference.solve(b, mode, false).unwrap().score;
        assert_eq!(
            sign * v,
            score,
            "{mode:?} line {line:?}: ply {} gives value away",
            ply + 1
        );
    }
}

fn sign_of(line: &[Move]) -> i32 {
    if line.len().is_multiple_of(2) { 1 } else { -1 }
}

#[test]
fn windows_and_null_windows_bound_the_value() {
    let mut solver = EndgameSolver::new(16, Some(crate::eval::Evaluator::shipped()));
    for b in random_positions(4242, 40, 12) {
        let v = solver.solve(b, SolveMode::Exact, false).unwrap().score;
        for alpha in [-65, -9, -1, 0, 1, 7, 64] {
            let r = solver.null_window(b, alpha).unwrap();
            if r > alpha {
                assert!(v >= r && v > alpha);
            } else {
                assert!(v <= r && v <= alpha);
            }
        }
        let r = solver.search_window(b, v - 3, v + 3).unwrap();
        assert_eq!(r, v);
    }
}

#[test]
fn game_over_and_forced_pass() {
    let mut solver = EndgameSolver::new(10, Some(crate::eval::Evaluator::shipped()));
    // Full board: score only.
    let full = Board::new(0x0000_FFFF_FFFF_FFFF, 0xFFFF_0000_0000_0000);
    let s = solver.solve(full, SolveMode::Exact, true).unwrap();
    assert_eq!(s.score, full.final_score());
    assert!(s.line.is_empty());
    assert_eq!(s.best_move, None);
    // The side to move has no move but the opponent does: the line starts with a pass.
    for b in random_positions(77, 4000, 10) {
        if b.moves() == 0 && !b.is_game_over() {
            let s = solver.solve(b, SolveMode::Exact, true).unwrap();
            assert_eq!(s.line[0], Move::Pass);
            assert_eq!(s.score, negamax(b));
            return;
        }
    }
    panic!("no forced-pass position found");
}

#[test]
fn stop_flag_stops() {
    let stop = Arc::new(AtomicBool::new(true));
    let mut solver =
        EndgameSolver::with_stop(16, stop.clone(), Some(crate::eval::Evaluator::shipped()));
    let b = random_positions(5, 1, 24)[0];
    assert_eq!(solver.solve(b, SolveMode::Exact, false), Err(Stopped));
    stop.store(false, Ordering::Relaxed);
    assert!(
        solver
            .solve(random_positions(5, 1, 8)[0], SolveMode::Exact, false)
            .is_ok()
    );
}

#[test]
fn selective_passes_leave_exact_results_unchanged() {
    // From 18 empties the default solver runs ProbCut passes first; without an
    // evaluation it runs none. Both must agree on the value, and both lines must
    // reach it.
    for b in random_positions(11, 3, SELECTIVE_PASSES_EMPTIES) {
        let mut with_passes = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
        let mut plain = EndgameSolver::new(18, None);
        for mode in [SolveMode::Exact, SolveMode::Wld] {
            let a = with_passes.solve(b, mode, true).unwrap();
            let p = plain.solve(b, mode, true).unwrap();
            assert_eq!(a.score, p.score, "{mode:?}");
            let end = replay(b, &a.line);
            assert!(end.is_game_over());
            if mode == SolveMode::Exact {
                assert_eq!(sign_of(&a.line) * end.final_score(), a.score);
            }
        }
    }
}

#[test]
fn portable_and_fast_paths_search_the_same_tree() {
    let test = "portable_and_fast_paths_search_the_same_tree";
    let Some(cpu) = crate::board::cpu::detect_for_test(test, true) else {
        return;
    };
    for empties in [12, 16, 19] {
        for b in random_positions(empties as u64 * 31, 3, empties) {
            let mut fast = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
            fast.fast_path = Some(cpu);
            let mut avx2 = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
            avx2.fast_path = Some(cpu.without_avx512());
            let mut portable = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
            portable.fast_path = None;
            let f = fast.solve(b, SolveMode::Exact, true).unwrap();
            let a = avx2.solve(b, SolveMode::Exact, true).unwrap();
            let p = portable.solve(b, SolveMode::Exact, true).unwrap();
            assert_eq!(
                (f.score, f.nodes, &f.line),
                (p.score, p.nodes, &p.line),
                "{b:?}"
            );
            assert_eq!(
                (a.score, a.nodes, &a.line),
                (p.score, p.nodes, &p.line),
                "{b:?}"
            );
        }
    }
}

/// Where the CPU has AVX2 a solve runs in the fast copies only (every search function
/// and the ordering's leaf searches, never a portable copy), in the AVX-512 ones exactly
/// where the CPU has AVX-512, and without `fast_path` in the portable ones only: the
/// dispatch cannot silently fall back.
#[test]
fn the_fast_copies_are_the_ones_taken_where_the_cpu_has_them() {
    let b = random_positions(2024, 1, 22)[0];
    probe::take();
    let mut portable = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
    portable.fast_path = None;
    portable.solve(b, SolveMode::Exact, false).unwrap();
    let (fast, slow) = probe::take();
    assert_eq!(fast, 0, "a portable solve entered the fast copies");
    assert!(slow > 1000, "the portable copies ran {slow} times");
    let test = "the_fast_copies_are_the_ones_taken_where_the_cpu_has_them";
    if crate::board::cpu::detect_for_test(test, true).is_none() {
        return;
    }
    let mut solver = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
    assert!(
        solver.fast_path.is_some(),
        "the CPU has AVX2 but the solver does not use it"
    );
    probe::take_wide();
    solver.solve(b, SolveMode::Exact, false).unwrap();
    let (fast, slow) = probe::take();
    assert_eq!(slow, 0, "a fast solve entered the portable copies");
    assert!(fast > 1000, "the fast copies ran {fast} times");
    // The AVX-512 copies, all of them, exactly where the CPU has AVX-512.
    let avx512 = solver.fast_path.and_then(|t| t.avx512()).is_some();
    assert_eq!(probe::take_wide(), if avx512 { fast } else { 0 });
    let mut avx2 = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
    avx2.fast_path = avx2.fast_path.map(Avx2::without_avx512);
    avx2.solve(b, SolveMode::Exact, false).unwrap();
    assert_eq!(
        probe::take_wide(),
        0,
        "an AVX2 solve entered the AVX-512 copies"
    );
    assert!(probe::take().0 > 1000);
}

/// A solver on two threads that splits far more often than the default one (from 8
/// empties, in every search from 10), so that small positions exercise the parallel
/// search: split points, cuts that abort helpers, helpful owners.
fn eager_parallel(hash_bits: u32) -> EndgameSolver {
    let mut solver = EndgameSolver::new(hash_bits, Some(crate::eval::Evaluator::shipped()));
    solver.set_threads(2);
    solver.set_canonical_lines(true);
    solver.parallel_min_empties = 10;
    solver.split_min_empties = 8;
    solver
}

/// Half of [`wide_agreement_at_14_to_22_empties`]'s positions.
#[test]
fn wide_agreement_at_14_to_22_empties_first_half() {
    wide_agreement_at_14_to_22_empties(0);
}

/// The other half of [`wide_agreement_at_14_to_22_empties`]'s positions.
#[test]
fn wide_agreement_at_14_to_22_empties_second_half() {
    wide_agreement_at_14_to_22_empties(1);
}

/// A wide check (several minutes of a core, in two halves that run side by side):
/// at 14 to 22 empties, the default solver
/// (evaluation ordering, selective passes) against the plain one (mobility ordering
/// only) on exact scores, WLD against exact, every position along each line solved
/// again to show that no move gives value away, and every line replayed to its
/// result; 292 positions from random play-outs (40 at each of 14-20 empties, 6 at 21
/// and 22) and 40 where the side to move must pass.
///
/// The same positions are solved on two threads too ([`eager_parallel`]): the same
/// exact and WLD results and the same lines (both solvers with canonical lines, as
/// scripts solve; the table's-move-first lines are checked against negamax and on
/// FFO 20-39).
///
/// `half` (0 or 1) takes the positions whose index is `half` modulo 2, of each count
/// of empties and of the forced passes, so that each half costs about as much as the
/// other.
fn wide_agreement_at_14_to_22_empties(half: usize) {
    let mut default = EndgameSolver::new(20, Some(crate::eval::Evaluator::shipped()));
    default.set_canonical_lines(true);
    let mut parallel = eager_parallel(20);
    let mut plain = EndgameSolver::new(20, None);
    let mut check = |b: Board| {
        let exact = default.solve(b, SolveMode::Exact, true).unwrap();
        let wld = default.solve(b, SolveMode::Wld, true).unwrap();
        let reference = plain.solve(b, SolveMode::Exact, false).unwrap();
        assert_eq!(exact.score, reference.score, "{b:?}");
        assert_eq!(wld.score, exact.score.signum(), "{b:?}");
        let two_exact = parallel.solve(b, SolveMode::Exact, true).unwrap();
        let two_wld = parallel.solve(b, SolveMode::Wld, true).unwrap();
        assert_eq!(two_exact.score, exact.score, "2 threads: {b:?}");
        assert_eq!(two_wld.score, wld.score, "2 threads: {b:?}");
        line_keeps_value(&mut plain, b, &exact.line, SolveMode::Exact, exact.score);
        line_keeps_value(&mut plain, b, &wld.line, SolveMode::Wld, wld.score);
        // Canonical lines try moves in an order that depends on the position alone,
        // so the threads' table leaves them as they are on one thread (a script's
        // file is the same for any -n).
        assert_eq!(two_exact.line, exact.line, "2 threads: {b:?}");
        assert_eq!(two_wld.line, wld.line, "2 threads: {b:?}");
        let end = replay(b, &exact.line);
        assert_eq!(
            sign_of(&exact.line) * end.final_score(),
            exact.score,
            "{b:?}"
        );
        let end = replay(b, &wld.line);
        assert_eq!(
            (sign_of(&wld.line) * end.final_score()).signum(),
            wld.score,
            "{b:?}"
        );
        if b.moves() == 0 {
            assert_eq!(exact.line.first(), Some(&Move::Pass));
        }
    };
    for empties in 14..=22 {
        // Fewer at 21-22 empties, where the plain solver is slow.
        let count = if empties <= 20 { 40 } else { 6 };
        for (i, b) in random_positions(empties as u64 * 7919, count, empties)
            .into_iter()
            .enumerate()
        {
            if i % 2 == half && !b.is_game_over() {
                check(b);
            }
        }
    }
    // Positions where the side to move must pass, met in random games.
    let mut forced = Vec::new();
    let mut rng = crate::board::random::XorShift64::from_state(0x2545_F491_4F6C_DD1D);
    while forced.len() < 40 {
        let mut b = Board::START;
        while !b.is_game_over() && b.empty_count() >= 14 {
            let mv = b.moves();
            if mv == 0 {
                if b.empty_count() <= 20 {
                    forced.push(b);
                }
                b = b.passed();
                continue;
            }
            let sq = crate::board::random::nth_bit(mv, rng.below(mv.count_ones() as u64));
            b = b.after(sq, b.flips(sq));
        }
    }
    for b in forced.into_iter().skip(half).step_by(2) {
        check(b);
    }
}

#[test]
fn two_threads_agree_with_one_and_share_the_nodes() {
    let mut one = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
    let mut two = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
    two.set_threads(2);
    let mut helper_nodes = 0;
    for b in random_positions(99, 4, 22) {
        for mode in [SolveMode::Exact, SolveMode::Wld] {
            let a = one.solve(b, mode, true).unwrap();
            let p = two.solve(b, mode, true).unwrap();
            assert_eq!(a.score, p.score, "{mode:?} {b:?}");
            replay(b, &p.line);
            let per_thread = two.thread_nodes();
            assert_eq!(per_thread.len(), 2);
            assert_eq!(per_thread.iter().sum::<u64>(), p.nodes);
            helper_nodes += per_thread[1];
        }
    }
    // (A WLD solve after the exact one may end on the table's entries alone.)
    assert!(helper_nodes > 0, "the helper did nothing");
    // Below the threads' threshold a solve runs on one thread, node for node.
    let mut one = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
    let mut two = EndgameSolver::new(18, Some(crate::eval::Evaluator::shipped()));
    two.set_threads(2);
    let b = random_positions(7, 1, 12)[0];
    let a = one.solve(b, SolveMode::Exact, true).unwrap();
    let p = two.solve(b, SolveMode::Exact, true).unwrap();
    assert_eq!((a.score, a.nodes, &a.line), (p.score, p.nodes, &p.line));
    assert!(two.thread_nodes().is_empty());
}

/// A table that holds a wrong bound can make the search's value one that no move
/// keeps; the solve then did not prove a move, and a console answered a pass with
/// moves on the board. Here the lie is planted at the root: every
/// null-window test there says "64 or more". The solve must see that its proof
/// fails and solve again on an empty table.
#[test]
fn a_table_that_lies_is_caught_by_the_proof_and_solved_again() {
    for (i, b) in random_positions(4242, 6, 16).into_iter().enumerate() {
        if b.moves() == 0 {
            continue;
        }
        let mut clean = EndgameSolver::new(16, None);
        for mode in [SolveMode::Exact, SolveMode::Wld] {
            let want = clean.solve(b, mode, true).unwrap();
            let mut solver = EndgameSolver::new(16, None);
            solver.table().store(
                b.key(),
                b.empty_count() as u8,
                NO_SELECTIVITY,
                -64,
                64,
                64,
                NO_MOVE,
            );
            let got = solver.solve(b, mode, true).unwrap();
            assert_eq!(got.score, want.score, "position {i} {mode:?}");
            assert!(got.best_move.is_some(), "position {i} {mode:?}: no move");
            let end = replay(b, &got.line);
            if mode == SolveMode::Exact {
                let sign = if got.line.len().is_multiple_of(2) {
                    1
                } else {
                    -1
                };
                assert_eq!(sign * end.final_score(), want.score, "position {i}");
            }
        }
    }
}

/// Far from the end the ordering searches are deep (14 plies at 44 empties): they
/// must see the stop and the deadline too. Before they did, this solve went on for
/// 167 s after the stop.
#[test]
fn a_solve_far_from_the_end_stops_in_its_ordering_searches() {
    let b = random_positions(11, 1, 44)[0];
    for by_deadline in [false, true] {
        let stop = Arc::new(AtomicBool::new(false));
        let mut solver =
            EndgameSolver::with_stop(20, stop.clone(), Some(crate::eval::Evaluator::shipped()));
        let start = Instant::now();
        let stopper = if by_deadline {
            solver.set_deadline(Some(start + Duration::from_millis(300)));
            None
        } else {
            Some(std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                stop.store(true, Ordering::Relaxed);
            }))
        };
        let r = solver.solve(b, SolveMode::Exact, true);
        let took = start.elapsed();
        if let Some(t) = stopper {
            t.join().unwrap();
        }
        assert_eq!(r, Err(Stopped), "deadline: {by_deadline}");
        // Well under a second on an idle machine; the bound leaves room for a loaded one.
        assert!(
            took < Duration::from_secs(3),
            "deadline {by_deadline}: {took:?}"
        );
    }
}

#[test]
fn stop_reaches_every_thread_at_once() {
    for threads in [1, 2] {
        let stop = Arc::new(AtomicBool::new(false));
        let mut solver =
            EndgameSolver::with_stop(20, stop.clone(), Some(crate::eval::Evaluator::shipped()));
        solver.set_threads(threads);
        // Far too many empties to finish before the stop.
        let b = random_positions(5, 1, 32)[0];
        let stopper = std::thread::spawn({
            let stop = stop.clone();
            move || {
                std::thread::sleep(Duration::from_millis(300));
                stop.store(true, Ordering::Relaxed);
                Instant::now()
            }
        });
        let r = solver.solve(b, SolveMode::Exact, false);
        let answered = Instant::now();
        let stopped_at = stopper.join().unwrap();
        assert_eq!(r, Err(Stopped));
        let delay = answered.saturating_duration_since(stopped_at);
        // Every thread must see the stop (one that missed it would solve on for
        // minutes). The bound is not a latency figure (well under a millisecond on an
        // idle machine): on a runner loaded twentyfold the threads took up to 0.3 s to
        // be scheduled.
        assert!(
            delay < Duration::from_secs(2),
            "{threads} threads: {delay:?}"
        );
        // And the solver works again once the flag is down.
        stop.store(false, Ordering::Relaxed);
        let b = random_positions(5, 1, 18)[0];
        assert_eq!(
            solver.solve(b, SolveMode::Exact, false).unwrap().score,
            EndgameSolver::new(16, Some(crate::eval::Evaluator::shipped()))
                .solve(b, SolveMode::Exact, false)
                .unwrap()
                .score
        );
    }
}
