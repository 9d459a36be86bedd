//! The engine's move choice, the one place where it is made for every front end: the
//! opening book, the level (random, greedy, a search to a depth or for a time, weakened
//! by a temperature), the game clock's time, and the engine's one seeded generator.

use super::Line;
use okapi_core::board::{Move, Position};
use okapi_core::book::BookMove;
use okapi_core::eval::Evaluator;
use okapi_core::game::{Eval, EvalSource};
use okapi_core::level::{Level, choose_move};
use okapi_core::search::{Limits, MidgameSearch, MoveValue, SCALE, SearchSource, Stopped};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use std::time::Duration;

/// The book's part in a move choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum BookPolicy {
    Off,
    /// Play a book move within this many discs of the book's best.
    Within(f64),
}

/// A chosen move and what is known of it.
pub(super) struct Chosen {
    pub mv: Move,
    pub eval: Option<Eval>,
    pub discs: Option<f64>,
    pub pv: Vec<Move>,
    pub book: Option<BookMove>,
    pub candidates: Vec<(Move, Eval, f64)>,
}

/// Why no move was chosen.
pub(super) enum NoChoice {
    Stopped,
    /// The position has no move to choose (game over, or a forced pass).
    Nothing(&'static str),
}

impl From<Stopped> for NoChoice {
    fn from(_: Stopped) -> Self {
        NoChoice::Stopped
    }
}

/// A uniform number in [0, 1) from the engine's generator.
fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    rng.random::<f64>()
}

/// A search's limits and ProbCut level for `level`; the beginner levels search at
/// level 1 when asked for values.
pub(super) fn search_limits(level: &Level) -> (Limits, usize) {
    match level {
        Level::Search(s) => (s.limits, s.selectivity),
        _ => match Level::numbered(1) {
            Level::Search(s) => (s.limits, s.selectivity),
            _ => unreachable!("numbered levels search"),
        },
    }
}

/// A search value as a line: its moves, discs to 1/100 and the value as shown and kept.
pub(super) fn line_of(v: &MoveValue, confidence: u32) -> Line {
    Line {
        moves: if v.pv.is_empty() {
            vec![v.mv]
        } else {
            v.pv.clone()
        },
        discs: v.value as f64 / SCALE as f64,
        eval: Eval::of_search(v, confidence),
    }
}

/// A book value as the engine reports it: discs, rounded, tagged `book`.
pub(super) fn book_eval(m: &BookMove) -> Eval {
    Eval {
        value: (m.value as f64 / SCALE as f64).round() as i32,
        source: EvalSource::Book,
    }
}

/// Chooses the move at `level` for `position`, sending each line of the search to
/// `on_line` as it deepens.
pub(super) fn choose(
    search: &mut MidgameSearch<Arc<Evaluator>>,
    position: Position,
    mut level: Level,
    time: Option<Duration>,
    book: BookPolicy,
    rng: &mut ChaCha8Rng,
    on_line: &mut dyn FnMut(Line),
) -> Result<Chosen, NoChoice> {
    let board = position.board();
    if board.moves() == 0 {
        return Err(NoChoice::Nothing(if position.is_game_over() {
            "the game is over"
        } else {
            "no legal move: pass"
        }));
    }
    // The book plays for the full-strength levels; a weakened level's mistakes are its
    // point, so it keeps its own choice.
    if let (Level::Search(s), BookPolicy::Within(randomness)) = (&level, book)
        && s.temperature <= 0.0
        && let Some(m) =
            okapi_core::book::shipped().choose(&board, randomness, &mut || uniform(rng))
    {
        return Ok(Chosen {
            mv: Move::Play(m.square),
            eval: Some(book_eval(&m)),
            discs: Some(m.value as f64 / SCALE as f64),
            pv: vec![Move::Play(m.square)],
            book: Some(m),
            candidates: vec![],
        });
    }
    if let (Some(t), Level::Search(s)) = (time, &mut level) {
        okapi_core::game::clock::fit_to_time(&mut s.limits, t);
    }
    match level {
        // The plain search reports where its value comes from.
        Level::Search(s) if s.temperature <= 0.0 => {
            search.set_selectivity(s.selectivity);
            let confidence = search.confidence();
            let r = search.best_move(board, s.limits, |v| on_line(line_of(v, confidence)))?;
            Ok(Chosen {
                mv: r.best.mv,
                eval: Some(Eval::of_search(&r.best, confidence)),
                discs: Some(r.best.value as f64 / SCALE as f64),
                pv: r.best.pv.clone(),
                book: None,
                candidates: vec![],
            })
        }
        _ => {
            let c = choose_move(search, board, &level, &mut || uniform(rng))?;
            let confidence = search.confidence();
            let source = match level {
                Level::Search(s) => chosen_source(board, &s.limits),
                _ => SearchSource::Midgame { depth: 0 },
            };
            let eval = |value: i32| {
                Eval::of_search(
                    &MoveValue {
                        mv: c.mv,
                        value,
                        source,
                        pv: vec![],
                    },
                    confidence,
                )
            };
            let candidates = c
                .candidates
                .iter()
                .map(|&(mv, value, p)| (mv, eval(value), p))
                .collect();
            if c.mv == Move::Pass {
                return Err(NoChoice::Nothing("the engine found no move"));
            }
            Ok(Chosen {
                mv: c.mv,
                eval: c.value.map(eval),
                discs: c.value.map(|v| v as f64 / SCALE as f64),
                pv: c.pv.clone(),
                book: None,
                candidates,
            })
        }
    }
}

/// Where the values of [`choose_move`]'s candidates come from: the level's limits decide.
fn chosen_source(board: okapi_core::board::Board, limits: &Limits) -> SearchSource {
    let children = board.empty_count().saturating_sub(1);
    if children <= limits.exact_empties {
        SearchSource::Exact
    } else if children <= limits.wld_empties {
        SearchSource::Wld
    } else {
        SearchSource::Midgame {
            depth: limits.depth.min(children),
        }
    }
}
