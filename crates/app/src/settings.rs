//! Settings kept between runs in the platform's config dir, as JSON.

use okapi_core::search::SolveMode;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub show_evals: bool,
    pub eval_mode: SolveMode,
    /// Moves are solved exactly (or WLD) from this many empties down.
    pub solve_limit: u32,
    /// The transposition table holds `1 << hash_bits` entries of 16 bytes.
    pub hash_bits: u32,
    /// Threads of the engine's searches (at least 1; all the cores by default).
    pub threads: usize,
    /// Whose moves get values on the board.
    pub evals_for: EvalsFor,
    /// The level of the engine player (depth or time, temperature).
    pub level: okapi_core::search::level::Level,
    /// Practice: show the weakened engine's candidate moves with their values and chances.
    pub show_lines: bool,
    /// The opening book: its values on the board, its moves for the engine player.
    pub book: bool,
    pub animate: bool,
    pub flipped: bool,
    pub recent: Vec<PathBuf>,
    /// Values only on the best this many moves (ties included); 0: on every move.
    pub best_only: u32,
    /// Developer items: the engine crash test (Help menu), frame times in the status bar.
    pub debug: bool,
    /// Engine against engine: the pause between two engine moves, in seconds, so a
    /// person can follow the game.
    pub engine_move_pause: f32,
    /// The user's folders of games, read into the games database with the shipped one.
    pub db_folders: Vec<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            show_evals: true,
            eval_mode: SolveMode::Exact,
            solve_limit: okapi_engine::DEFAULT_SOLVE_LIMIT,
            hash_bits: 20,
            threads: okapi_core::search::available_threads(),
            evals_for: EvalsFor::Both,
            level: okapi_core::search::level::Level::numbered(okapi_engine::DEFAULT_LEVEL),
            show_lines: false,
            book: true,
            animate: true,
            flipped: false,
            recent: Vec::new(),
            best_only: 0,
            debug: false,
            engine_move_pause: 0.5,
            db_folders: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EvalsFor {
    Both,
    Black,
    White,
}

impl EvalsFor {
    pub fn includes(self, side: okapi_core::board::Color) -> bool {
        match self {
            EvalsFor::Both => true,
            EvalsFor::Black => side == okapi_core::board::Color::Black,
            EvalsFor::White => side == okapi_core::board::Color::White,
        }
    }
}

pub const MAX_RECENT: usize = 8;

impl Settings {
    /// The settings file and the autosaved game, in the platform's directories.
    pub fn paths() -> Option<(PathBuf, PathBuf)> {
        let dirs = directories::ProjectDirs::from("", "", "Okapi")?;
        Some((
            dirs.config_dir().join("settings.json"),
            dirs.data_dir().join("current-game.json"),
        ))
    }

    /// Reads settings; a missing or unreadable file gives the defaults (settings are
    /// never worth refusing to start over), and so does a value out of range.
    pub fn load(path: &Path) -> Settings {
        let mut s: Settings = std::fs::read_to_string(path)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        if s.threads == 0 {
            s.threads = Settings::default().threads;
        }
        s
    }

    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = serde_json::to_string_pretty(self).expect("settings serialise");
        okapi_core::formats::write_atomic(path, text.as_bytes())
    }

    /// Puts `path` first in the recent files.
    pub fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(MAX_RECENT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_defaults() {
        // Removed when dropped, also when an assertion fails.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        assert_eq!(Settings::load(&path), Settings::default());
        let mut s = Settings {
            solve_limit: 16,
            eval_mode: SolveMode::Wld,
            threads: 3,
            ..Settings::default()
        };
        for i in 0..10 {
            s.remember(Path::new(&format!("/g{i}.json")));
        }
        s.remember(Path::new("/g5.json"));
        assert_eq!(s.recent.len(), MAX_RECENT);
        assert_eq!(s.recent[0], Path::new("/g5.json"));
        s.save(&path).unwrap();
        assert_eq!(Settings::load(&path), s);
        std::fs::write(&path, "{ not json").unwrap();
        assert_eq!(Settings::load(&path), Settings::default());
        // No threads is no setting: all the cores.
        std::fs::write(&path, r#"{ "threads": 0, "solve_limit": 12 }"#).unwrap();
        let loaded = Settings::load(&path);
        assert_eq!(loaded.threads, okapi_core::search::available_threads());
        assert_eq!(loaded.solve_limit, 12);
    }
}
