//! `okapi train label`: the command-line options and the printing of the labeller
//! ([`okapi_train::label_files`]).

use okapi_core::shard::Shard;
use okapi_train::label_files::{self, LabelOptions, LabelSearch, Source};
use std::path::PathBuf;

/// Label the positions of the game records (`--data`) or of a self-play store
/// (`--selfplay`) with Okapi's own searches, into a label file of one shard.
#[derive(clap::Args, Debug, Clone)]
pub struct LabelArgs {
    /// Folder of the game records `okapi train eval` reads (wthor/, logistello/).
    #[arg(long, value_name = "DIR", env = "OKAPI_DATA")]
    pub data: Option<PathBuf>,
    /// A self-play store (`okapi train selfplay`) to label instead of the game records
    /// (`--data` and `OKAPI_DATA` are then not read).
    #[arg(long, value_name = "STORE")]
    pub selfplay: Option<PathBuf>,
    /// The label file of this shard (created, or continued after its last chunk).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Depth of the midgame searches in plies (1 to 30).
    #[arg(long, default_value_t = 8, value_parser = crate::units::number_in(1u32, 30, "a depth"))]
    pub depth: u32,
    /// Positions with at most this many empties are solved exactly (0 to 30).
    #[arg(long, default_value_t = 14, value_parser = crate::units::number_in(0u32, 30, "a number of empties"))]
    pub exact_from: u32,
    /// ProbCut level of the midgame searches: 0..4 (73%..100%), 5 = none (full width:
    /// about 4 times as slow at depth 8, values 0.2 discs away on average).
    #[arg(long, default_value_t = 2, value_parser = crate::units::number_in(0usize, 5, "a ProbCut level"))]
    pub selectivity: usize,
    /// Only positions with this many empties (LO-HI) are labelled.
    #[arg(long, value_parser = crate::units::parse_empties_range, default_value = "0-60")]
    pub empties: (u32, u32),
    /// Weight file of the evaluation that searches (default: the shipped one).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Label only shard K of N: the games whose number is K-1 modulo N.
    #[arg(long, value_name = "K/N", default_value = "1/1", value_parser = Shard::parse)]
    pub shard: Shard,
    /// Threads searching (the labels do not depend on it).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::units::parse_threads)]
    pub threads: usize,
    /// Games labelled between two writes of the file (1 to 1000000).
    #[arg(long, default_value_t = 200, value_parser = crate::units::number_in(1usize, 1_000_000, "a number of games"))]
    pub chunk_games: usize,
}

/// `okapi train label`: a line per chunk on standard error, the summary on standard
/// output.
pub fn run(args: &LabelArgs) -> anyhow::Result<()> {
    let source = match (&args.data, &args.selfplay) {
        (_, Some(store)) => Source::selfplay(store)?,
        (Some(data), None) => Source::records(data)?,
        (None, None) => anyhow::bail!("give the games to label: --data DIR or --selfplay STORE"),
    };
    let eval = match &args.weights {
        Some(path) => std::sync::Arc::new(okapi_core::eval::Evaluator::load(path)?),
        None => okapi_core::eval::Evaluator::shipped(),
    };
    let options = LabelOptions {
        search: LabelSearch {
            depth: args.depth,
            exact_empties: args.exact_from,
            selectivity: args.selectivity,
            empties: args.empties,
        },
        shard: args.shard,
        threads: args.threads,
        chunk_games: args.chunk_games,
        max_chunks: None,
    };
    errln!(
        "{} games, {} positions; shard {} to {}",
        source.games.len(),
        source.positions(),
        args.shard,
        args.out.display()
    );
    let run = label_files::label_shard(&source, &eval, &options, &args.out, &mut |line| {
        errln!("{line}")
    })?;
    let size = std::fs::metadata(&args.out).map_or(0, |m| m.len());
    outln!(
        "{}: shard {} {}: {} games ({} from an earlier run), {} positions labelled and {} searched in {:.0} s ({:.0} searched a second), {} bytes",
        args.out.display(),
        args.shard,
        if run.file.is_complete() {
            "complete"
        } else {
            "unfinished"
        },
        run.file.labels.len(),
        run.resumed,
        run.labelled,
        run.searched,
        run.seconds,
        run.searched as f64 / run.seconds.max(1e-9),
        size
    );
    Ok(())
}
