//! A game in progress and its rules, shared by every front end (the app, the console,
//! `okapi nboard`, `okapi match`): who plays each colour, whose turn it is, forced passes,
//! undo and redo, the clock, and what the engine must be asked next.
//!
//! A front end turns its input into calls here, sends the engine what [`Session::next`]
//! says, and hands the engine's move back with [`Session::play_engine_move`]. It keeps
//! only its own input and output.
//!
//! ```
//! use okapi_core::board::{Color, Move, Position};
//! use okapi_core::game::{Game, Next, Seat, Session};
//! use okapi_core::level::Level;
//! let mut s = Session::new(Game::new(Position::start()), [Seat::Human, Seat::Engine(Level::numbered(4))]);
//! s.play(Move::parse("f5").unwrap(), None).unwrap();
//! // White is the engine: the front end asks it for a move.
//! let Next::EngineMove { position, .. } = s.next() else { panic!() };
//! s.play_engine_move(position, Move::parse("d6").unwrap(), None).unwrap();
//! // Undo takes back the engine's reply and the human's move; redo replays both.
//! assert!(s.undo());
//! assert_eq!(s.game().ply(), 0);
//! assert!(s.redo());
//! assert_eq!(s.game().ply(), 2);
//! ```

use super::clock::{Clock, clock_allotment};
use super::record::{Game, NewMove, ProvenLine, Seat};
use super::value::Eval;
use crate::board::{Color, Move, PlayError, Position};
use crate::level::Level;
use std::time::Duration;

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The game is over: no move can be played.
    #[error("the game is over")]
    GameOver,
    /// This colour's time ran out (the colour's name): the game is over for play.
    #[error("{0} lost on time")]
    LostOnTime(&'static str),
    /// [`Session::play`] (a person's move) while an engine seat is to move in a game being
    /// played (the colour's name).
    #[error("it is the engine's turn ({0} to move)")]
    NotYourTurn(&'static str),
    /// The engine answered for another position than the one at the cursor, or the side to
    /// move is no longer an engine seat (things changed while it thought): its move is
    /// dropped.
    #[error("the engine's move came for a position no longer on the board")]
    StaleEngineMove,
    /// The move is not legal here.
    #[error(transparent)]
    Illegal(#[from] PlayError),
}

/// What the engine should be asked for the position at the cursor.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// The game is over (or a side's time ran out): nothing.
    Over,
    /// The engine plays the side to move at `level`, in at most `time` when a clock runs.
    EngineMove {
        /// The position to move in.
        position: Position,
        /// The engine seat's level.
        level: Level,
        /// The time to use, from the clock and the moves left ([`clock_allotment`]).
        time: Option<Duration>,
    },
    /// A person is to move, or the position is one of the record's (being reviewed): the
    /// engine may value the legal moves.
    Values {
        /// The position whose moves to value.
        position: Position,
    },
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Session {
    game: Game,
    clock: Option<Clock>,
    lost_on_time: Option<Color>,
    /// Whether the game is being played at the cursor (the last change was a move)
    /// rather than reviewed (the cursor was moved back or forth): the engine plays its
    /// turn when the game is played, or at the end of the line.
    live: bool,
}

impl Session {
    /// A session over `game` (any start position, any moves) with these seats; a forced
    /// pass at the cursor is played.
    pub fn new(mut game: Game, seats: [Seat; 2]) -> Session {
        game.seats = seats;
        let mut session = Session {
            game,
            clock: None,
            lost_on_time: None,
            live: false,
        };
        session.changed();
        session
    }

    /// Plays with a clock of `per_side` for each colour (none when zero).
    pub fn with_clock(mut self, per_side: Duration) -> Session {
        self.game.time_per_side = (!per_side.is_zero()).then_some(per_side);
        self.clock = self.game.time_per_side.map(Clock::new);
        self.changed();
        self
    }

    /// A new game from the position at the cursor (standard, set up, loaded or any point
    /// of a game), with these players and clock: the moves that led here stay, with
    /// their values and numbers (the game goes on, as WZebra's does); what came after
    /// the cursor and the other lines are left behind.
    pub fn new_game_from_here(&self, seats: [Seat; 2], per_side: Duration) -> Session {
        let mut game = Game::new(self.game.start());
        for i in 0..self.game.ply() {
            let mv = self.game.move_at(i).expect("on the line");
            game.play(mv, self.game.eval_at(i))
                .expect("a recorded move is legal");
        }
        game.black = seat_name(seats[0]);
        game.white = seat_name(seats[1]);
        Session::new(game, seats).with_clock(per_side)
    }

    /// The game record.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The record, for what does not touch the rules (names, comment, values, variations
    /// of the past). Moves are played through the session.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The record, the session ending.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// Who plays each colour (Black, White).
    pub fn seats(&self) -> [Seat; 2] {
        self.game.seats
    }

    /// The name of `color`'s player as the record gives it (a file's or the database's
    /// players), or its seat's name when the record names nobody. Who plays on from here
    /// is the seat, a separate matter: a database game studied at the board keeps its
    /// players' names while a person plays both sides.
    pub fn player_name(&self, color: Color) -> String {
        let name = match color {
            Color::Black => &self.game.black,
            Color::White => &self.game.white,
        };
        match name.trim() {
            "" => seat_name(self.game.seats[color as usize]),
            name => name.to_string(),
        }
    }

    /// Gives `color` to a person or the engine ([`Session::next`] then says what the
    /// engine must be asked).
    pub fn set_seat(&mut self, color: Color, seat: Seat) {
        self.game.seats[color as usize] = seat;
        self.changed();
    }

    /// The position at the cursor.
    pub fn position(&self) -> Position {
        self.game.position()
    }

    /// Who plays the side to move.
    pub fn seat_to_move(&self) -> Seat {
        self.game.seats[self.position().side_to_move() as usize]
    }

    /// The clock, when the game is played with one.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The side whose time ran out, if any: the game is over for play.
    pub fn lost_on_time(&self) -> Option<Color> {
        self.lost_on_time
    }

    /// Is play over at the cursor (game over, or a flag fell)?
    pub fn is_over(&self) -> bool {
        self.lost_on_time.is_some() || self.position().is_game_over()
    }

    /// Does a person play `color`, and is anyone human at all?
    fn has_human(&self) -> bool {
        self.game.seats.contains(&Seat::Human)
    }

    /// Whether the cursor is at the end of the current line (where the game goes on).
    pub fn at_end(&self) -> bool {
        !self.game.can_redo()
    }

    /// Whether the game goes on at the cursor: at the end of the line, or just after a
    /// move (a move played after undo that follows the record is play, not review: the
    /// engine answers again rather than replaying its recorded reply).
    pub fn in_play(&self) -> bool {
        self.live || self.at_end()
    }

    /// Keeps a solve's proven line with its position, in the record ([`Game::keep_proof`]):
    /// stepping away and back shows it again, and the game's file keeps it.
    pub fn set_proven_line(&mut self, proven: ProvenLine) {
        self.game.keep_proof(proven);
        self.changed();
    }

    /// The proven line from the position at the cursor: a solve of this position, or the
    /// rest of one from an earlier position of the line whose moves the game followed to
    /// here.
    pub fn proven_here(&self) -> Option<ProvenLine> {
        let here = self.game.ply();
        self.game.proofs().iter().find_map(|p| {
            let from = (0..=here)
                .rev()
                .find(|&i| self.game.position_at(i) == p.position)?;
            let played = self.game.moves();
            let followed = &played[from..here];
            if !p.line.starts_with(followed) {
                return None;
            }
            let sign = if followed.len().is_multiple_of(2) {
                1
            } else {
                -1
            };
            Some(ProvenLine {
                position: self.game.position_at(here),
                mode: p.mode,
                score: sign * p.score,
                line: p.line[followed.len()..].to_vec(),
            })
        })
    }

    /// Whether a game between a person and the engine has just been played to its end
    /// (a front end then values every move, so the player sees the mistakes).
    pub fn just_finished_against_engine(&self) -> bool {
        let seats = self.game.seats;
        self.live
            && self.position().is_game_over()
            && seats.contains(&Seat::Human)
            && seats.iter().any(Seat::is_engine)
    }

    /// What the engine should be asked now.
    pub fn next(&self) -> Next {
        let position = self.position();
        if self.is_over() {
            return Next::Over;
        }
        match self.seat_to_move() {
            Seat::Engine(level) if self.in_play() => Next::EngineMove {
                position,
                level,
                time: self.engine_time(),
            },
            _ => Next::Values { position },
        }
    }

    /// The engine's move for the side to move even inside the record (a front end's
    /// "let the engine move" after a stop or from an earlier position).
    pub fn engine_move_now(&self) -> Option<Next> {
        if self.is_over() {
            return None;
        }
        match self.seat_to_move() {
            Seat::Engine(level) => Some(Next::EngineMove {
                position: self.position(),
                level,
                time: self.engine_time(),
            }),
            Seat::Human => None,
        }
    }

    /// What the clock gives the side to move for this move, if a clock runs.
    pub fn engine_time(&self) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        let position = self.position();
        Some(clock_allotment(
            clock.left(position.side_to_move()),
            position.empty_count(),
        ))
    }

    /// A person's move at the cursor. Forced passes after it are played; returns the
    /// colours that passed.
    pub fn play(&mut self, mv: Move, eval: Option<Eval>) -> Result<Vec<Color>, SessionError> {
        self.check_playable()?;
        if let Seat::Engine(_) = self.seat_to_move()
            && self.in_play()
        {
            return Err(SessionError::NotYourTurn(
                self.position().side_to_move().name(),
            ));
        }
        self.play_any(mv, eval)
    }

    /// The engine's move for `asked` (the position it was asked about); refused when the
    /// board has moved on since.
    pub fn play_engine_move(
        &mut self,
        asked: Position,
        mv: Move,
        eval: Option<Eval>,
    ) -> Result<Vec<Color>, SessionError> {
        if asked != self.position() || !matches!(self.seat_to_move(), Seat::Engine(_)) {
            return Err(SessionError::StaleEngineMove);
        }
        self.check_playable()?;
        self.play_any(mv, eval)
    }

    /// A person's move at the cursor added as a variation: when it is new there, the
    /// recorded continuation stays the main line ("add as variation"). Otherwise as
    /// [`Session::play`].
    pub fn play_as_variation(
        &mut self,
        mv: Move,
        eval: Option<Eval>,
    ) -> Result<Vec<Color>, SessionError> {
        self.check_playable()?;
        if let Seat::Engine(_) = self.seat_to_move()
            && self.in_play()
        {
            return Err(SessionError::NotYourTurn(
                self.position().side_to_move().name(),
            ));
        }
        self.play_placed(mv, eval, NewMove::Variation)
    }

    /// A move at the cursor whoever's turn it is (protocols where the host decides:
    /// NBoard, analysis); forced passes after it are played. A move new at the cursor
    /// becomes the main continuation, the old one kept as a variation: after Undo, the
    /// game played on is the game.
    pub fn play_any(&mut self, mv: Move, eval: Option<Eval>) -> Result<Vec<Color>, SessionError> {
        self.play_placed(mv, eval, NewMove::MainLine)
    }

    fn play_placed(
        &mut self,
        mv: Move,
        eval: Option<Eval>,
        placement: NewMove,
    ) -> Result<Vec<Color>, SessionError> {
        if self.position().is_game_over() {
            return Err(SessionError::GameOver);
        }
        self.game.play_as(mv, eval, placement)?;
        self.live = true;
        let mut passed = Vec::new();
        if self.game.pass_if_needed() {
            passed.push(self.position().side_to_move().opposite());
        }
        self.changed();
        Ok(passed)
    }

    fn check_playable(&self) -> Result<(), SessionError> {
        if let Some(side) = self.lost_on_time {
            return Err(SessionError::LostOnTime(side.name()));
        }
        if self.position().is_game_over() {
            return Err(SessionError::GameOver);
        }
        Ok(())
    }

    /// The plies undo and redo stop at, in order: the start, the end of the line, and
    /// every position where someone has a move to make and, when a person plays, where a
    /// person is to move. Undo and redo step between the same stops, so each mirrors
    /// the other exactly.
    pub fn stops(&self) -> Vec<usize> {
        let len = self.game.len();
        let humans = self.has_human();
        (0..=len)
            .filter(|&p| {
                if p == 0 || p == len {
                    return true;
                }
                let position = self.game.position_at(p);
                if position.must_pass() {
                    return false;
                }
                !humans || self.game.seats[position.side_to_move() as usize] == Seat::Human
            })
            .collect()
    }

    /// Back to the previous stop (against the engine: the person's previous turn, the
    /// engine's reply taken back too); false at the start.
    pub fn undo(&mut self) -> bool {
        let ply = self.game.ply();
        let stop = self.stops().into_iter().rev().find(|&p| p < ply);
        self.review_at(stop)
    }

    /// Forward to the next stop along the line; false at its end.
    pub fn redo(&mut self) -> bool {
        let ply = self.game.ply();
        let stop = self.stops().into_iter().find(|&p| p > ply);
        self.review_at(stop)
    }

    /// Moves to ply `stop` of the line, if any, as review (the engine does not move).
    fn review_at(&mut self, stop: Option<usize>) -> bool {
        let Some(p) = stop else { return false };
        self.game.go_to(p);
        self.live = false;
        self.changed();
        true
    }

    /// Moves the cursor to ply `i` of the current line.
    pub fn go_to(&mut self, i: usize) {
        self.game.go_to(i);
        self.live = false;
        self.changed();
    }

    /// Switches the line at ply `i` to the recorded move `mv` (a variation).
    pub fn choose_variation(&mut self, i: usize, mv: Move) -> bool {
        let done = self.game.choose(i, mv);
        self.live = false;
        self.changed();
        done
    }

    /// Checks the clock: a side whose time is up loses; returns it the first time.
    pub fn check_time(&mut self) -> Option<Color> {
        if self.lost_on_time.is_some() {
            return None;
        }
        let side = self.clock.as_ref()?.flagged()?;
        self.lost_on_time = Some(side);
        self.changed();
        Some(side)
    }

    /// After any change: the clock runs for the side to move while the game goes on at
    /// the end of the line, and is stopped otherwise.
    fn changed(&mut self) {
        if self.at_end() {
            self.game.pass_if_needed();
        }
        let position = self.game.position();
        let running = !self.is_over() && self.in_play();
        if let Some(clock) = &mut self.clock {
            if running {
                clock.run_for(position.side_to_move());
            } else {
                clock.stop();
            }
        }
    }
}

/// The name a record keeps for a seat: "Human", "Okapi (greedy)", or "Okapi (level 8)".
pub fn seat_name(seat: Seat) -> String {
    match seat {
        Seat::Human => "Human".into(),
        Seat::Engine(level @ (Level::Random | Level::Greedy)) => {
            format!("Okapi ({})", level.name())
        }
        Seat::Engine(level) => format!("Okapi (level {})", level.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SolveMode;

    fn mv(s: &str) -> Move {
        Move::parse(s).unwrap()
    }

    fn engine() -> Seat {
        Seat::Engine(Level::numbered(2))
    }

    /// Plays `moves` with whoever is to move (the engine's answered for it).
    fn play_out(s: &mut Session, moves: &[&str]) {
        for m in moves {
            let p = s.position();
            match s.next() {
                Next::EngineMove { .. } => s.play_engine_move(p, mv(m), None).map(|_| ()),
                _ => s.play(mv(m), None).map(|_| ()),
            }
            .unwrap();
        }
    }

    #[test]
    fn human_against_engine_undo_redo_mirror() {
        let mut s = Session::new(Game::default(), [Seat::Human, engine()]);
        assert!(matches!(s.next(), Next::Values { .. }));
        play_out(&mut s, &["f5", "d6", "c3", "d3"]);
        assert_eq!(s.game().ply(), 4);
        assert!(s.play(mv("c4"), None).is_ok(), "Black is human, to move");
        assert!(matches!(s.next(), Next::EngineMove { .. }));
        assert!(matches!(
            s.play(mv("f4"), None),
            Err(SessionError::NotYourTurn(_))
        ));
        // undo: back to the human's last turn (before c4), then before c3, then the start
        assert!(s.undo());
        assert_eq!(s.game().ply(), 4);
        assert!(s.undo());
        assert_eq!(s.game().ply(), 2);
        assert!(s.undo());
        assert_eq!(s.game().ply(), 0);
        assert!(!s.undo());
        // redo mirrors: the same stops forward
        assert!(s.redo());
        assert_eq!(s.game().ply(), 2);
        assert!(s.redo());
        assert_eq!(s.game().ply(), 4);
        assert!(s.redo());
        assert_eq!(s.game().ply(), 5, "the end of the line is a stop");
        assert!(!s.redo());
        // inside the record the engine does not play by itself
        s.go_to(1);
        assert!(matches!(s.next(), Next::Values { .. }));
        assert!(matches!(s.engine_move_now(), Some(Next::EngineMove { .. })));
    }

    #[test]
    fn a_different_move_after_undo_is_the_game_and_the_old_line_a_variation() {
        let mut s = Session::new(Game::default(), [Seat::Human, engine()]);
        play_out(&mut s, &["f5", "d6", "c3", "d3"]);
        s.undo();
        assert_eq!(s.game().ply(), 2);
        s.play(mv("c5"), None).unwrap();
        assert!(matches!(s.next(), Next::EngineMove { .. }));
        play_out(&mut s, &["f4"]);
        assert_eq!(
            s.game().main_line(),
            vec![mv("f5"), mv("d6"), mv("c5"), mv("f4")],
            "the game played on is the main line"
        );
        assert_eq!(s.game().alternatives(2), vec![mv("c5"), mv("c3")]);
        // "Add as variation": the main line stays.
        s.undo();
        let third = s
            .position()
            .legal_moves()
            .iter()
            .map(Move::Play)
            .find(|&m| m != mv("c5") && m != mv("c3"))
            .expect("Black has a third move after f5 d6");
        s.play_as_variation(third, None).unwrap();
        assert_eq!(s.game().alternatives(2), vec![mv("c5"), mv("c3"), third]);
        assert_eq!(s.game().main_line()[2], mv("c5"));
        assert!(
            matches!(s.next(), Next::EngineMove { .. }),
            "the engine answers it"
        );
    }

    #[test]
    fn the_same_move_after_undo_is_played_and_the_engine_answers_again() {
        let mut s = Session::new(Game::default(), [Seat::Human, engine()]);
        play_out(&mut s, &["f5", "d6"]);
        assert!(s.undo());
        assert_eq!(s.game().ply(), 0);
        s.play(mv("f5"), None).unwrap();
        assert!(s.game().can_redo(), "the recorded reply is still there");
        assert!(matches!(s.next(), Next::EngineMove { .. }));
        // The engine's answer follows the record when it is the same move.
        let p = s.position();
        s.play_engine_move(p, mv("d6"), None).unwrap();
        assert_eq!(s.game().tree_size(), 2);
    }

    #[test]
    fn the_proven_line_follows_the_game_and_is_dropped_when_left() {
        let mut s = Session::new(Game::default(), [Seat::Human; 2]);
        let start = s.position();
        s.set_proven_line(ProvenLine {
            position: start,
            mode: SolveMode::Exact,
            score: 0,
            line: vec![mv("f5"), mv("d6"), mv("c3")],
        });
        assert!(s.proven_here().is_some());
        s.play(mv("f5"), None).unwrap();
        let p = s.proven_here().expect("on the line");
        assert_eq!(p.line, vec![mv("d6"), mv("c3")]);
        assert_eq!(p.score, 0);
        s.play(mv("f6"), None).unwrap();
        assert!(s.proven_here().is_none());
        // Back at the solved position, by undo or by going there: the line is there again
        // (it stays with its position, whatever was played after it).
        s.go_to(0);
        let p = s.proven_here().expect("at the solved position");
        assert_eq!((p.position, p.line.len()), (start, 3));
        s.go_to(1);
        assert!(s.proven_here().is_some(), "f5 is the line's move");
        s.go_to(2);
        assert!(s.proven_here().is_none(), "f6 is not the line's move");
    }

    /// Stepping along the proven line and back keeps it: it was dropped (or moved on
    /// with the game) and did not come back.
    #[test]
    fn the_proven_line_stays_with_its_position_when_stepping_away_and_back() {
        let mut s = Session::new(Game::default(), [Seat::Human; 2]);
        play_out(&mut s, &["f5", "d6", "c3"]);
        s.go_to(0);
        let start = s.position();
        s.set_proven_line(ProvenLine {
            position: start,
            mode: SolveMode::Exact,
            score: 2,
            line: vec![mv("f5"), mv("d6"), mv("c3")],
        });
        s.go_to(2);
        let p = s.proven_here().expect("two moves along the line");
        assert_eq!((p.line.clone(), p.score), (vec![mv("c3")], 2));
        s.go_to(1);
        assert_eq!(s.proven_here().expect("one move along").score, -2);
        s.go_to(0);
        assert_eq!(s.proven_here().expect("back at its position").line.len(), 3);
        // A second solve of another position keeps the first.
        s.go_to(3);
        let later = s.position();
        s.set_proven_line(ProvenLine {
            position: later,
            mode: SolveMode::Wld,
            score: 1,
            line: vec![mv("d3")],
        });
        assert_eq!(s.proven_here().unwrap().mode, SolveMode::Wld);
        s.go_to(0);
        assert_eq!(s.proven_here().unwrap().mode, SolveMode::Exact);
    }

    #[test]
    fn stale_engine_moves_are_refused() {
        let mut s = Session::new(Game::default(), [engine(), Seat::Human]);
        let Next::EngineMove { position, .. } = s.next() else {
            panic!("the engine plays Black")
        };
        s.play_engine_move(position, mv("f5"), None).unwrap();
        assert_eq!(
            s.play_engine_move(position, mv("f5"), None),
            Err(SessionError::StaleEngineMove)
        );
    }

    #[test]
    fn forced_passes_are_played_and_skipped_by_undo() {
        // A position where Black must pass: Black h8 alone vs White g8 + White to move
        // elsewhere. Use start "OX" row: White a1, Black b1, Black to move: Black has no
        // move, White has c1.
        let start = Position::parse(&format!("OX{} X", "-".repeat(62))).unwrap();
        let s = Session::new(Game::new(start), [Seat::Human, Seat::Human]);
        assert_eq!(s.game().moves(), vec![Move::Pass], "Black's forced pass");
        assert_eq!(s.position().side_to_move(), Color::White);
        assert_eq!(s.stops(), vec![0, 1]);
    }

    #[test]
    fn new_game_from_any_position_keeps_seats_and_clock() {
        let mut s = Session::new(Game::default(), [Seat::Human, Seat::Human]);
        play_out(&mut s, &["f5", "d6"]);
        let here = s.position();
        s.go_to(2);
        play_out(&mut s, &["c3"]);
        s.go_to(2);
        let s2 = s.new_game_from_here([engine(), Seat::Human], Duration::from_secs(60));
        assert_eq!(s2.position(), here);
        assert_eq!(s2.game().start(), Position::start());
        assert_eq!(
            s2.game().moves(),
            vec![mv("f5"), mv("d6")],
            "the moves that led here stay, what came after goes"
        );
        assert_eq!(s2.game().move_number(), 3);
        assert_eq!(s2.seats()[0], engine());
        assert!(s2.clock().is_some());
        assert!(matches!(s2.next(), Next::EngineMove { time: Some(_), .. }));
        assert_eq!(s2.game().black, "Okapi (level 2)");
    }

    #[test]
    fn the_record_names_the_players_and_the_seats_play_on() {
        let mut game = Game::default();
        game.black = "Tastet Marc".into();
        game.white = "  ".into();
        let s = Session::new(game, [Seat::Human, engine()]);
        assert_eq!(s.player_name(Color::Black), "Tastet Marc");
        assert_eq!(
            s.player_name(Color::White),
            "Okapi (level 2)",
            "no name: the seat's"
        );
        // A new game from here is a game between its seats.
        let s2 = s.new_game_from_here([Seat::Human, Seat::Human], Duration::ZERO);
        assert_eq!(s2.player_name(Color::Black), "Human");
    }

    #[test]
    fn engine_against_engine_stops_at_every_move() {
        let mut s = Session::new(Game::default(), [engine(), engine()]);
        play_out(&mut s, &["f5", "d6", "c3"]);
        assert_eq!(s.stops(), vec![0, 1, 2, 3]);
        assert!(s.undo());
        assert_eq!(s.game().ply(), 2);
    }
}
