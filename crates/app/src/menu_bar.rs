//! The menu bar: File, Edit, Game, Engine, View, Help; reachable from the keyboard as on
//! Windows: Alt and a menu's letter opens it, F10 opens the first, Left and Right go to the
//! neighbouring menus, Up and Down (and Tab) move between items, Enter picks one, Escape
//! closes.

use crate::command::Command;
use crate::engine_hub::Task;
use crate::part::{Commands, FrameView, Part};
use crate::settings_widgets::SettingsUi;
use crate::view::MenuKey;
use eframe::egui;
use okapi_core::search::SolveMode;

/// The menu bar: owns which menu is open and what the keyboard asked of it.
#[derive(Default)]
pub(crate) struct MenuBar {
    /// The menu of the bar open last frame (an index of [`MENUS`]).
    open_menu: Option<usize>,
    /// A menu key taken this frame, for the menu bar to act on.
    menu_key: Option<MenuKey>,
    /// A menu opened from the keyboard: its first item takes the focus.
    focus_first_item: bool,
}

impl Part for MenuBar {
    fn show(&mut self, ui: &mut egui::Ui, view: &FrameView, commands: &mut Commands) {
        MenuDraw {
            state: self,
            view,
            commands,
        }
        .menu_bar(ui);
    }
}

impl MenuBar {
    /// Takes the menu bar's keys from this frame's input (before the game's shortcuts:
    /// Left and Right belong to an open menu, not to the move list).
    pub(crate) fn take_keys(&mut self, ctx: &egui::Context) {
        if ctx.text_edit_focused() && self.open_menu.is_none() {
            return;
        }
        let key = ctx.input_mut(|i| {
            let mut pressed = |m: egui::Modifiers, k: egui::Key| i.consume_key(m, k);
            menu_key(self.open_menu, &mut pressed)
        });
        if key.is_some() {
            self.menu_key = key;
        }
    }
}

/// One frame's drawing of the menu bar: its state, what it reads, where clicks go.
struct MenuDraw<'a> {
    state: &'a mut MenuBar,
    view: &'a FrameView<'a>,
    commands: &'a mut Commands,
}

impl MenuDraw<'_> {
    fn game(&self) -> &okapi_core::game::Game {
        self.view.game()
    }

    fn settings_ui(&mut self) -> SettingsUi<'_> {
        SettingsUi::new(self.view.settings, self.commands)
    }

    fn menu_item(&mut self, ui: &mut egui::Ui, label: &str, enabled: bool, command: Command) {
        let mut button = egui::Button::new(label);
        if let Some(k) = command.shortcut() {
            button = button.shortcut_text(ui.ctx().format_shortcut(&k));
        }
        let response = ui.add_enabled(enabled, button);
        if enabled && std::mem::take(&mut self.state.focus_first_item) {
            response.request_focus();
        }
        if response.clicked() {
            self.commands.push(command);
            ui.close();
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let open_before = self.state.open_menu;
        let mut open_now = None;
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                for (i, (name, _)) in MENUS.iter().enumerate() {
                    let menu = ui.menu_button(*name, |ui| match i {
                        0 => self.file_menu(ui),
                        1 => self.edit_menu(ui),
                        2 => self.game_menu(ui),
                        3 => self.engine_menu(ui),
                        4 => self.view_menu(ui),
                        _ => self.help_menu(ui),
                    });
                    let popup = egui::Popup::default_response_id(&menu.response);
                    if let Some(MenuKey::Open(k)) = self.state.menu_key
                        && k == i
                    {
                        egui::Popup::open_id(&ctx, popup);
                        // The first item takes the focus next frame: Up, Down and Enter
                        // work from there.
                        self.state.focus_first_item = true;
                    }
                    if egui::Popup::is_id_open(&ctx, popup) {
                        open_now = Some(i);
                    }
                }
            });
        });
        if self.state.menu_key.take() == Some(MenuKey::Close) {
            egui::Popup::close_all(&ctx);
            open_now = None;
        }
        if open_now.is_none() {
            self.state.focus_first_item = false;
        }
        if open_now != open_before {
            ctx.request_repaint();
        }
        self.state.open_menu = open_now;
    }

    /// The File menu: games in and out, scripts, quitting.
    fn file_menu(&mut self, ui: &mut egui::Ui) {
        self.menu_item(ui, "New game...", true, Command::ShowNewGame);
        self.menu_item(ui, "Open...", true, Command::Open);
        let recent = self.view.settings.recent.clone();
        ui.add_enabled_ui(!recent.is_empty(), |ui| {
            ui.menu_button("Open recent", |ui| {
                for path in recent {
                    if ui.button(path.display().to_string()).clicked() {
                        self.commands.push(Command::OpenPath(path));
                        ui.close();
                    }
                }
            });
        });
        self.menu_item(ui, "Save", true, Command::Save);
        self.menu_item(ui, "Save as...", true, Command::SaveAs);
        ui.separator();
        self.menu_item(ui, "Open script...", true, Command::OpenScript);
        // Always listed (greyed while no script is hidden): the help names it.
        if ui
            .add_enabled(
                self.view.script_hidden,
                egui::Button::new("Show the script"),
            )
            .clicked()
        {
            self.commands.push(Command::ShowScript);
            ui.close();
        }
        ui.separator();
        if crate::platform::CAN_QUIT {
            self.menu_item(ui, "Quit", true, Command::Quit);
        }
    }

    /// The Edit menu: the clipboard both ways, and the settings.
    fn edit_menu(&mut self, ui: &mut egui::Ui) {
        // To the system clipboard: other programs paste what is copied here.
        self.menu_item(ui, "Copy transcript", true, Command::CopyTranscript);
        self.menu_item(ui, "Copy board", true, Command::CopyBoard);
        self.menu_item(ui, "Copy game as GGF", true, Command::CopyGgf);
        self.menu_item(ui, "Copy game as Okapi JSON", true, Command::CopyJson);
        ui.separator();
        self.menu_item(ui, "Paste", true, Command::PasteClipboard);
        ui.label(
            egui::RichText::new("A transcript, board string, GGF or Okapi JSON game")
                .small()
                .weak(),
        );
        ui.separator();
        self.menu_item(ui, "Settings...", true, Command::ShowSettings);
    }

    /// The Game menu: moving through the game, variations, set-up.
    fn game_menu(&mut self, ui: &mut egui::Ui) {
        self.menu_item(ui, "Undo", self.game().can_undo(), Command::Undo);
        self.menu_item(ui, "Redo", self.game().can_redo(), Command::Redo);
        self.menu_item(ui, "First position", self.game().can_undo(), Command::First);
        self.menu_item(ui, "Last position", self.game().can_redo(), Command::Last);
        ui.separator();
        // A move new at its place becomes the game's line (the old one kept as
        // a variation); this adds the next one as a side line instead.
        let label = if self.view.next_as_variation {
            "✔ Add next move as variation"
        } else {
            "Add next move as variation"
        };
        self.menu_item(ui, label, true, Command::NextMoveAsVariation);
        ui.separator();
        self.menu_item(
            ui,
            "Set up a position...",
            !self.view.setting_up,
            Command::EnterSetup,
        );
        ui.separator();
        self.menu_item(ui, "Practise your mistakes...", true, Command::ShowPractice);
    }

    /// The Engine menu: solving, stopping, analysing, and the engine's settings.
    fn engine_menu(&mut self, ui: &mut egui::Ui) {
        let open = !self.game().position().is_game_over();
        for (label, mode) in [
            ("Solve exact", SolveMode::Exact),
            ("Solve win/draw/loss", SolveMode::Wld),
        ] {
            let k = Command::Solve(mode).shortcut();
            let mut button = egui::Button::new(label);
            if let Some(k) = k {
                button = button.shortcut_text(ui.ctx().format_shortcut(&k));
            }
            if ui.add_enabled(open, button).clicked() {
                self.commands.push(Command::SolveAfterWarning(mode));
                ui.close();
            }
        }
        self.menu_item(
            ui,
            "Stop",
            self.view.engines.board.task != Task::Idle,
            Command::Stop,
        );
        self.menu_item(
            ui,
            "Analyse the game",
            !self.game().is_empty(),
            Command::AnalyseGame,
        );
        ui.separator();
        self.engine_menu_settings(ui);
    }

    /// The Engine menu's settings: the book, the pause between engine moves, the hash
    /// table, the threads, the depth the live analysis stops at.
    fn engine_menu_settings(&mut self, ui: &mut egui::Ui) {
        crate::theme::control_edges(ui);
        let mut s = self.settings_ui();
        s.book(ui);
        s.engine_move_pause(ui);
        s.hash_bits(ui);
        s.threads(ui);
        s.analysis_depth(ui);
    }

    /// The View menu: how the board is drawn, and the theme.
    fn view_menu(&mut self, ui: &mut egui::Ui) {
        self.menu_item(ui, "Flip board", true, Command::FlipView);
        ui.scope(|ui| {
            crate::theme::control_edges(ui);
            let mut s = self.settings_ui();
            s.animate(ui);
            s.coordinates(ui);
            s.theme(ui);
        });
        self.menu_item(ui, "Settings...", true, Command::ShowSettings);
    }

    /// The Help menu: first steps, shortcuts, About, and the debug items.
    fn help_menu(&mut self, ui: &mut egui::Ui) {
        self.menu_item(ui, "First steps", true, Command::ShowFirstSteps);
        self.menu_item(ui, "Keyboard shortcuts", true, Command::ShowShortcuts);
        self.menu_item(ui, "About Okapi", true, Command::ShowAbout);
        ui.separator();
        ui.scope(|ui| {
            crate::theme::control_edges(ui);
            self.settings_ui().debug(ui);
        });
        if self.view.settings.debug {
            self.menu_item(
                ui,
                "Test the engine's error report",
                true,
                Command::CrashEngine,
            );
        }
    }
}

/// The menus in the bar, each with the letter that opens it with Alt (the underlined
/// letter of a Windows menu: Engine's is N, E being Edit's).
pub(crate) const MENUS: [(&str, egui::Key); 6] = [
    ("File", egui::Key::F),
    ("Edit", egui::Key::E),
    ("Game", egui::Key::G),
    ("Engine", egui::Key::N),
    ("View", egui::Key::V),
    ("Help", egui::Key::H),
];

/// The menu bar's answer to this frame's keys, given the open menu: `pressed` says
/// whether a key with exactly these modifiers was pressed (and takes it).
pub(crate) fn menu_key(
    open: Option<usize>,
    pressed: &mut impl FnMut(egui::Modifiers, egui::Key) -> bool,
) -> Option<MenuKey> {
    use egui::{Key, Modifiers as M};
    for (i, (_, letter)) in MENUS.iter().enumerate() {
        if pressed(M::ALT, *letter) {
            return Some(MenuKey::Open(i));
        }
    }
    if pressed(M::NONE, Key::F10) {
        return Some(match open {
            Some(_) => MenuKey::Close,
            None => MenuKey::Open(0),
        });
    }
    let open = open?;
    let n = MENUS.len();
    if pressed(M::NONE, Key::ArrowRight) {
        Some(MenuKey::Open((open + 1) % n))
    } else if pressed(M::NONE, Key::ArrowLeft) {
        Some(MenuKey::Open((open + n - 1) % n))
    } else if pressed(M::NONE, Key::Escape) {
        Some(MenuKey::Close)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{Key, Modifiers as M};

    /// The answer to one key press.
    fn answer(open: Option<usize>, mods: M, key: Key) -> Option<MenuKey> {
        let mut taken = false;
        let mut pressed = |m: M, k: Key| {
            let hit = !taken && m == mods && k == key;
            taken |= hit;
            hit
        };
        menu_key(open, &mut pressed)
    }

    #[test]
    fn alt_and_a_letter_open_that_menu() {
        assert_eq!(answer(None, M::ALT, Key::F), Some(MenuKey::Open(0)));
        assert_eq!(answer(None, M::ALT, Key::N), Some(MenuKey::Open(3)));
        assert_eq!(answer(Some(0), M::ALT, Key::H), Some(MenuKey::Open(5)));
        // Each letter is one menu's.
        let mut letters: Vec<_> = MENUS.iter().map(|(_, k)| *k).collect();
        letters.dedup();
        assert_eq!(letters.len(), MENUS.len());
        for (name, key) in MENUS {
            assert!(
                name.to_lowercase().contains(&key.name().to_lowercase()),
                "{name}: {key:?}"
            );
        }
        // Without Alt a letter is nobody's here.
        assert_eq!(answer(None, M::NONE, Key::F), None);
    }

    #[test]
    fn f10_opens_the_first_menu_and_closes_an_open_one() {
        assert_eq!(answer(None, M::NONE, Key::F10), Some(MenuKey::Open(0)));
        assert_eq!(answer(Some(2), M::NONE, Key::F10), Some(MenuKey::Close));
    }

    #[test]
    fn arrows_and_escape_are_the_open_menus_only() {
        assert_eq!(
            answer(Some(0), M::NONE, Key::ArrowRight),
            Some(MenuKey::Open(1))
        );
        assert_eq!(
            answer(Some(0), M::NONE, Key::ArrowLeft),
            Some(MenuKey::Open(5))
        );
        assert_eq!(
            answer(Some(5), M::NONE, Key::ArrowRight),
            Some(MenuKey::Open(0))
        );
        assert_eq!(answer(Some(1), M::NONE, Key::Escape), Some(MenuKey::Close));
        // With no menu open they stay the game's (stepping through the moves, Stop).
        assert_eq!(answer(None, M::NONE, Key::ArrowRight), None);
        assert_eq!(answer(None, M::NONE, Key::Escape), None);
    }
}
