//! The app's engine worker: this module instantiated in a Web Worker (`engine-worker.js`)
//! serves one engine for the page, whose relay (`okapi_app::platform`) sends it the
//! engine's start and messages as JSON ([`Relayed`]) and reads its replies. A request is
//! served to its end at once; the events go to the page as they come.

use okapi_core::eval::Evaluator;
use okapi_engine::{Engine, EngineLoop, EngineOptions, Relayed};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The engine's loop, served here.
    static SERVED: RefCell<Option<EngineLoop>> = const { RefCell::new(None) };
    /// Its front end, whose events go to the page.
    static FRONT: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

#[wasm_bindgen]
extern "C" {
    /// The worker's `postMessage`: to the page.
    #[wasm_bindgen(js_namespace = globalThis, js_name = postMessage)]
    fn post_to_page(text: &str);
}

/// Sends the page the events waiting, each a [`okapi_engine::Reply`] as JSON.
fn flush() {
    FRONT.with_borrow(|front| {
        let Some(engine) = front else { return };
        while let Some(reply) = engine.try_recv() {
            match serde_json::to_string(&reply) {
                Ok(text) => post_to_page(&text),
                Err(e) => web_sys::console::error_1(&format!("okapi: a reply: {e}").into()),
            }
        }
    });
}

/// Serves one message of the page's relay: the start, or a message of the engine.
#[wasm_bindgen]
pub fn engine_worker_receive(text: &str) -> Result<(), JsError> {
    let relayed: Relayed = serde_json::from_str(text)
        .map_err(|e| JsError::new(&format!("the engine's worker was sent {text:?}: {e}")))?;
    match relayed {
        Relayed::Start { config, seed } => {
            let options = EngineOptions {
                evaluator: Evaluator::shipped(),
                config,
                seed,
            };
            let engine = Engine::spawn_on(options, flush, |engine_loop| {
                SERVED.with_borrow_mut(|s| *s = Some(engine_loop));
                Ok(None)
            })
            .map_err(|e| JsError::new(&e.to_string()))?;
            FRONT.with_borrow_mut(|f| *f = Some(engine));
        }
        Relayed::Message(message) => {
            SERVED.with_borrow_mut(|served| match served {
                Some(engine_loop) => {
                    engine_loop.serve(message);
                    Ok(())
                }
                None => Err(JsError::new("the engine's worker was not started")),
            })?;
            flush();
        }
    }
    Ok(())
}
