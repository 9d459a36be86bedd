//! Help › First steps (F1): how to play, analyse, solve, open scripts and practise, and
//! every shortcut.

use crate::part::{Commands, FrameView, Window};
use eframe::egui;

/// The sections: a title and its paragraphs.
const STEPS: [(&str, &[&str]); 6] = [
    (
        "Play",
        &[
            "Click a marked square to play there. File › New game (Ctrl+N) chooses who plays \
             each colour: you, or the engine at a level; with two people, both sides are yours.",
            "Undo (Ctrl+Z) takes back your move and the engine's reply. A different move after \
             Undo starts a new line; the old one is kept as a variation in the move list.",
        ],
    ),
    (
        "Analyse",
        &[
            "Every legal move shows its value on its square: the discs it wins or loses with best \
             play. Gold is the best move, blue within two discs of it, red worse. The tag below \
             says where the value comes from: book, a search (14@95%: 14 moves deep, 95% sure) or \
             exact (solved).",
            "Engine › Analyse the game values every move played against the best and lists the \
             mistakes. The Left and Right arrow keys step through the game; a click in the move list goes there.",
        ],
    ),
    (
        "Solve",
        &[
            "Engine › Solve exact (Ctrl+E) proves the result of the position and a line that \
             reaches it; Solve win/draw/loss (Ctrl+W) is faster and says only who wins. Near the \
             end, every move's value is proven on its own (Settings: Solve moves from). A proof \
             replaces the search's values everywhere — the squares, the lists, the analysis, \
             the graph — marked exact, and nothing weaker replaces it.",
        ],
    ),
    (
        "Scripts",
        &[
            "File › Open script (Ctrl+Shift+O) opens a scrZebra or Edax (OBF) endgame script: one \
             position a line. Solve runs them all; a click shows a position on the board with its \
             proven line; Save results writes the file the command line writes.",
        ],
    ),
    (
        "Practise",
        &[
            "Play the engine at a low level, or give it a temperature in the level picker: it then \
             plays weaker moves now and then, and \"Show the engine's lines\" shows what it \
             considered. In a game against Okapi your own moves' values are hidden, so they do \
             not give the answer away: ask for a Hint (Ctrl+H) when stuck, or tick \"Show my \
             move values against Okapi\" (Ctrl+Shift+H) to see them all the time.",
            "Game › Practise your mistakes collects the positions of your games where you lost \
             discs (this game, a folder of your games, or your games in the database) and shows \
             them again on the board, one at a time: find the move. A miss comes back the next \
             day, a right answer after 3, 7, 14 days and more.",
        ],
    ),
    (
        "Exchange",
        &[
            "Edit › Copy transcript, Copy board and Copy game as GGF or as Okapi JSON put the \
             moves, the board string or the game on the system clipboard. Edit › Paste \
             (Ctrl+V) takes any of them back, \
             from Okapi or another program; Game › Set up a position takes a typed or pasted \
             board string.",
        ],
    ),
];

/// How to play, analyse, solve, open scripts and practise.
#[derive(Default)]
pub(crate) struct FirstSteps;

impl Window for FirstSteps {
    fn title(&self) -> &'static str {
        super::FIRST_STEPS
    }

    fn show(&mut self, ctx: &egui::Context, open: &mut bool, _: &FrameView, _: &mut Commands) {
        egui::Window::new(self.title())
            .open(open)
            .default_pos([60.0, 50.0])
            // As tall as the window allows: the help reads without scrolling at 1280x900.
            .default_size([480.0, ctx.content_rect().height() - 120.0])
            .collapsible(false)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(ctx.content_rect().height() - 120.0)
                    .show(ui, |ui| {
                        for (title, paragraphs) in STEPS {
                            ui.heading(title);
                            for p in paragraphs {
                                ui.label(*p);
                            }
                            ui.add_space(4.0);
                        }
                        ui.separator();
                        ui.heading("Every shortcut");
                        super::shortcuts::shortcut_grid(ui, "first-steps-shortcuts");
                    });
            });
    }
}
