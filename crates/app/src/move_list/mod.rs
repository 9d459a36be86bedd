//! The move list (numbered rows, Black and White columns, the current move highlighted
//! and kept in view, variations), and what the game analysis found.

use crate::command::Command;
use crate::engine_hub::PlyAnalysis;
use crate::part::{Commands, FrameView, Part};
use crate::theme::{
    BLUNDER_TEXT, CellTexts, INACCURACY_TEXT, MISTAKE_TEXT, Themed, cell_texts, themed,
};
use eframe::egui;
use okapi_core::board::{Color, Move};
use okapi_core::game::EvalSource;
use okapi_core::game::openings;

/// How bad a move was, by the discs it lost against the best move (for its mover).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Severity {
    /// 1–2 discs.
    Inaccuracy,
    /// 3–7 discs.
    Mistake,
    /// 8 discs or more: usually the game's turning point.
    Blunder,
}

impl Severity {
    /// Bands as club players use them: a disc or two is the noise of a 12-ply search
    /// (its values move by 1–2 discs between depths), 8 or more usually decides a game.
    pub(super) fn of(loss: i32) -> Option<Severity> {
        match loss {
            i32::MIN..=0 => None,
            1..=2 => Some(Severity::Inaccuracy),
            3..=7 => Some(Severity::Mistake),
            _ => Some(Severity::Blunder),
        }
    }

    /// Its colour on each theme's panel (dark, light).
    pub(super) fn colors(self) -> Themed {
        match self {
            Severity::Inaccuracy => INACCURACY_TEXT,
            Severity::Mistake => MISTAKE_TEXT,
            Severity::Blunder => BLUNDER_TEXT,
        }
    }

    /// Its colour on the theme `visuals` draws with.
    pub(super) fn color(self, visuals: &egui::Visuals) -> egui::Color32 {
        themed(visuals, self.colors())
    }

    /// Its colour in a move-list cell drawn with `texts`.
    fn in_cell(self, texts: &CellTexts) -> egui::Color32 {
        match self {
            Severity::Inaccuracy => texts.inaccuracy,
            Severity::Mistake => texts.mistake,
            Severity::Blunder => texts.blunder,
        }
    }

    /// Its colour on the graph's felt, which is dark green on either theme.
    pub(super) fn on_felt(self) -> egui::Color32 {
        self.colors()[0]
    }

    fn name(self) -> &'static str {
        match self {
            Severity::Inaccuracy => "inaccuracy (1-2 discs)",
            Severity::Mistake => "mistake (3-7)",
            Severity::Blunder => "blunder (8+)",
        }
    }
}

/// The move list's height: what is left on screen below it, at least this (a few rows
/// where the window is very small) and at most [`MOVE_LIST_MAX`] (the sections below it
/// stay in reach on a tall screen). At 1000x720 what is left shows 14 rows, at 800x600 8.
const MOVE_LIST_MIN: f32 = 110.0;
const MOVE_LIST_MAX: f32 = 480.0;
/// The game analysis' summary's height where the screen leaves it no room under the list
/// (the tab scrolls as a whole): its title and two lines, the rest scrolled to.
const SUMMARY_MIN: f32 = 60.0;

/// The move list and the game analysis' summary under it: owns where it scrolled to.
#[derive(Default)]
pub(crate) struct MoveList {
    /// The ply the list last scrolled to (it scrolls only when the ply changes, so the
    /// wheel can move it).
    scrolled: Option<usize>,
    /// The rows shown whole on screen last frame (first, last), for tests.
    pub(crate) rows: Option<(usize, usize)>,
    /// The list's height last frame: when it changes (a section under it opened), the
    /// current move is brought into view again.
    height: Option<f32>,
    /// The height of what followed the list last frame (the variations, the file, the
    /// game analysis' summary): the list leaves room for it on screen.
    below: Option<f32>,
}

impl Part for MoveList {
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        let mut draw = MoveListDraw {
            state: self,
            view,
            commands,
        };
        let list_bottom = draw.move_list(ui);
        // The summary in the room left under the list, scrolling where it is longer (a
        // small window: the list keeps its least height). With no room on screen (the
        // phone's layout, where the whole tab scrolls) a few lines, scrolled to.
        let room = (ui.clip_rect().bottom() - ui.cursor().top()).floor();
        let room = if room < 24.0 { SUMMARY_MIN } else { room };
        let summary = egui::ScrollArea::vertical()
            .id_salt("analysis-summary")
            .max_height(room)
            .auto_shrink([false, true])
            .show(ui, |ui| draw.analysis_summary(ui));
        // What the list leaves room for: the summary's whole height, not what it got.
        let hidden = (summary.content_size.y - summary.inner_rect.height()).max(0.0);
        let below = (ui.min_rect().bottom() - list_bottom).max(0.0) + hidden;
        if self.below.is_none_or(|b| (b - below).abs() > 0.5) {
            // Something under the list came or went: the list fits round it next frame.
            self.below = Some(below);
            ui.ctx().request_repaint();
        }
    }
}

/// One frame's drawing of the move list: its state, what it reads, where clicks go.
struct MoveListDraw<'a> {
    state: &'a mut MoveList,
    view: &'a FrameView<'a>,
    commands: &'a mut Commands,
}

impl MoveListDraw<'_> {
    fn game(&self) -> &okapi_core::game::Game {
        self.view.game()
    }

    fn analysis_of(&self, i: usize) -> Option<PlyAnalysis> {
        self.view.analysis_of(i)
    }

    /// A ply's analysis with both values bounded by a proof of its position, as the rows
    /// and the board show them: after an exact solve no search counts above the proof,
    /// so a loss between two searches above it is no loss.
    fn bounded(&self, mut a: PlyAnalysis) -> PlyAnalysis {
        let position = a.key.0;
        a.played = self.view.known.bounded(&position, a.played);
        a.best = self.view.known.bounded(&position, a.best);
        if a.played.value > a.best.value
            && let Move::Play(sq) = a.key.1
        {
            (a.best, a.best_move) = (a.played, sq);
        }
        a
    }

    /// What the game analysis found, per colour: every move that lost discs, proven or
    /// by the search, and the discs lost in all.
    fn analysis_summary(&self, ui: &mut egui::Ui) {
        let analysed: Vec<(usize, PlyAnalysis)> = (0..self.game().len())
            .filter_map(|i| self.analysis_of(i).map(|a| (i, self.bounded(a))))
            .collect();
        if analysed.is_empty() {
            return;
        }
        ui.separator();
        ui.strong("Game analysis");
        let line = self.game().moves();
        if let Some(opening) = openings::opening_of_line(self.game().start(), &line) {
            ui.label(format!(
                "Opening: {} (its position after move {})",
                opening.name, opening.ply
            ));
        }
        for side in [Color::Black, Color::White] {
            let of_side: Vec<&(usize, PlyAnalysis)> = analysed
                .iter()
                .filter(|(i, _)| self.game().position_at(*i).side_to_move() == side)
                .collect();
            let lost: Vec<&(usize, PlyAnalysis)> = of_side
                .iter()
                .copied()
                .filter(|(_, a)| a.loss() > 0)
                .collect();
            let discs: i32 = lost.iter().map(|(_, a)| a.loss()).sum();
            let proven = lost
                .iter()
                .filter(|(_, a)| a.played.source == EvalSource::Exact)
                .count();
            let count = |s: Severity| {
                lost.iter()
                    .filter(|(_, a)| Severity::of(a.loss()) == Some(s))
                    .count()
            };
            // A side none of whose moves was analysed (mistakes collected for the
            // other side only) lost nothing that is known.
            let text = if of_side.is_empty() {
                format!("{}: not analysed", side.name())
            } else if lost.is_empty() {
                format!("{}: no disc lost", side.name())
            } else {
                format!(
                    "{}: lost {} in {} ({}, {}, {}; {proven} proven by the solver, {} by the search)",
                    side.name(),
                    plural(discs as usize, "disc"),
                    plural(lost.len(), "move"),
                    plural(count(Severity::Blunder), "blunder"),
                    plural(count(Severity::Mistake), "mistake"),
                    plural(count(Severity::Inaccuracy), "inaccuracy"),
                    lost.len() - proven,
                )
            };
            ui.label(text);
        }
        let worst = analysed
            .iter()
            .filter(|(_, a)| a.loss() > 0)
            .max_by_key(|(_, a)| a.loss());
        if let Some((i, a)) = worst {
            let label = |e| self.view.known.label(&a.key.0, e);
            ui.label(format!(
                "Worst: move {} {}, {} ({}) against {} {} ({})",
                self.game().move_number_at(*i),
                a.key.1,
                label(a.played),
                a.played.source,
                a.best_move,
                label(a.best),
                a.best.source
            ));
        }
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new("Losses, for the side that moved:").small());
            for s in [Severity::Inaccuracy, Severity::Mistake, Severity::Blunder] {
                ui.label(
                    egui::RichText::new(s.name())
                        .small()
                        .color(s.color(ui.visuals())),
                );
            }
            ui.label(
                egui::RichText::new("~: by the search, not proven")
                    .small()
                    .weak(),
            );
        });
        ui.label(
            egui::RichText::new(format!(
                "The analysis solves exactly from {} empties and searches {} moves ahead \
                 (95% selective) before that; the live values on the board keep deepening, \
                 so away from the end they can differ from it by a few discs.",
                self.view.settings.solve_limit,
                okapi_engine::GAME_ANALYSIS_DEPTH
            ))
            .small()
            .weak(),
        );
    }

    /// One cell of the move list: the move, its value for its mover, and the loss the
    /// analysis found, coloured by severity. Its accessible name reads as the old chips
    /// did (`5. c4 (+2) ?-6 d3`).
    fn move_cell(&mut self, ui: &mut egui::Ui, i: usize, number: usize) {
        let game = self.game();
        let Some(mv) = game.move_at(i) else {
            return;
        };
        let text = match mv {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "pass".into(),
        };
        let mut name = match mv {
            Move::Play(_) => format!("{number}. {text}"),
            Move::Pass => "pass".into(),
        };
        // The current move's cell is drawn on the selection's fill, in colours that read on it.
        let current = self.game().ply() == i + 1;
        let colors = cell_texts(ui.visuals(), current);
        let mut rich = egui::text::LayoutJob::default();
        let strong = egui::TextFormat {
            font_id: egui::FontId::proportional(14.0),
            color: colors.mv,
            ..Default::default()
        };
        let small = |color| egui::TextFormat {
            font_id: egui::FontId::proportional(11.0),
            color,
            ..Default::default()
        };
        rich.append(&text, 0.0, strong);
        if game.branches_at(i) {
            // A branch: other moves were tried here (see "Variations").
            rich.append("+", 1.0, small(colors.weak));
        }
        if let Some((e, label)) = self.view.move_value(i).filter(|_| !self.view.hides_answer) {
            // A proof in the proof colour; the search's estimates marked `~`, as the
            // analysis marks its losses ("≤-16", a search a proof bounds, is marked).
            let (label, color) = if e.is_proven() {
                (label, colors.proven)
            } else {
                let label = match label.starts_with(['~', '≤']) {
                    true => label,
                    false => format!("~{label}"),
                };
                (label, colors.weak)
            };
            rich.append(&label, 4.0, small(color));
            name += &format!(" ({label})");
        }
        if let Some(a) = self.analysis_of(i)
            && let Some(severity) = Severity::of(a.loss())
        {
            let proven = a.played.source == EvalSource::Exact;
            let mark = format!(
                "{}{} {}",
                if proven { "" } else { "~" },
                -a.loss(),
                a.best_move
            );
            rich.append(&mark, 4.0, small(severity.in_cell(&colors)));
            name += &format!(" ?{mark}");
        }
        if let Some(opening) = openings::opening_name(&game.position_at(i + 1)) {
            name += &format!(" — {opening}");
        }
        let r = ui.selectable_label(current, rich);
        r.widget_info(|| egui::WidgetInfo::selected(egui::Role::Button, true, current, &name));
        // Into view when the ply changes, not every frame: the wheel must move the list.
        if current && self.state.scrolled != Some(i + 1) {
            // Centred and at once: a target already in view is otherwise left alone, and
            // a scroll still under way toward an earlier target then wins (End then Home
            // quickly left the list at the end).
            r.scroll_to_me_animation(
                Some(egui::Align::Center),
                egui::style::ScrollAnimation::none(),
            );
            self.state.scrolled = Some(i + 1);
        }
        if r.on_hover_text("Go to the position after this move")
            .clicked()
        {
            self.commands.push(Command::GoTo(i + 1));
        }
    }

    /// The last cell of a move-list row: the names of the openings the row's moves reach
    /// (where the name changes), cut to what is left of the list's width (so the side
    /// panel, and the board beside it, never change size for a long name), the whole with
    /// the move that reaches it on hover.
    fn opening_cell(
        &self,
        ui: &mut egui::Ui,
        row: &[Option<usize>; 2],
        numbers: &[usize],
        right: f32,
    ) {
        let game = self.game();
        let reached: Vec<(usize, &str)> = row
            .iter()
            .flatten()
            .filter_map(|&i| openings::opening_name(&game.position_at(i + 1)).map(|n| (i, n)))
            .collect();
        if reached.is_empty() {
            ui.label("");
            return;
        }
        let text = reached
            .iter()
            .map(|&(_, name)| name)
            .collect::<Vec<_>>()
            .join(", then ");
        let hover = reached
            .iter()
            .map(|&(i, name)| {
                let mv = game.move_at(i).map_or(String::new(), |m| m.to_string());
                format!("{}. {mv}: {name}", numbers[i])
            })
            .collect::<Vec<_>>()
            .join("\n");
        fitted_label(ui, egui::RichText::new(text).small().italics(), right)
            .on_hover_text(format!("Opening reached by {hover}"));
    }

    /// The list, then the variations and the file under it; returns where the list
    /// ends.
    fn move_list(&mut self, ui: &mut egui::Ui) -> f32 {
        let len = self.game().len();
        // Rows of (Black's ply, White's ply); a game that starts with White leaves the
        // first Black cell empty, and a pass takes its colour's cell.
        let mut rows: Vec<[Option<usize>; 2]> = Vec::new();
        // Each move's number as players count it (1 to 60, passes taking none; a game
        // set up later counts on from its position), as the status and graph say it.
        let mut numbers = vec![0; len];
        for (i, number) in numbers.iter_mut().enumerate() {
            *number = self.game().move_number_at(i);
            let side = self.game().position_at(i).side_to_move() as usize;
            match rows.last_mut() {
                Some(row) if side == 1 && row[1].is_none() => row[1] = Some(i),
                _ => {
                    let mut row = [None, None];
                    row[side] = Some(i);
                    rows.push(row);
                }
            }
        }
        // Leaves room below for what follows it (at first a line, for the variations or
        // the file name).
        let below = self.state.below.unwrap_or(ui.spacing().interact_size.y);
        let height = (ui.clip_rect().bottom() - ui.cursor().top() - below)
            .clamp(MOVE_LIST_MIN, MOVE_LIST_MAX);
        if self.state.height.is_some_and(|h| (h - height).abs() > 0.5) {
            self.state.scrolled = None;
        }
        self.state.height = Some(height);
        let outer_clip = ui.clip_rect();
        let mut row_rects = Vec::with_capacity(rows.len());
        let shown = egui::ScrollArea::vertical()
            .id_salt("move-list")
            .max_height(height)
            .min_scrolled_height(height)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                // The openings' column takes what is left up to here, never more.
                let right = ui.max_rect().right();
                // Rows a pixel apart (not 3): two more rows in view at 1000x720.
                egui::Grid::new("move-list-grid")
                    .num_columns(4)
                    .striped(true)
                    .spacing([8.0, 1.0])
                    .show(ui, |ui| {
                        // The start position heads the number column, the current
                        // "move" at the start: into view as a move's cell is.
                        let at_start = self.game().ply() == 0;
                        let start = ui.selectable_label(at_start, "start");
                        if at_start && self.state.scrolled != Some(0) {
                            start.scroll_to_me_animation(
                                Some(egui::Align::Min),
                                egui::style::ScrollAnimation::none(),
                            );
                            self.state.scrolled = Some(0);
                        }
                        if start.on_hover_text("The start position").clicked() {
                            self.commands.push(Command::GoTo(0));
                        }
                        // The move columns at least 70 points wide, as before the
                        // openings' column came.
                        for title in ["Black moves", "White moves"] {
                            ui.add_sized(
                                [70.0, ui.spacing().interact_size.y],
                                egui::Label::new(egui::RichText::new(title).weak()),
                            );
                        }
                        fitted_label(ui, egui::RichText::new("Opening").weak(), right);
                        ui.end_row();
                        for row in &rows {
                            // The row's first move's number: "Move 35" is found at 35.
                            let first = row.iter().flatten().next().map_or(0, |&i| numbers[i]);
                            row_rects.push(ui.weak(format!("{first}")).rect);
                            for cell in row {
                                match cell {
                                    Some(i) => self.move_cell(ui, *i, numbers[*i]),
                                    None => {
                                        ui.label("");
                                    }
                                }
                            }
                            self.opening_cell(ui, row, &numbers, right);
                            ui.end_row();
                        }
                    });
            });
        // The rows whole on screen: inside the list's view and the panel's.
        let view = shown.inner_rect.intersect(outer_clip);
        let whole: Vec<usize> = (0..row_rects.len())
            .filter(|&r| {
                let y = row_rects[r].y_range();
                y.min >= view.top() - 0.5 && y.max <= view.bottom() + 0.5
            })
            .collect();
        self.state.rows = whole.first().zip(whole.last()).map(|(a, b)| (*a, *b));
        self.variations_view(ui);
        if let Some(path) = self.view.file {
            ui.label(
                egui::RichText::new(format!("File: {}", path.display()))
                    .small()
                    .weak(),
            );
        }
        shown.inner_rect.bottom()
    }

    /// The variations at the cursor: the moves tried from this position (choose one), and
    /// for a line off the main line, promote or delete it.
    fn variations_view(&mut self, ui: &mut egui::Ui) {
        let game = self.game();
        let ply = game.ply();
        // The branch nearest the cursor: the moves from here, or the move just played.
        let at = [ply, ply.wrapping_sub(1)]
            .into_iter()
            .find(|&i| i < game.len() && game.branches_at(i));
        let off_main = !game.on_main_line();
        if at.is_none() && !off_main {
            return;
        }
        let branch = at.map(|i| (i, game.move_at(i), game.alternatives(i)));
        ui.horizontal_wrapped(|ui| {
            if let Some((i, chosen, alternatives)) = branch {
                ui.label("Variations:");
                for (k, mv) in alternatives.into_iter().enumerate() {
                    let text = if k == 0 {
                        format!("{mv} (main)")
                    } else {
                        mv.to_string()
                    };
                    if ui.selectable_label(chosen == Some(mv), text).clicked() {
                        self.commands.push(Command::ChooseVariation(i, mv));
                    }
                }
            }
            if off_main {
                if ui
                    .button("Make main line")
                    .on_hover_text("This line becomes the game's main line")
                    .clicked()
                {
                    self.commands.push(Command::PromoteLine);
                }
                // The first move of this line that is off the main line.
                let first_off = (0..self.game().len()).find(|&i| !self.game().is_main_at(i));
                if let Some(i) = first_off
                    && ui
                        .button("Delete variation")
                        .on_hover_text("Deletes this line from its first move off the main line")
                        .clicked()
                {
                    self.commands.push(Command::DeleteVariation(i));
                }
            }
        });
    }
}

/// A one-line label cut short (with "…") to end at `right` at the latest.
fn fitted_label(ui: &mut egui::Ui, text: egui::RichText, right: f32) -> egui::Response {
    let width = (right - ui.cursor().left()).max(0.0);
    ui.allocate_ui(egui::vec2(width, ui.spacing().interact_size.y), |ui| {
        ui.set_max_width(width);
        ui.add(egui::Label::new(text).truncate())
    })
    .inner
}

/// `1 move`, `2 moves`, `1 inaccuracy`, `3 inaccuracies`.
/// "1 disc", "4 discs".
pub(crate) fn discs(n: u32) -> String {
    plural(n as usize, "disc")
}

pub(crate) fn plural(n: usize, word: &str) -> String {
    match (n, word.strip_suffix('y')) {
        (1, _) => format!("1 {word}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        _ => format!("{n} {word}s"),
    }
}

#[cfg(test)]
pub(crate) mod tests;
