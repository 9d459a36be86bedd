//! The board in the central panel: the position (the game's, a set-up's or a practice
//! card's) at its size and place, the flip animation, and each click as a command.

use crate::board_view::{BoardClick, BoardView, FRAME, NARROW_FRAME, board_ui};
use crate::command::Command;
use crate::part::{Commands, FrameView, Part};
use crate::platform::Instant;
use eframe::egui;

/// The board part: owns the flip animation and when the position showed.
#[derive(Default)]
pub(crate) struct BoardPanel {
    /// The discs turned by the last move and when, for the flip animation.
    pub(crate) flip_animation: Option<(u64, Instant)>,
    /// The input time of the first frame that showed the engine's last move: a click
    /// pressed before it was aimed at the board before that move (a book reply comes
    /// between two quick clicks) and is not played.
    pub(crate) position_shown_at: Option<f64>,
    /// The input time of the frame in which the last pointer press began.
    last_press_at: Option<f64>,
}

impl Part for BoardPanel {
    /// The board in the central panel, with the flip animation.
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        const FLIP_TIME: f32 = 0.3;
        let flipping = self.flip_animation.and_then(|(mask, at)| {
            let t = at.elapsed().as_secs_f32() / FLIP_TIME;
            (t < 1.0).then_some((mask, t))
        });
        if flipping.is_some() {
            ui.ctx().request_repaint();
        } else {
            self.flip_animation = None;
        }
        // The first frame that shows this position, and when the last press began: a
        // click pressed before the board showed its position is not played.
        let now = ui.input(|i| i.time);
        let shown_at = *self.position_shown_at.get_or_insert(now);
        if ui.input(|i| i.pointer.any_pressed()) {
            self.last_press_at = Some(now);
        }
        // A narrow window (a phone held upright): the board takes the whole width, and
        // every point of it counts.
        let narrow = ui.ctx().content_rect().width() < crate::side_panel::NARROW_WIDTH;
        egui::CentralPanel::default().show(ui, |ui| {
            let setup = view.setup.is_some();
            let engine_to_move =
                !setup && view.session.seat_to_move().is_engine() && !view.session.is_over();
            // Practising: the card's position, its values once answered.
            let practice = view.practice_board;
            let hide_answer = view.hides_answer;
            let board = BoardView {
                position: match practice {
                    Some((position, ..)) => position,
                    None => view.setup.unwrap_or_else(|| view.game().position()),
                },
                last_move: match practice {
                    Some((_, answer)) => answer,
                    None if setup => None,
                    None => view.game().last_move(),
                },
                evals: match practice {
                    _ if hide_answer => view.known.of_nothing(),
                    Some((position, ..)) => view.known.of(&position),
                    None => view.move_evals(),
                },
                show_legal: !setup,
                flipped: view.settings.flipped,
                clickable: practice.is_some()
                    || (!setup && !view.session.seat_to_move().is_engine()),
                engine_to_move: engine_to_move && practice.is_none(),
                setup,
                hide_answer,
                flipping: if setup { None } else { flipping },
                best_only: view.settings.best_only,
                coordinates: view.settings.coordinates,
                colors: view.settings.board_colors,
                frame: if narrow { NARROW_FRAME } else { FRAME },
            };
            // The board in its own square at the top of its area, centred across it: its
            // size and place follow from the window alone, whatever the panels hold.
            // Eight points round it, two in a narrow window.
            let margin = if narrow { 2.0 } else { 8.0 };
            let area = view
                .board_area
                .unwrap_or_else(|| ui.max_rect())
                .shrink(margin);
            let side = area.width().min(area.height());
            let square = egui::Rect::from_min_size(
                egui::pos2(area.center().x - side / 2.0, area.top()),
                egui::vec2(side, side),
            );
            ui.scope_builder(egui::UiBuilder::new().max_rect(square), |ui| {
                let pressed_before_shown = self.last_press_at.is_some_and(|t| t <= shown_at);
                match board_ui(ui, &board) {
                    Some(BoardClick::Square(sq)) if practice.is_some() => {
                        commands.push(Command::PracticeAnswer(sq))
                    }
                    Some(BoardClick::Square(sq)) if setup => {
                        commands.push(Command::SetupSquare(sq))
                    }
                    Some(BoardClick::Square(sq)) if !pressed_before_shown => {
                        commands.push(Command::Play(sq))
                    }
                    Some(BoardClick::Square(sq)) => {
                        commands.push(Command::Notice(format!(
                            "Not played: the click on {sq} began before Okapi's move was on \
                             the board. Click again to play it."
                        )));
                    }
                    Some(BoardClick::EngineToMove(sq)) => {
                        commands.push(Command::Notice(format!(
                            "Okapi is to move: the click on {sq} is not played. Wait for its \
                             move (Esc stops it)."
                        )));
                    }
                    None => {}
                }
            });
        });
    }
}
