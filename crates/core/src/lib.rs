//! The core of Okapi, an Othello (Reversi) analyser and opponent: everything that knows the
//! game and nothing of a user interface. It is a library: the engine thread, the training
//! commands, the desktop app and the command line of Okapi are built on it, and so can
//! other programs.
//!
//! # What it offers
//!
//! - **The board** ([`board`]): bitboard move generation and flips (with AVX2 copies
//!   where the CPU has them), [`Position`] with absolute colours, the
//!   side to move and a Zobrist key, the board-string reader every format shares, the 8
//!   symmetries, stable discs and perft.
//! - **The evaluation** ([`eval`]): base-3 pattern weights trained by Okapi itself and
//!   compiled in ([`Evaluator::shipped`](eval::Evaluator::shipped)), evaluated from
//!   scratch or incrementally; a classic feature evaluation as the baseline it is
//!   measured against.
//! - **The searches** ([`search`]): the midgame search
//!   ([`MidgameSearch`]: PVS with iterative deepening,
//!   Multi-ProbCut and lazy SMP threads), the endgame solver
//!   ([`EndgameSolver`]: exact score or win/draw/loss with a
//!   proven line, on one thread or several), the transposition table they share, and
//!   the WZebra-style playing levels.
//! - **The game** ([`game`]): the record with its variations and move values, and the
//!   [`Session`] holding the rules of a game in progress (turns, forced
//!   passes, undo, the clock, what to ask the engine next) for any front end.
//! - **The opening book** ([`book`]): built from public game records, valued by the
//!   search, stored with symmetries folded; the shipped one is compiled in.
//! - **File formats** ([`formats`]): one reader and one writer per format (Okapi's game
//!   JSON, GGF, transcripts, scrZebra scripts, Edax OBF, WTHOR and other game records);
//!   readers never panic on bad input and say what is wrong and where.
//!
//! # The face
//!
//! What a front end needs most is re-exported here, flat, as `okapi_core::{Position,
//! Square, Move, EndgameSolver, ...}`: the board ([`Position`], [`Board`], [`Square`],
//! [`Move`], [`Color`], [`BitBoard`] and their parse and play errors), the evaluation
//! ([`Evaluator`], the [`Evaluate`] trait, values in 1/[`SCALE`] discs), the searches
//! ([`EndgameSolver`] with [`SolveMode`] and its [`Solution`]; [`MidgameSearch`] with
//! its [`Limits`] and [`SearchResult`]; the playing [`Level`]s), the game ([`Game`],
//! [`Session`], [`Seat`], [`Eval`]), the opening [`Book`], the games [`Database`], the
//! file [`Format`]s and a job's [`Shard`]. The modules below stay public for the rest:
//! each format's reader and writer, the book builder, the evaluation's training
//! interface (used by `okapi-train`), the binary-file convention ([`binary`]) and the
//! ProbCut model. The search's insides (the solver's kernels, the midgame's PVS, move
//! ordering, the transposition table, the parallel search) are private: they change
//! with every speed-up, and nothing outside the search should depend on them.
//!
//! # Example
//!
//! Parse a position, list its legal moves, solve it exactly, then search a midgame
//! position (`examples/solve.rs` is the same as a program).
//!
//! ```
//! use okapi_core::{EndgameSolver, Evaluator, Limits, MidgameSearch, Move, Position, SCALE};
//! use okapi_core::{SolveMode, Square};
//! use std::sync::Arc;
//! use std::sync::atomic::AtomicBool;
//!
//! // 64 squares a1..h8 (X Black, O White, - empty), then the side to move.
//! // FFO endgame #1: 14 empties, Black to move.
//! let pos = Position::parse(
//!     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
//! )?;
//! let moves: Vec<String> = pos.legal_moves().iter().map(|sq| sq.to_string()).collect();
//! assert_eq!(moves, ["b1", "h1", "a2", "g2", "a3", "a4", "h7", "g8"]);
//!
//! // The shipped evaluation, shared by every search of the program; the solver orders
//! // its moves with it (a table of 16 << 20 bytes).
//! let eval = Evaluator::shipped();
//! let mut solver = EndgameSolver::new(20, Some(eval.clone()));
//! let solution = solver.solve(pos.board(), SolveMode::Exact, true)?;
//! assert_eq!(solution.score, 18); // Black wins by 18 discs
//! assert_eq!(solution.best_move, Some(Move::Play(Square::parse("g8")?)));
//! let line: Vec<String> = solution.line.iter().map(|m| m.to_string()).collect();
//! println!("g8 {:+}: {}", solution.score, line.join(" ")); // the proven line
//!
//! // A midgame position (five moves in), searched 8 plies deep.
//! let mut game = Position::start();
//! for sq in ["f5", "d6", "c3", "d3", "c4"] {
//!     game.play(Square::parse(sq)?)?;
//! }
//! let stop = Arc::new(AtomicBool::new(false)); // set it from another thread to stop
//! let mut search = MidgameSearch::new(&eval, 20, stop);
//! let result = search.best_move(game.board(), Limits::depth(8), |_| {})?;
//! let Move::Play(best) = result.best.mv else { unreachable!("White has moves") };
//! assert!(game.is_legal(best));
//! // Values are in 1/SCALE discs, from the side to move's view.
//! println!("{best} {:+.2} discs", result.best.value as f64 / SCALE as f64);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Layers
//!
//! One module a layer, imports pointing one way (`tests/layers.rs` checks it):
//! [`board`] (bitboards, moves, symmetry, hashing) <- [`eval`] (the trained pattern
//! evaluation) <- [`search`] (midgame PVS with Multi-ProbCut, the exact/WLD endgame solver,
//! the transposition table, parallel search) <- [`level`] (the playing levels and their
//! measured strengths) <- [`game`] (the game record with variations,
//! the session rules every front end shares) / [`book`] (the opening book) / [`formats`]
//! (one reader and one writer per file format) / [`db`] (the games database: master games
//! by position) <- [`practice`] (practising one's own mistakes: the positions of analysed
//! games where a player lost discs, brought back by spaced repetition); [`shard`] splits a long job (a script, a book build, self-play) across
//! machines and merges the parts back.
//!
//! The engine thread (`okapi-engine`), the training commands (`okapi-train`), the desktop
//! app (`okapi-app`) and the command line (`okapi-cli`) are crates built on this one; it uses
//! no command-line or GUI crate, and its errors are typed (one `thiserror` enum per reader).

#![warn(missing_docs)]

pub mod binary;
pub mod board;
pub mod book;
pub mod calendar;
pub mod db;
pub mod eval;
pub mod formats;
pub mod game;
pub mod level;
pub mod practice;
pub mod search;
pub mod shard;

pub use board::{
    BitBoard, Board, Color, Move, ParseBoardError, ParseSquareError, PlayError, Position, Square,
};
pub use book::{Book, BookMove, BookSource};
pub use db::Database;
pub use eval::{Evaluate, Evaluator, SCALE};
pub use formats::Format;
pub use game::{Eval, EvalSource, Game, Next, Seat, Session};
pub use level::Level;
pub use search::{
    EndgameSolver, Limits, MidgameSearch, MoveValue, SearchResult, Solution, SolveMode, Stopped,
};
pub use shard::Shard;
