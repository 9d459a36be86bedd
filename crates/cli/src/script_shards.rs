//! Shard outputs of a script run split across machines (`okapi solve --shard K/N`), and
//! their merge back into the file the unsharded run writes (`okapi solve --merge`).
//!
//! A shard output is a header line, then one record per output line the shard owns:
//!
//! ```text
//! okapi-script-shard 1 shard=2/3 input=5f0c6a1b9d2e4f70 outputs=120 own=40 mode=exact line=0
//! 7 38 - 26      % Ah! This one is closer.
//! ```
//!
//! A record is the input line number, a space, and the output line's bytes as the
//! unsharded run writes them. `input` is a 64-bit FNV-1a hash of the input file, so
//! shards of different scripts are not merged together; `outputs` counts the output
//! lines of the whole run and `own` this shard's, so an interrupted shard is caught.
//! Shard K of N owns the positions (bad position lines included) whose index `i` in the
//! input satisfies `i mod N == K - 1`; shard 1 also owns the comments. The checks of a
//! set of shards are [`okapi_core::shard`]'s, shared with the book and self-play.

use anyhow::{Context, bail, ensure};
use okapi_core::binary::{FNV_OFFSET, fnv1a};
use okapi_core::formats::script;
use okapi_core::search::SolveMode;
use okapi_core::shard::{MergeError, Part, Progress, Shard, check_output, check_set, write_output};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The first word of a shard output, and the version of its layout.
pub const MAGIC: &str = "okapi-script-shard";
pub const VERSION: u32 = 1;

/// What a shard output says of itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardHeader {
    pub shard: Shard,
    /// FNV-1a hash of the input file's bytes.
    pub input: u64,
    /// Output lines of the whole (unsharded) run.
    pub outputs: usize,
    /// Output lines of this shard.
    pub own: usize,
    pub mode: SolveMode,
    pub lines: bool,
}

impl ShardHeader {
    /// The header line, without its line end.
    pub fn to_line(&self) -> String {
        let mode = match self.mode {
            SolveMode::Exact => "exact",
            SolveMode::Wld => "wld",
        };
        format!(
            "{MAGIC} {VERSION} shard={} input={:016x} outputs={} own={} mode={mode} line={}",
            self.shard,
            self.input,
            self.outputs,
            self.own,
            u8::from(self.lines)
        )
    }

    /// Reads a header line.
    pub fn parse(line: &str) -> Result<ShardHeader, String> {
        let mut words = line.split(' ');
        if words.next() != Some(MAGIC) {
            return Err("not a shard output of `okapi solve --shard`".into());
        }
        match words.next() {
            Some(v) if v == VERSION.to_string() => {}
            other => {
                return Err(format!(
                    "shard output version {} (this okapi reads version {VERSION})",
                    other.unwrap_or("missing")
                ));
            }
        }
        let fields: BTreeMap<&str, &str> = words.filter_map(|w| w.split_once('=')).collect();
        let field = |key: &str| {
            fields
                .get(key)
                .copied()
                .ok_or_else(|| format!("the header has no {key}="))
        };
        let number = |key: &str| -> Result<usize, String> {
            field(key)?
                .parse()
                .map_err(|_| format!("the header's {key}= is not a number"))
        };
        Ok(ShardHeader {
            shard: Shard::parse(field("shard")?).map_err(|e| e.to_string())?,
            input: u64::from_str_radix(field("input")?, 16)
                .map_err(|_| "the header's input= is not a hash".to_string())?,
            outputs: number("outputs")?,
            own: number("own")?,
            mode: match field("mode")? {
                "exact" => SolveMode::Exact,
                "wld" => SolveMode::Wld,
                other => return Err(format!("unknown mode={other}")),
            },
            lines: match field("line")? {
                "0" => false,
                "1" => true,
                other => return Err(format!("line={other}: expected 0 or 1")),
            },
        })
    }
}

/// The 64-bit FNV-1a hash of `bytes`: enough to tell two scripts apart, not a checksum
/// against tampering.
pub fn input_hash(bytes: &[u8]) -> u64 {
    fnv1a(FNV_OFFSET, bytes)
}

/// One record: the input line number and the output bytes, with the line end.
pub fn record(line_number: usize, bytes: &[u8]) -> Vec<u8> {
    let mut out = format!("{line_number} ").into_bytes();
    out.extend_from_slice(bytes);
    out.push(b'\n');
    out
}

/// A shard output read back.
struct ShardFile {
    header: ShardHeader,
    /// Input line number and output bytes, in input order.
    records: Vec<(usize, Vec<u8>)>,
}

impl Part for ShardFile {
    fn shard(&self) -> Shard {
        self.header.shard
    }
    fn progress(&self) -> Option<Progress> {
        Some(Progress {
            held: self.records.len(),
            share: self.header.own,
            unit: "output lines",
        })
    }
}

fn read_shard(path: &Path) -> anyhow::Result<ShardFile> {
    // A shard output is about as long as the script's output: the script's cap bounds it
    // (and ends a read of `/dev/zero` at once).
    let bytes = okapi_core::formats::read_capped(path, okapi_core::formats::MAX_SCRIPT_FILE)?;
    let name = path.display();
    // Every record ends with its line end; a file that does not was cut mid-line (a full
    // disk, a copy interrupted), and its last record may be a result cut short.
    let body = bytes.strip_suffix(b"\n").ok_or_else(|| {
        anyhow::anyhow!(
            "{name}: the last line is cut short (no line end): was the shard's run or copy interrupted?"
        )
    })?;
    let mut lines = body.split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let header = std::str::from_utf8(first)
        .map_err(|_| "not a shard output of `okapi solve --shard`".to_string())
        .and_then(ShardHeader::parse)
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    let mut records: Vec<(usize, Vec<u8>)> = Vec::new();
    for (i, line) in lines.enumerate() {
        let at = i + 2;
        let space = line.iter().position(|&b| b == b' ');
        let number = space
            .and_then(|s| std::str::from_utf8(&line[..s]).ok())
            .and_then(|n| n.parse::<usize>().ok())
            .with_context(|| format!("{name}:{at}: not a record (line number, space, result)"))?;
        if records.last().is_some_and(|(n, _)| *n >= number) {
            bail!("{name}:{at}: input line {number} is out of order");
        }
        let rest = &line[space.expect("found above") + 1..];
        check_record(rest, &header)
            .map_err(|reason| anyhow::anyhow!("{name}:{at}: not a result line: {reason}"))?;
        records.push((number, rest.to_vec()));
    }
    Ok(ShardFile { header, records })
}

/// Checks a record's output line: a comment (copied from the script, `% error:` lines
/// included) or a result of the run's mode, as [`script::parse_result`] reads it, with a
/// line exactly when the run wrote lines. A damaged record ("917 - 47") is refused rather
/// than merged into the result file.
fn check_record(bytes: &[u8], header: &ShardHeader) -> Result<(), String> {
    if bytes.first() == Some(&b'%') {
        return Ok(());
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "not valid text".to_string())?;
    let (outcome, line, _) = script::parse_result(text).map_err(|e| e.to_string())?;
    let exact = matches!(outcome, script::Outcome::Exact { .. });
    if exact != (header.mode == SolveMode::Exact) {
        return Err(if exact {
            "an exact result in a win/draw/loss run".into()
        } else {
            "a win/draw/loss result in an exact run".into()
        });
    }
    if line.is_some() && !header.lines {
        return Err("a line in a run without lines".into());
    }
    Ok(())
}

/// Merges the outputs of shards 1/N to N/N into `output`: exactly the file the unsharded
/// run writes. Refuses a missing, repeated, incomplete, damaged or foreign shard, and an
/// output that is one of the shards (it is replaced only once all are read, but a
/// shard overwritten by the merge is a shard lost).
pub fn merge(shards: &[PathBuf], output: &Path) -> anyhow::Result<()> {
    check_output(output, shards)?;
    let files = shards
        .iter()
        .map(|p| Ok((p.display().to_string(), read_shard(p)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let files = check_set(&files, |(_, f), (_, first)| {
        let run = |h: &ShardHeader| ShardHeader {
            shard: Shard::WHOLE,
            own: 0,
            ..h.clone()
        };
        (run(&f.header) != run(&first.header)).then(|| {
            "they are shards of different runs (another script, mode or line setting)".into()
        })
    })?;
    let mut merged: BTreeMap<usize, &[u8]> = BTreeMap::new();
    for (name, f) in &files {
        for (number, bytes) in &f.records {
            if merged.insert(*number, bytes).is_some() {
                return Err(MergeError::Damaged {
                    file: name.clone(),
                    what: format!("input line {number} is in another shard too"),
                }
                .into());
            }
        }
    }
    let outputs = files[0].1.header.outputs;
    ensure!(
        merged.len() == outputs,
        "the shards hold {} of the run's {outputs} output lines",
        merged.len(),
    );
    let mut out = Vec::new();
    for bytes in merged.values() {
        out.extend_from_slice(bytes);
        out.extend_from_slice(okapi_core::formats::LINE_END.as_bytes());
    }
    Ok(write_output(output, &out)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(k: usize) -> ShardHeader {
        ShardHeader {
            shard: Shard {
                index: k - 1,
                count: 2,
            },
            input: 0x5f0c_6a1b_9d2e_4f70,
            outputs: 3,
            own: if k == 1 { 2 } else { 1 },
            mode: SolveMode::Wld,
            lines: true,
        }
    }

    #[test]
    fn header_round_trip() {
        let h = header(2);
        let line = h.to_line();
        assert_eq!(
            line,
            "okapi-script-shard 1 shard=2/2 input=5f0c6a1b9d2e4f70 outputs=3 own=1 mode=wld line=1"
        );
        assert_eq!(ShardHeader::parse(&line), Ok(h));
        assert!(ShardHeader::parse("63 -  1").is_err());
        assert!(
            ShardHeader::parse("okapi-script-shard 2 shard=1/2")
                .unwrap_err()
                .contains("version 2")
        );
        assert!(ShardHeader::parse(&line.replace("shard=2/2", "shard=3/2")).is_err());
    }

    #[test]
    fn merge_puts_lines_back_in_order_and_refuses_bad_sets() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, h: &ShardHeader, recs: &[(usize, &str)]| {
            let mut bytes = format!("{}\n", h.to_line()).into_bytes();
            for (n, r) in recs {
                bytes.extend(record(*n, r.as_bytes()));
            }
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            p
        };
        let one = write("s1", &header(1), &[(1, "% c"), (2, "Black win    a1")]);
        let two = write("s2", &header(2), &[(4, "Draw      % x")]);
        let out = dir.path().join("out");
        merge(&[two.clone(), one.clone()], &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "% c\nBlack win    a1\nDraw      % x\n"
        );
        let err = |shards: &[PathBuf]| format!("{:#}", merge(shards, &out).unwrap_err());
        assert!(err(std::slice::from_ref(&one)).contains("shard 2/2 is missing"));
        assert!(err(&[one.clone(), one.clone()]).contains("are both shard 1/2"));
        let short = write("short", &header(2), &[]);
        assert!(err(&[one.clone(), short]).contains("holds 0 of the 1 output lines"));
        let foreign = write(
            "foreign",
            &ShardHeader {
                input: 1,
                ..header(2)
            },
            &[(4, "Draw")],
        );
        assert!(err(&[one.clone(), foreign]).contains("different runs"));
        let not = dir.path().join("not");
        std::fs::write(&not, "63 -  1\n").unwrap();
        assert!(err(&[not]).contains("not a shard output"));
    }

    #[test]
    fn merge_refuses_damaged_records_cut_files_and_an_output_that_is_a_part() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, h: &ShardHeader, body: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, format!("{}\n{body}", h.to_line())).unwrap();
            p
        };
        let exact = |k| ShardHeader {
            mode: SolveMode::Exact,
            lines: false,
            ..header(k)
        };
        let one = write("s1", &exact(1), "1 % c\n2 38 - 26\n");
        let two = write("s2", &exact(2), "4 Draw\n");
        let out = dir.path().join("out");
        let err = |shards: &[PathBuf], out: &Path| format!("{:#}", merge(shards, out).unwrap_err());
        // A WLD result in an exact run, a corrupt count, a result cut mid-line.
        let e = err(&[one.clone(), two], &out);
        assert!(
            e.contains("s2:2: not a result line: a win/draw/loss result in an exact run"),
            "{e}"
        );
        let corrupt = write("c2", &exact(2), "4 917 - 47\n");
        assert!(err(&[one.clone(), corrupt], &out).contains("c2:2: not a result line"));
        let cut = write("t2", &exact(2), "4 38 - 2");
        assert!(err(&[one.clone(), cut], &out).contains("t2: the last line is cut short"));
        let good = write("g2", &exact(2), "4 32 - 32\n");
        merge(&[one.clone(), good.clone()], &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "% c\n38 - 26\n32 - 32\n"
        );
        // The output named as one of the parts, directly or through a hard link.
        let before = std::fs::read(&good).unwrap();
        assert!(err(&[one.clone(), good.clone()], &good).contains("is the shard output"));
        let link = dir.path().join("link");
        std::fs::hard_link(&good, &link).unwrap();
        assert!(err(&[one.clone(), good.clone()], &link).contains("is the shard output"));
        assert_eq!(std::fs::read(&good).unwrap(), before);
        // An endless part ends at once.
        assert!(err(&[one, PathBuf::from("/dev/zero")], &out).contains("file too large"));
    }
}
