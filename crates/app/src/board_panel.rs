//! The board in the central panel: the position (the game's, a set-up's or a practice
//! card's) at its size and place, the flip animation, and each click as a command.

use crate::app::App;
use crate::board_view::{BoardClick, BoardView, board_ui};
use crate::command::Command;
use eframe::egui;

impl App {
    /// The board in the central panel, with the flip animation.
    pub(crate) fn board_panel(&mut self, ui: &mut egui::Ui) {
        const FLIP_TIME: f32 = 0.3;
        let flipping = self.view.flip_animation.and_then(|(mask, at)| {
            let t = at.elapsed().as_secs_f32() / FLIP_TIME;
            (t < 1.0).then_some((mask, t))
        });
        if flipping.is_some() {
            ui.ctx().request_repaint();
        } else {
            self.view.flip_animation = None;
        }
        // The first frame that shows this position, and when the last press began: a
        // click pressed before the board showed its position is not played.
        let now = ui.input(|i| i.time);
        let shown_at = *self.view.position_shown_at.get_or_insert(now);
        if ui.input(|i| i.pointer.any_pressed()) {
            self.view.last_press_at = Some(now);
        }
        egui::CentralPanel::default().show(ui, |ui| {
            let setup = self.view.setup.is_some();
            let engine_to_move =
                !setup && self.session.seat_to_move().is_engine() && !self.session.is_over();
            let evals = self.move_evals().clone();
            // Practising: the card's position, its values once answered.
            let practice = self.practice.board();
            let hide_answer = self.practice.hides_answer();
            let view = BoardView {
                position: match practice {
                    Some((position, ..)) => position,
                    None => self.view.setup.unwrap_or_else(|| self.game().position()),
                },
                last_move: match practice {
                    Some((_, answer)) => answer,
                    None if setup => None,
                    None => self.game().last_move(),
                },
                evals: match practice {
                    _ if hide_answer => self.known.of_nothing(),
                    Some((position, ..)) => self.known.of(&position),
                    None => &evals,
                },
                show_legal: !setup,
                flipped: self.settings.flipped,
                clickable: practice.is_some()
                    || (!setup && !self.session.seat_to_move().is_engine()),
                engine_to_move: engine_to_move && practice.is_none(),
                setup,
                hide_answer,
                flipping: if setup { None } else { flipping },
                best_only: self.settings.best_only,
                coordinates: self.settings.coordinates,
                colors: self.settings.board_colors,
            };
            // The board in its own square at the top of its area, centred across it: its
            // size and place follow from the window alone, whatever the panels hold.
            let area = self
                .view
                .board_area
                .unwrap_or_else(|| ui.max_rect())
                .shrink(8.0);
            let side = area.width().min(area.height());
            let square = egui::Rect::from_min_size(
                egui::pos2(area.center().x - side / 2.0, area.top()),
                egui::vec2(side, side),
            );
            ui.scope_builder(egui::UiBuilder::new().max_rect(square), |ui| {
                let pressed_before_shown = self.view.last_press_at.is_some_and(|t| t <= shown_at);
                match board_ui(ui, &view) {
                    Some(BoardClick::Square(sq)) if practice.is_some() => {
                        self.commands.push(Command::PracticeAnswer(sq))
                    }
                    Some(BoardClick::Square(sq)) if setup => {
                        self.commands.push(Command::SetupSquare(sq))
                    }
                    Some(BoardClick::Square(sq)) if !pressed_before_shown => {
                        self.commands.push(Command::Play(sq))
                    }
                    Some(BoardClick::Square(sq)) => {
                        self.notice = Some(format!(
                            "Not played: the click on {sq} began before Okapi's move was on \
                             the board. Click again to play it."
                        ));
                    }
                    Some(BoardClick::EngineToMove(sq)) => {
                        self.notice = Some(format!(
                            "Okapi is to move: the click on {sq} is not played. Wait for its \
                             move (Esc stops it)."
                        ));
                    }
                    None => {}
                }
            });
        });
    }
}
