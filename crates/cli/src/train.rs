//! `okapi train eval` and `okapi train probcut`: the command-line options, the progress
//! display and the printing of the fits that [`okapi_train`] does.

use okapi_core::search::SCALE;
use okapi_core::search::probcut::shallow_depth;
use okapi_train::eval_fit::{self, EvalFitOptions, Labels};
use okapi_train::probcut_fit::{self, ProbCutFitOptions};
use okapi_train::search_labels::SearchLabelOptions;
use std::path::PathBuf;

#[derive(clap::Subcommand, Debug)]
pub enum TrainCommand {
    /// Fit the pattern evaluation (coeffs/okapi-eval.bin) on the game records.
    Eval(TrainArgs),
    /// Fit the Multi-ProbCut error model (coeffs/probcut.json) on Okapi's own searches.
    Probcut(ProbCutArgs),
    /// Play self-play games labelled by Okapi's searches and append them to a store.
    Selfplay(SelfPlayArgs),
    /// Append the parts of a self-play run split with `train selfplay --shard K/N` to a
    /// store, in game order: the bytes the whole run writes.
    MergeStores(MergeStoresArgs),
    /// Label the positions of the game records or of a self-play store with Okapi's own
    /// searches, a byte a position, in resumable shards (`--shard K/N`).
    Label(crate::train_label::LabelArgs),
}

/// Runs a `train` subcommand.
pub fn run(command: TrainCommand) -> anyhow::Result<()> {
    match command {
        TrainCommand::Eval(a) => run_eval(&a),
        TrainCommand::Probcut(a) => run_probcut(&a),
        TrainCommand::Selfplay(a) => run_selfplay(&a),
        TrainCommand::MergeStores(a) => run_merge_stores(&a),
        TrainCommand::Label(a) => crate::train_label::run(&a),
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelsArg {
    /// Mean final result of the games through the position.
    Final,
    /// Negamax over the tree of training games.
    Negamax,
}

impl From<LabelsArg> for Labels {
    fn from(l: LabelsArg) -> Labels {
        match l {
            LabelsArg::Final => Labels::Final,
            LabelsArg::Negamax => Labels::Negamax,
        }
    }
}

/// Train the pattern evaluation from the game records.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// Folder holding wthor/WTH_*.wtb, wthor/pgn/WTH_*.pgn and logistello/logbook.gam.gz
    /// (docs/training.md says where to get them).
    #[arg(long, value_name = "DIR", env = "OKAPI_DATA")]
    pub data: PathBuf,
    /// Weight file to write.
    #[arg(long, short, default_value = "coeffs/okapi-eval.bin")]
    pub out: PathBuf,
    /// Training report to write (markdown).
    #[arg(long, default_value = "coeffs/TRAINING.md")]
    pub report: PathBuf,
    /// How positions are labelled.
    #[arg(long, value_enum, default_value = "negamax")]
    pub labels: LabelsArg,
    /// Empty squares per phase (1 to 60).
    #[arg(long, default_value_t = 2, value_parser = crate::units::number_in(1u32, 60, "a number of empties"))]
    pub phase_width: u32,
    /// Each phase also trains on positions up to this many empties outside it (0 to 60).
    #[arg(long, default_value_t = 2, value_parser = crate::units::number_in(0u32, 60, "a number of empties"))]
    pub window: u32,
    /// Passes over the data per phase (1 to 10000). The shipped weights: 120 (against 60
    /// at 0.015 s a move, one thread each, 1,000 games: +23 Elo, +3 .. +43).
    #[arg(long, default_value_t = 120, value_parser = crate::units::number_in(1usize, 10_000, "a number of passes"))]
    pub epochs: usize,
    /// Step size (fraction of the mean residual a weight moves by per pass, 0 to 1).
    #[arg(long, default_value_t = 0.03, value_parser = crate::units::number_in(1e-6f32, 1.0, "a step size"))]
    pub step: f32,
    /// Momentum of the updates (0 to 0.999).
    #[arg(long, default_value_t = 0.9, value_parser = crate::units::number_in(0.0f32, 0.999, "a momentum"))]
    pub momentum: f32,
    /// L2 regularisation, in pseudo-observations of value 0 per weight (0 to 1e6).
    #[arg(long, default_value_t = 10.0, value_parser = crate::units::number_in(0.0f32, 1e6, "a regularisation"))]
    pub l2: f32,
    /// Held-out positions to solve exactly with Okapi's endgame solver (0 to 100000).
    #[arg(long, default_value_t = 300, value_parser = crate::units::number_in(0usize, 100_000, "a number of positions"))]
    pub solve: usize,
    /// Empty squares of the positions solved exactly (1 to 30).
    #[arg(long, default_value_t = 20, value_parser = crate::units::number_in(1u32, 30, "a number of empties"))]
    pub solve_empties: u32,
    /// Read at most this many games per file (quick runs).
    #[arg(long, value_parser = crate::units::number_in(1usize, 100_000_000, "a number of games"))]
    pub max_games: Option<usize>,
    /// Negamax labels: positions reached by at least this many games keep the mean of
    /// their results (the maximum over many noisy continuations is biased upwards).
    #[arg(long, default_value_t = 8, value_parser = crate::units::number_in(1u32, 1_000_000, "a number of games"))]
    pub negamax_max_games: u32,
    /// Phases with fewer training positions than this widen their window until they
    /// have them (sharing data with their neighbours).
    #[arg(long, default_value_t = 200_000, value_parser = crate::units::number_in(0usize, 1_000_000_000, "a number of positions"))]
    pub min_positions: usize,
    /// Self-play stores (`okapi train selfplay`) whose labelled positions are trained on
    /// too, alongside the game records.
    #[arg(long, value_name = "STORE")]
    pub selfplay: Vec<PathBuf>,
    /// Each self-play position counts as this many positions of the game records (1 to
    /// 100).
    #[arg(long, default_value_t = 1, value_parser = crate::units::number_in(1u32, 100, "a weight"))]
    pub selfplay_weight: u32,
    /// Relabel the training positions by a search of this many plies (0: the game
    /// labels only). See `--search-empties`, `--search-cache`.
    #[arg(long, default_value_t = 0, value_parser = crate::units::number_in(0u32, 30, "a depth"))]
    pub search_depth: u32,
    /// Positions with this many empties (LO-HI) and no exact score are searched.
    #[arg(long, value_parser = crate::units::parse_empties_range, default_value = "14-44")]
    pub search_empties: (u32, u32),
    /// Searched positions with at most this many empties are solved exactly instead.
    #[arg(long, default_value_t = 14, value_parser = crate::units::number_in(0u32, 24, "a number of empties"))]
    pub search_exact: u32,
    /// A searched position's label: this times the search value plus the rest times its
    /// game label.
    #[arg(long, default_value_t = 1.0, value_parser = crate::units::number_in(0.0f32, 1.0, "a blend"))]
    pub search_blend: f32,
    /// Weight file of the evaluation that searches (default: the shipped one).
    #[arg(long)]
    pub search_weights: Option<PathBuf>,
    /// File keeping the search values between runs; a stopped run resumes from it.
    #[arg(long)]
    pub search_cache: Option<PathBuf>,
    /// Threads searching the labels (default: every core).
    #[arg(long, value_name = "N", value_parser = super::units::parse_threads)]
    pub threads: Option<usize>,
    /// Label files of the game records (`okapi train label --data`, any shards of one
    /// labelling): their search values replace the game labels of the positions they
    /// label (blended by --search-blend), and the report measures the held-out error
    /// against them too.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub label_files: Vec<PathBuf>,
    /// Only the labels of positions with this many empties (LO-HI) are used.
    #[arg(long, value_parser = crate::units::parse_empties_range, default_value = "0-60")]
    pub label_empties: (u32, u32),
    /// Train only on the games the label files label (with --search-blend 0: their game
    /// labels, to compare both kinds of label on the same games).
    #[arg(long, requires = "label_files")]
    pub labelled_games_only: bool,
    /// Fit the patterns alone, without the count terms (mobility and potential mobility
    /// of each side as tables over the count, and parity) fitted jointly with them.
    #[arg(long)]
    pub no_terms: bool,
    /// Fit the board terms too: the side to move's disc count and each side's stable
    /// discs, as tables over the count (not with `--no-terms`).
    #[arg(long, conflicts_with = "no_terms")]
    pub board_terms: bool,
    /// Fit only the phases whose empties all lie in LO-HI and keep the others' weights
    /// from --base (the refit from the end fits a band of phases at a time).
    #[arg(long, value_parser = crate::units::parse_empties_range, default_value = "0-60")]
    pub fit_empties: (u32, u32),
    /// The weight file the phases outside --fit-empties are taken from (made with the
    /// same --phase-width and terms).
    #[arg(long, value_name = "W.bin")]
    pub base: Option<PathBuf>,
}

impl TrainArgs {
    pub fn options(&self) -> EvalFitOptions {
        EvalFitOptions {
            data: self.data.clone(),
            out: self.out.clone(),
            report: self.report.clone(),
            labels: self.labels.into(),
            phase_width: self.phase_width,
            window: self.window,
            epochs: self.epochs,
            step: self.step,
            momentum: self.momentum,
            l2: self.l2,
            solve: self.solve,
            solve_empties: self.solve_empties,
            max_games: self.max_games,
            negamax_max_games: self.negamax_max_games,
            min_positions: self.min_positions,
            selfplay: self.selfplay.clone(),
            selfplay_weight: self.selfplay_weight,
            search: SearchLabelOptions {
                depth: self.search_depth,
                empties: self.search_empties,
                exact_empties: self.search_exact,
                blend: self.search_blend,
                weights: self.search_weights.clone(),
                cache: self.search_cache.clone(),
                threads: self
                    .threads
                    .unwrap_or_else(okapi_core::search::available_threads)
                    .max(1),
            },
            label_files: self.label_files.clone(),
            label_empties: self.label_empties,
            labelled_games_only: self.labelled_games_only,
            terms: !self.no_terms,
            board_terms: self.board_terms,
            fit_empties: self.fit_empties,
            base: self.base.clone(),
        }
    }
}

/// `okapi train eval`: progress on standard error, the report on standard output.
fn run_eval(args: &TrainArgs) -> anyhow::Result<()> {
    let report = eval_fit::run(&args.options(), &mut |line| errln!("{line}"))?;
    outln!("{}", report.markdown);
    Ok(())
}

/// The most positions `okapi train probcut` searches: the shipped model took 300; each
/// is searched at every depth up to --max-depth, so 100000 is already days of work.
pub const MAX_PROBCUT_POSITIONS: usize = 100_000;
/// The deepest `okapi train probcut --max-depth`: each position is searched at every
/// depth from 3 up to it, and each depth costs several times the one before.
pub const MAX_PROBCUT_DEPTH: u32 = 20;

/// `okapi train probcut`: fits the ProbCut model on the shipped evaluation.
#[derive(clap::Args, Debug, Clone)]
pub struct ProbCutArgs {
    /// WTHOR game files to draw positions from (the shipped model drew from
    /// WTH_2016.wtb).
    #[arg(long, num_args = 1.., required = true)]
    pub games: Vec<PathBuf>,
    /// Number of positions to search (1 to 100000).
    #[arg(long, default_value_t = 300, value_parser = crate::units::number_in(1usize, MAX_PROBCUT_POSITIONS, "a number of positions"))]
    pub positions: usize,
    /// Deepest search measured (each position is searched at 3..=this depth; at most 20).
    #[arg(long, default_value_t = 10, value_parser = crate::units::number_in(okapi_core::search::probcut::MIN_DEPTH, MAX_PROBCUT_DEPTH, "a depth"))]
    pub max_depth: u32,
    /// Fewest and most empties of the positions drawn (1 to 60).
    #[arg(long, default_value_t = 16, value_parser = crate::units::number_in(1u32, 60, "a number of empties"))]
    pub min_empties: u32,
    #[arg(long, default_value_t = 50, value_parser = crate::units::number_in(1u32, 60, "a number of empties"))]
    pub max_empties: u32,
    /// Evaluation weights (default: the shipped coeffs/okapi-eval.bin).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Where to write the model.
    #[arg(long, default_value = "coeffs/probcut.json")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl ProbCutArgs {
    pub fn options(&self) -> ProbCutFitOptions {
        ProbCutFitOptions {
            games: self.games.clone(),
            positions: self.positions,
            max_depth: self.max_depth,
            min_empties: self.min_empties,
            max_empties: self.max_empties,
            weights: self.weights.clone(),
            seed: self.seed,
        }
    }
}

/// `okapi train probcut`: a progress bar while searching, then the model and its sigma
/// at a few empties and depths, and the file written.
fn run_probcut(args: &ProbCutArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.min_empties <= args.max_empties,
        "--min-empties {} is more than --max-empties {}",
        args.min_empties,
        args.max_empties
    );
    let mut bar: Option<indicatif::ProgressBar> = None;
    let fitted = probcut_fit::run(&args.options(), |done, total| {
        bar.get_or_insert_with(|| indicatif::ProgressBar::new(total as u64))
            .set_position(done as u64)
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let fitted = fitted?;
    let model = fitted.model;
    outln!(
        "{} samples from {} positions",
        fitted.samples,
        fitted.positions
    );
    outln!(
        "model: sigma = {:.3} + {:.4} * empties + {:.3} * shallow + {:.3} * deep (discs)",
        model.k,
        model.a,
        model.b,
        model.c
    );
    outln!("{:>7} {:>6} {:>6}", "empties", "depth", "sigma");
    for n in [20, 30, 40, 50] {
        for d in [4, 8, 12, 16] {
            outln!(
                "{n:>7} {d:>6} {:>6.2}",
                model.sigma(n, shallow_depth(d), d) as f64 / SCALE as f64
            );
        }
    }
    probcut_fit::write_model(&model, &args.out)?;
    outln!("wrote {}", args.out.display());
    Ok(())
}

/// `okapi train selfplay`: games from random openings, played and labelled by Okapi's
/// searches, appended to a store one by one (see `train::selfplay` for the format).
#[derive(clap::Args, Debug, Clone)]
pub struct SelfPlayArgs {
    /// Seed of the games: game i of a seed is always the same game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games to add (after those of this seed already in the store; 1 to 10000000).
    #[arg(long, default_value_t = 10, value_parser = crate::units::number_in(1u32, 10_000_000, "a number of games"))]
    pub games: u32,
    /// The store to append to (created if missing).
    #[arg(long, default_value = "data/selfplay.bin")]
    pub store: PathBuf,
    /// Depth of the searches that choose the moves and label the positions.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Exact labels and perfect play from this many empties on.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=24))]
    pub exact: u32,
    /// Random moves at the start: at least this many...
    #[arg(long, default_value_t = 8, value_parser = crate::units::number_in(0u32, 60, "a number of moves"))]
    pub min_random: u32,
    /// ...and at most this many (0 to 60).
    #[arg(long, default_value_t = 20, value_parser = crate::units::number_in(0u32, 60, "a number of moves"))]
    pub max_random: u32,
    /// Temperature in discs: a move this much worse than the best is played e^-1 times
    /// as often (0 to 64).
    #[arg(long, default_value_t = 1.0, value_parser = crate::units::number_in(0.0f64, 64.0, "a temperature in discs"))]
    pub temperature: f64,
    /// Hash table of about 16 * 2^N bytes for each game.
    #[arg(long, value_name = "N", default_value_t = okapi_core::search::DEFAULT_HASH_BITS, value_parser = super::units::parse_hash_bits)]
    pub hash_bits: u32,
    /// Play only shard K of N of the run: its games whose index is K-1 modulo N, into a
    /// part of its own (--store) for `okapi train merge-stores`. --games then counts the
    /// games of the whole run, all shards.
    #[arg(long, value_name = "K/N", value_parser = okapi_core::shard::Shard::parse)]
    pub shard: Option<okapi_core::shard::Shard>,
    /// With --shard: index of the run's first game (the number of games of this seed the
    /// store the parts go to already holds).
    #[arg(long, value_name = "INDEX", default_value_t = 0, requires = "shard")]
    pub first: u32,
}

/// `okapi train merge-stores`: see [`TrainCommand::MergeStores`].
#[derive(clap::Args, Debug, Clone)]
pub struct MergeStoresArgs {
    /// The parts written by `okapi train selfplay --shard K/N`, one per shard, any order.
    #[arg(value_name = "PART", required = true)]
    pub parts: Vec<PathBuf>,
    /// The store to append the games to (created if missing).
    #[arg(long, default_value = "data/selfplay.bin")]
    pub store: PathBuf,
}

fn run_merge_stores(args: &MergeStoresArgs) -> anyhow::Result<()> {
    let mut parts = Vec::with_capacity(args.parts.len());
    for p in &args.parts {
        let bytes = okapi_train::selfplay::read_data_file(
            p,
            okapi_train::selfplay::MAX_STORE,
            "a part is a file `okapi train selfplay --shard` wrote",
        )?;
        anyhow::ensure!(
            !bytes.is_empty() || p.exists(),
            "cannot read {}: no such file",
            p.display()
        );
        parts.push((p.display().to_string(), bytes));
    }
    let merged = okapi_train::selfplay::merge_parts(&args.store, &parts)?;
    outln!(
        "{}: {} games added from {} parts, {} games",
        args.store.display(),
        merged.added,
        parts.len(),
        merged.total
    );
    Ok(())
}

fn run_selfplay(args: &SelfPlayArgs) -> anyhow::Result<()> {
    use okapi_train::selfplay::{self, SelfPlayOptions};
    anyhow::ensure!(
        args.min_random <= args.max_random && args.max_random <= 60,
        "--min-random must not exceed --max-random (at most 60)"
    );
    anyhow::ensure!(
        args.temperature.is_finite() && args.temperature >= 0.0,
        "--temperature must be a number of discs, 0 or more"
    );
    let options = SelfPlayOptions {
        seed: args.seed,
        games: args.games,
        random_plies: (args.min_random, args.max_random),
        depth: args.depth,
        exact_empties: args.exact,
        temperature: args.temperature,
        hash_bits: args.hash_bits,
    };
    let eval = okapi_core::eval::Evaluator::shipped();
    let start = std::time::Instant::now();
    let mut report = |g: &selfplay::SelfPlayGame| {
        let exact = g.labels.iter().filter(|l| l.is_exact()).count();
        errln!(
            "game {} of seed {}: {} moves, {} labels exact, start value {:+.2} ({:.1?})",
            g.index,
            g.seed,
            g.moves.len(),
            exact,
            g.labels
                .first()
                .map_or(0.0, |l| l.value as f64 / SCALE as f64),
            start.elapsed()
        );
    };
    if let Some(shard) = args.shard {
        let header = selfplay::PartHeader {
            options,
            first: args.first,
            shard,
        };
        let held = selfplay::append_shard(&args.store, &eval, &header, &mut report)?;
        outln!(
            "{}: shard {shard} of games {}..{} of seed {}: {held} games",
            args.store.display(),
            args.first,
            args.first as u64 + args.games as u64,
            args.seed
        );
        return Ok(());
    }
    let total = selfplay::append(&args.store, &eval, &options, &mut report)?;
    outln!("{}: {total} games", args.store.display());
    Ok(())
}
