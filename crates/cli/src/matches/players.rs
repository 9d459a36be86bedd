//! The match's players: an Okapi level on its own engine ([`OkapiContestant`]), and the
//! sides as the arguments give them.

use super::MatchArgs;
use super::contestant::Contestant;
use super::external::{ExternalPlayer, OkapiBinaryPlayer};
use anyhow::{Context, anyhow, bail};
use okapi_core::board::Move;
use okapi_core::eval::Evaluator;
use okapi_core::game::Game;
use okapi_core::level::Level;
use okapi_engine::{Engine, EngineConfig, EngineOptions, Event, Request};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// An Okapi level, played by its own engine (own table, own seeded generator, own
/// evaluation) through the engine API every front end uses.
pub struct OkapiContestant {
    level: Level,
    engine: Engine,
    /// The book's randomness in discs when the player uses the book.
    book: Option<f64>,
    /// The weight file's name when it is not the process's evaluation.
    weights: Option<String>,
}

impl OkapiContestant {
    /// Its engine evaluates with `evaluator` and has the table and threads of `config`;
    /// `weights` names the weight file when it is not the shipped one (shown in the
    /// match's report).
    pub fn new(
        level: Level,
        evaluator: Arc<Evaluator>,
        config: EngineConfig,
        seed: u64,
        weights: Option<String>,
    ) -> OkapiContestant {
        let options = EngineOptions {
            evaluator,
            config,
            seed,
        };
        OkapiContestant {
            level,
            engine: Engine::spawn_with(options, || {}),
            book: None,
            weights,
        }
    }

    /// Plays book moves (within `randomness` discs of the best) while the book knows the
    /// position.
    pub fn with_book(mut self, randomness: f64) -> OkapiContestant {
        self.book = Some(randomness);
        self
    }
}

impl Contestant for OkapiContestant {
    fn name(&self) -> String {
        let book = if self.book.is_some() { " +book" } else { "" };
        let weights = self
            .weights
            .as_ref()
            .map_or(String::new(), |w| format!(" ({w})"));
        format!("okapi {}{book}{weights}", self.level.name())
    }

    fn choose(&mut self, game: &Game) -> anyhow::Result<Move> {
        let position = game.position();
        let (level, book) = (self.level, self.book);
        let mut chosen = None;
        self.engine
            .call(
                Request::Play {
                    position,
                    level,
                    time: None,
                    book,
                },
                |e| {
                    if let Event::Played { mv, .. } = e {
                        chosen = Some(*mv);
                    }
                },
            )
            .map_err(|e| anyhow!("okapi {}: {e}", level.name()))?;
        chosen.ok_or_else(|| anyhow!("okapi {}: no move", level.name()))
    }
}

/// A side of the match as the arguments give it; it makes one player per game played
/// at once.
pub(super) enum Side {
    Level {
        level: Level,
        /// The evaluation, loaded once for all of the side's games.
        evaluator: Arc<Evaluator>,
        /// The weight file's name when it is not the shipped one.
        weights: Option<String>,
    },
    Nboard(String),
    Binary {
        path: PathBuf,
        level: String,
        weights: Option<PathBuf>,
    },
}

/// A player that can be moved to the thread that plays its games.
pub(super) type Player = Box<dyn Contestant + Send>;

impl Side {
    /// The side `letter` from its level, command, binary and weights.
    pub(super) fn new(
        letter: char,
        level: Option<String>,
        cmd: Option<String>,
        binary: Option<PathBuf>,
        weights: Option<PathBuf>,
        a: &MatchArgs,
    ) -> anyhow::Result<Side> {
        let flag = letter.to_ascii_lowercase();
        match (level, cmd, binary) {
            (_, Some(c), _) => Ok(Side::Nboard(c)),
            (Some(l), None, Some(path)) => {
                // Checked here too, so a bad level is told as the match's error.
                Level::parse(&l).map_err(|e| anyhow!(e))?;
                if a.book {
                    bail!(
                        "--{flag}-okapi plays through the console, which plays without the book: drop --book"
                    );
                }
                if a.solve_from > 0 {
                    bail!(
                        "--{flag}-okapi plays through the console, which solves at the level's own depths: drop --solve-from"
                    );
                }
                Ok(Side::Binary {
                    path,
                    level: l,
                    weights: weights.or_else(|| a.weights.clone()),
                })
            }
            (None, None, Some(_)) => {
                bail!("--{flag}-okapi needs {letter}'s level (--{flag} 8, --{flag} 0.05s)")
            }
            (Some(l), None, None) => {
                let level = Level::parse(&l)
                    .map_err(|e| anyhow!(e))?
                    .solving_from(a.solve_from);
                Ok(match weights.or_else(|| a.weights.clone()) {
                    Some(path) => Side::Level {
                        level,
                        evaluator: Arc::new(
                            Evaluator::load(&path)
                                .with_context(|| format!("loading {}", path.display()))?,
                        ),
                        weights: Some(path.file_name().map_or_else(
                            || path.display().to_string(),
                            |n| n.to_string_lossy().into(),
                        )),
                    },
                    None => Side::Level {
                        level,
                        evaluator: Evaluator::shipped(),
                        weights: None,
                    },
                })
            }
            (None, None, None) => {
                bail!("each engine needs a level (--a 8) or a command (--a-cmd ...)")
            }
        }
    }

    /// A player of this side; an Okapi level's engine has `config`.
    pub(super) fn player(
        &self,
        a: &MatchArgs,
        config: EngineConfig,
        seed: u64,
    ) -> anyhow::Result<Player> {
        let timeout = Duration::from_secs_f64(a.move_timeout);
        Ok(match self {
            Side::Nboard(c) => Box::new(ExternalPlayer::start(c, a.cmd_depth, timeout)?),
            Side::Binary {
                path,
                level,
                weights,
            } => Box::new(OkapiBinaryPlayer::start(
                path,
                level,
                weights.as_deref(),
                seed,
                a.threads,
                timeout,
            )?),
            Side::Level {
                level,
                evaluator,
                weights,
            } => {
                let player =
                    OkapiContestant::new(*level, evaluator.clone(), config, seed, weights.clone());
                Box::new(if a.book {
                    player.with_book(a.book_randomness)
                } else {
                    player
                })
            }
        })
    }
}
