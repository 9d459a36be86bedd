//! What the cross-crate tests share: random legal games for the format tests (from the
//! start or a random position, with random variations, values, players, seats, clock and
//! cursor; here), the binary as a child process ([`process`]), and the app under
//! egui_kittest ([`app`]).
#![allow(dead_code)]

use okapi::board::{Move, Position};
use okapi::game::{Eval, EvalSource, Game, NodeId, Seat};
use okapi::level::Level;
use std::time::Duration;

#[cfg(feature = "gui")]
pub mod app;
#[cfg(feature = "gui")]
pub mod desktop;
pub mod process;

/// splitmix64: a seed gives one game.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Plays up to `n` random legal moves at the cursor (forced passes played).
pub fn play_random(game: &mut Game, rng: &mut Rng, n: usize) {
    for _ in 0..n {
        let p = game.position();
        if p.is_game_over() {
            break;
        }
        let mv = if p.must_pass() {
            Move::Pass
        } else {
            let legal: Vec<_> = p.legal_moves().iter().collect();
            Move::Play(legal[rng.below(legal.len())])
        };
        game.play(mv, None).unwrap();
    }
}

/// A position some random plies into a game.
pub fn random_position(rng: &mut Rng) -> Position {
    let mut g = Game::new(Position::start());
    let n = rng.below(50);
    play_random(&mut g, rng, n);
    g.position()
}

/// Text with the characters formats trip on.
pub fn random_name(rng: &mut Rng) -> String {
    const PARTS: [&str; 16] = [
        "A", "b", "]", "[", "\\", "\"", "'", "Ödön", "李", " ", ";)", "(;", "%", "}", "{", "ñ",
    ];
    (0..rng.below(8))
        .map(|_| PARTS[rng.below(PARTS.len())])
        .collect()
}

pub fn all_nodes(game: &Game) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![game.root()];
    while let Some(n) = stack.pop() {
        out.push(n);
        stack.extend(game.children(n).iter().copied());
    }
    out
}

pub fn random_eval(rng: &mut Rng) -> Eval {
    let source = match rng.below(5) {
        0 => EvalSource::Heuristic {
            depth: rng.below(30) as u8,
        },
        1 => EvalSource::Midgame {
            depth: rng.below(30) as u8,
            confidence: rng.below(101) as u8,
        },
        2 => EvalSource::Book,
        3 => EvalSource::Wld,
        _ => EvalSource::Exact,
    };
    Eval {
        value: rng.below(129) as i32 - 64,
        source,
    }
}

/// A random game: a start (standard or random), a main line, variations, values, names,
/// seats, clock, comment and a cursor anywhere in the tree.
pub fn random_game(seed: u64) -> Game {
    let mut rng = Rng(seed);
    let start = if rng.below(3) == 0 {
        random_position(&mut rng)
    } else {
        Position::start()
    };
    let mut g = Game::new(start);
    let n = rng.below(70);
    play_random(&mut g, &mut rng, n);
    for _ in 0..rng.below(5) {
        let nodes = all_nodes(&g);
        g.go_to_node(nodes[rng.below(nodes.len())]);
        let n = 1 + rng.below(15);
        play_random(&mut g, &mut rng, n);
    }
    for node in all_nodes(&g) {
        if rng.below(3) == 0 {
            let e = random_eval(&mut rng);
            g.set_eval_of(node, Some(e));
        }
    }
    // Random proofs the moves refute are not kept by the readers: a game they keep.
    g.drop_refuted_proofs();
    g.black = random_name(&mut rng);
    g.white = random_name(&mut rng);
    g.comment = random_name(&mut rng);
    g.event = random_name(&mut rng);
    g.date = format!(
        "20{:02}-0{}-1{}",
        rng.below(100),
        1 + rng.below(9),
        rng.below(10)
    );
    const SEATS: [&str; 5] = [
        "human",
        "okapi:8",
        "okapi:greedy",
        "okapi:random",
        "okapi:12",
    ];
    for s in 0..2 {
        g.seats[s] = Seat::parse(SEATS[rng.below(SEATS.len())]).unwrap();
    }
    let _ = Level::numbered(1);
    g.time_per_side = (rng.below(2) == 0).then(|| Duration::from_secs(1 + rng.below(7200) as u64));
    let nodes = all_nodes(&g);
    g.go_to_node(nodes[rng.below(nodes.len())]);
    if !g.is_empty() && rng.below(2) == 0 {
        let ply = rng.below(g.len() + 1);
        g.go_to(ply);
    }
    g
}

/// Everything a full record keeps, in a form that does not depend on node numbering:
/// the tree (moves and values, in order), the current line and cursor, the rest.
pub fn canonical(game: &Game) -> String {
    fn tree(game: &Game, node: NodeId, out: &mut String) {
        for &c in game.children(node) {
            out.push_str(&format!(
                "({} {:?}",
                game.move_of(c).unwrap(),
                game.eval_of(c)
            ));
            tree(game, c, out);
            out.push(')');
        }
    }
    let mut out = String::new();
    tree(game, game.root(), &mut out);
    format!(
        "start {} | tree {out} | line {:?} ply {} | {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        game.start().to_board_string(),
        game.moves(),
        game.ply(),
        game.black,
        game.white,
        game.seats,
        game.time_per_side,
        game.date,
        game.event,
        game.comment
    )
}
