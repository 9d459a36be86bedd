//! Where games come from: the WTHOR folder (`.wtb` game files named by `WTHOR.JOU` and
//! `WTHOR.TRN`, and the PGN-like exports of later years), and the user's own folders
//! (WTHOR files, PGN, GGF, Okapi's saved games). Every file goes through the readers of
//! [`crate::formats`]; a game that does not replay is skipped and counted, a file that is
//! not a game file at all is reported by name and skipped, and neither stops the rest.

use super::{Builder, GameNames};
use crate::board::{Move, Position};
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
    /// Files refused, with the reason (corrupt, foreign, unreadable).
    pub bad_files: Vec<(PathBuf, String)>,
}

impl Report {
    fn merge(&mut self, other: Report) {
        self.games += other.games;
        self.files += other.files;
        self.skipped_games.extend(other.skipped_games);
        self.bad_files.extend(other.bad_files);
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
    /// `WTHOR.JOU` and `WTHOR.TRN` in `dir` (any letter case); a missing file gives no
    /// names (games then show player numbers), a corrupt one is reported.
    pub fn read(dir: &Path, report: &mut Report) -> WthorNames {
        let mut names = WthorNames::default();
        for (file, len, out) in [
            ("wthor.jou", wthor::PLAYER_NAME_LEN, &mut names.players),
            (
                "wthor.trn",
                wthor::TOURNAMENT_NAME_LEN,
                &mut names.tournaments,
            ),
        ] {
            let Some(path) = find_case_insensitive(dir, file) else {
                continue;
            };
            match wthor::read_names(&path, len) {
                Ok(v) => *out = v,
                Err(e) => report.bad_files.push((path, e.to_string())),
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

fn find_case_insensitive(dir: &Path, name: &str) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The files of `dir` (not its subfolders), sorted by name so builds are reproducible.
fn files_of(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
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
    for g in &set.games {
        let black = names.player(g.black);
        let white = names.player(g.white);
        let tournament = names.tournament(g.tournament);
        let names = GameNames {
            black: &black,
            white: &white,
            tournament: &tournament,
            source,
        };
        if builder.add(&g.record, names).is_err() {
            report
                .bad_files
                .push((path.into(), "too many games".into()));
            return report;
        }
        report.games += 1;
    }
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
    for g in &games {
        let names = GameNames {
            black: &g.black,
            white: &g.white,
            tournament: &g.event,
            source,
        };
        if builder.add(&g.record, names).is_err() {
            report
                .bad_files
                .push((path.into(), "too many games".into()));
            return report;
        }
        report.games += 1;
    }
    report
}

/// A game of Okapi's or a GGF file as a record: the main line from the standard start.
/// Black's score is the final score if the game is over, else the disc difference where it
/// stops.
pub fn record_of_game(game: &Game) -> Result<GameRecord, String> {
    if game.start() != Position::start() {
        return Err("the game does not start from the standard position".into());
    }
    let line = game.main_line();
    let moves: Vec<_> = line
        .iter()
        .filter_map(|m| match m {
            Move::Play(sq) => Some(*sq),
            Move::Pass => None,
        })
        .collect();
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
    Ok(GameRecord {
        moves,
        black_score: black_score as i8,
        theoretical: None,
        year,
    })
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
    let games: Vec<Result<Game, String>> = if extension(path) == "ggf" {
        // GGS archives hold one game a line; each `(;` starts one.
        text.match_indices("(;")
            .map(|(at, _)| ggf::read(&text[at..]).map_err(|e| e.to_string()))
            .collect()
    } else {
        vec![read_game(&text).map_err(|e| e.to_string())]
    };
    let mut added = 0;
    let mut errors = Vec::new();
    for (i, g) in games.into_iter().enumerate() {
        match g.and_then(|g| record_of_game(&g).map(|r| (g, r))) {
            Ok((g, record)) => {
                let names = GameNames {
                    black: &g.black,
                    white: &g.white,
                    tournament: &g.event,
                    source,
                };
                if builder.add(&record, names).is_err() {
                    report
                        .bad_files
                        .push((path.into(), "too many games".into()));
                    return report;
                }
                added += 1;
            }
            Err(e) => errors.push(format!("{}: game {}: {e}", path.display(), i + 1)),
        }
    }
    if added == 0 {
        let why = errors
            .first()
            .map_or("no game in it".to_string(), |e| e.clone());
        report.bad_files.push((path.into(), why));
        return report;
    }
    report.files = 1;
    report.games = added;
    report.skipped_games = errors;
    report
}

/// Adds the WTHOR folder: its `.wtb` files (named by `WTHOR.JOU`/`.TRN`) and the `.pgn`
/// files in it and in its `pgn/` subfolder, each in name order. The source of every game
/// is `source`.
pub fn add_wthor_dir(builder: &mut Builder, dir: &Path, source: &str) -> std::io::Result<Report> {
    let mut report = Report::default();
    let names = WthorNames::read(dir, &mut report);
    let mut files = files_of(dir)?;
    let pgn_dir = dir.join("pgn");
    if pgn_dir.is_dir() {
        files.extend(files_of(&pgn_dir)?);
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
/// are left alone; a file of those kinds that does not read is reported and skipped.
pub fn add_folder(builder: &mut Builder, dir: &Path) -> Report {
    let mut report = Report::default();
    add_folder_inner(builder, dir, 0, &mut report);
    report
}

fn add_folder_inner(builder: &mut Builder, dir: &Path, depth: usize, report: &mut Report) {
    const MAX_DEPTH: usize = 4;
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            report
                .bad_files
                .push((dir.into(), format!("cannot read the folder: {e}")));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    let names = WthorNames::read(dir, report);
    for path in paths {
        if path.is_dir() {
            if depth < MAX_DEPTH {
                add_folder_inner(builder, &path, depth + 1, report);
            }
            continue;
        }
        let source = path.display().to_string();
        let r = match extension(&path).as_str() {
            "wtb" => add_wthor_file(builder, &path, &names, &source),
            "pgn" => add_pgn_file(builder, &path, &source),
            "ggf" | "json" | "txt" => add_game_file(builder, &path, &source),
            _ => continue,
        };
        report.merge(r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn a_folder_with_bad_files_reports_them_and_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let game = GameRecord {
            moves: ["f5", "d6", "c3"]
                .iter()
                .map(|s| Square::parse(s).unwrap())
                .collect(),
            black_score: 2,
            theoretical: None,
            year: 2010,
        };
        std::fs::write(dir.path().join("a.wtb"), wthor::write(&[game], 2010, 22)).unwrap();
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
