//! What a card says in words: the verdict, where its values come from, the move of the
//! game and what the game's analysis said of it, the history of its answers.

use crate::move_list::plural;
use crate::theme::{RIGHT_TEXT, WRONG_TEXT, themed};
use eframe::egui;
use okapi_core::game::{Eval, EvalSource};
use okapi_core::practice::{self, Judgement};
use okapi_engine::GAME_ANALYSIS_DEPTH;

/// The move of the game, with the value the board shows of it now (`shown`, and its
/// label) and its loss against `best`, the best move's value judged; where the game's
/// analysis valued it otherwise, that too: "In the game, Alice played b8 (-62), 7 discs
/// lost; in the game's analysis at depth 12: -64."
pub(super) fn played_text(
    card: &practice::Card,
    shown: Option<(Eval, String)>,
    best: Eval,
) -> String {
    let (eval, label) = shown.unwrap_or_else(|| (card.played_eval, card.played_eval.label()));
    let loss = (best.value - eval.value).max(0);
    let mut text = format!(
        "In the game, {} played {} ({label}), {} lost",
        card.origin.player,
        card.played,
        plural(loss as usize, "disc")
    );
    let then = card.played_eval;
    if then != eval {
        let by = match then.source {
            EvalSource::Midgame { depth, .. } | EvalSource::Heuristic { depth } => {
                format!("at depth {depth}")
            }
            EvalSource::Book => "from the book".into(),
            EvalSource::Wld => "by a win/loss solve".into(),
            EvalSource::Exact => "by the solver".into(),
        };
        text += &format!("; in the game's analysis {by}: {}", then.label());
    }
    text + "."
}

/// Every answer given to the card, in a line: `2026-11-27 f4 missed, 2026-11-27 c4 right`.
pub(super) fn history_text(card: &practice::Card) -> String {
    if card.history.is_empty() {
        return "No answers recorded for this position yet.".into();
    }
    let answers: Vec<String> = card
        .history
        .iter()
        .map(|a| {
            format!(
                "{} {} {}",
                a.day,
                a.played,
                if a.right { "right" } else { "missed" }
            )
        })
        .collect();
    format!("This position's answers: {}.", answers.join(", "))
}

/// Where the values judged come from, in a sentence.
pub(super) fn values_source(j: &Judgement) -> String {
    let book = [j.chosen_eval, j.best_eval]
        .iter()
        .any(|e| e.source == EvalSource::Book);
    if j.proven() {
        "Values proven by the solver.".into()
    } else if book {
        "Values from the opening book (the moves it does not know, by the search): not proven."
            .into()
    } else {
        format!(
            "Values by the search ({GAME_ANALYSIS_DEPTH} moves ahead, 95% selective): not proven."
        )
    }
}

/// The verdict in one line, and its colour on the theme `visuals` draws with.
pub(super) fn verdict(j: &Judgement, visuals: &egui::Visuals) -> (String, egui::Color32) {
    let green = themed(visuals, RIGHT_TEXT);
    let red = themed(visuals, WRONG_TEXT);
    let chosen = format!("{} ({})", j.chosen, j.chosen_eval.label());
    let best = format!("{} ({})", j.best, j.best_eval.label());
    let allowed = plural(j.allowed as usize, "disc");
    if j.right && j.loss() == 0 {
        (format!("Right: {chosen} is the best move."), green)
    } else if j.right {
        (
            format!("Right: {chosen} is within {allowed} of the best, {best}."),
            green,
        )
    } else if j.allowed > 0 {
        (
            format!(
                "Missed: {chosen} loses {} against {best} (more than the {allowed} allowed).",
                plural(j.loss() as usize, "disc")
            ),
            red,
        )
    } else {
        (
            format!(
                "Missed: {chosen} loses {} against {best}.",
                plural(j.loss() as usize, "disc")
            ),
            red,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known_values::searched;
    use okapi_core::board::{Position, Square};
    use okapi_core::practice::Day;

    fn card(played_eval: Eval, best_eval: Eval) -> practice::Card {
        let day = Day::parse("2026-11-27").unwrap();
        let sq = |s| Square::parse(s).unwrap();
        practice::collect(
            &[practice::AnalysedMove {
                ply: 0,
                position: Position::start(),
                played: sq("f5"),
                played_eval,
                best: sq("d3"),
                best_eval,
            }],
            okapi_core::board::Color::Black,
            1,
            "Alice",
            "Alice - Bob",
            day,
        )
        .pop()
        .unwrap()
    }

    /// "b8 (-62) loses 7 discs" beside "in the game b8 (-64), 9 discs lost": the card says
    /// the value it shows, and where the game's analysis said otherwise, at which depth.
    #[test]
    fn a_card_names_the_depth_where_the_game_valued_its_move_otherwise() {
        let c = card(searched(-64, 12), searched(-55, 12));
        let now = searched(-62, 16);
        let text = played_text(&c, Some((now, now.label())), searched(-55, 16));
        assert_eq!(
            text,
            "In the game, Alice played f5 (-62), 7 discs lost; in the game's analysis at \
             depth 12: -64."
        );
        // The same value: nothing more to say.
        let then = c.played_eval;
        let text = played_text(&c, Some((then, then.label())), searched(-55, 12));
        assert_eq!(text, "In the game, Alice played f5 (-64), 9 discs lost.");
    }
}
