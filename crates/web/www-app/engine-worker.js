// The app's engine worker: the same wasm module as the page, serving one engine
// (crates/web/src/engine_worker.rs). Messages that come while the module loads wait.
import init, { engine_worker_receive } from './okapi_web.js';

const waiting = [];
let ready = false;
self.onmessage = (event) => {
    if (ready) engine_worker_receive(event.data);
    else waiting.push(event.data);
};
await init();
ready = true;
for (const text of waiting.splice(0)) engine_worker_receive(text);
