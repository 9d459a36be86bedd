//! The sides of `okapi match` that are other programs: any engine speaking the NBoard
//! protocol, and another Okapi binary (an older version, `tools/build-version`) driven
//! through its text console, which plays every Okapi level, times per move included.
//!
//! Why the console for Okapi binaries: the NBoard protocol gives an engine a midgame depth
//! (`set depth`) and nothing per move in time (the GGF game's clock is the only time it
//! carries), and `okapi nboard` up to this version reads only the depth. The console of
//! every version takes any level (`level 0.05s`) and plays it by the same request to its
//! engine as `okapi match` does for an Okapi level, without the book: so both sides of a
//! match against an older version play the same level by the same code.

use super::contestant::Contestant;
use anyhow::{Context, anyhow, bail};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use okapi_core::board::Move;
use okapi_core::game::Game;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process spoken to line by line: its input, and its output lines read on a thread
/// of their own, so that every wait has a deadline.
struct LinePipe {
    /// How the program was started, for messages.
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The longest wait for an answer.
    timeout: Duration,
}

impl LinePipe {
    fn start(mut cmd: Command, command: &str, timeout: Duration) -> anyhow::Result<LinePipe> {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start the engine '{command}'"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(LinePipe {
            command: command.to_string(),
            child,
            stdin,
            lines,
            timeout,
        })
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .with_context(|| format!("the engine '{}' stopped listening", self.command))
    }

    fn next_line(&mut self, deadline: Instant) -> anyhow::Result<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => {
                bail!("the engine '{}' did not answer in time", self.command)
            }
            Err(RecvTimeoutError::Disconnected) => bail!("the engine '{}' has ended", self.command),
        }
    }
}

impl Drop for LinePipe {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A program speaking the NBoard protocol, driven with `set game`, `ping`, `go`.
pub struct ExternalPlayer {
    pipe: LinePipe,
    name: String,
    ping: u32,
}

impl ExternalPlayer {
    pub fn start(command: &str, depth: u32, timeout: Duration) -> anyhow::Result<ExternalPlayer> {
        let mut p = ExternalPlayer {
            pipe: LinePipe::start(shell_command(command)?, command, timeout)?,
            name: command.to_string(),
            ping: 0,
        };
        p.pipe.send("nboard 2")?;
        p.pipe.send(&format!("set depth {depth}"))?;
        p.sync()?;
        Ok(p)
    }

    /// The next line, noting the name the engine gives itself.
    fn next_line(&mut self, deadline: Instant) -> anyhow::Result<String> {
        let l = self.pipe.next_line(deadline)?;
        if let Some(name) = l.strip_prefix("set myname ") {
            self.name = name.trim().to_string();
        }
        Ok(l)
    }

    /// `ping`, then everything up to its `pong`, within the move timeout (an engine that
    /// never answers is given up, then killed when the player is dropped).
    fn sync(&mut self) -> anyhow::Result<()> {
        self.ping += 1;
        let n = self.ping;
        self.pipe.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + self.pipe.timeout;
        loop {
            let l = self.next_line(deadline)?;
            let mut w = l.split_whitespace();
            if w.next() == Some("pong") && w.next().and_then(|x| x.parse::<u32>().ok()) == Some(n) {
                return Ok(());
            }
        }
    }
}

#[cfg(unix)]
fn shell_command(command: &str) -> anyhow::Result<Command> {
    let mut c = Command::new("sh");
    c.arg("-c").arg(format!("exec {command}"));
    Ok(c)
}

#[cfg(not(unix))]
fn shell_command(command: &str) -> anyhow::Result<Command> {
    let mut words = command.split_whitespace();
    let program = words
        .next()
        .ok_or_else(|| anyhow!("an empty engine command"))?;
    let mut c = Command::new(program);
    c.args(words);
    Ok(c)
}

impl Contestant for ExternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game) -> anyhow::Result<Move> {
        let mut to_here = game.clone();
        to_here.delete_variation(to_here.ply());
        let text = okapi_core::formats::ggf::write(&to_here);
        self.pipe.send(&format!("set game {}", text.trim_end()))?;
        self.sync()?;
        self.pipe.send("go")?;
        let deadline = Instant::now() + self.pipe.timeout;
        loop {
            let l = self.next_line(deadline)?;
            if let Some(rest) = l.strip_prefix("===") {
                // `=== F5/eval/time`, or with blanks between the parts (Edax).
                let word = rest
                    .split(|c: char| c == '/' || c.is_whitespace())
                    .find(|w| !w.is_empty())
                    .unwrap_or("");
                return Move::parse(word)
                    .map_err(|_| anyhow!("the engine '{}' answered '{l}'", self.pipe.command));
            }
        }
    }
}

/// Another Okapi binary playing an Okapi level through its console (`okapi console
/// --computer none --level L`): each move is `setboard <position>` and `go`, read from its
/// `<Side> plays <move>` line; `level` (answered `level L`) marks the end of the answers.
/// Its engine has the console's table of 2^20 entries (16 MB) and no book, and, like an
/// Okapi level of the match, sees the position without the game's history.
pub struct OkapiBinaryPlayer {
    pipe: LinePipe,
    name: String,
}

impl OkapiBinaryPlayer {
    /// Starts `binary console` at `level` (a level's text, as `Level::parse` reads it),
    /// with `weights` when given and `seed` for levels that draw at random.
    pub fn start(
        binary: &Path,
        level: &str,
        weights: Option<&Path>,
        seed: u64,
        threads: Option<usize>,
        timeout: Duration,
    ) -> anyhow::Result<OkapiBinaryPlayer> {
        let mut cmd = Command::new(binary);
        cmd.args(["console", "--computer", "none", "--level", level, "--seed"])
            .arg(seed.to_string());
        // The match's --threads: without it the console searches on all the cores, and a
        // one-thread match against it was one thread against two (and not reproducible).
        if let Some(n) = threads {
            cmd.arg("--threads").arg(n.to_string());
        }
        if let Some(w) = weights {
            cmd.arg("--weights").arg(w);
        }
        let command = format!("{} console --level {level}", binary.display());
        // Named as the match names its own levels: the weight file's name when given.
        let weights_name = weights.map_or(String::new(), |w| {
            let name = w.file_name().map_or(w.as_os_str(), |n| n);
            format!(" ({})", name.to_string_lossy())
        });
        let mut p = OkapiBinaryPlayer {
            pipe: LinePipe::start(cmd, &command, timeout)?,
            name: format!("{} {level}{weights_name}", binary.display()),
        };
        p.answers_until_level()
            .with_context(|| format!("'{command}' did not start as an Okapi console"))?;
        Ok(p)
    }

    /// Sends `level` and returns every line before its answer; an `error:` line fails.
    fn answers_until_level(&mut self) -> anyhow::Result<Vec<String>> {
        self.pipe.send("level")?;
        let deadline = Instant::now() + self.pipe.timeout;
        let mut lines = Vec::new();
        loop {
            let l = self.pipe.next_line(deadline)?;
            if l.starts_with("level ") {
                return Ok(lines);
            }
            if let Some(why) = l.strip_prefix("error: ") {
                bail!("{}: {why}", self.pipe.command);
            }
            lines.push(l);
        }
    }
}

impl Contestant for OkapiBinaryPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &Game) -> anyhow::Result<Move> {
        let position = game.position();
        self.pipe
            .send(&format!("setboard {}", position.to_board_string()))?;
        self.pipe.send("go")?;
        // After its move the console plays on while the other side must pass: the first
        // move it tells is the one asked for.
        let prefix = format!("{} plays ", position.side_to_move().name());
        let lines = self.answers_until_level()?;
        let told = lines
            .iter()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .ok_or_else(|| anyhow!("{} told no move: {lines:?}", self.pipe.command))?;
        let word = told.split_whitespace().next().unwrap_or("");
        Move::parse(word).map_err(|_| anyhow!("{} answered '{prefix}{told}'", self.pipe.command))
    }
}
