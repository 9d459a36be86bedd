//! The practice file: every card with its schedule, and the games already collected, as
//! JSON in the data folder. Written whole and atomically ([`write_atomic`]); a file that
//! cannot be read is set aside under another name, with a notice, and practice goes on
//! (with the cards that could be read, when only some could not).

use super::{Card, Day, Origin, Schedule};
use crate::board::{Position, Square};
use crate::formats::{ReadError, read_capped, write_atomic};
use crate::game::Eval;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The practice file's name in the data folder.
pub const STORE_FILE: &str = "practice.json";

/// The most a practice file may hold (a card is about 400 bytes: 80,000 cards).
const MAX_STORE_FILE: u64 = 32 << 20;

/// What the file says it is, so another program's JSON is not taken for cards.
const FORMAT: &str = "okapi-practice";
/// The version written; a file of a later version is set aside, not misread.
const VERSION: u32 = 1;

/// The cards and the games they were collected from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Store {
    /// Every position practised, in the order collected.
    pub cards: Vec<Card>,
    /// Keys of the games (and sides) already collected ([`super::PlayerGame::key`]).
    games: BTreeSet<String>,
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
}

impl Store {
    /// Adds cards; a position already practised keeps its schedule and origin.
    pub fn add(&mut self, cards: Vec<Card>) -> Added {
        let mut added = Added::default();
        for card in cards {
            if self.cards.iter().any(|c| c.position == card.position) {
                added.known += 1;
            } else {
                self.cards.push(card);
                added.new += 1;
            }
        }
        added
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

    /// Takes the answer to card `index` given on `today`; the days until it comes back.
    pub fn answer(&mut self, index: usize, right: bool, today: Day) -> Option<u32> {
        Some(self.cards.get_mut(index)?.schedule.answered(right, today))
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
        };
        serde_json::to_string_pretty(&file).expect("the practice file serialises")
    }

    /// Reads the file's text: the store and the cards that could not be read (card
    /// number from 1 and why). An error when the text is not a practice file at all.
    pub fn from_json(text: &str) -> Result<(Store, Vec<String>), String> {
        let file: StoreFile =
            serde_json::from_str(text).map_err(|e| format!("not a practice file ({e})"))?;
        if file.format != FORMAT {
            return Err(format!(
                "not a practice file (its format is \"{}\", not \"{FORMAT}\")",
                file.format
            ));
        }
        if file.version > VERSION {
            return Err(format!(
                "written by a later Okapi (version {}; this one reads version {VERSION})",
                file.version
            ));
        }
        let mut store = Store {
            cards: Vec::new(),
            games: file.games.into_iter().collect(),
        };
        let mut skipped = Vec::new();
        for (i, value) in file.cards.into_iter().enumerate() {
            let card = serde_json::from_value::<CardRecord>(value)
                .map_err(|e| e.to_string())
                .and_then(CardRecord::card);
            match card {
                Ok(card) => {
                    store.add(vec![card]);
                }
                Err(e) => skipped.push(format!("card {}: {e}", i + 1)),
            }
        }
        Ok((store, skipped))
    }

    /// Opens the practice file at `path`. A missing file is an empty store. A file that
    /// is not a practice file, or holds cards that cannot be read, is renamed to
    /// `practice.json.unreadable` (numbered when that exists) and the notice says so: the
    /// cards that could be read are kept and saved anew. A file that cannot be read at
    /// all (no permission) is left alone and not written over.
    pub fn open(path: &Path) -> Opened {
        let bytes = match read_capped(path, MAX_STORE_FILE) {
            Ok(bytes) => bytes,
            Err(ReadError::Io { reason, .. }) if reason.kind() == std::io::ErrorKind::NotFound => {
                return Opened {
                    store: Store::default(),
                    notice: None,
                    writable: true,
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
            },
            Ok((store, skipped)) => {
                let why = format!(
                    "{} of its cards could not be read: {}",
                    skipped.len(),
                    skipped.join("; ")
                );
                set_aside(path, store, &why)
            }
            Err(e) => set_aside(path, Store::default(), &e),
        }
    }

    /// Writes the store to `path` atomically, making its folder if need be.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        write_atomic(path, self.to_json().as_bytes())
    }
}

/// Renames the damaged file at `path` out of the way and says so; `store` holds what
/// could be read of it.
fn set_aside(path: &Path, store: Store, why: &str) -> Opened {
    let kept = store.cards.len();
    let aside = aside_name(path);
    let (moved, writable) = match std::fs::rename(path, &aside) {
        Ok(()) => (format!("it was kept as {}", aside.display()), true),
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
        })
    }
}
