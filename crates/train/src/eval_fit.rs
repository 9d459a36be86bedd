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

use crate::search_labels::{self, SearchLabelOptions};
use anyhow::{Context, Result};
use okapi_core::board::Board;
use okapi_core::board::symmetry::{Symmetry, transform};
use okapi_core::eval::features::{self, FeatureEval, NUM_FEATURES};
use okapi_core::eval::patterns::{NUM_INSTANCES, PatternSet};
use okapi_core::eval::weights::WeightFile;
use okapi_core::eval::{EvalState, Evaluator, SCALE};
use okapi_core::formats::records::{GamePosition, GameRecord, RecordSet, logbook, pgn, wthor};
use okapi_core::search::{EndgameSolver, SolveMode};
use std::collections::HashMap;
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
    /// Training positions relabelled by Okapi's own search ([`search_labels`]).
    pub search: SearchLabelOptions,
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

fn canonical(b: &Board) -> Board {
    let mut best = *b;
    for s in &Symmetry::ALL[1..] {
        let t = Board::new(transform(b.player, *s), transform(b.opponent, *s));
        if (t.player, t.opponent) < (best.player, best.opponent) {
            best = t;
        }
    }
    best
}

/// Black's final disc difference: from the final board when the game was played out,
/// else the recorded result (resignations, time losses).
fn black_result(game: &GameRecord, positions: &[GamePosition]) -> i32 {
    let last = positions.last().expect("positions");
    if last.board.is_game_over() {
        let s = last.board.final_score();
        if last.black_to_move { s } else { -s }
    } else {
        game.black_score as i32
    }
}

fn view(black_to_move: bool, black_score: i32) -> i32 {
    if black_to_move {
        black_score
    } else {
        -black_score
    }
}

struct Corpus {
    train: Vec<GameRecord>,
    held_out: Vec<GameRecord>,
    log: String,
}

fn summarize(log: &mut String, name: &str, set: &RecordSet) {
    let _ = writeln!(
        log,
        "- {name}: {} games read, {} skipped",
        set.games.len(),
        set.skipped.len()
    );
    for s in set.skipped.iter().take(3) {
        let _ = writeln!(log, "  - skipped game {}: {}", s.number, s.reason);
    }
}

fn load_corpus(args: &EvalFitOptions) -> Result<Corpus> {
    let mut log = String::new();
    let mut train = Vec::new();
    let mut held_out = Vec::new();
    let limit = |mut set: RecordSet| {
        if let Some(n) = args.max_games {
            set.games.truncate(n);
        }
        set
    };
    let mut wthor_all = RecordSet::default();
    let mut wthor_held = RecordSet::default();
    for year in 1977..=2018 {
        let path = args.data.join(format!("wthor/WTH_{year}.wtb"));
        let (_, set) =
            wthor::read_file(&path).with_context(|| format!("reading {}", path.display()))?;
        let set = limit(set);
        if year >= 2017 {
            wthor_held.extend(set)
        } else {
            wthor_all.extend(set)
        }
    }
    summarize(&mut log, "WTHOR 1977-2016 (training)", &wthor_all);
    summarize(&mut log, "WTHOR 2017-2018 (held out)", &wthor_held);
    train.extend(wthor_all.games);
    held_out.extend(wthor_held.games);
    let mut pgn_train = RecordSet::default();
    let mut pgn_held = RecordSet::default();
    for year in 2019..=2025 {
        let path = args.data.join(format!("wthor/pgn/WTH_{year}.pgn"));
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let set = limit(pgn::parse(&text));
        if year >= 2024 {
            pgn_held.extend(set)
        } else {
            pgn_train.extend(set)
        }
    }
    summarize(&mut log, "WTHOR PGN 2019-2023 (training)", &pgn_train);
    summarize(&mut log, "WTHOR PGN 2024-2025 (held out)", &pgn_held);
    train.extend(pgn_train.games);
    held_out.extend(pgn_held.games);
    let path = args.data.join("logistello/logbook.gam.gz");
    let logbook = limit(logbook::read_file(&path)?);
    summarize(&mut log, "Logistello logbook (training)", &logbook);
    train.extend(logbook.games);
    Ok(Corpus {
        train,
        held_out,
        log,
    })
}

/// The training positions: one node per canonical board, with the tree of games.
struct GameTree {
    ids: HashMap<(u64, u64), u32>,
    boards: Vec<Board>,
    sum: Vec<i32>,
    count: Vec<u32>,
    leaf_sum: Vec<i32>,
    leaf_count: Vec<u32>,
    /// Exact score for the side to move, `i8::MIN` if unknown.
    exact: Vec<i8>,
    /// (parent, child, +1 if the same side moves in both, -1 otherwise).
    edges: Vec<(u32, u32, i8)>,
}

impl GameTree {
    fn build(games: &[GameRecord]) -> GameTree {
        let mut t = GameTree {
            ids: HashMap::with_capacity(games.len() * 45),
            boards: Vec::new(),
            sum: Vec::new(),
            count: Vec::new(),
            leaf_sum: Vec::new(),
            leaf_count: Vec::new(),
            exact: Vec::new(),
            edges: Vec::with_capacity(games.len() * 60),
        };
        for g in games {
            let pos = g.positions();
            let result = black_result(g, &pos);
            let mut prev: Option<(u32, bool)> = None;
            for (i, p) in pos.iter().enumerate() {
                let c = canonical(&p.board);
                let next_id = t.boards.len() as u32;
                let id = *t.ids.entry((c.player, c.opponent)).or_insert(next_id);
                if id == next_id {
                    t.boards.push(c);
                    t.sum.push(0);
                    t.count.push(0);
                    t.leaf_sum.push(0);
                    t.leaf_count.push(0);
                    t.exact.push(i8::MIN);
                }
                let id = id as usize;
                let label = view(p.black_to_move, result);
                t.sum[id] += label;
                t.count[id] += 1;
                if let Some((parent, parent_black)) = prev {
                    let sign = if parent_black == p.black_to_move {
                        1
                    } else {
                        -1
                    };
                    t.edges.push((parent, id as u32, sign));
                }
                if i + 1 == pos.len() {
                    if p.board.is_game_over() {
                        t.exact[id] = p.board.final_score() as i8;
                    } else {
                        t.leaf_sum[id] += label;
                        t.leaf_count[id] += 1;
                    }
                }
                if let Some(th) = g.theoretical
                    && p.board.empty_count() == th.empties as u32
                    && i + 1 < pos.len()
                {
                    t.exact[id] = view(p.black_to_move, th.black_score as i32) as i8;
                }
                prev = Some((id as u32, p.black_to_move));
            }
        }
        t.edges.sort_unstable();
        t.edges.dedup();
        t
    }

    fn mean_labels(&self) -> Vec<f32> {
        (0..self.boards.len())
            .map(|i| {
                if self.exact[i] != i8::MIN {
                    self.exact[i] as f32
                } else {
                    self.sum[i] as f32 / self.count[i] as f32
                }
            })
            .collect()
    }

    /// Negamax over the game tree: children are always processed before parents
    /// because every move fills a square. Positions reached by `max_games` games or more
    /// keep their mean result: the maximum over many noisy continuations would be
    /// biased towards the side to move (the start position would be worth +7).
    fn negamax_labels(&self, max_games: u32) -> Vec<f32> {
        let n = self.boards.len();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&i| self.boards[i as usize].empty_count());
        let mut first_edge = vec![u32::MAX; n + 1];
        for (k, &(parent, _, _)) in self.edges.iter().enumerate().rev() {
            first_edge[parent as usize] = k as u32;
        }
        let mut value = vec![0f32; n];
        for &i in &order {
            let i = i as usize;
            value[i] = if self.exact[i] != i8::MIN {
                self.exact[i] as f32
            } else if self.count[i] >= max_games {
                self.sum[i] as f32 / self.count[i] as f32
            } else if first_edge[i] != u32::MAX {
                let mut best = f32::NEG_INFINITY;
                let mut k = first_edge[i] as usize;
                while k < self.edges.len() && self.edges[k].0 as usize == i {
                    let (_, child, sign) = self.edges[k];
                    best = best.max(sign as f32 * value[child as usize]);
                    k += 1;
                }
                best
            } else if self.leaf_count[i] > 0 {
                self.leaf_sum[i] as f32 / self.leaf_count[i] as f32
            } else {
                self.sum[i] as f32 / self.count[i] as f32
            };
        }
        value
    }
}

/// Fits one phase: returns the bias and the weights (canonical indices expanded).
fn fit_phase(
    samples: &[&Sample],
    args: &EvalFitOptions,
    log: &mut String,
    phase: &str,
) -> (f32, Vec<f32>) {
    let set = PatternSet::get();
    let n_w = set.weights_per_phase;
    // Global canonical parameter index of each instance's index.
    let offsets: Vec<usize> = (0..NUM_INSTANCES).map(|k| set.offset_of(k)).collect();
    let pats: Vec<usize> = set.instances.iter().map(|i| i.pattern).collect();
    let mut feats = vec![0u32; samples.len() * NUM_INSTANCES];
    let mut counts = vec![0f32; n_w];
    for (s, sample) in samples.iter().enumerate() {
        let idx = set.indices(sample.board.player, sample.board.opponent);
        for k in 0..NUM_INSTANCES {
            let f = (offsets[k] + set.patterns[pats[k]].canonical[idx[k] as usize] as usize) as u32;
            feats[s * NUM_INSTANCES + k] = f;
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
            let f = &feats[s * NUM_INSTANCES..(s + 1) * NUM_INSTANCES];
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
    // Expand canonical weights to every index.
    let mut full = vec![0f32; n_w];
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

/// Mean absolute error accumulator.
#[derive(Default, Clone, Copy)]
struct Mae {
    n: usize,
    pattern: f64,
    features: f64,
    zero: f64,
}

impl Mae {
    fn add(&mut self, label: f64, pattern: f64, features: f64) {
        self.n += 1;
        self.pattern += (pattern - label).abs();
        self.features += (features - label).abs();
        self.zero += label.abs();
    }
    fn row(&self) -> String {
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

/// Fits the weights, writes them to `args.out` and the report to `args.report`, and
/// returns the report. Each step is announced to `progress` as a line of text.
pub fn run(args: &EvalFitOptions, progress: &mut dyn FnMut(&str)) -> Result<EvalFitReport> {
    let start = Instant::now();
    anyhow::ensure!(
        args.phase_width >= 1 && args.phase_width <= 61,
        "--phase-width must be 1..=61"
    );
    let phases = 60 / args.phase_width as usize + usize::from(60 % args.phase_width != 0);
    let mut report = String::new();
    let _ = writeln!(report, "# Okapi evaluation training report\n");
    let _ = writeln!(report, "Command: `okapi train {}`\n", describe(args));
    progress(&format!(
        "reading game records from {}",
        args.data.display()
    ));
    let corpus = load_corpus(args)?;
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
    let fit = fit_patterns(args, phases, &by_empties, progress);
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
        PatternSet::get().weights_per_phase,
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
            by_empties[s.board.empty_count() as usize].push(Sample {
                board: s.board,
                label: s.label.value as f32 / SCALE as f32,
            });
        }
    }
    Ok(by_empties)
}

/// The held-out games' positions not seen in training (labelled by the game's result),
/// and those at the theoretical score's depth (labelled by it).
struct HeldOut {
    held: Vec<Sample>,
    theoretical: Vec<Sample>,
    seen_in_training: usize,
}

impl HeldOut {
    fn collect(corpus: &Corpus, tree: &GameTree) -> HeldOut {
        let mut held = Vec::new();
        let mut theoretical = Vec::new();
        let mut seen_in_training = 0usize;
        for g in &corpus.held_out {
            let pos = g.positions();
            let result = black_result(g, &pos);
            for (i, p) in pos.iter().enumerate() {
                if let Some(th) = g.theoretical
                    && p.board.empty_count() == th.empties as u32
                    && i + 1 < pos.len()
                {
                    theoretical.push(Sample {
                        board: p.board,
                        label: view(p.black_to_move, th.black_score as i32) as f32,
                    });
                }
                let c = canonical(&p.board);
                if tree.ids.contains_key(&(c.player, c.opponent)) {
                    seen_in_training += 1;
                    continue;
                }
                held.push(Sample {
                    board: p.board,
                    label: view(p.black_to_move, result) as f32,
                });
            }
        }
        HeldOut {
            held,
            theoretical,
            seen_in_training,
        }
    }
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
    progress: &mut dyn FnMut(&str),
) -> PatternFit {
    let set = PatternSet::get();
    let n_w = set.weights_per_phase;
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

/// Held-out errors of the written weights and of the feature baseline.
struct HeldOutErrors {
    by_phase: Vec<Mae>,
    theoretical: Mae,
    solved: Mae,
    solve_time: std::time::Duration,
}

fn measure_held_out(
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
    let mut solver = EndgameSolver::new(21, Some(okapi_core::eval::Evaluator::shipped()));
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
fn report_held_out(
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
fn describe(args: &EvalFitOptions) -> String {
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
