//! Game › Practise your mistakes (also the analysis panel's "Practise mistakes"): the
//! positions where a player lost discs, drilled one at a time on the board.
//!
//! Collecting: from the game on the board (its game analysis is reused; the player's
//! moves not analysed yet are analysed now, and the move list shows them too), from a
//! folder of the player's games, or from the games database's games of a named player.
//! Each game is analysed on an engine of the window's own (the board's engine is left to
//! the board), and the player's moves that lost at least N discs become cards in the
//! practice file of the data folder, saved after every game ([`okapi_core::practice`]).
//!
//! Practising: the cards due today, one at a time on the board, values hidden. Meanwhile
//! the engine values every move of the position, proven by the solver where it takes
//! about a second ([`okapi_core::practice::SOLVER_EMPTIES`]) and searched as the game analysis does
//! elsewhere; the move clicked is judged against those values, then the board shows every
//! move's value, the loss is said and the best line is there on request. A miss comes
//! back the next day, a right answer further out (1, 3, 7, 14... days).
//!
//! The window draws from the frame's view ([`Practice`] there) and asks for every change
//! by a command, applied after the frame is drawn (`command_handling/practice_*.rs`).

use crate::command::{CollectFrom, Command, LessonChoice, PracticeStep};
use crate::move_list::plural;
use crate::part::{Commands, FrameView, Window};
use crate::practice_state::{Asking, Practice};
use eframe::egui;
use std::path::Path;

mod card_text;
mod collect;
mod openings;
mod round;
mod stats;

/// The window's two parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Tab {
    /// The player's own mistakes, collected and drilled.
    #[default]
    Mistakes,
    /// The opening trainer.
    Openings,
}

/// The practice window: the tab shown and the forms being filled in; the cards, the round
/// and the lesson are the app's ([`Practice`]), changed by the window's commands.
#[derive(Default)]
pub(crate) struct PracticeWindow {
    tab: Tab,
    /// Where to collect the mistakes from (sent with Collect).
    collect: CollectFrom,
    /// The opening trainer's lesson to start (sent with Start lesson and Again).
    lesson: LessonChoice,
}

impl PracticeWindow {
    /// The folder picked in the system's dialog (Choose…).
    pub(crate) fn folder_chosen(&mut self, dir: &Path) {
        self.collect.folder = dir.display().to_string();
    }

    fn contents(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        let p = view.practice;
        if let Some(notice) = &p.notice {
            ui.colored_label(ui.visuals().warn_fg_color, notice);
            if ui.small_button("OK").clicked() {
                commands.push(Command::Practice(PracticeStep::DismissNotice));
            }
            ui.separator();
        }
        if p.loading.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Reading your practice positions…");
            });
            return;
        }
        if p.round.is_some() {
            round::round_ui(ui, view, commands);
            return;
        }
        // The window's two parts, as tabs over what they show (none while a lesson runs).
        if p.openings.lesson.is_none() {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut self.tab, Tab::Mistakes, "Your mistakes");
                ui.selectable_value(&mut self.tab, Tab::Openings, "Openings");
            });
            ui.separator();
        }
        if self.tab == Tab::Openings || p.openings.lesson.is_some() {
            self.openings_ui(ui, p, commands);
        } else {
            // Collecting before the statistics: the window's one action when it has no
            // positions yet stays in sight without scrolling.
            overview(ui, p, commands);
            ui.separator();
            self.collect_form(ui, view, commands);
            ui.separator();
            stats::practice_stats(ui, p, commands);
        }
    }
}

impl Window for PracticeWindow {
    fn title(&self) -> &'static str {
        super::PRACTICE
    }

    fn show(
        &mut self,
        ctx: &egui::Context,
        open: &mut bool,
        view: &FrameView,
        commands: &mut Commands,
    ) {
        // Over the side panel, right of the board or under it in a narrow window: the
        // board stays whole for the answer.
        let right = ctx.content_rect().right();
        let (left, top, width) = match view.side_area {
            Some(side) if view.side_under_board() => {
                (side.left() + 4.0, side.top() + 4.0, side.width() - 24.0)
            }
            _ => {
                let left = view
                    .board_area
                    .map_or(right - 350.0, |board| board.right() + 4.0);
                (left, 60.0, (right - left - 24.0).clamp(240.0, 330.0))
            }
        };
        egui::Window::new(self.title())
            .open(open)
            .default_pos([left, top])
            .default_width(width)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .max_height(ctx.content_rect().height() - 130.0)
                    .show(ui, |ui| {
                        // Long names and lines wrap: the window keeps its width.
                        ui.set_max_width(width);
                        self.contents(ui, view, commands)
                    });
            });
        let p = view.practice;
        if p.collecting_anything() || p.loading.is_some() || p.asking != Asking::Nothing {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
        if !*open {
            // Its round and collection end, its engine goes.
            commands.push(Command::ClosePractice);
        }
    }
}

/// How many cards there are, how many are due, and the button to start.
fn overview(ui: &mut egui::Ui, p: &Practice, commands: &mut Commands) {
    let today = p.today();
    let Some(f) = &p.figures else {
        return;
    };
    let (due, round, next_due, cards) = (f.due, f.round, f.next_due, f.stats.cards);
    let missed = round - due;
    ui.strong(format!(
        "{} to practise, {} due today{}",
        plural(cards, "position"),
        due,
        if missed > 0 {
            format!(", {missed} missed today to try again")
        } else {
            String::new()
        }
    ));
    if let Some((day, count)) = next_due {
        ui.label(format!(
            "Next: {} on {day} ({})",
            plural(count, "position"),
            days_from_now(today.until(day))
        ));
    }
    let can = round > 0 && !p.collecting_anything();
    if ui
        .add_enabled(can, egui::Button::new(format!("Start practice ({round})")))
        .on_hover_text(
            "The positions due today and those missed today, one at a time on the \
             board: click the move you would play",
        )
        .clicked()
    {
        commands.push(Command::Practice(PracticeStep::Start));
    }
}

/// `tomorrow`, `in 3 days`, `today`.
fn days_from_now(days: i64) -> String {
    match days {
        i64::MIN..=0 => "today".into(),
        1 => "tomorrow".into(),
        n => format!("in {n} days"),
    }
}
