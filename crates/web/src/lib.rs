//! Okapi in the browser: one wasm module, loaded twice by the page (`web/`).
//!
//! - On the page's own thread, the rules ([`legal_moves`], [`play`]): quick, so a click
//!   never waits.
//! - In a Web Worker, the engine ([`choose`], [`solve`]): its searches run there, so the
//!   page draws its frames while it thinks.
//!
//! - With the feature `app`, the whole desktop app on a canvas (`start_app`, the page
//!   `app/index.html`), its platform in `okapi_app::platform`; its engines each in a Web
//!   Worker running this module too (`engine_worker.rs`, `engine-worker.js`).
//!
//! Boards cross the boundary as the script format's board string (64 squares `X`, `O`,
//! `-` from a1 to h8, a space, the side to move), answers as JSON. Every function takes
//! the text a person may have pasted: bad input is an error saying what is wrong, never
//! a panic.

use okapi_core::board::{Move, Position};
use okapi_core::eval::Evaluator;
use okapi_core::level::{Level, choose_move};
use okapi_core::search::{EndgameSolver, MidgameSearch, SolveMode};
use serde_json::json;
use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use wasm_bindgen::prelude::*;

#[cfg(all(feature = "app", target_arch = "wasm32"))]
mod engine_worker;

/// Starts the whole app on the page's canvas of id `canvas_id`.
#[cfg(all(feature = "app", target_arch = "wasm32"))]
#[wasm_bindgen]
pub async fn start_app(canvas_id: String) -> Result<(), JsValue> {
    use wasm_bindgen::JsCast;
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&canvas_id))
        .ok_or_else(|| JsValue::from_str(&format!("no element #{canvas_id} in the page")))?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .map_err(|_| JsValue::from_str(&format!("#{canvas_id} is not a canvas")))?;
    okapi_app::platform::start_in_canvas(canvas, okapi_app::app_creator(None)).await
}

/// The table's size, as `okapi bench`'s default (2^23 entries), so the browser's solves
/// and the native ones compare.
const HASH_BITS: u32 = 23;
/// The table of the move choice's searches (2^20 entries): the levels search shallowly.
const PLAY_HASH_BITS: u32 = 20;

/// A board string read, or an error naming what is wrong with it.
fn position(board: &str) -> Result<Position, String> {
    Position::parse(board).map_err(|e| format!("the board {board:?}: {e}"))
}

/// The legal moves of the side to move (`"d3 c4 f5 e6"`), `"--"` when it must pass,
/// `""` when the game is over.
#[wasm_bindgen]
pub fn legal_moves(board: &str) -> Result<String, JsError> {
    Ok(legal_moves_of(
        &position(board).map_err(|e| JsError::new(&e))?,
    ))
}

fn legal_moves_of(pos: &Position) -> String {
    if pos.is_game_over() {
        String::new()
    } else if pos.must_pass() {
        Move::Pass.to_string()
    } else {
        let moves: Vec<String> = pos.legal_moves().iter().map(|s| s.to_string()).collect();
        moves.join(" ")
    }
}

/// The board after the side to move plays `mv` (a square or `--` for a pass).
#[wasm_bindgen]
pub fn play(board: &str, mv: &str) -> Result<String, JsError> {
    play_on(board, mv).map_err(|e| JsError::new(&e))
}

fn play_on(board: &str, mv: &str) -> Result<String, String> {
    let mut pos = position(board)?;
    let m = Move::parse(mv).map_err(|e| format!("the move {mv:?}: {e}"))?;
    pos.play_move(m)
        .map_err(|e| format!("{mv} on {board:?}: {e}"))?;
    Ok(pos.to_board_string())
}

/// The engine's state in the worker: made on first use, kept between calls (the
/// evaluation is unpacked once; the tables are reused).
struct Engine {
    solver: Option<EndgameSolver>,
    /// Whether `solver` runs the portable copy (the comparison of the copies).
    portable: bool,
    search: Option<MidgameSearch<Arc<Evaluator>>>,
}

thread_local! {
    static ENGINE: RefCell<Engine> = const {
        RefCell::new(Engine { solver: None, portable: false, search: None })
    };
}

/// Solves `board` exactly on one thread with a cleared table, as `okapi bench` does each
/// position. With `portable`, in the search's portable copy instead of the SIMD128 one.
/// Answers `{"score", "best", "nodes", "ms"}` (`best` is `null` when the game is over).
#[wasm_bindgen]
pub fn solve(board: &str, portable: bool) -> Result<String, JsError> {
    solve_board(board, portable).map_err(|e| JsError::new(&e))
}

fn solve_board(board: &str, portable: bool) -> Result<String, String> {
    let pos = position(board)?;
    ENGINE.with_borrow_mut(|engine| {
        if engine.portable != portable {
            // One table at a time: the old one goes before the new one is made.
            engine.solver = None;
            engine.portable = portable;
        }
        let solver = engine.solver.get_or_insert_with(|| {
            let mut s = EndgameSolver::new(HASH_BITS, Some(Evaluator::shipped()));
            if portable {
                s.use_portable_copy();
            }
            s
        });
        solver.table().clear();
        let s = solver
            .solve(pos.board(), SolveMode::Exact, false)
            .map_err(|e| e.to_string())?;
        Ok(json!({
            "score": s.score,
            "best": s.best_move.map(|m| m.to_string()),
            "nodes": s.nodes,
            "ms": s.elapsed.as_secs_f64() * 1000.0,
        })
        .to_string())
    })
}

/// The engine's move at level `level` (1 to 60, as the app's levels), its random
/// choices drawn from `seed`. Answers `{"move", "value"}` (`value` in discs, `null` when
/// the level gives none).
#[wasm_bindgen]
pub fn choose(board: &str, level: u32, seed: u32) -> Result<String, JsError> {
    choose_on(board, level, seed).map_err(|e| JsError::new(&e))
}

fn choose_on(board: &str, level: u32, seed: u32) -> Result<String, String> {
    let pos = position(board)?;
    if !(1..=60).contains(&level) {
        return Err(format!("level {level}: levels run from 1 to 60"));
    }
    let level = Level::numbered(level);
    // xorshift64*: the level's random choices, reproducible from the seed.
    let mut state = u64::from(seed) | 1 << 32;
    let mut uniform = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    ENGINE.with_borrow_mut(|engine| {
        let search = engine.search.get_or_insert_with(|| {
            MidgameSearch::new(
                &Evaluator::shipped(),
                PLAY_HASH_BITS,
                Arc::new(AtomicBool::new(false)),
            )
        });
        let choice =
            choose_move(search, pos.board(), &level, &mut uniform).map_err(|e| e.to_string())?;
        Ok(json!({
            "move": choice.mv.to_string(),
            "value": choice.value.map(|v| f64::from(v) / f64::from(okapi_core::search::SCALE)),
        })
        .to_string())
    })
}

/// Whether this module runs the search's SIMD128 copy (it was built with `+simd128`).
#[wasm_bindgen]
pub fn simd128() -> bool {
    cfg!(all(target_arch = "wasm32", target_feature = "simd128"))
}

/// Checks the SIMD128 move generator and flips against the portable ones on `count`
/// random positions (every square of each): the number of positions checked, or the
/// first that differs. Without SIMD128 there is nothing to compare: an error says so.
#[wasm_bindgen]
pub fn check_simd128(count: u32) -> Result<u32, JsError> {
    check_simd128_on(count).map_err(|e| JsError::new(&e))
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn check_simd128_on(count: u32) -> Result<u32, String> {
    use okapi_core::board::{flips, flips_simd128, moves, moves_simd128, random};
    let mut checked = 0;
    for empties in [50, 30, 12] {
        for b in random::random_positions(u64::from(empties), count as usize, empties) {
            let (p, o) = (b.player, b.opponent);
            if moves_simd128(p, o) != moves(p, o) {
                return Err(format!("moves differ on {b:?}"));
            }
            for sq in (0..64).filter(|sq| (p | o) >> sq & 1 == 0) {
                if flips_simd128(p, o, sq) != flips(p, o, sq) {
                    return Err(format!("flips at square {sq} differ on {b:?}"));
                }
            }
            checked += 1;
        }
    }
    Ok(checked)
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn check_simd128_on(_count: u32) -> Result<u32, String> {
    Err("this build has no SIMD128 copy to check".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn the_rules_answer_for_the_page() {
        assert_eq!(legal_moves_of(&position(START).unwrap()), "d3 c4 f5 e6");
        let after = play_on(START, "f5").unwrap();
        assert_eq!(
            after,
            "---------------------------OX------XXX-------------------------- O"
        );
        assert!(play_on(START, "a1").unwrap_err().contains("a1"));
        assert!(play_on(START, "z9").unwrap_err().contains("z9"));
        assert!(position("XO X").unwrap_err().contains("XO X"));
    }

    #[test]
    fn a_move_is_chosen_at_a_level_and_bad_levels_are_refused() {
        let answer: serde_json::Value =
            serde_json::from_str(&choose_on(START, 2, 7).unwrap()).unwrap();
        let mv = answer["move"].as_str().unwrap();
        assert!(["d3", "c4", "f5", "e6"].contains(&mv), "{answer}");
        assert!(choose_on(START, 0, 7).unwrap_err().contains("level 0"));
    }

    #[test]
    fn ffo_40_is_solved_the_same_in_both_copies() {
        let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        let fast: serde_json::Value =
            serde_json::from_str(&solve_board(ffo40, false).unwrap()).unwrap();
        let portable: serde_json::Value =
            serde_json::from_str(&solve_board(ffo40, true).unwrap()).unwrap();
        assert_eq!(fast["best"], "a2");
        assert_eq!(fast["score"], 38);
        assert_eq!(fast["nodes"], portable["nodes"]);
    }
}
