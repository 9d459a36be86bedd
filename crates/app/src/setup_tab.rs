//! The Play tab while a position is set up: the discs, the side to move, the buttons,
//! and the board string field the board follows as it is typed.

use crate::command::Command;
use crate::move_list::discs;
use crate::part::{Commands, FrameView};
use eframe::egui;
use okapi_core::board::{Color, Position};

/// The set-up's controls for the position `pos` being edited.
pub(crate) fn setup_contents(
    ui: &mut egui::Ui,
    view: &FrameView,
    commands: &mut Commands,
    pos: Position,
) {
    ui.heading("Set up a position");
    ui.label("Click a square: empty, black, white, empty.");
    ui.label(format!("Black: {}", discs(pos.black_count())));
    ui.label(format!("White: {}", discs(pos.white_count())));
    ui.horizontal(|ui| {
        ui.label("To move:");
        for side in [Color::Black, Color::White] {
            if ui.radio(pos.side_to_move() == side, side.name()).clicked() {
                commands.push(Command::SetupSide(side));
            }
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Clear").clicked() {
            commands.push(Command::SetupClear);
        }
        if ui.button("Standard").clicked() {
            commands.push(Command::SetupStandard);
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Done").clicked() {
            commands.push(Command::SetupDone);
        }
        if ui.button("Cancel").clicked() {
            commands.push(Command::SetupCancel);
        }
    });
    ui.separator();
    // Type or paste a board string: the board follows as it is typed.
    let label = ui.label("Board string (64 squares and the side to move):");
    let mut text = if view.setup_text.is_empty() {
        pos.to_board_string()
    } else {
        view.setup_text.to_string()
    };
    let field = ui
        .add(
            egui::TextEdit::multiline(&mut text)
                .font(egui::TextStyle::Monospace)
                .desired_rows(2)
                .desired_width(f32::INFINITY)
                .hint_text(
                    "e.g. ---------------------------OX------XO--------------------------- X",
                ),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "Black: X * B, White: O 0 W, empty: - . _; the side to move last (X or O). \
             Spaces and line breaks are allowed, and Okapi's own diagram reads too.",
        );
    if field.changed() {
        commands.push(Command::SetupText(text));
    }
    match view.setup_text_error {
        Some(e) => {
            ui.label(
                egui::RichText::new(format!("Not a board: {e}")).color(ui.visuals().error_fg_color),
            );
        }
        None => {
            ui.label(
                egui::RichText::new("The board shows this position.")
                    .weak()
                    .small(),
            );
        }
    }
}
