//! The app's colours on the dark theme and on the light one (Windows and the browser follow
//! the system's theme, and Windows' default is light): egui's visuals made readable where
//! they are not, and the colours the app sets itself for text on the panels, each a pair
//! (dark, light).
//!
//! egui's light theme draws weak text and the fields' hints at about 2.8:1 on the panel,
//! its text fields (white on a nearly white panel) and radio buttons with no edge, and its
//! error and warning colours under 4:1; its dark theme its weak text at 2.7:1 and its
//! error red at 4.3:1. [`readable`] sets each text colour to at least 4.5:1 on the
//! backgrounds it is drawn on, and the controls' edge to at least 3:1 on the panel (WCAG
//! 2's contrast for text and for the parts of controls); the move list's current move, on
//! egui's selection fill, has its own colours ([`cell_texts`]); the tests below check every
//! pair.

use eframe::egui::{self, Color32, Stroke, Visuals};

/// A colour for the dark theme and one for the light theme.
pub(crate) type Themed = [Color32; 2];

/// The colour of `pair` for the theme `visuals` draws with.
pub(crate) fn themed(visuals: &Visuals, pair: Themed) -> Color32 {
    pair[usize::from(!visuals.dark_mode)]
}

/// Weak text: the fields' hints, the lists' numbers, the notes under a section.
const WEAK_TEXT: Themed = [Color32::from_gray(0x88), Color32::from_gray(0x6a)];

/// The edge of the text fields, radio buttons, tick boxes and buttons, at rest.
const CONTROL_EDGE: Themed = [Color32::from_gray(0x6e), Color32::from_gray(0x82)];

/// An error (the status line's, the Database tab's).
const ERROR_TEXT: Themed = [
    Color32::from_rgb(0xff, 0x60, 0x50),
    Color32::from_rgb(0xb0, 0x20, 0x10),
];

/// A warning (a year that is no number, a file skipped).
const WARN_TEXT: Themed = [
    Color32::from_rgb(0xff, 0x8f, 0x00),
    Color32::from_rgb(0xa0, 0x48, 0x00),
];

/// The status line's notice.
pub(crate) const NOTICE_TEXT: Themed = [
    Color32::from_rgb(0x80, 0xc0, 0xff),
    Color32::from_rgb(0x10, 0x50, 0xa0),
];

/// The game's result ("Game over: Black wins 33-31"), gold.
pub(crate) const RESULT_TEXT: Themed = [
    Color32::from_rgb(0xff, 0xc0, 0x40),
    Color32::from_rgb(0x8a, 0x5a, 0x00),
];

/// The graph's and the loss chart's axis labels (the discs and the move numbers, on the
/// panel beside and under the plot).
pub(crate) const AXIS_LABEL: Themed = [
    Color32::from_rgb(0xc8, 0xc8, 0xc0),
    Color32::from_rgb(0x50, 0x50, 0x48),
];

/// A proven value in the move list.
pub(crate) const PROVEN_TEXT: Themed = [
    Color32::from_rgb(0x70, 0xc8, 0x70),
    Color32::from_rgb(0x2a, 0x7a, 0x34),
];

/// A loss of 1-2 discs in the move list and its legend, gold.
pub(crate) const INACCURACY_TEXT: Themed = [
    Color32::from_rgb(0xe0, 0xc0, 0x40),
    Color32::from_rgb(0x8a, 0x6a, 0x00),
];

/// A loss of 3-7 discs, orange.
pub(crate) const MISTAKE_TEXT: Themed = [
    Color32::from_rgb(0xf0, 0x80, 0x30),
    Color32::from_rgb(0xb0, 0x4a, 0x00),
];

/// A loss of 8 discs or more, red.
pub(crate) const BLUNDER_TEXT: Themed = [
    Color32::from_rgb(0xf8, 0x50, 0x50),
    Color32::from_rgb(0xc0, 0x18, 0x18),
];

/// A proven value and the losses in the current move's cell, on egui's selection fill.
const PROVEN_ON_SELECTION: Themed = [
    Color32::from_rgb(0xa0, 0xf0, 0xa0),
    Color32::from_rgb(0x10, 0x50, 0x18),
];
const INACCURACY_ON_SELECTION: Themed = [
    Color32::from_rgb(0xff, 0xe0, 0x70),
    Color32::from_rgb(0x5a, 0x46, 0x00),
];
const MISTAKE_ON_SELECTION: Themed = [
    Color32::from_rgb(0xff, 0xc0, 0x80),
    Color32::from_rgb(0x7a, 0x2a, 0x00),
];
const BLUNDER_ON_SELECTION: Themed = [
    Color32::from_rgb(0xff, 0xbc, 0xbc),
    Color32::from_rgb(0x90, 0x00, 0x00),
];

/// The texts of a move-list cell: the move, the weak marks beside it (a branch, a search's
/// value), a proven value, and a loss by its severity.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CellTexts {
    pub(crate) mv: Color32,
    pub(crate) weak: Color32,
    pub(crate) proven: Color32,
    pub(crate) inaccuracy: Color32,
    pub(crate) mistake: Color32,
    pub(crate) blunder: Color32,
}

/// The colours of a move-list cell's texts on the theme `visuals` draws with: on the
/// panel, or on the selection's fill for the current move.
pub(crate) fn cell_texts(visuals: &Visuals, current: bool) -> CellTexts {
    if current {
        // egui's selection blue is mid-dark on the dark theme and pale on the light one:
        // the panel's colours fall to 1.2-4.2:1 on it, so the current move has its own,
        // lighter (dark) or darker (light) of the same hues, and the selection's own text
        // colour for the weak marks.
        return CellTexts {
            mv: visuals.strong_text_color(),
            weak: visuals.selection.stroke.color,
            proven: themed(visuals, PROVEN_ON_SELECTION),
            inaccuracy: themed(visuals, INACCURACY_ON_SELECTION),
            mistake: themed(visuals, MISTAKE_ON_SELECTION),
            blunder: themed(visuals, BLUNDER_ON_SELECTION),
        };
    }
    CellTexts {
        mv: visuals.strong_text_color(),
        weak: visuals.weak_text_color(),
        proven: themed(visuals, PROVEN_TEXT),
        inaccuracy: themed(visuals, INACCURACY_TEXT),
        mistake: themed(visuals, MISTAKE_TEXT),
        blunder: themed(visuals, BLUNDER_TEXT),
    }
}

/// Right, green: a practice answer within what is allowed, a script's result that agrees
/// with its expected score (the text and its tick).
pub(crate) const RIGHT_TEXT: Themed = [
    Color32::from_rgb(0x40, 0xc0, 0x60),
    Color32::from_rgb(0x1a, 0x7a, 0x34),
];

/// Wrong, red: a practice answer that missed, a script's result that differs (the text and
/// its cross).
pub(crate) const WRONG_TEXT: Themed = [
    Color32::from_rgb(0xf0, 0x50, 0x40),
    Color32::from_rgb(0xc0, 0x28, 0x18),
];

/// egui's `visuals` (either theme's) with the colours above.
pub(crate) fn readable(visuals: &mut Visuals) {
    visuals.weak_text_color = Some(themed(visuals, WEAK_TEXT));
    visuals.error_fg_color = themed(visuals, ERROR_TEXT);
    visuals.warn_fg_color = themed(visuals, WARN_TEXT);
    visuals.widgets.inactive.bg_stroke = Stroke::new(1.0, themed(visuals, CONTROL_EDGE));
}

/// Gives the tick boxes, radio buttons and fields in `ui` back their edge where egui takes
/// it away (its menus draw their controls with none: an unticked box or an unchosen radio
/// button in the light theme's menu was a grey disc at 1.2:1 on the menu).
pub(crate) fn control_edges(ui: &mut egui::Ui) {
    let edge = themed(ui.visuals(), CONTROL_EDGE);
    ui.visuals_mut().widgets.inactive.bg_stroke = Stroke::new(1.0, edge);
}

/// Sets [`readable`] visuals for both themes of `ctx` (the system's may change while the
/// app runs).
pub(crate) fn make_readable(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| readable(&mut style.visuals));
}

/// WCAG 2's contrast ratio of two opaque colours: 1 (the same) to 21 (black on white).
#[cfg(test)]
pub(crate) fn contrast(a: Color32, b: Color32) -> f32 {
    fn luminance(c: Color32) -> f32 {
        let channel = |v: u8| {
            let v = f32::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
    }
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both themes as the app draws them.
    fn themes() -> [(&'static str, Visuals); 2] {
        let mut dark = Visuals::dark();
        let mut light = Visuals::light();
        readable(&mut dark);
        readable(&mut light);
        [("dark", dark), ("light", light)]
    }

    fn assert_contrast(theme: &str, what: &str, fg: Color32, bg: Color32, least: f32) {
        assert_eq!(fg.a(), 255, "{theme}: {what} is opaque");
        let c = contrast(fg, bg);
        assert!(
            c >= least,
            "{theme}: {what} {fg:?} on {bg:?} has a contrast of {c:.2}, under {least}"
        );
    }

    /// Every text colour on every background it is drawn on, at 4.5:1 at least: the panels'
    /// texts, the fields' texts and hints, the radio buttons' and tick boxes' labels, the
    /// buttons' texts on their fill, the errors, warnings and notices, the graph's axis, the
    /// move list's proofs and losses, the practice verdicts and the script's ticks and crosses.
    #[test]
    fn every_text_reads_on_its_background_on_both_themes() {
        for (theme, v) in themes() {
            let panel = v.panel_fill;
            let field = v.text_edit_bg_color();
            let texts = [
                ("text", v.text_color()),
                ("weak text and hints", v.weak_text_color()),
                ("a control's text", v.widgets.inactive.text_color()),
                ("an error", v.error_fg_color),
                ("a warning", v.warn_fg_color),
                ("a notice", themed(&v, NOTICE_TEXT)),
                ("the game's result", themed(&v, RESULT_TEXT)),
                ("the graph's axis labels", themed(&v, AXIS_LABEL)),
                ("a proven value in the move list", themed(&v, PROVEN_TEXT)),
                ("an inaccuracy", themed(&v, INACCURACY_TEXT)),
                ("a mistake", themed(&v, MISTAKE_TEXT)),
                ("a blunder", themed(&v, BLUNDER_TEXT)),
                ("a script's result that agrees", themed(&v, RIGHT_TEXT)),
                ("a script's result that differs", themed(&v, WRONG_TEXT)),
            ];
            // On the panel and on the striped rows of its tables (the script's results,
            // the database's games), which egui's grid paints in the faint fill.
            for (what, fg) in texts {
                assert_contrast(theme, what, fg, panel, 4.5);
                let striped = panel.blend(v.faint_bg_color);
                assert_contrast(theme, &format!("{what} on a striped row"), fg, striped, 4.5);
            }
            // The windows' texts on the window's fill and its tables' striped rows (the
            // practice window's verdict and statistics, the shortcuts).
            for (what, fg) in [
                ("text", v.text_color()),
                ("weak text", v.weak_text_color()),
                ("a right answer", themed(&v, RIGHT_TEXT)),
                ("a missed answer", themed(&v, WRONG_TEXT)),
            ] {
                assert_contrast(theme, what, fg, v.window_fill, 4.5);
                let striped = v.window_fill.blend(v.faint_bg_color);
                assert_contrast(
                    theme,
                    &format!("{what} on a window's striped row"),
                    fg,
                    striped,
                    4.5,
                );
            }
            for (what, fg) in [
                ("a field's text", v.widgets.inactive.text_color()),
                ("a field's hint", v.weak_text_color()),
            ] {
                assert_contrast(theme, what, fg, field, 4.5);
            }
            // The move list's cells: on the panel, on its striped rows (egui's grid
            // paints every other row in the faint fill), and the current move's on the
            // selection's fill.
            for (current, bg, on) in [
                (false, panel, "on the panel"),
                (false, panel.blend(v.faint_bg_color), "on a striped row"),
                (true, v.selection.bg_fill, "on the selection"),
            ] {
                let t = cell_texts(&v, current);
                for (what, fg) in [
                    ("a move", t.mv),
                    ("a move's weak marks", t.weak),
                    ("a move's proven value", t.proven),
                    ("a move's inaccuracy", t.inaccuracy),
                    ("a move's mistake", t.mistake),
                    ("a move's blunder", t.blunder),
                ] {
                    assert_contrast(theme, &format!("{what} {on}"), fg, bg, 4.5);
                }
            }
            assert_contrast(
                theme,
                "a button's text on its fill",
                v.widgets.inactive.text_color(),
                v.widgets.inactive.weak_bg_fill,
                4.5,
            );
        }
    }

    /// A text field, a radio button, a tick box: its edge stands out from the panel (3:1,
    /// as WCAG asks of a control's parts), whatever its fill.
    #[test]
    fn the_controls_have_an_edge_on_both_themes() {
        for (theme, v) in themes() {
            let edge = v.widgets.inactive.bg_stroke;
            assert!(edge.width >= 1.0, "{theme}: the edge is {edge:?}");
            assert_contrast(theme, "a control's edge", edge.color, v.panel_fill, 3.0);
        }
    }

    /// The ratio as WCAG defines it: black on white 21, a colour on itself 1, symmetric,
    /// and the grey that just reaches 4.5:1 on white.
    #[test]
    fn the_contrast_is_wcags() {
        let (black, white) = (Color32::BLACK, Color32::WHITE);
        assert!((contrast(black, white) - 21.0).abs() < 0.01);
        assert!((contrast(white, white) - 1.0).abs() < 1e-6);
        let grey = Color32::from_gray(0x76);
        assert!((contrast(grey, white) - 4.54).abs() < 0.01);
        assert_eq!(contrast(grey, white), contrast(white, grey));
    }
}
