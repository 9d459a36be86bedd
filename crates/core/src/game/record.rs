//! The game record: a start position and a tree of moves (the main line and its
//! variations), each move with its value when known, a cursor, and the players, date and
//! comment.
//!
//! The record always has one *current line*: the moves from the start to the cursor,
//! then on along the variation last chosen at each branch (the main line by default).
//! Plies are counted along the current line, passes included, so every ply is explicit.
//! Playing a move at the cursor that differs from the recorded continuation starts a
//! variation; nothing is ever erased except by [`Game::delete_variation`].
//!
//! ```
//! use okapi_core::board::{Move, Position};
//! use okapi_core::game::Game;
//! let mv = |s| Move::parse(s).unwrap();
//! let mut game = Game::new(Position::start());
//! for m in ["f5", "d6", "c3"] {
//!     game.play(mv(m), None).unwrap();
//! }
//! game.go_to(1);
//! game.play(mv("f6"), None).unwrap(); // a variation at ply 1
//! assert_eq!(game.moves(), vec![mv("f5"), mv("f6")]);
//! assert_eq!(game.alternatives(1), vec![mv("d6"), mv("f6")]);
//! game.promote_line(); // f5 f6 becomes the main line
//! assert_eq!(game.main_line(), vec![mv("f5"), mv("f6")]);
//! ```

use super::value::Eval;
use crate::board::{Move, PlayError, Position, Square};
use crate::level::{Level, LevelError};
pub use analysis::{BestMove, Unsaved};

/// A node of the move tree; [`Game::root`] is the start position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct NodeId(u32);

impl NodeId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Node {
    /// The move that leads here (unused at the root).
    mv: Move,
    /// Its value for the side that made it, if known.
    eval: Option<Eval>,
    /// What the game analysis found best in the position before the move.
    best: Option<BestMove>,
    /// The position after the move (the start position at the root).
    position: Position,
    parent: Option<NodeId>,
    /// Continuations, the main one first.
    children: Vec<NodeId>,
    /// Index into `children` of the continuation the current line follows.
    chosen: usize,
}

/// A game: start position, the move tree, the cursor, and what is known about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    nodes: Vec<Node>,
    cursor: NodeId,
    /// The current line: the nodes after the root, in order (recomputed on each change).
    line: Vec<NodeId>,
    /// Black's name as the file gives it.
    pub black: String,
    /// White's name as the file gives it.
    pub white: String,
    /// Who plays each colour (Black, White) when the game goes on.
    pub seats: [Seat; 2],
    /// The clock each side had, when the game was played with one.
    pub time_per_side: Option<std::time::Duration>,
    /// The date the game was played, as written (`YYYY-MM-DD` for games made here).
    pub date: String,
    /// Where or at which tournament the game was played, as its source names it (a
    /// database game's tournament, GGF's `PC`, PGN's `Event`); empty for games made here.
    /// [`occasion`] says it with the date, the year once.
    pub event: String,
    /// A free comment on the game.
    pub comment: String,
    /// The solves of positions of the game, newest first ([`Game::keep_proof`]).
    proofs: Vec<ProvenLine>,
}

/// Where a move not yet recorded at the cursor goes among the moves recorded there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NewMove {
    /// First: the new move becomes the main continuation, the old one a variation (what
    /// a person playing on after Undo means: the game played is the game).
    #[default]
    MainLine,
    /// After the moves recorded there: a side line ("add as variation").
    Variation,
}

/// Who plays a colour: a person, or the engine at its own level.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Seat {
    /// A person: the front end waits for a move.
    #[default]
    Human,
    /// The engine at this level.
    Engine(Level),
}

/// Why a seat's text was not read (see [`Seat::parse`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SeatError {
    /// Neither `human` nor `okapi:` and a level.
    #[error("'{0}' is not a player: 'human' or 'okapi:' with a level (okapi:8)")]
    Unknown(String),
    /// `okapi:` with a text that is not a level.
    #[error(transparent)]
    Level(#[from] LevelError),
}

impl Seat {
    /// `human`, or `okapi:` and the level as [`Level::parse`] reads it (`okapi:8`,
    /// `okapi:greedy`, `okapi:12t1.5`, `okapi:5s`).
    pub fn label(&self) -> String {
        match self {
            Seat::Human => "human".into(),
            Seat::Engine(level) => format!("okapi:{}", level.name()),
        }
    }

    /// Reads what [`Seat::label`] writes (`human`, case-insensitive, or `okapi:` and a level);
    /// the error says what it expected.
    pub fn parse(text: &str) -> Result<Seat, SeatError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        match t.strip_prefix("okapi:") {
            Some(level) => Ok(Seat::Engine(Level::parse(level)?)),
            None => Err(SeatError::Unknown(t.to_string())),
        }
    }

    /// The seat is the engine's.
    pub fn is_engine(&self) -> bool {
        matches!(self, Seat::Engine(_))
    }
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::start())
    }
}

impl Game {
    /// A game from `start` with no move, two human seats, no clock, dated today.
    pub fn new(start: Position) -> Game {
        Game {
            nodes: vec![Node {
                mv: Move::Pass,
                eval: None,
                best: None,
                position: start,
                parent: None,
                children: Vec::new(),
                chosen: 0,
            }],
            cursor: NodeId(0),
            line: Vec::new(),
            black: String::new(),
            white: String::new(),
            seats: [Seat::Human; 2],
            time_per_side: None,
            date: today(),
            event: String::new(),
            comment: String::new(),
            proofs: Vec::new(),
        }
    }

    /// A record of `moves` from `start` (passes explicit), the cursor at the end; on an
    /// illegal move, its index and why.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<Game, (usize, PlayError)> {
        let mut game = Game::new(start);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv, None).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// The position the game starts from.
    pub fn start(&self) -> Position {
        self.nodes[0].position
    }

    /// The position at the cursor.
    pub fn position(&self) -> Position {
        self.node(self.cursor).position
    }

    /// Plies up to the cursor (passes included).
    pub fn ply(&self) -> usize {
        self.line
            .iter()
            .position(|&id| id == self.cursor)
            .map_or(0, |i| i + 1)
    }

    /// Plies on the current line, the part after the cursor included.
    pub fn len(&self) -> usize {
        self.line.len()
    }

    /// No move recorded at all.
    pub fn is_empty(&self) -> bool {
        self.nodes[0].children.is_empty()
    }

    /// The moves of the current line.
    pub fn moves(&self) -> Vec<Move> {
        self.line.iter().map(|&id| self.node(id).mv).collect()
    }

    /// The move at ply `i` of the current line.
    pub fn move_at(&self, i: usize) -> Option<Move> {
        self.line.get(i).map(|&id| self.node(id).mv)
    }

    /// The moves up to the cursor.
    pub fn played(&self) -> Vec<Move> {
        self.line[..self.ply()]
            .iter()
            .map(|&id| self.node(id).mv)
            .collect()
    }

    /// The known values of the current line's moves, for their movers.
    pub fn evals(&self) -> Vec<Option<Eval>> {
        self.line.iter().map(|&id| self.node(id).eval).collect()
    }

    /// The value of the move at ply `i` of the current line.
    pub fn eval_at(&self, i: usize) -> Option<Eval> {
        self.line.get(i).and_then(|&id| self.node(id).eval)
    }

    /// The position before ply `i` of the current line (`0..=len()`).
    pub fn position_at(&self, i: usize) -> Position {
        match i {
            0 => self.start(),
            _ => self.node(self.line[i - 1]).position,
        }
    }

    /// The last disc placed before the cursor (passes skipped).
    pub fn last_move(&self) -> Option<Square> {
        self.line[..self.ply()]
            .iter()
            .rev()
            .find_map(|&id| self.node(id).mv.square())
    }

    /// The move number of the next disc as players count it: the discs on the board
    /// less the four of the start, plus one — so a game started from a later position
    /// goes on counting from there (every move adds exactly one disc).
    pub fn move_number(&self) -> usize {
        self.move_number_at(self.ply())
    }

    /// The number players give the move at ply `i` of the current line (`0..=len()`), as
    /// [`Game::move_number`] counts: 1 to 60, from the position's own number in a game
    /// set up later, passes taking none (a pass has the number of the move after it).
    pub fn move_number_at(&self, i: usize) -> usize {
        number_of_next_move(&self.position_at(i.min(self.len())))
    }

    /// The cursor is not at the start: there is a move to take back.
    pub fn can_undo(&self) -> bool {
        self.cursor != NodeId(0)
    }

    /// The current line goes on past the cursor: there is a move to replay.
    pub fn can_redo(&self) -> bool {
        self.ply() < self.line.len()
    }

    /// Plays `mv` at the cursor. A move already recorded there is followed (its value
    /// updated when `eval` is at least as strong); any other move starts a variation
    /// after those recorded (the main line when nothing was recorded there). This is how
    /// readers rebuild a record; a person's new move goes through [`Game::play_as`].
    pub fn play(&mut self, mv: Move, eval: Option<Eval>) -> Result<(), PlayError> {
        self.play_as(mv, eval, NewMove::Variation)
    }

    /// Plays `mv` at the cursor; a move not yet recorded there goes where `placement`
    /// says: first (the new main continuation, the old one kept as a variation) or after
    /// the moves recorded there. A recorded move is followed and keeps its place.
    pub fn play_as(
        &mut self,
        mv: Move,
        eval: Option<Eval>,
        placement: NewMove,
    ) -> Result<(), PlayError> {
        let mut position = self.position();
        position.play_move(mv)?;
        let here = self.cursor;
        let existing = self
            .node(here)
            .children
            .iter()
            .position(|&c| self.node(c).mv == mv);
        let index = match existing {
            Some(index) => index,
            None => {
                let id = NodeId(self.nodes.len() as u32);
                self.nodes.push(Node {
                    mv,
                    eval: None,
                    best: None,
                    position,
                    parent: Some(here),
                    children: Vec::new(),
                    chosen: 0,
                });
                let children = &mut self.node_mut(here).children;
                match placement {
                    NewMove::MainLine => {
                        children.insert(0, id);
                        0
                    }
                    NewMove::Variation => {
                        children.push(id);
                        children.len() - 1
                    }
                }
            }
        };
        let child = self.node(here).children[index];
        self.node_mut(here).chosen = index;
        if let Some(eval) = eval {
            let slot = &mut self.node_mut(child).eval;
            if slot.is_none_or(|old| eval.replaces(&old)) {
                *slot = Some(eval);
            }
        }
        self.cursor = child;
        self.relink();
        Ok(())
    }

    /// Passes for the side to move if it has no move and the game goes on; returns whether
    /// it passed.
    pub fn pass_if_needed(&mut self) -> bool {
        if self.position().must_pass() {
            self.play(Move::Pass, None).expect("a forced pass is legal");
            true
        } else {
            false
        }
    }

    /// Steps back one ply; false at the start.
    pub fn undo(&mut self) -> bool {
        match self.node(self.cursor).parent {
            Some(parent) => {
                self.cursor = parent;
                true
            }
            None => false,
        }
    }

    /// Steps forward one ply along the current line; false at its end.
    pub fn redo(&mut self) -> bool {
        match self.line.get(self.ply()) {
            Some(&next) => {
                self.cursor = next;
                true
            }
            None => false,
        }
    }

    /// Moves the cursor to ply `i` of the current line (clamped to it).
    pub fn go_to(&mut self, i: usize) {
        let i = i.min(self.line.len());
        self.cursor = if i == 0 { NodeId(0) } else { self.line[i - 1] };
    }

    /// Records the value of the move at ply `i` of the current line if it is not weaker
    /// than what is known.
    pub fn set_eval(&mut self, i: usize, eval: Eval) {
        if let Some(&id) = self.line.get(i) {
            let slot = &mut self.node_mut(id).eval;
            if slot.is_none_or(|old| eval.replaces(&old)) {
                *slot = Some(eval);
            }
        }
    }

    /// The game's result when the current line ends with the game over: (Black, White)
    /// discs, empties to the winner.
    pub fn result(&self) -> Option<(u32, u32)> {
        let last = self.position_at(self.line.len());
        last.is_game_over().then(|| last.final_counts())
    }

    /// The current line as a transcript, `f5d6c3...`, passes left out (readers put them
    /// back).
    pub fn transcript(&self) -> String {
        transcript_of(&self.moves())
    }

    // --- Variations ---------------------------------------------------------------

    /// The moves recorded at ply `i` of the current line, the main one first (one move
    /// where there is no variation, none past the line's end).
    pub fn alternatives(&self, i: usize) -> Vec<Move> {
        if i >= self.line.len() {
            return Vec::new();
        }
        let parent = if i == 0 { NodeId(0) } else { self.line[i - 1] };
        self.node(parent)
            .children
            .iter()
            .map(|&c| self.node(c).mv)
            .collect()
    }

    /// Does the current line branch at ply `i` (more than one move recorded there)?
    pub fn branches_at(&self, i: usize) -> bool {
        self.alternatives(i).len() > 1
    }

    /// Is the current line the main line?
    pub fn on_main_line(&self) -> bool {
        self.line
            .iter()
            .all(|&id| self.node(self.parent_of(id)).children[0] == id)
    }

    /// Is ply `i` of the current line on the main line (all its branches main)?
    pub fn is_main_at(&self, i: usize) -> bool {
        self.line[..(i + 1).min(self.line.len())]
            .iter()
            .all(|&id| self.node(self.parent_of(id)).children[0] == id)
    }

    /// Switches the current line at ply `i` to the recorded move `mv` and puts the
    /// cursor after it; false when `mv` is not recorded there.
    pub fn choose(&mut self, i: usize, mv: Move) -> bool {
        if i > self.line.len() {
            return false;
        }
        let parent = if i == 0 { NodeId(0) } else { self.line[i - 1] };
        let Some(index) = self
            .node(parent)
            .children
            .iter()
            .position(|&c| self.node(c).mv == mv)
        else {
            return false;
        };
        self.node_mut(parent).chosen = index;
        self.cursor = self.node(parent).children[index];
        self.relink();
        true
    }

    /// Makes the current line the main line: at each of its branches its move comes
    /// first.
    pub fn promote_line(&mut self) {
        for k in 0..self.line.len() {
            let id = self.line[k];
            let parent = self.parent_of(id);
            let children = &mut self.node_mut(parent).children;
            let at = children.iter().position(|&c| c == id).expect("linked");
            children.remove(at);
            children.insert(0, id);
            self.node_mut(parent).chosen = 0;
        }
        self.relink();
    }

    /// A copy whose main line is the current line (the other lines kept as variations):
    /// what a one-line format (GGF, transcript) writes, so a file holds what is on screen.
    pub fn with_current_line_as_main(&self) -> Game {
        let mut game = self.clone();
        game.promote_line();
        game
    }

    /// A copy holding only the current line (the variations dropped), the cursor kept.
    pub fn current_line_only(&self) -> Game {
        let mut game = Game::new(self.start());
        for i in 0..self.len() {
            let mv = self.move_at(i).expect("on the line");
            game.play(mv, self.eval_at(i)).expect("a recorded move");
            if let Some(best) = self.best_at(i) {
                game.set_best(i, best);
            }
        }
        game.go_to(self.ply());
        game.black.clone_from(&self.black);
        game.white.clone_from(&self.white);
        game.seats = self.seats;
        game.time_per_side = self.time_per_side;
        game.date.clone_from(&self.date);
        game.event.clone_from(&self.event);
        game.comment.clone_from(&self.comment);
        game
    }

    /// Do the two records hold the same moves (every line, in the same order) from the
    /// same start, with the same players, date, event and comment? Values, the cursor
    /// and the seats are left out: they are not what a person made and would lose.
    pub fn same_record(&self, other: &Game) -> bool {
        fn lines(g: &Game) -> Vec<(usize, Move)> {
            let mut out = Vec::new();
            let mut stack = vec![(g.root(), 0usize)];
            while let Some((id, depth)) = stack.pop() {
                if let Some(mv) = g.move_of(id) {
                    out.push((depth, mv));
                }
                for &c in g.children(id).iter().rev() {
                    stack.push((c, depth + 1));
                }
            }
            out
        }
        self.start() == other.start()
            && self.black == other.black
            && self.white == other.white
            && self.date == other.date
            && self.event == other.event
            && self.comment == other.comment
            && lines(self) == lines(other)
    }

    /// How many moves (passes left out) of this record's tree (every line) `other` does not hold: those a
    /// person would lose if only `other` were kept (a save in a one-line format keeps the
    /// line on screen). Every move counts when the two start from different positions.
    pub fn moves_not_in(&self, other: &Game) -> usize {
        if self.start() != other.start() {
            return self.tree_size();
        }
        let mut missing = 0;
        let mut stack = vec![(self.root(), Some(other.root()))];
        while let Some((mine, theirs)) = stack.pop() {
            for &child in self.children(mine) {
                let mv = self.move_of(child);
                let twin = theirs.and_then(|t| {
                    other
                        .children(t)
                        .iter()
                        .copied()
                        .find(|&c| other.move_of(c) == mv)
                });
                // Moves as a player counts them: a pass is none.
                if twin.is_none() && matches!(mv, Some(Move::Play(_))) {
                    missing += 1;
                }
                stack.push((child, twin));
            }
        }
        missing
    }

    /// Deletes the move at ply `i` of the current line with everything after it. The
    /// current line then follows the main continuation there, if any; a cursor inside
    /// the deleted part goes back to ply `i`. False past the line's end.
    pub fn delete_variation(&mut self, i: usize) -> bool {
        let Some(&doomed) = self.line.get(i) else {
            return false;
        };
        if self.ply() > i {
            self.go_to(i);
        }
        let parent = self.parent_of(doomed);
        self.node_mut(parent).children.retain(|&c| c != doomed);
        self.node_mut(parent).chosen = 0;
        self.compact();
        self.relink();
        true
    }

    // --- The tree, for writers -------------------------------------------------------

    /// The start position's node.
    pub fn root(&self) -> NodeId {
        NodeId(0)
    }

    /// The continuations of `node`, the main one first.
    pub fn children(&self, node: NodeId) -> &[NodeId] {
        &self.node(node).children
    }

    /// The move leading to `node` (`None` at the root).
    pub fn move_of(&self, node: NodeId) -> Option<Move> {
        (node != NodeId(0)).then(|| self.node(node).mv)
    }

    /// The value of the move leading to `node`.
    pub fn eval_of(&self, node: NodeId) -> Option<Eval> {
        self.node(node).eval
    }

    /// Sets the value of the move leading to `node` (readers restoring a file).
    pub fn set_eval_of(&mut self, node: NodeId, eval: Option<Eval>) {
        if node != NodeId(0) {
            self.node_mut(node).eval = eval;
        }
    }

    /// The position after the move leading to `node` (the start at the root).
    pub fn position_of(&self, node: NodeId) -> Position {
        self.node(node).position
    }

    /// The node at the cursor.
    pub fn cursor(&self) -> NodeId {
        self.cursor
    }

    /// The main line's moves from the start.
    pub fn main_line(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = NodeId(0);
        while let Some(&next) = self.node(at).children.first() {
            moves.push(self.node(next).mv);
            at = next;
        }
        moves
    }

    /// Number of moves in the whole tree (every variation).
    pub fn tree_size(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Puts the cursor on `node`, the current line through it.
    pub fn go_to_node(&mut self, node: NodeId) {
        if node.index() >= self.nodes.len() {
            return;
        }
        let mut at = node;
        while let Some(parent) = self.node(at).parent {
            let index = self
                .node(parent)
                .children
                .iter()
                .position(|&c| c == at)
                .expect("linked");
            self.node_mut(parent).chosen = index;
            at = parent;
        }
        self.cursor = node;
        self.relink();
    }

    fn parent_of(&self, id: NodeId) -> NodeId {
        self.node(id).parent.expect("only the root has no parent")
    }

    /// Recomputes the current line: the path to the cursor, then the chosen
    /// continuations.
    fn relink(&mut self) {
        let mut path = Vec::new();
        let mut at = self.cursor;
        while let Some(parent) = self.node(at).parent {
            path.push(at);
            at = parent;
        }
        path.reverse();
        let mut at = self.cursor;
        loop {
            let node = self.node(at);
            let Some(&next) = node
                .children
                .get(node.chosen)
                .or_else(|| node.children.first())
            else {
                break;
            };
            path.push(next);
            at = next;
        }
        self.line = path;
    }

    /// Drops the nodes no longer reachable from the root, renumbering the rest.
    fn compact(&mut self) {
        let mut keep = vec![false; self.nodes.len()];
        let mut stack = vec![NodeId(0)];
        while let Some(id) = stack.pop() {
            keep[id.index()] = true;
            stack.extend(self.node(id).children.iter().copied());
        }
        let mut renumber = vec![u32::MAX; self.nodes.len()];
        let mut next = 0;
        for (i, &k) in keep.iter().enumerate() {
            if k {
                renumber[i] = next;
                next += 1;
            }
        }
        let map = |id: NodeId| NodeId(renumber[id.index()]);
        let old = std::mem::take(&mut self.nodes);
        for (i, mut node) in old.into_iter().enumerate() {
            if !keep[i] {
                continue;
            }
            node.parent = node.parent.map(map);
            for c in &mut node.children {
                *c = map(*c);
            }
            node.chosen = node.chosen.min(node.children.len().saturating_sub(1));
            self.nodes.push(node);
        }
        self.cursor = if keep[self.cursor.index()] {
            map(self.cursor)
        } else {
            NodeId(0)
        };
    }
}

/// Moves as a transcript, `f5d6c3...`, passes left out.
pub fn transcript_of(moves: &[Move]) -> String {
    moves
        .iter()
        .filter(|m| **m != Move::Pass)
        .map(|m| m.to_string())
        .collect()
}

/// The number of the next disc placed on `p`: the discs on it less the four of the start,
/// plus one (every move adds exactly one disc; at least 1 for a board of fewer discs).
fn number_of_next_move(p: &Position) -> usize {
    ((p.black_count() + p.white_count()) as usize)
        .saturating_sub(3)
        .max(1)
}

/// Moves from `start` as players write a line, numbered as the game counts its moves
/// (the discs on the board less the four of the start, plus one): `24. g8 25. h7 pass
/// 26. a8`. A pass gets no number (it places no disc).
pub fn numbered_line(start: &Position, moves: &[Move]) -> String {
    let mut number = number_of_next_move(start);
    let mut parts = Vec::with_capacity(moves.len());
    for m in moves {
        match m {
            Move::Play(sq) => {
                parts.push(format!("{number}. {sq}"));
                number += 1;
            }
            Move::Pass => parts.push("pass".to_string()),
        }
    }
    parts.join(" ")
}

/// Where and when a game was played, in one phrase: the event and the date, the year
/// said once. WTHOR's tournament names end with their year ("World Championship - 2025"),
/// so a database game of 2025 reads "World Championship 2025", not "... 2025 2025"; a GGF
/// date's time of day is left out ("2003.04.05_12:00:00.GMT" reads "2003.04.05"). Empty
/// when neither is known.
pub fn occasion(event: &str, date: &str) -> String {
    let event = event.trim();
    let day = date.trim().split(['_', ' ']).next().unwrap_or("");
    let year = day
        .get(..4)
        .filter(|y| y.bytes().all(|b| b.is_ascii_digit()));
    // The event without a last word that is the date's year.
    let stripped = year
        .and_then(|y| event.strip_suffix(y))
        .filter(|rest| !rest.ends_with(|c: char| c.is_ascii_digit()))
        .map(|rest| rest.trim_end_matches([' ', '-', '\u{2013}', ',', '/']));
    let base = stripped.unwrap_or(event);
    if base.is_empty() || day.is_empty() {
        return if base.is_empty() { day } else { base }.to_string();
    }
    // "World Championship 2025", but "EGP Paris - 2019, 2020" (two numbers apart).
    let just_a_year = year.is_some_and(|y| y.len() == day.len());
    if just_a_year && (stripped.is_some() || !base.ends_with(|c: char| c.is_ascii_digit())) {
        format!("{base} {day}")
    } else {
        format!("{base}, {day}")
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    crate::calendar::Day::today().to_string()
}

mod analysis;
mod proofs;
pub use proofs::{KEPT_SOLVES, ProvenLine};
#[cfg(test)]
mod tests;
