//! The players at the top of the side panel: the names the record gives (a database
//! game's or a file's players, or the seats of a game made here), each colour's discs,
//! and, for a game from elsewhere, where it was played and who plays on from here.
//!
//! The names are the record's; who plays on is the session's seats, a separate choice: a
//! database game studied at the board is still Tastet against Shaman, while a person
//! plays both sides from here (File › New game › the position on the board gives the
//! seats to Okapi).

use crate::part::FrameView;
use eframe::egui;
use okapi_core::board::{Color, Position};
use okapi_core::game::{Seat, occasion, seat_name};

/// Two rows, each with one half per colour ("Black: Tastet Marc", "Black: 12 discs"),
/// then, for a game from elsewhere, one line of where it was played and who plays on.
/// Each row stays one line (long names are cut, shown whole on hover), so nothing below
/// moves.
pub(crate) fn players_rows(ui: &mut egui::Ui, view: &FrameView, pos: Position) {
    let session = view.session;
    let names = [Color::Black, Color::White].map(|c| session.player_name(c));
    ui.columns(2, |cols| {
        for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
            cols[i].add(egui::Label::new(format!("{}: {}", color.name(), names[i])).truncate());
        }
    });
    ui.columns(2, |cols| {
        for (i, n) in [pos.black_count(), pos.white_count()]
            .into_iter()
            .enumerate()
        {
            cols[i].label(
                egui::RichText::new(format!(
                    "{}: {}",
                    [Color::Black, Color::White][i].name(),
                    crate::move_list::discs(n)
                ))
                .strong(),
            );
        }
    });
    let game = view.game();
    let about = [
        match game.event.trim() {
            "" => String::new(),
            event => occasion(event, &game.date),
        },
        plays_on(
            session.seats(),
            &names,
            session.seats().map(|s| view.settings.seat_name(s)),
        ),
    ]
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect::<Vec<_>>()
    .join(" · ");
    if !about.is_empty() {
        ui.add(egui::Label::new(egui::RichText::new(about).weak()).truncate());
    }
}

/// Who plays on from here, when the seats are not the players the record names (a game
/// opened from a file or the database): "You play both sides from here", "From here:
/// you play Black, Okapi (level 8) White". Empty when each seat is its named player
/// (`seat_names`: the names a new game gives the seats, the player's own for a person).
fn plays_on(seats: [Seat; 2], names: &[String; 2], seat_names: [String; 2]) -> String {
    if seat_names == *names {
        return String::new();
    }
    // The engine's seats by name; a person's is "you".
    let engine = |s: Seat| s.is_engine().then(|| seat_name(s));
    match (engine(seats[0]), engine(seats[1])) {
        (None, None) => "You play both sides from here".into(),
        (Some(b), Some(w)) if b == w => format!("{b} plays both sides from here"),
        (b, w) => format!(
            "From here: {} Black, {} White",
            b.map_or("you play".into(), |b| format!("{b} plays")),
            w.unwrap_or_else(|| "you".into())
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use okapi_core::level::Level;

    /// Who plays on, the seats named as a new game names them by default.
    fn plays_on_by_seats(seats: [Seat; 2], names: &[String; 2]) -> String {
        plays_on(seats, names, seats.map(seat_name))
    }

    #[test]
    fn who_plays_on_is_said_only_when_it_is_not_the_record_s_players() {
        let okapi = Seat::Engine(Level::numbered(8));
        let names = |a: &str, b: &str| [a.to_string(), b.to_string()];
        assert_eq!(
            plays_on_by_seats([Seat::Human, okapi], &names("Human", "Okapi (level 8)")),
            ""
        );
        assert_eq!(
            plays_on_by_seats([Seat::Human; 2], &names("Tastet Marc", "Shaman Brian")),
            "You play both sides from here"
        );
        assert_eq!(
            plays_on_by_seats([okapi; 2], &names("Tastet Marc", "Shaman Brian")),
            "Okapi (level 8) plays both sides from here"
        );
        assert_eq!(
            plays_on_by_seats([Seat::Human, okapi], &names("Tastet Marc", "Shaman Brian")),
            "From here: you play Black, Okapi (level 8) White"
        );
        assert_eq!(
            plays_on_by_seats(
                [okapi, Seat::Human],
                &names("Okapi (level 8)", "Shaman Brian")
            ),
            "From here: Okapi (level 8) plays Black, you White"
        );
        // A game of the player's own, under the name in the settings: nothing to say.
        let marc = [String::from("Marc"), seat_name(okapi)];
        assert_eq!(plays_on([Seat::Human, okapi], &marc, marc.clone()), "");
    }
}
