//! Solving the positions of a scrZebra script: shared by the command line
//! (`okapi -script`) and the engine thread, so a script solved in the app gives the same
//! results. The format itself (reading lines, writing results) is `formats::script`.

use crate::board::{Move, Position};
use crate::formats::script::Outcome;
use crate::search::{EndgameSolver, Solution, SolveMode, Stopped};

/// One solved position in script terms: the solver's answer and its script outcome.
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

/// Solves one position; a finished game is "solved" as its final count.
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
