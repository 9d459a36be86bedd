//! What the app's parts share: the read-only [`FrameView`] of the game they draw from, the
//! [`Part`] trait of the panels and the [`Window`] trait of the windows (as in egui's
//! demo: one file a window, one trait they all implement).
//!
//! A part owns its own state (a window's fields, a panel's scroll or filter) and reads
//! the game, its values and the settings through the view; it changes nothing shared: it
//! pushes [`Command`]s, applied once per frame after every part is drawn. The app lends
//! the view and its parts at once (`App::split`), so a part draws while the view is
//! borrowed.

use crate::command::Command;
use crate::command::SideTab;
use crate::database_panel::DatabaseView;
use crate::engine_hub::{EngineHub, EngineLines, PlyAnalysis, SolveStats};
use crate::known_values::KnownValues;
use crate::metrics::Metrics;
use crate::practice_state::Practice;
use crate::script::ScriptJob;
use crate::settings::Settings;
use eframe::egui;
use okapi_core::board::{Move, Position, Square};
use okapi_core::game::{Eval, Game, Session};
use std::collections::HashMap;
use std::path::Path;

/// The commands a part asks for this frame.
pub(crate) type Commands = Vec<Command>;

/// What every part reads this frame: the game, its values, the settings. Read-only.
pub(crate) struct FrameView<'a> {
    /// The game in progress and its rules.
    pub(crate) session: &'a Session,
    /// The best known value of each move, which every view reads.
    pub(crate) known: &'a KnownValues,
    pub(crate) settings: &'a Settings,
    /// Where the settings are saved (none: not in this run).
    pub(crate) settings_file: Option<&'a Path>,
    /// Where the game in progress is kept across restarts (none: nowhere).
    pub(crate) autosave: Option<&'a Path>,
    /// Minutes per side of the last new game (0: no clock).
    pub(crate) timing_minutes: u32,
    /// The game's file (none: never saved or opened).
    pub(crate) file: Option<&'a Path>,
    /// The engines and what they are doing.
    pub(crate) engines: &'a EngineHub,
    /// Responsiveness figures.
    pub(crate) metrics: &'a Metrics,
    /// The error to show until dismissed, and the last notice.
    pub(crate) error: Option<&'a str>,
    pub(crate) notice: Option<&'a str>,
    /// The next move played is added as a variation.
    pub(crate) next_as_variation: bool,
    /// A position is being set up.
    pub(crate) setting_up: bool,
    /// Board set-up: the position being edited.
    pub(crate) setup: Option<Position>,
    /// Set-up: the board string field's text, and what is wrong with it.
    pub(crate) setup_text: &'a str,
    pub(crate) setup_text_error: Option<&'a str>,
    /// The position whose move values were asked for (shown while it is on the board).
    pub(crate) values_shown_for: Option<Position>,
    /// Practising: the card's (or the lesson's) position on the board and its last move.
    pub(crate) practice_board: Option<(Position, Option<Square>)>,
    /// Where the board goes, and the side panel (from the window's size alone).
    pub(crate) board_area: Option<egui::Rect>,
    pub(crate) side_area: Option<egui::Rect>,
    /// The side panel's tab shown.
    pub(crate) side_tab: SideTab,
    /// The figures of the solve whose proven line the session keeps.
    pub(crate) solve_stats: Option<SolveStats>,
    /// The weakened engine's candidates for its last move.
    pub(crate) engine_lines: Option<&'a EngineLines>,
    /// The games database, once read.
    pub(crate) database: &'a DatabaseView,
    /// A script is open but hidden (File › Show the script shows it).
    pub(crate) script_hidden: bool,
    /// The open endgame script and its results.
    pub(crate) script: Option<&'a ScriptJob>,
    /// Game analysis: for each ply, the move played against the best.
    pub(crate) game_analysis: &'a HashMap<usize, PlyAnalysis>,
    /// A practice card is on the board, not yet answered: nothing may give the answer
    /// away ([`Practice::hides_answer`](crate::practice_state::Practice::hides_answer)).
    pub(crate) hides_answer: bool,
    /// The practice window's cards, collection, round and lesson.
    pub(crate) practice: &'a Practice,
}

impl FrameView<'_> {
    /// Is the side panel under the board (a narrow window)?
    pub(crate) fn side_under_board(&self) -> bool {
        self.board_area
            .zip(self.side_area)
            .is_some_and(|(board, side)| side.top() >= board.bottom() - 0.5)
    }

    /// The game record.
    pub(crate) fn game(&self) -> &Game {
        self.session.game()
    }

    /// The values of the current position's legal moves the board shows
    /// ([`KnownValues::shown`]).
    pub(crate) fn move_evals(&self) -> &HashMap<Square, Eval> {
        self.known.shown(
            &self.game().position(),
            self.values_shown_for,
            self.hides_answer,
            self.practice_board.map(|(board, _)| board),
        )
    }

    /// The analysis of ply `i` if it still describes the game, with the best values known
    /// since: a proof found after the analysis (a solve) replaces its estimates.
    pub(crate) fn analysis_of(&self, i: usize) -> Option<PlyAnalysis> {
        if self.hides_answer {
            return None;
        }
        let a = self.game_analysis.get(&i)?;
        let game = self.game();
        (i < game.len() && Some(a.key) == game.move_at(i).map(|m| (game.position_at(i), m)))
            .then(|| self.with_known_values(*a))
    }

    /// The value of ply `i`'s move as every view shows it, and its label: the record's,
    /// bounded by a proof of its position as the known values bound theirs ("≤-16": a
    /// search the proof bounds).
    pub(crate) fn move_value(&self, i: usize) -> Option<(Eval, String)> {
        let game = self.game();
        let position = game.position_at(i);
        let eval = self.known.bounded(&position, game.eval_at(i)?);
        Some((eval, self.known.label(&position, eval)))
    }

    /// A ply's analysis with the stronger known values of its move and of the best move.
    fn with_known_values(&self, mut a: PlyAnalysis) -> PlyAnalysis {
        let (position, played) = a.key;
        if let Move::Play(sq) = played
            && let Some(known) = self.known.get(&position, sq)
            && known.source > a.played.source
        {
            a.played = known;
        }
        if let Some(known) = self.known.get(&position, a.best_move)
            && known.source > a.best.source
        {
            a.best = known;
        }
        if let Some((sq, best)) = self.known.proven_best(&position)
            && best.source > a.best.source
            && best.value >= a.played.value
        {
            a.best = best;
            a.best_move = sq;
        }
        if let Move::Play(sq) = played {
            if a.best_move == sq {
                // One move, one value: "h3 ~+35 ~-1 h3" had it lose a disc... against
                // itself, two searches of one move side by side. The stronger stands.
                let one = if a.best.replaces(&a.played) {
                    a.best
                } else {
                    a.played
                };
                (a.played, a.best) = (one, one);
            } else if a.played.value > a.best.value {
                // The move played is at least as good as itself: never a negative loss.
                a.best = a.played;
                a.best_move = sq;
            }
        }
        a
    }
}

/// A panel of the app: draws itself into its place and asks for changes as commands.
pub(crate) trait Part {
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands);
}

/// A window of the app, owning its fields; the app keeps whether it is open (as egui's
/// demo does), and a question (a modal waiting for an answer) is open while it is held.
pub(crate) trait Window {
    /// The window's title, also how the app opens it ([`Windows::open`]).
    ///
    /// [`Windows::open`]: crate::windows::Windows::open
    fn title(&self) -> &'static str;

    /// Fills the window's fields from the game as it is when the window opens.
    fn opened(&mut self, _view: &FrameView) {}

    /// Draws the window; `open` turns false when it is closed or answered.
    fn show(
        &mut self,
        ctx: &egui::Context,
        open: &mut bool,
        view: &FrameView,
        commands: &mut Commands,
    );
}
