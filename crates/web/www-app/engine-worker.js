// The app's engine worker: the page's own wasm module, serving one engine
// (crates/web/src/engine_worker.rs). The page's first message is the module itself,
// already compiled (`wasm_bindgen::module()`): instantiated here without fetching or
// compiling it again. Messages that come while it is instantiated wait.
import init, { engine_worker_receive } from './okapi_web.js';

const waiting = [];
let ready = false;
self.onmessage = async (event) => {
    if (ready) {
        engine_worker_receive(event.data);
    } else if (event.data instanceof WebAssembly.Module) {
        await init({ module_or_path: event.data });
        ready = true;
        for (const text of waiting.splice(0)) engine_worker_receive(text);
    } else {
        waiting.push(event.data);
    }
};
