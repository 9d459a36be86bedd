//! The engine level picker of the side panel and the new game window.

use eframe::egui;
use okapi_core::search::level::Level;
use std::time::Duration;

/// Timed levels offered in the pickers, in seconds a move.
const TIMED_LEVELS: [f64; 6] = [1.0, 2.0, 5.0, 10.0, 30.0, 60.0];

/// Picks an engine level: random, greedy, numbered 1..30, timed; and, for numbered
/// levels, a temperature (discs) that weakens the engine for practice. True if changed.
pub(super) fn level_picker(ui: &mut egui::Ui, id: &str, level: &mut Level) -> bool {
    let before = *level;
    let temperature = match level {
        Level::Search(s) => s.temperature,
        _ => 0.0,
    };
    let mut choices = vec![Level::Random, Level::Greedy];
    choices.extend((1..=30).map(Level::numbered));
    choices.extend(
        TIMED_LEVELS
            .iter()
            .map(|&s| Level::timed(Duration::from_secs_f64(s))),
    );
    let base_name = |l: &Level| match l {
        Level::Search(s) if s.limits.time.is_none() => format!("level {}", s.limits.depth),
        Level::Search(s) => format!(
            "{} s a move",
            s.limits.time.unwrap_or_default().as_secs_f64()
        ),
        other => other.name(),
    };
    let selected = base_name(level);
    egui::ComboBox::new(id, "Engine level")
        .selected_text(selected.clone())
        .width(120.0)
        .show_ui(ui, |ui| {
            for mut choice in choices {
                if let Level::Search(s) = &mut choice
                    && s.limits.time.is_none()
                {
                    s.temperature = temperature;
                }
                let name = base_name(&choice);
                if ui.selectable_label(name == selected, name).clicked() {
                    *level = choice;
                }
            }
        });
    if let Level::Search(s) = level
        && s.limits.time.is_none()
    {
        let label = ui.label("temperature");
        ui.add(
            egui::DragValue::new(&mut s.temperature)
                .range(0.0..=20.0)
                .speed(0.1)
                .max_decimals(1),
        )
        .labelled_by(label.id)
        .on_hover_text("0: full strength. Above: the engine draws its move with chance exp(value/temperature); higher plays worse.");
    }
    *level != before
}
