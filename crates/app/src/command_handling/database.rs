//! The games database: read in the background the first time its tab shows (or again
//! when the folders change), and the player's folders of games chosen, typed, added.

use crate::app::App;
use crate::command::Command;
use crate::command::SideTab;
use crate::database_panel::Load;
use eframe::egui;

impl App {
    /// Takes the database read in the background, and starts reading it when its tab
    /// shows and it is not read yet, or was read from other folders than the settings'.
    pub(crate) fn poll_database(&mut self, ctx: &egui::Context) {
        self.database.poll();
        if self.view.side_tab != SideTab::Database {
            return;
        }
        let stale = self.database.database().is_some()
            && self.database.loaded_folders != self.settings.db_folders;
        if matches!(self.database.load, Load::NotStarted) || stale {
            let folders = self.settings.db_folders.clone();
            self.database.start_loading(folders, ctx);
        }
    }

    /// The database's commands: read it again, a folder of games chosen or added.
    pub(crate) fn apply_database(&mut self, command: Command) {
        match command {
            // Read again when the tab next shows (it shows now: the button is on it).
            Command::RetryDatabase => self.database.load = Load::NotStarted,
            Command::ChooseDbFolder => {
                if let Some(path) = self.dialogs.pick_folder() {
                    self.apply(Command::AddDbFolder(path));
                }
            }
            Command::AddDbFolder(path) if path.is_dir() => {
                if path.to_str().is_none() {
                    // The settings file is JSON: the folder is read this run only.
                    self.error = Some(format!(
                        "{} is read now, but its name is not UTF-8 text, which the \
                         settings file cannot keep: rename it to keep it for the next \
                         start",
                        path.display()
                    ));
                }
                self.change_setting(crate::settings::Setting::AddDbFolder(path));
            }
            Command::AddDbFolder(path) => {
                self.error = Some(format!("{} is not a folder", path.display()));
            }
            other => unreachable!("not a database command: {other:?}"),
        }
    }
}
