//! The engine level picker of the side panel, the settings and the new game window.

use eframe::egui;
use okapi_core::level::Level;
use okapi_core::level::ratings::{LevelRatings, Strength};
use std::time::Duration;

/// Timed levels offered in the pickers, in seconds a move.
const TIMED_LEVELS: [f64; 6] = [1.0, 2.0, 5.0, 10.0, 30.0, 60.0];

/// Picks an engine level: random, greedy, numbered 1..30, timed; and, for numbered
/// levels, a temperature (discs) that weakens the engine for practice. The levels are
/// listed weakest first by the strength the ladder measured, playing as the app does
/// (solving from `solve_limit` empties), each with its Elo. True if changed.
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
    let table = LevelRatings::shipped();
    let rated_name = |l: &Level| match table.strength(l, solve_limit) {
        Some(s @ Strength::Measured { .. }) => format!("{}  ≈ {:.0}", display_name(l), s.elo()),
        // Not measured, but deeper than a measured level: at least as strong.
        Some(s @ Strength::AtLeast { .. }) => format!("{}  ≥ {:.0}", display_name(l), s.elo()),
        None => display_name(l),
    };
    let selected = display_name(level);
    egui::ComboBox::new(id, "Engine level")
        .selected_text(rated_name(level))
        .width(150.0)
        .show_ui(ui, |ui| {
            for mut choice in picker_order(table, solve_limit) {
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

/// The picker's levels at full strength, weakest first: random, greedy, the depth levels
/// in depth order and the time levels in time order, the two merged by the strength a
/// player is told (which rises with depth and with time, see
/// [`LevelRatings::strength`]). A level with no strength known keeps its place after the
/// one before it of its kind.
fn picker_order(table: &LevelRatings, solve_limit: u32) -> Vec<Level> {
    let mut choices = vec![Level::Random, Level::Greedy];
    choices.extend((1..=30).map(Level::numbered));
    choices.extend(
        TIMED_LEVELS
            .iter()
            .map(|&s| Level::timed(Duration::from_secs_f64(s))),
    );
    // Each kind's keys rise along the kind (a running maximum), so the stable sort keeps
    // each kind's order and only interleaves the kinds.
    let kind = |l: &Level| match l {
        Level::Search(s) => 1 + usize::from(s.limits.time.is_some()),
        _ => 0,
    };
    let mut last = [f64::NEG_INFINITY; 3];
    let mut keyed: Vec<(f64, Level)> = choices
        .into_iter()
        .map(|l| {
            let k = kind(&l);
            let elo = table.strength(&l, solve_limit).map(|s| s.elo());
            last[k] = last[k].max(elo.unwrap_or(f64::NEG_INFINITY));
            (last[k], l)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    keyed.into_iter().map(|(_, l)| l).collect()
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

/// A level of the table by its name, as the picker lists it.
fn display_table_name(name: &str) -> String {
    Level::parse(name).map_or(name.to_string(), |l| display_name(&l))
}

/// Levels of the table by their names as a player reads them: "levels 18, 19 and 21",
/// "1 s and 2 s a move", "level 12".
fn tied_list(names: &[String]) -> String {
    let and = |items: &[String]| match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let (mut depths, mut times) = (Vec::new(), Vec::new());
    for name in names {
        match Level::parse(name) {
            Ok(Level::Search(s)) => match s.limits.time {
                None => depths.push(s.limits.depth.to_string()),
                Some(t) => times.push(format!("{} s", t.as_secs_f64())),
            },
            _ => depths.push(name.clone()),
        }
    }
    let mut parts = Vec::new();
    if !depths.is_empty() {
        let word = if depths.len() == 1 { "level" } else { "levels" };
        parts.push(format!("{word} {}", and(&depths)));
    }
    if !times.is_empty() {
        parts.push(format!("{} a move", and(&times)));
    }
    and(&parts)
}

/// What the level does and how strong it is, under the picker; the
/// scale's meaning on hover.
pub(super) fn level_summary(ui: &mut egui::Ui, level: &Level, solve_limit: u32) {
    let table = LevelRatings::shipped();
    let strength = match table.strength(level, solve_limit) {
        Some(s) => match &s {
            Strength::Measured { tied_with, .. } if tied_with.is_empty() => {
                format!("Strength {}.", s.text())
            }
            Strength::Measured { tied_with, .. } => {
                format!(
                    "Strength {}; the games measured could not tell it from {}, so they \
                     show one strength.",
                    s.text(),
                    tied_list(tied_with)
                )
            }
            Strength::AtLeast { than, .. } => format!(
                "Strength not measured (its games take hours); it searches more than {}, so {}.",
                display_table_name(than),
                s.text()
            ),
        },
        None => "Strength not measured at this level and setting.".to_string(),
    };
    let timed = matches!(level, Level::Search(s) if s.limits.time.is_some());
    let machine = if timed {
        " Measured on a busy two-core computer: a faster one thinks deeper in the same time."
    } else {
        ""
    };
    let effective = level.solving_from(solve_limit);
    // In the body's size, wrapped: a player reads it to choose (in small text it was
    // too small to read).
    ui.add(
        egui::Label::new(format!(
            "{} {strength}{machine} {}",
            effective.description(),
            table.scale_sentence()
        ))
        .wrap(),
    )
    .on_hover_text(
        "Elo measured in games between Okapi's levels, from balanced openings each played \
         with both colours. The 95% interval is where the level's true strength lies, 19 \
         times in 20.",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The depths of the depth levels of a list, in its order.
    fn depths(order: &[Level]) -> Vec<u32> {
        order
            .iter()
            .filter_map(|l| match l {
                Level::Search(s) if s.limits.time.is_none() => Some(s.limits.depth),
                _ => None,
            })
            .collect()
    }

    /// The picker lists the levels weakest first, depth and time levels each in their own
    /// order, under the app's default solve setting and with solving left to the level.
    #[test]
    fn the_picker_lists_levels_by_rising_strength() {
        let table = LevelRatings::shipped();
        for solve in [0, 20] {
            let order = picker_order(table, solve);
            assert_eq!(order.len(), 2 + 30 + TIMED_LEVELS.len());
            let shown: Vec<f64> = order
                .iter()
                .map(|l| {
                    table
                        .strength(l, solve)
                        .expect("every listed level is rated")
                        .elo()
                })
                .collect();
            assert!(
                shown.windows(2).all(|w| w[0] <= w[1]),
                "{solve}: {:?}",
                order
                    .iter()
                    .zip(&shown)
                    .map(|(l, e)| (l.name(), *e))
                    .collect::<Vec<_>>()
            );
            assert_eq!(depths(&order), (1..=30).collect::<Vec<_>>());
            let times: Vec<Duration> = order
                .iter()
                .filter_map(|l| match l {
                    Level::Search(s) => s.limits.time,
                    _ => None,
                })
                .collect();
            assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
            assert_eq!(order[..2], [Level::Random, Level::Greedy]);
        }
    }

    #[test]
    fn tied_levels_are_listed_as_a_player_says_them() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(tied_list(&names(&["12"])), "level 12");
        assert_eq!(
            tied_list(&names(&["18", "19", "21"])),
            "levels 18, 19 and 21"
        );
        assert_eq!(
            tied_list(&names(&["1s", "2s", "60s"])),
            "1 s, 2 s and 60 s a move"
        );
        assert_eq!(tied_list(&names(&["29", "1s"])), "level 29 and 1 s a move");
    }

    /// A solve setting the ladder never played keeps the levels in their own order.
    #[test]
    fn unrated_levels_keep_their_place() {
        let order = picker_order(LevelRatings::shipped(), 17);
        assert_eq!(depths(&order), (1..=30).collect::<Vec<_>>());
    }
}
