//! `okapi console` (or `okapi play`): a text console in the manner of gnuchess. It shows
//! the board, takes moves (`f5`), and the computer answers for its side.
//!
//! Commands: a move (`f5`, `pass`), `undo`, `redo`, `new`, `level L` (any level `okapi
//! match` reads: `8`, `12t1.5`, `2s`, `greedy`), `go` (the computer plays the side to
//! move, and keeps that side), `computer black|white|none|both`, `hint`, `show lines
//! [T]` (every move's value and its chance of being chosen at temperature T discs),
//! `solve` (exact score and best line), `board`, `moves`, `setboard <64 squares> <X|O>`,
//! `threads N` (the engine's threads), `help`, `quit`.

use super::nboard::InputLine;
use okapi_core::board::{Color, Move, Position};
use okapi_core::game::openings;
use okapi_core::game::{EvalSource, Game, Next, Seat, Session};
use okapi_core::level::{Level, softmax};
use okapi_core::search::{MoveValue, SCALE, SearchSource, SolveMode};
use okapi_engine::{Configuration, Engine, EngineConfig, EngineOptions, Event, Line, Request};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// The sides the computer plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Computer {
    Black,
    White,
    Both,
    None,
}

impl Computer {
    fn plays(self, color: Color) -> bool {
        match self {
            Computer::Both => true,
            Computer::None => false,
            Computer::Black => color == Color::Black,
            Computer::White => color == Color::White,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct ConsoleArgs {
    /// The computer's level (random, greedy, a depth, 8t1.5, 2s).
    #[arg(long, default_value = "8")]
    pub level: String,
    /// The side the computer plays.
    #[arg(long, value_enum, default_value = "white")]
    pub computer: Computer,
    /// Seed for levels that draw moves at random.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Evaluation weights to use instead of the shipped ones.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
    /// Threads of the engine's searches, 1 or more; default: all the cores (the command
    /// `threads N` changes it).
    #[arg(long, value_name = "N", value_parser = super::units::parse_threads)]
    pub threads: Option<usize>,
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
  solve             exact score and best line (slow above about 26 empties; stop ends it)
  board, moves      show the board, list the legal moves
  opening           the opening's name and where each legal move leads among the named ones
  setboard B S      set up a position: 64 squares (X O -) and the side to move (X or O)
  threads N         the threads the engine searches with (threads: show them)
  help, quit";

/// The console: a session played through the engine; this file only reads commands and
/// prints.
struct Console<W: Write> {
    out: W,
    session: Session,
    level: Level,
    computer: Computer,
    engine: Engine,
    /// The engine's table size and threads (`threads N` changes them).
    config: EngineConfig,
    /// The input lines, read on their own thread so a solve can be stopped by a line
    /// typed while it runs; lines read during a solve wait in `pending`.
    input: crossbeam_channel::Receiver<InputLine>,
    pending: std::collections::VecDeque<InputLine>,
    input_closed: bool,
    /// The solve was stopped because the input ended (see [`Console::solve`]).
    stopping: bool,
    /// Why a line could not be written (the reader gone, a full disk): the session ends
    /// with that error, not as if it had been read.
    output_failed: Option<String>,
}

/// Is standard output a pipe whose reader is gone? (Unix: `poll` reports an error on
/// it.) Elsewhere, or for a terminal or a file, false.
fn standard_output_closed() -> bool {
    #[cfg(unix)]
    {
        let mut fd = libc::pollfd {
            fd: 1,
            events: libc::POLLOUT,
            revents: 0,
        };
        // SAFETY: one pollfd, valid for the call; a zero timeout never blocks.
        let n = unsafe { libc::poll(&mut fd, 1, 0) };
        n == 1 && fd.revents & (libc::POLLERR | libc::POLLHUP) != 0
    }
    #[cfg(not(unix))]
    {
        false
    }
}

fn parse_computer(text: &str) -> Result<Computer, String> {
    use clap::ValueEnum;
    Computer::from_str(text, true)
        .map_err(|_| format!("'{text}' is not a side (black, white, both or none)"))
}

fn discs(v: f64) -> String {
    format!("{v:+.2}")
}

fn line_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn source_text(s: EvalSource) -> String {
    match s {
        EvalSource::Midgame { depth, .. } | EvalSource::Heuristic { depth } => {
            format!("depth {depth}")
        }
        EvalSource::Wld => "win/draw/loss".into(),
        EvalSource::Exact => "exact".into(),
        EvalSource::Book => "book".into(),
    }
}

/// A line's value in the search's units (for the temperature's weights).
fn scaled(line: &Line) -> i32 {
    (line.discs * SCALE as f64).round() as i32
}

impl<W: Write> Console<W> {
    fn position(&self) -> Position {
        self.session.position()
    }

    /// Writes a line; after a failed write nothing more is written, and the console ends
    /// ([`Console::output_failed`]).
    fn say(&mut self, text: &str) {
        if self.output_failed.is_some() {
            return;
        }
        if let Err(e) = writeln!(self.out, "{text}").and_then(|()| self.out.flush()) {
            self.output_failed = Some(e.to_string());
        }
    }

    /// The seats: the computer's sides at the console's level.
    fn seats(&self) -> [Seat; 2] {
        [Color::Black, Color::White].map(|c| {
            if self.computer.plays(c) {
                Seat::Engine(self.level)
            } else {
                Seat::Human
            }
        })
    }

    fn reseat(&mut self) {
        let seats = self.seats();
        for (c, seat) in [Color::Black, Color::White].into_iter().zip(seats) {
            self.session.set_seat(c, seat);
        }
    }

    fn show(&mut self) {
        let p = self.position();
        // The diagram ends with the side to move and the disc count.
        let mut text = format!("{p}");
        if let Some(opening) = openings::opening_at_cursor(self.session.game()) {
            text += &format!("\nopening: {}", opening.name);
        }
        if p.is_game_over() {
            let (b, w) = p.final_counts();
            text += &match b.cmp(&w) {
                std::cmp::Ordering::Greater => format!("\ngame over: Black wins {b}-{w}"),
                std::cmp::Ordering::Less => format!("\ngame over: White wins {w}-{b}"),
                std::cmp::Ordering::Equal => format!("\ngame over: draw {b}-{w}"),
            };
        }
        self.say(&text);
    }

    /// The opening of the line so far (its deepest named position), and what each legal
    /// move leads to among the named openings.
    fn opening(&mut self) {
        let text = match openings::opening_at_cursor(self.session.game()) {
            Some(o) if o.ply == self.session.game().ply() => format!("opening: {}", o.name),
            // Later moves named nothing (yet): the game may still be on a longer named
            // line, or off them all.
            Some(o) => format!("opening: {} (reached at move {})", o.name, o.ply),
            None => "opening: none named yet".to_string(),
        };
        self.say(&text);
        let p = self.position();
        for sq in p.legal_moves().iter() {
            if let Some(leads) = openings::leads_to(&p, sq) {
                let line = format!("  {sq} {}", leads.text(usize::MAX));
                self.say(&line);
            }
        }
    }

    /// Tells the passes a move forced.
    fn tell_passes(&mut self, passed: &[Color]) {
        for c in passed {
            let msg = format!("{} must pass", c.name());
            self.say(&msg);
        }
    }

    /// The computer plays while it is its turn (passes included), at the end of the game.
    fn computer_moves(&mut self) {
        self.computer_moves_while(false);
    }

    /// The same, its first move even from a position inside the game's record.
    fn computer_moves_from_here(&mut self) {
        self.computer_moves_while(true);
    }

    fn computer_moves_while(&mut self, from_here: bool) {
        let mut first = from_here;
        // Nobody sees the moves once the output fails: no game is played on for nobody.
        while self.output_failed.is_none() {
            let next = if std::mem::take(&mut first) {
                self.session.engine_move_now()
            } else {
                Some(self.session.next())
            };
            let Some(Next::EngineMove {
                position,
                level,
                time,
            }) = next
            else {
                return;
            };
            let mut played = None;
            let result = self.engine.call(
                Request::Play {
                    position,
                    level,
                    time,
                    book: None,
                },
                |e| {
                    if let Event::Played { mv, discs, pv, .. } = e {
                        played = Some((*mv, *discs, pv.clone()));
                    }
                },
            );
            let Some((mv, value, pv)) = played.filter(|_| result.is_ok()) else {
                let msg = format!(
                    "error: {}",
                    result.err().map_or("no move".into(), |e| e.to_string())
                );
                return self.say(&msg);
            };
            let passed = match self.session.play_engine_move(position, mv, None) {
                Ok(passed) => passed,
                Err(e) => return self.say(&format!("error: {e}")),
            };
            let value = value.map(discs).unwrap_or_default();
            let side = position.side_to_move().name();
            let msg = if pv.len() > 1 {
                format!("{side} plays {mv} {value}   line: {}", line_text(&pv))
            } else {
                format!("{side} plays {mv} {value}")
            };
            self.say(msg.trim_end());
            self.tell_passes(&passed);
            self.show();
        }
    }

    /// The level used for analysis: the console's if it searches, level 8 otherwise
    /// (random and greedy movers still get real hints), at full strength.
    fn analysis_level(&self) -> Level {
        match self.level {
            Level::Search(mut s) => {
                s.temperature = 0.0;
                Level::Search(s)
            }
            _ => Level::numbered(8),
        }
    }

    /// The lines of the last complete depth of a `Hint` for `count` moves.
    fn hint_lines(&mut self, count: usize) -> Result<Vec<Line>, String> {
        let position = self.position();
        let level = self.analysis_level();
        let mut lines: Vec<Line> = Vec::new();
        let mut nodes = 0;
        self.engine
            .call(
                Request::Hint {
                    position,
                    level,
                    count,
                    book: false,
                },
                |e| match e {
                    Event::Line { line, .. } => {
                        // A new depth starts: keep only the deepest round.
                        if lines.len() == count {
                            lines.clear();
                        }
                        lines.push(line.clone());
                    }
                    Event::Finished { nodes: n, .. } => nodes = *n,
                    _ => {}
                },
            )
            .map_err(|e| e.to_string())?;
        let _ = nodes;
        Ok(lines)
    }

    fn hint(&mut self) {
        let p = self.position();
        if p.is_game_over() {
            return self.say("the game is over");
        }
        let position = p;
        let level = self.analysis_level();
        let mut best: Option<Line> = None;
        let mut nodes = 0;
        let result = self.engine.call(
            Request::Hint {
                position,
                level,
                count: 1,
                book: false,
            },
            |e| match e {
                Event::Line { line, .. } => best = Some(line.clone()),
                Event::Finished { nodes: n, .. } => nodes = *n,
                _ => {}
            },
        );
        match (result, best) {
            (Ok(()), Some(b)) => {
                let confidence = match b.eval.source {
                    EvalSource::Midgame { confidence, .. } => confidence,
                    _ => 100,
                };
                let msg = format!(
                    "hint: {} {} ({}, {} nodes, confidence {}%)   line: {}",
                    b.moves[0],
                    discs(b.discs),
                    source_text(b.eval.source),
                    nodes,
                    confidence,
                    line_text(&b.moves)
                );
                self.say(&msg);
            }
            (Err(e), _) => self.say(&format!("error: {e}")),
            (Ok(()), None) => self.say("error: no move found"),
        }
    }

    fn show_lines(&mut self, temperature: f64) {
        let p = self.position();
        if p.is_game_over() || p.must_pass() {
            return self.say("no moves to show");
        }
        let count = p.legal_moves().iter().count();
        let latest = match self.hint_lines(count) {
            Ok(l) => l,
            Err(e) => return self.say(&format!("error: {e}")),
        };
        // The temperature's chances, as the weakened levels draw them.
        let values: Vec<MoveValue> = latest
            .iter()
            .map(|l| MoveValue {
                mv: l.moves[0],
                value: scaled(l),
                source: SearchSource::Midgame { depth: 0 },
                pv: l.moves.clone(),
            })
            .collect();
        let chances = softmax(&values, temperature);
        self.say(&format!(
            "move   value   chance   (temperature {temperature} discs)"
        ));
        for (mv, _, prob) in chances {
            let l = latest.iter().find(|l| l.moves[0] == mv).expect("analysed");
            let text = format!(
                "{:<4} {:>7}  {:>6.1}%   {}  {}",
                mv.to_string(),
                discs(l.discs),
                100.0 * prob,
                source_text(l.eval.source),
                line_text(&l.moves)
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
        if p.is_game_over() {
            return self.say("the game is over");
        }
        let mut solved = None;
        self.engine.send(Request::Solve {
            position: p,
            mode: SolveMode::Exact,
        });
        // Wait for the solve while reading the input: `stop` stops it, other lines (a
        // piped `quit` too) run after it. When the input ends with nothing read after
        // `solve`, nothing more was asked for: the solve stops and the console ends (as
        // a chess engine takes the end of its input for `quit`), instead of solving for
        // minutes or hours for a host that is gone. Lines read after `solve` (a piped
        // `solve` then `quit`) ask for its answer first, so it goes on, unless nobody
        // reads the answer either (standard output closed).
        let result = loop {
            let input = if self.input_closed {
                crossbeam_channel::never()
            } else {
                self.input.clone()
            };
            crossbeam_channel::select! {
                // Only this solve's events come (the engine drops older ones).
                recv(self.engine.events()) -> reply => match reply.map(|r| r.event) {
                    Err(_) => break Err("the engine is gone".to_string()),
                    Ok(Event::Solved { score, line, nodes, elapsed, .. }) => {
                        solved = Some((score, line, nodes, elapsed));
                    }
                    Ok(Event::Finished { .. }) => break Ok(()),
                    Ok(Event::Stopped) => break Err("stopped".to_string()),
                    Ok(Event::Error { message }) => break Err(message),
                    Ok(_) => {}
                },
                recv(input) -> line => match line {
                    Ok((_, Ok(text))) if text.trim() == "stop" => self.engine.stop(),
                    Ok(line) => self.pending.push_back(line),
                    Err(_) => self.input_closed = true,
                },
                default(std::time::Duration::from_millis(200)) => {}
            }
            if self.input_closed
                && !self.stopping
                && (self.pending.is_empty() || standard_output_closed())
            {
                self.stopping = true;
                self.engine.stop();
            }
        };
        let result = match result {
            Err(e) if self.stopping => Err(format!("{e}: the input ended")),
            other => other,
        };
        self.stopping = false;
        match (result, solved) {
            (Ok(()), Some((score, line, nodes, elapsed))) => {
                let msg = format!(
                    "{} {:+} (exact, {} nodes, {:.2}s)   line: {}",
                    p.side_to_move().name(),
                    score,
                    nodes,
                    elapsed.as_secs_f64(),
                    line_text(&line)
                );
                self.say(&msg);
            }
            (Err(e), _) => self.say(&format!("error: {e}")),
            (Ok(()), None) => self.say("error: no result"),
        }
    }

    /// `level L` (the computer plays at L from now on, and its strength is told),
    /// `level` (which).
    fn level_command(&mut self, level: Option<&str>) {
        let Some(text) = level else {
            let msg = format!("level {}", self.level.name());
            return self.say(&msg);
        };
        match Level::parse(text) {
            Ok(l) => {
                self.level = l;
                self.reseat();
                let msg = format!("level {}", l.name());
                self.say(&msg);
                // Only when a level is set: a bare `level` answers one line, which
                // `okapi match --a-okapi` reads as its marker.
                let table = okapi_core::level::ratings::LevelRatings::shipped();
                use okapi_core::level::ratings::Strength;
                let rating = match table.strength(&l, 0) {
                    Some(s) => match &s {
                        Strength::AtLeast { than, .. } => {
                            // Depth levels by their number, time levels as "2s".
                            let than = match than.parse::<u32>() {
                                Ok(_) => format!("level {than}"),
                                Err(_) => than.clone(),
                            };
                            format!("{} (not measured; it searches more than {than})", s.text())
                        }
                        Strength::Measured { .. } => s.text(),
                    },
                    None => "strength not measured".to_string(),
                };
                let msg = format!("  {rating}. {} {}", l.description(), table.scale_sentence());
                self.say(&msg);
            }
            Err(e) => self.say(&format!("error: {e}")),
        }
    }

    /// `threads N` (the engine searches with N threads from now on), `threads` (how many).
    fn threads(&mut self, count: Option<&str>) {
        let Some(count) = count else {
            let msg = format!("threads {}", self.config.threads());
            return self.say(&msg);
        };
        let config = super::units::parse_threads(count).and_then(|n| {
            EngineConfig::new(self.config.hash_bits(), n).map_err(|e| format!("'{count}': {e}"))
        });
        match config {
            Ok(config) => {
                self.config = config;
                // The other settings as the engine starts in the console.
                self.engine.configure(Configuration {
                    engine: config,
                    solve_limit: okapi_engine::DEFAULT_SOLVE_LIMIT,
                    book: true,
                });
                self.say(&format!("threads {}", config.threads()));
            }
            Err(e) => self.say(&format!("error: {e}")),
        }
    }

    /// A new game from `start` with the console's seats.
    fn restart(&mut self, start: Position) {
        self.session = Session::new(Game::new(start), self.seats());
        if !self.session.game().is_empty() {
            // The session played the side to move's forced pass.
            self.tell_passes(&[start.side_to_move()]);
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
            "show" if words.get(1) == Some(&"lines") => match words.get(2).map(|t| t.parse()) {
                None => self.show_lines(1.0),
                Some(Ok(t)) if t > 0.0 && f64::is_finite(t) => self.show_lines(t),
                _ => self.say("error: the temperature is a positive number of discs"),
            },
            "opening" | "openings" => self.opening(),
            "moves" => {
                let p = self.position();
                let list: Vec<String> = p.legal_moves().iter().map(|s| s.to_string()).collect();
                self.say(&format!("legal moves: {}", list.join(" ")));
            }
            "new" => {
                self.restart(Position::start());
                self.show();
                self.computer_moves();
            }
            "undo" => {
                // The session's undo: against the computer, its answer goes too.
                if !self.session.undo() {
                    self.say("nothing to undo");
                }
                self.show();
            }
            "redo" => {
                if self.session.redo() {
                    self.show();
                } else {
                    self.say("nothing to redo");
                }
            }
            "level" => self.level_command(words.get(1).copied()),
            "threads" => self.threads(words.get(1).copied()),
            "computer" => match words.get(1).map(|w| parse_computer(w)) {
                Some(Ok(c)) => {
                    self.computer = c;
                    self.reseat();
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
                    if self.computer != Computer::Both {
                        self.computer = match p.side_to_move() {
                            Color::Black => Computer::Black,
                            Color::White => Computer::White,
                        };
                    }
                    self.reseat();
                    // From inside the record too: the computer plays from here on.
                    self.computer_moves_from_here();
                }
            }
            "hint" => self.hint(),
            "solve" => self.solve(),
            "setboard" => match okapi_core::formats::board_text::read(&words[1..].join(" ")) {
                Ok(p) => {
                    self.restart(p);
                    self.show();
                }
                Err(e) => self.say(&format!("error: {e}")),
            },
            _ => match Move::parse(cmd) {
                Ok(mv) => match self.session.play(mv, None) {
                    Ok(passed) => {
                        self.tell_passes(&passed);
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

/// Runs the console over any input and output (tests drive it with strings). Input lines
/// are capped and need not be UTF-8: a bad line is reported and skipped, never the end.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    input: R,
    out: W,
    args: &ConsoleArgs,
) -> Result<(), String> {
    let evaluator = match &args.weights {
        Some(path) => {
            std::sync::Arc::new(okapi_core::eval::Evaluator::load(path).map_err(|e| e.to_string())?)
        }
        None => okapi_core::eval::Evaluator::shipped(),
    };
    let level = Level::parse(&args.level).map_err(|e| e.to_string())?;
    let config = super::engine_flags::engine_config(
        "hash bits",
        okapi_core::search::DEFAULT_HASH_BITS,
        args.threads,
    )?;
    let engine = Engine::spawn_with(
        EngineOptions {
            evaluator,
            config,
            seed: args.seed,
        },
        || {},
    );
    let mut c = Console {
        out,
        session: Session::new(Game::default(), [Seat::Human; 2]),
        level,
        computer: args.computer,
        engine,
        config,
        input: super::nboard::read_lines(input),
        pending: Default::default(),
        input_closed: false,
        stopping: false,
        output_failed: None,
    };
    c.reseat();
    c.say("Okapi console: type help for the commands");
    c.show();
    c.computer_moves();
    while c.output_failed.is_none() {
        let next = match c.pending.pop_front() {
            Some(line) => line,
            None if c.input_closed => break,
            None => match c.input.recv() {
                Ok(line) => line,
                Err(_) => break,
            },
        };
        match next {
            (_, Ok(line)) => {
                if !c.command(line.trim()) {
                    break;
                }
            }
            (number, Err(reason)) => c.say(&format!("error: input line {number}: {reason}")),
        }
    }
    // The end of the input is the end of the session; an answer nobody could read is not.
    match c.output_failed {
        Some(why) => Err(format!("cannot write to standard output: {why}")),
        None => Ok(()),
    }
}

pub fn main(a: ConsoleArgs) -> ExitCode {
    match run(io::BufReader::new(io::stdin()), io::stdout(), &a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("okapi console: {e}");
            ExitCode::from(2)
        }
    }
}
