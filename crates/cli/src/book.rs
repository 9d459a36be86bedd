//! `okapi book`: build the opening book from the game records, show a position's book
//! moves, and a book file's figures.

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use okapi_core::board::{Board, Color, Position};
use okapi_core::book::build::{BuildOptions, BuildReport, Plan, search};
use okapi_core::book::shard::{BookPart, evaluation_fingerprint, merge};
use okapi_core::book::{Book, BookMove, BookSource};
use okapi_core::eval::Evaluator;
use okapi_core::formats::records::GameRecord;
use okapi_core::search::SCALE;
use okapi_core::shard::{MergeError, Shard, check_output, write_output};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where `book build` writes the book unless told.
const DEFAULT_OUT: &str = "book/okapi.book";

#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Build the opening book from game records (WTHOR, PGN exports, Logistello's games).
    ///
    /// Reads the games, keeps the positions up to --max-ply seen in at least --min-games
    /// games, values the best move leaving the book from each by Okapi's midgame search at
    /// --depth, and negamaxes the values up the tree.
    Build(BuildArgs),
    /// Put the parts of a build split with `book build --shard K/N` together: the book the
    /// whole build makes, byte for byte.
    Merge(MergeArgs),
    /// Show the book moves of a position: value, games, source.
    Show(ShowArgs),
    /// Figures of a book file: positions, plies, games, sources.
    Stats(StatsArgs),
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Folder of the game records: wthor/WTH_*.wtb, wthor/pgn/*.pgn and
    /// logistello/logbook.gam[.gz], whichever are there (docs/training.md says where to
    /// get them). Needed unless --games is given.
    #[arg(
        long,
        value_name = "DIR",
        env = "OKAPI_DATA",
        required_unless_present = "files"
    )]
    pub data: Option<PathBuf>,
    /// Read these record files instead of --data (.wtb, .pgn, .gam or .gam.gz).
    #[arg(long = "games", value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The book file to write (default book/okapi.book); with --shard, the part to write.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Positions up to this many plies.
    #[arg(long, default_value_t = BuildOptions::default().max_ply, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub max_ply: u32,
    /// Positions seen in fewer games are left out.
    #[arg(long, default_value_t = BuildOptions::default().min_games, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
    /// Search depth of the moves leaving the book; 0: leaves take their games' mean result.
    #[arg(long, default_value_t = BuildOptions::default().depth, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub depth: u32,
    /// ProbCut level of the searches: 0..4 (73%..100%), 5 = none.
    #[arg(long, default_value_t = BuildOptions::default().selectivity as u32, value_parser = clap::value_parser!(u32).range(0..=5))]
    pub selectivity: u32,
    /// Leaves with at least this many games are checked against their mean result ...
    #[arg(long, default_value_t = BuildOptions::default().check_games)]
    pub check_games: u32,
    /// ... and searched 4 plies deeper when the two differ by more (discs).
    #[arg(long, default_value_t = BuildOptions::default().check_margin)]
    pub check_margin: f64,
    /// Transposition table of about 16 * 2^N bytes.
    #[arg(long, value_name = "N", default_value_t = BuildOptions::default().hash_bits, value_parser = super::units::parse_hash_bits)]
    pub hash_bits: u32,
    /// Searches sharing one transposition table (tree order); each block starts afresh.
    #[arg(long, default_value_t = BuildOptions::default().block, value_parser = clap::value_parser!(u32).range(1..))]
    pub block: u32,
    /// Evaluation weights instead of the shipped ones.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Do only shard K of N of the searches (block b is shard b mod N + 1) and write a
    /// part to --out, for `okapi book merge`.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The parts written by `okapi book build --shard K/N`, one per shard, any order.
    #[arg(value_name = "PART", required = true)]
    pub parts: Vec<PathBuf>,
    /// The book file to write.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_OUT)]
    pub out: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The moves from the start position (f5d6c3, or "f5 d6 c3"); none for the start.
    #[arg(value_name = "MOVES")]
    pub moves: Option<String>,
    /// A position instead: 64 squares a1..h8 then the side to move.
    #[arg(
        long,
        value_name = "BOARD",
        conflicts_with = "moves",
        allow_hyphen_values = true
    )]
    pub position: Option<String>,
    /// A book file instead of the shipped one.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    /// A book file instead of the shipped one.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
}

pub fn run(cmd: BookCommand) -> Result<()> {
    match cmd {
        BookCommand::Build(a) => run_build(a),
        BookCommand::Merge(a) => run_merge(a),
        BookCommand::Show(a) => run_show(a),
        BookCommand::Stats(a) => run_stats(a),
    }
}

/// The record files of a data folder laid out as docs/training.md says.
fn data_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut add_dir = |sub: &str, ext: &str| -> Result<()> {
        let d = dir.join(sub);
        if !d.is_dir() {
            return Ok(());
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(&d)
            .with_context(|| format!("cannot list {}", d.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case(ext)))
            .collect();
        found.sort();
        files.extend(found);
        Ok(())
    };
    add_dir("wthor", "wtb")?;
    add_dir("wthor/pgn", "pgn")?;
    for name in ["logistello/logbook.gam.gz", "logistello/logbook.gam"] {
        let p = dir.join(name);
        if p.is_file() {
            files.push(p);
            break;
        }
    }
    if files.is_empty() {
        bail!(
            "no game records in {} (expected wthor/*.wtb, wthor/pgn/*.pgn or logistello/logbook.gam.gz)",
            dir.display()
        );
    }
    Ok(files)
}

fn run_build(a: BuildArgs) -> Result<()> {
    let out = match (&a.out, a.shard) {
        (Some(p), _) => p.clone(),
        (None, None) => PathBuf::from(DEFAULT_OUT),
        (None, Some(_)) => {
            bail!("--shard writes a part for `okapi book merge`: give it --out FILE")
        }
    };
    let eval = match &a.weights {
        Some(p) => std::sync::Arc::new(Evaluator::load(p)?),
        None => Evaluator::shipped(),
    };
    let files = match &a.data {
        Some(dir) if a.files.is_empty() => data_files(dir)?,
        _ => a.files.clone(),
    };
    let read_start = Instant::now();
    let mut games: Vec<GameRecord> = Vec::new();
    for f in &files {
        let set = okapi_core::formats::records::read_file(f)?;
        errln!(
            "{}: {} games{}",
            f.display(),
            set.games.len(),
            if set.skipped.is_empty() {
                String::new()
            } else {
                format!(", {} skipped", set.skipped.len())
            }
        );
        games.extend(set.games);
    }
    if games.is_empty() {
        bail!("no games to build a book from");
    }
    errln!(
        "{} games read in {:.1} s",
        games.len(),
        read_start.elapsed().as_secs_f64()
    );
    let opts = BuildOptions {
        max_ply: a.max_ply,
        min_games: a.min_games,
        depth: a.depth,
        selectivity: a.selectivity as usize,
        check_games: a.check_games,
        check_margin: a.check_margin,
        hash_bits: a.hash_bits,
        block: a.block,
    };
    let bar = if a.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
    } else {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} positions searched, {eta} left",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        b
    };
    let mut progress = |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let start = Instant::now();
    let plan = Plan::new(&games, &opts);
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    let searched = search(&plan, &opts, &eval, shard, &mut progress);
    bar.finish_and_clear();
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    if a.shard.is_some() {
        let blocks = plan.search_blocks(&opts).len();
        let (searches, nodes) = (searched.searches, searched.nodes);
        let part = BookPart::new(
            shard,
            &opts,
            evaluation_fingerprint(&eval),
            &plan,
            searched,
            start.elapsed(),
        );
        let bytes = part.to_bytes();
        write_output(&out, &bytes)?;
        outln!(
            "shard {shard}: {searches} searches ({nodes} nodes) in {} of the {blocks} blocks of {}, {} book positions",
            shard.share(0..blocks as u64).count(),
            opts.block,
            plan.counts().len()
        );
        outln!(
            "wrote {} ({} bytes) in {:.1} s",
            out.display(),
            bytes.len(),
            start.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    let (book, mut report) = okapi_core::book::build::finish(plan, &opts, &[searched]);
    report.elapsed = start.elapsed();
    let bytes = book.to_bytes();
    okapi_core::formats::write_atomic(&out, &bytes)
        .with_context(|| format!("cannot write {}", out.display()))?;
    print_report(&report, &book, bytes.len(), &out);
    Ok(())
}

fn run_merge(a: MergeArgs) -> Result<()> {
    let start = Instant::now();
    check_output(&a.out, &a.parts)?;
    let mut parts = Vec::with_capacity(a.parts.len());
    for p in &a.parts {
        // The error names the file and says why (its Display has its source's text).
        let bytes = okapi_core::formats::read_capped(p, okapi_core::formats::MAX_BOOK_FILE)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let name = p.display().to_string();
        let part = BookPart::from_bytes(&bytes).map_err(|e| MergeError::unreadable(&name, e))?;
        parts.push((name, part));
    }
    let (book, mut report) = merge(&parts)?;
    let bytes = book.to_bytes();
    write_output(&a.out, &bytes)?;
    outln!(
        "{} parts merged in {:.1} s; the shards searched for {:.1} s in all",
        parts.len(),
        start.elapsed().as_secs_f64(),
        report.elapsed.as_secs_f64()
    );
    report.elapsed = start.elapsed();
    print_report(&report, &book, bytes.len(), &a.out);
    Ok(())
}

fn print_report(r: &BuildReport, book: &Book, size: usize, out: &Path) {
    outln!(
        "{} games, {} distinct positions up to ply {}",
        r.games,
        r.positions_seen,
        book.info().max_ply
    );
    outln!(
        "book: {} positions ({} leaves) seen in at least {} games",
        r.book_positions,
        r.leaves,
        book.info().min_games
    );
    if book.info().depth > 0 {
        outln!(
            "searches: {} at depth {} ({} nodes); {} leaves checked against their games, {} searched deeper",
            r.searches,
            book.info().depth,
            r.nodes,
            r.checked,
            r.deepened
        );
    }
    outln!(
        "mean |book value - mean result| over positions with many games: {:.2} discs",
        r.mean_gap
    );
    outln!(
        "wrote {} ({} bytes) in {:.1} s",
        out.display(),
        size,
        r.elapsed.as_secs_f64()
    );
}

/// The book to read: a file, or the shipped one.
fn open_book(path: Option<&Path>) -> Result<(std::borrow::Cow<'static, Book>, f64)> {
    let t = Instant::now();
    let book = match path {
        Some(p) => std::borrow::Cow::Owned(Book::load(p)?),
        None => std::borrow::Cow::Borrowed(okapi_core::book::shipped()),
    };
    Ok((book, t.elapsed().as_secs_f64()))
}

fn source_text(s: BookSource) -> String {
    s.to_string()
}

/// The lines `okapi book show` prints for a position.
pub fn show_lines(book: &Book, position: &Position) -> Vec<String> {
    let board: Board = position.board();
    let side = match position.side_to_move() {
        Color::Black => "Black",
        Color::White => "White",
    };
    let mut lines = Vec::new();
    let Some((entry, _)) = book.probe(&board) else {
        lines.push(format!(
            "not in the book ({} empties, {side} to move)",
            position.empty_count()
        ));
        return lines;
    };
    lines.push(format!(
        "{side} to move: {:+.2} ({}), {} games, mean result {:+}",
        entry.value as f64 / SCALE as f64,
        source_text(entry.source),
        entry.games,
        entry.result
    ));
    let moves: Vec<BookMove> = book.moves(&board);
    for m in moves {
        lines.push(format!(
            "  {}  {:+6.2}  {:>7} games  {}{}",
            m.square,
            m.discs(),
            m.games,
            source_text(m.source),
            if m.in_book { "" } else { "  (leaves the book)" }
        ));
    }
    lines
}

fn run_show(a: ShowArgs) -> Result<()> {
    let position = match (&a.position, &a.moves) {
        (Some(p), _) => crate::position_arg(p).map_err(|e| anyhow::anyhow!("--position: {e}"))?,
        (None, Some(m)) => okapi_core::formats::transcript::read(m)
            .map_err(|e| anyhow::anyhow!("moves '{m}': {e}"))?
            .position(),
        (None, None) => Position::start(),
    };
    let (book, _) = open_book(a.book.as_deref())?;
    for l in show_lines(&book, &position) {
        outln!("{l}");
    }
    Ok(())
}

fn run_stats(a: StatsArgs) -> Result<()> {
    let (book, secs) = open_book(a.book.as_deref())?;
    let info = book.info();
    outln!(
        "{} positions, built from {} games: up to ply {}, at least {} games each, leaves searched at depth {}",
        book.len(),
        info.games,
        info.max_ply,
        info.min_games,
        info.depth
    );
    outln!("loaded in {:.1} ms", secs * 1000.0);
    let mut per_ply = vec![0usize; 61];
    let mut games_per_ply = vec![0u64; 61];
    for e in book.entries() {
        let ply = 60 - e.board().empty_count() as usize;
        per_ply[ply] += 1;
        games_per_ply[ply] = games_per_ply[ply].max(e.games as u64);
    }
    outln!("ply  positions");
    for (ply, &n) in per_ply.iter().enumerate().filter(|x| *x.1 > 0) {
        outln!("{ply:>3}  {n:>9}");
    }
    let with_alt = book.entries().iter().filter(|e| e.alt.is_some()).count();
    let exact = book
        .entries()
        .iter()
        .filter(|e| e.source == BookSource::Exact)
        .count();
    outln!("{with_alt} positions know their best move out of the book; {exact} values are proven");
    if let Some((start, _)) = book.probe(&Board::START) {
        outln!(
            "start position: {:+.2} for Black",
            start.value as f64 / SCALE as f64
        );
    }
    Ok(())
}
