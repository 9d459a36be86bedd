//! Settings kept between runs in the platform's config dir, as JSON.

use okapi_core::search::SolveMode;
use okapi_engine::EngineConfig;
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
    /// In a game against the engine, the values of the person's own moves are shown
    /// (off by default: practice, where they would give the answer away).
    pub values_against_engine: bool,
    /// The level of the engine player (depth or time, temperature).
    pub level: okapi_core::level::Level,
    /// Practice: show the weakened engine's candidate moves with their values and chances.
    pub show_lines: bool,
    /// The opening book: its values on the board, its moves for the engine player.
    pub book: bool,
    pub animate: bool,
    pub flipped: bool,
    pub recent: Vec<PathBuf>,
    /// The folder of the last file opened or saved (games, scripts, results): the file
    /// dialogs start there.
    pub last_folder: Option<PathBuf>,
    /// Values only on the best this many moves (ties included); 0: on every move.
    pub best_only: u32,
    /// Developer items: the engine crash test (Help menu), frame times in the status bar.
    pub debug: bool,
    /// Engine against engine: the pause between two engine moves, in seconds, so a
    /// person can follow the game.
    pub engine_move_pause: f32,
    /// The user's folders of games, read into the games database with the shipped one.
    pub db_folders: Vec<PathBuf>,
    /// The live analysis of the board stops at this midgame depth (0: it deepens until
    /// the position changes or Stop); within the solve limit it stops once proven.
    pub analysis_depth: u32,
    /// Letters and digits around the board.
    pub coordinates: bool,
    /// The board's colours.
    pub board_colors: BoardColors,
    /// Dark or light panels and text, or as the computer is set (settings files from
    /// before the choice have none: the system's).
    pub theme: Theme,
    /// The main window's size and place when it was last seen (restored at start).
    pub window: Option<WindowGeometry>,
    /// The player's own name, for the seats a person plays in a new game (and so in the
    /// games saved: `PB[Marc]`, not `PB[Human]`); empty: "Human".
    pub player_name: String,
    /// The side panel's folding sections open: the engine's settings, the move values
    /// (folded by default: the move list takes the height, as in WZebra).
    pub engine_section_open: bool,
    pub move_values_open: bool,
}

/// The board's colours: the felt, and the frame with its coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardColors {
    /// Green felt in a brown frame, as on a club board.
    #[default]
    Green,
    /// Blue-green felt, easier on some eyes at night.
    Teal,
    /// Grey felt: the value colours stand out most.
    Grey,
}

impl BoardColors {
    pub const ALL: [BoardColors; 3] = [BoardColors::Green, BoardColors::Teal, BoardColors::Grey];

    pub fn name(self) -> &'static str {
        match self {
            BoardColors::Green => "Green",
            BoardColors::Teal => "Teal",
            BoardColors::Grey => "Grey",
        }
    }
}

/// The app's theme: the computer's (dark or light as it is set, and following it when it
/// changes), or always dark, or always light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theme {
    #[default]
    System,
    Dark,
    Light,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::System, Theme::Dark, Theme::Light];

    pub fn name(self) -> &'static str {
        match self {
            Theme::System => "System",
            Theme::Dark => "Dark",
            Theme::Light => "Light",
        }
    }

    /// The same as egui takes it.
    pub fn preference(self) -> eframe::egui::ThemePreference {
        use eframe::egui::ThemePreference;
        match self {
            Theme::System => ThemePreference::System,
            Theme::Dark => ThemePreference::Dark,
            Theme::Light => ThemePreference::Light,
        }
    }
}

/// The smallest window the layout is made for: as narrow as a phone held upright (the
/// board over the whole width, the side panel under it).
pub const MIN_WINDOW: [f32; 2] = [360.0, 400.0];

/// A window's inner size and its outer position on the desktop (none where the platform
/// does not tell it, as on Wayland).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowGeometry {
    pub width: f32,
    pub height: f32,
    pub position: Option<[f32; 2]>,
}

impl WindowGeometry {
    /// What the platform says of the window this frame; none while it is minimised,
    /// maximised or full screen (the size to come back to is the normal one).
    pub fn of(info: &eframe::egui::ViewportInfo) -> Option<WindowGeometry> {
        if info.minimized == Some(true)
            || info.maximized == Some(true)
            || info.fullscreen == Some(true)
        {
            return None;
        }
        let inner = info.inner_rect?;
        Some(WindowGeometry {
            width: inner.width().round(),
            height: inner.height().round(),
            position: info.outer_rect.map(|r| [r.min.x.round(), r.min.y.round()]),
        })
    }

    /// Worth restoring: finite, at least the smallest window, at most a wall of screens
    /// (a hand-edited or corrupt settings file must not open a window of 1e9 pixels).
    pub fn is_usable(&self) -> bool {
        let size_ok = |v: f32, min: f32| v.is_finite() && (min..=16384.0).contains(&v);
        size_ok(self.width, MIN_WINDOW[0])
            && size_ok(self.height, MIN_WINDOW[1])
            && self
                .position
                .is_none_or(|p| p.iter().all(|v| v.is_finite() && v.abs() <= 32768.0))
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            show_evals: true,
            eval_mode: SolveMode::Exact,
            solve_limit: okapi_engine::DEFAULT_SOLVE_LIMIT,
            hash_bits: okapi_engine::config::DEFAULT_HASH_BITS,
            threads: okapi_core::search::available_threads(),
            evals_for: EvalsFor::Both,
            values_against_engine: false,
            level: okapi_core::level::Level::numbered(okapi_engine::DEFAULT_LEVEL),
            show_lines: false,
            book: true,
            animate: true,
            flipped: false,
            recent: Vec::new(),
            last_folder: None,
            best_only: 0,
            debug: false,
            engine_move_pause: 0.5,
            coordinates: true,
            board_colors: BoardColors::default(),
            theme: Theme::default(),
            window: None,
            db_folders: Vec::new(),
            analysis_depth: okapi_engine::DEFAULT_ANALYSIS_DEPTH,
            player_name: String::new(),
            engine_section_open: false,
            move_values_open: false,
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

/// One change of the settings, as the widgets ask for it ([`crate::Command::Set`]): every
/// change goes through the app's commands, so a change that alters the analysis asks for
/// it again in one place.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    ShowValues(bool),
    ValuesFor(EvalsFor),
    /// Values on the best N moves only (0: all).
    ValuesOnBest(u32),
    ValuesAgainstEngine(bool),
    ValueMode(SolveMode),
    SolveFrom(u32),
    Level(okapi_core::level::Level),
    ShowLines(bool),
    Book(bool),
    EngineMovePause(f32),
    HashBits(u32),
    Threads(usize),
    AnalysisDepth(u32),
    Coordinates(bool),
    Animate(bool),
    Flipped(bool),
    BoardColors(BoardColors),
    Theme(Theme),
    Debug(bool),
    PlayerName(String),
    /// The side panel's Engine section unfolded or folded.
    EngineSectionOpen(bool),
    /// The side panel's Move values section unfolded or folded.
    MoveValuesOpen(bool),
    /// Every setting back to its default, except the window's place and the recent files
    /// (the user's, not settings to reset).
    RestoreDefaults,
    ForgetRecentFiles,
    /// A folder of games read with the database.
    AddDbFolder(PathBuf),
    RemoveDbFolder(PathBuf),
}

impl Setting {
    /// Makes the change in `settings`.
    pub fn apply_to(self, settings: &mut Settings) {
        match self {
            Setting::ShowValues(v) => settings.show_evals = v,
            Setting::ValuesFor(v) => settings.evals_for = v,
            Setting::ValuesOnBest(v) => settings.best_only = v,
            Setting::ValuesAgainstEngine(v) => settings.values_against_engine = v,
            Setting::ValueMode(v) => settings.eval_mode = v,
            Setting::SolveFrom(v) => settings.solve_limit = v.min(MAX_SOLVE_LIMIT),
            Setting::Level(v) => settings.level = v,
            Setting::ShowLines(v) => settings.show_lines = v,
            Setting::Book(v) => settings.book = v,
            Setting::EngineMovePause(v) => {
                settings.engine_move_pause = v.clamp(0.0, MAX_ENGINE_MOVE_PAUSE)
            }
            Setting::HashBits(v) => {
                settings.hash_bits = v.clamp(*HASH_BITS.start(), *HASH_BITS.end())
            }
            Setting::Threads(v) => settings.threads = v.max(1),
            Setting::AnalysisDepth(v) => settings.analysis_depth = v.min(60),
            Setting::Coordinates(v) => settings.coordinates = v,
            Setting::Animate(v) => settings.animate = v,
            Setting::Flipped(v) => settings.flipped = v,
            Setting::BoardColors(v) => settings.board_colors = v,
            Setting::Theme(v) => settings.theme = v,
            Setting::Debug(v) => settings.debug = v,
            Setting::PlayerName(v) => settings.player_name = v,
            Setting::EngineSectionOpen(v) => settings.engine_section_open = v,
            Setting::MoveValuesOpen(v) => settings.move_values_open = v,
            Setting::RestoreDefaults => {
                *settings = Settings {
                    window: settings.window,
                    recent: std::mem::take(&mut settings.recent),
                    ..Settings::default()
                }
            }
            Setting::ForgetRecentFiles => settings.recent.clear(),
            Setting::AddDbFolder(folder) => {
                if !settings.db_folders.contains(&folder) {
                    settings.db_folders.push(folder);
                }
            }
            Setting::RemoveDbFolder(folder) => settings.db_folders.retain(|f| *f != folder),
        }
    }

    /// Does the change alter what the engine is asked about the position (the values
    /// shown, how they are found, the engine player)? Then it is asked again.
    pub fn changes_analysis(&self) -> bool {
        matches!(
            self,
            Setting::ShowValues(_)
                | Setting::ValuesFor(_)
                | Setting::ValuesAgainstEngine(_)
                | Setting::ValueMode(_)
                | Setting::SolveFrom(_)
                | Setting::Level(_)
                | Setting::Book(_)
                | Setting::HashBits(_)
                | Setting::Threads(_)
                | Setting::AnalysisDepth(_)
                | Setting::RestoreDefaults
        )
    }
}

pub const MAX_RECENT: usize = 8;

/// A level's figures as the settings file holds them, for a message about them.
fn level_figures(level: &okapi_core::level::Level) -> String {
    match level {
        okapi_core::level::Level::Search(s) => format!(
            "depth {}, exact from {} empties, temperature {}",
            s.limits.depth, s.limits.exact_empties, s.temperature
        ),
        other => other.name(),
    }
}

/// The table sizes the app takes (the Engine menu's range): the engine's one range.
pub const HASH_BITS: std::ops::RangeInclusive<u32> = okapi_engine::config::HASH_BITS;
/// The largest "solve from N empties" (the side panel's range).
pub const MAX_SOLVE_LIMIT: u32 = 30;
/// The longest pause between engine moves, in seconds (the Engine menu's range).
pub const MAX_ENGINE_MOVE_PAUSE: f32 = 10.0;

impl Settings {
    /// The name a seat plays under in a new game: the player's own for a person's seat
    /// (when set), the seat's name otherwise.
    pub fn seat_name(&self, seat: okapi_core::game::Seat) -> String {
        match (seat, self.player_name.trim()) {
            (okapi_core::game::Seat::Human, name) if !name.is_empty() => name.to_string(),
            _ => okapi_core::game::seat_name(seat),
        }
    }

    /// The engine's table size and threads, made with the engine's one constructor: on
    /// this machine, a table larger than half the memory available is made smaller (the
    /// settings keep what the user chose). Values out of range (only a file not yet
    /// checked has them) give the defaults.
    pub fn engine_config(&self) -> EngineConfig {
        EngineConfig::new(self.hash_bits, self.threads).unwrap_or_default()
    }

    /// The engine's settings for a request: table, threads, solve limit, book.
    pub fn engine_configuration(&self) -> okapi_engine::Configuration {
        okapi_engine::Configuration {
            engine: self.engine_config(),
            solve_limit: self.solve_limit,
            book: self.book,
        }
    }

    /// The table's size as the menus show it: `16 MB`, or what is used when this
    /// machine's memory cannot hold the size asked for.
    pub fn table_size_text(&self) -> String {
        let asked = table_megabytes(self.hash_bits);
        match self.engine_config().capped() {
            Some(cap) => format!(
                "{asked} asked; {} used (half the memory available)",
                table_megabytes(cap.used)
            ),
            None => asked,
        }
    }

    /// The depth the live analysis stops at, if any.
    pub fn analysis_limit(&self) -> Option<u32> {
        (self.analysis_depth > 0).then_some(self.analysis_depth.min(60))
    }

    /// The settings file and the autosaved game: in portable mode (a file
    /// `okapi-portable.txt` beside the program) in the folder `okapi-data` beside it, else
    /// in the platform's folders (`directories`): on Windows
    /// `%APPDATA%\Okapi\config\settings.json` and `%APPDATA%\Okapi\data\current-game.json`;
    /// on Linux `~/.config/okapi/` and `~/.local/share/okapi/`; on macOS
    /// `~/Library/Application Support/Okapi/`.
    pub fn paths() -> Option<(PathBuf, PathBuf)> {
        crate::platform::data_paths()
    }

    /// Reads settings; a missing or unreadable file gives the defaults (settings are
    /// never worth refusing to start over), and so does a value out of range.
    pub fn load(path: &Path) -> Settings {
        Settings::load_checked(path).0
    }

    /// [`Settings::load`], with a plain sentence for each thing of the file that was not
    /// used (the app shows them): a file that is not settings, a value out of range. A
    /// missing file says nothing.
    pub fn load_checked(path: &Path) -> (Settings, Vec<String>) {
        let name = path.display();
        let mut problems = Vec::new();
        // Settings are a few hundred bytes; the cap keeps a damaged or odd file (a
        // device) from filling memory at every start, and a FIFO is never opened (the
        // window never came).
        let read = crate::platform::read_file(path, 1 << 20);
        let mut s = match read {
            Err(okapi_core::formats::ReadError::Io { reason, .. })
                if reason.kind() == std::io::ErrorKind::NotFound =>
            {
                Settings::default()
            }
            Err(e) => {
                problems.push(format!("{e}; using the default settings"));
                Settings::default()
            }
            Ok(bytes) => match serde_json::from_slice(&bytes) {
                Ok(s) => s,
                Err(e) => {
                    problems.push(format!(
                        "{name} is not a settings file ({e}); using the default settings"
                    ));
                    Settings::default()
                }
            },
        };
        problems.extend(s.check());
        (s, problems)
    }

    /// Puts every engine figure back in its range, saying what was changed: a table of
    /// 2^31 entries aborted every start, 100000 threads were started one after another.
    /// Each check is a small function of its own, for the single engine configuration
    /// to take over.
    pub fn check(&mut self) -> Vec<String> {
        let defaults = Settings::default();
        let mut problems = Vec::new();
        if let Err(e) = okapi_engine::config::check_hash_bits(self.hash_bits) {
            problems.push(format!(
                "hash_bits {}: {e}; using the default table of {}",
                self.hash_bits,
                table_megabytes(defaults.hash_bits)
            ));
            self.hash_bits = defaults.hash_bits;
        }
        // No threads is no setting: all the cores, silently (older files wrote 0).
        if self.threads == 0 {
            self.threads = defaults.threads;
        }
        if let Err(e) =
            okapi_engine::config::check_threads(&crate::platform::machine(), self.threads)
        {
            problems.push(format!(
                "threads {}: {e}; using {}",
                self.threads, defaults.threads
            ));
            self.threads = defaults.threads;
        }
        // A table this machine's memory cannot hold is made smaller while the engine
        // runs, and said; the setting stays (the memory available changes).
        if let Some(cap) = self.engine_config().capped() {
            problems.push(cap.message("hash_bits"));
        }
        // The level must be one Okapi can name and read back (a depth 1 to 60, a time
        // of at least a millisecond, a temperature of 0 or more): depth 0 or 1000 was
        // taken silently, a temperature of -1 played as 0 without a word.
        let named = okapi_core::level::Level::parse(&self.level.name());
        if named.as_ref() != Ok(&self.level) {
            let why = match named {
                Err(e) => e.to_string(),
                Ok(_) => format!("not a level Okapi offers ({})", level_figures(&self.level)),
            };
            problems.push(format!(
                "level: {why}; using level {}",
                defaults.level.name()
            ));
            self.level = defaults.level;
        }
        if self.solve_limit > MAX_SOLVE_LIMIT {
            problems.push(format!(
                "solve_limit {}: solving starts from at most {MAX_SOLVE_LIMIT} empties; using {}",
                self.solve_limit, defaults.solve_limit
            ));
            self.solve_limit = defaults.solve_limit;
        }
        if !(0.0..=MAX_ENGINE_MOVE_PAUSE).contains(&self.engine_move_pause) {
            problems.push(format!(
                "engine_move_pause {}: give 0 to {MAX_ENGINE_MOVE_PAUSE} seconds; using {}",
                self.engine_move_pause, defaults.engine_move_pause
            ));
            self.engine_move_pause = defaults.engine_move_pause;
        }
        problems
    }

    /// Writes the settings (a symbolic link stays one: the file it points to is written).
    /// A path JSON cannot hold (a name that is not UTF-8) is left out of the file rather
    /// than stop the save: it panicked the app on its first frame.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut kept = self.clone();
        kept.recent.retain(|p| storable(p));
        kept.db_folders.retain(|p| storable(p));
        kept.last_folder = kept.last_folder.filter(|p| storable(p));
        let text = serde_json::to_string_pretty(&kept).map_err(std::io::Error::other)?;
        crate::platform::write_file(path, text.as_bytes())
    }

    /// Puts `path` first in the recent files; its folder is where the dialogs start. A
    /// name the settings file cannot hold (not UTF-8) is not remembered.
    pub fn remember(&mut self, path: &Path) {
        if !storable(path) {
            return;
        }
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(MAX_RECENT);
        self.remember_folder(path);
    }

    /// The folder of `path` (a file opened or saved) is where the next dialog starts,
    /// kept as an absolute path: a bare file name's folder is the current one, which
    /// the next start of Okapi may not share.
    pub fn remember_folder(&mut self, path: &Path) {
        if !storable(path) {
            return;
        }
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => std::path::absolute(p).ok(),
            _ => std::env::current_dir().ok(),
        };
        if folder.is_some() {
            self.last_folder = folder;
        }
    }
}

/// A table of `2^bits` entries of 16 bytes in MB as players count them: `16 MB`,
/// `0.25 MB`, `0.016 MB` below one.
pub fn table_megabytes(bits: u32) -> String {
    let bytes = okapi_engine::config::table_bytes(bits);
    if bytes >= 1 << 20 {
        format!("{} MB", bytes >> 20)
    } else {
        let text = format!("{:.3}", bytes as f64 / f64::from(1 << 20));
        format!("{} MB", text.trim_end_matches('0').trim_end_matches('.'))
    }
}

#[cfg(test)]
mod tests;

/// Can the settings file (JSON, UTF-8) hold this path as it is?
fn storable(path: &Path) -> bool {
    path.to_str().is_some()
}
