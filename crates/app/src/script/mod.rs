//! Endgame scripts in the app: a scrZebra script (or an OBF file) opened from the File
//! menu, its positions listed, solved one by one on a background engine thread, and the
//! result saved exactly as `okapi -script` writes it.
//!
//! The output goes through [`script::output_line`], the command line's own formatting,
//! and the positions through the command line's solving code on a fresh table of the
//! same size, so a saved result is byte for byte the command line's file.

use crate::command::Command;
use crate::platform::Instant;
use crate::theme::{RIGHT_TEXT, WRONG_TEXT, themed};
use eframe::egui;
use okapi_core::board::{Move, Position};
use okapi_core::formats::script::{self, NumberedLine, Outcome, ScriptLine};
use okapi_core::game::numbered_line;
use okapi_core::search::SolveMode;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Table size of script solves: `okapi -script`'s default (`-h 18`, 4 MB), so the lines
/// found are the ones the command line writes.
pub const SCRIPT_HASH_BITS: u32 = 18;

/// One position of the script and, once solved, its result.
#[derive(Clone, Debug)]
pub struct ScriptRow {
    /// 1-based line number in the file.
    pub line_number: usize,
    /// Index of the line in [`ScriptJob`]'s lines.
    line_index: usize,
    pub position: Position,
    /// The expected score for the side to move: the best of an OBF line's move scores,
    /// or a script comment's `score:+18` (as the FFO scripts have).
    pub expected: Option<i32>,
    /// The expected best moves: an OBF line's moves with the best score, or a comment's
    /// `best:G8`.
    pub expected_best: Vec<Move>,
    pub result: Option<RowResult>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RowResult {
    pub outcome: Outcome,
    /// Exact score or WLD sign, for the side to move.
    pub score: i32,
    /// The proven line (empty without lines).
    pub line: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// An open script: its lines, its positions with what is solved, and the run in progress.
pub struct ScriptJob {
    pub path: PathBuf,
    lines: Vec<NumberedLine>,
    pub rows: Vec<ScriptRow>,
    /// Bad lines: line number and reason. They are written as `% error:` lines.
    pub bad: Vec<(usize, String)>,
    pub mode: SolveMode,
    pub with_lines: bool,
    /// The ticket of the run in progress on the script engine, if any.
    pub(super) running: Option<okapi_engine::Ticket>,
    pub(super) started: Instant,
    pub(super) status: String,
    /// Total nodes and time of the last finished run.
    pub(super) finished: Option<(u64, Duration)>,
    pub selected: Option<usize>,
    /// The window is shown.
    pub open: bool,
}

/// True for the files the app opens as scripts rather than games (`.scr`, `.obf`).
pub fn is_script_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("scr") || e.eq_ignore_ascii_case("obf"))
}

fn is_obf_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("obf"))
}

impl ScriptJob {
    /// Reads a script; only an unreadable file is an error (bad lines are listed).
    pub fn load(path: &Path) -> Result<ScriptJob, String> {
        let bytes = crate::platform::read_file(path, okapi_core::formats::MAX_SCRIPT_FILE)
            .map_err(|e| e.to_string())?;
        Ok(ScriptJob::from_bytes(path, &bytes))
    }

    /// A script from its bytes; `.obf` files are read as OBF (see [`parse_obf`]).
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> ScriptJob {
        let (lines, mut expected) = if is_obf_path(path) {
            parse_obf(bytes)
        } else {
            (script::parse_script(bytes), Vec::new())
        };
        for line in &lines {
            if let Ok(ScriptLine::Position {
                comment: Some(c), ..
            }) = &line.parsed
                && !expected.iter().any(|e| e.0 == line.number)
            {
                let (score, best) = expected_from_comment(c);
                expected.push((line.number, score, best));
            }
        }
        let mut rows = Vec::new();
        let mut bad = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            match &line.parsed {
                Ok(ScriptLine::Position { position, .. }) => {
                    let e = expected.iter().find(|e| e.0 == line.number);
                    rows.push(ScriptRow {
                        line_number: line.number,
                        line_index: i,
                        position: *position,
                        expected: e.and_then(|e| e.1),
                        expected_best: e.map(|e| e.2.clone()).unwrap_or_default(),
                        result: None,
                    })
                }
                Err(b) => bad.push((line.number, b.error.to_string())),
                Ok(_) => {}
            }
        }
        ScriptJob {
            path: path.to_path_buf(),
            lines,
            rows,
            bad,
            mode: SolveMode::Exact,
            with_lines: false,
            running: None,
            started: Instant::now(),
            status: String::new(),
            finished: None,
            selected: None,
            open: true,
        }
    }

    pub fn name(&self) -> String {
        self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().into(),
        )
    }

    pub fn solved(&self) -> usize {
        self.rows.iter().filter(|r| r.result.is_some()).count()
    }

    pub fn is_complete(&self) -> bool {
        self.rows.iter().all(|r| r.result.is_some())
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Forgets every result (the options changed).
    pub(super) fn clear_results(&mut self) {
        for r in &mut self.rows {
            r.result = None;
        }
        self.finished = None;
    }

    /// The result file, as `okapi -script` writes it with the same options; `None` until
    /// every position is solved.
    pub fn output(&self) -> Option<Vec<u8>> {
        if !self.is_complete() {
            return None;
        }
        let mut out = Vec::new();
        let mut rows = self.rows.iter().peekable();
        for (i, line) in self.lines.iter().enumerate() {
            let solved = match rows.peek() {
                Some(r) if r.line_index == i => {
                    let r = rows.next().expect("peeked");
                    r.result
                        .as_ref()
                        .map(|res| (res.outcome, self.with_lines.then_some(&res.line[..])))
                }
                _ => None,
            };
            if let Some(bytes) = script::output_line(line, solved) {
                out.extend_from_slice(&bytes);
                out.extend_from_slice(okapi_core::formats::LINE_END.as_bytes());
            }
        }
        Some(out)
    }

    /// The panel's contents; what the user asks for is pushed to `commands`.
    pub(crate) fn ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        self.summary_ui(ui);
        self.controls_ui(ui, commands);
        self.progress_ui(ui);
        self.bad_lines_ui(ui);
        ui.separator();
        self.selected_ui(ui, commands);
        ui.separator();
        self.table_ui(ui, commands);
    }

    /// The script's file and what it holds.
    fn summary_ui(&self, ui: &mut egui::Ui) {
        ui.add(
            egui::Label::new(
                egui::RichText::new(self.path.display().to_string())
                    .small()
                    .weak(),
            )
            .truncate(),
        );
        let total = self.rows.len();
        ui.label(format!(
            "{total} position{}, {} bad line{}",
            if total == 1 { "" } else { "s" },
            self.bad.len(),
            if self.bad.len() == 1 { "" } else { "s" }
        ));
    }

    /// The mode and "with lines" options, and the Solve, Stop and Save buttons.
    fn controls_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let running = self.is_running();
        let (total, solved) = (self.rows.len(), self.solved());
        ui.horizontal(|ui| {
            let mut mode = self.mode;
            ui.add_enabled_ui(!running, |ui| {
                ui.radio_value(&mut mode, SolveMode::Exact, "exact");
                ui.radio_value(&mut mode, SolveMode::Wld, "win/draw/loss");
            });
            if mode != self.mode {
                commands.push(Command::ScriptOptions {
                    mode,
                    lines: self.with_lines,
                });
            }
            // Lines are always proven (they cost little next to the solve): this only
            // shows them and writes them to the result file, no new solve needed.
            let mut with_lines = self.with_lines;
            if ui
                .checkbox(&mut with_lines, "with lines")
                .on_hover_text("Show the proven lines, and write them to the result file")
                .changed()
            {
                commands.push(Command::ScriptLinesShown(with_lines));
            }
        });
        ui.horizontal(|ui| {
            let label = if solved > 0 && !running {
                "Solve again"
            } else {
                "Solve"
            };
            if ui
                .add_enabled(!running && total > 0, egui::Button::new(label))
                .clicked()
            {
                commands.push(Command::SolveScript);
            }
            if ui
                .add_enabled(running, egui::Button::new("Stop script"))
                .clicked()
            {
                commands.push(Command::StopScript);
            }
            if ui
                .add_enabled(
                    self.is_complete() && !running,
                    egui::Button::new("Save result..."),
                )
                .on_disabled_hover_text("Solve every position first")
                .clicked()
            {
                commands.push(Command::SaveScriptResult);
            }
        });
    }

    /// The progress bar and one status line, always there: what runs, or how the last
    /// run went.
    fn progress_ui(&self, ui: &mut egui::Ui) {
        let (total, solved) = (self.rows.len(), self.solved());
        let fraction = if total == 0 {
            1.0
        } else {
            solved as f32 / total as f32
        };
        ui.add(egui::ProgressBar::new(fraction).text(format!("{solved} of {total} solved")));
        let status = if self.is_running() {
            format!(
                "{} ({:.1} s)",
                self.status,
                self.started.elapsed().as_secs_f32()
            )
        } else if let Some((nodes, elapsed)) = self.finished {
            let (right, checked) = self.agreement();
            let mut s = format!(
                "Solved in {:.2} s, {} nodes",
                elapsed.as_secs_f64(),
                count(nodes)
            );
            if checked > 0 {
                s.push_str(&format!("; {right} of {checked} as expected"));
            }
            s
        } else {
            self.status.clone()
        };
        ui.add(egui::Label::new(egui::RichText::new(status).small()).truncate());
    }

    /// The script's bad lines and why each is bad, when there are any.
    fn bad_lines_ui(&self, ui: &mut egui::Ui) {
        if !self.bad.is_empty() {
            egui::CollapsingHeader::new(format!("Bad lines ({})", self.bad.len()))
                .default_open(true)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical()
                        .id_salt("script-bad-lines")
                        .max_height(90.0)
                        .show(ui, |ui| {
                            for (n, reason) in &self.bad {
                                ui.colored_label(
                                    ui.visuals().error_fg_color,
                                    format!("line {n}: {reason}"),
                                );
                            }
                        });
                });
        }
    }

    /// The selected position's details, in lines that are always there.
    fn selected_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        match self.selected.and_then(|i| self.rows.get(i)) {
            Some(row) => {
                ui.add(
                    egui::Label::new(format!(
                        "#{} (line {}): {} empties, {} to move, on the board",
                        self.selected.unwrap_or(0) + 1,
                        row.line_number,
                        row.position.empty_count(),
                        row.position.side_to_move().name()
                    ))
                    .truncate(),
                );
                // The whole proven line, numbered and wrapped, selectable and copyable.
                let line = match &row.result {
                    Some(r) if self.with_lines && !r.line.is_empty() => {
                        Some(numbered_line(&row.position, &r.line))
                    }
                    _ => None,
                };
                match line {
                    Some(line) => {
                        ui.add(
                            egui::Label::new(
                                egui::RichText::new(format!("Line: {line}")).monospace(),
                            )
                            .wrap()
                            .selectable(true),
                        );
                        if ui
                            .button("Copy line")
                            .on_hover_text("Copy the proven line, numbered, to the clipboard")
                            .clicked()
                        {
                            commands.push(Command::CopyText(line));
                        }
                    }
                    None if row.result.is_some() && !self.with_lines => {
                        ui.label("Tick \"with lines\" for the proven line.");
                    }
                    None => {
                        ui.label("");
                    }
                }
            }
            None => {
                ui.label(egui::RichText::new("Click a position to show it on the board.").weak());
                ui.label("");
            }
        }
    }

    /// The table of positions: a row each with its result, the expected answer when the
    /// script gives one, time, nodes and (with lines) the proven line.
    fn table_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let next = self
            .is_running()
            .then(|| self.rows.iter().position(|r| r.result.is_none()));
        let has_expected = self
            .rows
            .iter()
            .any(|r| r.expected.is_some() || !r.expected_best.is_empty());
        egui::ScrollArea::both()
            .id_salt("script-rows")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                egui::Grid::new("script-grid")
                    .striped(true)
                    .num_columns(7)
                    .show(ui, |ui| {
                        ui.strong("#");
                        ui.strong("result");
                        ui.strong("best");
                        if has_expected {
                            ui.strong("expected");
                        }
                        ui.strong("time");
                        ui.strong("nodes");
                        if self.with_lines {
                            ui.strong("line");
                        }
                        ui.end_row();
                        for (i, row) in self.rows.iter().enumerate() {
                            self.row_ui(ui, i, row, next == Some(Some(i)), has_expected, commands);
                            ui.end_row();
                        }
                    });
            });
    }

    /// Row `i` of the table (`solving`: it is the one being solved).
    fn row_ui(
        &self,
        ui: &mut egui::Ui,
        i: usize,
        row: &ScriptRow,
        solving: bool,
        has_expected: bool,
        commands: &mut Vec<Command>,
    ) {
        let selected = self.selected == Some(i);
        let hover = format!(
            "line {} of the file, {} empties, {} to move\n{}",
            row.line_number,
            row.position.empty_count(),
            row.position.side_to_move().name(),
            row.position.to_board_string()
        );
        if ui
            .selectable_label(selected, format!("#{}", i + 1))
            .on_hover_text(hover)
            .clicked()
        {
            commands.push(Command::ShowScriptPosition(i));
        }
        match &row.result {
            Some(res) => {
                ui.monospace(res.outcome.to_string());
                ui.monospace(res.line.first().map_or("-".into(), |m| m.to_string()));
            }
            None => {
                ui.label(if solving { "solving..." } else { "-" });
                ui.label("");
            }
        }
        if has_expected {
            self.expected_cell(ui, row);
        }
        match &row.result {
            Some(res) => {
                ui.label(format!("{:.2} s", res.elapsed.as_secs_f64()));
                ui.label(count(res.nodes));
                if self.with_lines {
                    // Whole, on one line: the table scrolls sideways (a cut-short label
                    // in a grid column shows nothing but "…").
                    let line = numbered_line(&row.position, &res.line);
                    ui.add(egui::Label::new(egui::RichText::new(line).monospace()).extend());
                }
            }
            None => {
                ui.label("");
                ui.label("");
                if self.with_lines {
                    ui.label("");
                }
            }
        }
    }

    /// The expected answer, with a tick when the result agrees and a cross when not.
    fn expected_cell(&self, ui: &mut egui::Ui, row: &ScriptRow) {
        let mut text = String::new();
        if !row.expected_best.is_empty() {
            let best: Vec<String> = row.expected_best.iter().map(|m| m.to_string()).collect();
            text.push_str(&best.join("/"));
        }
        if let Some(e) = row.expected {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&format!("{e:+}"));
        }
        match self.check(row) {
            Some(ok) => {
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 4.0;
                    let color = check_color(ui.visuals(), ok);
                    ui.colored_label(color, text);
                    check_mark(ui, ok).on_hover_text(if ok {
                        "The result agrees with the expected score"
                    } else {
                        "The result differs from the expected score"
                    });
                });
            }
            None => {
                ui.label(text);
            }
        }
    }

    /// Does the row's result agree with its expected score (exact: the same score; WLD:
    /// the same sign)? `None` when there is nothing to compare.
    pub fn check(&self, row: &ScriptRow) -> Option<bool> {
        let (res, e) = (row.result.as_ref()?, row.expected?);
        Some(match self.mode {
            SolveMode::Exact => res.score == e,
            SolveMode::Wld => res.score.signum() == e.signum(),
        })
    }

    /// How many results agree with their expected scores, of how many can be checked.
    pub fn agreement(&self) -> (usize, usize) {
        let checks: Vec<bool> = self.rows.iter().filter_map(|r| self.check(r)).collect();
        (checks.iter().filter(|c| **c).count(), checks.len())
    }
}

/// A result's colour, and its mark's: green when it agrees with the expected score, red
/// when it differs.
fn check_color(visuals: &egui::Visuals, ok: bool) -> egui::Color32 {
    themed(visuals, if ok { RIGHT_TEXT } else { WRONG_TEXT })
}

/// A painted ✓ or ✗ (the bundled fonts have neither glyph), read out as "✓ agrees" or
/// "✗ differs".
fn check_mark(ui: &mut egui::Ui, ok: bool) -> egui::Response {
    let size = ui.text_style_height(&egui::TextStyle::Body);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    let r = rect.shrink(size * 0.18);
    let stroke = egui::Stroke::new(2.0, check_color(ui.visuals(), ok));
    let p = ui.painter();
    if ok {
        p.line_segment(
            [
                r.left_center(),
                egui::pos2(r.left() + r.width() * 0.4, r.bottom()),
            ],
            stroke,
        );
        p.line_segment(
            [
                egui::pos2(r.left() + r.width() * 0.4, r.bottom()),
                r.right_top(),
            ],
            stroke,
        );
    } else {
        p.line_segment([r.left_top(), r.right_bottom()], stroke);
        p.line_segment([r.right_top(), r.left_bottom()], stroke);
    }
    response.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::accesskit::Role::Label,
            true,
            if ok { "✓ agrees" } else { "✗ differs" },
        )
    });
    response
}

/// A node count at a glance: 950, 12.3 k, 4.56 M, 1.23 G.
fn count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1} k", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.2} M", n as f64 / 1e6),
        _ => format!("{:.2} G", n as f64 / 1e9),
    }
}

mod obf;
pub use obf::{Expected, expected_from_comment, parse_obf};

#[cfg(test)]
mod tests;
