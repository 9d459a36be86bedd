//! `okapi db`: the games database from the command line: build the shipped file from the
//! WTHOR folder, the statistics of a position's next moves, the games reaching it, with
//! filters, as text, CSV or JSON; `okapi bench --db` measures load and query times.

use anyhow::{Context, Result, bail};
use okapi_core::board::{Color, Move, Position};
use okapi_core::db::sources::{self, Report};
use okapi_core::db::{Answer, Builder, Database, Filter, PlayerSide, XotGames};
use okapi_core::formats::transcript;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Subcommand, Debug)]
pub enum DbCommand {
    /// Build the games database file from the WTHOR folder (reproducible: the same
    /// folder gives the same bytes).
    ///
    /// Reads WTH_*.wtb (named by WTHOR.JOU and WTHOR.TRN) and the PGN exports in pgn/,
    /// each in name order. A damaged folder (a file cut short or refused, the names
    /// missing) is refused unless --accept-damaged. The shipped file is made by
    /// `okapi db build --wthor DIR/wthor -o data/wthor.okdb`, DIR the records' folder of
    /// the README.
    Build(BuildArgs),
    /// Each next move from a position: games, Black's wins/draws/losses and win %, the
    /// average final disc difference, and the book's value.
    Stats(QueryArgs),
    /// The games reaching a position (under the 8 symmetries, by any move order).
    Games(QueryArgs),
}

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The WTHOR folder (WTH_*.wtb, WTHOR.JOU, WTHOR.TRN, pgn/WTH_*.pgn).
    #[arg(long, value_name = "DIR")]
    pub wthor: PathBuf,
    /// More folders of games (.wtb, .pgn, .ggf, saved games) to include.
    #[arg(long = "folder", value_name = "DIR")]
    pub folders: Vec<PathBuf>,
    /// The file to write (no default: the shipped file, data/wthor.okdb, is replaced
    /// only when named).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Build even when files of the WTHOR folder are damaged (cut short, refused, or the
    /// names missing), from what can be read; without it such a folder is refused.
    #[arg(long)]
    pub accept_damaged: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Text,
    Csv,
    Json,
}

/// `--xot`: what the statistics and the list do with XOT games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum XotArg {
    /// Leave them out: their first moves were drawn, not chosen.
    Exclude,
    /// Only XOT games.
    Only,
    /// Count them with the others.
    Include,
}

impl From<XotArg> for XotGames {
    fn from(a: XotArg) -> XotGames {
        match a {
            XotArg::Exclude => XotGames::Exclude,
            XotArg::Only => XotGames::Only,
            XotArg::Include => XotGames::Include,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct QueryArgs {
    /// The moves from the start (`f5d6c3`, `f5 d6 c3`, `1. f5 d6`); none for the start.
    #[arg(default_value = "")]
    pub moves: String,
    /// Read this database file instead of the shipped one.
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Add the games of this folder (.wtb, .pgn, .ggf, saved games); repeatable.
    #[arg(long = "folder", value_name = "DIR")]
    pub folders: Vec<PathBuf>,
    /// Keep the games of players whose name contains this (any letter case).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// The --player plays Black.
    #[arg(long, requires = "player", conflicts_with = "white")]
    pub black: bool,
    /// The --player plays White.
    #[arg(long, requires = "player")]
    pub white: bool,
    /// Keep the games of tournaments whose name contains this.
    #[arg(long, value_name = "NAME")]
    pub tournament: Option<String>,
    #[arg(long, value_name = "YEAR")]
    pub from_year: Option<u16>,
    #[arg(long, value_name = "YEAR")]
    pub to_year: Option<u16>,
    /// XOT games (a tournament named XOT, a GGF random start `TY[8r]`): their first
    /// moves were drawn, not chosen, so they are left out of the statistics unless asked
    /// for.
    #[arg(long, value_enum, value_name = "WHICH", default_value_t = XotArg::Exclude)]
    pub xot: XotArg,
    /// At most this many games (`games`; 0 for all).
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
}

impl QueryArgs {
    pub fn filter(&self) -> Filter {
        Filter {
            player: self.player.clone().unwrap_or_default(),
            side: if self.black {
                PlayerSide::Black
            } else if self.white {
                PlayerSide::White
            } else {
                PlayerSide::Either
            },
            tournament: self.tournament.clone().unwrap_or_default(),
            from_year: self.from_year,
            to_year: self.to_year,
            xot: self.xot.into(),
        }
    }
}

pub fn run(cmd: DbCommand) -> Result<()> {
    match cmd {
        DbCommand::Build(a) => build(&a),
        DbCommand::Stats(a) => {
            let (db, position) = open(&a)?;
            let filter = a.filter();
            let answer = db.query(&position, &filter);
            let mut text = stats_text(&db, &position, &answer, a.format)?;
            if a.format == OutputFormat::Text {
                text += &xot_note(&db, &position, &filter);
            }
            out!("{text}");
            Ok(())
        }
        DbCommand::Games(a) => {
            let (db, position) = open(&a)?;
            let answer = db.query(&position, &a.filter());
            out!("{}", games_text(&db, &answer, a.limit, a.format)?);
            Ok(())
        }
    }
}

/// The line saying that XOT games reaching the position were left out, and how to count
/// them (empty when none were).
fn xot_note(db: &Database, position: &Position, filter: &Filter) -> String {
    if filter.xot != XotGames::Exclude {
        return String::new();
    }
    let only = Filter {
        xot: XotGames::Only,
        ..filter.clone()
    };
    match db.query(position, &only).games.len() {
        0 => String::new(),
        n => format!(
            "{n} XOT game{} left out (their first moves were drawn; --xot include counts them)\n",
            if n == 1 { " is" } else { "s are" }
        ),
    }
}

fn print_report(what: &Path, r: &Report) {
    errln!(
        "{}: {} games from {} files",
        what.display(),
        r.games,
        r.files
    );
    for (path, why) in &r.bad_files {
        errln!("  skipped file {}: {why}", path.display());
    }
    for (path, why) in &r.damaged_files {
        errln!("  damaged file {}: {why}", path.display());
    }
    if !r.skipped_games.is_empty() {
        errln!("  {} games skipped, the first:", r.skipped_games.len());
        for s in r.skipped_games.iter().take(5) {
            errln!("    {s}");
        }
    }
}

fn build(a: &BuildArgs) -> Result<()> {
    let t = Instant::now();
    let mut b = Builder::new();
    let report = sources::add_wthor_dir(&mut b, &a.wthor, "WTHOR")
        .with_context(|| format!("reading {}", a.wthor.display()))?;
    print_report(&a.wthor, &report);
    if report.games == 0 {
        bail!("no games in {}", a.wthor.display());
    }
    if report.is_damaged() && !a.accept_damaged {
        let files: Vec<String> = report
            .bad_files
            .iter()
            .chain(&report.damaged_files)
            .map(|(path, why)| format!("\n  {}: {why}", path.display()))
            .collect();
        bail!(
            "{} is damaged; nothing written (--accept-damaged builds from what can be read):{}",
            a.wthor.display(),
            files.concat()
        );
    }
    for f in &a.folders {
        let r = sources::add_folder(&mut b, f);
        print_report(f, &r);
    }
    let db = b.build()?;
    let bytes = db.to_bytes();
    okapi_core::formats::write_atomic(&a.output, &bytes)
        .with_context(|| format!("writing {}", a.output.display()))?;
    errln!(
        "wrote {}: {} games, {} players, {} tournaments, {:.2} MB, in {:.1} s",
        a.output.display(),
        db.len(),
        db.players().len(),
        db.tournaments().len(),
        bytes.len() as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The database (the shipped one or --db, plus --folder) and the position of the moves.
pub fn open(a: &QueryArgs) -> Result<(Database, Position)> {
    if let (Some(from), Some(to)) = (a.from_year, a.to_year)
        && from > to
    {
        bail!("--from-year {from} is after --to-year {to}: no game can be from both");
    }
    let position = position_of(&a.moves)?;
    let base = match &a.db {
        // A read error names the file and says why; the others get the file's name.
        Some(path) => Database::load(path).map_err(|e| match e {
            okapi_core::db::DbError::Read(e) => anyhow::Error::new(e),
            e => anyhow::Error::new(e).context(path.display().to_string()),
        })?,
        None => okapi_core::db::load_shipped().context("the shipped database")?,
    };
    if a.folders.is_empty() {
        return Ok((base, position));
    }
    let mut b = Builder::new();
    b.extend(&base)?;
    for f in &a.folders {
        let r = sources::add_folder(&mut b, f);
        print_report(f, &r);
    }
    Ok((b.build()?, position))
}

/// The position after `moves` from the start (forced passes made).
pub fn position_of(moves: &str) -> Result<Position> {
    let text = moves.trim();
    let mut p = Position::start();
    if text.is_empty() || text.eq_ignore_ascii_case("start") {
        return Ok(p);
    }
    let moves = transcript::read_moves(text).map_err(|e| anyhow::anyhow!("{text}: {e}"))?;
    for (i, m) in moves.iter().enumerate() {
        if p.must_pass() && *m != Move::Pass {
            p.pass().ok();
        }
        p.play_move(*m)
            .map_err(|e| anyhow::anyhow!("move {} ({m}): {e}", i + 1))?;
    }
    Ok(p)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The book's value of each move from `position`, in discs for the side to move.
fn book_values(position: &Position) -> Vec<(okapi_core::board::Square, f64)> {
    okapi_core::book::shipped()
        .moves(&position.board())
        .iter()
        .map(|m| (m.square, m.discs()))
        .collect()
}

pub fn stats_text(
    db: &Database,
    position: &Position,
    answer: &Answer,
    format: OutputFormat,
) -> Result<String> {
    let book = book_values(position);
    let book_of = |sq| book.iter().find(|(s, _)| *s == sq).map(|&(_, v)| v);
    let total = answer.games.len();
    let ended = answer.games.iter().filter(|g| g.next.is_none()).count();
    let side = match position.side_to_move() {
        Color::Black => "Black",
        Color::White => "White",
    };
    Ok(match format {
        OutputFormat::Json => {
            let moves: Vec<serde_json::Value> = answer
                .moves
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "move": m.square.to_string(),
                        "games": m.games,
                        "unfinished": m.unfinished,
                        "black_wins": m.black_wins,
                        "draws": m.draws,
                        "black_losses": m.black_losses,
                        "black_win_percent": m.black_win_percent(),
                        "average_black_score": m.average_black_score(),
                        "book_value": book_of(m.square),
                    })
                })
                .collect();
            let v = serde_json::json!({
                "games": total,
                "ended_here": ended,
                "side_to_move": side,
                "database_games": db.len(),
                "moves": moves,
            });
            serde_json::to_string_pretty(&v)? + "\n"
        }
        OutputFormat::Csv => {
            let mut out = String::from(
                "move,games,black_wins,draws,black_losses,black_win_percent,average_black_score,book_value,unfinished\n",
            );
            for m in &answer.moves {
                out += &format!(
                    "{},{},{},{},{},{:.1},{:.2},{},{}\n",
                    m.square,
                    m.games,
                    m.black_wins,
                    m.draws,
                    m.black_losses,
                    m.black_win_percent(),
                    m.average_black_score(),
                    book_of(m.square).map_or(String::new(), |v| format!("{v:.2}")),
                    m.unfinished
                );
            }
            out
        }
        OutputFormat::Text => {
            let mut out = format!(
                "{total} games reach this position ({side} to move; {} in the database)\n",
                db.len()
            );
            if ended > 0 {
                out += &format!("{ended} of them end here\n");
            }
            if answer.moves.is_empty() {
                return Ok(out);
            }
            out += "move   games   Black%    wins  draws  losses  avg Black   book\n";
            for m in &answer.moves {
                out += &format!(
                    "{:<4} {:>7}  {:>6.1}  {:>6} {:>6} {:>7}  {:>+9.2}  {:>5}\n",
                    m.square.to_string(),
                    m.games,
                    m.black_win_percent(),
                    m.black_wins,
                    m.draws,
                    m.black_losses,
                    m.average_black_score(),
                    book_of(m.square).map_or("-".to_string(), |v| format!("{v:+.1}"))
                );
            }
            let unfinished: u32 = answer.moves.iter().map(|m| m.unfinished).sum();
            if unfinished > 0 {
                out += &format!(
                    "{unfinished} of the games stop before their end: counted in games, not in \
                     Black%, wins, draws, losses or avg Black\n"
                );
            }
            out
        }
    })
}

pub fn games_text(
    db: &Database,
    answer: &Answer,
    limit: usize,
    format: OutputFormat,
) -> Result<String> {
    let take = if limit == 0 { usize::MAX } else { limit };
    // Newest first, as a player looks for recent games.
    let mut hits = answer.games.clone();
    hits.sort_by_key(|h| (std::cmp::Reverse(db.game(h.id as usize).year), h.id));
    let rows = hits.iter().take(take).map(|h| {
        let g = db.game(h.id as usize);
        let moves: String = db
            .squares(h.id as usize)
            .iter()
            .map(|s| s.to_string())
            .collect();
        (h, g, moves)
    });
    Ok(match format {
        OutputFormat::Json => {
            let v: Vec<serde_json::Value> = rows
                .map(|(h, g, moves)| {
                    serde_json::json!({
                        "id": h.id,
                        "year": g.year,
                        "tournament": db.tournament(g.tournament),
                        "black": db.player(g.black),
                        "white": db.player(g.white),
                        "black_score": g.black_score,
                        "result": g.result_text(),
                        "theoretical_score": g.theoretical.map(|t| t.black_score),
                        "next": h.next.map(|s| s.to_string()),
                        "moves": moves,
                    })
                })
                .collect();
            serde_json::to_string_pretty(&serde_json::json!({
                "games": answer.games.len(),
                "shown": v.len(),
                "list": v,
            }))? + "\n"
        }
        OutputFormat::Csv => {
            let mut out = String::from(
                "id,year,tournament,black,white,result,black_score,theoretical_score,next,moves\n",
            );
            for (h, g, moves) in rows {
                out += &format!(
                    "{},{},{},{},{},{},{},{},{},{}\n",
                    h.id,
                    g.year,
                    csv_field(db.tournament(g.tournament)),
                    csv_field(db.player(g.black)),
                    csv_field(db.player(g.white)),
                    g.result_text(),
                    g.black_score,
                    g.theoretical
                        .map_or(String::new(), |t| t.black_score.to_string()),
                    h.next.map_or(String::new(), |s| s.to_string()),
                    moves
                );
            }
            out
        }
        OutputFormat::Text => {
            let mut out = format!("{} games", answer.games.len());
            if answer.games.len() > take {
                out += &format!(" (the {take} newest shown; --limit 0 for all)");
            }
            out += "\n";
            for (h, g, _) in rows {
                out += &format!(
                    "{:>4}  {:<24} {:<20} {:<20} {:>5}  theor {:>4}  next {}\n",
                    g.year,
                    db.tournament(g.tournament),
                    db.player(g.black),
                    db.player(g.white),
                    g.result_text(),
                    g.theoretical
                        .map_or("-".to_string(), |t| format!("{:+}", t.black_score)),
                    h.next.map_or("end".to_string(), |s| s.to_string()),
                );
            }
            out
        }
    })
}

/// `okapi bench --db`: the shipped database's load time (read and index, median of
/// `runs`), query times (median and worst over positions taken from its games at every
/// ply, and the start), and memory.
pub fn bench(runs: u32) -> Result<()> {
    let db = bench_load(runs)?;
    let positions = sample_positions(&db)?;
    bench_queries(&db, &positions, runs)
}

/// Loads the shipped database `runs` times (one alive at a time) and prints the read,
/// index and total times (medians, wall and CPU) and the process's memory; the last one
/// loaded.
fn bench_load(runs: u32) -> Result<Database> {
    let bytes = okapi_core::db::shipped_bytes();
    let rss_before = rss_kb();
    // Each run: (wall, CPU) of reading the file and of indexing it.
    let mut read = Vec::new();
    let mut index = Vec::new();
    let mut total = Vec::new();
    let mut db = None;
    let mut rss_after = None;
    for _ in 0..runs.max(1) {
        // One database alive at a time, so that the resident memory is one database's.
        drop(db.take());
        let (w0, c0) = (Instant::now(), thread_cpu());
        let builder = okapi_core::db::file::read(bytes)?;
        let (w1, c1) = (Instant::now(), thread_cpu());
        let d = builder.build()?;
        let (w2, c2) = (Instant::now(), thread_cpu());
        read.push(((w1 - w0).as_secs_f64(), c1 - c0));
        index.push(((w2 - w1).as_secs_f64(), c2 - c1));
        total.push(((w2 - w0).as_secs_f64(), c2 - c0));
        rss_after.get_or_insert(rss_kb());
        db = Some(d);
    }
    let db = db.context("no run")?;
    if db.is_empty() {
        bail!("the shipped database is empty: build it with `okapi db build`");
    }
    outln!(
        "database: {} games, file {:.2} MB, in memory {:.1} MB (games {:.1} MB, index {:.1} MB)",
        db.len(),
        bytes.len() as f64 / 1e6,
        db.memory() as f64 / 1e6,
        (db.memory() - db.index_memory()) as f64 / 1e6,
        db.index_memory() as f64 / 1e6,
    );
    let show = |what: &str, v: &[(f64, f64)]| {
        let mut wall: Vec<f64> = v.iter().map(|x| x.0).collect();
        let mut cpu: Vec<f64> = v.iter().map(|x| x.1).collect();
        outln!(
            "{what}, {} runs: median {:.0} ms wall, {:.0} ms CPU (min {:.0} ms wall)",
            v.len(),
            median(&mut wall) * 1e3,
            median(&mut cpu) * 1e3,
            wall.iter().cloned().fold(f64::MAX, f64::min) * 1e3,
        );
    };
    show("load: read the file (unzip, check)", &read);
    show("load: index the positions", &index);
    show("load: total", &total);
    if let (Some(a), Some(Some(b))) = (rss_before, rss_after) {
        outln!(
            "process memory: {:.1} MB resident before loading, {:.1} MB with the database \
             loaded (+{:.1} MB); peak over all runs {:.1} MB",
            a as f64 / 1e3,
            b as f64 / 1e3,
            (b as f64 - a as f64) / 1e3,
            peak_kb().unwrap_or(0) as f64 / 1e3
        );
    }
    Ok(db)
}

/// The positions the query benchmark asks for: the start, popular openings, and
/// positions of every 97th game at every third ply (a spread of depths and popularity).
fn sample_positions(db: &Database) -> Result<Vec<Position>> {
    let mut positions = vec![Position::start()];
    for moves in [
        "f5",
        "f5d6",
        "f5d6c3",
        "f5d6c3d3c4",
        "f5f6e6f4",
        "f5d6c5f4e3",
    ] {
        positions.push(position_of(moves)?);
    }
    for id in (0..db.len()).step_by(97) {
        let (start, moves) = db.oriented(id, okapi_core::board::symmetry::Symmetry::Identity);
        let mut p = start;
        for (k, &m) in moves.iter().enumerate() {
            if p.must_pass() {
                p.pass().ok();
            }
            if p.play(m).is_err() {
                break;
            }
            if k % 3 == 0 {
                positions.push(p);
            }
        }
    }
    Ok(positions)
}

/// Times the queries of `positions` (median and slowest), of three openings `runs` times
/// (at least 5), and of the start filtered by a player, and prints them.
fn bench_queries(db: &Database, positions: &[Position], runs: u32) -> Result<()> {
    let filter = Filter::default();
    let timed = |p: &Position, f: &Filter| {
        let (w, c) = (Instant::now(), thread_cpu());
        let a = db.query(p, f);
        (w.elapsed().as_secs_f64(), thread_cpu() - c, a.games.len())
    };
    let mut rows: Vec<(f64, f64, usize, usize)> = positions
        .iter()
        .map(|p| {
            let (w, c, n) = timed(p, &filter);
            (w, c, n, 60 - p.empty_count() as usize)
        })
        .collect();
    let mut wall: Vec<f64> = rows.iter().map(|r| r.0).collect();
    let mut cpu: Vec<f64> = rows.iter().map(|r| r.1).collect();
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    outln!(
        "query, {} positions: median {:.3} ms wall, {:.3} ms CPU; slowest {:.2} ms CPU ({} games, ply {})",
        rows.len(),
        median(&mut wall) * 1e3,
        median(&mut cpu) * 1e3,
        rows[0].1 * 1e3,
        rows[0].2,
        rows[0].3
    );
    for (name, moves) in [("the start", ""), ("f5", "f5"), ("f5 d6 c3", "f5d6c3")] {
        let p = position_of(moves)?;
        let runs: Vec<(f64, f64, usize)> = (0..runs.max(5)).map(|_| timed(&p, &filter)).collect();
        let mut wall: Vec<f64> = runs.iter().map(|r| r.0).collect();
        let mut cpu: Vec<f64> = runs.iter().map(|r| r.1).collect();
        outln!(
            "query of {name} ({} games), {} runs: median {:.2} ms wall, {:.2} ms CPU",
            runs[0].2,
            runs.len(),
            median(&mut wall) * 1e3,
            median(&mut cpu) * 1e3
        );
    }
    let player = Filter {
        player: "tamenori".into(),
        ..Filter::default()
    };
    let (w, c, n) = timed(&Position::start(), &player);
    outln!(
        "query of the start filtered by player \"tamenori\": {n} games, {:.2} ms wall, {:.2} ms CPU",
        w * 1e3,
        c * 1e3
    );
    Ok(())
}

/// This thread's CPU time in seconds (0 where the system does not tell): the machine is
/// shared, so wall times alone overstate the work.
fn thread_cpu() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime fills the struct it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    0.0
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { 0.0 } else { v[v.len() / 2] }
}

fn status_kb(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn rss_kb() -> Option<u64> {
    status_kb("VmRSS:")
}

fn peak_kb() -> Option<u64> {
    status_kb("VmHWM:")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn positions_and_filters_parse() {
        assert_eq!(position_of("").unwrap(), Position::start());
        let p = position_of("f5d6c3").unwrap();
        assert_eq!(p.empty_count(), 57);
        assert!(position_of("f5 a1").is_err());
        let cli = crate::Cli::try_parse_from([
            "okapi",
            "db",
            "games",
            "f5d6",
            "--player",
            "Tamenori",
            "--white",
            "--from-year",
            "2000",
            "--format",
            "csv",
        ])
        .unwrap();
        let crate::CliCommand::Db(DbCommand::Games(a)) = cli.command else {
            panic!("not db games")
        };
        let f = a.filter();
        assert_eq!(f.side, PlayerSide::White);
        assert_eq!(f.from_year, Some(2000));
        assert_eq!(a.format, OutputFormat::Csv);
        assert!(
            crate::Cli::try_parse_from(["okapi", "db", "games", "--black"]).is_err(),
            "--black needs --player"
        );
    }
}
