//! The page's side of the engines: each engine is served by a module Web Worker of its
//! own, and a [`Relay`] hands it the engine's messages and passes its replies back (see
//! the parent module).

use okapi_engine::{Engine, EngineLoop, EngineOptions, Event, Message, Relayed, Reply, Ticket};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The engines' relays to their workers.
    static RELAYS: RefCell<Vec<Relay>> = const { RefCell::new(Vec::new()) };
    /// Whether the relays' timer runs.
    static PUMPING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Starts an engine served by a Web Worker of its own ([`Relay`]): the page's thread
/// never runs a search.
pub fn spawn_engine(options: EngineOptions, notify: impl Fn() + Send + 'static) -> Engine {
    let start = Relayed::Start {
        config: options.config,
        seed: options.seed,
    };
    Engine::spawn_on(options, notify, |engine_loop| {
        RELAYS.with_borrow_mut(|relays| relays.push(Relay::new(engine_loop, start)));
        start_pumping();
        Ok(None)
    })
    .expect("an engine loop is only kept")
}

/// The engine worker's script, beside the page.
const ENGINE_WORKER: &str = "engine-worker.js";
/// How often the relays look for the engines' new messages (milliseconds).
const PUMP_EVERY_MS: i32 = 15;

/// The page's side of one engine: hands its messages to its worker one request at a
/// time and passes the worker's replies back through the engine's gate.
struct Relay {
    engine_loop: EngineLoop,
    /// How the worker starts, and the latest configuration: sent to every new worker.
    start: Relayed,
    configuration: Option<Message>,
    /// Requests not yet handed to the worker (a request goes when the one before ended).
    queue: VecDeque<Message>,
    worker: Option<RelayWorker>,
    /// The request the worker serves.
    in_flight: Option<Ticket>,
}

/// A running worker and what it said, tagged with the worker it came from.
struct RelayWorker {
    worker: web_sys::Worker,
    inbox: Rc<RefCell<Vec<Inbound>>>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

enum Inbound {
    Reply(String),
    Failed(String),
}

impl Relay {
    fn new(engine_loop: EngineLoop, start: Relayed) -> Relay {
        Relay {
            engine_loop,
            start,
            configuration: None,
            queue: VecDeque::new(),
            worker: None,
            in_flight: None,
        }
    }

    /// Starts a worker and gives it the engine's start and configuration.
    fn start_worker(&mut self) -> Result<(), String> {
        let options = web_sys::WorkerOptions::new();
        options.set_type(web_sys::WorkerType::Module);
        let worker = web_sys::Worker::new_with_options(ENGINE_WORKER, &options)
            .map_err(|e| format!("the engine's worker does not start: {e:?}"))?;
        let inbox = Rc::new(RefCell::new(Vec::new()));
        let replies = inbox.clone();
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                if let Some(text) = event.data().as_string() {
                    replies.borrow_mut().push(Inbound::Reply(text));
                }
                pump();
            },
        );
        let failures = inbox.clone();
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            let message = event
                .dyn_ref::<web_sys::ErrorEvent>()
                .map_or_else(|| "the engine's worker failed".into(), |e| e.message());
            failures.borrow_mut().push(Inbound::Failed(message));
            pump();
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let relay_worker = RelayWorker {
            worker,
            inbox,
            _on_message: on_message,
            _on_error: on_error,
        };
        // The page's module, compiled once: the worker instantiates it as it is instead
        // of fetching and compiling 10 MB of code again, each time a stopped search
        // ends its worker. Browsers share the compiled code between the two.
        relay_worker
            .worker
            .post_message(&wasm_bindgen::module())
            .map_err(|e| format!("the engine's worker cannot be given the module: {e:?}"))?;
        post(&relay_worker.worker, &self.start)?;
        if let Some(configuration) = &self.configuration {
            post(
                &relay_worker.worker,
                &Relayed::Message(configuration.clone()),
            )?;
        }
        self.worker = Some(relay_worker);
        Ok(())
    }

    /// Ends the worker at once (a search cannot be told to stop otherwise).
    fn end_worker(&mut self) {
        if let Some(w) = self.worker.take() {
            w.worker.terminate();
        }
    }

    /// Hands on what came and what is waiting; false once the engine is gone.
    fn pump(&mut self) -> bool {
        let waiting = self.engine_loop.take_waiting();
        for message in waiting.messages {
            if let Message::Configure(_) = message {
                self.configuration = Some(message.clone());
                if let Some(w) = &self.worker {
                    // Taken between requests, in order, as the engine's own loop does.
                    let _ = post(&w.worker, &Relayed::Message(message));
                }
            } else {
                self.queue.push_back(message);
            }
        }
        if waiting.closed {
            self.end_worker();
            return false;
        }
        // The worker's replies, then whether the request it serves is still wanted.
        let inbound = self
            .worker
            .as_ref()
            .map(|w| std::mem::take(&mut *w.inbox.borrow_mut()))
            .unwrap_or_default();
        for message in inbound {
            match message {
                Inbound::Reply(text) => match serde_json::from_str::<Reply>(&text) {
                    Ok(reply) => {
                        if Some(reply.ticket) == self.in_flight && reply.event.is_final() {
                            self.in_flight = None;
                        }
                        if matches!(reply.event, Event::Solved { .. } | Event::Played { .. }) {
                            record_answer(&text);
                        }
                        self.engine_loop.pass(reply);
                    }
                    Err(e) => log::error!("okapi: a reply of the engine's worker: {e}"),
                },
                Inbound::Failed(message) => {
                    self.end_worker();
                    if let Some(ticket) = self.in_flight.take() {
                        self.engine_loop.pass(Reply {
                            ticket,
                            event: Event::Error {
                                message: format!("the engine failed: {message}"),
                            },
                        });
                    }
                    break;
                }
            }
        }
        if let Some(ticket) = self.in_flight
            && let Some(event) = self.engine_loop.overtaken(ticket)
        {
            self.end_worker();
            self.in_flight = None;
            self.engine_loop.pass(Reply { ticket, event });
        }
        while self.in_flight.is_none()
            && let Some(message) = self.queue.pop_front()
        {
            let Message::Request(ticket, _) = &message else {
                continue;
            };
            let ticket = *ticket;
            if let Some(event) = self.engine_loop.overtaken(ticket) {
                self.engine_loop.pass(Reply { ticket, event });
                continue;
            }
            let sent = match &self.worker {
                Some(_) => Ok(()),
                None => self.start_worker(),
            }
            .and_then(|()| {
                let w = self.worker.as_ref().expect("started");
                post(&w.worker, &Relayed::Message(message))
            });
            match sent {
                Ok(()) => self.in_flight = Some(ticket),
                Err(message) => {
                    self.end_worker();
                    self.engine_loop.pass(Reply {
                        ticket,
                        event: Event::Error { message },
                    });
                }
            }
        }
        true
    }
}

/// Keeps the engines' answers (a move played, a position solved), as JSON, in the
/// page's `okapiEngineAnswers` array: what the page's checks read (the canvas has no
/// text to read), and a trace for whoever opens the browser's console.
fn record_answer(text: &str) {
    let global = js_sys::global();
    let name = JsValue::from_str("okapiEngineAnswers");
    let answers = match js_sys::Reflect::get(&global, &name) {
        Ok(a) if a.is_instance_of::<js_sys::Array>() => a.unchecked_into::<js_sys::Array>(),
        _ => {
            let a = js_sys::Array::new();
            let _ = js_sys::Reflect::set(&global, &name, &a);
            a
        }
    };
    answers.push(&JsValue::from_str(text));
}

/// Sends `relayed` to `worker` as JSON.
fn post(worker: &web_sys::Worker, relayed: &Relayed) -> Result<(), String> {
    let text = serde_json::to_string(relayed).map_err(|e| e.to_string())?;
    worker
        .post_message(&JsValue::from_str(&text))
        .map_err(|e| format!("the engine's worker cannot be reached: {e:?}"))
}

/// Every relay hands on what it has; those whose engine is gone go.
fn pump() {
    RELAYS.with_borrow_mut(|relays| relays.retain_mut(Relay::pump));
}

/// Looks for the engines' new messages every few milliseconds (an engine's `send` does
/// not call the page).
fn start_pumping() {
    if PUMPING.replace(true) {
        return;
    }
    let tick = Closure::<dyn FnMut()>::new(pump);
    if let Some(window) = web_sys::window() {
        let _ = window.set_interval_with_callback_and_timeout_and_arguments_0(
            tick.as_ref().unchecked_ref(),
            PUMP_EVERY_MS,
        );
    }
    tick.forget(); // the page's whole life
}
