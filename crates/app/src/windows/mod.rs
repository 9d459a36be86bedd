//! The app's windows, one file each, all [`Window`]s: those the menus open, held in a
//! list with the titles open (as egui's demo does), and the questions a command asks (held
//! while waiting for an answer), and the practice window (the menus and the analysis
//! panel open it through a command, which reads its practice file too).

mod about;
mod confirm_solve;
mod first_steps;
mod new_game;
mod one_line_saved;
mod path_prompt;
pub(crate) use path_prompt::PathPrompt;
mod practice;
pub(crate) use practice::PracticeWindow;
mod settings;
mod shortcuts;
mod unsaved_changes;

use crate::part::{Commands, FrameView, Window};
pub(crate) use confirm_solve::ConfirmSolve;
use eframe::egui;
pub(crate) use one_line_saved::OneLineSaved;
use std::collections::BTreeSet;
pub(crate) use unsaved_changes::UnsavedChanges;

/// The titles of the windows the menus open ([`Windows::open`]).
pub(crate) const NEW_GAME: &str = "New game";
pub(crate) const ABOUT: &str = "About Okapi";
pub(crate) const SHORTCUTS: &str = "Keyboard shortcuts";
pub(crate) const SETTINGS: &str = "Settings";
pub(crate) const FIRST_STEPS: &str = "First steps";
pub(crate) const PRACTICE: &str = "Practise your mistakes";

/// The windows and the questions waiting for an answer.
pub(crate) struct Windows {
    /// The windows the menus open, in the order they are drawn.
    list: Vec<Box<dyn Window>>,
    /// The titles of those open.
    open: BTreeSet<&'static str>,
    /// The in-app path field, when the system's file dialog did not work.
    pub(crate) path_prompt: Option<PathPrompt>,
    pub(crate) confirm_solve: Option<ConfirmSolve>,
    /// A one-line save (GGF, a transcript) left other lines out: what to do with them.
    pub(crate) one_line_saved: Option<OneLineSaved>,
    pub(crate) unsaved: Option<UnsavedChanges>,
    /// Game › Practise your mistakes, drawn over the other windows (open while its title
    /// is in `open`).
    pub(crate) practice: PracticeWindow,
}

impl Default for Windows {
    fn default() -> Windows {
        Windows {
            list: vec![
                Box::<new_game::NewGame>::default(),
                Box::new(about::About),
                Box::new(shortcuts::Shortcuts),
                Box::new(settings::SettingsWindow),
                Box::new(first_steps::FirstSteps),
            ],
            open: BTreeSet::new(),
            path_prompt: None,
            confirm_solve: None,
            one_line_saved: None,
            unsaved: None,
            practice: PracticeWindow::default(),
        }
    }
}

impl Windows {
    /// Opens the path field standing in for a `kind` dialog that could not be shown,
    /// holding `text` to start with.
    pub(crate) fn open_path_prompt(&mut self, kind: crate::dialogs::DialogKind, text: String) {
        self.path_prompt = Some(PathPrompt {
            kind,
            text,
            focused: false,
            then: None,
        });
    }

    /// Opens the window of this title, its fields filled from the game as it is now.
    pub(crate) fn open(&mut self, title: &str, view: &FrameView) {
        if let Some(w) = self.list.iter_mut().find(|w| w.title() == title) {
            w.opened(view);
            self.open.insert(w.title());
        } else if title == PRACTICE {
            self.practice.opened(view);
            self.open.insert(PRACTICE);
        }
    }

    pub(crate) fn close(&mut self, title: &str) {
        self.open.remove(title);
    }

    /// Is a question waiting for an answer (Escape answers it rather than stopping the
    /// engine)?
    pub(crate) fn asking(&self) -> bool {
        self.unsaved.is_some() || self.confirm_solve.is_some() || self.one_line_saved.is_some()
    }

    /// The windows the menus opened, drawn over the panels.
    pub(crate) fn show(&mut self, ctx: &egui::Context, view: &FrameView, commands: &mut Commands) {
        for w in &mut self.list {
            let mut open = self.open.contains(w.title());
            if open {
                w.show(ctx, &mut open, view, commands);
                if !open {
                    self.open.remove(w.title());
                }
            }
        }
        let mut open = self.open.contains(PRACTICE);
        if open {
            self.practice.show(ctx, &mut open, view, commands);
            if !open {
                self.open.remove(PRACTICE);
            }
        }
    }

    /// The long solve's question alone (asked while the commands were applied).
    pub(crate) fn show_confirm_solve(
        &mut self,
        ctx: &egui::Context,
        view: &FrameView,
        commands: &mut Commands,
    ) {
        show_while_open(&mut self.confirm_solve, ctx, view, commands);
    }

    /// The questions waiting for an answer, over every window.
    pub(crate) fn show_questions(
        &mut self,
        ctx: &egui::Context,
        view: &FrameView,
        commands: &mut Commands,
    ) {
        show_while_open(&mut self.path_prompt, ctx, view, commands);
        show_while_open(&mut self.confirm_solve, ctx, view, commands);
        show_while_open(&mut self.one_line_saved, ctx, view, commands);
        show_while_open(&mut self.unsaved, ctx, view, commands);
    }
}

/// Draws a question while it is held, and lets it go once answered or closed.
fn show_while_open<W: Window>(
    question: &mut Option<W>,
    ctx: &egui::Context,
    view: &FrameView,
    commands: &mut Commands,
) {
    if let Some(w) = question {
        let mut open = true;
        w.show(ctx, &mut open, view, commands);
        if !open {
            *question = None;
        }
    }
}
