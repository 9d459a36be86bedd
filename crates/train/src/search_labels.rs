//! Search labels: training positions valued by Okapi's own search instead of by the games
//! that reached them (`okapi train eval --search-depth D`).
//!
//! A position's game label is the result its game ended with (or the negamax of the
//! games through it), after every later move the players made — human errors included.
//! A search of the position itself is a cleaner target: on the held-out WTHOR positions
//! at WTHOR's theoretical depth (22/24 empties, 1,220 positions, every 4th game of
//! 2017–2018) the shipped evaluation is off perfect play by 6.03 discs on average, its
//! depth-2 search by 5.32, depth 4 by 4.82, depth 6 by 4.33, depth 8 by 3.82 and depth
//! 10 by 3.42 (0.01, 0.07, 0.54, 3.5 and 21 ms a position on one core). Fitting the
//! evaluation to such values distils the search into it.
//!
//! Each position is searched alone (the table cleared first, full width, one thread), so
//! its value depends only on the position, the depth and the evaluation: the labels are
//! the same whatever the order, the chunking or the number of threads.
//!
//! # Cache
//!
//! Labelling millions of positions takes tens of minutes, so the values go to a cache
//! file in chunks as they are found: a run that is stopped resumes where it was, and
//! later fits reuse the values. The file (little-endian) is the magic `OKAPISL2`, the
//! depth (1 byte), the exact-solve empties (1 byte), the fingerprint of the evaluation
//! that searched (8 bytes), then 20-byte records: the board (side to move's discs, the
//! other side's, 8 bytes each), its value (i16, 1/128 disc, side to move's view) and the
//! record's checksum (the low 16 bits of FNV-1a over its first 18 bytes: a changed byte
//! is refused, not read as another position's value). A record cut short at the end (a
//! run killed while writing) is ignored and overwritten.

use anyhow::{Context, Result, bail};
use okapi_core::binary::{FNV_OFFSET, fnv1a};
use okapi_core::board::Board;
use okapi_core::eval::{Evaluator, SCALE};
use okapi_core::search::{Limits, MidgameSearch};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The first bytes of a cache (the last one is the format version).
pub const MAGIC: &[u8; 8] = b"OKAPISL2";
const HEADER_LEN: usize = 8 + 1 + 1 + 8;
const RECORD_LEN: usize = 20;

/// A record's checksum: the low 16 bits of FNV-1a over its board and value.
fn record_checksum(body: &[u8]) -> u16 {
    fnv1a(FNV_OFFSET, body) as u16
}
/// Positions searched between two writes of the cache: about half a minute of work on
/// two cores at depth 6 (0.54 ms a position), so a stopped run loses little.
const CHUNK: usize = 100_000;
/// The table of each search: 1 MB, cleared before every position (a depth-6 search
/// visits a few thousand nodes).
const HASH_BITS: u32 = 16;

/// How positions are searched for their labels.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchLabelOptions {
    /// Depth of the search in plies (0: no search labels).
    pub depth: u32,
    /// Positions with this many empty squares, bounds included, are searched.
    pub empties: (u32, u32),
    /// Positions with at most this many empties are solved exactly instead.
    pub exact_empties: u32,
    /// A searched position's label: `blend` times the search value plus `1 - blend`
    /// times its game label.
    pub blend: f32,
    /// The weight file of the evaluation that searches (the shipped one if `None`).
    pub weights: Option<PathBuf>,
    /// Where the values are kept between runs.
    pub cache: Option<PathBuf>,
    /// Threads searching at once.
    pub threads: usize,
}

impl Default for SearchLabelOptions {
    fn default() -> Self {
        SearchLabelOptions {
            depth: 0,
            empties: (14, 44),
            exact_empties: 14,
            blend: 1.0,
            weights: None,
            cache: None,
            threads: 1,
        }
    }
}

/// A fingerprint of what an evaluation answers: its values at fixed random positions,
/// eight at every third number of empties. Two weight files with the same fingerprint
/// label alike (as far as a cache can tell).
pub fn fingerprint(eval: &Evaluator) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for empties in (1..60).step_by(3) {
        for b in okapi_core::board::random::random_positions(empties as u64, 8, empties) {
            hash = okapi_core::binary::fnv1a(hash, &eval.evaluate(&b).to_le_bytes());
        }
    }
    hash
}

fn header(options: &SearchLabelOptions, print: u64) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.push(options.depth.min(255) as u8);
    h.push(options.exact_empties.min(255) as u8);
    h.extend_from_slice(&print.to_le_bytes());
    h
}

/// The most bytes a search-label cache may hold: a record per labelled position, far
/// more than the millions of positions a fit takes.
pub const MAX_CACHE: u64 = 4 << 30;

/// The values a cache holds, keyed by board. A cache made with another depth, exact
/// limit or evaluation is an error (its values would mean something else).
pub fn read_cache(
    path: &Path,
    options: &SearchLabelOptions,
    print: u64,
) -> Result<HashMap<(u64, u64), i16>> {
    let mut values = HashMap::new();
    let bytes = crate::selfplay::read_data_file(
        path,
        MAX_CACHE,
        "a search-label cache is a file the labels are appended to",
    )?;
    if bytes.is_empty() {
        return Ok(values);
    }
    okapi_core::binary::check_header(&bytes, MAGIC, None, HEADER_LEN, "a search-label cache")
        .with_context(|| path.display().to_string())?;
    let want = header(options, print);
    if bytes[..HEADER_LEN] != want[..] {
        bail!(
            "{} was made with depth {}, exact from {} empties and another evaluation or settings \
             (fingerprint {:016x}); these labels want depth {}, exact from {}, fingerprint {print:016x}: \
             pass another --search-cache or delete it",
            path.display(),
            bytes[8],
            bytes[9],
            u64::from_le_bytes(bytes[10..18].try_into().expect("8 bytes")),
            options.depth,
            options.exact_empties
        );
    }
    for (i, r) in bytes[HEADER_LEN..].chunks_exact(RECORD_LEN).enumerate() {
        let p = u64::from_le_bytes(r[0..8].try_into().expect("8 bytes"));
        let o = u64::from_le_bytes(r[8..16].try_into().expect("8 bytes"));
        let v = i16::from_le_bytes(r[16..18].try_into().expect("2 bytes"));
        let sum = u16::from_le_bytes(r[18..20].try_into().expect("2 bytes"));
        // A changed byte, a value beyond 64 discs or a square of both sides is no
        // search's answer: a damaged record, which would teach the fit nonsense.
        let bad = if sum != record_checksum(&r[..18]) {
            Some("its checksum does not match (a byte of it changed)".to_string())
        } else if p & o != 0 {
            Some("a square holds discs of both sides".to_string())
        } else if i32::from(v).abs() > okapi_core::eval::MAX_EVAL {
            Some(format!("the value {} discs is beyond 64", discs(v)))
        } else {
            None
        };
        if let Some(why) = bad {
            bail!(
                "{}: record {} (byte {}): {why}; the cache is damaged: delete it or pass another --search-cache",
                path.display(),
                i + 1,
                HEADER_LEN + i * RECORD_LEN
            );
        }
        values.insert((p, o), v);
    }
    Ok(values)
}

/// The value of one position: a depth-`depth` search, or an exact solve at or below
/// `exact_empties` empties, in 1/[`SCALE`] discs for the side to move.
pub fn search_value(
    search: &mut MidgameSearch<std::sync::Arc<Evaluator>>,
    board: Board,
    options: &SearchLabelOptions,
) -> i32 {
    search.solver().table().clear();
    let limits = Limits {
        depth: options.depth.max(1),
        exact_empties: options.exact_empties,
        wld_empties: options.exact_empties,
        time: None,
    };
    search
        .value(board, limits)
        .expect("nothing stops the search")
}

/// Searches every board of `boards` not in the cache, in chunks (each appended to the
/// cache when it is done), and returns every board's value in 1/[`SCALE`] discs.
pub fn label(
    boards: &[Board],
    eval: &Arc<Evaluator>,
    options: &SearchLabelOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<i16>> {
    let print = fingerprint(eval);
    let mut known = match &options.cache {
        Some(path) => read_cache(path, options, print)?,
        None => HashMap::new(),
    };
    let todo: Vec<Board> = boards
        .iter()
        .filter(|b| !known.contains_key(&(b.player, b.opponent)))
        .copied()
        .collect();
    progress(&format!(
        "search labels: {} positions, {} from the cache, {} to search at depth {} on {} threads",
        boards.len(),
        boards.len() - todo.len(),
        todo.len(),
        options.depth,
        options.threads
    ));
    let mut file = match &options.cache {
        Some(path) => {
            if let Some(dir) = path.parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir)?;
            }
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .read(true)
                .write(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            let len = f.metadata()?.len() as usize;
            use std::io::Seek;
            if len < HEADER_LEN {
                f.set_len(0)?;
                f.write_all(&header(options, print))?;
            } else {
                // Drop a record cut short by a killed run.
                let whole = HEADER_LEN + (len - HEADER_LEN) / RECORD_LEN * RECORD_LEN;
                f.set_len(whole as u64)?;
                f.seek(std::io::SeekFrom::End(0))?;
            }
            Some(f)
        }
        None => None,
    };
    let start = std::time::Instant::now();
    let threads = options.threads.max(1);
    for (c, chunk) in todo.chunks(CHUNK).enumerate() {
        let mut values = vec![0i16; chunk.len()];
        std::thread::scope(|scope| {
            let parts: Vec<_> = values
                .chunks_mut(chunk.len().div_ceil(threads))
                .zip(chunk.chunks(chunk.len().div_ceil(threads)))
                .map(|(out, part)| {
                    scope.spawn(move || {
                        let mut search =
                            MidgameSearch::new(eval, HASH_BITS, Arc::new(AtomicBool::new(false)));
                        for (o, b) in out.iter_mut().zip(part) {
                            let v = search_value(&mut search, *b, options);
                            *o = v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                        }
                    })
                })
                .collect();
            for p in parts {
                p.join().expect("a labelling thread panicked");
            }
        });
        if let Some(f) = file.as_mut() {
            let mut bytes = Vec::with_capacity(chunk.len() * RECORD_LEN);
            for (b, v) in chunk.iter().zip(&values) {
                let start = bytes.len();
                bytes.extend_from_slice(&b.player.to_le_bytes());
                bytes.extend_from_slice(&b.opponent.to_le_bytes());
                bytes.extend_from_slice(&v.to_le_bytes());
                let sum = record_checksum(&bytes[start..]);
                bytes.extend_from_slice(&sum.to_le_bytes());
            }
            f.write_all(&bytes)?;
            f.flush()?;
        }
        for (b, v) in chunk.iter().zip(values) {
            known.insert((b.player, b.opponent), v);
        }
        let done = (c * CHUNK + chunk.len()) as f64;
        let secs = start.elapsed().as_secs_f64();
        progress(&format!(
            "search labels: {} of {} searched, {:.0} s, about {:.0} s to go",
            done as usize,
            todo.len(),
            secs,
            secs / done * (todo.len() as f64 - done)
        ));
    }
    Ok(boards
        .iter()
        .map(|b| known[&(b.player, b.opponent)])
        .collect())
}

/// `value` in discs.
pub fn discs(value: i16) -> f32 {
    value as f32 / SCALE as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boards along a few fixed games, 20 to 40 empties.
    fn boards() -> Vec<Board> {
        (0..6u32)
            .flat_map(|game| {
                crate::test_games::fixed_game(game)
                    .into_iter()
                    .take_while(|b| b.empty_count() >= 20)
                    .filter(|b| b.empty_count() <= 40)
            })
            .collect()
    }

    fn options(cache: Option<PathBuf>, threads: usize) -> SearchLabelOptions {
        SearchLabelOptions {
            depth: 3,
            empties: (0, 60),
            exact_empties: 0,
            blend: 1.0,
            weights: None,
            cache,
            threads,
        }
    }

    #[test]
    fn values_do_not_depend_on_threads_order_or_cache() {
        let eval = Evaluator::shipped();
        let boards = boards();
        assert!(boards.len() > 60);
        let one = label(&boards, &eval, &options(None, 1), &mut |_| {}).unwrap();
        let two = label(&boards, &eval, &options(None, 2), &mut |_| {}).unwrap();
        assert_eq!(one, two);
        // Each value is the search's from scratch.
        let mut search = MidgameSearch::new(&eval, HASH_BITS, Arc::new(AtomicBool::new(false)));
        for (b, v) in boards.iter().zip(&one).step_by(7) {
            assert_eq!(search_value(&mut search, *b, &options(None, 1)) as i16, *v);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.bin");
        // Half the boards first, in reverse order, then all of them from the cache.
        let half: Vec<Board> = boards[..boards.len() / 2].iter().rev().copied().collect();
        let first = label(&half, &eval, &options(Some(path.clone()), 2), &mut |_| {}).unwrap();
        let expected: Vec<i16> = one[..boards.len() / 2].iter().rev().copied().collect();
        assert_eq!(first, expected);
        // A record cut short by a killed run is dropped.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(&[1, 2, 3]).unwrap();
        drop(f);
        let mut lines = Vec::new();
        let all = label(&boards, &eval, &options(Some(path.clone()), 1), &mut |l| {
            lines.push(l.to_string())
        })
        .unwrap();
        assert_eq!(all, one);
        assert!(
            lines[0].contains(&format!("{} from the cache", half.len())),
            "{lines:?}"
        );
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        assert_eq!(len, HEADER_LEN + boards.len() * RECORD_LEN);
        // The cache is refused for another depth.
        let mut deeper = options(Some(path.clone()), 1);
        deeper.depth = 4;
        let err = label(&boards, &eval, &deeper, &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("made with depth 3"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_a_cache_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.bin");
        std::fs::write(&path, b"OKAPISP1 something else entirely").unwrap();
        let err = format!("{:#}", read_cache(&path, &options(None, 1), 0).unwrap_err());
        assert!(err.contains("not a search-label cache"), "{err}");
        // A device is refused before it is read (`/dev/zero` never ends).
        let err = format!(
            "{:#}",
            read_cache(Path::new("/dev/zero"), &options(None, 1), 0).unwrap_err()
        );
        assert!(err.contains("not a regular file"), "{err}");
    }

    #[test]
    fn a_search_cache_record_beyond_64_discs_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.bin");
        let o = options(Some(path.clone()), 1);
        let record = |p: u64, q: u64, v: i16| {
            let mut r = p.to_le_bytes().to_vec();
            r.extend(q.to_le_bytes());
            r.extend(v.to_le_bytes());
            let sum = record_checksum(&r);
            r.extend(sum.to_le_bytes());
            r
        };
        let good = record(1, 2, -64 * SCALE as i16);
        for (bad, said) in [
            (
                record(1, 2, 200 * SCALE as i16),
                "the value 200 discs is beyond 64",
            ),
            (record(3, 2, 0), "a square holds discs of both sides"),
        ] {
            let mut bytes = header(&o, 0).to_vec();
            bytes.extend(&good);
            bytes.extend(&bad);
            std::fs::write(&path, &bytes).unwrap();
            let err = format!("{:#}", read_cache(&path, &o, 0).unwrap_err());
            assert!(
                err.contains(&format!("record 2 (byte {})", HEADER_LEN + RECORD_LEN)),
                "{err}"
            );
            assert!(err.contains(said), "{err}");
        }
        let mut bytes = header(&o, 0).to_vec();
        bytes.extend(&good);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(read_cache(&path, &o, 0).unwrap().len(), 1);
    }

    /// A changed byte of a record (its board, its value or its checksum) is refused with
    /// where it is, not read as another position's value.
    #[test]
    fn a_search_cache_record_with_a_changed_byte_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("labels.bin");
        let o = options(Some(path.clone()), 1);
        let boards = boards();
        let eval = Evaluator::shipped();
        let print = fingerprint(&eval);
        label(&boards[..3], &eval, &o, &mut |_| {}).unwrap();
        let written = std::fs::read(&path).unwrap();
        assert_eq!(read_cache(&path, &o, print).unwrap().len(), 3);
        for at in [0, 5, 16, 19] {
            let mut bytes = written.clone();
            let byte = HEADER_LEN + RECORD_LEN + at;
            bytes[byte] ^= 0x10;
            std::fs::write(&path, &bytes).unwrap();
            let err = format!("{:#}", read_cache(&path, &o, print).unwrap_err());
            assert!(err.contains("record 2 (byte"), "{at}: {err}");
            assert!(err.contains("checksum does not match"), "{at}: {err}");
        }
    }
}
