//! `okapi ladder-fit`: the levels' Elo table (`data/levels-elo.json`) from the results of
//! `tools/level-ladder`'s matches.

mod fit;

pub use fit::{FitError, PairingResult, fit, read_results};

use anyhow::Context;
use okapi_core::formats::{MAX_SCRIPT_FILE, read_capped, same_file};
use okapi_core::level::ratings::LevelRatings;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct LadderFitArgs {
    /// Results files written by tools/level-ladder (one pairing a line).
    #[arg(required = true, value_name = "RESULTS.csv")]
    pub results: Vec<PathBuf>,
    /// Write the table to this file (atomically), e.g. data/levels-elo.json; without it
    /// the table is only printed.
    #[arg(long, value_name = "FILE.json")]
    pub out: Option<PathBuf>,
    /// The level at Elo 0.
    #[arg(long, default_value = "random")]
    pub anchor: String,
    /// How and where the games were played, kept in the table for its reader.
    #[arg(long, default_value = "")]
    pub measured: String,
}

pub fn run(a: &LadderFitArgs) -> anyhow::Result<()> {
    let mut results = Vec::new();
    // The commands that make the table again: each results file's ladder (with the solve
    // setting its lines were played at), then this fit.
    let mut command = Vec::new();
    if let Some(out) = &a.out
        && let Some(input) = a.results.iter().find(|r| same_file(r, out))
    {
        // Writing the table over a results file would lose the games it was fitted on.
        anyhow::bail!(
            "the output file {} is the results file {}",
            out.display(),
            input.display()
        );
    }
    for path in &a.results {
        // Capped as every reader of a person's file is (`ladder-fit /dev/zero`).
        let bytes = read_capped(path, MAX_SCRIPT_FILE)?;
        let text = String::from_utf8(bytes)
            .with_context(|| format!("{} is not a text file", path.display()))?;
        let file = read_results(&text, &path.display().to_string())?;
        if let Some(first) = file.first() {
            command.push(format!(
                "tools/level-ladder --solve-from {} {}",
                first.solve_from,
                path.display()
            ));
        }
        results.extend(file);
    }
    let levels = fit(&results, &a.anchor)?;
    outln!(
        "{:<10} {:>5} {:>7} {:>16} {:>6} {:>10}",
        "level",
        "solve",
        "Elo",
        "95% interval",
        "games",
        "s a move"
    );
    for l in &levels {
        outln!(
            "{:<10} {:>5} {:>7.0} {:>7.0} .. {:<6.0} {:>6} {:>10.5}",
            l.level,
            l.solve_from,
            l.elo,
            l.low,
            l.high,
            l.games,
            l.seconds_a_move
        );
    }
    if let Some(out) = &a.out {
        let table = LevelRatings {
            anchor: a.anchor.clone(),
            measured: a.measured.clone(),
            command: {
                let files: Vec<String> =
                    a.results.iter().map(|p| p.display().to_string()).collect();
                command.push(format!(
                    "okapi ladder-fit {} --out {}",
                    files.join(" "),
                    out.display()
                ));
                command.join("; ")
            },
            levels,
        };
        let mut text = serde_json::to_string_pretty(&table)?;
        text.push('\n');
        okapi_core::formats::write_atomic(out, text.as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
        outln!("wrote {}", out.display());
    }
    Ok(())
}
