//! The evaluation: base-3 indexed patterns (the edge-table idea of 1986, generalised as
//! Logistello, Zebra and Edax do), one weight set per game phase, trained by Okapi
//! itself (`okapi train eval`, in the `train` layer above) and shipped in `coeffs/`.
//!
//! Values are the side to move's expected final disc difference in 1/[`SCALE`] disc.
//!
//! Two ways to evaluate:
//! - [`Evaluator::evaluate`] computes all pattern indices from the two bitboards;
//! - [`EvalState`] keeps the indices and updates them as discs are placed and flipped
//!   ([`EvalState::make_move`] / [`EvalState::undo_move`]), evaluated by
//!   [`Evaluator::evaluate_state`].
//!
//! ```
//! use okapi_core::board::Board;
//! use okapi_core::eval::{Evaluator, EvalState};
//! let eval = Evaluator::embedded();
//! let board = Board::START;
//! let mut state = EvalState::new(&board);
//! assert_eq!(eval.evaluate(&board), eval.evaluate_state(&state));
//! let f = board.flips(37); // f5
//! state.make_move(37, f);
//! assert_eq!(eval.evaluate_state(&state), eval.evaluate(&board.after(37, f)));
//! ```

pub mod features;
pub mod patterns;
pub mod terms;
pub mod weights;

use crate::board::Board;
use crate::board::cpu::{Cpu, Portable};
use patterns::{IndexVector, NUM_INSTANCES, PatternSet};
use std::path::Path;
use std::sync::Arc;
use weights::{WeightFile, WeightFileError};

/// Evaluation units per disc.
pub const SCALE: i32 = 128;
/// Evaluations are clamped to +-64 discs.
pub const MAX_EVAL: i32 = 64 * SCALE;

/// A static evaluation: the side to move's expected final disc difference, in 1/[`SCALE`]
/// discs. The searches take any; the pattern evaluation is one through its shared handle.
pub trait Evaluate: Send + Sync {
    /// The side to move's expected final disc difference, in 1/[`SCALE`] discs.
    fn evaluate(&self, board: &Board) -> i32;

    /// The pattern evaluation behind this one, if it is one: searches that keep its
    /// indices up to date move by move ([`EvalState`]) ask for it.
    fn patterns(&self) -> Option<&Evaluator> {
        None
    }

    /// The pattern evaluation the endgame solver of a search on this evaluation orders
    /// its moves with (`None`: mobility and corners).
    fn ordering(&self) -> Option<Arc<Evaluator>> {
        None
    }
}

/// The pattern evaluation, as the searches use it: through its one shared handle, so
/// that the endgame solver a search builds orders its moves with the same weights. A bare
/// `Evaluator` is deliberately not an [`Evaluate`]: a search on it could not hand its
/// weights to its solver.
impl Evaluate for Arc<Evaluator> {
    #[inline]
    fn evaluate(&self, board: &Board) -> i32 {
        Evaluator::evaluate(self, board)
    }

    fn patterns(&self) -> Option<&Evaluator> {
        Some(self)
    }

    fn ordering(&self) -> Option<Arc<Evaluator>> {
        Some(self.clone())
    }
}

/// The shipped weight file's name under `coeffs/`.
pub const SHIPPED_FILE: &str = "okapi-eval.bin";
static SHIPPED: &[u8] = include_bytes!("../../../../coeffs/okapi-eval.bin");

/// Trained pattern weights, ready to evaluate.
#[derive(Clone)]
pub struct Evaluator {
    phases: usize,
    phase_width: u32,
    weights_per_phase: usize,
    /// Where the [`terms`]' weights start in a phase's (the pattern weights' count), or
    /// `None` for a weight file of patterns alone.
    terms: Option<usize>,
    /// Whether the [`terms`]' board terms (disc count, stable discs) follow the count terms.
    board_terms: bool,
    /// `[phase][weight]`, indices read with digit 1 = the side to move's disc; a phase's
    /// pattern weights, then its terms' if it has them.
    weights: Vec<i16>,
    bias: Vec<i32>,
    /// Weight offset of each instance inside a view.
    offsets: [u32; NUM_INSTANCES],
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator")
            .field("phases", &self.phases)
            .field("phase_width", &self.phase_width)
            .field("weights_per_phase", &self.weights_per_phase)
            .field("terms", &self.terms.is_some())
            .finish()
    }
}

/// Why [`Evaluator::load`] failed; the text names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read weight file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file was read but is not a valid weight file.
    #[error("weight file {path}: {source}")]
    Format {
        /// The file.
        path: String,
        /// What is wrong with it.
        source: WeightFileError,
    },
}

/// The most a weight file may hold: the shipped one is 2.7 MB compressed.
pub const MAX_WEIGHT_FILE: u64 = 64 << 20;

impl Evaluator {
    /// The weights shipped in `coeffs/` (compiled into the binary).
    pub fn embedded() -> Evaluator {
        Evaluator::from_weight_file(
            WeightFile::from_bytes(SHIPPED).expect("the shipped weight file is valid"),
        )
    }

    /// The shipped weights (`coeffs/okapi-eval.bin`) as the one handle every search
    /// shares: decompressed once per process, then each call is a reference count.
    /// Searches and solvers take the evaluation they are given (`MidgameSearch::new`,
    /// `EndgameSolver::new`); this is where a
    /// program that wants the shipped one gets it.
    pub fn shipped() -> std::sync::Arc<Evaluator> {
        static SHIPPED_EVALUATOR: std::sync::OnceLock<std::sync::Arc<Evaluator>> =
            std::sync::OnceLock::new();
        SHIPPED_EVALUATOR
            .get_or_init(|| std::sync::Arc::new(Evaluator::embedded()))
            .clone()
    }

    /// Loads a weight file (at most [`MAX_WEIGHT_FILE`] bytes: `/dev/zero` given as
    /// weights ends at once instead of filling memory).
    pub fn load(path: &Path) -> Result<Evaluator, LoadError> {
        use std::io::Read;
        let io = |source| LoadError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_WEIGHT_FILE + 1).read_to_end(&mut bytes))
            .map_err(io)?;
        if bytes.len() as u64 > MAX_WEIGHT_FILE {
            return Err(io(std::io::Error::other(format!(
                "file too large (over {} MB)",
                MAX_WEIGHT_FILE >> 20
            ))));
        }
        Evaluator::from_bytes(&bytes).map_err(|source| LoadError::Format {
            path: path.display().to_string(),
            source,
        })
    }

    /// Reads the bytes of a weight file (the layout in [`weights`]), checking everything.
    pub fn from_bytes(bytes: &[u8]) -> Result<Evaluator, WeightFileError> {
        Ok(Evaluator::from_weight_file(WeightFile::from_bytes(bytes)?))
    }

    /// Builds the evaluator from stored weights.
    pub fn from_weight_file(file: WeightFile) -> Evaluator {
        let set = PatternSet::get();
        let n = file.weights_per_phase as usize;
        let terms = (n > set.weights_per_phase).then_some(set.weights_per_phase);
        let board_terms = n == set.weights_per_phase + terms::WEIGHTS + terms::BOARD_WEIGHTS;
        let phases = file.phases as usize;
        let weights = file.weights;
        let mut offsets = [0u32; NUM_INSTANCES];
        for (k, o) in offsets.iter_mut().enumerate() {
            *o = set.offset_of(k) as u32;
        }
        Evaluator {
            phases,
            phase_width: file.phase_width as u32,
            weights_per_phase: n,
            terms,
            board_terms,
            weights,
            bias: file.bias.iter().map(|&b| b as i32).collect(),
            offsets,
        }
    }

    /// Phase of a position with `empties` empty squares.
    #[inline]
    pub fn phase(&self, empties: u32) -> usize {
        ((empties / self.phase_width) as usize).min(self.phases - 1)
    }

    /// How many phases the weights have.
    pub fn phases(&self) -> usize {
        self.phases
    }

    /// Whether these weights have the [`terms`] beside the patterns.
    pub fn has_terms(&self) -> bool {
        self.terms.is_some()
    }

    /// Whether these weights have the board terms (disc count, stable discs) after the
    /// count terms (`okapi train eval --board-terms`).
    pub fn has_board_terms(&self) -> bool {
        self.board_terms
    }

    /// The value of `board` (the side to move's view) given its pattern indices `idx`,
    /// with the terms' moves counted by `cpu`'s generator (the search's fast copy passes
    /// its own); `own`, when the caller has it: the side to move's count of legal moves.
    #[inline(always)]
    fn sum<K: Cpu>(&self, cpu: K, board: &Board, idx: &IndexVector, own: Option<u32>) -> i32 {
        let empties = board.empty_count();
        let phase = self.phase(empties);
        let base = phase * self.weights_per_phase;
        let w = &self.weights[base..base + self.weights_per_phase];
        let mut sum = self.bias[phase];
        for k in 0..NUM_INSTANCES {
            sum += w[self.offsets[k] as usize + idx.0[k] as usize] as i32;
        }
        if let Some(start) = self.terms {
            let t = &w[start..];
            let ix = terms::indices_on(cpu, board.player, board.opponent, empties, own);
            for i in ix {
                sum += t[i] as i32;
            }
            if self.board_terms {
                for i in terms::board_indices(board.player, board.opponent) {
                    sum += t[i] as i32;
                }
            }
        }
        sum.clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The side to move's expected final disc difference, in 1/[`SCALE`] disc, with all
    /// pattern indices computed from the bitboards.
    #[inline]
    pub fn evaluate(&self, board: &Board) -> i32 {
        let idx = PatternSet::get().index_vector(board.player, board.opponent);
        self.sum(Portable, board, &idx, None)
    }

    /// The same value from incrementally kept indices.
    #[inline(always)]
    pub fn evaluate_state(&self, state: &EvalState) -> i32 {
        self.sum(Portable, &state.board, &state.indices[state.mover], None)
    }

    /// [`evaluate_state`](Self::evaluate_state) in the search's copy for `cpu`: its
    /// move generator counts the terms' moves.
    #[inline(always)]
    pub(crate) fn evaluate_state_on<K: Cpu>(&self, cpu: K, state: &EvalState) -> i32 {
        self.sum(cpu, &state.board, &state.indices[state.mover], None)
    }

    /// [`evaluate_state`](Self::evaluate_state) of the position after the side to move
    /// plays `sq` flipping `flipped`, without changing `state`. Only the index set that
    /// evaluation reads (the opponent's, who moves next) is updated, on a copy: a search's
    /// last ply needs neither the other set nor an undo.
    #[inline(always)]
    pub fn evaluate_after(&self, state: &EvalState, sq: u32, flipped: u64) -> i32 {
        self.evaluate_after_on(Portable, state, sq, flipped, None)
    }

    /// [`evaluate_after`](Self::evaluate_after) in the search's copy for `cpu`, as
    /// [`evaluate_state_on`](Self::evaluate_state_on); `replies`, when the caller has
    /// counted it already (a search orders its last ply's moves by it): the count of the
    /// opponent's legal moves after the move (the side to move's then).
    #[inline(always)]
    pub(crate) fn evaluate_after_on<K: Cpu>(
        &self,
        cpu: K,
        state: &EvalState,
        sq: u32,
        flipped: u64,
        replies: Option<u32>,
    ) -> i32 {
        let set = PatternSet::get();
        let mut idx = state.indices[state.mover ^ 1];
        // In the next mover's view the new disc is digit 2, a flipped disc goes 1 -> 2.
        idx.add_scaled(&set.digits[sq as usize], 2);
        idx.add_scaled(&set.digit_sum(flipped), 1);
        self.sum(cpu, &state.board.after(sq, flipped), &idx, replies)
    }

    /// The evaluation in discs (for display).
    pub fn evaluate_discs(&self, board: &Board) -> f64 {
        self.evaluate(board) as f64 / SCALE as f64
    }
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::embedded()
    }
}

/// Pattern indices kept up to date move by move.
///
/// Two index sets ([`IndexVector`]s) are kept: `indices[mover]` from the side to move's
/// view (digit 1 = its disc), the other from the opponent's. A move updates both and
/// hands the move over (flipping `mover` rather than swapping the arrays, which cost more
/// than the update), so the evaluator always reads the mover's set with a single weight
/// table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalState {
    indices: [IndexVector; 2],
    mover: usize,
    /// The position the indices describe, its side to move as `player` (the [`terms`]
    /// count its moves).
    board: Board,
    /// Empty squares of the position the indices describe.
    pub empties: u32,
}

impl EvalState {
    /// The indices of `board`, computed from scratch, `board.player` to move.
    pub fn new(board: &Board) -> EvalState {
        let (own, other) = PatternSet::get().index_vectors_both(board.player, board.opponent);
        EvalState {
            indices: [own, other],
            mover: 0,
            board: *board,
            empties: board.empty_count(),
        }
    }

    /// The side to move plays `sq`, flipping `flipped` (as given by `Board::flips`).
    #[inline(always)]
    pub fn make_move(&mut self, sq: u32, flipped: u64) {
        let set = PatternSet::get();
        let placed = &set.digits[sq as usize];
        let turned = set.digit_sum(flipped);
        let (own, other) = self.views();
        // The mover's new disc is digit 1 in its own view, 2 in the other; a flipped disc
        // goes from 2 to 1 in the mover's view and from 1 to 2 in the other.
        own.add_scaled(placed, 1);
        own.sub(&turned);
        other.add_scaled(placed, 2);
        other.add_scaled(&turned, 1);
        self.mover ^= 1;
        self.board = self.board.after(sq, flipped);
        self.empties -= 1;
    }

    /// Undoes [`make_move`](Self::make_move) with the same arguments.
    #[inline(always)]
    pub fn undo_move(&mut self, sq: u32, flipped: u64) {
        let set = PatternSet::get();
        self.mover ^= 1;
        self.empties += 1;
        // The mover's disc on `sq` and the flipped discs were the opponent's before.
        self.board = Board {
            player: self.board.opponent ^ flipped ^ (1u64 << sq),
            opponent: self.board.player ^ flipped,
        };
        let placed = &set.digits[sq as usize];
        let turned = set.digit_sum(flipped);
        let (own, other) = self.views();
        own.sub(placed);
        own.add_scaled(&turned, 1);
        other.add_scaled(placed, 2u16.wrapping_neg()); // -2 modulo 2^16
        other.sub(&turned);
    }

    /// The side to move passes (undo by passing again).
    #[inline]
    pub fn pass(&mut self) {
        self.mover ^= 1;
        self.board = self.board.passed();
    }

    /// The mover's index set and the other side's.
    #[inline(always)]
    fn views(&mut self) -> (&mut IndexVector, &mut IndexVector) {
        let [a, b] = &mut self.indices;
        if self.mover == 0 { (a, b) } else { (b, a) }
    }

    /// The indices from the current side to move's view (they equal
    /// `PatternSet::indices` of the current board).
    pub fn mover_indices(&self) -> [u16; NUM_INSTANCES] {
        self.indices[self.mover].instances()
    }
}
