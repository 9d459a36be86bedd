//! The browser: the page is the window. What the desktop keeps in files (the settings,
//! the game in progress, practice) is kept in the page's `localStorage`, under the same
//! names ([`data_paths`]); a file the player opens comes through `<input type=file>` and
//! is read from memory; a file saved is a download.
//!
//! The engines: wasm32-unknown-unknown has no threads. Each engine is served by a
//! module Web Worker of its own (`engine-worker.js`: this same wasm module, instantiated
//! there, serving the engine's loop message by message); a relay on the page
//! (`engine_relay.rs`) hands
//! it the engine's messages and passes its replies back, as JSON by `postMessage`. A
//! frame never waits on it. Stopping: the worker is busy while it searches and cannot
//! read a message, so a request that is stopped or superseded ends its worker
//! (`terminate`, at once) and the next request starts a fresh one: no shared memory, so
//! no COOP/COEP headers needed from the host.

use crate::dialogs::{DialogFailure, DialogKind, FileDialogs};
use eframe::egui;
use okapi_core::formats::okapi_json::SavedState;
use okapi_core::formats::{Format, GameFileError, ReadError};
use okapi_core::game::Game;
use okapi_core::practice::{FileStamp, Opened, Store};
use okapi_engine::Machine;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

mod engine_relay;
pub use engine_relay::spawn_engine;

/// Where the app's own data lives: paths under it are `localStorage` keys.
const STORAGE_ROOT: &str = "okapi";

/// The shipped games database, beside the page (`.ci/web` copies `data/wthor.okdb`
/// there): 5.5 MB that the first screen does not need, fetched when the Database tab or
/// a lesson first asks, instead of being compiled into the module as on the desktop.
const SHIPPED_DATABASE_URL: &str = "wthor.okdb";

/// The name a position shared by the page's address is opened under.
const SHARED_POSITION: &str = "shared position.txt";

/// Where the download of the shipped games database is.
enum Download {
    NotStarted,
    Running,
    Done(Result<&'static [u8], String>),
}

thread_local! {
    /// The files the player opened this session, by name (the page has no paths).
    static OPENED: RefCell<HashMap<PathBuf, Vec<u8>>> = RefCell::new(HashMap::new());
    /// A file opened through the page's picker, waiting for the app: what to do with it.
    static PICKED: RefCell<Vec<(DialogKind, PathBuf)>> = const { RefCell::new(Vec::new()) };
    /// The app's context, to wake it when a file comes.
    static CONTEXT: RefCell<Option<egui::Context>> = const { RefCell::new(None) };
    /// The shipped games database's download.
    static SHIPPED_DATABASE: RefCell<Download> = const { RefCell::new(Download::NotStarted) };
}

/// Runs `task` at once: the page has no threads (the jobs are short or report as they go).
pub fn spawn_task(_name: &str, task: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    task();
    Ok(())
}

/// One core (an engine's worker runs one search thread: a wasm module without shared
/// memory has no threads) and a memory cap a wasm32 module can hold (4 GB at most; the
/// engine's tables stay far below).
pub fn machine() -> Machine {
    Machine {
        cores: 1,
        memory: Some(1 << 30),
    }
}

/// The settings and the game in progress: `localStorage` keys named as the desktop's
/// files are.
pub fn data_paths() -> Option<(PathBuf, PathBuf)> {
    let root = Path::new(STORAGE_ROOT);
    Some((root.join("settings.json"), root.join("current-game.json")))
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn is_stored(path: &Path) -> bool {
    path.starts_with(STORAGE_ROOT)
}

fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn not_found(path: &Path) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::NotFound,
        format!("{} is not kept in this browser", path.display()),
    )
}

/// What is kept at `path`: in `localStorage`, or a file opened this session.
fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    if is_stored(path) {
        let store = storage().ok_or_else(|| std::io::Error::other("no localStorage"))?;
        return match store.get_item(&key(path)) {
            Ok(Some(text)) => Ok(text.into_bytes()),
            Ok(None) => Err(not_found(path)),
            Err(_) => Err(std::io::Error::other("localStorage cannot be read")),
        };
    }
    OPENED
        .with(|o| o.borrow().get(path).cloned())
        .ok_or_else(|| not_found(path))
}

/// The shipped games database's bytes, once the page has downloaded them: `None` until
/// then (the first call starts the download; `ctx` is woken when it ends). A failed
/// download is said once; the next call tries again.
pub fn shipped_database(ctx: &egui::Context) -> Option<Result<&'static [u8], String>> {
    SHIPPED_DATABASE.with_borrow_mut(|download| {
        match download {
            Download::Done(Ok(bytes)) => return Some(Ok(*bytes)),
            Download::Running => return None,
            Download::Done(Err(_)) | Download::NotStarted => {}
        }
        if let Download::Done(Err(e)) = std::mem::replace(download, Download::NotStarted) {
            return Some(Err(e));
        }
        *download = Download::Running;
        let ctx = ctx.clone();
        wasm_bindgen_futures::spawn_local(async move {
            // Kept for the session, as the desktop's is in its program: a reload of the
            // player's folders reads it again.
            let done = fetch_bytes(SHIPPED_DATABASE_URL)
                .await
                .map(|bytes| &*Box::leak(bytes.into_boxed_slice()))
                .map_err(|e| {
                    format!(
                        "the games database ({SHIPPED_DATABASE_URL}) could not be downloaded: {e}"
                    )
                });
            SHIPPED_DATABASE.with_borrow_mut(|download| *download = Download::Done(done));
            ctx.request_repaint();
        });
        None
    })
}

/// The bytes at `url` (relative to the page).
async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| js_error(&e))?;
    // The `Response` read through `Reflect`: web-sys's `Response` binding is a feature
    // that eframe does not turn on, and turning it on here rebuilds eframe.
    let field = |name: &str| {
        js_sys::Reflect::get(&response, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
    };
    if field("ok").as_bool() != Some(true) {
        return Err(format!("HTTP {}", field("status").as_f64().unwrap_or(0.0)));
    }
    let array_buffer: js_sys::Function = field("arrayBuffer")
        .dyn_into()
        .map_err(|_| "the answer has no body".to_string())?;
    let promise: js_sys::Promise = array_buffer
        .call0(&response)
        .map_err(|e| js_error(&e))?
        .dyn_into()
        .map_err(|_| "the answer's body cannot be read".to_string())?;
    let buffer = JsFuture::from(promise).await.map_err(|e| js_error(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// What a JavaScript exception says.
fn js_error(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// A position shared by the page's address (`index.html#board=` and a board string as
/// the script format writes it, `_` or `%20` for its space): opened as a file the
/// player picked is, then taken off the address, so that a reload keeps the game played
/// from it. A bad board is the same error a bad file is.
fn open_shared_position() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let Ok(hash) = location.hash() else {
        return;
    };
    let Some(encoded) = hash.strip_prefix("#board=") else {
        return;
    };
    let board = js_sys::decode_uri_component(encoded)
        .map(String::from)
        .unwrap_or_else(|_| encoded.to_string())
        .replace('_', " ");
    let path = PathBuf::from(SHARED_POSITION);
    OPENED.with(|o| o.borrow_mut().insert(path.clone(), board.into_bytes()));
    PICKED.with(|p| p.borrow_mut().push((DialogKind::OpenGame, path)));
    // (An empty fragment: the page is not loaded again.)
    let _ = location.set_hash("");
}

/// The player's own folder: none in the browser, whose downloads go where it puts them.
pub fn documents_folder() -> Option<PathBuf> {
    None
}

/// Reads at most `limit` bytes kept at `path`.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let io = |reason| ReadError::Io {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = read_bytes(path).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// Keeps `bytes` at `path`: in `localStorage` (as text), else downloads them as a file
/// of that name.
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if is_stored(path) {
        let text = std::str::from_utf8(bytes).map_err(std::io::Error::other)?;
        let store = storage().ok_or_else(|| std::io::Error::other("no localStorage"))?;
        return store
            .set_item(&key(path), text)
            .map_err(|_| std::io::Error::other("the browser's storage is full or refused"));
    }
    download(path, bytes)
}

/// Offers `bytes` as a download named as `path`'s file name.
fn download(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let fail = |what: &str| std::io::Error::other(format!("cannot download: {what}"));
    let name = path
        .file_name()
        .map_or("okapi.txt".into(), |n| n.to_string_lossy());
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| fail("no document"))?;
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(|_| fail("blob"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("url"))?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| fail("link"))?
        .unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(&name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Nothing to make: `localStorage` has no folders.
pub fn make_folder_of(_path: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Whether something is kept at `path`.
pub fn exists(path: &Path) -> bool {
    read_bytes(path).is_ok()
}

/// Moves what is kept at `from` to `to` (a damaged game set aside).
pub fn rename(from: &Path, to: &Path) -> std::io::Result<()> {
    let bytes = read_bytes(from)?;
    write_file(to, &bytes)?;
    if let Some(store) = storage() {
        let _ = store.remove_item(&key(from));
    }
    Ok(())
}

/// Reads the game kept at `path`, in whichever format it is, with what its reader left
/// out.
pub fn load_game(
    path: &Path,
) -> Result<(Game, Vec<okapi_core::formats::ReadWarning>), GameFileError> {
    let bytes = read_file(path, okapi_core::formats::MAX_GAME_FILE)?;
    okapi_core::formats::read_any_warned(&String::from_utf8_lossy(&bytes))
        .map(|(contents, warnings)| (contents.into_game(), warnings))
}

/// Keeps `game` at `path` (storage or a download), in the format its extension names.
pub fn save_game(game: &Game, path: &Path) -> std::io::Result<()> {
    let text = okapi_core::formats::write_game(game, Format::of_path(path));
    write_file(path, text.as_bytes())
}

/// The autosave of the game in progress kept at `path` (`localStorage`), with where
/// that game is saved.
pub fn load_game_in_progress(path: &Path) -> Result<(Game, SavedState), GameFileError> {
    let bytes = read_file(path, okapi_core::formats::MAX_GAME_FILE)?;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(GameFileError::Empty);
    }
    Ok(okapi_core::formats::okapi_json::read_with_state(text)?)
}

/// Keeps the autosave of the game in progress at `path` (`localStorage`).
pub fn save_game_in_progress(game: &Game, state: &SavedState, path: &Path) -> std::io::Result<()> {
    let text = okapi_core::formats::okapi_json::write_with_state(game, state);
    write_file(path, text.as_bytes())
}

/// The practice cards kept at `path` (`localStorage`).
pub fn open_practice(path: &Path) -> Opened {
    let (store, notice) = match read_bytes(path) {
        Err(_) => (Store::default(), None),
        Ok(bytes) => match Store::from_json(&String::from_utf8_lossy(&bytes)) {
            Ok((store, _)) => (store, None),
            Err(e) => (
                Store::default(),
                Some(format!(
                    "Your practice kept in this browser cannot be read ({e})."
                )),
            ),
        },
    };
    Opened {
        store,
        notice,
        writable: true,
        stamp: FileStamp::default(),
    }
}

/// Keeps the practice cards at `path` (`localStorage`; one page writes it).
pub fn save_practice(
    store: &mut Store,
    path: &Path,
    _stamp: &mut FileStamp,
) -> std::io::Result<()> {
    write_file(path, store.to_json().as_bytes())
}

/// Puts `text` on the page's clipboard (where the browser allows it).
pub fn copy_text(ctx: &egui::Context, text: String) {
    ctx.copy_text(text);
}

/// A page cannot read the clipboard when asked: the text comes with the keyboard's paste.
pub fn request_paste(_ctx: &egui::Context) -> Option<&'static str> {
    Some("To paste in the browser, press Ctrl+V (⌘V on a Mac).")
}

/// A page does not close itself: no Quit.
pub const CAN_QUIT: bool = false;

/// A page has no folder picker and no files to read from a folder: no folder of games
/// as a source (practice, the games database).
pub const CAN_PICK_FOLDER: bool = false;

/// Nothing to close: the tab is the player's.
pub fn close_window(_ctx: &egui::Context) {}

/// Nothing to keep open.
pub fn cancel_close(_ctx: &egui::Context) {}

/// The page is the window: it has no place or size of its own.
pub fn place_window(_ctx: &egui::Context, _position: egui::Pos2, _size: egui::Vec2) {}

/// The page's icon is its own (`icon.png`).
pub fn with_icon(viewport: egui::ViewportBuilder) -> egui::ViewportBuilder {
    viewport
}

/// In the page the app starts from [`start_in_canvas`]; no window to open.
pub fn run_window(
    _viewport: egui::ViewportBuilder,
    _creator: impl Fn() -> eframe::AppCreator<'static>,
) -> Result<(), Vec<String>> {
    Err(vec![
        "the browser has no windows: the app starts in its page".into(),
    ])
}

/// Says why the app did not start, in the page's console.
pub fn show_failure(title: &str, message: &str) {
    web_sys::console::error_1(&format!("{title}: {message}").into());
}

/// A file the player picked in the page, and in which dialog, once it has come.
pub fn take_picked_file() -> Option<(DialogKind, PathBuf)> {
    PICKED.with(|p| p.borrow_mut().pop())
}

/// The page's file picker and downloads.
#[derive(Default)]
pub struct NativeDialogs;

impl NativeDialogs {
    /// Shows the page's file picker; the file comes later ([`take_picked_file`]).
    fn pick(kind: DialogKind, accept: &str) {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(input) = document.create_element("input") else {
            return;
        };
        let input: web_sys::HtmlInputElement = input.unchecked_into();
        input.set_type("file");
        input.set_accept(accept);
        let chosen = input.clone();
        let on_change = Closure::once_into_js(move || {
            let Some(file) = chosen.files().and_then(|f| f.get(0)) else {
                return;
            };
            wasm_bindgen_futures::spawn_local(async move {
                let Ok(buffer) = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await
                else {
                    return;
                };
                let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                let path = PathBuf::from(file.name());
                OPENED.with(|o| o.borrow_mut().insert(path.clone(), bytes));
                PICKED.with(|p| p.borrow_mut().push((kind, path)));
                CONTEXT.with(|c| {
                    if let Some(ctx) = &*c.borrow() {
                        ctx.request_repaint();
                    }
                });
            });
        });
        input.set_onchange(Some(on_change.unchecked_ref()));
        input.click();
    }
}

impl FileDialogs for NativeDialogs {
    fn open_game(&mut self) -> Option<PathBuf> {
        Self::pick(DialogKind::OpenGame, ".json,.ggf,.txt,.trn");
        None
    }

    fn save_game(&mut self, suggested_name: &str) -> Option<PathBuf> {
        Some(PathBuf::from(suggested_name))
    }

    fn open_script(&mut self) -> Option<PathBuf> {
        Self::pick(DialogKind::OpenScript, ".scr,.obf,.txt");
        None
    }

    fn save_script_result(&mut self, suggested_name: &str) -> Option<PathBuf> {
        Some(PathBuf::from(suggested_name))
    }

    fn take_failure(&mut self) -> Option<DialogFailure> {
        None
    }

    fn start_in(&mut self, _folder: Option<&Path>) {}
}

/// Starts the app `creator` builds on the page's canvas (eframe's web runner): the
/// settings, the game in progress and practice from `localStorage`, as the desktop's
/// from its files; a position in the page's address is opened on the first frame.
pub async fn start_in_canvas(
    canvas: web_sys::HtmlCanvasElement,
    creator: eframe::AppCreator<'static>,
) -> Result<(), JsValue> {
    open_shared_position();
    let creator: eframe::AppCreator<'static> = Box::new(move |cc| {
        keep_context(&cc.egui_ctx);
        creator(cc)
    });
    eframe::WebRunner::new()
        .start(canvas, eframe::WebOptions::default(), creator)
        .await
}

/// Remembers the app's context, to wake it when a picked file comes.
fn keep_context(ctx: &egui::Context) {
    CONTEXT.with(|c| *c.borrow_mut() = Some(ctx.clone()));
}
