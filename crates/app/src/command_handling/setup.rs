//! Board set-up: the board edited square by square or from a board string, then played
//! from.

use super::STUDY_NOTICE;
use crate::app::App;
use crate::command::Command;
use crate::engine_hub::Task;
use okapi_core::board::{Color, Position};
use okapi_core::game::{Game, Seat};

impl App {
    /// Board set-up.
    pub(super) fn apply_setup(&mut self, command: Command) {
        match command {
            Command::EnterSetup => {
                self.view.setup = Some(self.game().position());
                self.view.setup_text_error = None;
                // Nothing more the engine says about the game reaches the app.
                self.engines.board.thread.cancel();
                self.engines.board.task = Task::Idle;
                self.engines.board.status.clear();
                self.values_shown_for = None;
            }
            Command::SetupSquare(sq) => {
                if let Some(p) = &mut self.view.setup {
                    let (mut black, mut white) = (p.black(), p.white());
                    match p.at(sq) {
                        None => black |= sq.bit(),
                        Some(Color::Black) => {
                            black &= !sq.bit();
                            white |= sq.bit();
                        }
                        Some(Color::White) => white &= !sq.bit(),
                    }
                    *p = Position::from_discs(black, white, p.side_to_move());
                }
            }
            Command::SetupSide(side) => {
                if let Some(p) = &mut self.view.setup {
                    *p = Position::from_discs(p.black(), p.white(), side);
                }
            }
            Command::SetupClear => {
                if let Some(p) = &mut self.view.setup {
                    *p = Position::from_discs(0, 0, p.side_to_move());
                }
            }
            Command::SetupStandard => {
                if self.view.setup.is_some() {
                    self.view.setup = Some(Position::start());
                }
            }
            Command::SetupDone => {
                // No game reaches a board without discs: it stays in set-up (as a board
                // string with no discs is refused everywhere) rather than becoming a
                // "32-32 draw".
                if self.view.setup.is_some_and(|p| p.black() | p.white() == 0) {
                    self.error = Some("Put at least one disc on the board.".into());
                } else if let Some(p) = self.view.setup.take() {
                    // A position set up is studied: both seats human, so the engine does
                    // not move in it by itself (New game › the position on the board
                    // plays Okapi from it).
                    self.file = None;
                    self.load_game(
                        Game::new(p),
                        [Seat::Human; 2],
                        Some(STUDY_NOTICE.replace("{what}", "The position set up")),
                    );
                    self.mark_saved();
                }
            }
            Command::SetupText(text) => {
                if self.view.setup.is_some() {
                    // The board follows the text as it is typed; what is wrong shows below
                    // the field and the board keeps its last good position.
                    match okapi_core::formats::board_text::read(&text) {
                        Ok(p) => {
                            self.view.setup = Some(p);
                            self.view.setup_text_error = None;
                        }
                        Err(e) => self.view.setup_text_error = Some(e.to_string()),
                    }
                    self.view.setup_text = text;
                }
                return;
            }
            Command::SetupCancel => {
                if self.view.setup.take().is_some() {
                    self.position_changed();
                }
            }
            other => unreachable!("not a set-up command: {other:?}"),
        }
        // A change made on the board shows in the field.
        if let Some(p) = self.view.setup {
            self.view.setup_text = p.to_board_string();
            self.view.setup_text_error = None;
        }
    }
}
