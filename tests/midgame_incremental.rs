//! The midgame search keeps the pattern indices move by move (`EvalState`) instead of
//! evaluating each leaf from scratch. That must change nothing but the speed: the same
//! values, best moves and node counts as the from-scratch search.
//!
//! `OKAPI_RECORD=1 cargo test --release --test midgame_incremental -- --nocapture` prints
//! the table of expected figures anew, from the from-scratch search, once the incremental
//! search has found the same ones (it was first recorded with the search of before the
//! change).

use okapi::board::random::random_positions;
use okapi::board::{Board, Position};
use okapi::eval::patterns::PatternSet;
use okapi::eval::terms;
use okapi::eval::weights::WeightFile;
use okapi::eval::{EvalState, Evaluator};
use okapi::search::{Evaluate, Limits, MidgameSearch, MoveValue};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The shipped evaluation without its patterns: the search can only evaluate each
/// position from scratch (its endgame solver orders with the shipped weights, as the
/// incremental search's does).
#[derive(Clone)]
struct FromScratch(Arc<Evaluator>);
impl Evaluate for FromScratch {
    fn evaluate(&self, b: &Board) -> i32 {
        self.0.evaluate(b)
    }

    fn ordering(&self) -> Option<Arc<Evaluator>> {
        Some(self.0.clone())
    }
}

fn midgame36() -> Vec<Board> {
    let text = include_str!("data/midgame36.scr");
    text.lines()
        .map(|l| l.split('%').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| Position::parse(l).unwrap().board())
        .collect()
}

const HASH_BITS: u32 = 18;

/// (position of midgame36.scr, depth, selectivity (5 = none), value, best move, nodes),
/// recorded with the from-scratch search (`FromScratch`, which evaluates each leaf from
/// its bitboards) and the shipped weights; first recorded before the change to the
/// incremental search, and again for each change of the weights, the ProbCut model or the
/// root's move order that changes the trees (the history: docs/measurements.md). A change
/// that only moves code or makes it faster must leave every row as it is.
const EXPECTED: &[(usize, u32, usize, i32, &str, u64)] = &[
    (0, 5, 5, 2825, "e8", 3270),
    (0, 8, 5, 1631, "e8", 58844),
    (0, 10, 5, 1430, "e8", 487843),
    (0, 8, 2, 1631, "e8", 9358),
    (0, 12, 2, 1519, "e8", 63063),
    (0, 14, 2, 1450, "e8", 149704),
    (1, 5, 5, -565, "g5", 2494),
    (1, 8, 5, -493, "g5", 35443),
    (1, 10, 5, -449, "g5", 226795),
    (1, 8, 2, -493, "g5", 9155),
    (1, 12, 2, -605, "g5", 94731),
    (1, 14, 2, -708, "g5", 275464),
    (2, 5, 5, 615, "c3", 3607),
    (2, 8, 5, 356, "c3", 52394),
    (2, 10, 5, 261, "c3", 350209),
    (2, 8, 2, 356, "c3", 24653),
    (2, 12, 2, 366, "c3", 206341),
    (2, 14, 2, 205, "c3", 459520),
    (3, 5, 5, 72, "a4", 2474),
    (3, 8, 5, 205, "a4", 46325),
    (3, 10, 5, 270, "a5", 379954),
    (3, 8, 2, 205, "a4", 9020),
    (3, 12, 2, 248, "a4", 115217),
    (3, 14, 2, 490, "a4", 190222),
];

fn search<E: Evaluate + Clone>(
    eval: &E,
    b: Board,
    depth: u32,
    selectivity: usize,
) -> (i32, String, u64) {
    let mut s = MidgameSearch::new(eval, HASH_BITS, Arc::new(AtomicBool::new(false)));
    s.set_selectivity(selectivity);
    let r = s.best_move(b, Limits::depth(depth), |_| {}).unwrap();
    (r.best.value, r.best.mv.to_string(), s.nodes())
}

/// The values `analyze_moves` streams at depth 4, `best_among` at depth 5, and the nodes.
fn analyze<E: Evaluate + Clone>(e: &E, b: Board) -> (Vec<MoveValue>, Option<MoveValue>, u64) {
    let mut s = MidgameSearch::new(e, HASH_BITS, Arc::new(AtomicBool::new(false)));
    let mut seen = vec![];
    s.analyze_moves(b, Limits::depth(4), |m| seen.push(m.clone()))
        .unwrap();
    let among = s.best_among(b, !0 << 20, Limits::depth(5)).unwrap();
    (seen, among, s.nodes())
}

/// The rows of [`EXPECTED`]: the first positions of midgame36.scr, each at these
/// (depth, selectivity) pairs.
const RECORDED_POSITIONS: usize = 4;
const RECORDED_SETTINGS: [(u32, usize); 6] = [(5, 5), (8, 5), (10, 5), (8, 2), (12, 2), (14, 2)];

#[test]
fn fixed_depth_results_are_those_of_the_old_search() {
    let eval = Evaluator::shipped();
    let boards = midgame36();
    let rows: Vec<(usize, u32, usize)> = (0..RECORDED_POSITIONS)
        .flat_map(|i| RECORDED_SETTINGS.map(|(depth, sel)| (i, depth, sel)))
        .collect();
    let expected_rows: Vec<(usize, u32, usize)> = EXPECTED
        .iter()
        .map(|&(i, depth, sel, ..)| (i, depth, sel))
        .collect();
    assert_eq!(
        expected_rows, rows,
        "the table has a row for each recorded setting"
    );
    if std::env::var_os("OKAPI_RECORD").is_some() {
        // A new table, recorded with the from-scratch search; the incremental search must
        // find the same figures before they are printed, or the table would record a
        // difference between the two.
        for (i, depth, sel) in rows {
            let (v, mv, nodes) = search(&FromScratch(eval.clone()), boards[i], depth, sel);
            assert_eq!(
                search(&eval, boards[i], depth, sel),
                (v, mv.clone(), nodes),
                "position {i} depth {depth} selectivity {sel}: the incremental search differs"
            );
            println!("    ({i}, {depth}, {sel}, {v}, \"{mv}\", {nodes}),");
        }
        return;
    }
    for &(i, depth, sel, value, mv, nodes) in EXPECTED {
        let got = search(&eval, boards[i], depth, sel);
        assert_eq!(
            got,
            (value, mv.to_string(), nodes),
            "position {i} depth {depth} selectivity {sel}"
        );
    }
}

/// Incremental and from-scratch searches agree exactly (value, move, nodes) on random
/// positions, at every depth, with and without ProbCut, near the end (where the search
/// hands over to the solver) too, and through `analyze_moves` and `best_among`.
#[test]
fn incremental_search_is_the_from_scratch_search() {
    let eval = Evaluator::shipped();
    let scratch = FromScratch(Evaluator::shipped());
    for (seed, empties, depths) in [
        (1u64, 40u32, &[1u32, 2, 3, 4, 7][..]),
        (2, 30, &[5, 9]),
        (3, 16, &[6, 14, 18]),
    ] {
        for b in random_positions(seed, 6, empties) {
            if b.is_game_over() {
                continue;
            }
            for &d in depths {
                for sel in [5, 1] {
                    assert_eq!(
                        search(&eval, b, d, sel),
                        search(&scratch, b, d, sel),
                        "depth {d} selectivity {sel} {b:?}"
                    );
                }
            }
            assert_eq!(analyze(&eval, b), analyze(&scratch, b), "{b:?}");
        }
    }
}

/// Along random games (passes included), the kept state evaluates as the board does,
/// after `make_move`, `undo_move`, `pass`, and one ply ahead with `evaluate_after`.
///
/// Both with the count terms (mobility, potential mobility, parity: read from the kept
/// board) and without them: the shipped weights, and the same patterns with the terms'
/// weights taken off or, for weights without terms, made up; and with the board terms
/// (disc count, stable discs) after the count terms, their weights made up.
#[test]
fn incremental_evaluation_follows_random_games() {
    let shipped = WeightFile::from_bytes(
        &std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/coeffs/okapi-eval.bin"
        ))
        .unwrap(),
    )
    .unwrap();
    let patterns = PatternSet::get().weights_per_phase;
    let n = shipped.weights_per_phase as usize;
    let mut other = shipped.clone();
    other.weights_per_phase = (if n > patterns {
        patterns
    } else {
        patterns + terms::WEIGHTS
    }) as u32;
    other.weights.clear();
    let mut rng = okapi::board::random::XorShift64::from_state(7);
    for phase in shipped.weights.chunks_exact(n) {
        other.weights.extend_from_slice(&phase[..patterns]);
        if n == patterns {
            other
                .weights
                .extend((0..terms::WEIGHTS).map(|_| (rng.next_u64() % 1024) as i16 - 512));
        }
    }
    // The count terms and the board terms too (disc count, stable discs), made up.
    let mut board_terms = if n > patterns {
        shipped.clone()
    } else {
        other.clone()
    };
    let with_terms = board_terms.weights_per_phase as usize;
    board_terms.weights_per_phase += terms::BOARD_WEIGHTS as u32;
    board_terms.weights = board_terms
        .weights
        .chunks_exact(with_terms)
        .flat_map(|phase| {
            let made_up: Vec<i16> = (0..terms::BOARD_WEIGHTS)
                .map(|_| (rng.next_u64() % 1024) as i16 - 512)
                .collect();
            phase.iter().copied().chain(made_up)
        })
        .collect();
    let with_and_without = [
        Evaluator::from_weight_file(shipped),
        Evaluator::from_weight_file(other),
        Evaluator::from_weight_file(board_terms),
    ];
    assert_ne!(
        with_and_without[0].has_terms(),
        with_and_without[1].has_terms()
    );
    assert!(with_and_without[2].has_board_terms());
    for eval in &with_and_without {
        follow_random_games(eval);
    }
}

fn follow_random_games(eval: &Evaluator) {
    let mut rng = okapi::board::random::XorShift64::from_state(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    for _ in 0..200 {
        let mut b = Board::START;
        let mut state = EvalState::new(&b);
        while !b.is_game_over() {
            assert_eq!(eval.evaluate_state(&state), eval.evaluate(&b));
            let mv = b.moves();
            if mv == 0 {
                state.pass();
                b = b.passed();
                continue;
            }
            // Every move one ply ahead, and a make/undo round trip.
            let mut m = mv;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                let f = b.flips(sq);
                let child = b.after(sq, f);
                assert_eq!(eval.evaluate_after(&state, sq, f), eval.evaluate(&child));
                let before = state;
                state.make_move(sq, f);
                assert_eq!(eval.evaluate_state(&state), eval.evaluate(&child));
                state.undo_move(sq, f);
                assert_eq!(state, before);
            }
            let mut m = mv;
            for _ in 0..next() % mv.count_ones() as u64 {
                m &= m - 1;
            }
            let sq = m.trailing_zeros();
            let f = b.flips(sq);
            state.make_move(sq, f);
            b = b.after(sq, f);
        }
        assert_eq!(eval.evaluate_state(&state), eval.evaluate(&b));
    }
}
