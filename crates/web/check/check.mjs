// The browser build's checks, in headless Chromium driven by playwright-core:
//   node check.mjs check URL SHOTS_DIR FFO_FILE  the page's checks (.ci/web)
//   node check.mjs app URL SHOTS_DIR FFO_FILE    the app page's checks (.ci/web, its app/)
//   node check.mjs bench URL RUNS FFO_FILE       FFO positions solved in the page, one
//                                                thread, RUNS times each: the medians
// FFO_FILE: the FFO positions with their best moves and scores (tests/data/ffo40-59.scr),
// from which the checks solve #40.
// Each check prints PASS or FAIL with its time; the last line counts them. Exit 1 if any
// failed.
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// The FFO positions of a script file (`BOARD % ffo#N best:A2 score:+38`), by number.
function ffoPositions(file) {
  return readFileSync(file, 'utf8').split('\n').flatMap((l) => {
    // (`best` may name several moves, `G3,C7`: the first is taken.)
    const m = l.match(/^(\S{64} [XO]) % ffo#(\d+) best:(\w+)\S* score:([+-]\d+)/);
    return m ? [{ board: m[1], number: m[2], best: m[3].toLowerCase(), score: Number(m[4]) }] : [];
  });
}

function ffo40(file) {
  const p = ffoPositions(file).find((p) => p.number === '40');
  must(p, `no ffo#40 in ${file}`);
  return p;
}

// --- PNG: the distinct colours of a screenshot and its share of green --------------------
function pixels(png) {
  let pos = 8;
  let width = 0, height = 0, type = 0;
  const idat = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const kind = png.toString('ascii', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('only 8-bit non-interlaced PNGs');
      type = data[9];
    } else if (kind === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const bpp = { 2: 3, 6: 4 }[type];
  if (!bpp) throw new Error(`PNG colour type ${type} not read here`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp] : 0;
      let v = line[x];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 255;
    }
  }
  return { width, height, bpp, out };
}

function colours(png) {
  const { width, height, bpp, out } = pixels(png);
  const seen = new Set();
  let green = 0;
  for (let i = 0; i < width * height; i++) {
    const r = out[i * bpp], g = out[i * bpp + 1], b = out[i * bpp + 2];
    seen.add((r << 16) | (g << 8) | b);
    if (g > r + 30 && g > b + 20) green++;
  }
  return { count: seen.size, green: green / (width * height) };
}

// --- Checks -------------------------------------------------------------------------------
const results = [];
async function check(name, body) {
  const t = Date.now();
  let ok = false, detail = '';
  try {
    detail = (await body()) || '';
    ok = true;
  } catch (err) {
    detail = err.message.split('\n')[0];
  }
  const secs = ((Date.now() - t) / 1000).toFixed(1);
  results.push(ok);
  console.log(`  ${ok ? 'PASS' : 'FAIL'} ${name.padEnd(48)} ${secs.padStart(5)}s  ${detail}`);
}

function must(cond, what) {
  if (!cond) throw new Error(what);
}

async function open(browser, url, viewport, errors) {
  const page = await browser.newPage({ viewport });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); }));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="yes"]', { timeout: 20_000 });
  return page;
}

// The centre of a square on the page, from the board's geometry in app.js.
async function squareCentre(page, sq) {
  const box = await page.locator('#board').boundingBox();
  const margin = box.width * 0.055;
  const cell = (box.width - 2 * margin) / 8;
  const col = sq.charCodeAt(0) - 97, row = sq.charCodeAt(1) - 49;
  return [box.x + margin + (col + 0.5) * cell, box.y + margin + (row + 0.5) * cell];
}

// The longest gap between two frames over `ms` milliseconds.
async function frameGapOver(page, ms) {
  return page.evaluate((ms) => new Promise((done) => {
    let last = null, gap = 0;
    const end = performance.now() + ms;
    const tick = (t) => {
      if (last !== null) gap = Math.max(gap, t - last);
      last = t;
      if (t < end) requestAnimationFrame(tick); else done(gap);
    };
    requestAnimationFrame(tick);
  }), ms);
}

// Starts keeping the longest gap between two frames of `page` (from its tenth frame on),
// until `frameGapEnd`.
async function frameGapStart(page) {
  await page.evaluate(() => new Promise((started) => {
    window.frameGap = 0;
    window.frameGapDone = false;
    let last = null;
    let frames = 0;
    const tick = (t) => {
      if (last !== null) window.frameGap = Math.max(window.frameGap, t - last);
      last = t;
      if (++frames === 10) { window.frameGap = 0; started(); }
      if (!window.frameGapDone) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));
}

// The longest gap between two frames since `frameGapStart`, in ms.
async function frameGapEnd(page) {
  return page.evaluate(() => { window.frameGapDone = true; return window.frameGap; });
}

// Screenshots of `page` at a phone's size and the desktop's (`${prefix}${w}x${h}.png`):
// each with more than 200 colours and its board (`boardOf(page, png)`) fitting across,
// at least `minShare` of the narrow side. Says the board's size at each.
async function screenshotsAtSizes(page, shots, { prefix, settleMs, boardOf, minShare }) {
  const sizes = [];
  for (const [w, h] of [[390, 844], [1280, 900]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(settleMs);
    const shot = await page.screenshot({ path: join(shots, `${prefix}${w}x${h}.png`) });
    const c = colours(shot);
    must(c.count > 200, `${w}x${h}: ${c.count} colours`);
    const box = await boardOf(page, shot);
    must(box.x >= 0 && box.x + box.width <= w + 1, `${w}x${h}: the board does not fit across`);
    must(box.width >= minShare * Math.min(w, h), `${w}x${h}: the board is ${Math.round(box.width)} px across`);
    sizes.push(`${w}x${h} board ${Math.round(box.width)} px`);
  }
  return sizes.join(', ');
}

async function checks(url, shots, ffoFile) {
  const ffo = ffo40(ffoFile);
  mkdirSync(shots, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const errors = [];
  let page;
  await check('the page loads and shows its first board', async () => {
    page = await open(browser, url, { width: 1280, height: 900 }, errors);
    // From the navigation's start to the first board drawn, by the page's own clock.
    const ms = Math.round(await page.evaluate(() => okapi.readyMs));
    must(ms < 3000, `first board after ${ms} ms (over 3 s)`);
    return `${ms} ms`;
  });
  if (!page) {
    await browser.close();
    console.log('0 passed, 1 failed (the page did not load: no further check can run)');
    return false;
  }
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForSelector('body[data-ready="yes"]');
  await check('the board is drawn (> 200 colours, green)', async () => {
    const shot = await page.screenshot({ path: join(shots, 'first-1280x900.png') });
    const c = colours(shot);
    must(c.count > 200, `${c.count} colours`);
    must(c.green > 0.15, `${(c.green * 100).toFixed(0)}% green`);
    return `${c.count} colours, ${(c.green * 100).toFixed(0)}% green`;
  });
  await check('the engine runs SIMD128 and it matches the portable code', async () => {
    must(await page.evaluate(() => okapi.call('simd128')), 'the module has no SIMD128 copy');
    const n = await page.evaluate(() => okapi.call('check_simd128', { count: 300 }));
    return `moves and flips equal on ${n} positions`;
  });
  await check('a click plays a move and the engine answers', async () => {
    const [x, y] = await squareCentre(page, 'f5');
    await page.mouse.click(x, y);
    await page.waitForFunction(() => okapi.moves().length >= 2, null, { timeout: 30_000 });
    const moves = await page.evaluate(() => okapi.moves());
    must(moves[0] === 'f5', `the first move is ${moves[0]}, not the f5 clicked`);
    await page.screenshot({ path: join(shots, 'game-1280x900.png') });
    return `f5, then the engine's ${moves[1]}`;
  });
  await check(`FFO #40 solved: ${ffo.best} +${ffo.score}, frames go on meanwhile`, async () => {
    await page.fill('#position', ffo.board);
    // The longest gap between frames while the worker solves: the page never waits on it.
    const idle = await frameGapOver(page, 2000);
    await frameGapStart(page);
    await page.click('#solve');
    await page.waitForFunction(() => !document.querySelector('#solution').textContent.startsWith('Solv'), null, { timeout: 60_000 });
    const text = await page.textContent('#solution');
    const gap = await frameGapEnd(page);
    await page.screenshot({ path: join(shots, 'solve-1280x900.png') });
    must(text.startsWith(`${ffo.best} +${ffo.score}`), `the page says "${text}"`);
    // (A solve on the page's thread stops the frames for its whole time, over a second
    // here; 500 ms, or 1.5 times the idle page's longest gap, leaves room for a busy
    // machine.)
    must(gap < Math.max(500, 1.5 * idle), `a frame waited ${gap.toFixed(0)} ms (idle: ${idle.toFixed(0)} ms)`);
    return `"${text.trim()}", longest frame gap ${gap.toFixed(0)} ms (idle ${idle.toFixed(0)} ms)`;
  });
  await check('FFO #40: the SIMD128 and portable copies search the same nodes', async () => {
    const [fast, portable] = await page.evaluate(async (b) => [
      await okapi.call('solve', { board: b }),
      await okapi.call('solve', { board: b, portable: true }),
    ], ffo.board);
    must(fast.nodes === portable.nodes, `${fast.nodes} nodes against ${portable.nodes}`);
    must(fast.score === ffo.score && portable.score === ffo.score, `scores ${fast.score}, ${portable.score}`);
    return `${fast.nodes} nodes both; ${fast.ms.toFixed(0)} ms against ${portable.ms.toFixed(0)} ms`;
  });
  await check('a reload keeps the game', async () => {
    const before = await page.evaluate(() => okapi.moves());
    await page.reload();
    await page.waitForSelector('body[data-ready="yes"]');
    const after = await page.evaluate(() => okapi.moves());
    must(before.length >= 2, `only ${before.length} moves before the reload`);
    must(JSON.stringify(after) === JSON.stringify(before), `${after.join(' ')} after, ${before.join(' ')} before`);
    return after.join(' ');
  });
  await check('the page links to the whole app, which is served beside it', async () => {
    const href = await page.locator('#whole-app a').getAttribute('href');
    const target = new URL(href, page.url()).href;
    const status = await page.evaluate(async (u) => (await fetch(u)).status, target);
    must(status === 200, `${target}: HTTP ${status}`);
    return target;
  });
  await check('screenshots at 390x844 and 1280x900', async () => screenshotsAtSizes(page, shots, {
    prefix: '', settleMs: 300, minShare: 0, boardOf: (page) => page.locator('#board').boundingBox(),
  }));
  await check('no console error', async () => {
    must(errors.length === 0, `${errors.length}: ${errors[0]}`);
    return '';
  });
  await browser.close();
  const failed = results.filter((r) => !r).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0;
}

// --- The app's page (an egui canvas: read through its pixels, its storage and the
// engines' answers the page keeps in okapiEngineAnswers) --------------------------------
const GAME_KEY = 'okapi/current-game.json';

// The board: the bounding box of the green pixels of a screenshot, in CSS pixels.
function boardBox(png) {
  const { width, height, bpp, out } = pixels(png);
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  const rowGreen = new Array(height).fill(0), colGreen = new Array(width).fill(0);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * bpp;
      const r = out[i], g = out[i + 1], b = out[i + 2];
      if (g > r + 30 && g > b + 20) { rowGreen[y]++; colGreen[x]++; }
    }
  }
  // Rows and columns mostly green belong to the board (not a green button or text).
  const rowMax = Math.max(...rowGreen), colMax = Math.max(...colGreen);
  for (let y = 0; y < height; y++) if (rowGreen[y] > rowMax * 0.5) { y0 = Math.min(y0, y); y1 = y; }
  for (let x = 0; x < width; x++) if (colGreen[x] > colMax * 0.5) { x0 = Math.min(x0, x); x1 = x; }
  must(x1 > x0 && y1 > y0, 'no board in the screenshot');
  // The board is square; the graph below it is green too.
  return { x: x0, y: y0, width: x1 - x0 + 1, height: x1 - x0 + 1 };
}

function squareIn(box, sq) {
  const col = sq.charCodeAt(0) - 97, row = sq.charCodeAt(1) - 49;
  return [box.x + (col + 0.5) * box.width / 8, box.y + (row + 0.5) * box.height / 8];
}

async function answers(page) {
  return (await page.evaluate(() => globalThis.okapiEngineAnswers || [])).map((t) => JSON.parse(t));
}

async function savedGame(page) {
  return page.evaluate((k) => localStorage.getItem(k), GAME_KEY);
}

// Every reply the page's engine workers send, as the page receives it (the Worker
// constructor wrapped before the page's scripts run).
const WATCH_WORKERS = () => {
  const Native = window.Worker;
  window.okapiWorkerReplies = [];
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (typeof e.data === 'string' && window.okapiWorkerReplies.length < 2000) window.okapiWorkerReplies.push(e.data);
      });
    }
  };
};

async function workerReplies(page) {
  return (await page.evaluate(() => window.okapiWorkerReplies || [])).map((t) => JSON.parse(t));
}

async function openApp(browser, url, viewport, errors) {
  const page = await browser.newPage({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });
  await page.addInitScript(WATCH_WORKERS);
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); }));
  const t = Date.now();
  await page.goto(url);
  // Drawn: the canvas holds a board (green) once the app's first frames are in. (A query
  // of the page's elements waits while the app starts, over 30 s under SwiftShader: it
  // is asked only when no board is seen yet.)
  for (;;) {
    const c = colours(await page.screenshot());
    if (c.green > 0.05) break;
    must(!(await page.$('#failed')), `the page says: ${await page.textContent('#failed').catch(() => '')}`);
    must(Date.now() - t < 60_000, 'no board after 60 s');
    await page.waitForTimeout(250);
  }
  return { page, ms: Date.now() - t };
}

// The start position, as a board string.
const START = '---------------------------OX------XO--------------------------- X';

// Opens `text` as the file `name` through the app's File › Open (Ctrl+O): the page's
// file picker, answered by the browser's file chooser as a player's choice would be.
async function openAsFile(page, name, text) {
  const chooser = page.waitForEvent('filechooser', { timeout: 30_000 });
  await page.keyboard.press('Control+O');
  await (await chooser).setFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(`${text}\n`) });
}

async function appChecks(url, shots, ffoFile) {
  const ffo = ffo40(ffoFile);
  mkdirSync(shots, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const errors = [];
  let page;
  await check('the app page loads and draws its first board', async () => {
    const opened = await openApp(browser, url, { width: 1280, height: 900 }, errors);
    page = opened.page;
    return `${opened.ms} ms to a board on screen`;
  });
  if (!page) {
    await browser.close();
    console.log('0 passed, 1 failed (the page did not load: no further check can run)');
    return false;
  }
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForTimeout(3000);
  let box;
  await check('the board is drawn (> 200 colours, green)', async () => {
    const shot = await page.screenshot({ path: join(shots, 'app-first-1280x900.png') });
    const c = colours(shot);
    box = boardBox(shot);
    must(c.count > 200, `${c.count} colours`);
    must(box.width > 200 && Math.abs(box.width - box.height) < box.width * 0.1, `board ${box.width}x${box.height}`);
    return `${c.count} colours, board ${box.width}x${box.height} at ${box.x},${box.y}`;
  });
  await check(`FFO #40 opened as a file and solved: ${ffo.best} +${ffo.score}, frames go on`, async () => {
    await openAsFile(page, 'ffo40.txt', ffo.board);
    await page.waitForTimeout(1000);
    const idle = await frameGapOver(page, 2000);
    await frameGapStart(page);
    const solveStart = Date.now();
    await page.keyboard.press('Control+E');
    await page.waitForFunction(() => (globalThis.okapiEngineAnswers || []).some((t) => t.includes('"Solved"')), null, { timeout: 120_000 })
      .finally(() => page.screenshot({ path: join(shots, 'app-solve-1280x900.png') }));
    const gap = await frameGapEnd(page);
    const solveMs = Date.now() - solveStart;
    await page.waitForTimeout(1000);
    await page.screenshot({ path: join(shots, 'app-solve-1280x900.png') });
    const solved = (await answers(page)).filter((r) => r.event.Solved).pop().event.Solved;
    must(solved.score === ffo.score && solved.line[0] === ffo.best, `solved ${solved.line[0]} ${solved.score}`);
    // A solve on the page's thread would stop the frames for all its time. The app's own
    // frames take long under SwiftShader on a busy machine, so a gap is the engine's only
    // if it is well over the idle page's and takes half the solve or more.
    must(gap < Math.max(500, 1.5 * idle, solveMs / 2),
      `a frame waited ${gap.toFixed(0)} ms (idle: ${idle.toFixed(0)} ms; the solve ${solveMs} ms)`);
    return `${ffo.best} +${ffo.score} in ${solved.line.length} moves of line, ${solveMs} ms; longest frame gap ${gap.toFixed(0)} ms (idle ${idle.toFixed(0)} ms)`;
  });
  // A position shared by the address (`#board=`) replaces the one open; the next check's
  // click on f5 (taken in FFO #40) plays only if it is the start position.
  await check('a position in the address (#board=) opens, and leaves the address', async () => {
    const before = await savedGame(page);
    await page.goto(`${url}#board=${encodeURIComponent(START)}`);
    await page.reload();
    await page.waitForTimeout(4000);
    const hash = await page.evaluate(() => location.hash);
    must(hash === '', `the address still has ${hash}`);
    const after = await savedGame(page);
    must(after && after !== before, 'the autosaved game did not change');
    return 'the start position opened';
  });
  // A new game plays two people (File › New game sets Okapi as a player): the engine
  // answers a move with its values of the replies, from its worker.
  await check('a click plays a move and the engine values the replies', async () => {
    must(box, 'no board found');
    const [x, y] = squareIn(box, 'f5');
    await page.mouse.click(x, y);
    const replies = ['d6', 'f4', 'f6'];
    await page.waitForFunction((replies) => (window.okapiWorkerReplies || []).some((t) => {
      const r = JSON.parse(t);
      return r.event.MoveValue && replies.includes(r.event.MoveValue.square);
    }), replies, { timeout: 60_000 });
    await page.waitForTimeout(3000); // more values come in
    await page.screenshot({ path: join(shots, 'app-game-1280x900.png') });
    const values = (await workerReplies(page)).filter((r) => r.event.MoveValue).map((r) => r.event.MoveValue.square);
    const saved = await savedGame(page);
    must(saved && /f5/i.test(saved), `the autosaved game has no f5: ${saved && saved.slice(0, 120)}`);
    return `f5 played; the worker valued ${[...new Set(values)].join(' ')}`;
  });
  await check('a reload keeps the game', async () => {
    const before = await savedGame(page);
    must(before, 'nothing autosaved before the reload');
    const shotBefore = colours(await page.screenshot());
    await page.reload();
    await page.waitForTimeout(4000);
    const after = await savedGame(page);
    must(after && /f5/i.test(after), `after the reload the autosave is ${after && after.slice(0, 120)}`);
    const shotAfter = colours(await page.screenshot());
    return `autosave kept (${after.length} bytes); ${shotBefore.count} and ${shotAfter.count} colours`;
  });
  // The games database is not in the module: the tab downloads it when first shown.
  await check('the Database tab downloads the games database and shows it', async () => {
    const download = page.waitForResponse((r) => r.url().endsWith('/wthor.okdb'), { timeout: 30_000 });
    await page.mouse.click(775, 37); // the side panel's "Database" tab, at 1280x900
    const response = await download;
    must(response.ok(), `wthor.okdb: HTTP ${response.status()}`);
    const bytes = (await response.body()).length;
    await page.waitForTimeout(5000);
    const panel = await page.screenshot({ path: join(shots, 'app-database-1280x900.png'), clip: { x: 684, y: 25, width: 596, height: 820 } });
    const c = colours(panel);
    must(c.count > 50, `the panel has ${c.count} colours`);
    return `${(bytes / 1e6).toFixed(1)} MB downloaded; the panel ${c.count} colours`;
  });
  await check('screenshots at 390x844 and 1280x900', async () => screenshotsAtSizes(page, shots, {
    prefix: 'app-', settleMs: 1000, minShare: 0.6, boardOf: (_, png) => boardBox(png),
  }));
  await check('no console error', async () => {
    must(errors.length === 0, `${errors.length}: ${errors[0]}`);
    return '';
  });
  await browser.close();
  const failed = results.filter((r) => !r).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0;
}

// --- FFO in the page ------------------------------------------------------------------------
async function bench(url, runs, file) {
  const positions = ffoPositions(file).filter((p) => /^4[0-4]$/.test(p.number));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const errors = [];
  const page = await open(browser, url, { width: 1280, height: 900 }, errors);
  const portable = process.env.PORTABLE === '1';
  const totals = [];
  const rows = [];
  for (let r = 0; r < runs; r++) {
    let total = 0;
    for (const p of positions) {
      const s = await page.evaluate(([b, portable]) => okapi.call('solve', { board: b, portable }), [p.board, portable]);
      total += s.ms;
      rows.push({ number: p.number, ...s });
    }
    totals.push(total);
    console.log(`run ${r + 1}: ${(total / 1000).toFixed(2)} s`);
  }
  for (const p of positions) {
    const mine = rows.filter((x) => x.number === p.number);
    const ms = mine.map((x) => x.ms).sort((a, b) => a - b);
    console.log(`#${p.number} ${mine[0].best} ${mine[0].score} ${mine[0].nodes} nodes, median ${(ms[ms.length >> 1] / 1000).toFixed(3)} s`);
  }
  totals.sort((a, b) => a - b);
  console.log(`FFO ${positions[0].number}-${positions[positions.length - 1].number}${portable ? ' (portable copy)' : ''}: median ${(totals[totals.length >> 1] / 1000).toFixed(2)} s of ${runs} runs (min ${(totals[0] / 1000).toFixed(2)}, max ${(totals[totals.length - 1] / 1000).toFixed(2)})`);
  await browser.close();
}

const [mode, url, a, b] = process.argv.slice(2);
if (mode === 'check') {
  process.exit((await checks(url, a, b)) ? 0 : 1);
} else if (mode === 'app') {
  process.exit((await appChecks(url, a, b)) ? 0 : 1);
} else if (mode === 'bench') {
  await bench(url, Number(a) || 3, b);
} else {
  console.error('usage: node check.mjs check URL SHOTS_DIR FFO_FILE | app URL SHOTS_DIR FFO_FILE | bench URL RUNS FFO_FILE');
  process.exit(2);
}
