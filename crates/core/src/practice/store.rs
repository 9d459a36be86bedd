//! The practice file: every card with its schedule, and the games already collected, as
//! JSON in the data folder. Written whole and atomically ([`write_atomic`]), merged with
//! what is on disk first ([`Store::save_merged`]: two windows on one data folder keep
//! each other's answers); a file that cannot be read is set aside under another name,
//! with a notice, and practice goes on (with the cards that could be read, saved at once,
//! when only some could not).

use super::{Attempt, Card, Day, Origin, Phase, Schedule, Stats, Streak, Tolerance};
use crate::board::{Position, Square};
use crate::formats::{ReadError, read_capped, write_atomic};
use crate::game::Eval;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The practice file's name in the data folder.
pub const STORE_FILE: &str = "practice.json";

/// The most a practice file may hold: a card is about 1 KB as written, so some 250,000
/// cards, far more than a player collects. [`Store::save`] refuses to write more than this,
/// so a file Okapi writes is always one it reads back.
pub const MAX_STORE_FILE: u64 = 256 << 20;

/// What the file says it is, so another program's JSON is not taken for cards.
const FORMAT: &str = "okapi-practice";
/// The version written; a file of a later version is set aside, not misread. Version 2
/// keeps every answer of a card (`history`), the streak and the tolerance; a version 1
/// file reads with no answers recorded, the streak at 0 and the default tolerance.
const VERSION: u32 = 2;

/// The cards and the games they were collected from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Store {
    /// Every position practised, in the order collected.
    pub cards: Vec<Card>,
    /// Keys of the games (and sides) already collected ([`super::PlayerGame::key`]).
    games: BTreeSet<String>,
    /// Right answers in a row, over every card.
    pub streak: Streak,
    /// How far from the best a move may be and count as found.
    pub tolerance: Tolerance,
}

/// What adding cards did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Added {
    /// New positions.
    pub new: usize,
    /// Positions already practised (their schedules are kept).
    pub known: usize,
}

/// A practice file opened: the store, and what the person must be told.
#[derive(Debug)]
pub struct Opened {
    /// The cards read.
    pub store: Store,
    /// A damaged file set aside, cards skipped, a file that cannot be read.
    pub notice: Option<String>,
    /// False when the file is there but could not be read or set aside: saving over it
    /// would lose it, so progress is not saved there this time.
    pub writable: bool,
    /// The file as it was read, for [`Store::save_merged`] to tell whether another window
    /// saved since.
    pub stamp: FileStamp,
}

/// A file's modification time and size: whether it changed since it was read or written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileStamp(Option<(std::time::SystemTime, u64)>);

impl FileStamp {
    /// The file at `path` as it is now (none: not there).
    pub fn of(path: &Path) -> FileStamp {
        FileStamp(
            std::fs::metadata(path)
                .ok()
                .and_then(|m| Some((m.modified().ok()?, m.len()))),
        )
    }
}

/// Why a text is not a practice file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Not JSON of the practice file's shape.
    #[error("not a practice file ({0})")]
    NotJson(#[from] serde_json::Error),
    /// JSON of another program.
    #[error("not a practice file (its format is \"{0}\", not \"{FORMAT}\")")]
    OtherFormat(String),
    /// A later version of the file.
    #[error("written by a later Okapi (version {0}; this one reads version {VERSION})")]
    LaterVersion(u32),
}

/// A position as a key: the same discs and the same side to move.
fn key(p: &Position) -> (u64, u64, bool) {
    (
        p.black(),
        p.white(),
        p.side_to_move() == crate::board::Color::Black,
    )
}

/// How many times a card was answered: of two copies of one card, the one answered more
/// often is the later.
fn answers(card: &Card) -> u32 {
    card.schedule
        .right
        .saturating_add(card.schedule.missed)
        .max(card.history.len() as u32)
}

impl Store {
    /// Adds cards; a position already practised keeps its schedule and origin.
    pub fn add(&mut self, cards: Vec<Card>) -> Added {
        let mut added = Added::default();
        // A set, not a search of the list for each card: loading 100,000 cards took
        // seconds of a frozen window.
        let mut known: HashSet<_> = self.cards.iter().map(|c| key(&c.position)).collect();
        for card in cards {
            if known.insert(key(&card.position)) {
                self.cards.push(card);
                added.new += 1;
            } else {
                added.known += 1;
            }
        }
        added
    }

    /// Takes in what another copy of the practice file holds (another window's, saved
    /// since this one read it): its new cards and games, and its copy of a card where it
    /// was answered more often. Cards keep their places (a card being practised stays the
    /// same card); new ones come after.
    pub fn merge(&mut self, other: Store) {
        let total = |s: &Store| s.cards.iter().map(|c| u64::from(answers(c))).sum::<u64>();
        let (own_answers, other_answers) = (total(self), total(&other));
        let at: HashMap<_, usize> = self
            .cards
            .iter()
            .enumerate()
            .map(|(i, c)| (key(&c.position), i))
            .collect();
        for card in other.cards {
            match at.get(&key(&card.position)) {
                Some(&i) if answers(&card) > answers(&self.cards[i]) => self.cards[i] = card,
                Some(_) => {}
                None => self.cards.push(card),
            }
        }
        self.games.extend(other.games);
        // The streak of the copy that has seen more answers is the later one.
        if other_answers > own_answers {
            self.streak = other.streak;
        }
    }

    /// Has this game (and side) been collected already?
    pub fn has_game(&self, key: &str) -> bool {
        self.games.contains(key)
    }

    /// Remembers that this game (and side) was collected.
    pub fn mark_game(&mut self, key: String) {
        self.games.insert(key);
    }

    /// The cards due on `today`: the longest overdue first, then the largest loss.
    pub fn due(&self, today: Day) -> Vec<usize> {
        let mut due: Vec<usize> = (0..self.cards.len())
            .filter(|&i| self.cards[i].schedule.is_due(today))
            .collect();
        due.sort_by_key(|&i| {
            let c = &self.cards[i];
            (c.schedule.due, std::cmp::Reverse(c.loss()), i)
        });
        due
    }

    /// The cards of a round on `today`: those due ([`Store::due`]), then those whose last
    /// answer today was a miss (practised again until answered right), the largest loss
    /// first.
    pub fn round(&self, today: Day) -> Vec<usize> {
        let mut round = self.due(today);
        let mut missed: Vec<usize> = (0..self.cards.len())
            .filter(|&i| self.cards[i].missed_on(today) && !self.cards[i].schedule.is_due(today))
            .collect();
        missed.sort_by_key(|&i| (std::cmp::Reverse(self.cards[i].loss()), i));
        round.extend(missed);
        round
    }

    /// How the practice goes on `today`: answers by phase, the streak, what is due.
    pub fn stats(&self, today: Day) -> Stats {
        let mut phases = [super::Tally::default(); 3];
        for card in &self.cards {
            let phase = Phase::of(&card.position);
            let i = Phase::ALL.iter().position(|&p| p == phase).unwrap_or(0);
            let t = card.tally();
            phases[i].right += t.right;
            phases[i].missed += t.missed;
        }
        let due = self.due(today).len();
        Stats {
            cards: self.cards.len(),
            due,
            missed_today: self.round(today).len() - due,
            phases,
            streak: self.streak,
        }
    }

    /// The next day after `today` when cards are due, and how many.
    pub fn next_due(&self, today: Day) -> Option<(Day, usize)> {
        let day = self
            .cards
            .iter()
            .map(|c| c.schedule.due)
            .filter(|&d| d > today)
            .min()?;
        Some((
            day,
            self.cards.iter().filter(|c| c.schedule.due == day).count(),
        ))
    }

    /// Takes the answer `played` to card `index` given on `today`, right or not; the days
    /// until it comes back. Every answer goes into the card's history and the streak; the
    /// first of the day moves the schedule, a retry the same day does not (a position
    /// missed in the morning and found an hour later still comes back tomorrow).
    pub fn answer(
        &mut self,
        index: usize,
        played: crate::board::Square,
        right: bool,
        today: Day,
    ) -> Option<u32> {
        let card = self.cards.get_mut(index)?;
        let retry = card.answered_on(today);
        card.history.push(Attempt {
            day: today,
            played,
            right,
        });
        self.streak.take(right);
        if retry {
            return Some(today.until(card.schedule.due).max(0) as u32);
        }
        Some(card.schedule.answered(right, today))
    }

    /// The file's text.
    pub fn to_json(&self) -> String {
        let file = StoreFile {
            format: FORMAT.into(),
            version: VERSION,
            cards: self
                .cards
                .iter()
                .map(|c| serde_json::to_value(CardRecord::of(c)).expect("a card serialises"))
                .collect(),
            games: self.games.iter().cloned().collect(),
            streak: Some(StreakRecord {
                current: self.streak.current,
                best: self.streak.best,
            }),
            tolerance: Some(self.tolerance),
        };
        serde_json::to_string_pretty(&file).expect("the practice file serialises")
    }

    /// Reads the file's text: the store and the cards that could not be read (card
    /// number from 1 and why). An error when the text is not a practice file at all.
    pub fn from_json(text: &str) -> Result<(Store, Vec<String>), StoreError> {
        let file: StoreFile = serde_json::from_str(text)?;
        if file.format != FORMAT {
            return Err(StoreError::OtherFormat(file.format));
        }
        if file.version > VERSION {
            return Err(StoreError::LaterVersion(file.version));
        }
        let mut store = Store {
            cards: Vec::new(),
            games: file.games.into_iter().collect(),
            streak: file
                .streak
                .map(|s| Streak {
                    current: s.current,
                    best: s.best.max(s.current),
                })
                .unwrap_or_default(),
            tolerance: file.tolerance.unwrap_or_default().clamped(),
        };
        let mut skipped = Vec::new();
        let mut cards = Vec::with_capacity(file.cards.len());
        for (i, value) in file.cards.into_iter().enumerate() {
            let card = serde_json::from_value::<CardRecord>(value)
                .map_err(|e| e.to_string())
                .and_then(CardRecord::card);
            match card {
                Ok(card) => cards.push(card),
                Err(e) => skipped.push(format!("card {}: {e}", i + 1)),
            }
        }
        store.add(cards);
        Ok((store, skipped))
    }

    /// Opens the practice file at `path`. A missing file is an empty store. A file that
    /// is not a practice file, or holds cards that cannot be read, is renamed to
    /// `practice.json.unreadable` (numbered when that exists) and the notice says so: the
    /// cards that could be read are kept and saved anew. A file that cannot be read at
    /// all (no permission) is left alone and not written over.
    pub fn open(path: &Path) -> Opened {
        if crate::formats::is_special_file(path) {
            // A FIFO would wait for a writer for ever, a device would be read as cards.
            return Opened {
                store: Store::default(),
                notice: Some(format!(
                    "The practice file {} is not a regular file (a FIFO, a device or a \
                     socket): it is not read, and your progress is not saved there until it \
                     is replaced by a file or removed.",
                    path.display()
                )),
                writable: false,
                stamp: FileStamp::default(),
            };
        }
        let stamp = FileStamp::of(path);
        let bytes = match read_capped(path, MAX_STORE_FILE) {
            Ok(bytes) => bytes,
            Err(ReadError::Io { reason, .. }) if reason.kind() == std::io::ErrorKind::NotFound => {
                return Opened {
                    store: Store::default(),
                    notice: None,
                    writable: true,
                    stamp,
                };
            }
            Err(e @ ReadError::TooLarge { .. }) => {
                return set_aside(path, Store::default(), &e.to_string());
            }
            Err(e) => {
                return Opened {
                    store: Store::default(),
                    notice: Some(format!(
                        "The practice file cannot be read ({e}); your progress is not saved \
                         there until it can be."
                    )),
                    writable: false,
                    stamp,
                };
            }
        };
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => return set_aside(path, Store::default(), "not a text file"),
        };
        match Store::from_json(&text) {
            Ok((store, skipped)) if skipped.is_empty() => Opened {
                store,
                notice: None,
                writable: true,
                stamp,
            },
            Ok((store, skipped)) => {
                let why = format!(
                    "{} of its cards could not be read: {}",
                    skipped.len(),
                    skipped.join("; ")
                );
                set_aside(path, store, &why)
            }
            Err(e) => set_aside(path, Store::default(), &e.to_string()),
        }
    }

    /// Writes the store to `path` atomically, making its folder if need be. A store too
    /// large to be read back ([`MAX_STORE_FILE`]) is refused with the reason, and the file
    /// on disk stays as it was.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        self.save_within(path, MAX_STORE_FILE)
    }

    /// [`Store::save`], refusing a file over `limit` bytes.
    pub(super) fn save_within(&self, path: &Path, limit: u64) -> std::io::Result<()> {
        let text = self.to_json();
        if text.len() as u64 > limit {
            return Err(std::io::Error::other(format!(
                "{} cards make a file of {} MB, over the {} MB Okapi reads back; the file \
                 keeps its previous cards",
                self.cards.len(),
                text.len() >> 20,
                limit >> 20
            )));
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        write_atomic(path, text.as_bytes())
    }

    /// Takes in what the file at `path` holds now when it changed since `stamp` (when this
    /// store read or last wrote it: another window saved there; [`Store::merge`]), then
    /// saves and moves `stamp` on. A file that cannot be read as a practice file is written
    /// over as [`Store::save`] would.
    pub fn save_merged(&mut self, path: &Path, stamp: &mut FileStamp) -> std::io::Result<()> {
        if FileStamp::of(path) != *stamp
            && std::fs::metadata(path).is_ok_and(|m| m.is_file())
            && let Ok(bytes) = read_capped(path, MAX_STORE_FILE)
            && let Ok(text) = std::str::from_utf8(&bytes)
            && let Ok((on_disk, _)) = Store::from_json(text)
        {
            self.merge(on_disk);
        }
        self.save(path)?;
        *stamp = FileStamp::of(path);
        Ok(())
    }
}

/// Renames the damaged file at `path` out of the way and says so; `store` holds what
/// could be read of it, saved at once in its place (the damaged file is the backup).
fn set_aside(path: &Path, store: Store, why: &str) -> Opened {
    let kept = store.cards.len();
    let aside = aside_name(path);
    let (moved, writable) = match std::fs::rename(path, &aside) {
        Ok(()) if kept == 0 => (format!("it was kept as {}", aside.display()), true),
        Ok(()) => match store.save(path) {
            Ok(()) => (
                format!(
                    "it was kept as {} and the cards read from it are saved in its place",
                    aside.display()
                ),
                true,
            ),
            Err(e) => (
                format!(
                    "it was kept as {}, but the cards read from it could not be saved ({e})",
                    aside.display()
                ),
                true,
            ),
        },
        Err(e) => (
            format!(
                "it could not be moved aside ({e}), so your progress is not saved there until \
                 it is moved or removed"
            ),
            false,
        ),
    };
    let what = match kept {
        0 => "practice starts afresh".to_string(),
        1 => "the one card that could be read is kept".to_string(),
        n => format!("the {n} cards that could be read are kept"),
    };
    Opened {
        store,
        notice: Some(format!(
            "The practice file {} is damaged ({why}); {moved}, and {what}.",
            path.display()
        )),
        writable,
        stamp: FileStamp::of(path),
    }
}

/// `practice.json.unreadable`, or `.unreadable-2`, `-3`... when that exists already (an
/// earlier damaged file is never written over).
fn aside_name(path: &Path) -> PathBuf {
    let with = |suffix: &str| {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    let first = with(".unreadable");
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|n| with(&format!(".unreadable-{n}")))
        .find(|p| !p.exists())
        .expect("a free name")
}

/// The file as written.
#[derive(Serialize, Deserialize)]
struct StoreFile {
    format: String,
    version: u32,
    /// Read one by one, so one bad card does not lose the others.
    cards: Vec<serde_json::Value>,
    #[serde(default)]
    games: Vec<String>,
    /// From version 2.
    #[serde(default)]
    streak: Option<StreakRecord>,
    /// From version 2.
    #[serde(default)]
    tolerance: Option<Tolerance>,
}

#[derive(Serialize, Deserialize)]
struct StreakRecord {
    current: u32,
    best: u32,
}

/// An answer as written: `{"day": "2026-11-27", "played": "c4", "right": true}`.
#[derive(Serialize, Deserialize)]
struct AttemptRecord {
    day: String,
    played: String,
    right: bool,
}

/// A card as written: the position as a board string, squares by name, dates as
/// `YYYY-MM-DD`.
#[derive(Serialize, Deserialize)]
struct CardRecord {
    position: String,
    played: String,
    played_value: Eval,
    best: String,
    best_value: Eval,
    player: String,
    game: String,
    ply: usize,
    due: String,
    #[serde(default)]
    step: Option<usize>,
    #[serde(default)]
    right: u32,
    #[serde(default)]
    missed: u32,
    #[serde(default)]
    last_seen: Option<String>,
    /// From version 2.
    #[serde(default)]
    history: Vec<AttemptRecord>,
}

impl CardRecord {
    fn of(card: &Card) -> CardRecord {
        CardRecord {
            position: card.position.to_board_string(),
            played: card.played.to_string(),
            played_value: card.played_eval,
            best: card.best.to_string(),
            best_value: card.best_eval,
            player: card.origin.player.clone(),
            game: card.origin.game.clone(),
            ply: card.origin.ply,
            due: card.schedule.due.to_string(),
            step: card.schedule.step,
            right: card.schedule.right,
            missed: card.schedule.missed,
            last_seen: card.schedule.last_seen.map(|d| d.to_string()),
            history: card
                .history
                .iter()
                .map(|a| AttemptRecord {
                    day: a.day.to_string(),
                    played: a.played.to_string(),
                    right: a.right,
                })
                .collect(),
        }
    }

    /// The card, checked: a position with the moves legal in it, real dates, a rung of
    /// the ladder.
    fn card(self) -> Result<Card, String> {
        let position = Position::parse(&self.position).map_err(|e| format!("position: {e}"))?;
        let square = |what: &str, text: &str| -> Result<Square, String> {
            let sq = Square::parse(text).map_err(|e| format!("{what}: {e}"))?;
            if position.is_legal(sq) {
                Ok(sq)
            } else {
                Err(format!("{what}: {sq} is not legal in the position"))
            }
        };
        let played = square("played", &self.played)?;
        let best = square("best", &self.best)?;
        let day = |what: &str, text: &str| {
            Day::parse(text).ok_or_else(|| format!("{what}: \"{text}\" is not a date"))
        };
        let due = day("due", &self.due)?;
        let last_seen = match &self.last_seen {
            Some(t) => Some(day("last_seen", t)?),
            None => None,
        };
        if let Some(step) = self.step
            && step >= super::INTERVALS.len()
        {
            return Err(format!(
                "step {step}: there are {} steps",
                super::INTERVALS.len()
            ));
        }
        for (what, e) in [
            ("played_value", self.played_value),
            ("best_value", self.best_value),
        ] {
            if e.value.abs() > 64 {
                return Err(format!("{what} {}: a value is -64 to 64 discs", e.value));
            }
        }
        let mut history = Vec::with_capacity(self.history.len());
        for (i, a) in self.history.iter().enumerate() {
            history.push(Attempt {
                day: day(&format!("history {} day", i + 1), &a.day)?,
                played: square(&format!("history {} played", i + 1), &a.played)?,
                right: a.right,
            });
        }
        Ok(Card {
            position,
            played,
            played_eval: self.played_value,
            best,
            best_eval: self.best_value,
            origin: Origin {
                player: self.player,
                game: self.game,
                ply: self.ply,
            },
            schedule: Schedule {
                due,
                step: self.step,
                right: self.right,
                missed: self.missed,
                last_seen,
            },
            history,
        })
    }
}
