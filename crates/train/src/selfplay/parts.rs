//! The parts of a self-play run split into shards: each shard's part (the run's header,
//! then its games as store records), played and resumed by [`append_shard`], and their
//! merge into a store ([`merge_parts`]) with the checks of [`okapi_core::shard`].

use super::store::{next_index, open_to_append, parse, play_into, read_records, read_store};
use super::{MAGIC, PART_MAGIC, SelfPlayGame, SelfPlayOptions};
use anyhow::{Context, Result, bail, ensure};
use okapi_core::binary::check_header;
use okapi_core::eval::Evaluator;
use okapi_core::shard::{MergeError, Part, Progress, Shard, check_output, check_set, write_output};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

const PART_HEADER_LEN: usize = 8 + 8 + 4 * 4 + 4 * 4 + 8 + 4;

/// Which run a part belongs to and which share of it it holds.
#[derive(Clone, Debug, PartialEq)]
pub struct PartHeader {
    /// The run's options: `games` counts the games of the whole run, all shards.
    pub options: SelfPlayOptions,
    /// Index of the run's first game.
    pub first: u32,
    /// Which shard of the run the part is.
    pub shard: Shard,
}

impl PartHeader {
    /// The game indices of this shard's share, in order.
    pub fn share(&self) -> impl Iterator<Item = u32> + use<> {
        let end = self.first as u64 + self.options.games as u64;
        self.shard.share(self.first as u64..end).map(|i| i as u32)
    }

    /// The run the part is of: its header but for the shard's index.
    fn run(&self) -> PartHeader {
        PartHeader {
            shard: Shard {
                index: 0,
                ..self.shard
            },
            ..self.clone()
        }
    }

    /// The run in words, for messages.
    fn describe(&self) -> String {
        let o = &self.options;
        format!(
            "shard {} of games {}..{} of seed {} (depth {}, exact from {}, {}-{} random plies, temperature {}, hash bits {})",
            self.shard,
            self.first,
            self.first as u64 + o.games as u64,
            o.seed,
            o.depth,
            o.exact_empties,
            o.random_plies.0,
            o.random_plies.1,
            o.temperature,
            o.hash_bits
        )
    }

    fn to_bytes(&self) -> Vec<u8> {
        let o = &self.options;
        let mut h = Vec::with_capacity(PART_HEADER_LEN);
        h.extend_from_slice(PART_MAGIC);
        h.extend_from_slice(&o.seed.to_le_bytes());
        for x in [
            self.first,
            o.games,
            self.shard.index as u32,
            self.shard.count as u32,
            o.random_plies.0,
            o.random_plies.1,
            o.depth,
            o.exact_empties,
        ] {
            h.extend_from_slice(&x.to_le_bytes());
        }
        h.extend_from_slice(&o.temperature.to_bits().to_le_bytes());
        h.extend_from_slice(&o.hash_bits.to_le_bytes());
        debug_assert_eq!(h.len(), PART_HEADER_LEN);
        h
    }

    /// The header at the start of a part's bytes.
    fn parse(bytes: &[u8]) -> Result<PartHeader> {
        ensure!(
            !bytes.starts_with(MAGIC),
            "not a self-play shard part: it is a store"
        );
        check_header(
            bytes,
            PART_MAGIC,
            None,
            PART_HEADER_LEN,
            "a self-play shard part",
        )?;
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
        let shard = Shard::new(u32_at(24) as usize, u32_at(28) as usize)
            .map_err(|e| anyhow::anyhow!("the header names shard {e}"))?;
        Ok(PartHeader {
            options: SelfPlayOptions {
                seed: u64_at(8),
                games: u32_at(20),
                random_plies: (u32_at(32), u32_at(36)),
                depth: u32_at(40),
                exact_empties: u32_at(44),
                temperature: f64::from_bits(u64_at(48)),
                hash_bits: u32_at(56),
            },
            first: u32_at(16),
            shard,
        })
    }
}

/// A part read back for a merge.
struct ReadPart {
    header: PartHeader,
    games: Vec<SelfPlayGame>,
}

impl Part for ReadPart {
    fn shard(&self) -> Shard {
        self.header.shard
    }
    fn progress(&self) -> Option<Progress> {
        Some(Progress {
            held: self.games.len(),
            share: self.header.share().count(),
            unit: "games",
        })
    }
}

/// A part's header, its games and how many bytes its whole records take (a record cut
/// short at the end is left out).
fn parse_part(bytes: &[u8]) -> Result<(PartHeader, Vec<SelfPlayGame>, usize)> {
    let header = PartHeader::parse(bytes)?;
    let (games, at) = read_records(bytes, PART_HEADER_LEN)?;
    // The games must be the first of the share, in order.
    for (g, want) in games.iter().zip(header.share()) {
        ensure!(
            g.seed == header.options.seed && g.index == want,
            "holds game {} of seed {} where {} expects game {want}",
            g.index,
            g.seed,
            header.describe()
        );
    }
    ensure!(
        games.len() <= header.share().count(),
        "holds more games than its share"
    );
    Ok((header, games, at))
}

/// A part's header and games: refused if it is damaged or its last record cut short.
pub fn read_part(bytes: &[u8]) -> Result<(PartHeader, Vec<SelfPlayGame>)> {
    let (header, games, whole) = parse_part(bytes)?;
    ensure!(
        whole == bytes.len(),
        "the last record is cut short at byte {whole} of {} (run its shard again to finish it)",
        bytes.len()
    );
    Ok((header, games))
}

/// Plays shard `header.shard`'s share of the run (the games
/// `first..first + options.games` of `options.seed` whose index is the shard's modulo the
/// count) into the part at `path`, each game written as soon as it is over. A part that
/// already holds some of them (a run killed, or done in steps) goes on after them; a part
/// of another run or shard is refused. Returns the number of games in the part (its
/// whole share).
pub fn append_shard(
    path: &Path,
    eval: &Arc<Evaluator>,
    header: &PartHeader,
    progress: &mut dyn FnMut(&SelfPlayGame),
) -> Result<usize> {
    Shard::new(header.shard.index, header.shard.count)
        .map_err(|e| anyhow::anyhow!("no such shard: {e}"))?;
    let bytes = read_store(path)?;
    let (games, whole) = if bytes.is_empty() {
        (Vec::new(), 0)
    } else {
        let (found, games, whole) =
            parse_part(&bytes).with_context(|| path.display().to_string())?;
        ensure!(
            found == *header,
            "{} holds {}; this run is {}: give it another file",
            path.display(),
            found.describe(),
            header.describe()
        );
        (games, whole)
    };
    let mut file = open_to_append(path, whole)?;
    if whole == 0 {
        file.write_all(&header.to_bytes())?;
    }
    let share: Vec<u32> = header.share().collect();
    let rest = share[games.len()..].iter().copied();
    play_into(&mut file, eval, &header.options, rest, progress)?;
    Ok(share.len())
}

/// What [`merge_parts`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Games appended, and games in the store after.
    pub added: usize,
    pub total: usize,
}

/// Appends the games of the parts of one sharded run (`(file name, bytes)`, any order) to
/// the store at `store`, in game order: the store then holds the bytes the whole run,
/// unsharded, would have written. Refused, naming the file, unless the parts are every
/// shard of one run, each finished, and the run begins where the store's games of its
/// seed end.
pub fn merge_parts(store: &Path, parts: &[(String, Vec<u8>)]) -> Result<Merged> {
    let names: Vec<&str> = parts.iter().map(|(name, _)| name.as_str()).collect();
    check_output(store, &names)?;
    let mut read = Vec::with_capacity(parts.len());
    for (name, bytes) in parts {
        let (header, games) =
            read_part(bytes).map_err(|e| MergeError::unreadable(name, format!("{e:#}")))?;
        read.push((name.clone(), ReadPart { header, games }));
    }
    let read = check_set(&read, |(name, part), (first_name, first)| {
        (part.header.run() != first.header.run()).then(|| {
            format!(
                "{name} is {}, {first_name} is {}",
                part.header.describe(),
                first.header.describe()
            )
        })
    })?;
    let first = &read[0].1.header;
    let mut bytes = read_store(store)?;
    let (existing, whole) = parse(&bytes).with_context(|| store.display().to_string())?;
    let seed = first.options.seed;
    let next = next_index(&existing, seed);
    if next != first.first {
        let held = existing.iter().filter(|g| g.seed == seed).count();
        let has = if held == 0 {
            format!("has no game of seed {seed}")
        } else {
            format!("has games of seed {seed} up to game {}", next - 1)
        };
        bail!(
            "{} {has}, so the whole run would begin at game {next} of seed {seed}; the parts begin at game {} (give the shards --first {next})",
            store.display(),
            first.first
        );
    }
    // As the unsharded run does: a cut-short last record goes, a new store gets its magic.
    bytes.truncate(whole);
    if bytes.is_empty() {
        bytes.extend_from_slice(MAGIC);
    }
    let mut games: Vec<&SelfPlayGame> = read.iter().flat_map(|(_, p)| &p.games).collect();
    games.sort_by_key(|g| g.index);
    for g in &games {
        g.encode(&mut bytes);
    }
    write_output(store, &bytes)?;
    Ok(Merged {
        added: games.len(),
        total: existing.len() + games.len(),
    })
}
