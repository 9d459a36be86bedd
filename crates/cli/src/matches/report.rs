//! What the match prints and saves: a line per game in game order, the summary, the
//! test's verdict, the games in a GGF file.

use super::MatchArgs;
use super::elo::{Tally, elo_interval, elo_text, points};
use super::game::GameResult;
use super::sprt::{Sprt, Verdict};
use anyhow::Context;
use indicatif::ProgressBar;
use okapi_core::board::Move;
use okapi_core::formats::ggf;
use std::path::Path;
use std::time::Duration;

pub(super) fn save_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    okapi_core::formats::write_atomic(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// The match's account, kept in game order: the tally, the pairs, the test, the saved
/// games and what is printed of them.
pub(super) struct Scoreboard<'a> {
    pub(super) args: &'a MatchArgs,
    pub(super) tally: Tally,
    /// A's points in the first game of the pair under way.
    pub(super) pair_first: Option<f64>,
    /// The test's ratio and verdict after the last complete pair.
    pub(super) llr: Option<(f64, Verdict)>,
    pub(super) saved: String,
    pub(super) bar: ProgressBar,
}

impl Scoreboard<'_> {
    /// Counts game `g` (from 0), prints its line; the test's verdict once it has one.
    pub(super) fn record(
        &mut self,
        g: usize,
        opening: &[Move],
        r: &GameResult,
    ) -> anyhow::Result<Verdict> {
        let a_is_black = g.is_multiple_of(2);
        let (da, db, ta, tb, ma, mb) = if a_is_black {
            (
                r.black,
                r.white,
                r.time_black,
                r.time_white,
                r.moves_black,
                r.moves_white,
            )
        } else {
            (
                r.white,
                r.black,
                r.time_white,
                r.time_black,
                r.moves_white,
                r.moves_black,
            )
        };
        let t = &mut self.tally;
        t.discs_a += da;
        t.discs_b += db;
        t.time_a += ta;
        t.time_b += tb;
        t.moves_a += ma;
        t.moves_b += mb;
        let score = points(da, db);
        let verdict = if score == 1.0 {
            t.wins += 1;
            "A wins"
        } else if score == 0.5 {
            t.draws += 1;
            "draw"
        } else {
            t.losses += 1;
            "B wins"
        };
        // A pair is a game with A Black and the next with A White, from one opening.
        let mut test = String::new();
        let mut decision = Verdict::Continue;
        if a_is_black {
            self.pair_first = Some(score);
        } else if let Some(first) = self.pair_first.take() {
            t.pentanomial.add(first, score);
            if let Some(sprt) = &self.args.sprt {
                let llr = sprt.llr(&t.pentanomial);
                decision = sprt.verdict(llr);
                self.llr = Some((llr, decision));
                test = format!(
                    "  LLR {llr:+.2} ({:+.2} .. {:+.2})",
                    sprt.lower_bound(),
                    sprt.upper_bound()
                );
            }
        }
        let line = format!(
            "game {:>4}  {:<20} A {} {:>2}-{:<2} B  {:<6}  time A {:.3}s B {:.3}s   (+{} ={} -{}){test}",
            g + 1,
            opening
                .iter()
                .map(|&m| m.to_string().to_uppercase())
                .collect::<String>(),
            if a_is_black { "(Black)" } else { "(White)" },
            da,
            db,
            verdict,
            ta.as_secs_f64(),
            tb.as_secs_f64(),
            t.wins,
            t.draws,
            t.losses
        );
        self.bar.suspend(|| outln!("{line}"));
        self.bar.inc(1);
        let llr = self
            .llr
            .map_or(String::new(), |(l, _)| format!(", LLR {l:+.2}"));
        self.bar
            .set_message(format!("A +{} ={} -{}{llr}", t.wins, t.draws, t.losses));
        if let Some(path) = &self.args.save {
            // Each move with the seconds it took (a time level's outliers show there).
            let mut game = r.game.clone();
            game.date = ggf::now_utc();
            game.event = "Okapi match".into();
            self.saved += &ggf::write_record(&ggf::GgfRecord {
                game,
                move_info: r
                    .seconds
                    .iter()
                    .map(|&seconds| ggf::MoveInfo {
                        eval: None,
                        seconds,
                    })
                    .collect(),
                ..Default::default()
            });
            self.saved.push('\n');
            save_atomically(path, &self.saved)?;
        }
        Ok(decision)
    }
}

pub(super) fn print_summary(name_a: &str, name_b: &str, t: &Tally) {
    let per_move = |d: Duration, m: u32| d.as_secs_f64() / m.max(1) as f64;
    let (e, lo, hi) = elo_interval(t);
    outln!("---");
    outln!("A = {name_a}, B = {name_b}, {} games", t.games());
    outln!(
        "A: {} wins, {} draws, {} losses: score {:.1}%",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score()
    );
    if t.pentanomial.pairs() > 0 {
        outln!(
            "pairs (one opening, both colours) by A's points: {}",
            t.pentanomial
        );
    }
    outln!(
        "discs: A {}, B {} (average {:+.2} per game for A)",
        t.discs_a,
        t.discs_b,
        (t.discs_a as f64 - t.discs_b as f64) / t.games().max(1) as f64
    );
    outln!(
        "time: A {:.3} s ({:.5} s/move), B {:.3} s ({:.5} s/move)",
        t.time_a.as_secs_f64(),
        per_move(t.time_a, t.moves_a),
        t.time_b.as_secs_f64(),
        per_move(t.time_b, t.moves_b)
    );
    outln!(
        "Elo difference A - B: {} (95% interval {} .. {})",
        elo_text(e),
        elo_text(lo),
        elo_text(hi)
    );
}

/// The test's last ratio and what it concluded.
pub(super) fn print_test(sprt: &Sprt, t: &Tally, llr: Option<(f64, Verdict)>) {
    let pairs = t.pentanomial.pairs();
    let Some((llr, verdict)) = llr else {
        outln!("SPRT: no complete pair of games, no ratio");
        return;
    };
    let (lo, hi) = (sprt.lower_bound(), sprt.upper_bound());
    let text = match verdict {
        Verdict::H1 => format!(
            "H1 accepted: A − B ≥ {} Elo rather than ≤ {} (LLR {llr:+.2} ≥ {hi:+.2})",
            sprt.elo1, sprt.elo0
        ),
        Verdict::H0 => format!(
            "H0 accepted: A − B ≤ {} Elo rather than ≥ {} (LLR {llr:+.2} ≤ {lo:+.2})",
            sprt.elo0, sprt.elo1
        ),
        Verdict::Continue => format!(
            "no decision: LLR {llr:+.2} is still between {lo:+.2} and {hi:+.2} (more games needed)"
        ),
    };
    outln!("SPRT after {pairs} pairs: {text}");
}
