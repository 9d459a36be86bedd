//! The layers: the workspace's crates depend one way (`okapi-core` <- `okapi-train` /
//! `okapi-engine` <- `okapi-app` / `okapi-cli`; the compiler holds that once the manifests
//! say so, and `crates_depend_one_way` checks the manifests), and inside `okapi-core` the
//! modules import one way: `board` <- `eval` <- `search` <- `level` <- `game` / `book` /
//! `formats`.
//! No crate below the app and the command line uses a command-line or GUI crate, and the
//! core uses no `anyhow` (its errors are typed).
//!
//! Reads `crates/core/src/` as text: an edge `a -> b` is a `crate::b` path (or `b` first
//! in a `use crate::{..}` group) anywhere in module `a`'s files, outside comments, string literals and `#[cfg(test)] mod` blocks (tests may
//! reach up, e.g. to fit a model the search then uses).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What each module may import (modules absent from the crate are skipped).
const ALLOWED: &[(&str, &[&str])] = &[
    ("binary", &[]),
    ("calendar", &[]),
    ("board", &["binary"]),
    ("eval", &["binary", "board"]),
    ("search", &["binary", "board", "eval"]),
    ("level", &["binary", "board", "eval", "search"]),
    ("formats", &["binary", "board", "calendar", "game"]),
    (
        "game",
        &["binary", "board", "calendar", "eval", "search", "level"],
    ),
    ("shard", &["formats"]),
    (
        "book",
        &[
            "binary", "board", "eval", "search", "game", "formats", "shard",
        ],
    ),
    ("db", &["binary", "board", "eval", "game", "formats"]),
    // The trainer: positions from games and the database, lessons from the book.
    (
        "practice",
        &[
            "binary", "board", "calendar", "search", "game", "formats", "db", "book",
        ],
    ),
];

/// Modules that must not use the command-line and GUI crates (nor `anyhow`).
const CORE: &[&str] = &[
    "binary", "board", "calendar", "eval", "search", "level", "formats", "game", "book", "db",
    "shard", "practice",
];
const UI_CRATES: &[&str] = &[
    "clap",
    "indicatif",
    "egui",
    "eframe",
    "egui_plot",
    "rfd",
    "anyhow",
];

/// Each crate of the workspace with the workspace crates it may depend on (normal
/// dependencies) and the outside crates it must not.
const CRATES: &[(&str, &[&str], &[&str])] = &[
    (
        "core",
        &[],
        &[
            "clap",
            "indicatif",
            "anyhow",
            "eframe",
            "egui",
            "egui_plot",
            "rfd",
        ],
    ),
    (
        "engine",
        &["okapi-core"],
        &["clap", "indicatif", "anyhow", "eframe", "egui", "rfd"],
    ),
    (
        "train",
        &["okapi-core"],
        &["clap", "indicatif", "eframe", "egui", "rfd"],
    ),
    (
        "app",
        &["okapi-core", "okapi-engine"],
        &["clap", "indicatif"],
    ),
    // The app and the command line stand side by side: the binary picks one.
    (
        "cli",
        &["okapi-core", "okapi-engine", "okapi-train"],
        &["okapi-app", "eframe", "egui", "rfd"],
    ),
    // The browser's module: the rules and the engine's searches, and (its feature `app`)
    // the whole app on a canvas; no desktop-only crate.
    (
        "web",
        &["okapi-core", "okapi-engine", "okapi-app"],
        &["clap", "indicatif", "anyhow", "rfd"],
    ),
];

struct Graph {
    modules: BTreeSet<String>,
    /// (from, to) -> a file that makes the edge.
    edges: BTreeMap<(String, String), String>,
    /// (module, crate) -> a file that uses the crate.
    uses: BTreeMap<(String, String), String>,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src")
}

/// The names in a manifest's `[dependencies]` table (not dev- or build-dependencies).
fn normal_dependencies(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut out = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or("");
            out.push(name.to_string());
        }
    }
    out
}

#[test]
fn crates_depend_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (krate, allowed, forbidden) in CRATES {
        let manifest = std::fs::read_to_string(root.join("crates").join(krate).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("crates/{krate}/Cargo.toml: {e}"));
        let deps = normal_dependencies(&manifest);
        assert!(
            !deps.is_empty() || *krate == "core",
            "no dependencies read for {krate}"
        );
        for d in &deps {
            assert!(
                !d.starts_with("okapi") || allowed.contains(&d.as_str()),
                "crate {krate} depends on {d}; it may depend on {allowed:?} only"
            );
            assert!(
                !forbidden.contains(&d.as_str()),
                "crate {krate} depends on {d}, which it must not use"
            );
        }
    }
    // The reading works: the command line is seen to use clap and the engine.
    let cli =
        normal_dependencies(&std::fs::read_to_string(root.join("crates/cli/Cargo.toml")).unwrap());
    assert!(cli.iter().any(|d| d == "clap") && cli.iter().any(|d| d == "okapi-engine"));
}

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            rust_files(&p, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The text with comments removed and the insides of string and char literals blanked
/// (so `"crate::x"` or `"{"` mean nothing); line structure kept.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
            out.push(' ');
        } else if (c == b'r' || c == b'b')
            && (i == 0 || !is_ident(b[i - 1]))
            && raw_string_start(&b[i..]).is_some()
        {
            // r"..", r#".."#, br".."
            let (skip, hashes) = raw_string_start(&b[i..]).unwrap();
            i += skip;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while i < b.len() && !b[i..].starts_with(&close) {
                if b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += close.len();
            out.push_str("\"\"");
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // A char literal ('x', '\n', '\u{..}', '{') or a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&x| x == b'\'')
                    .map(|p| i + 2 + p)
            } else {
                let ch_len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch_len) == Some(&b'\'')).then_some(i + 1 + ch_len)
            };
            match end {
                Some(e) => {
                    out.push_str("' '");
                    i = e + 1;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let ch = text[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// `r"`, `r#"`, `br"`...: (bytes up to and including the quote, number of `#`).
fn raw_string_start(b: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    if b.first() == Some(&b'b') {
        i += 1;
    }
    if b.get(i) != Some(&b'r') {
        return None;
    }
    i += 1;
    let hashes = b[i..].iter().take_while(|&&c| c == b'#').count();
    i += hashes;
    (b.get(i) == Some(&b'"')).then_some((i + 1, hashes))
}

/// The code without its `#[cfg(test)] mod name { .. }` blocks (and the names of
/// `#[cfg(test)] mod name;` files, to skip).
fn without_test_modules(code: &str, test_files: &mut Vec<String>) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let Some(decl) = trimmed
            .strip_prefix("pub ")
            .unwrap_or(trimmed)
            .strip_prefix("mod ")
        else {
            // `#[cfg(test)]` on something else: kept.
            out.push_str("#[cfg(test)]");
            rest = after;
            continue;
        };
        let name: String = decl
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let body = decl.trim_start()[name.len()..].trim_start();
        if let Some(semi) = body.strip_prefix(';') {
            test_files.push(name);
            rest = semi;
            continue;
        }
        assert!(
            body.starts_with('{'),
            "#[cfg(test)] mod {name} without a body"
        );
        let mut depth = 0;
        let mut end = body.len();
        for (k, ch) in body.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &body[end..];
    }
    out.push_str(rest);
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Top-level modules a piece of code names through `crate::`.
fn crate_references(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        if code[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let after = code[at + "crate::".len()..].trim_start();
        if let Some(group) = after.strip_prefix('{') {
            // First segment of each item of the group, at the group's own depth.
            let mut depth = 0;
            let mut expecting = true;
            let mut word = String::new();
            for ch in group.chars() {
                if is_ident(ch) {
                    if depth == 0 && expecting {
                        word.push(ch);
                    }
                    continue;
                }
                if !word.is_empty() {
                    found.insert(std::mem::take(&mut word));
                    expecting = false;
                }
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => expecting = true,
                    _ => {}
                }
            }
        } else {
            let word: String = after.chars().take_while(|&c| is_ident(c)).collect();
            if !word.is_empty() {
                found.insert(word);
            }
        }
    }
    found
}

/// Whether the code names `krate::` (a path into that crate).
fn uses_crate(code: &str, krate: &str) -> bool {
    let pat = format!("{krate}::");
    code.match_indices(&pat).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| is_ident(c) || c == ':')
    })
}

fn graph() -> Graph {
    let src = src();
    let mut modules = BTreeSet::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if p.is_dir()
            || (p.extension().is_some_and(|x| x == "rs") && name != "main" && name != "lib")
        {
            modules.insert(name);
        }
    }
    let mut edges = BTreeMap::new();
    let mut uses = BTreeMap::new();
    for m in &modules {
        let mut files = Vec::new();
        let dir = src.join(m);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
        let file = src.join(format!("{m}.rs"));
        if file.is_file() {
            files.push(file);
        }
        let mut test_files = Vec::new();
        let mut texts = Vec::new();
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let code = without_test_modules(&code_only(&text), &mut test_files);
            texts.push((f, code));
        }
        for (f, code) in texts {
            let stem = f.file_stem().unwrap().to_string_lossy().to_string();
            let parent = f.parent().unwrap().file_name().unwrap().to_string_lossy();
            if test_files.contains(&stem) || test_files.iter().any(|t| *t == parent) {
                continue;
            }
            let rel = f.strip_prefix(&src).unwrap().display().to_string();
            for target in crate_references(&code) {
                if modules.contains(&target) && target != *m {
                    edges
                        .entry((m.clone(), target))
                        .or_insert_with(|| rel.clone());
                }
            }
            for k in UI_CRATES {
                if uses_crate(&code, k) {
                    uses.entry((m.clone(), k.to_string()))
                        .or_insert_with(|| rel.clone());
                }
            }
        }
    }
    Graph {
        modules,
        edges,
        uses,
    }
}

/// The problems of a graph, one line each.
fn problems(g: &Graph) -> Vec<String> {
    let mut bad = Vec::new();
    for (m, allowed) in ALLOWED {
        for ((a, b), file) in &g.edges {
            if a == m && !allowed.contains(&b.as_str()) {
                bad.push(format!(
                    "{a} imports {b} ({file}); {a} may import only {allowed:?}"
                ));
            }
        }
    }
    // Cycles: an edge a -> b with a path back from b to a.
    let kept: Vec<(&str, &str)> = g
        .edges
        .keys()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::from([from]);
        let mut stack = vec![from];
        while let Some(v) = stack.pop() {
            if v == to {
                return true;
            }
            for &(a, b) in &kept {
                if a == v && seen.insert(b) {
                    stack.push(b);
                }
            }
        }
        false
    };
    for &(a, b) in &kept {
        if reaches(b, a) {
            bad.push(format!(
                "cycle: {a} -> {b} ({}) and {b} leads back to {a}",
                g.edges[&(a.to_string(), b.to_string())]
            ));
        }
    }
    for ((m, k), file) in &g.uses {
        if CORE.contains(&m.as_str()) {
            bad.push(format!("{m} uses {k} ({file})"));
        }
    }
    bad
}

fn describe(g: &Graph) -> String {
    let mut s = String::new();
    for m in &g.modules {
        let to: Vec<&str> = g
            .edges
            .keys()
            .filter(|(a, _)| a == m)
            .map(|(_, b)| b.as_str())
            .collect();
        s += &format!("{m} -> {}\n", to.join(", "));
    }
    s
}

#[test]
fn imports_point_one_way() {
    let g = graph();
    // The reading itself works: the modules are there and the command line uses them.
    for m in CORE {
        assert!(g.modules.contains(*m), "no module {m} in {:?}", g.modules);
    }
    // A new module has its place in the layers before it imports anything.
    for m in &g.modules {
        assert!(
            ALLOWED.iter().any(|(name, _)| name == m) && CORE.contains(&m.as_str()),
            "module {m} is not in ALLOWED and CORE: say what it may import"
        );
    }
    assert!(
        g.edges.contains_key(&("book".into(), "board".into())),
        "{}",
        describe(&g)
    );
    let bad = problems(&g);
    assert!(
        bad.is_empty(),
        "layering problems:\n{}\n\nmodule graph:\n{}",
        bad.join("\n"),
        describe(&g)
    );
}

#[test]
fn the_reader_sees_what_it_should() {
    let code = code_only(
        "use crate::{board::{Board, moves}, eval::X};\n\
         // use crate::cli::Y;\n\
         /* crate::app /* nested */ crate::app */\n\
         let s = \"crate::engine {\"; let c = '{'; let r = r#\"crate::book\"#;\n\
         fn f<'a>(x: &'a str) -> crate::search::Limits { todo!() }\n\
         #[cfg(test)]\nmod tests { use crate::train::X; fn g() { let _ = '}'; } }\n\
         let t = crate::formats::obf::read;\n",
    );
    let mut test_files = vec![];
    let code = without_test_modules(&code, &mut test_files);
    let refs: Vec<String> = crate_references(&code).into_iter().collect();
    assert_eq!(refs, ["board", "eval", "formats", "search"]);
    assert!(uses_crate("#[derive(clap::Args)]", "clap"));
    assert!(!uses_crate("my_clap::x", "clap"));
    assert!(!uses_crate("egui_plot::Plot", "egui"));
    // A back edge is caught.
    let mut g = graph();
    g.edges
        .insert(("board".into(), "search".into()), "board/x.rs".into());
    g.uses
        .insert(("eval".into(), "clap".into()), "eval/x.rs".into());
    let bad = problems(&g);
    assert!(
        bad.iter().any(|p| p.starts_with("board imports search")),
        "{bad:?}"
    );
    assert!(
        bad.iter().any(|p| p.starts_with("cycle: board -> search")),
        "{bad:?}"
    );
    assert!(
        bad.iter().any(|p| p == "eval uses clap (eval/x.rs)"),
        "{bad:?}"
    );
}
