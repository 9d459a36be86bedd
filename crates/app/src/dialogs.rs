//! File dialogs behind a trait, so tests swap the real ones for a fake; and the in-app
//! path field the app falls back to when the system's dialog cannot be shown.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub trait FileDialogs {
    /// Asks for a game file to open.
    fn open_game(&mut self) -> Option<PathBuf>;
    /// Asks where to save a game, suggesting a file name.
    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf>;
    /// Asks for an endgame script (scrZebra `.scr` or OBF) to open.
    fn open_script(&mut self) -> Option<PathBuf>;
    /// Asks where to save a script's results, suggesting a file name.
    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf>;
    /// Takes why the last dialog gave no path when that was not the person's choice (no
    /// dialog could be shown): then the app asks for the path itself. `None` after a
    /// cancel.
    fn take_failure(&mut self) -> Option<DialogFailure> {
        None
    }
    /// Asks for a folder of games (the games database's own folders); `None` where no
    /// dialog can be shown (the path can be typed instead).
    fn pick_folder(&mut self) -> Option<PathBuf> {
        None
    }
    /// The folder the next dialogs start in (the one last used), if any.
    fn start_in(&mut self, folder: Option<&Path>);
}

/// Which dialog could not be shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DialogKind {
    OpenGame,
    SaveGame,
    OpenScript,
    SaveScriptResult,
}

impl DialogKind {
    pub(crate) fn title(self) -> &'static str {
        match self {
            DialogKind::OpenGame => "Open a game",
            DialogKind::SaveGame => "Save the game",
            DialogKind::OpenScript => "Open an endgame script",
            DialogKind::SaveScriptResult => "Save the script's results",
        }
    }
}

/// A dialog that could not be shown, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct DialogFailure {
    pub kind: DialogKind,
    pub reason: String,
    /// The file name the dialog suggested (save dialogs).
    pub suggested_name: Option<String>,
}

/// The file name a save offers for `game`: its players and date ("Ann vs Okapi (level 8)
/// 2026-11-28.json"), or "game" and the date when it names no players; characters no
/// file system takes are left out.
pub fn game_file_name(game: &okapi_core::game::Game) -> String {
    let (black, white) = (game.black.trim(), game.white.trim());
    let stem = match (black.is_empty(), white.is_empty()) {
        (true, true) => format!("game {}", game.date.trim()),
        _ => format!(
            "{} vs {} {}",
            if black.is_empty() { "Black" } else { black },
            if white.is_empty() { "White" } else { white },
            game.date.trim()
        ),
    };
    let clean: String = stem
        .chars()
        .filter(|c| {
            !c.is_control() && !matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')
        })
        .collect();
    // Windows takes no name ending in a dot or a space.
    let clean = clean.trim().trim_end_matches('.').trim();
    match clean.is_empty() {
        true => "game.json".into(),
        false => format!("{clean}.json"),
    }
}

/// A dialog's file filters: a name, and the extensions it shows (`*`: every file).
pub type Filters = &'static [(&'static str, &'static [&'static str])];

/// The game files' filters. The first, shown at first, holds every format Okapi reads and
/// writes, so that Open shows them all and Save keeps the extension typed (Windows' save
/// dialog appends the selected filter's first extension to a name whose extension the
/// filter does not list: `game.ggf` would become `game.ggf.json`); a name typed without
/// one gets `.json`, the format that keeps every line.
pub const GAME_FILTERS: Filters = &[
    (
        "Othello games (.json, .ggf, .txt)",
        &["json", "ggf", "txt", "trn"],
    ),
    ("Okapi game (JSON)", &["json"]),
    ("GGF game", &["ggf"]),
    ("Transcript", &["txt", "trn"]),
    ("All files", &["*"]),
];

/// Endgame scripts: scrZebra's `.scr` and OBF.
pub const SCRIPT_FILTERS: Filters = &[
    ("Endgame script (.scr, .obf)", &["scr", "obf"]),
    ("All files", &["*"]),
];

/// A script's results, text as scrZebra writes them.
pub const RESULT_FILTERS: Filters = &[("Script results (.txt)", &["txt"]), ("All files", &["*"])];

/// The path a save dialog answered, with the extension the person typed kept: a dialog
/// that appended one of the filters' extensions to a name that already ended in another
/// of them (`game.ggf` + `.json`) gets it taken off again.
pub fn keep_typed_extension(path: PathBuf, filters: Filters) -> PathBuf {
    let listed = |ext: &std::ffi::OsStr| {
        let ext = ext.to_string_lossy().to_ascii_lowercase();
        filters
            .iter()
            .any(|(_, exts)| exts.iter().any(|e| *e != "*" && *e == ext))
    };
    let (Some(last), Some(stem)) = (path.extension(), path.file_stem()) else {
        return path;
    };
    let inner = std::path::Path::new(stem).extension();
    match inner {
        Some(inner) if listed(last) && listed(inner) && !inner.eq_ignore_ascii_case(last) => {
            path.with_extension("")
        }
        _ => path,
    }
}

/// Dialogs that answer with paths given in advance (tests, scripted use): every "open"
/// dialog takes the next path of `open`, every "save" dialog the next of `save`. With
/// `unavailable`, every dialog fails as one does when no portal answers.
#[derive(Default)]
pub struct ScriptedDialogs {
    pub open: Vec<PathBuf>,
    pub save: Vec<PathBuf>,
    pub unavailable: bool,
    /// The failure of the last dialog, until the app takes it.
    pub failure: Option<DialogFailure>,
    /// The folder each dialog shown was told to start in, in order (shared, so a test
    /// keeps a handle on it once the app owns the dialogs).
    pub started_in: Arc<Mutex<Vec<Option<PathBuf>>>>,
    /// The folder the next dialog starts in ([`FileDialogs::start_in`]).
    pub start: Option<PathBuf>,
}

impl ScriptedDialogs {
    fn answer(&mut self, kind: DialogKind, suggested_name: Option<&str>) -> Option<PathBuf> {
        if self.unavailable {
            self.failure = Some(DialogFailure {
                kind,
                reason: "no file dialog portal answered".into(),
                suggested_name: suggested_name.map(str::to_string),
            });
            return None;
        }
        if let Ok(mut v) = self.started_in.lock() {
            v.push(self.start.clone());
        }
        let paths = match kind {
            DialogKind::OpenGame | DialogKind::OpenScript => &mut self.open,
            DialogKind::SaveGame | DialogKind::SaveScriptResult => &mut self.save,
        };
        (!paths.is_empty()).then(|| paths.remove(0))
    }
}

impl FileDialogs for ScriptedDialogs {
    fn start_in(&mut self, folder: Option<&Path>) {
        self.start = folder.map(Path::to_path_buf);
    }

    fn open_game(&mut self) -> Option<PathBuf> {
        self.answer(DialogKind::OpenGame, None)
    }

    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf> {
        self.answer(DialogKind::SaveGame, Some(suggested_name))
    }

    fn open_script(&mut self) -> Option<PathBuf> {
        self.answer(DialogKind::OpenScript, None)
    }

    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf> {
        self.answer(DialogKind::SaveScriptResult, Some(suggested_name))
    }

    fn take_failure(&mut self) -> Option<DialogFailure> {
        self.failure.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use okapi_core::formats::Format;
    use std::path::Path;

    #[test]
    fn the_first_game_filter_holds_every_game_format() {
        let (_, first) = GAME_FILTERS[0];
        for name in ["a.json", "a.ggf", "a.txt", "a.trn", "A.GGF"] {
            let ext = Path::new(name)
                .extension()
                .unwrap()
                .to_string_lossy()
                .to_lowercase();
            assert!(first.contains(&ext.as_str()), "{name}");
        }
        // Each format the saver tells by the name has its extension there.
        for (name, format) in [
            ("a.json", Format::OkapiJson),
            ("a.ggf", Format::Ggf),
            ("a.txt", Format::Transcript),
        ] {
            assert_eq!(Format::of_path(Path::new(name)), format);
        }
        // A name typed without an extension gets .json: the format keeping every line.
        assert_eq!(first[0], "json");
        assert!(Format::OkapiJson.keeps_variations());
        // Windows runs .scr files as programs (screensavers): scripts are never offered
        // among games.
        assert!(GAME_FILTERS.iter().all(|(_, exts)| !exts.contains(&"scr")));
    }

    #[test]
    fn the_typed_extension_is_kept() {
        let kept = |p: &str| keep_typed_extension(PathBuf::from(p), GAME_FILTERS);
        assert_eq!(
            kept("C:/games/test2.ggf.json"),
            PathBuf::from("C:/games/test2.ggf")
        );
        assert_eq!(kept("test2.txt.json"), PathBuf::from("test2.txt"));
        assert_eq!(kept("test2.json.ggf"), PathBuf::from("test2.json"));
        // Names the dialog left alone stay as they are.
        for same in [
            "test2.ggf",
            "test2.json",
            "my.game.json",
            "v1.2.ggf",
            "a.json.json",
            "noext",
        ] {
            assert_eq!(kept(same), PathBuf::from(same), "{same}");
        }
        let results = keep_typed_extension(PathBuf::from("r.scr.txt"), RESULT_FILTERS);
        assert_eq!(
            results,
            PathBuf::from("r.scr.txt"),
            "scr is not a results type"
        );
    }

    #[test]
    fn a_save_offers_the_players_and_the_date_as_the_name() {
        let mut game = okapi_core::game::Game::default();
        game.date = "2026-11-28".into();
        assert_eq!(game_file_name(&game), "game 2026-11-28.json");
        game.black = "Ann".into();
        game.white = "Okapi (level 8)".into();
        assert_eq!(
            game_file_name(&game),
            "Ann vs Okapi (level 8) 2026-11-28.json"
        );
        // What no file system takes is left out: separators, Windows' reserved marks,
        // control characters, a trailing dot.
        game.black = "A/B\\C:D*?\"<>|\u{7}".into();
        game.white = "W.".into();
        game.date = "2006.".into();
        assert_eq!(game_file_name(&game), "ABCD vs W. 2006.json");
        game.black = String::new();
        game.white = "  ".into();
        game.date = "?".into();
        assert_eq!(game_file_name(&game), "game.json");
    }
}
