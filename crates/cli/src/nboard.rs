//! `okapi nboard`: the engine side of the NBoard protocol, version 2, so that NBoard and
//! other hosts (and `okapi match`) can use Okapi.
//!
//! A thin protocol layer: the game is a [`Session`] (the host decides every move), the
//! searches are requests to the [`Engine`], and this file only reads lines and writes
//! answers. One line per command on standard input, one line per answer on standard
//! output, each flushed at once. `ping` (which NBoard sends to cancel a search before the
//! position changes) stops the search, drops whatever it would still say, then answers
//! `pong N`.
//!
//! Commands: `nboard 2`, `set depth N`, `set game <GGF>`, `set contempt N`,
//! `move F5[/eval/time]` (or a bare `F5`, protocol 1), `go` (answers `=== F5/eval/time`),
//! `hint N` (answers `search <pv> <eval> 0 <depth>` lines for about the best N moves,
//! deepening), `analyze` (answers `analysis <moves played> <eval>` for each position of
//! the game, from the end back), `learn` (answers `learned`), `ping N` (answers
//! `pong N`), `nodestats` (answers `nodestats <nodes> <seconds>` of the last search),
//! `quit`. Depths are written as NBoard reads them: `12`, `24@95%` with Multi-ProbCut,
//! `100%W` for a proven win/draw/loss, `100%` for an exact score. Unknown or malformed
//! commands, and lines that are not UTF-8 text, get a message on standard error naming
//! the line, and are otherwise ignored.
//!
//! When standard input ends, the engine stops whatever it is searching and exits, as a
//! UCI engine does on end of input: a host that is gone leaves no search burning a core.
//!
//! In the opening book (unless `--no-book`), `hint N` answers `book <move> <eval> <games>
//! <depth>` lines for the book's best N moves instead of searching, and `go` plays a book
//! move at once (the best, or with `--book-randomness` any within that many discs).

use crossbeam_channel::{Receiver, select, unbounded};
use okapi_core::board::Move;
use okapi_core::book::{BookMove, BookSource};
use okapi_core::game::{EvalSource, Game, Seat, Session};
use okapi_core::level::Level;
use okapi_core::search::SCALE;
use okapi_engine::{Engine, EngineOptions, Event, Line, Reply, Request, Ticket};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use okapi_core::formats::ggf::move_text;

/// Where the protocol's answers go: whole lines, flushed at once.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Writer>>);

/// The output and the first error writing to it.
struct Writer {
    w: Box<dyn Write + Send>,
    failed: Option<String>,
}

impl Out {
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(Writer { w, failed: None })))
    }

    /// Writes one line; false when the host no longer reads (a closed pipe) or the
    /// output cannot take it (a full disk). Nothing is written after a failure.
    pub fn line(&self, text: &str) -> bool {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if out.failed.is_some() {
            return false;
        }
        let written = writeln!(out.w, "{text}").and_then(|()| out.w.flush());
        if let Err(e) = written {
            out.failed = Some(e.to_string());
            return false;
        }
        true
    }

    /// Why a write failed, if one did.
    pub fn failure(&self) -> Option<String> {
        let out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        out.failed.clone()
    }
}

/// A value in discs as NBoard reads it.
fn disc_text(discs: f64) -> String {
    format!("{discs:.2}")
}

/// The principal line as one word: `F5D6C3`, `PA` for a pass.
fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|&m| move_text(m)).collect()
}

/// NBoard's depth: `12`, `12@95%`, `100%W` (proven win/draw/loss), `100%` (exact).
fn depth_text(source: EvalSource) -> String {
    match source {
        EvalSource::Midgame { depth, confidence } if confidence < 100 => {
            format!("{depth}@{confidence}%")
        }
        EvalSource::Midgame { depth, .. } | EvalSource::Heuristic { depth } => depth.to_string(),
        EvalSource::Wld => "100%W".into(),
        EvalSource::Exact => "100%".into(),
        EvalSource::Book => "0".into(),
    }
}

/// NBoard's `search` line for one line of the engine's search.
fn search_line(line: &Line) -> String {
    format!(
        "search {} {} 0 {}",
        pv_text(&line.moves),
        disc_text(line.discs),
        depth_text(line.eval.source)
    )
}

/// NBoard's `book` line: `book <move> <eval> <games> <depth>`.
fn book_line(m: &BookMove) -> String {
    let depth = match m.source {
        BookSource::Search { depth } => depth.to_string(),
        BookSource::Exact => "100%".into(),
        BookSource::Games => "0".into(),
    };
    format!(
        "book {} {} {} {}",
        move_text(Move::Play(m.square)),
        disc_text(m.value as f64 / SCALE as f64),
        m.games,
        depth
    )
}

/// Whether `go` and `hint` look in the opening book, and how freely `go` picks from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BookUse {
    Off,
    /// On: `go` picks among book moves within this many discs of the best.
    On {
        randomness: f64,
    },
}

/// Options of `okapi nboard`.
#[derive(Clone, Debug)]
pub struct NboardOptions {
    /// Table size and threads of the engine's searches.
    pub config: okapi_engine::EngineConfig,
    /// Midgame depth until `set depth` says otherwise.
    pub depth: u32,
    pub book: BookUse,
    /// Seeds the engine's choice among close book moves.
    pub seed: u64,
    /// The evaluation of the engine's searches.
    pub evaluator: std::sync::Arc<okapi_core::eval::Evaluator>,
}

impl Default for NboardOptions {
    fn default() -> Self {
        NboardOptions {
            config: okapi_engine::EngineConfig::default(),
            depth: 12,
            book: BookUse::On { randomness: 0.0 },
            seed: EngineOptions::default().seed,
            evaluator: okapi_core::eval::Evaluator::shipped(),
        }
    }
}

/// One line of input: its number and text, or why it is not text.
pub type InputLine = (usize, Result<String, String>);

/// The search under way: what its events become.
enum Search {
    Go {
        started: Instant,
    },
    Hint,
    /// `numbers[i]`: the moves played before position `i` of the request.
    Analyze {
        numbers: Vec<usize>,
    },
}

/// The protocol's state: the game, the settings, the engine and the search under way.
struct Protocol {
    session: Session,
    depth: u32,
    contempt: i32,
    book: BookUse,
    out: Out,
    engine: Engine,
    /// The search under way: its ticket (to wait for its end) and what it is.
    searching: Option<(Ticket, Search)>,
    /// Nodes and seconds of the last search, for `nodestats`.
    last_stats: (u64, f64),
    /// False once the host stops reading: everything ends.
    host_reads: bool,
    /// The session played a forced pass the host has not sent: hosts send games ending
    /// where the side to move must pass and expect the engine to answer `go` with the
    /// pass (`=== PA`), then send it back as `move PA`.
    owed_pass: bool,
}

impl Protocol {
    fn level(&self) -> Level {
        Level::numbered(self.depth)
    }

    fn say(&mut self, text: &str) {
        if !self.out.line(text) {
            self.host_reads = false;
        }
    }

    fn error(&self, number: usize, msg: &str) {
        errln!("okapi nboard: line {number}: {msg}");
    }

    /// Applies a command that needs no search.
    fn apply(&mut self, number: usize, line: &str) {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return };
        match cmd {
            "nboard" => match words.next().map(str::parse::<u32>) {
                Some(Ok(1 | 2)) => self.say(&format!("set myname Okapi{}", self.depth)),
                Some(Ok(v)) => self.error(
                    number,
                    &format!("protocol version {v} is not known; speaking version 2"),
                ),
                _ => self.error(number, "'nboard' needs a version number (nboard 2)"),
            },
            "set" => match words.next() {
                Some("depth") => match words.next().map(str::parse::<u32>) {
                    Some(Ok(d)) if (1..=60).contains(&d) => {
                        self.depth = d;
                        self.say(&format!("set myname Okapi{d}"));
                    }
                    _ => self.error(number, &format!("'{line}': the depth must be 1 to 60")),
                },
                Some("game") => {
                    let text = line.split_once("game").map_or("", |x| x.1);
                    match okapi_core::formats::ggf::read(text) {
                        Ok(mut game) => {
                            game.go_to(game.len());
                            let plies = game.len();
                            self.session = Session::new(game, [Seat::Human; 2]);
                            self.owed_pass = self.session.game().len() > plies;
                        }
                        Err(e) => {
                            self.error(number, &format!("set game: {e}; the game is unchanged"))
                        }
                    }
                }
                Some("contempt") => match words.next().map(str::parse::<i32>) {
                    Some(Ok(c)) => self.contempt = c,
                    _ => self.error(
                        number,
                        &format!("'{line}': contempt must be a whole number"),
                    ),
                },
                Some(other) => {
                    self.error(number, &format!("set {other}: unknown setting, ignored"))
                }
                None => self.error(number, "'set' needs a setting"),
            },
            "move" => match words.next() {
                Some(text) => self.play(number, text),
                None => self.error(number, "'move' needs a move (move F5/0.5/1.2)"),
            },
            "learn" => self.say("learned"),
            "nodestats" => {
                let (nodes, secs) = self.last_stats;
                self.say(&format!("nodestats {nodes} {secs:.2}"));
            }
            _ if words.next().is_none() && Move::parse(cmd).is_ok() => self.play(number, cmd),
            _ => self.error(number, &format!("unknown command '{line}', ignored")),
        }
    }

    fn play(&mut self, number: usize, text: &str) {
        let mv_text = text.split('/').next().unwrap_or("");
        match Move::parse(mv_text) {
            Ok(mv) => {
                if mv == Move::Pass && std::mem::take(&mut self.owed_pass) {
                    // The forced pass the session has played already.
                    return;
                }
                match self.session.play_any(mv, None) {
                    Ok(passed) => self.owed_pass = !passed.is_empty(),
                    Err(e) => self.error(
                        number,
                        &format!("move {mv_text}: {e}; the game is unchanged"),
                    ),
                }
            }
            Err(e) => self.error(number, &format!("move: {e}")),
        }
    }

    /// Starts the search a command asks for, or says why there is none.
    fn start(&mut self, number: usize, line: &str) {
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("");
        let position = self.session.position();
        let level = self.level();
        let (request, search) = match cmd {
            "go" => {
                if position.is_game_over() {
                    return self.error(number, "go: the game is over");
                }
                if self.owed_pass {
                    // The side the host asks about must pass (the session has played the
                    // pass already): a move for the other colour here would be taken as
                    // this side's move.
                    self.say("=== PA/0.00/0.0");
                    self.say("status");
                    return;
                }
                self.say("status Okapi is thinking");
                let book = match self.book {
                    BookUse::On { randomness } => Some(randomness),
                    BookUse::Off => None,
                };
                (
                    Request::Play {
                        position,
                        level,
                        time: None,
                        book,
                    },
                    Search::Go {
                        started: Instant::now(),
                    },
                )
            }
            "hint" => {
                let count = match words.next().map(str::parse::<usize>) {
                    None => 1,
                    Some(Ok(n)) if n >= 1 => n,
                    _ => {
                        return self
                            .error(number, &format!("'{line}': hint needs a count (hint 3)"));
                    }
                };
                if position.is_game_over() {
                    return self.error(number, "hint: the game is over");
                }
                self.say("status Okapi is analysing");
                let book = self.book != BookUse::Off;
                (
                    Request::Hint {
                        position,
                        level,
                        count,
                        book,
                    },
                    Search::Hint,
                )
            }
            "analyze" => {
                self.say("status Okapi is analysing the game");
                let game = self.session.game();
                let numbers: Vec<usize> = (0..=game.ply()).rev().collect();
                let positions = numbers.iter().map(|&i| game.position_at(i)).collect();
                (
                    Request::ValuePositions { positions, level },
                    Search::Analyze { numbers },
                )
            }
            _ => return self.error(number, &format!("unknown command '{line}'")),
        };
        let ticket = self.engine.send(request);
        self.searching = Some((ticket, search));
    }

    /// Turns an engine event of the search under way into protocol lines (the engine
    /// drops the events of superseded searches; their ends are ignored).
    fn event(&mut self, event: Event) {
        let Some((_, search)) = &self.searching else {
            return;
        };
        match (&event, search) {
            (Event::Line { line, .. }, _) => self.say(&search_line(line)),
            (Event::BookMoves { moves, .. }, _) => {
                for m in moves {
                    self.say(&book_line(m));
                }
            }
            (
                Event::Played {
                    mv, discs, book, ..
                },
                Search::Go { started },
            ) => {
                let started = *started;
                if let Some(m) = book {
                    self.say(&book_line(m));
                }
                self.say(&format!(
                    "=== {}/{}/{:.1}",
                    move_text(*mv),
                    disc_text(discs.unwrap_or(0.0)),
                    started.elapsed().as_secs_f64()
                ));
            }
            (Event::PositionValue { index, discs, .. }, Search::Analyze { numbers }) => {
                let number = numbers[*index];
                self.say(&format!("analysis {number} {}", disc_text(*discs)));
            }
            (Event::Finished { nodes, elapsed, .. }, _) => {
                self.last_stats = (*nodes, elapsed.as_secs_f64());
                self.say(&format!("nodestats {nodes} {:.2}", elapsed.as_secs_f64()));
                self.say("status");
                self.searching = None;
            }
            (Event::Error { message, .. }, _) => {
                errln!("okapi nboard: {message}");
                self.say("status");
                self.searching = None;
            }
            (Event::Stopped, _) => self.searching = None,
            _ => {}
        }
    }

    /// Stops the search under way and waits for its end; nothing more is said of it.
    fn cancel(&mut self) {
        if let Some((ticket, _)) = self.searching.take() {
            self.engine.cancel();
            // The engine stops within milliseconds; the bound only guards a stuck thread.
            self.engine.wait_for_end(ticket, Duration::from_secs(5));
        }
    }
}

/// What one protocol line asks for.
enum Action {
    /// Stop any search now, then answer.
    Ping,
    Quit,
    /// Starts a search (after the current one).
    Search,
    /// Changes the state or answers at once.
    State,
}

fn classify(line: &str) -> Action {
    match line.split_whitespace().next().unwrap_or("") {
        "ping" => Action::Ping,
        "quit" => Action::Quit,
        "go" | "hint" | "analyze" => Action::Search,
        _ => Action::State,
    }
}

/// `okapi nboard` options.
#[derive(clap::Args, Debug)]
pub struct NboardArgs {
    /// Hash table of about 16 * 2^N bytes.
    #[arg(long, value_name = "N", default_value_t = okapi_core::search::DEFAULT_HASH_BITS, value_parser = super::units::parse_hash_bits)]
    pub hash_bits: u32,
    /// Midgame depth until the host sends `set depth`.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Evaluation weights to use instead of the shipped ones (a file `okapi train` wrote).
    #[arg(long, value_name = "FILE")]
    pub weights: Option<std::path::PathBuf>,
    /// Do not use the opening book (`go` and `hint` search every position).
    #[arg(long)]
    pub no_book: bool,
    /// `go` picks among book moves within this many discs of the best, weighted towards
    /// it (0: the best).
    #[arg(
        long,
        value_name = "DISCS",
        default_value_t = 0.0,
        conflicts_with = "no_book",
        value_parser = super::units::non_negative_discs
    )]
    pub book_randomness: f64,
    /// Threads of the engine's searches, 1 or more; default: all the cores.
    #[arg(long, value_name = "N", value_parser = super::units::parse_threads)]
    pub threads: Option<usize>,
}

pub fn main(a: NboardArgs) -> std::process::ExitCode {
    let evaluator = match &a.weights {
        Some(path) => match okapi_core::eval::Evaluator::load(path) {
            Ok(e) => std::sync::Arc::new(e),
            Err(e) => {
                errln!("okapi nboard: {e}");
                return std::process::ExitCode::from(2);
            }
        },
        None => okapi_core::eval::Evaluator::shipped(),
    };
    let config = match super::engine_flags::engine_config("--hash-bits", a.hash_bits, a.threads) {
        Ok(c) => c,
        Err(e) => {
            errln!("okapi nboard: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    run(&NboardOptions {
        config,
        depth: a.depth,
        book: if a.no_book {
            BookUse::Off
        } else {
            BookUse::On {
                randomness: a.book_randomness,
            }
        },
        evaluator,
        ..NboardOptions::default()
    })
}

/// Reads lines of bytes from `input`: each as text, or why it is not (a line that is not
/// UTF-8 is reported and skipped, never the end of the session).
pub fn read_lines(input: impl BufRead + Send + 'static) -> Receiver<InputLine> {
    let (tx, rx) = unbounded();
    std::thread::spawn(move || {
        let mut input = input;
        let mut number = 0;
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            // Lines are capped: a host never sends more than a game record per line.
            match std::io::Read::take(&mut input, MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes)
            {
                Ok(0) => return,
                Ok(_) => {}
                Err(e) => {
                    errln!("okapi nboard: cannot read standard input: {e}");
                    return;
                }
            }
            number += 1;
            let line = if bytes.len() > MAX_LINE {
                // Skip the rest of the over-long line a buffer at a time: reading it
                // whole would take as much memory as the line (800 MB for 800 MB).
                if let Err(e) = skip_line(&mut input) {
                    errln!("okapi: cannot read standard input: {e}");
                    return;
                }
                Err(format!("longer than {MAX_LINE} bytes, ignored"))
            } else {
                String::from_utf8(std::mem::take(&mut bytes)).map_err(|e| {
                    format!(
                        "not UTF-8 text (byte {} of the line), ignored",
                        e.utf8_error().valid_up_to() + 1
                    )
                })
            };
            if tx.send((number, line)).is_err() {
                return;
            }
        }
    });
    rx
}

/// Reads up to and including the next `\n` (or the end), keeping nothing.
fn skip_line(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                input.consume(n);
            }
        }
    }
}

/// The longest input line taken (a GGF game is well under 2 KB).
const MAX_LINE: usize = 1 << 20;

/// Runs the protocol on standard input and output. The end of the input or `quit` is the
/// end of the session (0); an answer that could not be written (the host closed its end
/// of the pipe, a full disk) is a failure: the host missed it (2, with the reason).
pub fn run(opts: &NboardOptions) -> std::process::ExitCode {
    let lines = read_lines(io::BufReader::new(io::stdin()));
    let out = Out::new(Box::new(io::stdout()));
    serve(lines, out.clone(), opts);
    match out.failure() {
        None => std::process::ExitCode::SUCCESS,
        Some(why) => {
            errln!("okapi nboard: cannot write to standard output: {why}");
            std::process::ExitCode::from(2)
        }
    }
}

/// The protocol loop over lines from `lines` (ends when it closes, on `quit`, or when the
/// host stops reading: [`Out::failure`] says why).
pub fn serve(lines: Receiver<InputLine>, out: Out, opts: &NboardOptions) {
    let engine = Engine::spawn_with(
        EngineOptions {
            evaluator: opts.evaluator.clone(),
            config: opts.config,
            seed: opts.seed,
        },
        || {},
    );
    let mut p = Protocol {
        session: Session::new(Game::default(), [Seat::Human; 2]),
        depth: opts.depth.clamp(1, 60),
        contempt: 0,
        book: opts.book,
        out,
        engine,
        searching: None,
        last_stats: (0, 0.0),
        host_reads: true,
        owed_pass: false,
    };
    // Commands that wait for the search under way.
    let mut pending: VecDeque<(usize, String)> = VecDeque::new();
    while p.host_reads {
        // Run queued commands while no search is going on.
        while p.searching.is_none() {
            let Some((number, line)) = pending.pop_front() else {
                break;
            };
            match classify(&line) {
                Action::Search => p.start(number, &line),
                _ => p.apply(number, &line),
            }
        }
        let events = p.engine.events().clone();
        select! {
            recv(lines) -> msg => {
                let Ok((number, line)) = msg else { break };
                let line = match line {
                    Ok(l) => l.trim().to_string(),
                    Err(why) => { p.error(number, &why); continue; }
                };
                if line.is_empty() {
                    continue;
                }
                match classify(&line) {
                    Action::Ping => {
                        // Stop thinking; searches asked for before the ping go with it.
                        p.cancel();
                        for (n, queued) in std::mem::take(&mut pending) {
                            if let Action::State = classify(&queued) {
                                p.apply(n, &queued);
                            }
                        }
                        let n = line.split_whitespace().nth(1).unwrap_or("0");
                        p.say(&format!("pong {n}"));
                    }
                    Action::Quit => break,
                    _ => pending.push_back((number, line)),
                }
            }
            recv(events) -> reply => match reply {
                Ok(Reply { event, .. }) => p.event(event),
                Err(_) => break,
            },
        }
    }
    let _ = p.contempt;
    // End of input, quit, or the host gone: nothing keeps searching.
    p.cancel();
}

#[cfg(test)]
mod tests {
    use super::*;
    use okapi_core::game::Eval;

    #[test]
    fn depth_texts() {
        let mid = |depth, confidence| EvalSource::Midgame { depth, confidence };
        assert_eq!(depth_text(mid(12, 100)), "12");
        assert_eq!(depth_text(mid(24, 95)), "24@95%");
        assert_eq!(depth_text(EvalSource::Exact), "100%");
        assert_eq!(depth_text(EvalSource::Wld), "100%W");
    }

    #[test]
    fn pv_and_values() {
        let pv = [
            Move::parse("f5").unwrap(),
            Move::Pass,
            Move::parse("d6").unwrap(),
        ];
        assert_eq!(pv_text(&pv), "F5PAD6");
        assert_eq!(disc_text(-1.5), "-1.50");
        let line = Line {
            moves: pv.to_vec(),
            discs: 2.25,
            eval: Eval {
                value: 2,
                source: EvalSource::Midgame {
                    depth: 7,
                    confidence: 95,
                },
            },
        };
        assert_eq!(search_line(&line), "search F5PAD6 2.25 0 7@95%");
    }

    #[test]
    fn an_endless_line_is_skipped_without_keeping_it() {
        // Three times the cap, then a short line: the long one is reported, the next read.
        let mut input = vec![b'x'; 3 * MAX_LINE];
        input.extend_from_slice(b"\nping 1\n");
        let got: Vec<InputLine> = read_lines(std::io::Cursor::new(input)).iter().collect();
        assert_eq!(
            got.len(),
            2,
            "{:?}",
            got.iter().map(|l| &l.1).collect::<Vec<_>>().len()
        );
        assert!(got[0].1.as_ref().unwrap_err().contains("longer than"));
        assert_eq!(got[1], (2, Ok("ping 1\n".into())));
        // The skipping reads through a buffer, keeping nothing.
        let mut r = std::io::BufReader::with_capacity(
            16,
            std::io::Cursor::new(b"abcdefghijklmnopqrstuvwxyz\nrest".to_vec()),
        );
        skip_line(&mut r).unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut r, &mut rest).unwrap();
        assert_eq!(rest, "rest");
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_the_rest_is_read() {
        let input: &[u8] = b"nboard 2\n\xff\xfeset depth 3\nping 1\n";
        let rx = read_lines(std::io::Cursor::new(input.to_vec()));
        let got: Vec<InputLine> = rx.iter().collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], (1, Ok("nboard 2\n".into())));
        assert!(
            got[1].1.as_ref().unwrap_err().contains("not UTF-8"),
            "{got:?}"
        );
        assert_eq!(got[2], (3, Ok("ping 1\n".into())));
    }
}
