//! `okapi console` (or `okapi play`): a text console in the manner of gnuchess. It shows
//! the board, takes moves (`f5`), and the computer answers for its side.
//!
//! Commands: a move (`f5`, `pass`), `undo`, `redo`, `new`, `level L` (any level `okapi
//! match` reads: `8`, `12t1.5`, `2s`, `greedy`), `go` (the computer plays the side to
//! move, and keeps that side), `computer black|white|none|both`, `hint`, `show lines
//! [T]` (every move's value and its chance of being chosen at temperature T discs),
//! `solve` (exact score and best line), `board`, `moves`, `setboard <64 squares> <X|O>`,
//! `help`, `quit`.

use super::matches::Rng;
use crate::board::{Color, Move, Position};
use crate::engine::evaluator;
use crate::eval::Evaluator;
use crate::search::level::{Level, choose_move, softmax};
use crate::search::{MidgameSearch, MoveValue, SCALE, SolveMode, Source};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(clap::Args, Debug)]
pub struct ConsoleArgs {
    /// The computer's level (random, greedy, a depth, 8t1.5, 2s).
    #[arg(long, default_value = "8")]
    pub level: String,
    /// The side the computer plays: black, white, none or both.
    #[arg(long, default_value = "white")]
    pub computer: String,
    /// Seed for levels that draw moves at random.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Evaluation weights to use instead of the shipped ones.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
}

const HELP: &str = "\
commands:
  f5, pass          play a move (the computer then answers for its side)
  undo, redo        take back a move (two against the computer), play it again
  new               a new game
  level L           the computer's level: random, greedy, a depth (8), 8t1.5, 2s
  go                the computer plays the side to move (and keeps that side)
  computer C        the computer plays black, white, both or none
  hint              the best move and its line at the current level
  show lines [T]    each move's value and its chance at temperature T discs (default 1)
  solve             exact score and best line (slow above about 26 empties)
  board, moves      show the board, list the legal moves
  setboard B S      set up a position: 64 squares (X O -) and the side to move (X or O)
  help, quit";

struct Console<W: Write> {
    out: W,
    start: Position,
    moves: Vec<Move>,
    undone: Vec<Move>,
    level: Level,
    computer: Option<Color>,
    both: bool,
    search: MidgameSearch<'static, Evaluator>,
    rng: Rng,
}

fn parse_computer(text: &str) -> Result<(Option<Color>, bool), String> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok((Some(Color::Black), false)),
        "white" | "w" | "o" => Ok((Some(Color::White), false)),
        "none" | "off" => Ok((None, false)),
        "both" => Ok((None, true)),
        other => Err(format!(
            "'{other}' is not a side (black, white, both or none)"
        )),
    }
}

fn discs(v: i32) -> String {
    format!("{:+.2}", v as f64 / SCALE as f64)
}

fn line_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn source_text(s: Source) -> String {
    match s {
        Source::Midgame { depth } => format!("depth {depth}"),
        Source::Wld => "win/draw/loss".into(),
        Source::Exact => "exact".into(),
    }
}

impl<W: Write> Console<W> {
    fn position(&self) -> Position {
        let mut p = self.start;
        for &m in &self.moves {
            let _ = p.play_move(m);
        }
        p
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn show(&mut self) {
        let p = self.position();
        // The diagram ends with the side to move and the disc count.
        let mut text = format!("{p}");
        if p.is_game_over() {
            let (b, w) = p.final_counts();
            text += &match b.cmp(&w) {
                std::cmp::Ordering::Greater => format!("\ngame over: Black wins {b}-{w}"),
                std::cmp::Ordering::Less => format!("\ngame over: White wins {w}-{b}"),
                std::cmp::Ordering::Equal => format!("\ngame over: draw {b}-{w}"),
            };
        } else if p.must_pass() {
            text += &format!("\n{} must pass", p.side_to_move().name());
        }
        self.say(&text);
    }

    fn play(&mut self, mv: Move) -> Result<(), String> {
        let mut p = self.position();
        p.play_move(mv).map_err(|e| e.to_string())?;
        self.moves.push(mv);
        self.undone.clear();
        Ok(())
    }

    fn computer_to_move(&self) -> bool {
        let p = self.position();
        !p.is_game_over() && (self.both || self.computer == Some(p.side_to_move()))
    }

    /// The computer plays while it is its turn (passes included).
    fn computer_moves(&mut self) {
        while self.computer_to_move() {
            let p = self.position();
            let rng = &mut self.rng;
            let choice = choose_move(&mut self.search, p.board(), &self.level, &mut || {
                rng.next_f64()
            });
            match choice {
                Ok(c) => {
                    let value = c.value.map(discs).unwrap_or_default();
                    let _ = self.play(c.mv);
                    let msg = if c.pv.len() > 1 {
                        format!(
                            "{} plays {} {value}   line: {}",
                            p.side_to_move().name(),
                            c.mv,
                            line_text(&c.pv)
                        )
                    } else {
                        format!("{} plays {} {value}", p.side_to_move().name(), c.mv)
                    };
                    self.say(msg.trim_end());
                }
                Err(e) => {
                    self.say(&format!("error: {e}"));
                    return;
                }
            }
            self.show();
        }
    }

    fn hint(&mut self) {
        let p = self.position();
        if p.is_game_over() {
            return self.say("the game is over");
        }
        let Level::Search(s) = Level::numbered(8).clone_for(&self.level) else {
            unreachable!()
        };
        self.search.set_selectivity(s.selectivity);
        match self.search.best_move(p.board(), s.limits, |_| {}) {
            Ok(r) => {
                let msg = format!(
                    "hint: {} {} ({}, {} nodes, confidence {}%)   line: {}",
                    r.best.mv,
                    discs(r.best.value),
                    source_text(r.best.source),
                    r.nodes,
                    self.search.confidence(),
                    line_text(&r.best.pv)
                );
                self.say(&msg);
            }
            Err(e) => self.say(&format!("error: {e}")),
        }
    }

    fn show_lines(&mut self, temperature: f64) {
        let p = self.position();
        if p.is_game_over() || p.must_pass() {
            return self.say("no moves to show");
        }
        let Level::Search(s) = Level::numbered(8).clone_for(&self.level) else {
            unreachable!()
        };
        self.search.set_selectivity(s.selectivity);
        let mut latest: Vec<MoveValue> = Vec::new();
        let r = self.search.analyze_moves(p.board(), s.limits, |v| {
            match latest.iter_mut().find(|x| x.mv == v.mv) {
                Some(x) => *x = v.clone(),
                None => latest.push(v.clone()),
            }
        });
        if let Err(e) = r {
            return self.say(&format!("error: {e}"));
        }
        let lines = softmax(&latest, temperature);
        self.say(&format!(
            "move   value   chance   (temperature {temperature} discs)"
        ));
        for (mv, value, prob) in lines {
            let v = latest.iter().find(|x| x.mv == mv).expect("analysed");
            let text = format!(
                "{:<4} {:>7}  {:>6.1}%   {}  {}",
                mv.to_string(),
                discs(value),
                100.0 * prob,
                source_text(v.source),
                line_text(&v.pv)
            );
            self.say(&text);
        }
    }

    fn solve(&mut self) {
        let p = self.position();
        if p.empty_count() > 30 {
            return self.say(&format!(
                "{} empties: too many to solve here (at most 30)",
                p.empty_count()
            ));
        }
        match self
            .search
            .solver()
            .solve(p.board(), SolveMode::Exact, true)
        {
            Ok(s) => {
                let msg = format!(
                    "{} {:+} (exact, {} nodes, {:.2}s)   line: {}",
                    p.side_to_move().name(),
                    s.score,
                    s.nodes,
                    s.elapsed.as_secs_f64(),
                    line_text(&s.line)
                );
                self.say(&msg);
            }
            Err(e) => self.say(&format!("error: {e}")),
        }
    }

    /// Handles one command; false to quit.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return true;
        };
        match cmd.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return false,
            "help" | "?" => self.say(HELP),
            "board" | "d" | "show" if words.len() == 1 => self.show(),
            "show" if words.get(1) == Some(&"lines") => {
                let t = match words.get(2).map(|t| t.parse::<f64>()) {
                    None => 1.0,
                    Some(Ok(t)) if t > 0.0 => t,
                    _ => {
                        self.say("error: the temperature is a positive number of discs");
                        return true;
                    }
                };
                self.show_lines(t);
            }
            "moves" => {
                let p = self.position();
                let list: Vec<String> = p.legal_moves().iter().map(|s| s.to_string()).collect();
                self.say(&format!("legal moves: {}", list.join(" ")));
            }
            "new" => {
                self.start = Position::start();
                self.moves.clear();
                self.undone.clear();
                self.show();
                self.computer_moves();
            }
            "undo" => {
                // Against the computer, take back its answer too.
                let n = if self.computer.is_some() && !self.both {
                    2
                } else {
                    1
                };
                for _ in 0..n {
                    if let Some(m) = self.moves.pop() {
                        self.undone.push(m);
                    }
                }
                // Leave the user to move if a pass sits on top.
                while self.moves.last() == Some(&Move::Pass) && self.computer_to_move() {
                    let m = self.moves.pop().expect("a pass");
                    self.undone.push(m);
                }
                self.show();
            }
            "redo" => match self.undone.pop() {
                Some(m) => {
                    let keep = std::mem::take(&mut self.undone);
                    let _ = self.play(m);
                    self.undone = keep;
                    self.show();
                }
                None => self.say("nothing to redo"),
            },
            "level" => match words.get(1).map(|l| Level::parse(l)) {
                Some(Ok(l)) => {
                    self.level = l;
                    let msg = format!("level {}", l.name());
                    self.say(&msg);
                }
                Some(Err(e)) => self.say(&format!("error: {e}")),
                None => {
                    let msg = format!("level {}", self.level.name());
                    self.say(&msg);
                }
            },
            "computer" => match words.get(1).map(|w| parse_computer(w)) {
                Some(Ok((c, both))) => {
                    self.computer = c;
                    self.both = both;
                    self.computer_moves();
                }
                Some(Err(e)) => self.say(&format!("error: {e}")),
                None => self.say("computer black|white|both|none"),
            },
            "go" => {
                let p = self.position();
                if p.is_game_over() {
                    self.say("the game is over");
                } else {
                    if !self.both {
                        self.computer = Some(p.side_to_move());
                    }
                    self.computer_moves();
                }
            }
            "hint" => self.hint(),
            "solve" => self.solve(),
            "setboard" => match Position::parse(&words[1..].join(" ")) {
                Ok(p) => {
                    self.start = p;
                    self.moves.clear();
                    self.undone.clear();
                    self.show();
                }
                Err(e) => self.say(&format!("error: {e}")),
            },
            _ => match Move::parse(cmd) {
                Ok(mv) => match self.play(mv) {
                    Ok(()) => {
                        self.show();
                        self.computer_moves();
                    }
                    Err(e) => self.say(&format!("illegal move: {e}")),
                },
                Err(_) => self.say(&format!("error: unknown command '{line}' (try help)")),
            },
        }
        true
    }
}

trait CloneFor {
    /// The search level to use for analysis: the console's level if it searches, this
    /// one otherwise (random and greedy movers still get real hints).
    fn clone_for(self, level: &Level) -> Level;
}

impl CloneFor for Level {
    fn clone_for(self, level: &Level) -> Level {
        match level {
            Level::Search(_) => *level,
            _ => self,
        }
    }
}

/// Runs the console over any input and output (tests drive it with strings).
pub fn run<R: BufRead, W: Write>(input: R, out: W, args: &ConsoleArgs) -> Result<(), String> {
    if let Some(path) = &args.weights {
        crate::engine::use_weights(path).map_err(|e| e.to_string())?;
    }
    let level = Level::parse(&args.level)?;
    let (computer, both) = parse_computer(&args.computer)?;
    let mut c = Console {
        out,
        start: Position::start(),
        moves: Vec::new(),
        undone: Vec::new(),
        level,
        computer,
        both,
        search: MidgameSearch::new(evaluator(), 20, Arc::new(AtomicBool::new(false))),
        rng: Rng::new(args.seed),
    };
    c.say("Okapi console: type help for the commands");
    c.show();
    c.computer_moves();
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !c.command(line.trim()) {
            break;
        }
    }
    Ok(())
}

pub fn main(a: ConsoleArgs) -> ExitCode {
    let stdin = io::stdin();
    match run(stdin.lock(), io::stdout(), &a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("okapi console: {e}");
            ExitCode::from(2)
        }
    }
}
