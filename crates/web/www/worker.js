// The engine's thread: every search runs here, so the page keeps drawing while it thinks.
// Messages in: {id, call, args}; out: {id, result} or {id, error}.
import init, { solve, choose, simd128, check_simd128 } from './okapi_web.js';

const ready = init();

const calls = {
  solve: (a) => JSON.parse(solve(a.board, !!a.portable)),
  choose: (a) => JSON.parse(choose(a.board, a.level, a.seed)),
  simd128: () => simd128(),
  check_simd128: (a) => check_simd128(a.count),
};

self.onmessage = async (e) => {
  const { id, call, args } = e.data;
  try {
    await ready;
    if (!(call in calls)) throw new Error(`no such call: ${call}`);
    self.postMessage({ id, result: calls[call](args || {}) });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
