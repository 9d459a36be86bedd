//! Building the book from game records.
//!
//! 1. Every game is replayed up to `max_ply`; each position (canonical under the 8
//!    symmetries) counts the games through it and sums their results for the side to
//!    move (WTHOR's perfect-play score from 22 or 24 empties when the record has one: the
//!    players' late mistakes do not count; else the final result).
//! 2. The book is the set of positions seen in at least `min_games` games.
//! 3. Each book position gets its *alternative*: the best move whose position is not in
//!    the book, valued by Okapi's midgame search at `depth` (one search over those moves
//!    only). A book leaf has no book child, so its alternative is its searched value.
//!    Where many games went through a leaf (`check_games`) and their mean result is far
//!    from the search (`check_margin` discs), the leaf is searched again 4 plies deeper:
//!    the games check the search, the search decides. The searches go in tree order, so
//!    consecutive ones share their transposition table, in blocks of `block` searches,
//!    each from an empty table: a block's values depend on nothing outside it, which lets
//!    shards search the blocks on other machines ([`super::shard`]) and give the same book.
//! 4. Negamax from the leaves up: a position's value is the best of its alternative and
//!    of its book children's values (negated). So book values are the minimax of searched
//!    positions, like the books of Zebra and Edax, and not the mean of human results,
//!    whose maximum over many noisy continuations favours the side to move.
//!
//! With `depth` 0 nothing is searched: leaves take the mean result of their games
//! (source [`BookSource::Games`]) and there are no alternatives. Fast, and biased as said.

use super::{Alternative, Book, BookInfo, BookSource, Entry, canonical, child};
use crate::board::{BitBoard, Board, Move};
use crate::formats::records::GameRecord;
use crate::search::{Evaluate, Limits, MidgameSearch, SCALE, SearchSource};
use crate::shard::Shard;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use web_time::Instant;

/// What to build.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildOptions {
    /// Positions up to this many plies (discs on the board minus 4).
    pub max_ply: u32,
    /// Positions seen in fewer games are left out.
    pub min_games: u32,
    /// Search depth of the alternatives and leaves; 0 values leaves by game results.
    pub depth: u32,
    /// ProbCut level of the searches (see `search::probcut::LEVELS`; 5 = none).
    pub selectivity: usize,
    /// Leaves with at least this many games are checked against their results ...
    pub check_games: u32,
    /// ... and searched deeper when the two differ by more than this (discs).
    pub check_margin: f64,
    /// Transposition table of about `16 << hash_bits` bytes.
    pub hash_bits: u32,
    /// Searches (in tree order) sharing one transposition table: the build starts afresh
    /// every `block` searches, so that blocks can be searched apart (`--shard`).
    pub block: u32,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            max_ply: 30,
            min_games: 40,
            depth: 12,
            selectivity: 2,
            check_games: 100,
            check_margin: 8.0,
            hash_bits: 22,
            block: 64,
        }
    }
}

/// What the build did, for the report.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildReport {
    /// Games read.
    pub games: usize,
    /// Distinct positions up to `max_ply` in the games.
    pub positions_seen: usize,
    /// Positions kept: seen in at least `min_games` games.
    pub book_positions: usize,
    /// Book positions without a book child.
    pub leaves: usize,
    /// Positions searched for their alternative (a leaf searched again deeper counts once).
    pub searches: usize,
    /// Leaves checked against their games (at least `check_games` of them).
    pub checked: usize,
    /// Of the checked leaves, those searched again 4 plies deeper because their games and
    /// the search differed by more than `check_margin` discs.
    pub deepened: usize,
    /// Mean absolute difference between the book value and the mean game result over
    /// positions with at least `check_games` games (discs).
    pub mean_gap: f64,
    /// Search nodes over all the searches.
    pub nodes: u64,
    /// Wall time of the whole build (left at zero by [`finish`], which does not time it).
    pub elapsed: Duration,
}

/// Per-position counts while reading the games.
#[derive(Clone, Copy, Default)]
struct Seen {
    games: u32,
    /// Sum of results for the side to move, in discs.
    sum: i64,
}

/// Black's result of a game as the book uses it: WTHOR's perfect-play score from the
/// theoretical depth if known, else the final disc difference of the finished board,
/// else the recorded one (resignations, time losses).
fn black_outcome(game: &GameRecord, last: &Board, last_black: bool) -> i32 {
    if let Some(t) = game.theoretical {
        return t.black_score as i32;
    }
    if last.is_game_over() {
        let s = last.final_score();
        return if last_black { s } else { -s };
    }
    game.black_score as i32
}

/// Counts the games through every position up to `max_ply`.
fn count_positions(games: &[GameRecord], max_ply: u32) -> HashMap<(u64, u64), Seen> {
    let mut seen: HashMap<(u64, u64), Seen> = HashMap::with_capacity(games.len() * 8);
    for g in games {
        let pos = g.positions();
        let last = pos.last().expect("a game has a final position");
        let black = black_outcome(g, &last.board, last.black_to_move);
        for p in &pos {
            let ply = 60 - p.board.empty_count();
            if ply > max_ply {
                break;
            }
            if p.board.moves() == 0 {
                break; // the game is over
            }
            // Positions of one game all differ (each has one more disc), so each game
            // counts once per position, even through a transposition.
            let c = canonical(&p.board).0;
            let s = seen.entry((c.player, c.opponent)).or_default();
            s.games += 1;
            s.sum += if p.black_to_move { black } else { -black } as i64;
        }
    }
    seen
}

/// One book position while building.
struct Node {
    board: Board,
    seen: Seen,
    /// Book children: (index, sign turning the child's value into this mover's).
    children: Vec<(u32, i32)>,
    /// Legal moves not leading into the book (canonical orientation).
    outside: u64,
    alt: Option<Alternative>,
    value: i32,
    source: BookSource,
}

fn source_of(s: SearchSource) -> BookSource {
    match s {
        SearchSource::Midgame { depth } => BookSource::Search {
            depth: depth.min(60) as u8,
        },
        SearchSource::Wld | SearchSource::Exact => BookSource::Exact,
    }
}

/// The book's positions as the games give them, before any search: the part of a build
/// that is cheap (a second or two for all the records) and that every shard of a build
/// shares (see [`super::shard`]).
pub struct Plan {
    /// Games read.
    pub games: usize,
    /// Distinct positions up to `max_ply` in the games.
    pub positions_seen: usize,
    nodes: Vec<Node>,
}

/// A book position and the games through it, as a shard part stores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Canonical position.
    pub player: u64,
    /// Its opponent's discs (the side to move's are `player`).
    pub opponent: u64,
    /// Games of the records through it.
    pub games: u32,
    /// Sum of their results for the side to move, in discs.
    pub sum: i64,
}

impl Plan {
    /// Counts the positions of `games` and keeps the book's.
    pub fn new(games: &[GameRecord], opts: &BuildOptions) -> Plan {
        let seen = count_positions(games, opts.max_ply);
        let positions_seen = seen.len();
        let min_games = opts.min_games.max(1);
        let counted = seen
            .into_iter()
            .filter(|(_, s)| s.games >= min_games)
            .map(|((player, opponent), s)| Counted {
                player,
                opponent,
                games: s.games,
                sum: s.sum,
            })
            .collect();
        Plan::from_counts(counted, games.len(), positions_seen)
            .expect("counted positions are canonical, distinct and played")
    }

    /// The plan of the book positions `counted` (any order): what [`Plan::new`] made, read
    /// back from a shard part. Refused when a position is not canonical, comes twice or
    /// has no game.
    pub fn from_counts(
        mut counted: Vec<Counted>,
        games: usize,
        positions_seen: usize,
    ) -> Result<Plan, String> {
        counted.sort_unstable_by_key(|c| (c.player, c.opponent));
        let index: HashMap<(u64, u64), u32> = counted
            .iter()
            .enumerate()
            .map(|(i, c)| ((c.player, c.opponent), i as u32))
            .collect();
        if index.len() != counted.len() {
            return Err("a position comes twice".into());
        }
        let mut nodes = Vec::with_capacity(counted.len());
        for c in &counted {
            let board = Board::new(c.player, c.opponent);
            if c.player & c.opponent != 0 || canonical(&board).0 != board {
                return Err(format!("{board:?} is not a canonical position"));
            }
            if c.games == 0 {
                return Err(format!("{board:?} has no game"));
            }
            let mut children = Vec::new();
            let mut outside = 0u64;
            for sq in BitBoard(board.moves()) {
                let (next, sign) = child(&board, sq.index()).expect("a legal move");
                let k = canonical(&next).0;
                match index.get(&(k.player, k.opponent)) {
                    Some(&i) => children.push((i, sign)),
                    None => outside |= sq.bit(),
                }
            }
            nodes.push(Node {
                board,
                seen: Seen {
                    games: c.games,
                    sum: c.sum,
                },
                children,
                outside,
                alt: None,
                value: 0,
                source: BookSource::Games,
            });
        }
        Ok(Plan {
            games,
            positions_seen,
            nodes,
        })
    }

    /// The book positions with their games, sorted by position.
    pub fn counts(&self) -> Vec<Counted> {
        self.nodes
            .iter()
            .map(|n| Counted {
                player: n.board.player,
                opponent: n.board.opponent,
                games: n.seen.games,
                sum: n.seen.sum,
            })
            .collect()
    }

    /// The positions to search (those with a move out of the book, with `opts.depth` > 0),
    /// in tree order, cut into blocks of `opts.block`: each block is searched by a fresh
    /// search (empty transposition table), so its values depend on nothing outside it and
    /// a shard can search it on another machine.
    pub fn search_blocks(&self, opts: &BuildOptions) -> Vec<Vec<u32>> {
        if opts.depth == 0 {
            return Vec::new();
        }
        let order: Vec<u32> = tree_order(&self.nodes)
            .into_iter()
            .filter(|&i| self.nodes[i].outside != 0)
            .map(|i| i as u32)
            .collect();
        order
            .chunks(opts.block.max(1) as usize)
            .map(|c| c.to_vec())
            .collect()
    }
}

/// What the searches of a build (or of one shard of it) found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Searched {
    /// (index of the position in the plan, its best move out of the book), in search order.
    pub alternatives: Vec<(u32, Option<Alternative>)>,
    /// Positions searched (a leaf searched again deeper counts once).
    pub searches: usize,
    /// Leaves with at least `check_games` games, checked against their mean result.
    pub checked: usize,
    /// Of those, the ones searched again 4 plies deeper (see [`BuildReport::deepened`]).
    pub deepened: usize,
    /// Search nodes over all the searches.
    pub nodes: u64,
}

/// Searches the blocks of `plan` that are `shard`'s (block `b` is shard `b mod N`'s; all of
/// them for [`Shard::WHOLE`]). `progress(done, total)` is called as the searches go.
pub fn search<E: Evaluate + Clone>(
    plan: &Plan,
    opts: &BuildOptions,
    eval: &E,
    shard: Shard,
    progress: &mut dyn FnMut(u64, u64),
) -> Searched {
    let blocks: Vec<Vec<u32>> = plan
        .search_blocks(opts)
        .into_iter()
        .enumerate()
        .filter(|(b, _)| shard.contains(*b as u64))
        .map(|(_, block)| block)
        .collect();
    let total = blocks.iter().map(|b| b.len() as u64).sum();
    let mut out = Searched::default();
    let mut done = 0u64;
    for block in blocks {
        let mut search = MidgameSearch::new(eval, opts.hash_bits, Arc::new(AtomicBool::new(false)));
        search.set_selectivity(opts.selectivity);
        for i in block {
            let node = &plan.nodes[i as usize];
            let limits = Limits::depth(opts.depth);
            let mut found = search
                .best_among(node.board, node.outside, limits)
                .expect("nothing stops the book's searches");
            out.searches += 1;
            let mean = node.seen.sum as f64 / node.seen.games as f64;
            if node.children.is_empty()
                && node.seen.games >= opts.check_games
                && let Some(v) = &found
            {
                out.checked += 1;
                if (v.value as f64 / SCALE as f64 - mean).abs() > opts.check_margin {
                    out.deepened += 1;
                    let deeper = Limits::depth(opts.depth + 4);
                    found = search
                        .best_among(node.board, node.outside, deeper)
                        .expect("nothing stops the book's searches");
                }
            }
            let alt = found.and_then(|v| match v.mv {
                Move::Play(sq) => Some(Alternative {
                    square: sq.index() as u8,
                    value: v.value.clamp(-64 * SCALE, 64 * SCALE) as i16,
                    source: source_of(v.source),
                }),
                Move::Pass => None,
            });
            out.alternatives.push((i, alt));
            done += 1;
            progress(done, total);
        }
        out.nodes += search.nodes();
    }
    out
}

/// Builds the book from `games`. `progress(done, total)` is called as the searches go.
pub fn build<E: Evaluate + Clone>(
    games: &[GameRecord],
    opts: &BuildOptions,
    eval: &E,
    progress: &mut dyn FnMut(u64, u64),
) -> (Book, BuildReport) {
    let start = Instant::now();
    let plan = Plan::new(games, opts);
    let searched = search(&plan, opts, eval, Shard::WHOLE, progress);
    let (book, mut report) = finish(plan, opts, &[searched]);
    report.elapsed = start.elapsed();
    (book, report)
}

/// The book of `plan` once its searches are done (those of every shard, in any order):
/// the alternatives in place, the values negamaxed up the tree. `elapsed` in the report
/// is left at zero for the caller.
pub fn finish(mut plan: Plan, opts: &BuildOptions, searched: &[Searched]) -> (Book, BuildReport) {
    let mut report = BuildReport {
        games: plan.games,
        positions_seen: plan.positions_seen,
        book_positions: plan.nodes.len(),
        leaves: plan.nodes.iter().filter(|n| n.children.is_empty()).count(),
        ..BuildReport::default()
    };
    for s in searched {
        report.searches += s.searches;
        report.checked += s.checked;
        report.deepened += s.deepened;
        report.nodes += s.nodes;
        for &(i, alt) in &s.alternatives {
            plan.nodes[i as usize].alt = alt;
        }
    }
    let min_games = opts.min_games.max(1);
    let nodes = &mut plan.nodes;

    // Negamax, children first: a child always has one disc more, so fewer empties.
    let mut by_empties: Vec<usize> = (0..nodes.len()).collect();
    by_empties.sort_by_key(|&i| nodes[i].board.empty_count());
    for i in by_empties {
        let mut best: Option<(i32, BookSource)> = nodes[i].alt.map(|a| (a.value as i32, a.source));
        // Moves that end the game at once have their exact value.
        for sq in BitBoard(nodes[i].outside) {
            let (next, sign) = child(&nodes[i].board, sq.index()).expect("a legal move");
            if next.is_game_over() {
                let v = sign * next.final_score() * SCALE;
                if best.is_none_or(|b| v > b.0) {
                    best = Some((v, BookSource::Exact));
                }
            }
        }
        for k in 0..nodes[i].children.len() {
            let (c, sign) = nodes[i].children[k];
            let v = sign * nodes[c as usize].value;
            if best.is_none_or(|b| v > b.0) {
                best = Some((v, nodes[c as usize].source));
            }
        }
        let node = &mut nodes[i];
        let mean = node.seen.sum as f64 / node.seen.games as f64;
        (node.value, node.source) = match best {
            Some(b) => b,
            // A leaf of a book built without searches: its games' mean result.
            None => ((mean * SCALE as f64).round() as i32, BookSource::Games),
        };
    }

    let checked: Vec<f64> = nodes
        .iter()
        .filter(|n| n.seen.games >= opts.check_games)
        .map(|n| (n.value as f64 / SCALE as f64 - n.seen.sum as f64 / n.seen.games as f64).abs())
        .collect();
    if !checked.is_empty() {
        report.mean_gap = checked.iter().sum::<f64>() / checked.len() as f64;
    }
    let entries = nodes
        .iter()
        .map(|n| Entry {
            player: n.board.player,
            opponent: n.board.opponent,
            value: n.value.clamp(-64 * SCALE, 64 * SCALE) as i16,
            source: n.source,
            games: n.seen.games,
            result: (n.seen.sum as f64 / n.seen.games as f64)
                .round()
                .clamp(-64.0, 64.0) as i8,
            alt: n.alt,
        })
        .collect();
    let info = BookInfo {
        max_ply: opts.max_ply.min(60) as u16,
        min_games,
        depth: opts.depth.min(60) as u16,
        games: plan.games.min(u32::MAX as usize) as u32,
    };
    (Book::new(entries, info), report)
}

/// The nodes in depth-first order from the roots (positions without a book parent,
/// normally only the start), most played children first, then any left over: consecutive
/// searches look at related positions and share the transposition table.
fn tree_order(nodes: &[Node]) -> Vec<usize> {
    let mut has_parent = vec![false; nodes.len()];
    for n in nodes {
        for &(c, _) in &n.children {
            has_parent[c as usize] = true;
        }
    }
    let mut visited = vec![false; nodes.len()];
    let mut order = Vec::with_capacity(nodes.len());
    let mut roots: Vec<usize> = (0..nodes.len()).filter(|&i| !has_parent[i]).collect();
    roots.sort_by_key(|&i| std::cmp::Reverse(nodes[i].seen.games));
    roots.extend(0..nodes.len());
    for root in roots {
        if visited[root] {
            continue;
        }
        let mut stack = vec![root];
        visited[root] = true;
        while let Some(i) = stack.pop() {
            order.push(i);
            let mut kids: Vec<usize> = nodes[i]
                .children
                .iter()
                .map(|&(c, _)| c as usize)
                .filter(|&c| !visited[c])
                .collect();
            // The stack pops the last first: most played last.
            kids.sort_by_key(|&c| nodes[c].seen.games);
            for c in kids {
                if !visited[c] {
                    visited[c] = true;
                    stack.push(c);
                }
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::formats::records::wthor;

    fn sample() -> Vec<GameRecord> {
        let bytes = include_bytes!("../../../../tests/data/wthor-2018-sample.wtb");
        wthor::parse(bytes).unwrap().1.games
    }

    #[test]
    fn counts_follow_the_games() {
        let games = sample();
        let seen = count_positions(&games, 10);
        let start = canonical(&Board::START).0;
        assert_eq!(
            seen[&(start.player, start.opponent)].games as usize,
            games.len()
        );
        // After one move every game is in the one position the 4 symmetric moves share.
        let f5 = canonical(
            &Board::START
                .play(Square::parse("f5").unwrap().index())
                .unwrap(),
        )
        .0;
        assert_eq!(seen[&(f5.player, f5.opponent)].games as usize, games.len());
    }
}
