//! Where games come from: the WTHOR folder (`.wtb` game files named by `WTHOR.JOU` and
//! `WTHOR.TRN`, and the PGN-like exports of later years), and the user's own folders
//! (WTHOR files, PGN, GGF, Okapi's saved games). Every file goes through the readers of
//! [`crate::formats`]; a game that does not replay is skipped and counted, a file that is
//! not a game file at all is reported by name and skipped, and neither stops the rest.

use super::{Builder, DbError, GameNames};
use crate::board::Position;
use crate::formats::records::{GameRecord, pgn, wthor};
use crate::formats::{MAX_GAME_FILE, MAX_RECORD_FILE, ggf, read_capped, read_game};
use crate::game::Game;
use std::path::{Path, PathBuf};

/// What reading a source added and what it skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games added.
    pub games: usize,
    /// Files read.
    pub files: usize,
    /// Games skipped inside files that were read: `file: game N (where): why`.
    pub skipped_games: Vec<String>,
    /// Files refused, with the reason (corrupt, foreign, unreadable, not a regular file),
    /// and folders that could not be read.
    pub bad_files: Vec<(PathBuf, String)>,
    /// Files read only in part, with what is missing (a WTHOR file cut short: its whole
    /// games are kept).
    pub damaged_files: Vec<(PathBuf, String)>,
}

impl Report {
    fn merge(&mut self, other: Report) {
        self.games += other.games;
        self.files += other.files;
        self.skipped_games.extend(other.skipped_games);
        self.bad_files.extend(other.bad_files);
        self.damaged_files.extend(other.damaged_files);
    }

    /// Was a file refused, or read only in part? (Games skipped inside a file that was
    /// read whole are not damage: the federation's own files hold a few.)
    pub fn is_damaged(&self) -> bool {
        !self.bad_files.is_empty() || !self.damaged_files.is_empty()
    }
}

/// Player and tournament names of a WTHOR folder (empty when the files are absent).
#[derive(Clone, Debug, Default)]
pub struct WthorNames {
    /// `WTHOR.JOU`'s names, by player number.
    pub players: Vec<String>,
    /// `WTHOR.TRN`'s names, by tournament number.
    pub tournaments: Vec<String>,
}

impl WthorNames {
    /// `WTHOR.JOU` and `WTHOR.TRN` among `files` (any letter case); a missing file gives
    /// no names (games then show player numbers) and is reported when `required` (the
    /// federation's folder has both), a corrupt one is always reported.
    fn read(files: &[PathBuf], required: bool, report: &mut Report) -> WthorNames {
        let mut names = WthorNames::default();
        for (file, len, out) in [
            ("wthor.jou", wthor::PLAYER_NAME_LEN, &mut names.players),
            (
                "wthor.trn",
                wthor::TOURNAMENT_NAME_LEN,
                &mut names.tournaments,
            ),
        ] {
            let found = files.iter().find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.eq_ignore_ascii_case(file))
            });
            let Some(path) = found else {
                if required && let Some(dir) = files.first().and_then(|f| f.parent()) {
                    report.bad_files.push((
                        dir.join(file.to_ascii_uppercase()),
                        "missing: the games would show numbers instead of names".into(),
                    ));
                }
                continue;
            };
            match wthor::read_names(path, len) {
                Ok(v) => *out = v,
                Err(e) => report.bad_files.push((path.clone(), e.to_string())),
            }
        }
        names
    }

    fn player(&self, n: u16) -> String {
        self.players
            .get(n as usize)
            .cloned()
            .unwrap_or_else(|| format!("player #{n}"))
    }

    fn tournament(&self, n: u16) -> String {
        self.tournaments
            .get(n as usize)
            .cloned()
            .unwrap_or_else(|| format!("tournament #{n}"))
    }
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// What a folder holds, as the games readers see it: its regular files and its
/// subfolders, each sorted by name (so builds are reproducible). Anything else (a FIFO, a
/// device, a socket, a broken link) is reported and never opened: opening a FIFO waits
/// for a writer, for ever. A folder that cannot be listed is reported too.
#[derive(Default)]
struct Listing {
    files: Vec<PathBuf>,
    folders: Vec<PathBuf>,
}

fn list(dir: &Path, report: &mut Report) -> Listing {
    let mut listing = Listing::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            report
                .bad_files
                .push((dir.into(), format!("cannot read the folder: {e}")));
            return listing;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        // Links are followed: a link to a file or a folder is that file or folder.
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => listing.files.push(path),
            Ok(m) if m.is_dir() => listing.folders.push(path),
            Ok(_) if is_game_file(&path) => report.bad_files.push((
                path,
                "not a regular file (a FIFO, device or socket): skipped".into(),
            )),
            Err(e) if is_game_file(&path) => report
                .bad_files
                .push((path, format!("cannot be read: {e}"))),
            _ => {}
        }
    }
    listing
}

/// Is `path` a file the walkers read (by its extension)?
fn is_game_file(path: &Path) -> bool {
    matches!(
        extension(path).as_str(),
        "wtb" | "pgn" | "ggf" | "json" | "txt"
    ) || path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.eq_ignore_ascii_case("wthor.jou") || n.eq_ignore_ascii_case("wthor.trn"))
}

/// Adds one `.wtb` file's games.
pub fn add_wthor_file(
    builder: &mut Builder,
    path: &Path,
    names: &WthorNames,
    source: &str,
) -> Report {
    let mut report = Report::default();
    let (_, set) = match wthor::read_games_file(path) {
        Ok(x) => x,
        Err(e) => {
            report.bad_files.push((path.into(), e.to_string()));
            return report;
        }
    };
    report.files = 1;
    let shown = path.display();
    report
        .skipped_games
        .extend(set.skipped.iter().map(|s| format!("{shown}: {s}")));
    if set.missing_games > 0 {
        report.damaged_files.push((
            path.into(),
            format!(
                "cut short: {} of the games its header announces are missing",
                set.missing_games
            ),
        ));
    }
    add_games(builder, path, &set.games, &mut report, |builder, g| {
        let black = names.player(g.black);
        let white = names.player(g.white);
        let tournament = names.tournament(g.tournament);
        let names = GameNames {
            black: &black,
            white: &white,
            tournament: &tournament,
            source,
        };
        builder.add(&g.record, names)
    });
    report
}

/// Adds one PGN-like file's games.
pub fn add_pgn_file(builder: &mut Builder, path: &Path, source: &str) -> Report {
    let mut report = Report::default();
    let bytes = match read_capped(path, MAX_RECORD_FILE) {
        Ok(b) => b,
        Err(e) => {
            report.bad_files.push((path.into(), e.to_string()));
            return report;
        }
    };
    let (games, skipped) = pgn::parse_games(&String::from_utf8_lossy(&bytes));
    if games.is_empty() {
        // Nothing in it is a game: a foreign file, not a file with a few bad games.
        let why = skipped.first().map_or("no game in it".to_string(), |s| {
            format!("no game could be read ({s})")
        });
        report.bad_files.push((path.into(), why));
        return report;
    }
    report.files = 1;
    let shown = path.display();
    report
        .skipped_games
        .extend(skipped.iter().map(|s| format!("{shown}: {s}")));
    add_games(builder, path, &games, &mut report, |builder, g| {
        let names = GameNames {
            black: &g.black,
            white: &g.white,
            tournament: &g.event,
            source,
        };
        builder.add(&g.record, names)
    });
    report
}

/// The one loop that adds a file's games to the database, counting them in `report`; once
/// the database is full the rest of the file is left out and the file is reported.
fn add_games<G>(
    builder: &mut Builder,
    path: &Path,
    games: &[G],
    report: &mut Report,
    mut add: impl FnMut(&mut Builder, &G) -> Result<(), DbError>,
) {
    for g in games {
        if add(builder, g).is_err() {
            report
                .bad_files
                .push((path.into(), "too many games".into()));
            return;
        }
        report.games += 1;
    }
}

/// A game of Okapi's or a GGF file as a record: the main line from the standard start,
/// and whether it is played to its end. Black's score is the final score if the game is
/// over, else the disc difference where it stops (no result: such a game counts in no
/// win figure, [`crate::db::GameInfo::finished`]).
pub fn record_of_game(game: &Game) -> Result<(GameRecord, bool), String> {
    if game.start() != Position::start() {
        return Err("the game does not start from the standard position".into());
    }
    let line = game.main_line();
    let moves: Vec<_> = line.iter().filter_map(|m| m.square()).collect();
    if moves.is_empty() {
        return Err("the game has no moves".into());
    }
    let mut p = Position::start();
    for &m in &line {
        p.play_move(m).map_err(|e| format!("move {m}: {e}"))?;
    }
    let black = p.black().count_ones() as i32;
    let white = p.white().count_ones() as i32;
    let empties = 64 - black - white;
    let black_score = if p.is_game_over() {
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => black - white + empties,
            std::cmp::Ordering::Less => black - white - empties,
            std::cmp::Ordering::Equal => 0,
        }
    } else {
        black - white
    };
    let year = game.date.get(..4).and_then(|y| y.parse().ok()).unwrap_or(0);
    Ok((
        GameRecord {
            moves,
            black_score: black_score as i8,
            theoretical: None,
            year,
        },
        p.is_game_over(),
    ))
}

/// Adds the games of a GGF file (one or more `(;...;)` records) or of one saved game
/// (Okapi JSON, a transcript).
pub fn add_game_file(builder: &mut Builder, path: &Path, source: &str) -> Report {
    let mut report = Report::default();
    let bytes = match read_capped(path, MAX_GAME_FILE) {
        Ok(b) => b,
        Err(e) => {
            report.bad_files.push((path.into(), e.to_string()));
            return report;
        }
    };
    let Ok(text) = String::from_utf8(bytes) else {
        report
            .bad_files
            .push((path.into(), "not a text file (not UTF-8)".into()));
        return report;
    };
    // Each game, and whether its start was drawn (a GGF random-start type, `TY[8r]`).
    let games: Vec<Result<(Game, bool), String>> = if extension(path) == "ggf" {
        // GGS archives hold one game a line; each `(;` starts one.
        text.match_indices("(;")
            .map(|(at, _)| {
                ggf::read_record(&text[at..])
                    .map(|r| {
                        let xot = r.random_start();
                        (r.game, xot)
                    })
                    .map_err(|e| e.to_string())
            })
            .collect()
    } else {
        vec![
            read_game(&text)
                .map(|g| (g, false))
                .map_err(|e| e.to_string()),
        ]
    };
    let mut read = Vec::new();
    let mut errors = Vec::new();
    for (i, g) in games.into_iter().enumerate() {
        match g.and_then(|(g, xot)| record_of_game(&g).map(|r| (g, r, xot))) {
            Ok(game) => read.push(game),
            Err(e) => errors.push(format!("{}: game {}: {e}", path.display(), i + 1)),
        }
    }
    if read.is_empty() {
        let why = errors
            .first()
            .map_or("no game in it".to_string(), |e| e.clone());
        report.bad_files.push((path.into(), why));
        return report;
    }
    report.files = 1;
    report.skipped_games = errors;
    add_games(
        builder,
        path,
        &read,
        &mut report,
        |builder, (g, (record, finished), xot)| {
            let names = GameNames {
                black: &g.black,
                white: &g.white,
                tournament: &g.event,
                source,
            };
            if *finished {
                builder.add(record, names)?;
            } else {
                builder.add_unfinished(record, names)?;
            }
            if *xot {
                builder.mark_last_xot();
            }
            Ok(())
        },
    );
    report
}

/// Adds the WTHOR folder: its `.wtb` files (named by `WTHOR.JOU`/`.TRN`, which must be
/// there) and the `.pgn` files in it and in its `pgn/` subfolder, each in name order. The
/// source of every game is `source`. A folder that cannot be listed is an error; what is
/// wrong with its files is in the report ([`Report::is_damaged`]).
pub fn add_wthor_dir(builder: &mut Builder, dir: &Path, source: &str) -> std::io::Result<Report> {
    std::fs::read_dir(dir)?;
    let mut report = Report::default();
    let listing = list(dir, &mut report);
    let names = WthorNames::read(&listing.files, true, &mut report);
    let mut files = listing.files;
    if let Some(pgn_dir) = listing
        .folders
        .iter()
        .find(|f| f.file_name().is_some_and(|n| n == "pgn"))
    {
        files.extend(list(pgn_dir, &mut report).files);
    }
    for path in files {
        match extension(&path).as_str() {
            "wtb" => report.merge(add_wthor_file(builder, &path, &names, source)),
            "pgn" => report.merge(add_pgn_file(builder, &path, source)),
            _ => {}
        }
    }
    Ok(report)
}

/// Adds a user's folder and its subfolders (a few levels deep): WTHOR `.wtb` files (named
/// by a `WTHOR.JOU`/`.TRN` beside them if there is one), `.pgn`, `.ggf`, and Okapi's saved
/// games (`.json`, `.txt` transcripts). Each game's source is its file's path. Other files
/// are left alone; a file of those kinds that does not read is reported and skipped, and
/// so is a folder that cannot be read. Links are followed, each real folder and file
/// once: a link back up the tree (`ln -s . self`) adds nothing twice.
///
/// This is the one walker of games folders: `okapi db` (`--folder`) and the app's
/// database tab read folders through it.
pub fn add_folder(builder: &mut Builder, dir: &Path) -> Report {
    let mut report = Report::default();
    let mut seen = std::collections::HashSet::new();
    add_folder_inner(builder, dir, 0, &mut seen, &mut report);
    report
}

/// The real path of `path` (links resolved), or the path itself where that fails.
fn real_path(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn add_folder_inner(
    builder: &mut Builder,
    dir: &Path,
    depth: usize,
    seen: &mut std::collections::HashSet<PathBuf>,
    report: &mut Report,
) {
    const MAX_DEPTH: usize = 4;
    if !seen.insert(real_path(dir)) {
        return;
    }
    let listing = list(dir, report);
    let names = WthorNames::read(&listing.files, false, report);
    for path in &listing.files {
        if !is_game_file(path) || !seen.insert(real_path(path)) {
            continue;
        }
        let source = path.display().to_string();
        let r = match extension(path).as_str() {
            "wtb" => add_wthor_file(builder, path, &names, &source),
            "pgn" => add_pgn_file(builder, path, &source),
            "ggf" | "json" | "txt" => add_game_file(builder, path, &source),
            _ => continue, // WTHOR.JOU and .TRN: read above, as names
        };
        report.merge(r);
    }
    if depth < MAX_DEPTH {
        for folder in &listing.folders {
            add_folder_inner(builder, folder, depth + 1, seen, report);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Square};

    fn one_game(year: u16) -> Vec<u8> {
        let game = GameRecord {
            moves: ["f5", "d6", "c3"]
                .iter()
                .map(|s| Square::parse(s).unwrap())
                .collect(),
            black_score: 2,
            theoretical: None,
            year,
        };
        wthor::write(&[game], year, 22)
    }

    /// One GGF of short games moved Black's score at the start from 48% to 67%: a game
    /// stopped half-way counts in the games, never as a result.
    #[test]
    fn unfinished_games_count_in_no_result() {
        let dir = tempfile::tempdir().unwrap();
        // A game played to its end (each side's first legal move), then two stopped early
        // with Black ahead on discs.
        let mut ended = Game::new(Position::start());
        loop {
            let p = ended.position();
            if p.is_game_over() {
                break;
            }
            let mv = p.legal_moves().iter().next().map_or(Move::Pass, Move::Play);
            ended.play(mv, None).unwrap();
        }
        let (b, w) = ended.result().unwrap();
        crate::formats::save_game(&ended, &dir.path().join("ended.json")).unwrap();
        for (name, moves) in [("a.txt", "f5d6c3d3c4"), ("b.txt", "f5f6e6")] {
            std::fs::write(dir.path().join(name), moves).unwrap();
        }
        let mut builder = Builder::new();
        let report = add_folder(&mut builder, dir.path());
        assert_eq!(report.games, 3);
        let db = builder.build().unwrap();
        let answer = db.query(&Position::start(), &crate::db::Filter::default());
        let f5 = answer
            .moves
            .iter()
            .find(|m| m.square.to_string() == "f5")
            .unwrap();
        assert_eq!((f5.games, f5.unfinished, f5.finished()), (3, 2, 1));
        let black_won = b > w;
        assert_eq!(f5.black_wins, u32::from(black_won));
        assert_eq!(
            f5.black_win_percent(),
            if black_won {
                100.0
            } else if b == w {
                50.0
            } else {
                0.0
            }
        );
        assert_eq!(f5.average_black_score(), f64::from(b as i32 - w as i32));
    }

    /// Runs `f` on a thread and fails if it has not finished in 20 s (a FIFO opened for
    /// reading waits for a writer for ever).
    fn within_20_s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(f()));
        rx.recv_timeout(std::time::Duration::from_secs(20))
            .expect("still reading after 20 s: blocked")
    }

    #[cfg(unix)]
    fn fifo(path: &Path) {
        let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    }

    #[test]
    #[cfg(unix)]
    fn a_fifo_in_a_games_folder_is_reported_and_never_opened() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "f5 d6 c3 d3").unwrap();
        fifo(&dir.path().join("b.txt"));
        fifo(&dir.path().join("notes")); // not a games file: left alone, unsaid
        let path = dir.path().to_path_buf();
        let report = within_20_s(move || add_folder(&mut Builder::new(), &path));
        assert_eq!(report.games, 1, "{report:?}");
        assert_eq!(report.bad_files.len(), 1, "{report:?}");
        assert!(report.bad_files[0].0.ends_with("b.txt"));
        assert!(report.bad_files[0].1.contains("not a regular file"));
        // The same in the WTHOR folder, where the names file is a FIFO.
        let wthor = tempfile::tempdir().unwrap();
        std::fs::write(wthor.path().join("WTH_2010.wtb"), one_game(2010)).unwrap();
        std::fs::write(
            wthor.path().join("WTHOR.TRN"),
            wthor::write_names(&["Paris".into()], wthor::TOURNAMENT_NAME_LEN),
        )
        .unwrap();
        fifo(&wthor.path().join("WTHOR.JOU"));
        let path = wthor.path().to_path_buf();
        let report =
            within_20_s(move || add_wthor_dir(&mut Builder::new(), &path, "WTHOR").unwrap());
        assert_eq!(report.games, 1, "{report:?}");
        assert!(report.is_damaged());
        assert!(
            report
                .bad_files
                .iter()
                .any(|(p, why)| p.ends_with("WTHOR.JOU") && why.contains("not a regular file")),
            "{report:?}"
        );
    }

    #[test]
    #[cfg(unix)]
    fn symlink_loops_in_a_games_folder_count_each_game_once() {
        let dir = tempfile::tempdir().unwrap();
        let fold = dir.path().join("fold");
        std::fs::create_dir(&fold).unwrap();
        std::fs::write(fold.join("a.txt"), "f5 d6 c3 d3").unwrap();
        // `ln -s . fold/self` counted the game 5 times; three links, 121 times.
        std::os::unix::fs::symlink(".", fold.join("self")).unwrap();
        std::os::unix::fs::symlink("..", fold.join("up")).unwrap();
        std::os::unix::fs::symlink(&fold, fold.join("again")).unwrap();
        std::os::unix::fs::symlink(fold.join("a.txt"), fold.join("b.txt")).unwrap();
        let mut b = Builder::new();
        let report = add_folder(&mut b, &fold);
        assert_eq!(report.games, 1, "{report:?}");
        assert_eq!(b.build().unwrap().len(), 1);
        // A folder reached only through a link is still read (once).
        let other = tempfile::tempdir().unwrap();
        std::fs::write(other.path().join("c.txt"), "f5 f6 e6 f4").unwrap();
        std::os::unix::fs::symlink(other.path(), fold.join("linked")).unwrap();
        let report = add_folder(&mut Builder::new(), &fold);
        assert_eq!(report.games, 2, "{report:?}");
    }

    #[test]
    fn a_damaged_wthor_folder_says_which_files() {
        let names = |n: usize, len: usize| wthor::write_names(&vec!["x".to_string(); n], len);
        let whole = |dir: &Path| {
            std::fs::write(dir.join("WTH_2009.wtb"), one_game(2009)).unwrap();
            std::fs::write(dir.join("WTH_2010.wtb"), one_game(2010)).unwrap();
            std::fs::write(dir.join("WTHOR.JOU"), names(3, wthor::PLAYER_NAME_LEN)).unwrap();
            std::fs::write(dir.join("WTHOR.TRN"), names(1, wthor::TOURNAMENT_NAME_LEN)).unwrap();
        };
        let read = |dir: &Path| add_wthor_dir(&mut Builder::new(), dir, "WTHOR").unwrap();
        let dir = tempfile::tempdir().unwrap();
        whole(dir.path());
        let report = read(dir.path());
        assert!(!report.is_damaged(), "{report:?}");
        assert_eq!(report.games, 2);
        // A year file cut short: its whole games kept, the file named as damaged.
        let mut two = one_game(2010);
        two[4] = 2; // the header announces two games; one is there
        std::fs::write(dir.path().join("WTH_2010.wtb"), &two).unwrap();
        let report = read(dir.path());
        assert_eq!(report.games, 2);
        assert_eq!(report.damaged_files.len(), 1, "{report:?}");
        assert!(report.damaged_files[0].0.ends_with("WTH_2010.wtb"));
        assert!(
            report.damaged_files[0]
                .1
                .contains("cut short: 1 of the games")
        );
        // A names file whose count is zero; names files missing.
        whole(dir.path());
        let mut jou = names(3, wthor::PLAYER_NAME_LEN);
        jou[8] = 0;
        std::fs::write(dir.path().join("WTHOR.JOU"), jou).unwrap();
        let report = read(dir.path());
        assert!(report.bad_files[0].0.ends_with("WTHOR.JOU"), "{report:?}");
        std::fs::remove_file(dir.path().join("WTHOR.JOU")).unwrap();
        std::fs::remove_file(dir.path().join("WTHOR.TRN")).unwrap();
        let report = read(dir.path());
        let missing: Vec<_> = report
            .bad_files
            .iter()
            .map(|(p, w)| (p.file_name().unwrap().to_owned(), w.clone()))
            .collect();
        assert_eq!(missing.len(), 2, "{missing:?}");
        assert!(missing[0].1.starts_with("missing"), "{missing:?}");
        // A user's folder needs no names files.
        assert!(!add_folder(&mut Builder::new(), dir.path()).is_damaged());
    }

    #[test]
    #[cfg(unix)]
    fn a_folder_that_cannot_be_read_is_reported_and_skipped() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "f5 d6 c3 d3").unwrap();
        let closed = dir.path().join("closed");
        std::fs::create_dir(&closed).unwrap();
        std::fs::write(closed.join("b.txt"), "f5 f6 e6 f4").unwrap();
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o000)).unwrap();
        let readable = std::fs::read_dir(&closed).is_ok(); // root reads it anyway
        let report = add_folder(&mut Builder::new(), dir.path());
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o755)).unwrap();
        if readable {
            assert_eq!(report.games, 2, "{report:?}");
        } else {
            assert_eq!(report.games, 1, "{report:?}");
            assert!(report.bad_files[0].1.contains("cannot read the folder"));
        }
    }

    #[test]
    fn a_folder_with_bad_files_reports_them_and_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.wtb"), one_game(2010)).unwrap();
        std::fs::write(dir.path().join("b.wtb"), b"garbage").unwrap();
        std::fs::write(
            dir.path().join("c.ggf"),
            "(;GM[Othello]PC[Club final]PB[x]PW[y]B[F5]W[F6];)",
        )
        .unwrap();
        std::fs::write(dir.path().join("d.pgn"), "hello\nworld\n").unwrap();
        std::fs::write(dir.path().join("e.json"), "{ not json").unwrap();
        std::fs::write(dir.path().join("f.txt"), "f5 d6 c3 d3").unwrap();
        std::fs::write(dir.path().join("notes.md"), "ignored").unwrap();
        let mut b = Builder::new();
        let report = add_folder(&mut b, dir.path());
        assert_eq!(report.games, 3, "{report:?}");
        let bad: Vec<String> = report
            .bad_files
            .iter()
            .map(|(p, _)| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(bad, ["b.wtb", "d.pgn", "e.json"], "{report:?}");
        let db = b.build().unwrap();
        assert_eq!(db.len(), 3);
        assert_eq!(db.player(db.game(1).black), "x");
        assert_eq!(db.tournament(db.game(1).tournament), "Club final");
        assert!(db.source(db.game(2).source).ends_with("f.txt"));
    }
}
