//! The engine level picker of the side panel and the new game window.

use eframe::egui;
use okapi_core::search::level::Level;
use okapi_core::search::level_ratings::LevelRatings;
use std::time::Duration;

/// Timed levels offered in the pickers, in seconds a move.
const TIMED_LEVELS: [f64; 6] = [1.0, 2.0, 5.0, 10.0, 30.0, 60.0];

/// Picks an engine level: random, greedy, numbered 1..30, timed; and, for numbered
/// levels, a temperature (discs) that weakens the engine for practice. Each level shows
/// its Elo where the ladder measured it, playing as the app does (solving from
/// `solve_limit` empties). True if changed.
pub(super) fn level_picker(
    ui: &mut egui::Ui,
    id: &str,
    level: &mut Level,
    solve_limit: u32,
) -> bool {
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
    let table = LevelRatings::shipped();
    let rated_name = |l: &Level| match table.find(l, solve_limit) {
        Some(r) => format!("{}  ≈ {:.0}", display_name(l), r.elo),
        None => match table.measured_below(l, solve_limit) {
            // Not measured, but deeper than a measured level: at least as strong.
            Some(r) => format!("{}  ≥ {:.0}", display_name(l), r.elo),
            None => display_name(l),
        },
    };
    let selected = display_name(level);
    egui::ComboBox::new(id, "Engine level")
        .selected_text(rated_name(level))
        .width(150.0)
        .show_ui(ui, |ui| {
            for mut choice in choices {
                if let Level::Search(s) = &mut choice
                    && s.limits.time.is_none()
                {
                    s.temperature = temperature;
                }
                let name = display_name(&choice);
                if ui
                    .selectable_label(name == selected, rated_name(&choice))
                    .clicked()
                {
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

/// A level as the picker lists it: "level 8", "2 s a move", "random".
fn display_name(level: &Level) -> String {
    match level {
        Level::Search(s) if s.limits.time.is_none() => format!("level {}", s.limits.depth),
        Level::Search(s) => format!(
            "{} s a move",
            s.limits.time.unwrap_or_default().as_secs_f64()
        ),
        other => other.name(),
    }
}

/// The level's place on the Elo scale (random = 0) and what it does, in small text under
/// the picker.
pub(super) fn level_summary(ui: &mut egui::Ui, level: &Level, solve_limit: u32) {
    let table = LevelRatings::shipped();
    let strength = match table.find(level, solve_limit) {
        Some(r) => format!(
            "Strength {} on Okapi's scale ({} = 0; 95% interval), from games between the levels.",
            r.text(),
            table.anchor
        ),
        None => match table.measured_below(level, solve_limit) {
            Some(r) => format!(
                "Strength not measured yet: its games take hours to play enough of them. It \
                 searches more than {}, the nearest of its kind measured: {}.",
                Level::parse(&r.level).map_or(r.level.clone(), |l| display_name(&l)),
                r.text(),
            ),
            None => "Strength not measured at this level and setting.".to_string(),
        },
    };
    let effective = level.solving_from(solve_limit);
    ui.label(egui::RichText::new(format!("{} {strength}", effective.description())).small())
        .on_hover_text(format!(
            "Measured: {}\nRegenerate: {}",
            table.measured, table.command
        ));
}
