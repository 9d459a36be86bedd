//! The script panel's commands: open, solve on the script's own engine, stop, show a
//! position, save the result as the command line writes it.

use crate::app::App;
use crate::command::Command;
use crate::engine_hub::{EngineUse, SolveStats};
use crate::platform::Instant;
use crate::script;
use crate::script::ScriptJob;
use okapi_core::formats::same_file;
use okapi_core::game::{Game, ProvenLine, Seat};
use okapi_core::search::SolveMode;
use okapi_engine::Request;
use std::path::Path;

impl App {
    /// Solves the open script from the start on the script engine, as the command line
    /// does, with the engine's threads: small positions several at a time, results in
    /// order.
    fn solve_script(&mut self) {
        let Some(job) = &mut self.script else { return };
        if job.rows.is_empty() {
            return;
        }
        job.clear_results();
        // The script's own engine: the board's analysis would otherwise supersede the
        // script whenever the position changes.
        let engine = self
            .engines
            .open(EngineUse::Script, self.settings.engine_configuration());
        let ticket = engine.send(Request::SolveScript {
            positions: job.rows.iter().map(|r| r.position).collect(),
            mode: job.mode,
            lines: true, // always proven: the script panel shows them on demand
            hash_bits: script::SCRIPT_HASH_BITS,
        });
        job.running = Some(ticket);
        job.started = Instant::now();
        job.status = "starting...".into();
        self.board_takes_its_new_share();
    }

    /// The endgame script window.
    pub(super) fn apply_script(&mut self, command: Command) {
        match command {
            Command::OpenScript => {
                if let Some(path) = self.file_dialogs().open_script() {
                    self.apply(Command::OpenScriptPath(path));
                }
            }
            Command::OpenScriptPath(path) => self.open_script(&path),
            Command::ScriptOptions { mode, lines } => self.set_script_options(mode, lines),
            Command::SolveScript => self.solve_script(),
            Command::StopScript => self.stop_script(),
            Command::ShowScriptPosition(i) => self.show_script_position(i),
            Command::SaveScriptResult => self.save_script_result(),
            Command::SaveScriptResultTo(path) => self.save_script_result_to(&path),
            Command::CloseScript => {
                self.apply(Command::StopScript);
                self.engines.close(EngineUse::Script);
                self.board_takes_its_new_share();
                self.script = None;
            }
            other => unreachable!("not a script command: {other:?}"),
        }
    }

    /// Loads the script at `path` into the script panel (the one before is closed).
    fn open_script(&mut self, path: &Path) {
        match ScriptJob::load(path) {
            Ok(job) => {
                // Nothing of the old script's run reaches the new one.
                if let Some(engine) = self.engines.get_mut(EngineUse::Script) {
                    engine.cancel();
                }
                let count =
                    |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
                self.notice = Some(format!(
                    "Opened the script {}: {}, {}.",
                    job.name(),
                    count(job.rows.len(), "position"),
                    count(job.bad.len(), "bad line")
                ));
                self.settings.remember_folder(path);
                self.script = Some(job);
                self.view.side_tab = crate::command::SideTab::Script;
            }
            Err(e) => {
                self.error = Some(format!("Could not open {}: {e}", path.display()));
            }
        }
    }

    /// Another solve mode or line setting: the results of the old ones go.
    fn set_script_options(&mut self, mode: SolveMode, lines: bool) {
        self.apply(Command::StopScript);
        if let Some(job) = &mut self.script
            && (job.mode, job.with_lines) != (mode, lines)
        {
            // Results of the old options still on their way are dropped.
            if let Some(engine) = self.engines.get_mut(EngineUse::Script) {
                engine.cancel();
            }
            job.mode = mode;
            job.with_lines = lines;
            job.clear_results();
            job.status.clear();
            job.running = None;
        }
    }

    /// Stops the script's solve, if it runs.
    fn stop_script(&mut self) {
        if let (Some(engine), Some(job)) = (self.engines.get(EngineUse::Script), &mut self.script)
            && job.running.is_some()
        {
            engine.stop();
            job.status = "stopping...".into();
        }
    }

    /// Shows script position `i` on the board, with its proven line when it is solved.
    fn show_script_position(&mut self, i: usize) {
        let Some(job) = &mut self.script else { return };
        let Some(row) = job.rows.get(i) else { return };
        job.selected = Some(i);
        let (position, mode, result) = (row.position, job.mode, row.result.clone());
        self.view.setup = None;
        self.file = None;
        // A script's position is studied, not played: two people.
        self.load_game(Game::new(position), [Seat::Human; 2], None);
        self.mark_saved();
        // A solved position comes with its proven line, ready to play through.
        if let Some(r) = result.filter(|r| !r.line.is_empty()) {
            // Its proof replaces the live analysis' estimates on the squares.
            self.known
                .offer_proven_line(position, mode, r.score, &r.line);
            self.session.set_proven_line(ProvenLine {
                position,
                mode,
                score: r.score,
                line: r.line,
            });
            self.solve_stats = Some(SolveStats {
                nodes: r.nodes,
                elapsed: r.elapsed,
            });
        }
    }

    /// Asks where to save the script's results (once every position is solved).
    fn save_script_result(&mut self) {
        let Some(job) = &self.script else { return };
        if job.output().is_none() {
            return;
        }
        let stem = job
            .path
            .file_stem()
            .map_or_else(|| "script".into(), |s| s.to_string_lossy().into_owned());
        if let Some(path) = self
            .file_dialogs()
            .save_script_result(&format!("{stem}-result.txt"))
        {
            self.apply(Command::SaveScriptResultTo(path));
        }
    }

    /// Saves the script's results to `path` (never over the script itself).
    fn save_script_result_to(&mut self, path: &Path) {
        let Some(bytes) = self.script.as_ref().and_then(|j| j.output()) else {
            return;
        };
        if self
            .script
            .as_ref()
            .is_some_and(|j| same_file(&j.path, path))
        {
            self.error = Some(format!(
                "Not saved: {} is the script itself",
                path.display()
            ));
            return;
        }
        match crate::platform::write_file(path, &bytes) {
            Ok(()) => {
                self.settings.remember_folder(path);
                self.notice = Some(format!("Saved the results to {}", path.display()));
            }
            Err(e) => self.error = Some(format!("Could not save {}: {e}", path.display())),
        }
    }
}
