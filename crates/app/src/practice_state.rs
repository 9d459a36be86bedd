//! What the practice window holds: where its cards are kept, the collection under way,
//! the round and the card on the board. Drawn by the practice window (`windows/practice/`),
//! driven by its commands (`command_handling/practice_*.rs`).

use crate::command::{CollectFrom, LessonChoice};
use okapi_core::board::{Color, Move, Position, Square};
use okapi_core::practice::openings::Lesson;
use okapi_core::practice::{self, AnalysedMove, Day, Judgement, Store};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;

/// A lesson from the line on the board that reached no named opening: its name, and the
/// opening trainer's choice of it.
pub(crate) const LINE_ON_BOARD: &str = "The line on the board";

/// The opening trainer: the lesson chosen and the one under way.
pub(crate) struct OpeningTrainer {
    /// The lesson asked for last: its opening, the player's colour, how Okapi draws its
    /// book moves.
    pub(crate) choice: LessonChoice,
    pub(crate) lesson: Option<Lesson>,
    /// The last move played, for the board.
    pub(crate) last: Option<Square>,
    /// What the player's last move was worth.
    pub(crate) verdict: Option<String>,
    /// The lesson is over: why, and what the line scored.
    pub(crate) ended: Option<String>,
    /// The lesson left the book before the games database was loaded: it is being read
    /// for the line's score.
    pub(crate) score_waits: bool,
    /// Draws Okapi's book moves.
    pub(crate) seed: u64,
}

impl Default for OpeningTrainer {
    fn default() -> Self {
        OpeningTrainer {
            choice: LessonChoice::default(),
            lesson: None,
            last: None,
            verdict: None,
            ended: None,
            score_waits: false,
            seed: 0x9e37_79b9_7f4a_7c15,
        }
    }
}

impl OpeningTrainer {
    /// A lesson waits for the player's move: the book's values stay hidden.
    pub(crate) fn asks(&self) -> bool {
        self.ended.is_none() && self.lesson.as_ref().is_some_and(Lesson::players_turn)
    }

    /// A number in [0, 1) for Okapi's draw (xorshift: a lesson needs no better).
    pub(crate) fn uniform(&mut self) -> f64 {
        let mut x = self.seed;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.seed = x;
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// What the window's engine is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Asking {
    #[default]
    Nothing,
    /// The game analysis of a game being collected.
    Games,
    /// The values of every move of the position shown.
    Values,
    /// The best line after the best move.
    Line,
    /// The values of every move of an ended lesson's position.
    LessonValues,
}

/// The practice window's state.
pub(crate) struct Practice {
    /// Where the cards are kept (none: only for this run).
    pub(crate) file: Option<PathBuf>,
    /// The cards, read from the file the first time the window opens.
    pub(crate) store: Option<Store>,
    /// A large practice file being read on a thread of its own (the window draws
    /// meanwhile).
    pub(crate) loading: Option<Receiver<practice::Opened>>,
    /// The figures the window shows of the store (what is due, the statistics), counted
    /// once after each change rather than every frame.
    pub(crate) figures: Option<Figures>,
    /// False when the file could not be read or set aside: it is not written over.
    pub(crate) writable: bool,
    /// The file as last read or written here: a save takes in what another window saved
    /// since.
    pub(crate) stamp: practice::FileStamp,
    /// What the person must know: a damaged file set aside, a save that failed.
    pub(crate) notice: Option<String>,
    /// The day taken as today (`None`: the clock's).
    pub(crate) day: Option<Day>,
    /// The collection asked for last: its source, whose games, the least loss kept.
    pub(crate) asked: CollectFrom,
    pub(crate) asking: Asking,
    /// Reading a folder or searching the database, on a thread of its own.
    pub(crate) finding: Option<Receiver<Result<practice::FolderGames, String>>>,
    /// Collecting from the database once it is loaded.
    pub(crate) waiting_for_database: bool,
    pub(crate) collecting: Option<Collecting>,
    /// What the last collection found.
    pub(crate) summary: Option<String>,
    pub(crate) round: Option<Round>,
    pub(crate) openings: OpeningTrainer,
}

impl Default for Practice {
    fn default() -> Self {
        Practice {
            file: None,
            store: None,
            loading: None,
            figures: None,
            writable: true,
            stamp: practice::FileStamp::default(),
            notice: None,
            day: None,
            asked: CollectFrom::default(),
            asking: Asking::Nothing,
            finding: None,
            waiting_for_database: false,
            collecting: None,
            summary: None,
            round: None,
            openings: OpeningTrainer::default(),
        }
    }
}

/// What the window shows of the store, counted when it changes: with 100,000 cards a
/// count each frame took longer than the frame.
pub(crate) struct Figures {
    pub(crate) day: Day,
    pub(crate) due: usize,
    pub(crate) round: usize,
    pub(crate) next_due: Option<(Day, usize)>,
    pub(crate) stats: practice::Stats,
}

impl Figures {
    pub(crate) fn of(store: &Store, day: Day) -> Figures {
        let stats = store.stats(day);
        Figures {
            day,
            due: stats.due,
            round: stats.due + stats.missed_today,
            next_due: store.next_due(day),
            stats,
        }
    }
}

/// A game to collect from: the player's moves, those already analysed and the others.
pub(crate) struct Pending {
    /// Marks the game as collected (none for the game on the board, which may go on).
    pub(crate) key: Option<String>,
    pub(crate) side: Color,
    pub(crate) player: String,
    pub(crate) label: String,
    /// The player's moves: ply, position before, move.
    pub(crate) plies: Vec<(usize, Position, Square)>,
    /// The moves valued so far (the board's game analysis, then the engine's).
    pub(crate) analysed: Vec<AnalysedMove>,
    /// From the game on the board: what the engine finds goes to its analysis too.
    pub(crate) on_board: bool,
}

/// A collection under way.
pub(crate) struct Collecting {
    pub(crate) queue: VecDeque<Pending>,
    pub(crate) current: Option<Pending>,
    pub(crate) total: usize,
    pub(crate) done: usize,
    pub(crate) new: usize,
    pub(crate) known: usize,
    /// Games already collected before, not analysed again.
    pub(crate) skipped: usize,
    pub(crate) problems: Vec<String>,
    /// Said before the games: how many were read, files that could not be.
    pub(crate) preface: String,
}

/// A round of practice: the cards due, in order.
pub(crate) struct Round {
    pub(crate) queue: Vec<usize>,
    pub(crate) at: usize,
    pub(crate) right: usize,
    pub(crate) missed: usize,
    /// Misses put back into the round to be tried again.
    pub(crate) retries: usize,
    pub(crate) shown: Option<Shown>,
}

/// The card on the board.
pub(crate) struct Shown {
    pub(crate) card: usize,
    /// Missed before today or earlier in the round: tried again.
    pub(crate) again: bool,
    /// Every value is in (the engine's analysis finished).
    pub(crate) valued: bool,
    /// The solver's proven line, where it solved the position.
    pub(crate) proven_line: Option<Vec<Move>>,
    pub(crate) answer: Option<Square>,
    pub(crate) judgement: Option<Judgement>,
    /// Days until the card comes back.
    pub(crate) next_in: Option<u32>,
    pub(crate) best_line: Option<Vec<Move>>,
    /// The best line was asked for and is on its way.
    pub(crate) line_asked: bool,
    /// The moves of the best line the board shows played (0: the card's position).
    pub(crate) line_step: usize,
}

impl Shown {
    /// The position after the first `line_step` moves of the best line, and the last of
    /// them; `None` while the board shows the card itself.
    pub(crate) fn line_position(&self, start: Position) -> Option<(Position, Square)> {
        let line = self.best_line.as_ref()?;
        if self.line_step == 0 {
            return None;
        }
        let mut p = start;
        let mut last = None;
        for &mv in line.iter().take(self.line_step) {
            p.play_move(mv).ok()?;
            if let Move::Play(sq) = mv {
                last = Some(sq);
            }
        }
        Some((p, last?))
    }
}

impl Practice {
    /// The day the practice takes as today (the clock's unless a test set one).
    pub(crate) fn today(&self) -> Day {
        self.day.unwrap_or_else(Day::today)
    }

    /// Is a collection or a reading of games under way?
    pub(crate) fn collecting_anything(&self) -> bool {
        self.collecting.is_some() || self.finding.is_some() || self.waiting_for_database
    }

    /// Counts the figures the window shows again when the store or the day changed (at
    /// the start of the frame: the window draws them as they are).
    pub(crate) fn count_figures(&mut self) {
        let today = self.today();
        if let Some(store) = &self.store
            && self.figures.as_ref().is_none_or(|f| f.day != today)
        {
            self.figures = Some(Figures::of(store, today));
        }
    }

    pub(crate) fn shown(&self) -> Option<&Shown> {
        self.round.as_ref()?.shown.as_ref()
    }

    /// A card waits for its answer: until it is judged, no view tells a move's value, a
    /// loss, a best move, a book value or where a move leads (the move list, the graph
    /// and the loss chart, the squares, the database, the status line all ask here).
    pub(crate) fn hides_answer(&self) -> bool {
        self.shown().is_some_and(|s| s.judgement.is_none()) || self.openings.asks()
    }

    /// What the board shows while practising: the card's position and the move answered
    /// (every move's known value shows too once it is judged: [`Practice::hides_answer`]),
    /// or a position of the best line being stepped through and its last move.
    pub(crate) fn board(&self) -> Option<(Position, Option<Square>)> {
        if let Some(lesson) = &self.openings.lesson {
            return Some((lesson.position, self.openings.last));
        }
        let s = self.shown()?;
        let card = self.store.as_ref()?.cards.get(s.card)?;
        if let Some((p, last)) = s.line_position(card.position) {
            return Some((p, Some(last)));
        }
        Some((card.position, s.answer))
    }

    /// The card's own position (whatever the board shows of its best line).
    pub(crate) fn card_position(&self) -> Option<Position> {
        let s = self.shown()?;
        Some(self.store.as_ref()?.cards.get(s.card)?.position)
    }

    /// A judged card's best line is there to step through on the board (Left and Right).
    pub(crate) fn steps_line(&self) -> bool {
        self.shown()
            .is_some_and(|s| s.judgement.is_some() && s.best_line.is_some())
    }
}

/// A game's player name, or the colour when the game names none.
pub(crate) fn name_or(name: &str, colour: &str) -> String {
    if name.trim().is_empty() {
        colour.to_string()
    } else {
        name.trim().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window draws the figures counted at the start of the frame: they are counted
    /// once the cards are read, and again on a new day.
    #[test]
    fn the_figures_are_counted_once_the_cards_are_read_and_again_the_next_day() {
        let day = Day(20_000);
        let mut p = Practice {
            day: Some(day),
            ..Practice::default()
        };
        p.count_figures();
        assert!(p.figures.is_none(), "no cards read yet");
        p.store = Some(Store::default());
        p.count_figures();
        assert_eq!(p.figures.as_ref().map(|f| (f.day, f.round)), Some((day, 0)));
        p.day = Some(day.plus(1));
        p.count_figures();
        assert_eq!(p.figures.as_ref().map(|f| f.day), Some(day.plus(1)));
    }
}
