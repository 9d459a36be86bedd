//! A paste by the keyboard that finds no text says so. The window's layer (egui-winit, on
//! X11, Wayland and Windows alike) takes the press of Ctrl+V (Shift+Insert on Windows, a
//! keyboard's Paste key) as a paste and reads the clipboard itself: with text there it
//! sends a paste event; with an image, an image paste event; with nothing, nothing at
//! all, not even the key. Only the key's release comes through then: a release of a paste
//! key whose press never came as a key, after Ctrl (⌘, or Shift) went down, with no paste
//! since, is a paste that found no text. The release's own modifiers cannot tell: under
//! X11 Ctrl's release often comes first, and V's then carries none. (In the browser the
//! press comes as a key and the page's paste event follows it, so nothing is said there
//! but of an image.)

use eframe::egui::{Event, Key};

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
    /// Ctrl, ⌘ or Shift went down (or held a key's modifiers) since the last paste key
    /// went up: a V then was a paste, not a key pressed before the window had the focus.
    chord: bool,
}

/// The keys that make V (Insert) a paste.
const CHORD_KEYS: [Key; 6] = [
    Key::ControlLeft,
    Key::ControlRight,
    Key::SuperLeft,
    Key::SuperRight,
    Key::ShiftLeft,
    Key::ShiftRight,
];

/// The keys the window's layer may take as a paste.
const PASTE_KEYS: [Key; 3] = [Key::V, Key::Insert, Key::Paste];

impl PasteKeys {
    /// Reads a frame's events, in order; what to tell the player when a paste found no
    /// text on the clipboard.
    pub(crate) fn watch(&mut self, events: &[Event]) -> Option<&'static str> {
        let mut say = None;
        for event in events {
            match *event {
                Event::Paste(_) => self.pasted = true,
                Event::PasteImage(_) => {
                    self.pasted = true;
                    say = Some(AN_IMAGE);
                }
                Event::Key {
                    key,
                    pressed,
                    modifiers,
                    ..
                } => {
                    if modifiers.command
                        || modifiers.shift
                        || (pressed && CHORD_KEYS.contains(&key))
                    {
                        self.chord = true;
                    }
                    if self.key_went_up_unpasted(key, pressed) {
                        say = Some(NO_TEXT);
                    }
                }
                Event::WindowFocused(false) => *self = PasteKeys::default(),
                _ => {}
            }
        }
        say
    }

    /// Follows a paste key; true when it went up after being taken as a paste that
    /// brought nothing.
    fn key_went_up_unpasted(&mut self, key: Key, pressed: bool) -> bool {
        if !PASTE_KEYS.contains(&key) {
            return false;
        }
        let typed = self.pressed.contains(&key);
        if pressed {
            if !typed {
                self.pressed.push(key);
            }
            return false;
        }
        self.pressed.retain(|&k| k != key);
        let taken = !typed && (key == Key::Paste || std::mem::take(&mut self.chord));
        // A paste since counts once: the next key's is its own.
        taken && !std::mem::take(&mut self.pasted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use eframe::egui::{self, Modifiers};

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

    /// What X11 sends for Ctrl+V (xdotool, a person): Ctrl's release before V's, and V's
    /// with no modifiers.
    #[test]
    fn ctrl_let_go_before_v_is_a_paste_all_the_same() {
        let mut watch = PasteKeys::default();
        let ctrl_v = |paste: Option<&str>| {
            let mut events = vec![key(Key::ControlLeft, true, Modifiers::NONE)];
            events.extend(paste.map(|t| Event::Paste(t.into())));
            events.push(key(Key::ControlLeft, false, CTRL));
            events.push(key(Key::V, false, Modifiers::NONE));
            events
        };
        assert_eq!(watch.watch(&ctrl_v(None)), Some(NO_TEXT));
        assert_eq!(watch.watch(&ctrl_v(Some("f5"))), None);
        assert_eq!(watch.watch(&ctrl_v(None)), Some(NO_TEXT));
        // V let go with no Ctrl at all (pressed before the window had the focus).
        assert_eq!(watch.watch(&[key(Key::V, false, Modifiers::NONE)]), None);
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
        // Ctrl+Shift+V is no paste to the layer: its press comes as a key.
        let shifted = CTRL | Modifiers::SHIFT;
        let ctrl_shift_v = [key(Key::V, true, shifted), key(Key::V, false, shifted)];
        assert_eq!(watch.watch(&ctrl_shift_v), None);
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
