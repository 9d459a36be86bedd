// The page: draws the board, takes clicks and taps, keeps the game in the browser's
// storage, and asks the engine (worker.js, on its own thread) for its moves and solves.
// The rules come from the same wasm module as the engine (okapi_web.js), loaded here too.
import init, { legal_moves, play } from './okapi_web.js';

const START = '---------------------------OX------XO--------------------------- X';
const STORE = 'okapi.game';
const LEVELS = 20;
const DEFAULT_LEVEL = 8;

const $ = (id) => document.getElementById(id);
const canvas = $('board');
const ctx = canvas.getContext('2d');

// The game: moves from the start position (squares, `--` for a pass), who the person plays.
let game = { moves: [], human: 'X', level: DEFAULT_LEVEL };
let positions = [START]; // the board before each move, and the current one last
let generation = 0; // bumped by every change, so a stale engine answer is dropped
let thinking = false;
let engineValue = null;

// --- The engine's worker ---------------------------------------------------------------
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const pending = new Map();
let nextId = 1;
worker.onmessage = (e) => {
  const { id, result, error } = e.data;
  const p = pending.get(id);
  pending.delete(id);
  if (error !== undefined) p.reject(new Error(error));
  else p.resolve(result);
};
function call(name, args) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, call: name, args });
  });
}

// --- The game ---------------------------------------------------------------------------
const board = () => positions[positions.length - 1];
const side = (b) => b[65];
const other = (c) => (c === 'X' ? 'O' : 'X');

function replay(moves) {
  const ps = [START];
  for (const m of moves) ps.push(play(ps[ps.length - 1], m));
  return ps;
}

function save() {
  localStorage.setItem(STORE, JSON.stringify(game));
}

function load() {
  const text = localStorage.getItem(STORE);
  if (!text) return;
  try {
    const saved = JSON.parse(text);
    positions = replay(saved.moves);
    game = {
      moves: saved.moves,
      human: ['X', 'O', '-'].includes(saved.human) ? saved.human : 'X',
      level: Number.isInteger(saved.level) ? saved.level : DEFAULT_LEVEL,
    };
  } catch (err) {
    // Kept aside, not lost: the page starts anew and says why.
    localStorage.setItem(STORE + '.unreadable', text);
    positions = [START];
    setStatus(`The saved game could not be read (${err.message}); a new one starts.`);
  }
}

function counts(b) {
  let x = 0;
  let o = 0;
  for (let i = 0; i < 64; i++) {
    if (b[i] === 'X') x++;
    else if (b[i] === 'O') o++;
  }
  return [x, o];
}

function legal(b) {
  const text = legal_moves(b);
  return text === '' ? [] : text.split(' ');
}

function playMove(m) {
  positions.push(play(board(), m));
  game.moves.push(m);
  generation++;
  save();
}

const name = (c) => (c === 'X' ? 'Black' : 'White');

function setStatus(text) {
  $('status').textContent = text;
}

// After every change: passes are played for the side that must, the engine is asked when
// it is its turn, and the status says what happens next.
function advance() {
  const b = board();
  const moves = legal(b);
  const [x, o] = counts(b);
  $('score').textContent =
    `Black ${x} – White ${o}` + (engineValue === null ? '' : `   Okapi: ${fmtValue(engineValue)}`);
  $('moves').textContent = game.moves.join(' ');
  $('undo').disabled = game.moves.length === 0;
  draw();
  if (moves.length === 0) {
    const result = x === o ? 'a draw' : `${x > o ? 'Black' : 'White'} wins`;
    setStatus(`Game over: ${result}, ${x}–${o}.`);
    return;
  }
  if (moves[0] === '--') {
    setStatus(`${name(side(b))} has no move and passes.`);
    playMove('--');
    setTimeout(advance, 600);
    return;
  }
  if (game.human === '-' || side(b) === game.human) {
    setStatus(`Your move (${name(side(b))}).`);
    return;
  }
  thinking = true;
  setStatus(`Okapi is thinking (${name(side(b))})…`);
  const asked = generation;
  call('choose', { board: b, level: game.level, seed: (Math.random() * 2 ** 32) >>> 0 })
    .then((answer) => {
      if (asked !== generation) return;
      thinking = false;
      engineValue = answer.value;
      playMove(answer.move);
      advance();
    })
    .catch((err) => {
      thinking = false;
      setStatus(`The engine failed: ${err.message}`);
    });
}

const fmtValue = (v) => (v > 0 ? '+' : '') + v.toFixed(1);

function newGame() {
  game.moves = [];
  positions = [START];
  engineValue = null;
  generation++;
  save();
  advance();
}

function takeBack() {
  if (game.moves.length === 0) return;
  // Back to the person's previous turn (past the engine's reply and any passes).
  do {
    game.moves.pop();
    positions.pop();
  } while (
    game.moves.length > 0 &&
    game.human !== '-' &&
    (side(board()) !== game.human || game.moves[game.moves.length - 1] === '--')
  );
  engineValue = null;
  generation++;
  thinking = false;
  save();
  advance();
}

// --- Drawing ----------------------------------------------------------------------------
function geometry() {
  const size = canvas.width;
  const margin = Math.round(size * 0.055);
  const cell = (size - 2 * margin) / 8;
  return { size, margin, cell };
}

function resize() {
  const css = canvas.getBoundingClientRect().width;
  const px = Math.max(200, Math.round(css * (window.devicePixelRatio || 1)));
  if (canvas.width !== px) {
    canvas.width = px;
    canvas.height = px;
  }
  draw();
}

function draw() {
  const { size, margin, cell } = geometry();
  const b = board();
  ctx.fillStyle = '#14331f';
  ctx.fillRect(0, 0, size, size);
  const felt = ctx.createLinearGradient(0, 0, size, size);
  felt.addColorStop(0, '#2f8a52');
  felt.addColorStop(1, '#1f6b3d');
  ctx.fillStyle = felt;
  ctx.fillRect(margin, margin, cell * 8, cell * 8);
  ctx.strokeStyle = '#0d2a17';
  ctx.lineWidth = Math.max(1, size / 400);
  for (let i = 0; i <= 8; i++) {
    ctx.beginPath();
    ctx.moveTo(margin + i * cell, margin);
    ctx.lineTo(margin + i * cell, margin + 8 * cell);
    ctx.moveTo(margin, margin + i * cell);
    ctx.lineTo(margin + 8 * cell, margin + i * cell);
    ctx.stroke();
  }
  ctx.fillStyle = '#0d2a17';
  for (const [c, r] of [[2, 2], [6, 2], [2, 6], [6, 6]]) {
    ctx.beginPath();
    ctx.arc(margin + c * cell, margin + r * cell, cell * 0.07, 0, 2 * Math.PI);
    ctx.fill();
  }
  ctx.fillStyle = '#d8e8dc';
  ctx.font = `${Math.round(margin * 0.55)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let i = 0; i < 8; i++) {
    ctx.fillText('abcdefgh'[i], margin + (i + 0.5) * cell, margin / 2);
    ctx.fillText(String(i + 1), margin / 2, margin + (i + 0.5) * cell);
  }
  const last = game.moves.length ? game.moves[game.moves.length - 1] : null;
  for (let i = 0; i < 64; i++) {
    const cx = margin + ((i % 8) + 0.5) * cell;
    const cy = margin + (Math.floor(i / 8) + 0.5) * cell;
    if (b[i] === 'X' || b[i] === 'O') {
      const g = ctx.createRadialGradient(cx - cell * 0.12, cy - cell * 0.14, cell * 0.04, cx, cy, cell * 0.42);
      if (b[i] === 'X') {
        g.addColorStop(0, '#5a5a5a');
        g.addColorStop(1, '#0a0a0a');
      } else {
        g.addColorStop(0, '#ffffff');
        g.addColorStop(1, '#c9c9c9');
      }
      ctx.fillStyle = g;
      ctx.beginPath();
      ctx.arc(cx, cy, cell * 0.41, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  if (last && last !== '--') {
    const i = squareIndex(last);
    ctx.fillStyle = '#e0433a';
    ctx.beginPath();
    ctx.arc(margin + ((i % 8) + 0.5) * cell, margin + (Math.floor(i / 8) + 0.5) * cell, cell * 0.07, 0, 2 * Math.PI);
    ctx.fill();
  }
  const yours = game.human === '-' || side(b) === game.human;
  if (yours && !thinking) {
    ctx.fillStyle = side(b) === 'X' ? '#0008' : '#fff8';
    for (const m of legal(b)) {
      if (m === '--') continue;
      const i = squareIndex(m);
      ctx.beginPath();
      ctx.arc(margin + ((i % 8) + 0.5) * cell, margin + (Math.floor(i / 8) + 0.5) * cell, cell * 0.1, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}

const squareIndex = (m) => (m.charCodeAt(1) - 49) * 8 + (m.charCodeAt(0) - 97);
const squareName = (i) => 'abcdefgh'[i % 8] + String(Math.floor(i / 8) + 1);

function onPointer(e) {
  const rect = canvas.getBoundingClientRect();
  const { margin, cell } = geometry();
  const scale = canvas.width / rect.width;
  const col = Math.floor(((e.clientX - rect.left) * scale - margin) / cell);
  const row = Math.floor(((e.clientY - rect.top) * scale - margin) / cell);
  if (col < 0 || col > 7 || row < 0 || row > 7) return;
  const b = board();
  if (thinking || !(game.human === '-' || side(b) === game.human)) return;
  const m = squareName(row * 8 + col);
  if (!legal(b).includes(m)) return;
  playMove(m);
  advance();
}

// --- Solving ------------------------------------------------------------------------------
async function solveText(text) {
  const out = $('solution');
  out.textContent = 'Solving…';
  $('solve').disabled = true;
  try {
    const s = await call('solve', { board: text.trim() });
    const score = (s.score >= 0 ? '+' : '') + s.score;
    out.textContent = `${s.best ?? 'game over'} ${score}   (${s.nodes.toLocaleString('en')} nodes, ${(s.ms / 1000).toFixed(2)} s)`;
  } catch (err) {
    out.textContent = err.message;
  } finally {
    $('solve').disabled = false;
  }
}

// --- Start --------------------------------------------------------------------------------
async function start() {
  await init();
  const level = $('level');
  for (let n = 1; n <= LEVELS; n++) level.add(new Option(String(n), String(n)));
  load();
  level.value = String(game.level);
  $('human').value = game.human;
  level.onchange = () => { game.level = Number(level.value); save(); };
  $('human').onchange = () => { game.human = $('human').value; generation++; save(); advance(); };
  $('new-game').onclick = newGame;
  $('undo').onclick = takeBack;
  $('solve').onclick = () => solveText($('position').value);
  $('solve-game').onclick = () => { $('position').value = board(); solveText(board()); };
  canvas.addEventListener('pointerdown', onPointer);
  window.addEventListener('resize', resize);
  window.addEventListener('keydown', (e) => {
    if (e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'n') newGame();
    if (e.key === 'u' || ((e.ctrlKey || e.metaKey) && e.key === 'z')) takeBack();
  });
  resize();
  advance();
  window.okapi.readyMs = performance.now();
  document.body.dataset.ready = 'yes';
}

// What the page's checks (and the curious, from the console) can ask.
window.okapi = {
  moves: () => game.moves.slice(),
  board,
  thinking: () => thinking,
  call,
};

start().catch((err) => setStatus(`Okapi could not start: ${err.message}`));
