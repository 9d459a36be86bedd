//! Proven values the board itself refutes, taken away so that the engine's own proof takes
//! their place. A game file claiming "exact +64" for every move of a game White wins by 4
//! showed those values in the move list and the graph beside the board's proof, even
//! after Analyse game.

use super::{Game, NodeId};
use crate::board::{Color, Move, Position};
use crate::game::EvalSource;
use crate::search::SolveMode;

/// The solves a game keeps, each with its position (a player solving the positions of a
/// game one after another finds each again).
pub const KEPT_SOLVES: usize = 64;

/// A solved position's proven line: shown at its position, and along it as far as the
/// game follows it. The record keeps it, so Okapi's game file and the autosave bring it
/// back.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvenLine {
    /// The position the line starts from.
    pub position: Position,
    /// Exact score or win/draw/loss.
    pub mode: SolveMode,
    /// The result for the side to move at `position` (discs, or 1/0/-1).
    pub score: i32,
    /// The proven line from `position`, passes included.
    pub line: Vec<Move>,
}

impl ProvenLine {
    /// Whether the board refutes the proof: a score no game ends with (an odd or
    /// out-of-range disc difference, a win/draw/loss beyond 1), a line that cannot be
    /// played from its position, or one that ends the game with another result.
    pub fn is_refuted(&self) -> bool {
        let possible = match self.mode {
            SolveMode::Exact => self.score % 2 == 0 && self.score.abs() <= 64,
            SolveMode::Wld => self.score.abs() <= 1,
        };
        if !possible || self.position.is_game_over() {
            return true;
        }
        let mut p = self.position;
        if self.line.iter().any(|&mv| p.play_move(mv).is_err()) {
            return true;
        }
        if !p.is_game_over() {
            return false;
        }
        let (b, w) = p.final_counts();
        let black = b as i32 - w as i32;
        let result = match self.position.side_to_move() {
            Color::Black => black,
            Color::White => -black,
        };
        match self.mode {
            SolveMode::Exact => result != self.score,
            SolveMode::Wld => result.signum() != self.score,
        }
    }
}

impl Game {
    /// The solves kept with the game, newest first.
    pub fn proofs(&self) -> &[ProvenLine] {
        &self.proofs
    }

    /// Keeps a solve's proven line with its position (a new solve of the same position
    /// replaces the old; the last [`KEPT_SOLVES`] are kept). A proof the board refutes
    /// is not kept.
    pub fn keep_proof(&mut self, proven: ProvenLine) {
        if proven.is_refuted() {
            return;
        }
        self.proofs.retain(|p| p.position != proven.position);
        self.proofs.insert(0, proven);
        self.proofs.truncate(KEPT_SOLVES);
    }

    /// Takes away every proven value (exact or win/draw/loss) that the moves recorded
    /// refute, and says how many there were:
    /// - an odd exact value (every final score is even: the empties go to the winner);
    /// - a move valued above what the move before it proved its position worth (both
    ///   values go: one of them is wrong);
    /// - a proof that the line from a move is best play to the end (each next move proven
    ///   as good as its position), when that end gives another result; a win/draw/loss
    ///   proof of a move that ends the game with another outcome.
    ///
    ///
    /// A solve kept with the game goes when [`ProvenLine::is_refuted`].
    ///
    /// The game analysis' best move goes too when its proof cannot be: an odd exact value,
    /// a win/draw/loss beyond 1, or an exact value below the move's own proven one.
    ///
    /// The readers call it on every game they read.
    pub fn drop_refuted_proofs(&mut self) -> usize {
        let solves = self.proofs.len();
        self.proofs.retain(|p| !p.is_refuted());
        let refuted_solves = solves - self.proofs.len();
        refuted_solves + self.drop_impossible_best_moves() + self.drop_refuted_move_values()
    }

    fn drop_impossible_best_moves(&mut self) -> usize {
        let mut dropped = 0;
        for node in &mut self.nodes {
            let Some(best) = node.best else { continue };
            let impossible = match best.eval.source {
                EvalSource::Exact => {
                    best.eval.value % 2 != 0
                        || node.eval.is_some_and(|e| {
                            e.source == EvalSource::Exact && e.value > best.eval.value
                        })
                }
                EvalSource::Wld => best.eval.value.abs() > 1,
                _ => false,
            };
            if impossible {
                node.best = None;
                dropped += 1;
            }
        }
        dropped
    }

    fn drop_refuted_move_values(&mut self) -> usize {
        // Children before their parents: a move's proof leans on those after it.
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![NodeId(0)];
        while let Some(n) = stack.pop() {
            order.push(n);
            stack.extend(self.node(n).children.iter().copied());
        }
        let mut refuted = vec![false; self.nodes.len()];
        // The line from a node, followed through its moves proven best, ends the game with
        // another result than the node's proof.
        let mut ends_wrong = vec![false; self.nodes.len()];
        for &n in order.iter().rev() {
            if n == NodeId(0) {
                continue;
            }
            let Some(eval) = self.node(n).eval else {
                continue;
            };
            let position = self.node(n).position;
            let mover = self.mover_of(n);
            let result = position.is_game_over().then(|| {
                let (b, w) = position.final_counts();
                let black = b as i32 - w as i32;
                if mover == Color::Black { black } else { -black }
            });
            match eval.source {
                EvalSource::Wld => {
                    if result.is_some_and(|r| r.signum() != eval.value) {
                        refuted[n.0 as usize] = true;
                    }
                    continue;
                }
                EvalSource::Exact => {}
                _ => continue,
            }
            if eval.value % 2 != 0 || result.is_some_and(|r| r != eval.value) {
                refuted[n.0 as usize] = true;
                ends_wrong[n.0 as usize] = true;
                continue;
            }
            for (next, w) in self.proven_replies(n) {
                let bound = if self.mover_of(next) == mover {
                    eval.value
                } else {
                    -eval.value
                };
                if w > bound {
                    refuted[n.0 as usize] = true;
                    refuted[next.0 as usize] = true;
                } else if w == bound && ends_wrong[next.0 as usize] {
                    refuted[n.0 as usize] = true;
                    ends_wrong[n.0 as usize] = true;
                }
            }
        }
        let mut dropped = 0;
        for (i, &r) in refuted.iter().enumerate() {
            if r {
                self.nodes[i].eval = None;
                dropped += 1;
            }
        }
        dropped
    }

    /// The side that made the move leading to `n`.
    fn mover_of(&self, n: NodeId) -> Color {
        let parent = self.node(n).parent.unwrap_or(NodeId(0));
        self.node(parent).position.side_to_move()
    }

    /// The moves after `n` (through passes) with an exact value, and that value.
    fn proven_replies(&self, n: NodeId) -> Vec<(NodeId, i32)> {
        let mut out = Vec::new();
        let mut stack: Vec<NodeId> = self.node(n).children.clone();
        while let Some(c) = stack.pop() {
            let node = self.node(c);
            if node.mv == Move::Pass {
                stack.extend(node.children.iter().copied());
            } else if let Some(e) = node.eval.filter(|e| e.source == EvalSource::Exact) {
                out.push((c, e.value));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::formats::transcript;
    use crate::game::{Eval, EvalSource};

    fn exact(value: i32) -> Eval {
        Eval {
            value,
            source: EvalSource::Exact,
        }
    }

    /// A whole game (White wins by 4... or whatever it ends with) valued "exact +64" then
    /// "-64" move after move, as a hostile file did: every proof goes.
    #[test]
    fn proofs_the_game_refutes_are_taken_away() {
        // A game to its end: each side plays its first legal move.
        let mut g = transcript::read("f5").unwrap();
        loop {
            let p = g.position_at(g.len());
            if p.is_game_over() {
                break;
            }
            let mv = match p.legal_moves().iter().next() {
                Some(sq) => crate::board::Move::Play(sq),
                None => crate::board::Move::Pass,
            };
            g.play(mv, None).unwrap();
        }
        let (b, w) = g.result().unwrap();
        assert_ne!(
            (b as i32 - w as i32).abs(),
            64,
            "the test needs a game short of a wipeout"
        );
        let plies = g.len();
        let mut g64 = g.clone();
        for i in 0..plies {
            let mover_black = g64.position_at(i).side_to_move() == crate::board::Color::Black;
            // "Black wins by 64" for every move, from each mover's side.
            g64.set_eval(i, exact(if mover_black { 64 } else { -64 }));
        }
        let proven = |g: &crate::game::Game| (0..plies).filter(|&i| g.eval_at(i).is_some()).count();
        assert!(g64.drop_refuted_proofs() > 0);
        assert_eq!(
            proven(&g64),
            0,
            "each proof claims best play to an end that refutes it"
        );
        // The true result on the last move stays; an odd value goes.
        let mut right = g.clone();
        let last = plies - 1;
        let mover_black = right.position_at(last).side_to_move() == crate::board::Color::Black;
        let black = b as i32 - w as i32;
        right.set_eval(last, exact(if mover_black { black } else { -black }));
        right.set_eval(0, exact(3));
        assert_eq!(right.drop_refuted_proofs(), 1);
        assert!(right.eval_at(last).is_some() && right.eval_at(0).is_none());
        // A move valued above what the move before proved its position worth.
        let mut over = g.clone();
        over.set_eval(0, exact(10));
        over.set_eval(1, exact(-4));
        assert_eq!(over.drop_refuted_proofs(), 2);
        // Consistent proofs stay: the reply no better than the position's value.
        let mut fine = g.clone();
        fine.set_eval(0, exact(4));
        fine.set_eval(1, exact(-6));
        assert_eq!(fine.drop_refuted_proofs(), 0);
    }
}
