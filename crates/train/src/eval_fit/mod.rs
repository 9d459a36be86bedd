//! Fits the pattern weights shipped in `coeffs/` from public game records (what
//! `okapi train eval` runs; its options, progress and printing are in `cli::train`).
//!
//! 1. Reads the WTHOR database (`.wtb` 1977–2018 and PGN 2019–2025) and Logistello's book
//!    games, replaying every game legally; corrupt games are skipped and counted.
//! 2. Holds out whole games — WTHOR 2017–2018 and PGN 2024–2025 — for measurement only.
//! 3. Labels every position of the training games, deduplicated by the symmetry-canonical
//!    board: either by the final result of the games through it (mean), or — the default
//!    — by negamax over the tree of all training games (a position's value is the best
//!    of its recorded continuations, the leaves being final results), WTHOR's perfect-play
//!    score overriding both at its theoretical depth.
//! 4. Fits one weight set per phase by regularised least squares (preconditioned
//!    gradient descent with momentum: each weight moves by its mean residual), each phase
//!    on the positions within `--window` empties of it, which smooths neighbouring phases.
//! 5. Fits the classic feature evaluation ([`okapi_core::eval::features`]) on the same data,
//!    then reports both evaluations' mean absolute error on held-out positions by phase,
//!    against final results, WTHOR's theoretical scores and Okapi's own exact solves.
//!
//! [`run`] writes the weight file and the report file and returns the report; the steps
//! it is at go to a `progress` callback as lines of text.

mod corpus;
mod report;

pub use report::measure_speed;

use crate::search_labels::{self, SearchLabelOptions};
use anyhow::{Context, Result};
use corpus::{GameTree, HeldOut, load_corpus};
use okapi_core::board::Board;
use okapi_core::eval::features::{self, FeatureEval, NUM_FEATURES};
use okapi_core::eval::patterns::{NUM_INSTANCES, PatternSet};
use okapi_core::eval::terms;
use okapi_core::eval::weights::WeightFile;
use okapi_core::eval::{Evaluator, SCALE};
use report::{describe, measure_held_out, report_held_out};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

/// How training positions are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// Mean final result of the games through the position.
    Final,
    /// Negamax over the tree of training games.
    Negamax,
}

/// The settings of a fit (`okapi train eval` documents each and holds the defaults).
#[derive(Debug, Clone)]
pub struct EvalFitOptions {
    /// Folder holding wthor/WTH_*.wtb, wthor/pgn/WTH_*.pgn and logistello/logbook.gam.gz.
    pub data: PathBuf,
    /// Weight file to write.
    pub out: PathBuf,
    /// Training report to write (markdown).
    pub report: PathBuf,
    pub labels: Labels,
    /// Empty squares per phase.
    pub phase_width: u32,
    /// Each phase also trains on positions up to this many empties outside it.
    pub window: u32,
    /// Passes over the data per phase.
    pub epochs: usize,
    /// Step size (fraction of the mean residual a weight moves by per pass).
    pub step: f32,
    /// Momentum of the updates.
    pub momentum: f32,
    /// L2 regularisation, in pseudo-observations of value 0 per weight.
    pub l2: f32,
    /// Held-out positions to solve exactly with Okapi's endgame solver.
    pub solve: usize,
    /// Empty squares of the positions solved exactly.
    pub solve_empties: u32,
    /// Read at most this many games per file (quick runs).
    pub max_games: Option<usize>,
    /// Negamax labels: positions reached by at least this many games keep the mean of
    /// their results.
    pub negamax_max_games: u32,
    /// Phases with fewer training positions than this widen their window.
    pub min_positions: usize,
    /// Self-play stores ([`crate::selfplay`]) whose labelled positions are added
    /// to the training positions.
    pub selfplay: Vec<PathBuf>,
    /// Each self-play position counts as this many game-record positions (at least 1):
    /// they are few beside the game records, and they are the positions engines reach.
    pub selfplay_weight: u32,
    /// Training positions relabelled by Okapi's own search ([`search_labels`]).
    pub search: SearchLabelOptions,
    /// Label files of the record source (`okapi train label`): their search values
    /// replace the game labels of the training positions they label (blended by
    /// `search.blend`), and the held-out positions they label are measured against them.
    pub label_files: Vec<PathBuf>,
    /// Only the labels of positions with this many empties are used.
    pub label_empties: (u32, u32),
    /// Train only on the games the label files label (to compare game and search
    /// labels on the same games).
    pub labelled_games_only: bool,
    /// Fit the count terms ([`okapi_core::eval::terms`]: mobility, potential mobility,
    /// parity) jointly with the patterns (`--no-terms`: patterns alone, as before).
    pub terms: bool,
    /// Fit the board terms too (the side to move's disc count, each side's stable discs;
    /// [`okapi_core::eval::terms::board_indices`]); only with `terms`.
    pub board_terms: bool,
    /// Only the phases whose empties all lie in this range (LO-HI) are fitted; the others
    /// keep `base`'s weights (the refit from the end fits a band of phases at a time).
    pub fit_empties: (u32, u32),
    /// The weight file the phases outside `fit_empties` are taken from (the same phases,
    /// width and terms as this fit).
    pub base: Option<PathBuf>,
}

/// What a fit produced: the report it wrote (markdown).
#[derive(Debug, Clone)]
pub struct EvalFitReport {
    pub markdown: String,
}

/// A labelled position for training or measurement.
#[derive(Clone, Copy, Debug)]
struct Sample {
    board: Board,
    /// Side to move's final disc difference (or exact score).
    label: f32,
}

/// Fits one phase: returns the bias and the weights (canonical indices expanded).
fn fit_phase(
    samples: &[&Sample],
    args: &EvalFitOptions,
    log: &mut String,
    phase: &str,
) -> (f32, Vec<f32>) {
    let set = PatternSet::get();
    let n_w = weights_per_phase(args);
    // Each sample's weights: one per pattern instance, then one per count term (jointly
    // fitted: the terms' tables follow the pattern weights).
    let per_sample = NUM_INSTANCES + fitted_terms(args).0;
    // Global canonical parameter index of each instance's index.
    let offsets: Vec<usize> = (0..NUM_INSTANCES).map(|k| set.offset_of(k)).collect();
    let pats: Vec<usize> = set.instances.iter().map(|i| i.pattern).collect();
    let mut feats = vec![0u32; samples.len() * per_sample];
    let mut counts = vec![0f32; n_w];
    for (s, sample) in samples.iter().enumerate() {
        let (p, o) = (sample.board.player, sample.board.opponent);
        let idx = set.indices(p, o);
        let row = &mut feats[s * per_sample..(s + 1) * per_sample];
        for k in 0..NUM_INSTANCES {
            row[k] =
                (offsets[k] + set.patterns[pats[k]].canonical[idx[k] as usize] as usize) as u32;
        }
        if args.terms {
            for (t, i) in terms::indices(p, o, sample.board.empty_count())
                .into_iter()
                .enumerate()
            {
                row[NUM_INSTANCES + t] = (set.weights_per_phase + i) as u32;
            }
            if args.board_terms {
                for (t, i) in terms::board_indices(p, o).into_iter().enumerate() {
                    row[NUM_INSTANCES + terms::NUM_TERMS + t] = (set.weights_per_phase + i) as u32;
                }
            }
        }
        for &f in row.iter() {
            counts[f as usize] += 1.0;
        }
    }
    let n = samples.len().max(1) as f32;
    let mut bias = samples.iter().map(|s| s.label).sum::<f32>() / n;
    let mut w = vec![0f32; n_w];
    let mut vel = vec![0f32; n_w];
    let mut grad = vec![0f32; n_w];
    let mut bias_vel = 0f32;
    let mut last_mse = 0.0;
    for _epoch in 0..args.epochs {
        grad.fill(0.0);
        let mut g_bias = 0f64;
        let mut sse = 0f64;
        for (s, sample) in samples.iter().enumerate() {
            let f = &feats[s * per_sample..(s + 1) * per_sample];
            let mut pred = bias;
            for &j in f {
                pred += w[j as usize];
            }
            let err = pred - sample.label;
            sse += (err * err) as f64;
            g_bias += err as f64;
            for &j in f {
                grad[j as usize] += err;
            }
        }
        last_mse = sse / n as f64;
        for j in 0..n_w {
            if counts[j] == 0.0 {
                continue;
            }
            let step = (grad[j] + args.l2 * w[j]) / (counts[j] + args.l2);
            vel[j] = args.momentum * vel[j] - args.step * step;
            w[j] += vel[j];
        }
        bias_vel = args.momentum * bias_vel - args.step * (g_bias as f32 / n);
        bias += bias_vel;
    }
    let _ = writeln!(
        log,
        "| {phase} | {} | {:.2} |",
        samples.len(),
        last_mse.sqrt()
    );
    // Expand canonical weights to every index (the terms' are their own).
    let mut full = w.clone();
    for p in &set.patterns {
        for i in 0..p.size {
            full[p.offset + i] = w[p.offset + p.canonical[i] as usize];
        }
    }
    (bias, full)
}

fn quantise(x: f32) -> i16 {
    (x * SCALE as f32)
        .round()
        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// Fits the weights, writes them to `args.out` and the report to `args.report`, and
/// returns the report. Each step is announced to `progress` as a line of text.
pub fn run(args: &EvalFitOptions, progress: &mut dyn FnMut(&str)) -> Result<EvalFitReport> {
    let start = Instant::now();
    anyhow::ensure!(
        args.phase_width >= 1 && args.phase_width <= 61,
        "--phase-width must be 1..=61"
    );
    let phases = 60 / args.phase_width as usize + usize::from(60 % args.phase_width != 0);
    let base = read_base(args, phases)?;
    let mut report = String::new();
    let _ = writeln!(report, "# Okapi evaluation training report\n");
    let _ = writeln!(report, "Command: `okapi train eval {}`\n", describe(args));
    progress(&format!(
        "reading game records from {}",
        args.data.display()
    ));
    let mut corpus = load_corpus(args)?;
    let label_set = if args.label_files.is_empty() {
        None
    } else {
        progress("reading the label files");
        let source = crate::label_files::Source::records(&args.data)?;
        let set = crate::label_files::read_label_set(&args.label_files, &source)?;
        if args.labelled_games_only {
            let keep: Vec<bool> = corpus
                .train_ids
                .iter()
                .map(|&id| set.games[id as usize].is_some())
                .collect();
            let mut it = keep.iter();
            corpus.train.retain(|_| *it.next().expect("one a game"));
            let mut it = keep.iter();
            corpus.train_ids.retain(|_| *it.next().expect("one a game"));
            let _ = writeln!(
                corpus.log,
                "- trained on the {} training games the label files label",
                corpus.train.len()
            );
        }
        Some(set)
    };
    let _ = writeln!(report, "## Data\n\n{}", corpus.log);
    progress(corpus.log.trim_end_matches('\n'));

    progress(&format!(
        "building the game tree of {} training games",
        corpus.train.len()
    ));
    let tree = GameTree::build(&corpus.train);
    let mut labels = match args.labels {
        Labels::Final => tree.mean_labels(),
        Labels::Negamax => tree.negamax_labels(args.negamax_max_games),
    };
    if args.search.depth > 0 {
        apply_search_labels(args, &tree, &mut labels, &mut report, progress)?;
    }
    if let Some(set) = &label_set {
        apply_label_files(args, &corpus, &tree, set, &mut labels, &mut report);
    }
    let exact_nodes = tree.exact.iter().filter(|&&e| e != i8::MIN).count();
    let _ = writeln!(
        report,
        "{} distinct training positions (symmetry-canonical), {} with an exact score; labels: {:?}.\n",
        tree.boards.len(),
        exact_nodes,
        args.labels
    );
    let by_empties = training_samples(args, &tree, &labels, &mut report, progress)?;
    let held = HeldOut::collect(&corpus, &tree);

    progress(&format!("fitting {phases} phases"));
    let fit = fit_patterns(args, phases, &by_empties, base.as_ref(), progress);
    progress("fitting the feature baseline");
    let feature_eval = fit_feature_baseline(args, phases, &by_empties);

    // Write and reload the real file, and measure what ships.
    let bytes = fit.file.to_bytes();
    if let Some(dir) = args.out.parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    okapi_core::formats::write_atomic(&args.out, &bytes)
        .with_context(|| format!("writing {}", args.out.display()))?;
    let load_start = Instant::now();
    let eval = Evaluator::load(&args.out)?;
    let load_time = load_start.elapsed();

    let errors = measure_held_out(args, phases, &eval, &feature_eval, &held)?;
    report_held_out(args, phases, &corpus, &held, &errors, &mut report);
    if let Some(set) = &label_set {
        let searched = held_out_searched(args, &corpus, &tree, set);
        report::report_against_labels(
            args,
            phases,
            &eval,
            &feature_eval,
            &searched,
            &set.labellings,
            &mut report,
        );
    }

    // Speed of the shipped evaluator.
    let boards: Vec<Board> = held.held.iter().map(|s| s.board).collect();
    let speed = measure_speed(&eval, &boards, &corpus.held_out);
    let _ = writeln!(report, "## Evaluation speed (one core)\n\n{speed}");
    let _ = writeln!(
        report,
        "## Weight file\n\n`{}`: {} bytes, {phases} phases of {} empties, {} weights per phase; loads in {:.1?}.\n",
        args.out.display(),
        bytes.len(),
        args.phase_width,
        weights_per_phase(args),
        load_time
    );
    let _ = writeln!(
        report,
        "## Fit\n\nFitting took {:.1?}.\n\n{}",
        fit.time, fit.log
    );
    let _ = writeln!(
        report,
        "## Feature baseline weights (per phase)\n\n| phase | {} |",
        features::FEATURE_NAMES.join(" | ")
    );
    let _ = writeln!(report, "|---{}|", "|---".repeat(NUM_FEATURES));
    for (p, w) in feature_eval.weights.iter().enumerate() {
        let cells: Vec<String> = w.iter().map(|x| format!("{x:.2}")).collect();
        let _ = writeln!(report, "| {p} | {} |", cells.join(" | "));
    }
    if args.terms {
        report.push_str(&report::terms_tables(&fit.file));
    }
    let _ = writeln!(report, "\nTotal run time {:.1?}.", start.elapsed());
    okapi_core::formats::write_atomic(&args.report, report.as_bytes())
        .with_context(|| format!("writing {}", args.report.display()))?;
    Ok(EvalFitReport { markdown: report })
}

/// Relabels the training positions without an exact score in `--search-empties` by
/// Okapi's own search ([`search_labels`]), blended with their game labels.
fn apply_search_labels(
    args: &EvalFitOptions,
    tree: &GameTree,
    labels: &mut [f32],
    report: &mut String,
    progress: &mut dyn FnMut(&str),
) -> Result<()> {
    let (lo, hi) = args.search.empties;
    let chosen: Vec<usize> = (0..tree.boards.len())
        .filter(|&i| tree.exact[i] == i8::MIN && (lo..=hi).contains(&tree.boards[i].empty_count()))
        .collect();
    let boards: Vec<Board> = chosen.iter().map(|&i| tree.boards[i]).collect();
    // The shipped weights as the endgame solvers already hold them (decompressed once).
    let searcher = match &args.search.weights {
        Some(path) => std::sync::Arc::new(Evaluator::load(path)?),
        None => Evaluator::shipped(),
    };
    let started = Instant::now();
    let values = search_labels::label(&boards, &searcher, &args.search, progress)?;
    let blend = args.search.blend.clamp(0.0, 1.0);
    let mut gap = 0f64;
    for (&i, &v) in chosen.iter().zip(&values) {
        let v = search_labels::discs(v);
        gap += (v - labels[i]).abs() as f64;
        labels[i] = (1.0 - blend) * labels[i] + blend * v;
    }
    let _ = writeln!(
        report,
        "Search labels: {} positions of {lo}-{hi} empties without an exact score searched to depth {} \
         (exact from {} empties) by {}, {:.1?}; mean gap to their game labels {:.2} discs; label = \
         {blend} x search + {} x game.\n",
        chosen.len(),
        args.search.depth,
        args.search.exact_empties,
        args.search
            .weights
            .as_ref()
            .map_or("the shipped evaluation".to_string(), |p| p
                .display()
                .to_string()),
        started.elapsed(),
        gap / chosen.len().max(1) as f64,
        1.0 - blend
    );
    Ok(())
}

/// Replaces the game labels of the training positions the label files label (within
/// `--label-empties`, exact scores kept) by their search values, blended.
fn apply_label_files(
    args: &EvalFitOptions,
    corpus: &corpus::Corpus,
    tree: &GameTree,
    set: &crate::label_files::LabelSet,
    labels: &mut [f32],
    report: &mut String,
) {
    let (lo, hi) = args.label_empties;
    let blend = args.search.blend.clamp(0.0, 1.0);
    let mut done = vec![false; tree.boards.len()];
    let (mut relabelled, mut gap, mut games) = (0usize, 0f64, 0usize);
    for (game, &id) in corpus.train.iter().zip(&corpus.train_ids) {
        let Some(values) = &set.games[id as usize] else {
            continue;
        };
        games += 1;
        for (p, &v) in game.positions().iter().zip(values) {
            if v == crate::label_files::UNLABELLED || !(lo..=hi).contains(&p.board.empty_count()) {
                continue;
            }
            let c = corpus::canonical(&p.board);
            let node = tree.ids[&(c.player, c.opponent)] as usize;
            if done[node] || tree.exact[node] != i8::MIN {
                continue;
            }
            done[node] = true;
            relabelled += 1;
            gap += (v as f32 - labels[node]).abs() as f64;
            labels[node] = (1.0 - blend) * labels[node] + blend * v as f32;
        }
    }
    let labellings: Vec<String> = set
        .labellings
        .iter()
        .map(|l| format!("({})", l.describe()))
        .collect();
    let _ = writeln!(
        report,
        "Label files: {} in {} labelling(s), each laid over the ones before it: {}; {games} of {} training games labelled; \
         {relabelled} training positions of {lo}-{hi} empties relabelled, mean gap to their game labels {:.2} discs; \
         label = {blend} x search + {} x game.\n",
        args.label_files.len(),
        labellings.len(),
        labellings.join(", "),
        corpus.train.len(),
        gap / relabelled.max(1) as f64,
        1.0 - blend
    );
}

/// The held-out positions not seen in training that the label files label, with their
/// search values.
fn held_out_searched(
    args: &EvalFitOptions,
    corpus: &corpus::Corpus,
    tree: &GameTree,
    set: &crate::label_files::LabelSet,
) -> Vec<Sample> {
    let (lo, hi) = args.label_empties;
    let mut out = Vec::new();
    for (game, &id) in corpus.held_out.iter().zip(&corpus.held_ids) {
        let Some(values) = &set.games[id as usize] else {
            continue;
        };
        for (p, &v) in game.positions().iter().zip(values) {
            let c = corpus::canonical(&p.board);
            if v != crate::label_files::UNLABELLED
                && (lo..=hi).contains(&p.board.empty_count())
                && !tree.ids.contains_key(&(c.player, c.opponent))
            {
                out.push(Sample {
                    board: p.board,
                    label: v as f32,
                });
            }
        }
    }
    out
}

/// The training samples by empties: the game tree's positions with their labels, and the
/// self-play stores' labelled positions.
fn training_samples(
    args: &EvalFitOptions,
    tree: &GameTree,
    labels: &[f32],
    report: &mut String,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<Vec<Sample>>> {
    let mut by_empties: Vec<Vec<Sample>> = vec![Vec::new(); 61];
    for (i, b) in tree.boards.iter().enumerate() {
        by_empties[b.empty_count() as usize].push(Sample {
            board: *b,
            label: labels[i],
        });
    }
    for store in &args.selfplay {
        let samples = crate::selfplay::read_samples(store)?;
        let exact = samples.iter().filter(|s| s.label.is_exact()).count();
        let _ = writeln!(
            report,
            "Self-play store `{}`: {} positions, {exact} of them with exact labels.\n",
            store.display(),
            samples.len()
        );
        progress(&format!(
            "{}: {} self-play positions",
            store.display(),
            samples.len()
        ));
        for s in samples {
            let sample = Sample {
                board: s.board,
                label: s.label.value as f32 / SCALE as f32,
            };
            let list = &mut by_empties[s.board.empty_count() as usize];
            list.extend(std::iter::repeat_n(
                sample,
                args.selfplay_weight.max(1) as usize,
            ));
        }
    }
    Ok(by_empties)
}

/// Empties `lo..=hi` phase `p` is trained on: its own plus `--window` on each side.
fn phase_window(args: &EvalFitOptions, phases: usize, p: usize) -> (usize, usize) {
    let lo = (p as u32 * args.phase_width).saturating_sub(args.window);
    let hi = if p + 1 == phases {
        60
    } else {
        ((p as u32 + 1) * args.phase_width - 1 + args.window).min(60)
    };
    (lo as usize, hi as usize)
}

/// Weights per phase of the fit: the patterns', then the count terms' unless
/// `--no-terms`, then the board terms' with `--board-terms`.
fn weights_per_phase(args: &EvalFitOptions) -> usize {
    PatternSet::get().weights_per_phase + fitted_terms(args).1
}

/// The terms a fit adds to the patterns: (how many a sample has, their weights a phase).
/// The board terms come only with the count terms (they follow them in a phase).
fn fitted_terms(args: &EvalFitOptions) -> (usize, usize) {
    match (args.terms, args.board_terms) {
        (false, _) => (0, 0),
        (true, false) => (terms::NUM_TERMS, terms::WEIGHTS),
        (true, true) => (
            terms::NUM_TERMS + terms::NUM_BOARD_TERMS,
            terms::WEIGHTS + terms::BOARD_WEIGHTS,
        ),
    }
}

/// The pattern weights, phase by phase.
struct PatternFit {
    file: WeightFile,
    /// The fit's table for the report.
    log: String,
    time: std::time::Duration,
}

fn fit_patterns(
    args: &EvalFitOptions,
    phases: usize,
    by_empties: &[Vec<Sample>],
    base: Option<&WeightFile>,
    progress: &mut dyn FnMut(&str),
) -> PatternFit {
    let n_w = weights_per_phase(args);
    let mut file = WeightFile {
        phases: phases as u16,
        phase_width: args.phase_width as u16,
        weights_per_phase: n_w as u32,
        bias: vec![0; phases],
        weights: vec![0; phases * n_w],
    };
    let mut fit_log = String::from(
        "| phase | trained on empties | training positions | training RMSE (discs) |\n|---|---|---|---|\n",
    );
    let fit_start = Instant::now();
    for p in 0..phases {
        if !fitted_phase(args, phases, p) {
            let base = base.expect("read_base requires a base for a partial fit");
            file.bias[p] = base.bias[p];
            file.weights[p * n_w..(p + 1) * n_w]
                .copy_from_slice(&base.weights[p * n_w..(p + 1) * n_w]);
            let _ = writeln!(fit_log, "| {p} | kept from the base | | |");
            continue;
        }
        let (mut lo, mut hi) = phase_window(args, phases, p);
        let count = |lo: usize, hi: usize| by_empties[lo..=hi].iter().map(Vec::len).sum::<usize>();
        while count(lo, hi) < args.min_positions && (lo > 0 || hi < 60) {
            lo = lo.saturating_sub(1);
            hi = (hi + 1).min(60);
        }
        let samples: Vec<&Sample> = by_empties[lo..=hi].iter().flatten().collect();
        let (bias, w) = fit_phase(&samples, args, &mut fit_log, &format!("{p} | {lo}-{hi}"));
        file.bias[p] = quantise(bias);
        for (dst, &x) in file.weights[p * n_w..(p + 1) * n_w].iter_mut().zip(&w) {
            *dst = quantise(x);
        }
        progress(&format!(
            "phase {p}: {} positions, {:.0?} so far",
            samples.len(),
            fit_start.elapsed()
        ));
    }
    PatternFit {
        file,
        log: fit_log,
        time: fit_start.elapsed(),
    }
}

/// The empties of phase `p` (its first and last).
fn phase_empties(args: &EvalFitOptions, phases: usize, p: usize) -> (u32, u32) {
    let lo = p as u32 * args.phase_width;
    let hi = if p + 1 == phases {
        60
    } else {
        ((p as u32 + 1) * args.phase_width - 1).min(60)
    };
    (lo, hi)
}

/// Whether phase `p` is fitted: all its empties lie in `--fit-empties`.
fn fitted_phase(args: &EvalFitOptions, phases: usize, p: usize) -> bool {
    let (lo, hi) = phase_empties(args, phases, p);
    args.fit_empties.0 <= lo && hi <= args.fit_empties.1
}

/// The base weights of a fit of some phases only (`--fit-empties`, `--base`): read and
/// checked against the fit's layout before any work, so a mismatch stops at once.
fn read_base(args: &EvalFitOptions, phases: usize) -> Result<Option<WeightFile>> {
    let (lo, hi) = args.fit_empties;
    anyhow::ensure!(lo <= hi, "--fit-empties {lo}-{hi} is no range");
    let fitted = (0..phases)
        .filter(|&p| fitted_phase(args, phases, p))
        .count();
    anyhow::ensure!(
        fitted > 0,
        "--fit-empties {lo}-{hi} holds no whole phase (phases of {} empties)",
        args.phase_width
    );
    let Some(path) = &args.base else {
        anyhow::ensure!(
            fitted == phases,
            "--fit-empties {lo}-{hi} fits {fitted} of the {phases} phases: give --base W.bin for the others"
        );
        return Ok(None);
    };
    let bytes = crate::selfplay::read_data_file(
        path,
        okapi_core::eval::MAX_WEIGHT_FILE,
        "a weight file is written by `okapi train eval`",
    )?;
    anyhow::ensure!(
        !bytes.is_empty(),
        "cannot read the base {}: no such file or an empty one",
        path.display()
    );
    let file =
        WeightFile::from_bytes(&bytes).with_context(|| format!("the base {}", path.display()))?;
    let n_w = weights_per_phase(args);
    anyhow::ensure!(
        file.phases as usize == phases
            && u32::from(file.phase_width) == args.phase_width
            && file.weights_per_phase as usize == n_w,
        "the base {} has {} phases of {} empties and {} weights a phase; this fit makes {phases} of {} and {n_w} (the same --phase-width and terms are needed)",
        path.display(),
        file.phases,
        file.phase_width,
        file.weights_per_phase,
        args.phase_width
    );
    Ok(Some(file))
}

/// The feature baseline: least squares per phase on the same windows.
fn fit_feature_baseline(
    args: &EvalFitOptions,
    phases: usize,
    by_empties: &[Vec<Sample>],
) -> FeatureEval {
    let mut xtx = vec![[[0f64; NUM_FEATURES]; NUM_FEATURES]; phases];
    let mut xty = vec![[0f64; NUM_FEATURES]; phases];
    for (e, bucket) in by_empties.iter().enumerate() {
        let in_phases: Vec<usize> = (0..phases)
            .filter(|&p| {
                (phase_window(args, phases, p).0..=phase_window(args, phases, p).1).contains(&e)
            })
            .collect();
        for s in bucket {
            let f = features::features(s.board.player, s.board.opponent);
            for &p in &in_phases {
                for i in 0..NUM_FEATURES {
                    xty[p][i] += f[i] * s.label as f64;
                    for j in 0..NUM_FEATURES {
                        xtx[p][i][j] += f[i] * f[j];
                    }
                }
            }
        }
    }
    FeatureEval {
        phase_width: args.phase_width,
        weights: (0..phases)
            .map(|p| features::solve_normal_equations(&xtx[p], &xty[p], 1e-3))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(fit_empties: (u32, u32), base: Option<PathBuf>) -> EvalFitOptions {
        EvalFitOptions {
            data: PathBuf::new(),
            out: PathBuf::new(),
            report: PathBuf::new(),
            labels: Labels::Negamax,
            phase_width: 2,
            window: 2,
            epochs: 3,
            step: 0.03,
            momentum: 0.9,
            l2: 10.0,
            solve: 0,
            solve_empties: 20,
            max_games: None,
            negamax_max_games: 8,
            min_positions: 1,
            selfplay: Vec::new(),
            selfplay_weight: 1,
            search: SearchLabelOptions::default(),
            label_files: Vec::new(),
            label_empties: (0, 60),
            labelled_games_only: false,
            terms: true,
            board_terms: false,
            fit_empties,
            base,
        }
    }

    /// The positions of a few fixed games, each labelled by its disc difference.
    fn by_empties() -> Vec<Vec<Sample>> {
        let mut by_empties: Vec<Vec<Sample>> = vec![Vec::new(); 61];
        for game in 0..12u32 {
            for board in crate::test_games::fixed_game(game) {
                by_empties[board.empty_count() as usize].push(Sample {
                    board,
                    label: (board.player.count_ones() as f32 - board.opponent.count_ones() as f32),
                });
            }
        }
        by_empties
    }

    /// A fit of the phases of 0-19 empties keeps the base's other phases bit for bit and
    /// fits its own as a whole fit does.
    #[test]
    fn a_fit_of_some_phases_keeps_the_others_from_the_base() {
        let samples = by_empties();
        let whole = fit_patterns(&options((0, 60), None), 30, &samples, None, &mut |_| {}).file;
        // A base of other values: the whole fit's weights plus one.
        let mut base = whole.clone();
        base.weights
            .iter_mut()
            .for_each(|w| *w = w.saturating_add(1));
        base.bias.iter_mut().for_each(|w| *w = w.saturating_add(1));
        let args = options((0, 19), Some(PathBuf::from("base.bin")));
        let part = fit_patterns(&args, 30, &samples, Some(&base), &mut |_| {}).file;
        let n = whole.weights_per_phase as usize;
        for p in 0..30 {
            let (from, to) = if p < 10 {
                (&whole, "fit")
            } else {
                (&base, "base")
            };
            assert_eq!(part.bias[p], from.bias[p], "phase {p}: the {to}'s bias");
            assert!(
                part.weights[p * n..(p + 1) * n] == from.weights[p * n..(p + 1) * n],
                "phase {p}: the {to}'s weights"
            );
        }
    }

    #[test]
    fn a_partial_fit_needs_a_base_of_the_same_layout() {
        let err = read_base(&options((0, 19), None), 30).unwrap_err();
        assert!(
            err.to_string()
                .contains("fits 10 of the 30 phases: give --base"),
            "{err}"
        );
        let err = read_base(&options((3, 4), None), 30).unwrap_err();
        assert!(err.to_string().contains("holds no whole phase"), "{err}");
        assert!(read_base(&options((0, 60), None), 30).unwrap().is_none());
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none.bin");
        let err = read_base(&options((0, 19), Some(missing)), 30).unwrap_err();
        assert!(err.to_string().contains("no such file"), "{err}");
        // A base without the count terms does not fit a fit with them.
        let path = dir.path().join("patterns.bin");
        let n = PatternSet::get().weights_per_phase;
        let file = WeightFile {
            phases: 30,
            phase_width: 2,
            weights_per_phase: n as u32,
            bias: vec![0; 30],
            weights: vec![0; 30 * n],
        };
        std::fs::write(&path, file.to_bytes()).unwrap();
        let err = read_base(&options((0, 19), Some(path.clone())), 30).unwrap_err();
        assert!(
            err.to_string().contains("the same --phase-width and terms"),
            "{err}"
        );
        let mut no_terms = options((0, 19), Some(path));
        no_terms.terms = false;
        assert_eq!(read_base(&no_terms, 30).unwrap().unwrap(), file);
    }
}
