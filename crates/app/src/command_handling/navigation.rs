//! Moving through the game: a move, the proven line's move, undo, redo, going to a ply,
//! and the game's variations.

use crate::app::App;
use crate::command::Command;

impl App {
    /// Moves through the game: a move, the proven line's move, undo, redo, going to a ply.
    pub(super) fn navigate(&mut self, command: Command) {
        match command {
            Command::Play(sq) => self.play_human_move(sq),
            Command::PlayBest => self.play_best_move(),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::First => self.go_to(0),
            Command::Last => self.go_to(self.game().len()),
            Command::GoTo(ply) => self.go_to(ply),
            Command::StepBack => self.go_to(self.game().ply().saturating_sub(1)),
            Command::StepForward => self.go_to(self.game().ply() + 1),
            Command::ChooseVariation(ply, mv) => {
                if self.session.choose_variation(ply, mv) {
                    self.position_changed();
                }
            }
            Command::PromoteLine => {
                self.session.game_mut().promote_line();
                self.keep_game_in_progress();
            }
            Command::NextMoveAsVariation => {
                self.view.next_as_variation = !self.view.next_as_variation;
                self.notice = Some(if self.view.next_as_variation {
                    "Your next move is added as a variation: the main line stays.".into()
                } else {
                    "Your next move goes on the game's line again.".into()
                });
            }
            Command::DeleteVariation(ply) => {
                if self.session.game_mut().delete_variation(ply) {
                    // The cursor may have moved back: the rules run again.
                    let here = self.game().ply();
                    self.session.go_to(here);
                    self.position_changed();
                }
            }
            other => unreachable!("not a navigation command: {other:?}"),
        }
    }
}
