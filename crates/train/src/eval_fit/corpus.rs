//! The fit's data: the game records read and split into training and held-out games,
//! the tree of training games that labels their positions, and the held-out samples.

use super::{EvalFitOptions, Sample};
use crate::records::{RecordGroup, read_record_files};
use anyhow::Result;
use okapi_core::board::Board;
use okapi_core::formats::records::{GamePosition, GameRecord, RecordSet};
use std::collections::HashMap;
use std::fmt::Write as _;

pub(super) fn canonical(b: &Board) -> Board {
    okapi_core::board::symmetry::canonical(b).0
}

/// Black's final disc difference: from the final board when the game was played out,
/// else the recorded result (resignations, time losses).
pub(super) fn black_result(game: &GameRecord, positions: &[GamePosition]) -> i32 {
    let last = positions.last().expect("positions");
    if last.board.is_game_over() {
        let s = last.board.final_score();
        if last.black_to_move { s } else { -s }
    } else {
        game.black_score as i32
    }
}

pub(super) fn view(black_to_move: bool, black_score: i32) -> i32 {
    if black_to_move {
        black_score
    } else {
        -black_score
    }
}

pub(super) struct Corpus {
    pub(super) train: Vec<GameRecord>,
    /// Each training game's number in the record source ([`read_record_files`]' order).
    pub(super) train_ids: Vec<u32>,
    pub(super) held_out: Vec<GameRecord>,
    /// Each held-out game's number in the record source.
    pub(super) held_ids: Vec<u32>,
    pub(super) log: String,
}

pub(super) fn summarize(log: &mut String, name: &str, set: &RecordSet) {
    let _ = writeln!(
        log,
        "- {name}: {} games read, {} skipped",
        set.games.len(),
        set.skipped.len()
    );
    for s in set.skipped.iter().take(3) {
        let _ = writeln!(log, "  - skipped game {}: {}", s.number, s.reason);
    }
}

pub(super) fn load_corpus(args: &EvalFitOptions) -> Result<Corpus> {
    let mut log = String::new();
    let mut groups: Vec<(RecordSet, Vec<u32>)> = vec![Default::default(); RecordGroup::ALL.len()];
    let mut first = 0u32;
    for (group, mut set) in read_record_files(&args.data)? {
        let whole = set.games.len() as u32;
        if let Some(n) = args.max_games {
            set.games.truncate(n);
        }
        let g = RecordGroup::ALL
            .iter()
            .position(|&x| x == group)
            .expect("a group");
        groups[g].1.extend(first..first + set.games.len() as u32);
        groups[g].0.extend(set);
        first += whole;
    }
    let mut train = Vec::new();
    let mut train_ids = Vec::new();
    let mut held_out = Vec::new();
    let mut held_ids = Vec::new();
    for (group, (set, ids)) in RecordGroup::ALL.iter().zip(groups) {
        summarize(&mut log, group.name(), &set);
        if group.held_out() {
            held_out.extend(set.games);
            held_ids.extend(ids);
        } else {
            train.extend(set.games);
            train_ids.extend(ids);
        }
    }
    Ok(Corpus {
        train,
        train_ids,
        held_out,
        held_ids,
        log,
    })
}

/// The training positions: one node per canonical board, with the tree of games.
pub(super) struct GameTree {
    pub(super) ids: HashMap<(u64, u64), u32>,
    pub(super) boards: Vec<Board>,
    pub(super) sum: Vec<i32>,
    pub(super) count: Vec<u32>,
    pub(super) leaf_sum: Vec<i32>,
    pub(super) leaf_count: Vec<u32>,
    /// Exact score for the side to move, `i8::MIN` if unknown.
    pub(super) exact: Vec<i8>,
    /// (parent, child, +1 if the same side moves in both, -1 otherwise).
    pub(super) edges: Vec<(u32, u32, i8)>,
}

impl GameTree {
    pub(super) fn build(games: &[GameRecord]) -> GameTree {
        let mut t = GameTree {
            ids: HashMap::with_capacity(games.len() * 45),
            boards: Vec::new(),
            sum: Vec::new(),
            count: Vec::new(),
            leaf_sum: Vec::new(),
            leaf_count: Vec::new(),
            exact: Vec::new(),
            edges: Vec::with_capacity(games.len() * 60),
        };
        for g in games {
            let pos = g.positions();
            let result = black_result(g, &pos);
            let mut prev: Option<(u32, bool)> = None;
            for (i, p) in pos.iter().enumerate() {
                let c = canonical(&p.board);
                let next_id = t.boards.len() as u32;
                let id = *t.ids.entry((c.player, c.opponent)).or_insert(next_id);
                if id == next_id {
                    t.boards.push(c);
                    t.sum.push(0);
                    t.count.push(0);
                    t.leaf_sum.push(0);
                    t.leaf_count.push(0);
                    t.exact.push(i8::MIN);
                }
                let id = id as usize;
                let label = view(p.black_to_move, result);
                t.sum[id] += label;
                t.count[id] += 1;
                if let Some((parent, parent_black)) = prev {
                    let sign = if parent_black == p.black_to_move {
                        1
                    } else {
                        -1
                    };
                    t.edges.push((parent, id as u32, sign));
                }
                if i + 1 == pos.len() {
                    if p.board.is_game_over() {
                        t.exact[id] = p.board.final_score() as i8;
                    } else {
                        t.leaf_sum[id] += label;
                        t.leaf_count[id] += 1;
                    }
                }
                if let Some(th) = g.theoretical
                    && p.board.empty_count() == th.empties as u32
                    && i + 1 < pos.len()
                {
                    t.exact[id] = view(p.black_to_move, th.black_score as i32) as i8;
                }
                prev = Some((id as u32, p.black_to_move));
            }
        }
        t.edges.sort_unstable();
        t.edges.dedup();
        t
    }

    pub(super) fn mean_labels(&self) -> Vec<f32> {
        (0..self.boards.len())
            .map(|i| {
                if self.exact[i] != i8::MIN {
                    self.exact[i] as f32
                } else {
                    self.sum[i] as f32 / self.count[i] as f32
                }
            })
            .collect()
    }

    /// Negamax over the game tree: children are always processed before parents
    /// because every move fills a square. Positions reached by `max_games` games or more
    /// keep their mean result: the maximum over many noisy continuations would be
    /// biased towards the side to move (the start position would be worth +7).
    pub(super) fn negamax_labels(&self, max_games: u32) -> Vec<f32> {
        let n = self.boards.len();
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&i| self.boards[i as usize].empty_count());
        let mut first_edge = vec![u32::MAX; n + 1];
        for (k, &(parent, _, _)) in self.edges.iter().enumerate().rev() {
            first_edge[parent as usize] = k as u32;
        }
        let mut value = vec![0f32; n];
        for &i in &order {
            let i = i as usize;
            value[i] = if self.exact[i] != i8::MIN {
                self.exact[i] as f32
            } else if self.count[i] >= max_games {
                self.sum[i] as f32 / self.count[i] as f32
            } else if first_edge[i] != u32::MAX {
                let mut best = f32::NEG_INFINITY;
                let mut k = first_edge[i] as usize;
                while k < self.edges.len() && self.edges[k].0 as usize == i {
                    let (_, child, sign) = self.edges[k];
                    best = best.max(sign as f32 * value[child as usize]);
                    k += 1;
                }
                best
            } else if self.leaf_count[i] > 0 {
                self.leaf_sum[i] as f32 / self.leaf_count[i] as f32
            } else {
                self.sum[i] as f32 / self.count[i] as f32
            };
        }
        value
    }
}

/// The held-out games' positions not seen in training (labelled by the game's result),
/// and those at the theoretical score's depth (labelled by it).
pub(super) struct HeldOut {
    pub(super) held: Vec<Sample>,
    pub(super) theoretical: Vec<Sample>,
    pub(super) seen_in_training: usize,
}

impl HeldOut {
    pub(super) fn collect(corpus: &Corpus, tree: &GameTree) -> HeldOut {
        let mut held = Vec::new();
        let mut theoretical = Vec::new();
        let mut seen_in_training = 0usize;
        for g in &corpus.held_out {
            let pos = g.positions();
            let result = black_result(g, &pos);
            for (i, p) in pos.iter().enumerate() {
                if let Some(th) = g.theoretical
                    && p.board.empty_count() == th.empties as u32
                    && i + 1 < pos.len()
                {
                    theoretical.push(Sample {
                        board: p.board,
                        label: view(p.black_to_move, th.black_score as i32) as f32,
                    });
                }
                let c = canonical(&p.board);
                if tree.ids.contains_key(&(c.player, c.opponent)) {
                    seen_in_training += 1;
                    continue;
                }
                held.push(Sample {
                    board: p.board,
                    label: view(p.black_to_move, result) as f32,
                });
            }
        }
        HeldOut {
            held,
            theoretical,
            seen_in_training,
        }
    }
}
