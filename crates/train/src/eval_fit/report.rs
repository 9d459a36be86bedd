//! The fit's report: held-out errors, the options as typed, evaluation speed.

use super::corpus::{Corpus, HeldOut};
use super::{EvalFitOptions, Sample};
use anyhow::Result;
use okapi_core::board::Board;
use okapi_core::eval::features::FeatureEval;
use okapi_core::eval::patterns::PatternSet;
use okapi_core::eval::terms;
use okapi_core::eval::weights::WeightFile;
use okapi_core::eval::{EvalState, Evaluator, SCALE};
use okapi_core::formats::records::GameRecord;
use okapi_core::search::{EndgameSolver, SolveMode};
use std::fmt::Write as _;
use std::time::Instant;

/// Mean absolute error accumulator.
#[derive(Default, Clone, Copy)]
pub(super) struct Mae {
    pub(super) n: usize,
    pub(super) pattern: f64,
    pub(super) features: f64,
    pub(super) zero: f64,
}

impl Mae {
    pub(super) fn add(&mut self, label: f64, pattern: f64, features: f64) {
        self.n += 1;
        self.pattern += (pattern - label).abs();
        self.features += (features - label).abs();
        self.zero += label.abs();
    }
    pub(super) fn row(&self) -> String {
        let d = self.n.max(1) as f64;
        format!(
            "{} | {:.2} | {:.2} | {:.2}",
            self.n,
            self.pattern / d,
            self.features / d,
            self.zero / d
        )
    }
}

/// Held-out errors of the written weights and of the feature baseline.
pub(super) struct HeldOutErrors {
    pub(super) by_phase: Vec<Mae>,
    pub(super) theoretical: Mae,
    pub(super) solved: Mae,
    pub(super) solve_time: std::time::Duration,
}

pub(super) fn measure_held_out(
    args: &EvalFitOptions,
    phases: usize,
    eval: &Evaluator,
    feature_eval: &FeatureEval,
    held: &HeldOut,
) -> Result<HeldOutErrors> {
    let mut by_phase = vec![Mae::default(); phases];
    for s in &held.held {
        let e = s.board.empty_count();
        let pe = eval.evaluate(&s.board) as f64 / SCALE as f64;
        let fe = feature_eval.evaluate(s.board.player, s.board.opponent);
        by_phase[eval.phase(e)].add(s.label as f64, pe, fe);
    }
    let mut th_mae = Mae::default();
    for s in &held.theoretical {
        let pe = eval.evaluate(&s.board) as f64 / SCALE as f64;
        th_mae.add(
            s.label as f64,
            pe,
            feature_eval.evaluate(s.board.player, s.board.opponent),
        );
    }
    // Exact solves of held-out positions.
    let solve_pool: Vec<&Sample> = held
        .held
        .iter()
        .filter(|s| s.board.empty_count() == args.solve_empties)
        .collect();
    let stride = (solve_pool.len() / args.solve.max(1)).max(1);
    // The fitted weights order the solver's moves (an exact score does not depend on
    // them): the shipped ones may not load in a build whose terms changed, and the report
    // of a candidate evaluation must not stop on them.
    let mut solver = EndgameSolver::new(21, Some(std::sync::Arc::new(eval.clone())));
    let mut solved = Mae::default();
    let solve_start = Instant::now();
    for s in solve_pool.iter().step_by(stride).take(args.solve) {
        let exact = solver
            .solve(s.board, SolveMode::Exact, false)
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .score;
        let pe = eval.evaluate(&s.board) as f64 / SCALE as f64;
        solved.add(
            exact as f64,
            pe,
            feature_eval.evaluate(s.board.player, s.board.opponent),
        );
    }
    let solve_time = solve_start.elapsed();
    Ok(HeldOutErrors {
        by_phase,
        theoretical: th_mae,
        solved,
        solve_time,
    })
}

/// The report's held-out error tables.
pub(super) fn report_held_out(
    args: &EvalFitOptions,
    phases: usize,
    corpus: &Corpus,
    held: &HeldOut,
    errors: &HeldOutErrors,
    report: &mut String,
) {
    let _ = writeln!(report, "## Held-out error\n");
    let _ = writeln!(
        report,
        "Held-out games: WTHOR 2017-2018 and PGN 2024-2025 ({} games); {} positions, {} more skipped because \
         the same (symmetric) position occurs in training. Mean absolute error in discs; \"zero\" is the error of \
         always answering 0.\n",
        corpus.held_out.len(),
        held.held.len(),
        held.seen_in_training
    );
    let _ = writeln!(report, "### Against final results, by phase\n");
    let _ = writeln!(
        report,
        "| empties | positions | pattern eval | feature eval | zero |\n|---|---|---|---|---|"
    );
    let mut total = Mae::default();
    for (p, m) in errors.by_phase.iter().enumerate() {
        let (lo, hi) = (
            p as u32 * args.phase_width,
            ((p as u32 + 1) * args.phase_width - 1).min(60),
        );
        let hi = if p + 1 == phases { 60 } else { hi };
        let _ = writeln!(report, "| {lo}-{hi} | {} |", m.row());
        total.n += m.n;
        total.pattern += m.pattern;
        total.features += m.features;
        total.zero += m.zero;
    }
    let _ = writeln!(report, "| all | {} |\n", total.row());
    let _ = writeln!(report, "### Against exact scores\n");
    let _ = writeln!(
        report,
        "| target | positions | pattern eval | feature eval | zero |\n|---|---|---|---|---|"
    );
    let _ = writeln!(
        report,
        "| WTHOR theoretical score (22/24 empties, held-out years) | {} |",
        errors.theoretical.row()
    );
    let _ = writeln!(
        report,
        "| Okapi exact solve ({} empties, held-out games, {:.1?}) | {} |\n",
        args.solve_empties,
        errors.solve_time,
        errors.solved.row()
    );
}

/// The options as `okapi train eval` spells them, for the report.
pub(super) fn describe(args: &EvalFitOptions) -> String {
    let mut s = format!(
        "--data {} --out {} --labels {:?} --phase-width {} --window {} --epochs {} --step {} --momentum {} --l2 {} \
         --solve {} --solve-empties {}",
        args.data.display(),
        args.out.display(),
        args.labels,
        args.phase_width,
        args.window,
        args.epochs,
        args.step,
        args.momentum,
        args.l2,
        args.solve,
        args.solve_empties
    )
    .to_lowercase();
    let _ = write!(
        s,
        " --negamax-max-games {} --min-positions {}",
        args.negamax_max_games, args.min_positions
    );
    if let Some(n) = args.max_games {
        let _ = write!(s, " --max-games {n}");
    }
    for store in &args.selfplay {
        let _ = write!(s, " --selfplay {}", store.display());
    }
    if args.selfplay_weight > 1 {
        let _ = write!(s, " --selfplay-weight {}", args.selfplay_weight);
    }
    if !args.terms {
        s.push_str(" --no-terms");
    }
    if args.fit_empties != (0, 60) {
        let _ = write!(
            s,
            " --fit-empties {}-{}",
            args.fit_empties.0, args.fit_empties.1
        );
    }
    if let Some(base) = &args.base {
        let _ = write!(s, " --base {}", base.display());
    }
    if !args.label_files.is_empty() {
        s.push_str(" --label-files");
        for f in &args.label_files {
            let _ = write!(s, " {}", f.display());
        }
        let _ = write!(
            s,
            " --label-empties {}-{}",
            args.label_empties.0, args.label_empties.1
        );
        if args.labelled_games_only {
            s.push_str(" --labelled-games-only");
        }
        if args.search.depth == 0 && args.search.blend < 1.0 {
            let _ = write!(s, " --search-blend {}", args.search.blend);
        }
    }
    let search = &args.search;
    if search.depth > 0 {
        let _ = write!(
            s,
            " --search-depth {} --search-empties {}-{} --search-exact {} --search-blend {}",
            search.depth, search.empties.0, search.empties.1, search.exact_empties, search.blend
        );
        if let Some(w) = &search.weights {
            let _ = write!(s, " --search-weights {}", w.display());
        }
        if let Some(c) = &search.cache {
            let _ = write!(s, " --search-cache {}", c.display());
        }
    }
    s
}

/// Evaluations per second: from scratch on boards, and incrementally along games
/// (make move, evaluate, undo, redo: what a search does at each node).
pub fn measure_speed(eval: &Evaluator, boards: &[Board], games: &[GameRecord]) -> String {
    let reps = (2_000_000 / boards.len().max(1)).max(1);
    let t = Instant::now();
    let mut acc = 0i64;
    for _ in 0..reps {
        for b in boards {
            acc += eval.evaluate(std::hint::black_box(b)) as i64;
        }
    }
    let scratch = (reps * boards.len()) as f64 / t.elapsed().as_secs_f64();

    // Moves of the games as (square, flipped), with passes (None).
    type Line = (Board, Vec<Option<(u32, u64)>>);
    let mut lines: Vec<Line> = Vec::new();
    for g in games.iter().take(5000) {
        let mut b = Board::START;
        let mut line = Vec::new();
        for sq in &g.moves {
            if b.moves() == 0 {
                line.push(None);
                b = b.passed();
            }
            let f = b.flips(sq.index());
            line.push(Some((sq.index(), f)));
            b = b.after(sq.index(), f);
        }
        lines.push((Board::START, line));
    }
    let nodes: usize = lines.iter().map(|(_, l)| l.len()).sum();
    let reps = (2_000_000 / nodes.max(1)).max(1);
    let t = Instant::now();
    for _ in 0..reps {
        for (start, line) in &lines {
            let mut st = EvalState::new(start);
            for mv in line {
                match *mv {
                    Some((sq, f)) => {
                        st.make_move(sq, f);
                        acc += eval.evaluate_state(std::hint::black_box(&st)) as i64;
                        st.undo_move(sq, f);
                        st.make_move(sq, f);
                    }
                    None => st.pass(),
                }
            }
        }
    }
    let incremental = (reps * nodes) as f64 / t.elapsed().as_secs_f64();
    let t = Instant::now();
    for _ in 0..reps {
        for (start, line) in &lines {
            let mut b = *start;
            for mv in line {
                match *mv {
                    Some((sq, f)) => {
                        b = b.after(sq, f);
                        acc += eval.evaluate(std::hint::black_box(&b)) as i64;
                    }
                    None => b = b.passed(),
                }
            }
        }
    }
    let scratch_line = (reps * nodes) as f64 / t.elapsed().as_secs_f64();
    std::hint::black_box(acc);
    format!(
        "- from scratch (`Evaluator::evaluate`, held-out boards): {:.2} M evaluations/s\n\
         - from scratch along game lines (play + evaluate): {:.2} M/s\n\
         - incremental along game lines (`make_move` + `evaluate_state` + `undo_move` + `make_move`): {:.2} M/s\n",
        scratch / 1e6,
        scratch_line / 1e6,
        incremental / 1e6
    )
}

/// The fitted count terms' tables, in discs: the mobility table (to move by opponent)
/// for a few phases, the others for every fourth phase, by count.
pub(super) fn terms_tables(file: &WeightFile) -> String {
    let start = PatternSet::get().weights_per_phase;
    let n = file.weights_per_phase as usize;
    let phase_terms = |p: usize| &file.weights[p * n + start..(p + 1) * n];
    let disc = |w: i16| format!("{:.2}", w as f64 / SCALE as f64);
    let mut out = String::from("\n## Count terms (discs; fitted jointly with the patterns)\n");
    let mob = terms::MOBILITY_CAP as usize + 1;
    let counts = [0usize, 1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32];
    let shown: Vec<usize> = counts.iter().copied().filter(|&c| c < mob).collect();
    let heads: Vec<String> = shown.iter().map(|c| c.to_string()).collect();
    for p in [5usize, 10, 15, 20, 25] {
        if p >= file.phases as usize {
            continue;
        }
        let _ = writeln!(
            out,
            "\n### {}, phase {p}: rows the side to move's moves, columns the opponent's\n\n| moves | {} |\n|---{}|",
            terms::TERM_NAMES[0],
            heads.join(" | "),
            "|---".repeat(shown.len())
        );
        for &own in &shown {
            let cells: Vec<String> = shown
                .iter()
                .map(|&other| disc(phase_terms(p)[terms::OFFSETS[0] + own * mob + other]))
                .collect();
            let _ = writeln!(out, "| {own} | {} |", cells.join(" | "));
        }
    }
    // The count terms after mobility, then the board terms if the file has them.
    let mut tables: Vec<(&str, usize, usize)> = (1..terms::NUM_TERMS)
        .map(|t| {
            let end = terms::OFFSETS.get(t + 1).copied().unwrap_or(terms::WEIGHTS);
            (terms::TERM_NAMES[t], terms::OFFSETS[t], end)
        })
        .collect();
    if n - start == terms::WEIGHTS + terms::BOARD_WEIGHTS {
        tables.extend((0..terms::NUM_BOARD_TERMS).map(|t| {
            let end = terms::BOARD_OFFSETS
                .get(t + 1)
                .copied()
                .unwrap_or(terms::WEIGHTS + terms::BOARD_WEIGHTS);
            (terms::BOARD_TERM_NAMES[t], terms::BOARD_OFFSETS[t], end)
        }));
    }
    let counts = [
        0usize, 1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 56, 64,
    ];
    for (name, offset, end) in tables {
        let cols: Vec<usize> = counts
            .iter()
            .copied()
            .filter(|&c| offset + c < end)
            .collect();
        let heads: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(
            out,
            "\n### {name}\n\n| phase | {} |\n|---{}|",
            heads.join(" | "),
            "|---".repeat(cols.len())
        );
        for p in (0..file.phases as usize).step_by(4) {
            let cells: Vec<String> = cols
                .iter()
                .map(|&c| disc(phase_terms(p)[offset + c]))
                .collect();
            let _ = writeln!(out, "| {p} | {} |", cells.join(" | "));
        }
    }
    out
}

/// The held-out error against the label files' search values, by phase.
pub(super) fn report_against_labels(
    args: &EvalFitOptions,
    phases: usize,
    eval: &Evaluator,
    feature_eval: &FeatureEval,
    samples: &[Sample],
    labellings: &[crate::label_files::Labelling],
    report: &mut String,
) {
    let mut by_phase = vec![Mae::default(); phases];
    let mut total = Mae::default();
    for s in samples {
        let pe = eval.evaluate(&s.board) as f64 / SCALE as f64;
        let fe = feature_eval.evaluate(s.board.player, s.board.opponent);
        by_phase[eval.phase(s.board.empty_count())].add(s.label as f64, pe, fe);
        total.add(s.label as f64, pe, fe);
    }
    let _ = writeln!(
        report,
        "### Against the search labels, by phase\n\nThe held-out positions not seen in training that the label files value \
         ({}): mean absolute error in discs.\n",
        labellings
            .iter()
            .map(|l| {
                let s = &l.search;
                format!(
                    "depth {}, exact from {} empties, at {}-{} empties",
                    s.depth, s.exact_empties, s.empties.0, s.empties.1
                )
            })
            .collect::<Vec<_>>()
            .join("; laid over by ")
    );
    let _ = writeln!(
        report,
        "| empties | positions | pattern eval | feature eval | zero |\n|---|---|---|---|---|"
    );
    for (p, m) in by_phase.iter().enumerate() {
        if m.n == 0 {
            continue;
        }
        let lo = p as u32 * args.phase_width;
        let hi = if p + 1 == phases {
            60
        } else {
            ((p as u32 + 1) * args.phase_width - 1).min(60)
        };
        let _ = writeln!(report, "| {lo}-{hi} | {} |", m.row());
    }
    let _ = writeln!(report, "| all | {} |\n", total.row());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables read each weight where the evaluator does: a weight file whose terms
    /// are numbered 0, 1, 2… shows each table's first entry at its term's offset.
    #[test]
    fn terms_tables_read_the_terms_where_the_evaluator_does() {
        let patterns = PatternSet::get().weights_per_phase;
        let n = patterns + terms::WEIGHTS;
        let phases = 30;
        let mut weights = vec![0i16; phases * n];
        for p in 0..phases {
            for i in 0..terms::WEIGHTS {
                weights[p * n + patterns + i] = i as i16;
            }
        }
        let file = WeightFile {
            phases: phases as u16,
            phase_width: 2,
            weights_per_phase: n as u32,
            bias: vec![0; phases],
            weights,
        };
        let text = terms_tables(&file);
        let mob = terms::MOBILITY_CAP as usize + 1;
        // Row "1" of the mobility table starts at index 1 * mob (opponent count 0).
        let disc = |i: usize| format!("{:.2}", i as f64 / SCALE as f64);
        assert!(text.contains(&format!("| 1 | {} |", disc(mob))), "{text}");
        for (t, name) in terms::TERM_NAMES.iter().enumerate().skip(1) {
            assert!(text.contains(name));
            assert!(
                text.contains(&format!("| 0 | {} |", disc(terms::OFFSETS[t]))),
                "{name}: {text}"
            );
        }
    }
}
