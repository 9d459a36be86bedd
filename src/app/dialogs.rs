//! File dialogs behind a trait, so tests swap the real ones for a fake.

use std::path::PathBuf;

pub trait FileDialogs {
    /// Asks for a game file to open.
    fn open_game(&mut self) -> Option<PathBuf>;
    /// Asks where to save a game, suggesting a file name.
    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf>;
    /// Asks for an endgame script (scrZebra `.scr` or OBF) to open.
    fn open_script(&mut self) -> Option<PathBuf>;
    /// Asks where to save a script's results, suggesting a file name.
    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf>;
}

/// The platform's dialogs through rfd (its xdg-portal backend on Linux).
pub struct NativeDialogs;

fn with_game_filters(d: rfd::FileDialog) -> rfd::FileDialog {
    d.add_filter("Okapi game (JSON)", &["json"])
        .add_filter("GGF game", &["ggf"])
        .add_filter("Transcript", &["txt"])
        .add_filter("All files", &["*"])
}

impl FileDialogs for NativeDialogs {
    fn open_game(&mut self) -> Option<PathBuf> {
        with_game_filters(rfd::FileDialog::new().set_title("Open a game")).pick_file()
    }

    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf> {
        with_game_filters(
            rfd::FileDialog::new()
                .set_title("Save the game")
                .set_file_name(suggested_name),
        )
        .save_file()
    }

    fn open_script(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Open an endgame script")
            .add_filter("Endgame script", &["scr", "obf"])
            .add_filter("All files", &["*"])
            .pick_file()
    }

    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Save the script's results")
            .set_file_name(suggested_name)
            .save_file()
    }
}

/// Dialogs that answer with paths given in advance (tests, scripted use): every "open"
/// dialog takes the next path of `open`, every "save" dialog the next of `save`.
#[derive(Default)]
pub struct ScriptedDialogs {
    pub open: Vec<PathBuf>,
    pub save: Vec<PathBuf>,
}

impl FileDialogs for ScriptedDialogs {
    fn open_game(&mut self) -> Option<PathBuf> {
        (!self.open.is_empty()).then(|| self.open.remove(0))
    }

    fn save_game(&mut self, _suggested_name: &str) -> Option<PathBuf> {
        (!self.save.is_empty()).then(|| self.save.remove(0))
    }

    fn open_script(&mut self) -> Option<PathBuf> {
        self.open_game()
    }

    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf> {
        self.save_game(suggested_name)
    }
}
