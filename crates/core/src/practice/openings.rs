//! The opening trainer's lessons: a line (a named opening or any line) and the colour the
//! player takes; Okapi answers with the book's moves, drawn by their values or by how often
//! the games played them, and the player must find a move within the [`Tolerance`] of the
//! book's best. A miss becomes a [`Card`] on the practice schedule; when the book runs
//! out, the lesson ends with what the line scored in the games database.

use super::{Card, Day, Judgement, Origin, Schedule, Tolerance, judge};
use crate::board::{Color, Position, Square};
use crate::book::{Book, BookMove};
use crate::db::{Database, Filter};
use crate::game::openings;
use crate::game::{Eval, EvalSource};
use crate::search::SCALE;

/// How Okapi picks its book move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Weighting {
    /// Within a disc of the book's best, weighted by value (the book's own choice).
    #[default]
    BookValues,
    /// In proportion to the games that played each move.
    Games,
}

/// A lesson under way.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// The opening's name, or the line as played.
    pub name: String,
    /// The colour the player takes.
    pub player: Color,
    /// The position reached.
    pub position: Position,
    /// The moves played from the standard start.
    pub moves: Vec<Square>,
    /// Moves the player found.
    pub found: u32,
    /// The positions the player missed, as cards.
    pub missed: Vec<Card>,
}

/// What the games database says of the line a lesson reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineScore {
    /// Finished games through the position.
    pub games: u32,
    /// Black's score in per cent, a draw counting half.
    pub black_percent: f64,
    /// Black's average final disc difference.
    pub black_average: f64,
}

impl Lesson {
    /// A lesson from the standard start along `line`; an error names a move that is not
    /// legal where it comes.
    pub fn new(name: &str, line: &[Square], player: Color) -> Result<Lesson, String> {
        let mut position = Position::start();
        for (i, &sq) in line.iter().enumerate() {
            position
                .play(sq)
                .map_err(|e| format!("move {} ({sq}): {e}", i + 1))?;
            if position.must_pass() {
                position.force_pass();
            }
        }
        Ok(Lesson {
            name: name.to_string(),
            player,
            position,
            moves: line.to_vec(),
            found: 0,
            missed: Vec::new(),
        })
    }

    /// How much of `line` (from the standard start) a lesson can use: its moves up to the
    /// last position where `book` has a move, so that the lesson starts where the line
    /// left the book (the whole line when the book knows its end; 0 when it knows no
    /// position of it but the start's). Stops at a move that is not legal.
    pub fn book_prefix(line: &[Square], book: &Book) -> usize {
        let mut position = Position::start();
        let mut known = 0;
        for (i, &sq) in line.iter().enumerate() {
            if !book.moves(&position.board()).is_empty() {
                known = i;
            }
            if position.play(sq).is_err() {
                return known;
            }
            if position.must_pass() {
                position.force_pass();
            }
        }
        if !book.moves(&position.board()).is_empty() {
            known = line.len();
        }
        known
    }

    /// A lesson in the named opening (one of the 77 names), `None` for another name.
    pub fn of_opening(name: &str, player: Color) -> Option<Lesson> {
        let opening = openings::shipped()
            .list()
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))?;
        Lesson::new(opening.name, &opening.moves, player).ok()
    }

    /// Is it the player's move?
    pub fn players_turn(&self) -> bool {
        self.position.side_to_move() == self.player
    }

    /// The book's moves here, best first; none: the line has left the book.
    pub fn book_moves(&self, book: &Book) -> Vec<BookMove> {
        book.moves(&self.position.board())
    }

    /// Okapi's move: one of the book's, drawn by `weighting` (`uniform` gives numbers in
    /// [0, 1)); `None` when the book has no move here.
    pub fn okapi_move(
        &self,
        book: &Book,
        weighting: Weighting,
        uniform: &mut dyn FnMut() -> f64,
    ) -> Option<Square> {
        match weighting {
            Weighting::BookValues => book
                .choose(&self.position.board(), 1.0, uniform)
                .map(|m| m.square),
            Weighting::Games => {
                let moves = self.book_moves(book);
                let total: u64 = moves.iter().map(|m| u64::from(m.games)).sum();
                if total == 0 {
                    return moves.first().map(|m| m.square);
                }
                let mut x = uniform() * total as f64;
                for m in &moves {
                    if x < f64::from(m.games) {
                        return Some(m.square);
                    }
                    x -= f64::from(m.games);
                }
                moves.last().map(|m| m.square)
            }
        }
    }

    /// Plays `sq` for either side (a pass that follows is taken).
    pub fn play(&mut self, sq: Square) -> Result<(), String> {
        self.position.play(sq).map_err(|e| format!("{sq}: {e}"))?;
        if self.position.must_pass() {
            self.position.force_pass();
        }
        self.moves.push(sq);
        Ok(())
    }

    /// Judges the player's move against the book's values, within `tolerance` (the book's
    /// values are searched, not proven, unless the book proved them), then plays it. A
    /// move the book does not value is a miss. A miss becomes a card due `today`. `None`
    /// when the book does not know the position or the move is not legal.
    pub fn answer(
        &mut self,
        book: &Book,
        chosen: Square,
        tolerance: Tolerance,
        today: Day,
    ) -> Option<Judgement> {
        if !self.position.is_legal(chosen) {
            return None;
        }
        let values: Vec<(Square, Eval)> = self
            .book_moves(book)
            .iter()
            .map(|m| (m.square, book_eval(m)))
            .collect();
        let best = *values.first()?;
        let judgement = judge(&values, chosen, tolerance).unwrap_or(Judgement {
            chosen,
            // Not in the book: worth no more than the book's alternative (the best move
            // outside it); counted as a miss.
            chosen_eval: values
                .iter()
                .map(|v| v.1)
                .min_by_key(|e| e.value)
                .unwrap_or(best.1),
            best: best.0,
            best_eval: best.1,
            allowed: tolerance.clamped().allowed(false),
            right: false,
        });
        if judgement.right {
            self.found += 1;
        } else {
            self.missed.push(Card {
                position: self.position,
                played: chosen,
                played_eval: judgement.chosen_eval,
                best: judgement.best,
                best_eval: judgement.best_eval,
                origin: Origin {
                    player: self.player.name().to_string(),
                    game: format!("Opening trainer: {}", self.name),
                    ply: self.moves.len(),
                },
                schedule: Schedule::new(today),
                history: Vec::new(),
            });
        }
        self.play(chosen).ok()?;
        Some(judgement)
    }

    /// What the games database says of the position reached: the games through it and
    /// how they ended; `None` when no finished game reaches it.
    pub fn line_score(&self, db: &Database) -> Option<LineScore> {
        let answer = db.query(&self.position, &Filter::default());
        let (mut games, mut wins, mut draws, mut sum) = (0u32, 0u32, 0u32, 0i64);
        for m in &answer.moves {
            games += m.finished();
            wins += m.black_wins;
            draws += m.draws;
            sum += m.black_score_sum;
        }
        (games > 0).then(|| LineScore {
            games,
            black_percent: 100.0 * (f64::from(wins) + 0.5 * f64::from(draws)) / f64::from(games),
            black_average: sum as f64 / f64::from(games),
        })
    }
}

/// A book move's value as the judgement takes it: whole discs, proven where the book
/// proved it.
fn book_eval(m: &BookMove) -> Eval {
    Eval {
        value: (m.value as f64 / SCALE as f64).round() as i32,
        source: match m.source {
            crate::book::BookSource::Exact => EvalSource::Exact,
            _ => EvalSource::Book,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lesson_starts_at_the_end_of_its_opening() {
        let tiger = Lesson::of_opening("tiger", Color::White).unwrap();
        assert_eq!(tiger.name, "Tiger");
        assert_eq!(tiger.moves.len(), 5);
        assert_eq!(tiger.position.empty_count(), 55);
        assert!(
            tiger.players_turn(),
            "White moves after the Tiger's five moves"
        );
        assert!(Lesson::of_opening("no such opening", Color::Black).is_none());
        let a1 = Square::parse("a1").unwrap();
        assert!(
            Lesson::new("bad", &[a1], Color::Black)
                .unwrap_err()
                .contains("move 1 (a1)")
        );
    }

    /// A line that leaves the book: the lesson takes it up to where it left (the last
    /// position the book has a move in); a line the book knows to its end, whole.
    #[test]
    fn a_line_out_of_the_book_is_cut_where_it_left_it() {
        let book = crate::book::shipped();
        let line = |t: &str| -> Vec<Square> {
            t.as_bytes()
                .chunks(2)
                .map(|c| Square::parse(std::str::from_utf8(c).unwrap()).unwrap())
                .collect()
        };
        let tiger = Lesson::of_opening("Tiger", Color::White).unwrap().moves;
        assert_eq!(Lesson::book_prefix(&tiger, book), tiger.len());
        // f5 f4 f3 is a move no book line plays after f5 f4 (the book has moves after
        // f5 f4), and a game going on from there stays out of the book.
        let out = line("f5f4f3f6d3f2g6c3b3b2g4g3");
        let cut = Lesson::book_prefix(&out, book);
        assert!(cut < 4, "cut at {cut}");
        let mut position = Position::start();
        for &sq in &out[..cut] {
            position.play(sq).unwrap();
        }
        assert!(!book.moves(&position.board()).is_empty());
        assert_eq!(Lesson::book_prefix(&[], book), 0);
    }

    #[test]
    fn okapi_plays_book_moves_and_the_player_is_judged_by_the_book() {
        let book = crate::book::shipped();
        let mut lesson = Lesson::of_opening("Tiger", Color::White).unwrap();
        let moves = lesson.book_moves(book);
        assert!(moves.len() > 1, "the book knows the Tiger: {moves:?}");
        // The book's best is found; a move more than the tolerance worse is a miss, and a
        // card of the position before it.
        let best = moves[0];
        let worst = *moves
            .iter()
            .rev()
            .find(|m| (best.value - m.value) as f64 / SCALE as f64 > 1.5)
            .expect("a move clearly worse than the best in the Tiger");
        let mut missed = lesson.clone();
        let j = lesson
            .answer(book, best.square, Tolerance::default(), Day(20_000))
            .unwrap();
        assert!(j.right && lesson.missed.is_empty() && lesson.found == 1);
        assert_eq!(lesson.moves.len(), 6);
        let before = missed.position;
        let j = missed
            .answer(book, worst.square, Tolerance::default(), Day(20_000))
            .unwrap();
        assert!(!j.right, "{j:?}");
        assert_eq!(missed.missed.len(), 1);
        let card = &missed.missed[0];
        assert_eq!(
            (card.position, card.played, card.best),
            (before, worst.square, best.square)
        );
        assert_eq!(card.schedule.due, Day(20_000));
        // Okapi answers with a move of the book, by either weighting.
        for weighting in [Weighting::BookValues, Weighting::Games] {
            let mut x = 0.3;
            let mut uniform = || {
                x = (x + 0.37) % 1.0;
                x
            };
            let sq = lesson.okapi_move(book, weighting, &mut uniform).unwrap();
            assert!(lesson.book_moves(book).iter().any(|m| m.square == sq));
        }
    }

    #[test]
    fn games_weighting_follows_how_often_each_move_was_played() {
        let book = crate::book::shipped();
        let lesson = Lesson::new("start", &[], Color::White).unwrap();
        let lesson = {
            let mut l = lesson;
            l.play(Square::parse("f5").unwrap()).unwrap();
            l
        };
        let moves = lesson.book_moves(book);
        let total: u64 = moves.iter().map(|m| u64::from(m.games)).sum();
        assert!(total > 0, "{moves:?}");
        // The draw at 0 takes the first move with games; at just under 1, the last.
        let first = moves.iter().find(|m| m.games > 0).unwrap().square;
        assert_eq!(
            lesson.okapi_move(book, Weighting::Games, &mut || 0.0),
            Some(first)
        );
        let last = moves.iter().rev().find(|m| m.games > 0).unwrap().square;
        assert_eq!(
            lesson.okapi_move(book, Weighting::Games, &mut || 0.999_999_999),
            Some(last)
        );
    }
}
