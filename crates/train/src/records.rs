//! The record source: the game records of `--data DIR` in the one order every training
//! command numbers them (the fit splits them by year; label files key their games by
//! that number).

use anyhow::{Context, Result};
use okapi_core::formats::records::{GameRecord, RecordSet, logbook, pgn, wthor};
use std::path::Path;

/// Which part of the fit a file of the record source feeds, in the report's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RecordGroup {
    WthorTrain,
    WthorHeld,
    PgnTrain,
    PgnHeld,
    Logbook,
}

impl RecordGroup {
    pub(crate) const ALL: [RecordGroup; 5] = [
        RecordGroup::WthorTrain,
        RecordGroup::WthorHeld,
        RecordGroup::PgnTrain,
        RecordGroup::PgnHeld,
        RecordGroup::Logbook,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            RecordGroup::WthorTrain => "WTHOR 1977-2016 (training)",
            RecordGroup::WthorHeld => "WTHOR 2017-2018 (held out)",
            RecordGroup::PgnTrain => "WTHOR PGN 2019-2023 (training)",
            RecordGroup::PgnHeld => "WTHOR PGN 2024-2025 (held out)",
            RecordGroup::Logbook => "Logistello logbook (training)",
        }
    }

    pub(crate) fn held_out(self) -> bool {
        matches!(self, RecordGroup::WthorHeld | RecordGroup::PgnHeld)
    }
}

/// The record source's files in the order its games are numbered (label files key their
/// games by that number): WTHOR `.wtb` 1977–2018, WTHOR PGN 2019–2025, then Logistello's
/// book games.
pub(crate) fn read_record_files(data: &Path) -> Result<Vec<(RecordGroup, RecordSet)>> {
    let mut files = Vec::new();
    for year in 1977..=2018 {
        let path = data.join(format!("wthor/WTH_{year}.wtb"));
        let (_, set) =
            wthor::read_file(&path).with_context(|| format!("reading {}", path.display()))?;
        let group = if year >= 2017 {
            RecordGroup::WthorHeld
        } else {
            RecordGroup::WthorTrain
        };
        files.push((group, set));
    }
    for year in 2019..=2025 {
        let path = data.join(format!("wthor/pgn/WTH_{year}.pgn"));
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let group = if year >= 2024 {
            RecordGroup::PgnHeld
        } else {
            RecordGroup::PgnTrain
        };
        files.push((group, pgn::parse(&text)));
    }
    let path = data.join("logistello/logbook.gam.gz");
    files.push((RecordGroup::Logbook, logbook::read_file(&path)?));
    Ok(files)
}

/// The games of the record source in `data` in the order label files number them
/// ([`crate::label_files::Source::records`]), held-out years included.
pub fn record_games(data: &Path) -> Result<Vec<GameRecord>> {
    Ok(read_record_files(data)?
        .into_iter()
        .flat_map(|(_, set)| set.games)
        .collect())
}
