//! One game between two contestants, through a session.

use super::contestant::Contestant;
use anyhow::{Context, anyhow};
use okapi_core::board::{Color, Move};
use okapi_core::game::{Game, Seat, Session};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What happened in one game.
pub struct GameResult {
    pub game: Game,
    /// Black's and White's discs, empties to the winner.
    pub black: u32,
    pub white: u32,
    pub time_black: Duration,
    pub time_white: Duration,
    pub moves_black: u32,
    pub moves_white: u32,
    /// The seconds each ply of the game's main line took (`None`: an opening move or a
    /// forced pass), for the saved record's `/eval/time`.
    pub seconds: Vec<Option<f64>>,
}

/// Plays one game from `opening` to the end through a session (forced passes are the
/// session's).
pub fn play_game(
    black: &mut dyn Contestant,
    white: &mut dyn Contestant,
    opening: &[Move],
) -> anyhow::Result<GameResult> {
    play_game_unless(black, white, opening, &AtomicBool::new(false))
        .map(|r| r.expect("a game that cannot be stopped ends"))
}

/// [`play_game`], given up between two moves once `stop` is set (`None` then).
pub(super) fn play_game_unless(
    black: &mut dyn Contestant,
    white: &mut dyn Contestant,
    opening: &[Move],
    stop: &AtomicBool,
) -> anyhow::Result<Option<GameResult>> {
    let mut session = Session::new(Game::default(), [Seat::Human; 2]);
    for &m in opening {
        // The session plays forced passes itself: an opening that writes one out (as
        // transcripts read back do) has it played already.
        if m == Move::Pass && !session.position().must_pass() {
            continue;
        }
        session
            .play_any(m, None)
            .map_err(|e| anyhow!("opening: {m}: {e}"))?;
    }
    session.game_mut().black = black.name();
    session.game_mut().white = white.name();
    let (mut time, mut moves) = ([Duration::ZERO; 2], [0u32; 2]);
    let mut seconds = vec![None; session.game().main_line().len()];
    while !session.is_over() {
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let side = session.position().side_to_move();
        let start = Instant::now();
        let player: &mut dyn Contestant = match side {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        // Where a contestant failed, so that the position can be looked at again (a
        // console once answered a pass with a move on the board, 1 game in 958).
        let mv = player
            .choose(session.game())
            .with_context(|| format!("after {}", session.game().transcript()))?;
        let took = start.elapsed();
        time[side as usize] += took;
        moves[side as usize] += 1;
        session.play_any(mv, None).map_err(|e| {
            anyhow!(
                "{} played an illegal move after {}: {e}",
                player.name(),
                session.game().transcript()
            )
        })?;
        // The move, then the forced passes the session played after it.
        seconds.push(Some(took.as_secs_f64()));
        seconds.resize(session.game().main_line().len(), None);
    }
    let (b, w) = session.position().final_counts();
    Ok(Some(GameResult {
        game: session.into_game(),
        black: b,
        white: w,
        time_black: time[0],
        time_white: time[1],
        moves_black: moves[0],
        moves_white: moves[1],
        seconds,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::openings::parse_transcript;
    use super::super::players::OkapiContestant;
    use super::*;
    use okapi_core::board::{Position, Square};
    use okapi_core::eval::Evaluator;
    use okapi_core::level::Level;
    use okapi_engine::EngineConfig;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A small table and `threads`.
    fn config(threads: usize) -> EngineConfig {
        EngineConfig::new(10, threads).unwrap()
    }

    #[test]
    fn openings_through_a_forced_pass_are_played() {
        // A random game's first forced pass with the game still on, and the move after.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let text = (0..10_000)
            .find_map(|_| {
                let mut p = Position::start();
                let mut moves = Vec::new();
                while !p.is_game_over() {
                    if p.must_pass() {
                        moves.push(Move::Pass);
                        p.play_move(Move::Pass).unwrap();
                        let next = p.legal_moves().iter().next().unwrap();
                        moves.push(Move::Play(next));
                        return Some(moves);
                    }
                    let legal: Vec<Square> = p.legal_moves().iter().collect();
                    let sq = legal[rng.random_range(0..legal.len())];
                    moves.push(Move::Play(sq));
                    p.play(sq).unwrap();
                }
                None
            })
            .expect("a random game with a forced pass");
        // With the pass left out or written out, as a file of openings may have it.
        let without = okapi_core::formats::transcript::write_moves(&text);
        let with: Vec<String> = text
            .iter()
            .map(|m| match m {
                Move::Pass => "PA".to_string(),
                m => m.to_string(),
            })
            .collect();
        for opening in [without, with.join(" ")] {
            let moves = parse_transcript(&opening).unwrap();
            assert!(moves.contains(&Move::Pass));
            let mut a =
                OkapiContestant::new(Level::Greedy, Evaluator::shipped(), config(1), 1, None);
            let mut b =
                OkapiContestant::new(Level::Greedy, Evaluator::shipped(), config(2), 2, None);
            let r = play_game(&mut a, &mut b, &moves).unwrap();
            assert_eq!(r.game.moves()[..moves.len()], moves[..], "{opening}");
        }
    }

    /// A contestant that fails at its third move.
    struct FailsLater(u32);

    impl Contestant for FailsLater {
        fn name(&self) -> String {
            "fails".into()
        }
        fn choose(&mut self, game: &okapi_core::game::Game) -> anyhow::Result<Move> {
            self.0 += 1;
            anyhow::ensure!(self.0 < 3, "no move");
            let sq = game
                .position()
                .legal_moves()
                .iter()
                .next()
                .expect("a legal move");
            Ok(Move::Play(sq))
        }
    }

    #[test]
    fn a_contestant_error_says_after_which_moves() {
        let (mut black, mut white) = (FailsLater(0), FailsLater(10));
        let Err(err) = play_game_unless(&mut black, &mut white, &[], &AtomicBool::new(false))
        else {
            panic!("white fails at once");
        };
        let text = format!("{err:#}");
        // Black's first move, then White fails.
        assert!(text.starts_with("after "), "{text}");
        assert!(text.ends_with(": no move"), "{text}");
        let mut black = FailsLater(0);
        let mut white = FailsLater(0);
        let Err(err) = play_game_unless(&mut black, &mut white, &[], &AtomicBool::new(false))
        else {
            panic!("black fails at its third move");
        };
        let text = format!("{err:#}");
        let moves = text
            .strip_prefix("after ")
            .unwrap()
            .split(':')
            .next()
            .unwrap();
        // Four moves played (two each), the fifth failed.
        assert_eq!(moves.len(), 8, "{text}");
    }

    #[test]
    fn greedy_against_random_plays_whole_games() {
        let mut a = OkapiContestant::new(Level::Greedy, Evaluator::shipped(), config(1), 1, None);
        let mut b = OkapiContestant::new(Level::Random, Evaluator::shipped(), config(2), 2, None);
        let r = play_game(&mut a, &mut b, &parse_transcript("f5d6").unwrap()).unwrap();
        assert!(r.game.position().is_game_over());
        assert_eq!(r.black + r.white, 64);
        assert!(r.moves_black + r.moves_white + 2 >= r.game.moves().len() as u32 - 2);
    }
}
