//! What the game analysis found for each move (the best move of the position before it
//! and its value), kept in the record so that a game file and the autosave bring it back
//! without a new search; and what a record holds that a saved one does not, counted as
//! players count (moves, passes left out).

use super::{Game, NodeId};
use crate::board::{Move, Square};
use crate::game::Eval;

/// The best move of a position by the game analysis, and its value for its mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The best move.
    pub square: Square,
    /// Its value for the side to move.
    pub eval: Eval,
}

/// What a record holds that a saved one does not, as a player counts it (passes are no
/// moves), from [`Game::unsaved_against`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unsaved {
    /// The two start from different positions: every move is unsaved.
    pub other_start: bool,
    /// Moves of the main line the saved record does not hold.
    pub moves: usize,
    /// Moves of the main line the saved record holds before those ("2 moves after the
    /// saved 58").
    pub after: usize,
    /// Lines branching off that the saved record does not hold.
    pub variations: usize,
    /// The moves off the main line the saved record does not hold.
    pub variation_moves: usize,
    /// The players, date, event or comment differ.
    pub details: bool,
    /// The game analysis found a best move the saved record does not hold.
    pub analysis: bool,
}

impl Unsaved {
    /// Nothing unsaved, the analysis aside (a format may not keep it).
    pub fn moves_and_details_saved(&self) -> bool {
        self.moves == 0 && self.variation_moves == 0 && !self.details
    }
}

impl Game {
    /// The game analysis of the move at ply `i` of the current line: the best move of
    /// the position before it.
    pub fn best_at(&self, i: usize) -> Option<BestMove> {
        self.line.get(i).and_then(|&id| self.node(id).best)
    }

    /// Records the game analysis of the move at ply `i` of the current line.
    pub fn set_best(&mut self, i: usize, best: BestMove) {
        if let Some(&id) = self.line.get(i) {
            self.node_mut(id).best = Some(best);
        }
    }

    /// The game analysis of the move leading to `node`.
    pub fn best_of(&self, node: NodeId) -> Option<BestMove> {
        self.node(node).best
    }

    /// Sets the game analysis of the move leading to `node` (readers restoring a file).
    pub fn set_best_of(&mut self, node: NodeId, best: Option<BestMove>) {
        if node != NodeId(0) {
            self.node_mut(node).best = best;
        }
    }

    /// What this record holds that `saved` does not: the moves of the main line after
    /// those `saved` holds, the variations, the players, date, event or comment, and the
    /// game analysis. Values of single moves and the cursor are left out (the engine
    /// finds them again in a moment).
    pub fn unsaved_against(&self, saved: &Game) -> Unsaved {
        let plays = |mv: Option<Move>| usize::from(matches!(mv, Some(Move::Play(_))));
        let mut out = Unsaved {
            details: self.black != saved.black
                || self.white != saved.white
                || self.date != saved.date
                || self.event != saved.event
                || self.comment != saved.comment,
            ..Unsaved::default()
        };
        if self.start() != saved.start() {
            out.other_start = true;
            for id in 1..self.nodes.len() {
                let node = NodeId(id as u32);
                out.moves += plays(self.move_of(node));
            }
            out.analysis = self.nodes.iter().any(|n| n.best.is_some());
            return out;
        }
        // The main line first: held, then missing from the first move `saved` lacks.
        let mut on_main = vec![false; self.nodes.len()];
        let mut at = self.root();
        while let Some(&next) = self.children(at).first() {
            on_main[next.index()] = true;
            at = next;
        }
        let mut stack = vec![(self.root(), Some(saved.root()))];
        while let Some((mine, theirs)) = stack.pop() {
            for (k, &child) in self.children(mine).iter().enumerate() {
                let mv = self.move_of(child);
                let twin = theirs.and_then(|t| {
                    saved
                        .children(t)
                        .iter()
                        .copied()
                        .find(|&c| saved.move_of(c) == mv)
                });
                let main = on_main[child.index()];
                match (twin, main) {
                    (Some(_), true) => out.after += plays(mv),
                    (None, true) => out.moves += plays(mv),
                    (Some(_), false) => {}
                    (None, false) => {
                        // A line of its own: off a held move, or a branch of its own.
                        if theirs.is_some() || k > 0 {
                            out.variations += 1;
                        }
                        out.variation_moves += plays(mv);
                    }
                }
                if let Some(best) = self.best_of(child) {
                    out.analysis |= twin.is_none_or(|t| saved.best_of(t) != Some(best));
                }
                stack.push((child, twin));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Move, Position, Square};
    use crate::formats::transcript;
    use crate::game::{BestMove, Eval, EvalSource, Game, Unsaved};

    fn mv(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    fn best(square: &str, value: i32) -> BestMove {
        BestMove {
            square: Square::parse(square).unwrap(),
            eval: Eval {
                value,
                source: EvalSource::Midgame {
                    depth: 10,
                    confidence: 95,
                },
            },
        }
    }

    #[test]
    fn unsaved_moves_are_counted_as_players_count_them() {
        let saved = transcript::read("f5d6c3d3c4").unwrap();
        let mut g = saved.clone();
        let all_saved = Unsaved {
            after: 5,
            ..Default::default()
        };
        assert_eq!(g.unsaved_against(&saved), all_saved);
        g.go_to(g.len());
        g.play(mv("f4"), None).unwrap();
        g.play(mv("f6"), None).unwrap();
        let u = g.unsaved_against(&saved);
        assert_eq!((u.moves, u.after, u.variations), (2, 5, 0), "{u:?}");
        assert!(!u.moves_and_details_saved());
        // A variation off a saved move, of two moves.
        g.go_to(1);
        g.play(mv("f6"), None).unwrap();
        g.play(mv("e6"), None).unwrap();
        let u = g.unsaved_against(&saved);
        assert_eq!(
            (u.moves, u.after, u.variations, u.variation_moves),
            (2, 5, 1, 2),
            "{u:?}"
        );
        // Against nothing: every move, none after a saved one.
        let u = g.unsaved_against(&Game::default());
        assert_eq!((u.moves, u.after, u.variations), (7, 0, 1), "{u:?}");
        // Another start: every move.
        let other = Game::new(Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap());
        let u = g.unsaved_against(&other);
        assert!(u.other_start);
        assert_eq!(u.moves, 9);
        // The players changed.
        let mut named = saved.clone();
        named.black = "Ann".into();
        assert!(named.unsaved_against(&saved).details);
    }

    #[test]
    fn passes_are_no_moves() {
        // A game to its end, passes and all, against its first 10 plies.
        let mut g = transcript::read("f5").unwrap();
        loop {
            let p = g.position_at(g.len());
            if p.is_game_over() {
                break;
            }
            let m = match p.legal_moves().iter().next() {
                Some(sq) => Move::Play(sq),
                None => Move::Pass,
            };
            g.play(m, None).unwrap();
        }
        let passes = g.moves().iter().filter(|m| **m == Move::Pass).count();
        assert!(passes > 0, "the test needs a game with a pass");
        let mut saved = Game::new(g.start());
        for m in &g.moves()[..10] {
            saved.play(*m, None).unwrap();
        }
        let u = g.unsaved_against(&saved);
        let plays_after = g.moves()[10..].iter().filter(|m| **m != Move::Pass).count();
        assert_eq!(u.moves, plays_after);
        assert_eq!(u.moves, g.len() - 10 - passes);
    }

    #[test]
    fn the_analysis_counts_when_the_saved_record_lacks_it() {
        let saved = transcript::read("f5d6c3").unwrap();
        let mut g = saved.clone();
        g.set_best(1, best("f6", 2));
        assert_eq!(g.best_at(1), Some(best("f6", 2)));
        let u = g.unsaved_against(&saved);
        assert!(u.analysis && u.moves_and_details_saved(), "{u:?}");
        assert!(!g.unsaved_against(&g.clone()).analysis);
        // The one-line copy keeps the analysis.
        assert_eq!(g.current_line_only().best_at(1), Some(best("f6", 2)));
    }
}
