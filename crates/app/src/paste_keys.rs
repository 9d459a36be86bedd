//! A paste by the keyboard that finds no text says so. The window's layer (egui-winit, on
//! X11, Wayland and Windows alike) takes the press of Ctrl+V (Shift+Insert on Windows, a
//! keyboard's Paste key) as a paste and reads the clipboard itself: with text there it
//! sends a paste event; with an image, an image paste event; with nothing, nothing at
//! all, not even the key. Only the key's release comes through then: a release of a paste
//! key whose press never came as a key, with no paste since, is a paste that found no
//! text. (In the browser the press comes as a key and the page's paste event follows it,
//! so nothing is said there but of an image.)

use eframe::egui::{Event, Key, Modifiers};

/// What the status line says when a paste finds no text on the clipboard.
pub(crate) const NO_TEXT: &str = "Nothing pasted: the clipboard holds no text.";

/// What it says when the clipboard holds an image (a screenshot), which no game is.
pub(crate) const AN_IMAGE: &str = "Nothing pasted: the clipboard holds an image, not text.";

/// Watches the keyboard's pastes across frames (a press and its release may come in
/// different frames).
#[derive(Debug, Default)]
pub(crate) struct PasteKeys {
    /// Paste keys whose press came as a key (typed, not taken as a paste).
    pressed: Vec<Key>,
    /// A paste (text or image) came since the last paste key went up.
    pasted: bool,
}

/// Would the window's layer take this key, with these modifiers, as a paste? As
/// egui-winit's own test, so the two agree.
fn is_paste(key: Key, modifiers: Modifiers) -> bool {
    key == Key::Paste
        || (modifiers.command_only() && key == Key::V)
        || (cfg!(target_os = "windows") && modifiers.shift && key == Key::Insert)
}

impl PasteKeys {
    /// Reads a frame's events, in order; what to tell the player when a paste found no
    /// text on the clipboard.
    pub(crate) fn watch(&mut self, events: &[Event]) -> Option<&'static str> {
        let mut say = None;
        for event in events {
            match event {
                Event::Paste(_) => self.pasted = true,
                Event::PasteImage(_) => {
                    self.pasted = true;
                    say = Some(AN_IMAGE);
                }
                &Event::Key {
                    key, pressed: true, ..
                } => {
                    if matches!(key, Key::V | Key::Insert | Key::Paste)
                        && !self.pressed.contains(&key)
                    {
                        self.pressed.push(key);
                    }
                }
                &Event::Key {
                    key,
                    pressed: false,
                    modifiers,
                    ..
                } => {
                    let typed = self.pressed.contains(&key);
                    self.pressed.retain(|&k| k != key);
                    // A paste since counts once: the next key's is its own.
                    if !typed && is_paste(key, modifiers) && !std::mem::take(&mut self.pasted) {
                        say = Some(NO_TEXT);
                    }
                }
                Event::WindowFocused(false) => *self = PasteKeys::default(),
                _ => {}
            }
        }
        say
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eframe::egui;

    fn key(key: Key, pressed: bool, modifiers: Modifiers) -> Event {
        Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers,
        }
    }

    fn image() -> Event {
        Event::PasteImage(std::sync::Arc::new(egui::ColorImage::filled(
            [1, 1],
            egui::Color32::WHITE,
        )))
    }

    const CTRL: Modifiers = Modifiers::COMMAND;

    #[test]
    fn a_paste_key_taken_with_no_paste_after_it_says_so() {
        let mut watch = PasteKeys::default();
        // What egui-winit sends for Ctrl+V on an empty clipboard: the release alone.
        assert_eq!(watch.watch(&[key(Key::V, false, CTRL)]), Some(NO_TEXT));
        // With text: the paste, then the release (here in another frame).
        assert_eq!(watch.watch(&[Event::Paste("f5".into())]), None);
        assert_eq!(watch.watch(&[key(Key::V, false, CTRL)]), None);
        // The paste was the last one's: the next empty one says so again.
        assert_eq!(watch.watch(&[key(Key::V, false, CTRL)]), Some(NO_TEXT));
        assert_eq!(
            watch.watch(&[key(Key::Paste, false, Modifiers::NONE)]),
            Some(NO_TEXT)
        );
    }

    #[test]
    fn a_typed_v_or_another_key_says_nothing() {
        let mut watch = PasteKeys::default();
        let v = [
            key(Key::V, true, Modifiers::NONE),
            key(Key::V, false, Modifiers::NONE),
        ];
        assert_eq!(watch.watch(&v), None);
        // Pressed and released with Ctrl, where the layer lets it through (the browser).
        let ctrl_v = [key(Key::V, true, CTRL), key(Key::V, false, CTRL)];
        assert_eq!(watch.watch(&ctrl_v[..1]), None);
        assert_eq!(watch.watch(&ctrl_v[1..]), None);
        assert_eq!(watch.watch(&[key(Key::C, false, CTRL)]), None);
        // Ctrl+Shift+V is no paste to the layer.
        assert_eq!(
            watch.watch(&[key(Key::V, false, CTRL | Modifiers::SHIFT)]),
            None
        );
    }

    #[test]
    fn an_image_on_the_clipboard_is_named() {
        let mut watch = PasteKeys::default();
        assert_eq!(
            watch.watch(&[image(), key(Key::V, false, CTRL)]),
            Some(AN_IMAGE)
        );
        assert_eq!(watch.watch(&[image()]), Some(AN_IMAGE));
    }

    #[test]
    fn a_paste_left_behind_by_a_lost_focus_is_forgotten() {
        let mut watch = PasteKeys::default();
        watch.watch(&[Event::Paste("f5".into()), Event::WindowFocused(false)]);
        assert_eq!(watch.watch(&[key(Key::V, false, CTRL)]), Some(NO_TEXT));
    }
}
