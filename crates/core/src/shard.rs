//! A job split across machines and put back together: the one shard-and-merge scheme of
//! Okapi's three sharded jobs (script solving `okapi solve --shard`, book building `okapi
//! book build --shard`, self-play `okapi train selfplay --shard`).
//!
//! A job's items are numbered in input order; shard `K/N` ([`Shard`], 0-based index
//! `K - 1`) owns the items whose number `i` has `i mod N == K - 1`, so every shard gets an
//! even share of easy and hard items wherever they are in the input. Each shard writes a
//! *part* (its own file format, which says which job and which shard it is); the merge
//! reads the parts and [`check_set`] refuses, naming the file, a set that does not make
//! the whole job: no part, a part of another job, a shard given twice or missing, a part
//! its run left unfinished. [`check_output`] refuses a merge whose output is one of its
//! parts (replacing it would lose that shard's work), and [`write_output`] writes the
//! merged file atomically. All of it fails with the one error type, [`MergeError`].

use crate::formats::{same_file, write_atomic};
use std::collections::HashMap;
use std::path::Path;

/// One of `count` shards of a job: the items whose 0-based number `i` has
/// `i % count == index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// 0-based: shard `K/N` as written has index `K - 1`.
    pub index: usize,
    /// How many shards the job is split into (at least 1).
    pub count: usize,
}

/// Why a shard cannot be named so.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not of the form `K/N` with two whole numbers.
    #[error("'{0}': give the shard as K/N (shard K of N, K from 1 to N), e.g. 2/3")]
    Syntax(String),
    /// `N` is 0.
    #[error("'{0}': the number of shards must be at least 1")]
    NoShards(String),
    /// `K` is not in `1..=N`.
    #[error("'{text}': shards are numbered from 1 to {count}")]
    OutOfRange {
        /// What was given.
        text: String,
        /// `N`.
        count: usize,
    },
}

impl Shard {
    /// The whole job as one shard (`1/1`).
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` (0-based) of `count`, or why there is no such shard.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        let text = || format!("{}/{count}", index as u128 + 1);
        if count == 0 {
            return Err(ShardError::NoShards(text()));
        }
        if index >= count {
            return Err(ShardError::OutOfRange {
                text: text(),
                count,
            });
        }
        Ok(Shard { index, count })
    }

    /// Reads `K/N` (shard K of N, K from 1 to N), as `--shard` takes it.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.to_string());
        let (k, n) = text.trim().split_once('/').ok_or_else(syntax)?;
        let (Ok(k), Ok(n)) = (k.trim().parse::<usize>(), n.trim().parse::<usize>()) else {
            return Err(syntax());
        };
        if n == 0 {
            return Err(ShardError::NoShards(text.to_string()));
        }
        if !(1..=n).contains(&k) {
            return Err(ShardError::OutOfRange {
                text: text.to_string(),
                count: n,
            });
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    /// Is item `i` (0-based) this shard's?
    pub fn contains(&self, i: u64) -> bool {
        i % self.count.max(1) as u64 == self.index as u64
    }

    /// The items of `items` (numbered by their value) that are this shard's, in order.
    pub fn share(self, items: std::ops::Range<u64>) -> impl Iterator<Item = u64> {
        items.filter(move |&i| self.contains(i))
    }
}

impl std::fmt::Display for Shard {
    /// As it is written on the command line: `K/N`, K from 1.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = ShardError;
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        Shard::parse(text)
    }
}

/// How much of its share a part holds, when the part can tell (a shard's run killed part
/// way leaves a part with fewer items than its share).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Items the part holds.
    pub held: usize,
    /// Items of the shard's share.
    pub share: usize,
    /// What an item is, plural, for the message ("games", "output lines").
    pub unit: &'static str,
}

/// A part read back, as the merge sees it.
pub trait Part {
    /// Which shard of its job the part is.
    fn shard(&self) -> Shard;
    /// How much of its share the part holds; `None` when the part cannot tell by itself
    /// (the merge then checks the share its own way).
    fn progress(&self) -> Option<Progress> {
        None
    }
}

/// Why parts cannot be merged; each names the file at fault.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No part was given.
    #[error("no parts to merge")]
    NoParts,
    /// The output to write is one of the parts (directly or through a link).
    #[error("the output {output} is the shard output {part}: give another file")]
    OutputIsPart {
        /// The output.
        output: String,
        /// The part it is.
        part: String,
    },
    /// A part cannot be read: not a part, of another format version, cut short or
    /// corrupt.
    #[error("{file}: {why}")]
    Unreadable {
        /// The part.
        file: String,
        /// Why (the part format's own error, in words).
        why: String,
    },
    /// A part is of another job than the first one.
    #[error("{file} does not belong with {first}: {what}")]
    OtherJob {
        /// The part at fault.
        file: String,
        /// The first part, the one it was compared with.
        first: String,
        /// What differs.
        what: String,
    },
    /// Two parts are the same shard.
    #[error("{file} and {other} are both shard {shard}")]
    Duplicate {
        /// The second part of that shard.
        file: String,
        /// The first part of that shard.
        other: String,
        /// The shard.
        shard: Shard,
    },
    /// No part given is this shard (the first missing one, of `missing` in all).
    #[error(
        "shard {shard} is missing: no part given is that shard (the parts are of {} shards{})",
        shard.count,
        if *missing > 1 { format!("; {missing} are missing") } else { String::new() }
    )]
    Missing {
        /// The first shard missing.
        shard: Shard,
        /// How many are missing.
        missing: usize,
    },
    /// A part holds less than its share: its run was stopped before the end.
    #[error(
        "{file}: shard {shard} holds {held} of the {share} {unit} of its share: run it again to finish it",
        held = progress.held,
        share = progress.share,
        unit = progress.unit
    )]
    Unfinished {
        /// The part.
        file: String,
        /// Its shard.
        shard: Shard,
        /// What it holds of its share.
        progress: Progress,
    },
    /// A part reads, but its contents do not add up with the others'.
    #[error("{file}: {what}")]
    Damaged {
        /// The part at fault (or the parts).
        file: String,
        /// What is wrong.
        what: String,
    },
    /// The merged file cannot be written.
    #[error("cannot write {file}: {source}")]
    Write {
        /// The output.
        file: String,
        /// Why.
        source: std::io::Error,
    },
}

impl MergeError {
    /// A part that cannot be read, for `why` (any error of a part format; with its causes,
    /// as `{:#}` gives them for `anyhow`).
    pub fn unreadable(file: impl Into<String>, why: impl std::fmt::Display) -> MergeError {
        MergeError::Unreadable {
            file: file.into(),
            why: why.to_string(),
        }
    }
}

/// Checks that `parts` (`(file name, part)`, any order) make one whole job: at least one,
/// each of the first one's job (`differs(part, first)` says what differs, `None` when
/// nothing does; parts of splits into other numbers of shards are refused even if it says
/// nothing), every shard exactly once, and each part finished where it can tell
/// ([`Part::progress`]). Returns the parts in shard order.
pub fn check_set<'p, P: Part>(
    parts: &'p [(String, P)],
    differs: impl Fn(&(String, P), &(String, P)) -> Option<String>,
) -> Result<Vec<&'p (String, P)>, MergeError> {
    let Some(first) = parts.first() else {
        return Err(MergeError::NoParts);
    };
    let count = first.1.shard().count;
    let mut by_shard: HashMap<usize, &'p (String, P)> = HashMap::new();
    for part in parts {
        let (file, p) = part;
        let shard = p.shard();
        let other_job = |what: String| MergeError::OtherJob {
            file: file.clone(),
            first: first.0.clone(),
            what,
        };
        if let Some(what) = differs(part, first) {
            return Err(other_job(what));
        }
        if shard.count != count {
            return Err(other_job(format!(
                "it is shard {shard} of a split into {}, {} of a split into {count}",
                shard.count, first.0
            )));
        }
        if shard.index >= shard.count {
            return Err(MergeError::Damaged {
                file: file.clone(),
                what: format!(
                    "it names shard {} of {}",
                    shard.index as u128 + 1,
                    shard.count
                ),
            });
        }
        if let Some((other, _)) = by_shard.insert(shard.index, part) {
            return Err(MergeError::Duplicate {
                file: file.clone(),
                other: other.clone(),
                shard,
            });
        }
        if let Some(progress) = p.progress().filter(|g| g.held != g.share) {
            return Err(MergeError::Unfinished {
                file: file.clone(),
                shard,
                progress,
            });
        }
    }
    let missing: Vec<usize> = (0..count).filter(|k| !by_shard.contains_key(k)).collect();
    if let Some(&index) = missing.first() {
        return Err(MergeError::Missing {
            shard: Shard { index, count },
            missing: missing.len(),
        });
    }
    Ok((0..count).map(|k| by_shard[&k]).collect())
}

/// Refuses an output that is one of the parts (the same file, or a link to it): the merge
/// would replace a shard's work with its result, and a merge that then fails, or is run
/// again, would have lost that shard.
pub fn check_output(output: &Path, parts: &[impl AsRef<Path>]) -> Result<(), MergeError> {
    match parts.iter().find(|p| same_file(p.as_ref(), output)) {
        Some(part) => Err(MergeError::OutputIsPart {
            output: output.display().to_string(),
            part: part.as_ref().display().to_string(),
        }),
        None => Ok(()),
    }
}

/// Writes a merged file (or a part) atomically ([`write_atomic`]), creating its folder.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), MergeError> {
    let fail = |source| MergeError::Write {
        file: path.display().to_string(),
        source,
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    write_atomic(path, bytes).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A part as the tests make it: its shard, its job, and what it holds of its share.
    #[derive(Clone, Debug)]
    struct TestPart {
        shard: Shard,
        job: u64,
        held: Option<usize>,
    }

    impl Part for TestPart {
        fn shard(&self) -> Shard {
            self.shard
        }
        fn progress(&self) -> Option<Progress> {
            self.held.map(|held| Progress {
                held,
                share: 2,
                unit: "items",
            })
        }
    }

    fn part(k: usize, n: usize) -> (String, TestPart) {
        let part = TestPart {
            shard: Shard::new(k - 1, n).unwrap(),
            job: 7,
            held: Some(2),
        };
        (format!("p{k}"), part)
    }

    fn other_job(p: &(String, TestPart), first: &(String, TestPart)) -> Option<String> {
        (p.1.job != first.1.job).then(|| format!("job {} against {}", p.1.job, first.1.job))
    }

    fn refused(parts: &[(String, TestPart)]) -> String {
        check_set(parts, other_job).unwrap_err().to_string()
    }

    #[test]
    fn shards_are_k_of_n_and_every_item_is_in_exactly_one() {
        let s = Shard::parse("2/3").unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        assert_eq!(s.to_string(), "2/3");
        assert_eq!(" 2 / 3 ".parse::<Shard>(), Ok(s));
        assert_eq!(Shard::parse("1/1"), Ok(Shard::WHOLE));
        let all: Vec<Shard> = (1..=3)
            .map(|k| Shard::parse(&format!("{k}/3")).unwrap())
            .collect();
        for i in 0..30 {
            assert_eq!(all.iter().filter(|s| s.contains(i)).count(), 1, "item {i}");
        }
        assert_eq!(s.share(5..12).collect::<Vec<_>>(), [7, 10]);
        assert_eq!(
            Shard::parse("0/3").unwrap_err().to_string(),
            "'0/3': shards are numbered from 1 to 3"
        );
        assert_eq!(
            Shard::parse("4/3").unwrap_err().to_string(),
            "'4/3': shards are numbered from 1 to 3"
        );
        assert_eq!(
            Shard::parse("1/0").unwrap_err().to_string(),
            "'1/0': the number of shards must be at least 1"
        );
        for bad in ["x", "", "1", "1/", "/3", "a/3", "1/b", "-1/3", "1/2/3"] {
            assert!(
                matches!(Shard::parse(bad), Err(ShardError::Syntax(_))),
                "{bad}"
            );
        }
        assert_eq!(Shard::new(2, 3), Ok(Shard { index: 2, count: 3 }));
        assert!(matches!(
            Shard::new(3, 3),
            Err(ShardError::OutOfRange { count: 3, .. })
        ));
        assert!(matches!(Shard::new(0, 0), Err(ShardError::NoShards(_))));
    }

    #[test]
    fn a_whole_set_comes_back_in_shard_order() {
        let parts = [part(3, 3), part(1, 3), part(2, 3)];
        let ordered = check_set(&parts, other_job).unwrap();
        let names: Vec<&str> = ordered.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(names, ["p1", "p2", "p3"]);
        let one = [part(1, 1)];
        assert_eq!(check_set(&one, other_job).unwrap().len(), 1);
    }

    #[test]
    fn sets_that_are_not_one_whole_job_are_refused_by_name() {
        assert!(matches!(
            check_set::<TestPart>(&[], other_job),
            Err(MergeError::NoParts)
        ));
        assert_eq!(
            refused(&[part(1, 3), part(3, 3)]),
            "shard 2/3 is missing: no part given is that shard (the parts are of 3 shards)"
        );
        assert!(refused(&[part(2, 4)]).contains("shard 1/4 is missing"));
        assert!(refused(&[part(2, 4)]).contains("; 3 are missing"));
        let mut again = part(2, 3);
        again.0 = "again".into();
        assert_eq!(
            refused(&[part(1, 3), part(2, 3), again, part(3, 3)]),
            "again and p2 are both shard 2/3"
        );
        let mut other = part(2, 3);
        other.1.job = 8;
        assert_eq!(
            refused(&[part(1, 3), other, part(3, 3)]),
            "p2 does not belong with p1: job 8 against 7"
        );
        assert_eq!(
            refused(&[part(1, 3), part(2, 4)]),
            "p2 does not belong with p1: it is shard 2/4 of a split into 4, p1 of a split into 3"
        );
        let mut cut = part(2, 2);
        cut.1.held = Some(1);
        assert_eq!(
            refused(&[part(1, 2), cut]),
            "p2: shard 2/2 holds 1 of the 2 items of its share: run it again to finish it"
        );
        // A shard made by hand past the count (the readers refuse one) is refused too,
        // not left out of the whole.
        let mut past = part(2, 2);
        past.1.shard.index = 5;
        assert_eq!(
            refused(&[part(1, 2), part(2, 2), past]),
            "p2: it names shard 6 of 2"
        );
        // A part that cannot tell its progress is not refused for it.
        let mut silent = part(2, 2);
        silent.1.held = None;
        assert!(check_set(&[part(1, 2), silent], other_job).is_ok());
    }

    #[test]
    fn an_output_that_is_a_part_is_refused_and_outputs_are_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let p = |name: &str| dir.path().join(name);
        std::fs::write(p("a"), "part a").unwrap();
        std::fs::write(p("b"), "part b").unwrap();
        std::fs::hard_link(p("b"), p("link")).unwrap();
        let parts = [p("a"), p("b")];
        assert!(check_output(&p("out"), &parts).is_ok());
        let e = check_output(&p("b"), &parts).unwrap_err().to_string();
        assert!(
            e.contains("is the shard output") && e.contains("b: give another"),
            "{e}"
        );
        assert!(matches!(
            check_output(&p("link"), &parts),
            Err(MergeError::OutputIsPart { .. })
        ));
        write_output(&p("new/dir/out"), b"merged").unwrap();
        assert_eq!(std::fs::read(p("new/dir/out")).unwrap(), b"merged");
        let e = write_output(&p("a/under-a-file"), b"x").unwrap_err();
        assert!(e.to_string().starts_with("cannot write "), "{e}");
        assert_eq!(std::fs::read(p("a")).unwrap(), b"part a");
        let e = MergeError::unreadable("p9", "cut short");
        assert_eq!(e.to_string(), "p9: cut short");
    }
}
