//! The desktop app: egui views over a [`Game`] and the engine thread.
//!
//! The app holds no game logic: widgets push [`Command`]s, which are applied once per
//! frame after drawing (the game record does the work); engine [`Event`]s are polled
//! each frame with `try_recv`, never waited for, and the engine wakes the UI through
//! `request_repaint`.

mod board_view;
pub mod dialogs;
pub mod script;
pub mod settings;

use crate::board::{Color, Move, Position, Square};
use crate::engine::{Engine, Event, Request, mode_name};
use crate::game::clock::{Clock, clock_allotment, format_clock};
use crate::game::{Eval, EvalSource, Game, Player};
use crate::search::SolveMode;
use crate::search::level::Level;
use board_view::{BoardView, board_ui};
pub use dialogs::{FileDialogs, NativeDialogs, ScriptedDialogs};
use eframe::egui;
pub use script::{RowResult, ScriptJob, ScriptRow};
pub use settings::{EvalsFor, Settings};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Opens the app window, optionally with a game file; returns when it closes.
pub fn run(open: Option<PathBuf>) -> anyhow::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Okapi")
            .with_app_id("okapi")
            .with_inner_size([1000.0, 720.0])
            .with_min_inner_size([520.0, 400.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Okapi",
        options,
        Box::new(move |cc| {
            let ctx = cc.egui_ctx.clone();
            let mut app = App::new(Box::new(NativeDialogs), move || ctx.request_repaint());
            let paths = Settings::paths();
            if let Some((settings_path, _)) = &paths {
                let settings = Settings::load(settings_path);
                app.settings = settings.clone();
                app.settings_file = Some((settings_path.clone(), settings));
            }
            let autosave = paths.map(|(_, game)| game);
            match (open, &autosave) {
                (Some(path), _) if script::is_script_path(&path) => {
                    app.apply(Command::OpenScriptPath(path))
                }
                (Some(path), _) => app.apply(Command::OpenPath(path)),
                (None, Some(saved)) if saved.exists() => {
                    if let Ok(game) = crate::formats::load_game(saved) {
                        app.game = game;
                    }
                }
                _ => {}
            }
            app.position_changed();
            app.autosave = autosave;
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("the app window failed: {e}"))
}

/// Everything a person can ask the app to do; menus, buttons, shortcuts and tests all go
/// through [`App::apply`].
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play(Square),
    Undo,
    Redo,
    First,
    Last,
    GoTo(usize),
    ShowNewGame,
    /// A new game; `minutes` per side on the clock, 0 for no clock.
    NewGame {
        black: Player,
        white: Player,
        minutes: u32,
    },
    Open,
    OpenPath(PathBuf),
    Save,
    SaveAs,
    SaveTo(PathBuf),
    Solve(SolveMode),
    Stop,
    /// Plays the first move of the proven line.
    PlayBest,
    FlipView,
    /// Starts editing a position (board set-up).
    EnterSetup,
    /// Set-up: cycles a square empty, black, white.
    SetupSquare(Square),
    SetupSide(Color),
    SetupClear,
    SetupStandard,
    /// Set-up: starts a game from the edited position.
    SetupDone,
    SetupCancel,
    /// Copies the moves as a transcript to the clipboard.
    CopyTranscript,
    /// Copies the position as a board string (64 squares and the side to move).
    CopyBoard,
    /// Takes a pasted transcript, GGF or JSON game, or board string.
    Paste(String),
    /// Panics in the engine thread, to show the error path works (Help menu).
    CrashEngine,
    /// Values every move played against the best move.
    AnalyseGame,
    /// Values the legal moves once, even when values are turned off.
    Hint,
    /// The engine player to move plays now (after a Stop, or from a position reached
    /// by going back in the game, whose later moves it then replaces).
    EngineMove,
    /// Asks for an endgame script (scrZebra or OBF) and opens it in the script window.
    OpenScript,
    OpenScriptPath(PathBuf),
    /// Script window: exact or WLD, with or without lines (clears the results).
    ScriptOptions {
        mode: SolveMode,
        lines: bool,
    },
    /// Solves every position of the open script in the background.
    SolveScript,
    StopScript,
    /// Shows the script's position (by index) on the board, with its line if solved.
    ShowScriptPosition(usize),
    /// Asks where to save the script's results, then saves them.
    SaveScriptResult,
    SaveScriptResultTo(PathBuf),
    CloseScript,
    /// Help > Keyboard shortcuts.
    ShowShortcuts,
}

impl Command {
    /// The shortcut of the common actions.
    fn shortcut(&self) -> Option<egui::KeyboardShortcut> {
        use egui::{Key, KeyboardShortcut as K, Modifiers as M};
        Some(match self {
            Command::Undo => K::new(M::COMMAND, Key::Z),
            Command::Redo => K::new(M::COMMAND, Key::Y),
            Command::ShowNewGame => K::new(M::COMMAND, Key::N),
            Command::Open => K::new(M::COMMAND, Key::O),
            Command::Save => K::new(M::COMMAND, Key::S),
            Command::Solve(SolveMode::Exact) => K::new(M::COMMAND, Key::E),
            Command::Solve(SolveMode::Wld) => K::new(M::COMMAND, Key::W),
            Command::Stop => K::new(M::NONE, Key::Escape),
            Command::First => K::new(M::NONE, Key::Home),
            Command::Last => K::new(M::NONE, Key::End),
            Command::OpenScript => K::new(M::COMMAND | M::SHIFT, Key::O),
            Command::FlipView => K::new(M::COMMAND, Key::F),
            Command::Hint => K::new(M::COMMAND, Key::H),
            _ => return None,
        })
    }

    /// What a command does, for the shortcut list.
    fn description(&self) -> &'static str {
        match self {
            Command::Undo => "Undo (your move and the engine's reply)",
            Command::Redo => "Redo",
            Command::ShowNewGame => "New game",
            Command::Open => "Open a game",
            Command::OpenScript => "Open an endgame script",
            Command::Save => "Save the game",
            Command::Solve(SolveMode::Exact) => "Solve exactly",
            Command::Solve(SolveMode::Wld) => "Solve win/draw/loss",
            Command::Stop => "Stop the engine",
            Command::First => "First position",
            Command::Last => "Last position",
            Command::FlipView => "Flip the board",
            Command::Hint => "Hint: value the moves once",
            _ => "",
        }
    }

    const WITH_SHORTCUTS: [Command; 13] = [
        // Longer combinations first: Ctrl+Shift+O must not be taken as Ctrl+O.
        Command::OpenScript,
        Command::FlipView,
        Command::Hint,
        Command::Undo,
        Command::Redo,
        Command::ShowNewGame,
        Command::Open,
        Command::Save,
        Command::Solve(SolveMode::Exact),
        Command::Solve(SolveMode::Wld),
        Command::Stop,
        Command::First,
        Command::Last,
    ];
}

/// What the engine is doing for the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    Idle,
    Analysing,
    Solving(SolveMode),
    Thinking,
    AnalysingGame,
}

/// One move of the game valued against the best move (for its mover).
#[derive(Clone, Copy, Debug)]
struct PlyAnalysis {
    /// The position before the move and the move: the entry holds only while they match.
    key: (Position, Move),
    played: Eval,
    best: Eval,
    best_move: Square,
}

impl PlyAnalysis {
    /// Discs lost against the best move.
    fn loss(&self) -> i32 {
        self.best.value - self.played.value
    }
}

/// The engine's last move and, at a weakened level, every candidate's value and chance
/// (practice: "show lines").
#[derive(Clone, Debug)]
struct EngineLines {
    position: Position,
    played: Move,
    candidates: Vec<(Move, Eval, f64)>,
}

/// A solved position with its proven line, kept while the game follows the line.
#[derive(Clone, Debug)]
struct Solved {
    position: Position,
    mode: SolveMode,
    score: i32,
    line: Vec<Move>,
    nodes: u64,
    elapsed: Duration,
}

pub struct App {
    pub game: Game,
    pub players: [Player; 2],
    engine: Engine,
    generation: u64,
    task: Task,
    task_started: Instant,
    /// Values of the current position's legal moves, the strongest source kept.
    pub move_evals: HashMap<Square, Eval>,
    solved: Option<Solved>,
    engine_lines: Option<EngineLines>,
    status: String,
    notice: Option<String>,
    pub error: Option<String>,
    pub settings: Settings,
    /// Where settings are saved when they change, and what was saved last (set by [`run`]).
    settings_file: Option<(PathBuf, Settings)>,
    /// The discs turned by the last move and when, for the flip animation.
    flip_animation: Option<(u64, Instant)>,
    /// Game analysis: for each ply, the move played against the best.
    game_analysis: HashMap<usize, PlyAnalysis>,
    /// Board set-up in progress: the position being edited.
    setup: Option<Position>,
    new_game: Option<([Player; 2], u32)>,
    /// The game clock, when playing with time.
    clock: Option<Clock>,
    clock_minutes: u32,
    /// The side whose time ran out: the game is over for play.
    lost_on_time: Option<Color>,
    about: bool,
    dialogs: Box<dyn FileDialogs>,
    pub file: Option<PathBuf>,
    commands: Vec<Command>,
    /// Responsiveness figures shown in the status bar.
    pub metrics: Metrics,
    /// Text to put on the clipboard this frame.
    clipboard_out: Option<String>,
    /// Where the game in progress is kept across restarts (set by [`run`]).
    autosave: Option<PathBuf>,
    /// The open endgame script, if any.
    pub script: Option<ScriptJob>,
    /// A second engine thread for scripts, started on the first solve: the board's own
    /// analysis would otherwise supersede the script whenever the position changes.
    script_engine: Option<Engine>,
    /// Wakes the UI; shared by both engine threads.
    notify: Arc<Mutex<Box<dyn Fn() + Send>>>,
    shortcuts: bool,
}

impl App {
    /// A new app with a new game; `notify` wakes the UI when the engine has news.
    pub fn new(dialogs: Box<dyn FileDialogs>, notify: impl Fn() + Send + 'static) -> App {
        let notify: Arc<Mutex<Box<dyn Fn() + Send>>> = Arc::new(Mutex::new(Box::new(notify)));
        let mut app = App {
            game: Game::default(),
            players: [Player::Human, Player::Human],
            engine: Engine::spawn(wake(&notify)),
            notify,
            script: None,
            script_engine: None,
            shortcuts: false,
            generation: 0,
            task: Task::Idle,
            task_started: Instant::now(),
            move_evals: HashMap::new(),
            solved: None,
            engine_lines: None,
            status: String::new(),
            notice: None,
            error: None,
            settings: Settings::default(),
            settings_file: None,
            flip_animation: None,
            game_analysis: HashMap::new(),
            setup: None,
            new_game: None,
            clock: None,
            clock_minutes: 0,
            lost_on_time: None,
            about: false,
            dialogs,
            file: None,
            commands: Vec::new(),
            clipboard_out: None,
            autosave: None,
            metrics: Metrics::default(),
        };
        app.position_changed();
        app
    }

    /// A player's name as the game record keeps it: the engine with its level.
    fn player_label(&self, player: Player) -> String {
        match player {
            Player::Perfect => format!("Okapi (level {})", self.settings.level.name()),
            p => p.name().into(),
        }
    }

    fn player_to_move(&self) -> Player {
        self.players[self.game.position().side_to_move() as usize]
    }

    /// Is the engine busy with a request of ours?
    pub fn engine_busy(&self) -> bool {
        self.task != Task::Idle
    }

    /// Applies one command.
    pub fn apply(&mut self, command: Command) {
        match command {
            Command::Play(sq) => {
                if self.lost_on_time.is_some()
                    || self.player_to_move() != Player::Human
                    || !self.game.position().is_legal(sq)
                {
                    return;
                }
                let eval = self.move_evals.get(&sq).copied();
                if self.game.play(Move::Play(sq), eval).is_ok() {
                    self.moved();
                }
            }
            Command::Undo => {
                if self.game.undo() {
                    // Land on a position where a human has a move to make.
                    let humans = self.players.contains(&Player::Human);
                    while self.game.can_undo()
                        && (self.game.position().must_pass()
                            || (humans && self.player_to_move().is_engine()))
                    {
                        self.game.undo();
                    }
                    self.position_changed();
                }
            }
            Command::Redo => {
                if self.game.redo() {
                    while self.game.can_redo() && self.game.position().must_pass() {
                        self.game.redo();
                    }
                    self.position_changed();
                }
            }
            Command::First => {
                self.game.go_to(0);
                self.position_changed();
            }
            Command::Last => {
                self.game.go_to(self.game.len());
                self.position_changed();
            }
            Command::GoTo(ply) => {
                self.game.go_to(ply);
                self.position_changed();
            }
            Command::ShowNewGame => {
                let minutes = self.clock_minutes;
                self.new_game = Some((self.players, minutes));
            }
            Command::NewGame {
                black,
                white,
                minutes,
            } => {
                self.players = [black, white];
                self.clock_minutes = minutes;
                self.clock =
                    (minutes > 0).then(|| Clock::new(Duration::from_secs(60 * u64::from(minutes))));
                self.lost_on_time = None;
                self.game = Game::default();
                self.game.black = self.player_label(black);
                self.game.white = self.player_label(white);
                self.engine_lines = None;
                self.file = None;
                self.new_game = None;
                self.solved = None;
                self.notice = None;
                self.position_changed();
            }
            Command::Open => {
                if let Some(path) = self.dialogs.open_game() {
                    self.apply(Command::OpenPath(path));
                }
            }
            Command::OpenPath(path) => match crate::formats::load_game(&path) {
                Ok(game) => {
                    self.game = game;
                    self.players = [Player::Human, Player::Human];
                    self.clock = None;
                    self.lost_on_time = None;
                    self.settings.remember(&path);
                    self.file = Some(path);
                    self.solved = None;
                    self.notice = None;
                    self.error = None;
                    self.position_changed();
                }
                Err(e) => self.error = Some(format!("Could not open {}: {e}", path.display())),
            },
            Command::Save => match self.file.clone() {
                Some(path) if is_json(&path) => self.apply(Command::SaveTo(path)),
                _ => self.apply(Command::SaveAs),
            },
            Command::SaveAs => {
                if let Some(path) = self
                    .dialogs
                    .save_game(&format!("game-{}.json", self.game.date))
                {
                    self.apply(Command::SaveTo(path));
                }
            }
            Command::SaveTo(path) => match crate::formats::save_game(&self.game, &path) {
                Ok(()) => {
                    self.notice = Some(format!("Saved {}", path.display()));
                    self.settings.remember(&path);
                    self.file = Some(path);
                }
                Err(e) => self.error = Some(format!("Could not save {}: {e}", path.display())),
            },
            Command::Solve(mode) => {
                let position = self.game.position();
                if position.is_game_over() {
                    return;
                }
                // The values already on the board stay; the solve adds the proven line.
                self.solved = None;
                self.generation = self.engine.new_generation();
                self.engine.send(Request::Solve {
                    generation: self.generation,
                    position,
                    mode,
                });
                self.start_task(Task::Solving(mode));
            }
            Command::Stop => {
                if self.task != Task::Idle {
                    self.engine.stop();
                    self.metrics.stop_asked = Some(Instant::now());
                }
            }
            Command::PlayBest => {
                if let Some(Move::Play(sq)) =
                    self.solved_here().and_then(|s| s.line.first().copied())
                {
                    let eval = self.move_evals.get(&sq).copied();
                    if self.game.play(Move::Play(sq), eval).is_ok() {
                        self.moved();
                    }
                }
            }
            Command::FlipView => self.settings.flipped = !self.settings.flipped,
            Command::EnterSetup => {
                self.setup = Some(self.game.position());
                // A new generation drops whatever the engine still sends about the game.
                self.generation = self.engine.new_generation();
                self.engine.stop();
                self.task = Task::Idle;
                self.status.clear();
                self.move_evals.clear();
            }
            Command::SetupSquare(sq) => {
                if let Some(p) = &mut self.setup {
                    let (mut black, mut white) = (p.black(), p.white());
                    match p.at(sq) {
                        None => black |= sq.bit(),
                        Some(Color::Black) => {
                            black &= !sq.bit();
                            white |= sq.bit();
                        }
                        Some(Color::White) => white &= !sq.bit(),
                    }
                    *p = Position::from_discs(black, white, p.side_to_move());
                }
            }
            Command::SetupSide(side) => {
                if let Some(p) = &mut self.setup {
                    *p = Position::from_discs(p.black(), p.white(), side);
                }
            }
            Command::SetupClear => {
                if let Some(p) = &mut self.setup {
                    *p = Position::from_discs(0, 0, p.side_to_move());
                }
            }
            Command::SetupStandard => {
                if self.setup.is_some() {
                    self.setup = Some(Position::start());
                }
            }
            Command::SetupDone => {
                if let Some(p) = self.setup.take() {
                    self.game = Game::new(p);
                    self.players = [Player::Human, Player::Human];
                    self.clock = None;
                    self.lost_on_time = None;
                    self.file = None;
                    self.solved = None;
                    self.notice = None;
                    self.position_changed();
                }
            }
            Command::SetupCancel => {
                if self.setup.take().is_some() {
                    self.position_changed();
                }
            }
            Command::CopyTranscript => self.clipboard_out = Some(self.game.transcript()),
            Command::CopyBoard => self.clipboard_out = Some(self.game.position().to_board_string()),
            Command::Paste(text) => {
                let game = crate::formats::read_game(&text)
                    .or_else(|e| Position::parse(&text).map(Game::new).map_err(|_| e));
                match game {
                    Ok(game) => {
                        self.game = game;
                        self.players = [Player::Human, Player::Human];
                        self.clock = None;
                        self.lost_on_time = None;
                        self.file = None;
                        self.solved = None;
                        self.notice = Some("Pasted a game.".into());
                        self.position_changed();
                    }
                    Err(e) => {
                        self.error = Some(format!(
                            "The pasted text is neither a game nor a board: {e}"
                        ))
                    }
                }
            }
            Command::EngineMove => {
                let player = self.player_to_move();
                let position = self.game.position();
                if !player.is_engine() || position.is_game_over() || self.lost_on_time.is_some() {
                    return;
                }
                self.generation = self.engine.new_generation();
                self.engine.send(Request::Play {
                    generation: self.generation,
                    position,
                    player,
                    time: self.engine_move_time(),
                });
                self.start_task(Task::Thinking);
            }
            Command::Hint => {
                let position = self.game.position();
                if position.is_game_over() {
                    return;
                }
                self.generation = self.engine.new_generation();
                self.engine.send(Request::Analyse {
                    generation: self.generation,
                    position,
                    mode: self.settings.eval_mode,
                });
                self.start_task(Task::Analysing);
            }
            Command::AnalyseGame => {
                let plies: Vec<(usize, Position, Square)> = (0..self.game.len())
                    .filter_map(|i| match self.game.moves()[i] {
                        Move::Play(sq) => Some((i, self.game.position_at(i), sq)),
                        Move::Pass => None,
                    })
                    .collect();
                if plies.is_empty() {
                    return;
                }
                self.generation = self.engine.new_generation();
                self.engine.send(Request::Configure {
                    solve_limit: self.settings.solve_limit,
                    hash_bits: self.settings.hash_bits,
                    level: self.settings.level,
                    book: self.settings.book,
                });
                self.engine.send(Request::AnalyseGame {
                    generation: self.generation,
                    plies,
                });
                self.start_task(Task::AnalysingGame);
            }
            Command::CrashEngine => {
                self.generation = self.engine.new_generation();
                self.engine.send(Request::Crash {
                    generation: self.generation,
                });
                self.start_task(Task::Thinking);
            }
            Command::OpenScript => {
                if let Some(path) = self.dialogs.open_script() {
                    self.apply(Command::OpenScriptPath(path));
                }
            }
            Command::OpenScriptPath(path) => match ScriptJob::load(&path) {
                Ok(job) => {
                    self.apply(Command::StopScript);
                    self.notice = Some(format!(
                        "Opened the script {}: {} positions, {} bad lines.",
                        job.name(),
                        job.rows.len(),
                        job.bad.len()
                    ));
                    self.script = Some(job);
                }
                Err(e) => {
                    self.error = Some(format!("Could not open {}: {e}", path.display()));
                }
            },
            Command::ScriptOptions { mode, lines } => {
                self.apply(Command::StopScript);
                if let Some(job) = &mut self.script
                    && (job.mode, job.with_lines) != (mode, lines)
                {
                    job.mode = mode;
                    job.with_lines = lines;
                    job.clear_results();
                    job.status.clear();
                    // Results of the old options still on their way are dropped.
                    job.running = None;
                }
            }
            Command::SolveScript => {
                let Some(job) = &mut self.script else { return };
                if job.rows.is_empty() {
                    return;
                }
                // From the start on a fresh table, as the command line does: resuming
                // half-way could give other (equally optimal) lines than `okapi -script`.
                job.clear_results();
                let notify = &self.notify;
                let engine = self
                    .script_engine
                    .get_or_insert_with(|| Engine::spawn(wake(notify)));
                let generation = engine.new_generation();
                engine.send(Request::SolveScript {
                    generation,
                    positions: job.rows.iter().map(|r| r.position).collect(),
                    mode: job.mode,
                    lines: job.with_lines,
                    hash_bits: script::SCRIPT_HASH_BITS,
                });
                job.running = Some(generation);
                job.started = Instant::now();
                job.status = "starting...".into();
            }
            Command::StopScript => {
                if let (Some(engine), Some(job)) = (&self.script_engine, &mut self.script)
                    && job.running.is_some()
                {
                    engine.stop();
                    job.status = "stopping...".into();
                }
            }
            Command::ShowScriptPosition(i) => {
                let Some(job) = &mut self.script else { return };
                let Some(row) = job.rows.get(i) else { return };
                job.selected = Some(i);
                let (position, mode, result) = (row.position, job.mode, row.result.clone());
                self.setup = None;
                self.game = Game::new(position);
                self.players = [Player::Human, Player::Human];
                self.clock = None;
                self.lost_on_time = None;
                self.file = None;
                self.notice = None;
                // A solved position comes with its proven line, ready to play through.
                self.solved = result.filter(|r| !r.line.is_empty()).map(|r| Solved {
                    position,
                    mode,
                    score: r.score,
                    line: r.line,
                    nodes: r.nodes,
                    elapsed: r.elapsed,
                });
                self.position_changed();
            }
            Command::SaveScriptResult => {
                let Some(job) = &self.script else { return };
                if job.output().is_none() {
                    return;
                }
                let stem = job
                    .path
                    .file_stem()
                    .map_or_else(|| "script".into(), |s| s.to_string_lossy().into_owned());
                if let Some(path) = self
                    .dialogs
                    .save_script_result(&format!("{stem}-result.txt"))
                {
                    self.apply(Command::SaveScriptResultTo(path));
                }
            }
            Command::SaveScriptResultTo(path) => {
                let Some(bytes) = self.script.as_ref().and_then(|j| j.output()) else {
                    return;
                };
                if self
                    .script
                    .as_ref()
                    .is_some_and(|j| same_file(&j.path, &path))
                {
                    self.error = Some(format!(
                        "Not saved: {} is the script itself",
                        path.display()
                    ));
                    return;
                }
                match crate::formats::write_atomic(&path, &bytes) {
                    Ok(()) => {
                        self.notice = Some(format!("Saved the results to {}", path.display()))
                    }
                    Err(e) => self.error = Some(format!("Could not save {}: {e}", path.display())),
                }
            }
            Command::CloseScript => {
                self.apply(Command::StopScript);
                self.script = None;
            }
            Command::ShowShortcuts => self.shortcuts = true,
        }
    }

    /// Takes in what the script engine has sent.
    fn poll_script_engine(&mut self) {
        let Some(engine) = &self.script_engine else {
            return;
        };
        while let Some(event) = engine.try_recv() {
            let Some(job) = &mut self.script else {
                continue;
            };
            if job.running != Some(event.generation()) {
                continue;
            }
            match event {
                Event::Progress { message, .. } => job.status = message,
                Event::ScriptSolved {
                    index,
                    outcome,
                    score,
                    line,
                    nodes,
                    elapsed,
                    ..
                } => {
                    if let Some(row) = job.rows.get_mut(index) {
                        row.result = Some(RowResult {
                            outcome,
                            score,
                            line,
                            nodes,
                            elapsed,
                        });
                    }
                }
                Event::ScriptDone { nodes, elapsed, .. } => {
                    job.running = None;
                    job.finished = Some((nodes, elapsed));
                    job.status.clear();
                }
                Event::Stopped { .. } => {
                    job.running = None;
                    job.status = "stopped".into();
                }
                Event::Error { message, .. } => {
                    job.running = None;
                    job.status.clear();
                    self.error = Some(format!("The script failed: {message}"));
                }
                _ => {}
            }
        }
    }

    /// What the game clock gives the engine for its move now, if a clock runs.
    pub fn engine_move_time(&self) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        let position = self.game.position();
        Some(clock_allotment(
            clock.left(position.side_to_move()),
            position.empty_count(),
        ))
    }

    /// Keeps the game in progress (with what is known of it) across restarts.
    fn keep_game_in_progress(&self) {
        if let Some(path) = &self.autosave {
            // Best effort: losing the autosave must not disturb play.
            let _ = path.parent().map(std::fs::create_dir_all);
            let _ = crate::formats::save_game(&self.game, path);
        }
    }

    /// After a disc was placed: the flip animation, then the usual.
    fn moved(&mut self) {
        let ply = self.game.ply();
        if self.settings.animate && ply > 0 {
            let (before, after) = (self.game.position_at(ply - 1), self.game.position());
            let turned = (before.black() & after.white()) | (before.white() & after.black());
            self.flip_animation = Some((turned, Instant::now()));
        }
        self.position_changed();
        // Practice: at the end of a game against the engine, value every move played so
        // the player sees the mistakes.
        let against_engine =
            self.players.contains(&Player::Human) && self.players.iter().any(|p| p.is_engine());
        if against_engine && self.game.position().is_game_over() && !self.game.can_redo() {
            self.apply(Command::AnalyseGame);
        }
    }

    fn start_task(&mut self, task: Task) {
        self.task = task;
        self.task_started = Instant::now();
        self.metrics.awaiting_first_value = task == Task::Analysing;
        self.status = match task {
            Task::Idle => String::new(),
            Task::Analysing => "analysing...".into(),
            Task::Solving(mode) => format!("solving ({})...", mode_name(mode)),
            Task::Thinking => match self.engine_move_time() {
                Some(t) => format!(
                    "thinking, {:.1} s for this move by the clock...",
                    t.as_secs_f64()
                ),
                None => "thinking...".into(),
            },
            Task::AnalysingGame => "analysing the game...".into(),
        };
    }

    fn solved_here(&self) -> Option<&Solved> {
        self.solved
            .as_ref()
            .filter(|s| s.position == self.game.position())
    }

    /// After any change of the position: forced passes, the proven line followed, and the
    /// next request to the engine (its move, or the values of the legal moves).
    fn position_changed(&mut self) {
        self.move_evals.clear();
        if !self.game.can_redo() && self.game.pass_if_needed() {
            let passer = self.game.position().side_to_move().opposite();
            self.notice = Some(format!("{} has no legal move and passes.", passer.name()));
        }
        // Follow the proven line while the game does.
        if let Some(s) = &mut self.solved {
            let here = self.game.position();
            while s.position != here && !s.line.is_empty() {
                let from = (0..self.game.ply())
                    .rev()
                    .find(|&i| self.game.position_at(i) == s.position);
                match from {
                    Some(i) if self.game.moves()[i] == s.line[0] => {
                        s.position = self.game.position_at(i + 1);
                        s.line.remove(0);
                        s.score = -s.score;
                    }
                    _ => break,
                }
            }
        }
        if self
            .solved
            .as_ref()
            .is_some_and(|s| s.position != self.game.position())
        {
            self.solved = None;
        }
        self.keep_game_in_progress();
        let position = self.game.position();
        if let Some(clock) = &mut self.clock {
            // Runs for the side to move while the game goes on at the end of the record.
            if position.is_game_over() || self.game.can_redo() || self.lost_on_time.is_some() {
                clock.stop();
            } else {
                clock.run_for(position.side_to_move());
            }
        }
        self.generation = self.engine.new_generation();
        if position.is_game_over() {
            self.engine.stop();
            self.task = Task::Idle;
            self.status.clear();
            return;
        }
        self.engine.send(Request::Configure {
            solve_limit: self.settings.solve_limit,
            hash_bits: self.settings.hash_bits,
            level: self.settings.level,
            book: self.settings.book,
        });
        let player = self.player_to_move();
        if player.is_engine() && !self.game.can_redo() {
            self.engine.send(Request::Play {
                generation: self.generation,
                position,
                player,
                time: self.engine_move_time(),
            });
            self.start_task(Task::Thinking);
        } else if self.settings.show_evals
            && self.settings.evals_for.includes(position.side_to_move())
        {
            self.engine.send(Request::Analyse {
                generation: self.generation,
                position,
                mode: self.settings.eval_mode,
            });
            self.start_task(Task::Analysing);
        } else {
            self.engine.stop();
            self.task = Task::Idle;
            self.status.clear();
        }
    }

    /// Takes in whatever the engine has sent; stale generations are dropped.
    pub fn poll_engine(&mut self) {
        while let Some(event) = self.engine.try_recv() {
            if event.generation() != self.generation {
                continue;
            }
            match event {
                Event::MoveValue { square, eval, .. } => {
                    if std::mem::take(&mut self.metrics.awaiting_first_value) {
                        self.metrics.first_value = Some(self.task_started.elapsed());
                    }
                    let keep = self
                        .move_evals
                        .get(&square)
                        .is_some_and(|old| old.source > eval.source);
                    if !keep {
                        self.move_evals.insert(square, eval);
                    }
                }
                Event::Progress {
                    message,
                    nodes,
                    elapsed,
                    ..
                } => {
                    self.status = format!("{message} - {}", speed(nodes, elapsed));
                }
                Event::AnalysisDone { nodes, elapsed, .. } => {
                    if self.task == Task::AnalysingGame {
                        self.keep_game_in_progress();
                    }
                    self.task = Task::Idle;
                    self.status = format!("analysis done - {}", speed(nodes, elapsed));
                }
                Event::Solved {
                    mode,
                    score,
                    line,
                    nodes,
                    elapsed,
                    ..
                } => {
                    self.task = Task::Idle;
                    self.status = format!("solved - {}", speed(nodes, elapsed));
                    self.solved = Some(Solved {
                        position: self.game.position(),
                        mode,
                        score,
                        line,
                        nodes,
                        elapsed,
                    });
                }
                Event::Played {
                    mv,
                    eval,
                    candidates,
                    ..
                } => {
                    self.task = Task::Idle;
                    let before = self.game.position();
                    if self.player_to_move().is_engine() && self.game.play(mv, eval).is_ok() {
                        self.engine_lines = Some(EngineLines {
                            position: before,
                            played: mv,
                            candidates,
                        });
                        self.notice = None;
                        self.moved();
                    }
                }
                Event::Stopped { .. } => {
                    self.task = Task::Idle;
                    if let Some(asked) = self.metrics.stop_asked.take() {
                        self.metrics.stop_latency = Some(asked.elapsed());
                    }
                    self.status = "stopped".into();
                }
                Event::PlyAnalysed {
                    ply,
                    played,
                    best,
                    best_move,
                    ..
                } => {
                    self.game.set_eval(ply, played);
                    if ply < self.game.len() {
                        let key = (self.game.position_at(ply), self.game.moves()[ply]);
                        self.game_analysis.insert(
                            ply,
                            PlyAnalysis {
                                key,
                                played,
                                best,
                                best_move,
                            },
                        );
                    }
                }
                Event::Error { message, .. } => {
                    self.task = Task::Idle;
                    self.status.clear();
                    self.error = Some(message);
                }
                // Scripts run on their own engine (see `poll_script_engine`).
                Event::ScriptSolved { .. } | Event::ScriptDone { .. } => {}
            }
        }
    }

    /// One frame: take engine news, draw, then apply what the widgets asked for.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let frame_start = Instant::now();
        self.poll_engine();
        self.poll_script_engine();
        for c in Command::WITH_SHORTCUTS {
            if let Some(k) = c.shortcut()
                && ui.input_mut(|i| i.consume_shortcut(&k))
            {
                self.commands.push(c);
            }
        }
        let pasted = ui.input(|i| {
            i.events.iter().find_map(|e| match e {
                egui::Event::Paste(text) => Some(text.clone()),
                _ => None,
            })
        });
        if let Some(text) = pasted {
            self.commands.push(Command::Paste(text));
        }
        let dropped = ui.input(|i| i.raw.dropped_files.first().map(|f| f.path().to_path_buf()));
        if let Some(path) = dropped {
            self.commands.push(if script::is_script_path(&path) {
                Command::OpenScriptPath(path)
            } else {
                Command::OpenPath(path)
            });
        }
        if let Some(text) = self.clipboard_out.take() {
            ui.ctx().copy_text(text);
        }
        if let Some(clock) = &mut self.clock {
            if let Some(side) = clock.flagged()
                && self.lost_on_time.is_none()
            {
                clock.stop();
                self.lost_on_time = Some(side);
                self.generation = self.engine.new_generation();
                self.engine.stop();
                self.task = Task::Idle;
            }
            if clock.running().is_some() {
                ui.ctx().request_repaint_after(Duration::from_millis(200));
            }
        }
        self.menu_bar(ui);
        self.status_bar(ui);
        self.graph_panel(ui);
        self.side_panel(ui);
        const FLIP_TIME: f32 = 0.3;
        let flipping = self.flip_animation.and_then(|(mask, at)| {
            let t = at.elapsed().as_secs_f32() / FLIP_TIME;
            (t < 1.0).then_some((mask, t))
        });
        if flipping.is_some() {
            ui.ctx().request_repaint();
        } else {
            self.flip_animation = None;
        }
        egui::CentralPanel::default().show(ui, |ui| {
            let setup = self.setup.is_some();
            let view = BoardView {
                position: self.setup.unwrap_or_else(|| self.game.position()),
                last_move: if setup { None } else { self.game.last_move() },
                evals: &self.move_evals,
                show_legal: !setup,
                flipped: self.settings.flipped,
                clickable: !setup && self.player_to_move() == Player::Human,
                setup,
                flipping: if setup { None } else { flipping },
            };
            ui.vertical_centered(|ui| {
                if let Some(sq) = board_ui(ui, &view) {
                    self.commands.push(if setup {
                        Command::SetupSquare(sq)
                    } else {
                        Command::Play(sq)
                    });
                }
            });
        });
        self.windows(ui);
        for c in std::mem::take(&mut self.commands) {
            self.apply(c);
        }
        if let Some((path, saved)) = &mut self.settings_file
            && *saved != self.settings
        {
            *saved = self.settings.clone();
            if let Err(e) = saved.save(path) {
                self.error = Some(format!(
                    "Could not save the settings to {}: {e}",
                    path.display()
                ));
            }
        }
        self.metrics.record_frame(frame_start.elapsed());
        if self.task != Task::Idle || self.script.as_ref().is_some_and(|j| j.is_running()) {
            // Keeps the elapsed time moving; engine events repaint at once anyway.
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
    }

    fn menu_item(&mut self, ui: &mut egui::Ui, label: &str, enabled: bool, command: Command) {
        let mut button = egui::Button::new(label);
        if let Some(k) = command.shortcut() {
            button = button.shortcut_text(ui.ctx().format_shortcut(&k));
        }
        if ui.add_enabled(enabled, button).clicked() {
            self.commands.push(command);
            ui.close();
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::top("menu").show(ui, |ui| {
            egui::MenuBar::new().ui(ui, |ui| {
                ui.menu_button("File", |ui| {
                    self.menu_item(ui, "New game...", true, Command::ShowNewGame);
                    self.menu_item(ui, "Open...", true, Command::Open);
                    let recent = self.settings.recent.clone();
                    ui.add_enabled_ui(!recent.is_empty(), |ui| {
                        ui.menu_button("Open recent", |ui| {
                            for path in recent {
                                if ui.button(path.display().to_string()).clicked() {
                                    self.commands.push(Command::OpenPath(path));
                                    ui.close();
                                }
                            }
                        });
                    });
                    self.menu_item(ui, "Save", true, Command::Save);
                    self.menu_item(ui, "Save as...", true, Command::SaveAs);
                    ui.separator();
                    self.menu_item(ui, "Open script...", true, Command::OpenScript);
                    if self.script.as_ref().is_some_and(|j| !j.open) {
                        if ui.button("Show the script window").clicked() {
                            if let Some(job) = &mut self.script {
                                job.open = true;
                            }
                            ui.close();
                        }
                    }
                    ui.separator();
                    if ui.button("Quit").clicked() {
                        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                });
                ui.menu_button("Edit", |ui| {
                    self.menu_item(ui, "Copy transcript", true, Command::CopyTranscript);
                    self.menu_item(ui, "Copy board", true, Command::CopyBoard);
                    ui.label(
                        egui::RichText::new("Paste a transcript, game or board: Ctrl+V")
                            .small()
                            .weak(),
                    );
                });
                ui.menu_button("Game", |ui| {
                    self.menu_item(ui, "Undo", self.game.can_undo(), Command::Undo);
                    self.menu_item(ui, "Redo", self.game.can_redo(), Command::Redo);
                    self.menu_item(ui, "First position", self.game.can_undo(), Command::First);
                    self.menu_item(ui, "Last position", self.game.can_redo(), Command::Last);
                    ui.separator();
                    self.menu_item(
                        ui,
                        "Set up a position...",
                        self.setup.is_none(),
                        Command::EnterSetup,
                    );
                });
                ui.menu_button("Engine", |ui| {
                    let open = !self.game.position().is_game_over();
                    self.menu_item(ui, "Solve exact", open, Command::Solve(SolveMode::Exact));
                    self.menu_item(
                        ui,
                        "Solve win/draw/loss",
                        open,
                        Command::Solve(SolveMode::Wld),
                    );
                    self.menu_item(ui, "Stop", self.task != Task::Idle, Command::Stop);
                    self.menu_item(
                        ui,
                        "Analyse the game",
                        !self.game.is_empty(),
                        Command::AnalyseGame,
                    );
                    ui.separator();
                    // Book values on the board and book moves for the engine player.
                    if ui
                        .checkbox(&mut self.settings.book, "Use the opening book")
                        .changed()
                    {
                        self.commands.push(Command::GoTo(self.game.ply()));
                    }
                    ui.horizontal(|ui| {
                        let label = ui.label("Hash table: 2^");
                        let r = ui
                            .add(egui::DragValue::new(&mut self.settings.hash_bits).range(16..=26))
                            .labelled_by(label.id);
                        ui.label(format!(
                            "entries ({} MB)",
                            (16u64 << self.settings.hash_bits) >> 20
                        ));
                        if r.changed() {
                            self.commands.push(Command::GoTo(self.game.ply()));
                        }
                    });
                });
                ui.menu_button("View", |ui| {
                    self.menu_item(ui, "Flip board", true, Command::FlipView);
                    ui.checkbox(&mut self.settings.animate, "Animate flips");
                });
                ui.menu_button("Help", |ui| {
                    self.menu_item(ui, "Keyboard shortcuts", true, Command::ShowShortcuts);
                    if ui.button("About Okapi").clicked() {
                        self.about = true;
                        ui.close();
                    }
                    self.menu_item(
                        ui,
                        "Test the engine's error report",
                        true,
                        Command::CrashEngine,
                    );
                });
            });
        });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        egui::Panel::bottom("status").show(ui, |ui| {
            if let Some(err) = self.error.clone() {
                ui.horizontal(|ui| {
                    ui.colored_label(
                        egui::Color32::from_rgb(0xff, 0x60, 0x50),
                        format!("Error: {err}"),
                    );
                    if ui.button("Dismiss").clicked() {
                        self.error = None;
                    }
                });
            }
            ui.horizontal(|ui| {
                let engine = if self.task == Task::Idle {
                    format!("Engine idle. {}", self.status)
                } else {
                    format!(
                        "Engine: {} ({:.1} s)",
                        self.status,
                        self.task_started.elapsed().as_secs_f32()
                    )
                };
                // The figures on the right first; the engine line takes what is left and
                // is cut short rather than running under them.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.label(egui::RichText::new(self.metrics.summary()).small().weak());
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                        ui.add(egui::Label::new(engine).truncate());
                    });
                });
            });
        });
    }

    /// The evaluation graph of the game, from Black's view; a click goes to that move.
    fn graph_panel(&mut self, ui: &mut egui::Ui) {
        use egui_plot::{Line, Plot, PlotPoints, Points, VLine};
        let mut points: Vec<[f64; 2]> = Vec::new();
        for (i, eval) in self.game.evals().iter().enumerate() {
            if let Some(e) = eval {
                let black_view = if self.game.position_at(i).side_to_move() == Color::Black {
                    e.value
                } else {
                    -e.value
                };
                points.push([(i + 1) as f64, black_view as f64]);
            }
        }
        let ply = self.game.ply() as f64;
        let len = self.game.len().max(60) as f64;
        egui::Panel::bottom("graph")
            .resizable(true)
            .default_size(130.0)
            .show(ui, |ui| {
                let response = Plot::new("eval-graph")
                    .allow_zoom(false)
                    .allow_drag(false)
                    .allow_scroll(false)
                    .allow_boxed_zoom(false)
                    .allow_double_click_reset(false)
                    .include_x(0.0)
                    .include_x(len)
                    .include_y(-16.0)
                    .include_y(16.0)
                    .x_axis_label("ply (click to go there); values from Black's view")
                    // Steps in discs that leave room for labels in a short panel (powers
                    // of ten left only "0" readable once the values pass 30).
                    .y_grid_spacer(egui_plot::uniform_grid_spacer(|input| {
                        if input.bounds.1 - input.bounds.0 > 48.0 {
                            [32.0, 16.0, 8.0]
                        } else {
                            [16.0, 8.0, 4.0]
                        }
                    }))
                    .show(ui, |plot| {
                        plot.vline(
                            VLine::new("position", ply)
                                .color(egui::Color32::from_rgb(0xff, 0xd8, 0x40)),
                        );
                        plot.line(Line::new("evaluation", PlotPoints::from(points.clone())));
                        plot.points(Points::new("moves", PlotPoints::from(points)).radius(2.5));
                    });
                if response.response.clicked()
                    && let Some(pos) = response.response.interact_pointer_pos()
                {
                    let x = response.transform.value_from_position(pos).x.round();
                    self.commands
                        .push(Command::GoTo(x.clamp(0.0, self.game.len() as f64) as usize));
                }
            });
    }

    fn side_panel(&mut self, ui: &mut egui::Ui) {
        egui::Panel::right("side")
            .default_size(300.0)
            .min_size(240.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.side_contents(ui));
            });
    }

    fn setup_contents(&mut self, ui: &mut egui::Ui, pos: Position) {
        ui.heading("Set up a position");
        ui.label("Click a square: empty, black, white, empty.");
        ui.label(format!("Black: {}", discs(pos.black_count())));
        ui.label(format!("White: {}", discs(pos.white_count())));
        ui.horizontal(|ui| {
            ui.label("To move:");
            for side in [Color::Black, Color::White] {
                if ui.radio(pos.side_to_move() == side, side.name()).clicked() {
                    self.commands.push(Command::SetupSide(side));
                }
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Clear").clicked() {
                self.commands.push(Command::SetupClear);
            }
            if ui.button("Standard").clicked() {
                self.commands.push(Command::SetupStandard);
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Done").clicked() {
                self.commands.push(Command::SetupDone);
            }
            if ui.button("Cancel").clicked() {
                self.commands.push(Command::SetupCancel);
            }
        });
        ui.label(
            egui::RichText::new(pos.to_board_string())
                .monospace()
                .small(),
        );
    }

    fn side_contents(&mut self, ui: &mut egui::Ui) {
        if let Some(p) = self.setup {
            self.setup_contents(ui, p);
            return;
        }
        let pos = self.game.position();
        ui.heading("Okapi");
        ui.label(format!("Black: {}", self.players[0].name()));
        ui.label(format!("White: {}", self.players[1].name()));
        ui.separator();
        ui.label(egui::RichText::new(format!("Black: {}", discs(pos.black_count()))).strong());
        ui.label(egui::RichText::new(format!("White: {}", discs(pos.white_count()))).strong());
        if pos.is_game_over() {
            let (b, w) = pos.final_counts();
            let verdict = match b.cmp(&w) {
                std::cmp::Ordering::Greater => format!("Game over: Black wins {b}-{w}"),
                std::cmp::Ordering::Less => format!("Game over: White wins {w}-{b}"),
                std::cmp::Ordering::Equal => format!("Game over: draw {b}-{w}"),
            };
            ui.label(
                egui::RichText::new(verdict)
                    .strong()
                    .color(egui::Color32::from_rgb(0xff, 0xc0, 0x40)),
            );
        } else {
            ui.label(format!(
                "Move {}: {} to move",
                self.game.move_number(),
                pos.side_to_move().name()
            ));
        }
        if let Some(clock) = &self.clock {
            ui.horizontal(|ui| {
                ui.label("Clock:");
                for side in [Color::Black, Color::White] {
                    let text = format!("{} {}", side.name(), format_clock(clock.left(side)));
                    let text = egui::RichText::new(text).monospace();
                    ui.label(if clock.running() == Some(side) {
                        text.strong()
                    } else {
                        text.weak()
                    });
                }
            });
        }
        if let Some(side) = self.lost_on_time {
            ui.label(
                egui::RichText::new(format!(
                    "{}'s time is up: {} wins on time",
                    side.name(),
                    side.opposite().name()
                ))
                .strong()
                .color(egui::Color32::from_rgb(0xff, 0xc0, 0x40)),
            );
        }
        if let Some(n) = &self.notice {
            ui.colored_label(egui::Color32::from_rgb(0x80, 0xc0, 0xff), n);
        }
        let engine_waits = self.player_to_move().is_engine()
            && self.task != Task::Thinking
            && !pos.is_game_over()
            && self.lost_on_time.is_none();
        if engine_waits && ui.button("Let the engine move").clicked() {
            self.commands.push(Command::EngineMove);
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(self.game.can_undo(), egui::Button::new("Undo"))
                .clicked()
            {
                self.commands.push(Command::Undo);
            }
            if ui
                .add_enabled(self.game.can_redo(), egui::Button::new("Redo"))
                .clicked()
            {
                self.commands.push(Command::Redo);
            }
            if ui
                .add_enabled(self.game.can_undo(), egui::Button::new("First"))
                .clicked()
            {
                self.commands.push(Command::First);
            }
            if ui
                .add_enabled(self.game.can_redo(), egui::Button::new("Last"))
                .clicked()
            {
                self.commands.push(Command::Last);
            }
        });
        ui.separator();

        ui.strong("Engine");
        let mut changed = ui
            .checkbox(&mut self.settings.show_evals, "Show move values")
            .changed();
        ui.horizontal(|ui| {
            ui.label("For:");
            for (v, name) in [
                (EvalsFor::Both, "both"),
                (EvalsFor::Black, "Black"),
                (EvalsFor::White, "White"),
            ] {
                changed |= ui
                    .radio_value(&mut self.settings.evals_for, v, name)
                    .changed();
            }
            if ui
                .button("Hint")
                .on_hover_text("Value the moves of this position once")
                .clicked()
            {
                self.commands.push(Command::Hint);
            }
        });
        ui.horizontal(|ui| {
            changed |= level_picker(ui, "side-level", &mut self.settings.level);
        });
        self.engine_lines_view(ui);
        ui.horizontal(|ui| {
            ui.label("Values:");
            changed |= ui
                .radio_value(&mut self.settings.eval_mode, SolveMode::Exact, "exact")
                .changed();
            changed |= ui
                .radio_value(&mut self.settings.eval_mode, SolveMode::Wld, "WLD")
                .changed();
        });
        ui.horizontal(|ui| {
            let label = ui.label("Solve moves from");
            changed |= ui
                .add(egui::DragValue::new(&mut self.settings.solve_limit).range(0..=30))
                .labelled_by(label.id)
                .changed();
            ui.label("empties");
        });
        if changed {
            self.position_changed();
        }
        // Says where this position's values come from.
        let source = if pos.empty_count() <= self.settings.solve_limit {
            "within the limit: the moves are solved"
        } else {
            "above the limit: values come from the midgame search on the trained evaluation, tagged depth@confidence (ProbCut's), deepening until you move or stop"
        };
        ui.label(
            egui::RichText::new(format!("{} empties, {source}.", pos.empty_count()))
                .small()
                .weak(),
        );
        let open = !pos.is_game_over();
        ui.horizontal(|ui| {
            if ui
                .add_enabled(open, egui::Button::new("Solve exact"))
                .clicked()
            {
                self.commands.push(Command::Solve(SolveMode::Exact));
            }
            if ui
                .add_enabled(open, egui::Button::new("Solve WLD"))
                .clicked()
            {
                self.commands.push(Command::Solve(SolveMode::Wld));
            }
            if ui
                .add_enabled(self.task != Task::Idle, egui::Button::new("Stop"))
                .clicked()
            {
                self.commands.push(Command::Stop);
            }
        });
        if let Some(s) = self.solved_here().cloned() {
            let side = pos.side_to_move();
            let text = match (s.mode, s.score.signum()) {
                (_, 0) => "a draw".to_string(),
                (SolveMode::Exact, 1) => format!("{} wins by {}", side.name(), s.score),
                (SolveMode::Exact, _) => format!("{} wins by {}", side.opposite().name(), -s.score),
                (SolveMode::Wld, 1) => format!("{} wins", side.name()),
                (SolveMode::Wld, _) => format!("{} wins", side.opposite().name()),
            };
            ui.label(
                egui::RichText::new(format!("Solved ({}): {text}", mode_name(s.mode))).strong(),
            );
            let line: Vec<String> = s.line.iter().map(|m| m.to_string()).collect();
            ui.label(format!("Line: {}", line.join(" ")));
            ui.label(
                egui::RichText::new(format!(
                    "{} nodes in {:.2} s",
                    s.nodes,
                    s.elapsed.as_secs_f64()
                ))
                .small(),
            );
            if ui
                .add_enabled(
                    self.player_to_move() == Player::Human,
                    egui::Button::new("Play best move"),
                )
                .clicked()
            {
                self.commands.push(Command::PlayBest);
            }
        }
        if !self.move_evals.is_empty() {
            ui.separator();
            ui.strong("Move values");
            let mut evals: Vec<(Square, Eval)> =
                self.move_evals.iter().map(|(s, e)| (*s, *e)).collect();
            evals.sort_by_key(|(s, e)| {
                (std::cmp::Reverse(e.source), std::cmp::Reverse(e.value), *s)
            });
            for (sq, e) in evals {
                ui.label(format!("{sq}: {} ({})", e.label(), e.source));
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            ui.strong("Moves");
            let can = !self.game.is_empty();
            if ui
                .add_enabled(can, egui::Button::new("Analyse game"))
                .clicked()
            {
                self.commands.push(Command::AnalyseGame);
            }
        });
        self.move_list(ui);
        self.analysis_summary(ui);
    }

    /// The analysis of ply `i` if it still describes the game.
    /// Practice: the weakened engine's candidates for its last move, on request.
    fn engine_lines_view(&mut self, ui: &mut egui::Ui) {
        let ply = self.game.ply();
        let Some(lines) = &self.engine_lines else {
            return;
        };
        let current = ply > 0
            && self.game.position_at(ply - 1) == lines.position
            && self.game.moves()[ply - 1] == lines.played;
        if !current || lines.candidates.is_empty() {
            return;
        }
        ui.checkbox(&mut self.settings.show_lines, "Show the engine's lines");
        if !self.settings.show_lines {
            return;
        }
        egui::Grid::new("engine-lines")
            .striped(true)
            .show(ui, |ui| {
                ui.strong("move");
                ui.strong("value");
                ui.strong("chance");
                ui.end_row();
                for (mv, eval, chance) in &lines.candidates {
                    let text = format!("{mv}");
                    if *mv == lines.played {
                        ui.strong(format!("{text} (played)"));
                    } else {
                        ui.label(text);
                    }
                    ui.label(format!("{} ({})", eval.label(), eval.source));
                    ui.label(format!("{:.0}%", chance * 100.0));
                    ui.end_row();
                }
            });
    }

    fn analysis_of(&self, i: usize) -> Option<PlyAnalysis> {
        let a = self.game_analysis.get(&i)?;
        (i < self.game.len() && a.key == (self.game.position_at(i), self.game.moves()[i]))
            .then_some(*a)
    }

    /// What the game analysis found, per colour.
    fn analysis_summary(&self, ui: &mut egui::Ui) {
        let analysed: Vec<(usize, PlyAnalysis)> = (0..self.game.len())
            .filter_map(|i| self.analysis_of(i).map(|a| (i, a)))
            .collect();
        if analysed.is_empty() {
            return;
        }
        ui.separator();
        ui.strong("Game analysis");
        for side in [Color::Black, Color::White] {
            let mine: Vec<&(usize, PlyAnalysis)> = analysed
                .iter()
                .filter(|(i, _)| self.game.position_at(*i).side_to_move() == side)
                .collect();
            let exact: Vec<_> = mine
                .iter()
                .filter(|(_, a)| a.played.source == EvalSource::Exact)
                .collect();
            let lost: i32 = exact.iter().map(|(_, a)| a.loss()).sum();
            let mistakes = exact.iter().filter(|(_, a)| a.loss() > 0).count();
            let guesses = mine
                .iter()
                .filter(|(_, a)| a.played.source != EvalSource::Exact && a.loss() > 0)
                .count();
            ui.label(format!(
                "{}: lost {lost} discs in {mistakes} proven mistakes; {guesses} doubtful moves by the midgame search",
                side.name()
            ));
        }
        let worst = analysed
            .iter()
            .filter(|(_, a)| a.loss() > 0)
            .max_by_key(|(_, a)| a.loss());
        if let Some((i, a)) = worst {
            ui.label(format!(
                "Worst: ply {} {}, {} ({}) against {} {} ({})",
                i + 1,
                a.key.1,
                a.played.label(),
                a.played.source,
                a.best_move,
                a.best.label(),
                a.best.source
            ));
        }
    }

    fn move_list(&mut self, ui: &mut egui::Ui) {
        let mut number = 0;
        let moves = self.game.moves().to_vec();
        let evals = self.game.evals().to_vec();
        ui.horizontal_wrapped(|ui| {
            if ui.selectable_label(self.game.ply() == 0, "start").clicked() {
                self.commands.push(Command::GoTo(0));
            }
            for (i, mv) in moves.iter().enumerate() {
                let text = match mv {
                    Move::Play(sq) => {
                        number += 1;
                        format!("{number}. {sq}")
                    }
                    Move::Pass => "pass".to_string(),
                };
                let text = match evals[i] {
                    Some(e) => format!("{text} ({})", e.label()),
                    None => text,
                };
                let text = match self.analysis_of(i) {
                    // A proven loss reads "?-4 g8"; a searched (unproven) doubt "?~-4 g8".
                    Some(a) if a.loss() > 0 && a.played.source == EvalSource::Exact => {
                        format!("{text} ?{} {}", -a.loss(), a.best_move)
                    }
                    Some(a) if a.loss() > 0 => format!("{text} ?~{} {}", -a.loss(), a.best_move),
                    _ => text,
                };
                let color = if self.game.position_at(i).side_to_move() == Color::Black {
                    "B"
                } else {
                    "W"
                };
                let r = ui
                    .selectable_label(self.game.ply() == i + 1, text)
                    .on_hover_text(format!("{color}: go to after this move"));
                if r.clicked() {
                    self.commands.push(Command::GoTo(i + 1));
                }
            }
        });
        if let Some(path) = &self.file {
            ui.label(
                egui::RichText::new(format!("File: {}", path.display()))
                    .small()
                    .weak(),
            );
        }
    }

    fn windows(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if let Some((mut players, mut minutes)) = self.new_game {
            let mut open = true;
            let mut start = false;
            egui::Window::new("New game")
                .default_pos([200.0, 80.0])
                .open(&mut open)
                .collapsible(false)
                .resizable(false)
                .show(&ctx, |ui| {
                    for (i, colour) in ["Black", "White"].iter().enumerate() {
                        ui.horizontal(|ui| {
                            ui.label(format!("{colour}:"));
                            egui::ComboBox::from_id_salt(("new-game-player", i))
                                .selected_text(players[i].name())
                                .width(260.0)
                                .show_ui(ui, |ui| {
                                    for p in Player::ALL {
                                        ui.selectable_value(&mut players[i], p, p.name());
                                    }
                                });
                        });
                    }
                    ui.horizontal(|ui| {
                        let label = ui.label("Clock, minutes per side (0: none):");
                        ui.add(egui::DragValue::new(&mut minutes).range(0..=180))
                            .labelled_by(label.id);
                    });
                    ui.horizontal(|ui| {
                        // Saved with the settings; the engine gets it when the game starts.
                        level_picker(ui, "new-game-level", &mut self.settings.level);
                    });
                    ui.label(
                        egui::RichText::new(format!(
                            "Numbered levels search that many plies; timed ones think that long a move. \
                             A temperature above 0 weakens the engine for practice: it draws its move \
                             by value (higher plays worse). Unweakened, it plays perfectly from {} empties on.",
                            self.settings.solve_limit
                        ))
                        .small(),
                    );
                    start = ui.button("Start").clicked();
                });
            self.new_game = if open { Some((players, minutes)) } else { None };
            if start {
                self.commands.push(Command::NewGame {
                    black: players[0],
                    white: players[1],
                    minutes,
                });
            }
        }
        if self.about {
            egui::Window::new("About Okapi").open(&mut self.about).collapsible(false).default_pos([420.0, 60.0]).show(&ctx, |ui| {
                ui.label(format!("Okapi {} - an Othello analyser and opponent.", env!("CARGO_PKG_VERSION")));
                ui.label("Click a marked square to play. The engine values every legal move on its square.");
                ui.label("Help > Keyboard shortcuts lists the keys.");
            });
        }
        if self.shortcuts {
            // Placed below the menu bar, beside the About window.
            egui::Window::new("Keyboard shortcuts")
                .open(&mut self.shortcuts)
                .default_pos([30.0, 60.0])
                .collapsible(false)
                .resizable(false)
                .show(&ctx, |ui| {
                    egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                        // Listed from the table the app itself reads, so it cannot go stale.
                        for c in Command::WITH_SHORTCUTS {
                            if let Some(k) = c.shortcut() {
                                ui.monospace(ctx.format_shortcut(&k));
                                ui.label(c.description());
                                ui.end_row();
                            }
                        }
                        ui.monospace("Ctrl+V");
                        ui.label("Paste a transcript, game or board");
                        ui.end_row();
                    });
                });
        }
        let mut commands = Vec::new();
        if let Some(job) = &mut self.script
            && job.open
        {
            let mut open = true;
            egui::Window::new(format!("Script: {}", job.name()))
                .id(egui::Id::unique("script-window"))
                .open(&mut open)
                .default_size([560.0, 460.0])
                .default_pos([20.0, 60.0])
                .show(&ctx, |ui| job.ui(ui, &mut commands));
            job.open = open;
        }
        self.commands.extend(commands);
    }
}

/// Responsiveness: the time a frame takes to build, from a move to the first value on the
/// board, and from Stop to the engine stopping.
#[derive(Default)]
pub struct Metrics {
    frames: std::collections::VecDeque<Duration>,
    awaiting_first_value: bool,
    pub first_value: Option<Duration>,
    stop_asked: Option<Instant>,
    pub stop_latency: Option<Duration>,
}

impl Metrics {
    fn record_frame(&mut self, t: Duration) {
        if self.frames.len() == 600 {
            self.frames.pop_front();
        }
        self.frames.push_back(t);
    }

    /// The 99th percentile of the last 600 frames' build time.
    pub fn frame_p99(&self) -> Duration {
        self.frame_percentile(99)
    }

    /// The `p`th percentile (0..=100) of the last 600 frames' build time.
    pub fn frame_percentile(&self, p: usize) -> Duration {
        let mut v: Vec<Duration> = self.frames.iter().copied().collect();
        v.sort();
        v.get(v.len().saturating_sub(1) * p.min(100) / 100)
            .copied()
            .unwrap_or_default()
    }

    /// Forgets the frames measured so far (benchmarks measure one phase at a time).
    pub fn clear_frames(&mut self) {
        self.frames.clear();
    }

    fn summary(&self) -> String {
        let ms = |d: Option<Duration>| {
            d.map_or("-".to_string(), |d| {
                format!("{:.1} ms", d.as_secs_f64() * 1e3)
            })
        };
        format!(
            "UI frame p99 {} | first value {} | stop {}",
            ms(Some(self.frame_p99())),
            ms(self.first_value),
            ms(self.stop_latency)
        )
    }
}

/// A callback for an engine thread that calls the app's shared `notify`.
fn wake(notify: &Arc<Mutex<Box<dyn Fn() + Send>>>) -> impl Fn() + Send + 'static {
    let notify = notify.clone();
    move || {
        if let Ok(f) = notify.lock() {
            f()
        }
    }
}

/// Do two paths name the same existing file?
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

fn discs(n: u32) -> String {
    if n == 1 {
        "1 disc".into()
    } else {
        format!("{n} discs")
    }
}

fn is_json(path: &std::path::Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

fn speed(nodes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    format!("{nodes} nodes, {secs:.2} s, {rate:.1} Mn/s")
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }
}

/// Timed levels offered in the pickers, in seconds a move.
const TIMED_LEVELS: [f64; 6] = [1.0, 2.0, 5.0, 10.0, 30.0, 60.0];

/// Picks an engine level: random, greedy, numbered 1..30, timed; and, for numbered
/// levels, a temperature (discs) that weakens the engine for practice. True if changed.
fn level_picker(ui: &mut egui::Ui, id: &str, level: &mut Level) -> bool {
    let before = *level;
    let temperature = match level {
        Level::Search(s) => s.temperature,
        _ => 0.0,
    };
    let mut choices = vec![Level::Random, Level::Greedy];
    choices.extend((1..=30).map(Level::numbered));
    choices.extend(
        TIMED_LEVELS
            .iter()
            .map(|&s| Level::timed(Duration::from_secs_f64(s))),
    );
    let base_name = |l: &Level| match l {
        Level::Search(s) if s.limits.time.is_none() => format!("level {}", s.limits.depth),
        Level::Search(s) => format!(
            "{} s a move",
            s.limits.time.unwrap_or_default().as_secs_f64()
        ),
        other => other.name(),
    };
    let selected = base_name(level);
    egui::ComboBox::new(id, "Engine level")
        .selected_text(selected.clone())
        .width(120.0)
        .show_ui(ui, |ui| {
            for mut choice in choices {
                if let Level::Search(s) = &mut choice
                    && s.limits.time.is_none()
                {
                    s.temperature = temperature;
                }
                let name = base_name(&choice);
                if ui.selectable_label(name == selected, name).clicked() {
                    *level = choice;
                }
            }
        });
    if let Level::Search(s) = level
        && s.limits.time.is_none()
    {
        let label = ui.label("temperature");
        ui.add(
            egui::DragValue::new(&mut s.temperature)
                .range(0.0..=20.0)
                .speed(0.1)
                .max_decimals(1),
        )
        .labelled_by(label.id)
        .on_hover_text("0: full strength. Above: the engine draws its move with chance exp(value/temperature); higher plays worse.");
    }
    *level != before
}
