//! The page's side effects, as hooks at the edge of the view: the worker pool, the built-in
//! networks, the search that follows the game, and the saved game. The components only
//! draw; these talk to the workers, the network and local storage.

mod review;

pub use review::{review_callbacks, review_unavailable, use_review_follows_game};

use crate::page::graph::Estimates;
use crate::page::levels::{analysis, worker_count};
use crate::page::models::{builtin_for, default_card, strength_line, BuiltinModel};
use crate::page::persist::{self, Settings, STORAGE_KEY};
use crate::page::pool::{Pool, PoolEvent, Purpose};
use crate::page::records::{games_from_ggf, is_ggf, RecordGame};
use crate::page::review::Reviews;
use crate::page::state::{
    apply, browse_target, game_from_board_text, game_from_transcript, Action, GameState, Seats,
};
use crate::page::view::{Download, ModelStatus, View, ViewAction};
use crate::protocol::WireBudget;
use engine::network::ModelCard;
use engine::PlayerSpec;
use othello::{BoardSize, Color, Position, Variant};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Deref;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

/// The game as a reducer's state: the rules crate's [`GameState`], changed by [`Action`]s,
/// and the move the person is looking at when the game cannot stop there.
#[derive(Clone, Debug, PartialEq)]
pub struct GameModel {
    pub state: GameState,
    /// The ply the board shows instead of the game's position (see
    /// [`crate::page::state::browse_target`]); any other action ends it.
    pub browsing: Option<usize>,
}

impl GameModel {
    pub fn new(state: GameState) -> GameModel {
        GameModel {
            state,
            browsing: None,
        }
    }
}

impl Deref for GameModel {
    type Target = GameState;

    fn deref(&self) -> &GameState {
        &self.state
    }
}

impl Reducible for GameModel {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let asked = match action {
            Action::GoTo(ply) => Some(ply),
            _ => None,
        };
        let state = apply(&self.state, action);
        let browsing = asked.and_then(|ply| browse_target(&state, ply));
        if state == self.state && browsing == self.browsing {
            self
        } else {
            Rc::new(GameModel { state, browsing })
        }
    }
}

impl Reducible for View {
    type Action = ViewAction;

    fn reduce(self: Rc<Self>, action: ViewAction) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// The pool once started; empty for the first render.
pub type PoolHandle = Rc<RefCell<Option<Rc<RefCell<Pool>>>>>;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The saved game, settings, graph and review, or a new game as Black.
pub fn load_saved() -> persist::Restored {
    storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .and_then(|text| persist::load(&text).ok())
        .unwrap_or_else(|| {
            (
                GameState::new(
                    Position::start(BoardSize::Eight, Variant::Standard),
                    Seats::Human(Color::Black),
                ),
                Settings::default(),
                Estimates::default(),
                Reviews::default(),
            )
        })
}

/// Saves the game, the settings, the graph and the review after every change.
#[hook]
pub fn use_persistence(
    game: &GameModel,
    settings: &Settings,
    estimates: &Estimates,
    reviews: &Reviews,
) {
    use_effect_with(
        (
            game.state.clone(),
            settings.clone(),
            estimates.clone(),
            reviews.clone(),
        ),
        |(game, settings, estimates, reviews)| {
            if let Some(s) = storage() {
                let text = persist::save(game, settings, estimates, reviews);
                let _ = s.set_item(STORAGE_KEY, &text);
            }
        },
    );
}

/// Starts the worker pool once. Its events update the view; a finished move search plays
/// its move (the reducer drops it if the game has moved on).
#[hook]
pub fn use_pool(
    view: UseReducerDispatcher<View>,
    game: UseReducerDispatcher<GameModel>,
) -> PoolHandle {
    let pool: PoolHandle = use_mut_ref(|| None);
    {
        let pool = pool.clone();
        use_effect_with((), move |_| {
            let cores = web_sys::window()
                .map(|w| w.navigator().hardware_concurrency())
                .unwrap_or(1.0);
            let p = Pool::new(worker_count(cores), move |event| {
                if let PoolEvent::Done {
                    purpose: Purpose::Move,
                    position,
                    merged,
                } = &event
                {
                    match merged.best_move() {
                        Some(mv) => game.dispatch(Action::AgentMove {
                            position: *position,
                            mv,
                        }),
                        None => view.dispatch(ViewAction::Message(Some(
                            "The agent's search named no move; undo or start a new game".to_owned(),
                        ))),
                    }
                }
                let done = matches!(event, PoolEvent::Done { .. });
                view.dispatch(ViewAction::Pool(event));
                if done {
                    view.dispatch(ViewAction::Stopped);
                }
            });
            *pool.borrow_mut() = Some(p);
            // Test hooks: the end-to-end tests crash a worker and read the pool size.
            install_test_hooks(pool.clone());
        });
    }
    pool
}

/// The shipped networks fetched so far, by name: the ONNX bytes and the card.
type Fetched = Rc<RefCell<HashMap<String, (Rc<Vec<u8>>, String)>>>;

/// Fetches the board's default shipped network once and sends it to the workers. Returns a
/// callback that loads any shipped network (another learner's, or the default again after
/// a network of one's own), fetching its files the first time.
#[hook]
pub fn use_builtin_model(
    pool: PoolHandle,
    view: UseReducerHandle<View>,
    size: BoardSize,
    variant: Variant,
) -> Callback<&'static BuiltinModel> {
    let fetched: Fetched = use_mut_ref(HashMap::new);
    let load = {
        let (pool, view) = (pool.clone(), view.dispatcher());
        Callback::from(move |model: &'static BuiltinModel| {
            load_builtin(model, pool.clone(), fetched.clone(), view.clone());
        })
    };
    {
        let load = load.clone();
        use_effect_with((size, variant), move |&(size, variant)| {
            if let Some(model) = builtin_for(size, variant) {
                if view.model(size, variant).is_none() {
                    load.emit(model);
                }
            }
        });
    }
    load
}

fn load_builtin(
    model: &'static BuiltinModel,
    pool: PoolHandle,
    fetched: Fetched,
    view: UseReducerDispatcher<View>,
) {
    let name = model.name().to_owned();
    let (size, variant) = (model.size, model.variant);
    let send = move |pool: &PoolHandle, onnx: Rc<Vec<u8>>, card: String| {
        if let Some(p) = pool.borrow().as_ref() {
            p.borrow_mut()
                .load_model(model.name().to_owned(), size, variant, onnx, card);
        }
    };
    let cached = fetched.borrow().get(&name).cloned();
    if let Some((onnx, card)) = cached {
        view.dispatch(ViewAction::Message(None));
        send(&pool, onnx, card);
        return;
    }
    view.dispatch(ViewAction::Model(
        size,
        variant,
        ModelStatus::Loading(name.clone()),
    ));
    spawn_local(async move {
        let files = async {
            let progress = |received: u64, total: Option<u64>| {
                view.dispatch(ViewAction::Downloading(Download {
                    name: name.clone(),
                    received,
                    total,
                }));
            };
            let onnx = fetch_with_progress(&model.onnx_path(), progress).await?;
            let card = fetch_bytes(&model.card_path()).await?;
            let card =
                String::from_utf8(card).map_err(|_| "the model card is not UTF-8".to_owned())?;
            Ok::<_, String>((onnx, card))
        };
        match files.await {
            Ok((onnx, card)) => {
                if let Some(line) = strength_line(&card) {
                    view.dispatch(ViewAction::Strength(name.clone(), line));
                }
                let onnx = Rc::new(onnx);
                fetched
                    .borrow_mut()
                    .insert(name, (onnx.clone(), card.clone()));
                send(&pool, onnx, card);
            }
            Err(error) => {
                view.dispatch(ViewAction::Model(size, variant, ModelStatus::Failed(error)));
            }
        }
    });
}

/// What the page wants searched now.
#[derive(Clone, PartialEq)]
pub struct SearchWanted {
    pub position: Position,
    pub agent_turn: bool,
    pub analysing: bool,
    pub budget: WireBudget,
    /// Who thinks; `None` while the board's network is still loading.
    pub player: Option<PlayerSpec>,
    /// A pause before the agent's move starts (agent against agent, to follow the game).
    pub delay_ms: u32,
}

/// Starts or stops the search whenever the game, the seats, the budget or the player for
/// this board change.
#[hook]
pub fn use_search_driver(pool: PoolHandle, view: UseReducerHandle<View>, wanted: SearchWanted) {
    use_effect_with(wanted, move |wanted| {
        let Some(pool_rc) = pool.borrow().clone() else {
            return Box::new(|| ()) as Box<dyn FnOnce()>;
        };
        let mut pool = pool_rc.borrow_mut();
        let pos = wanted.position;
        let hash = pos.hash();
        let search = match (wanted.agent_turn, wanted.analysing, &wanted.player) {
            (true, _, Some(player)) => Some((Purpose::Move, wanted.budget, player.clone())),
            (false, true, Some(player)) => {
                let (budget, player) = analysis(player, wanted.budget);
                Some((Purpose::Analysis, budget, player))
            }
            _ => None,
        };
        match search {
            Some((Purpose::Move, budget, player)) if wanted.delay_ms > 0 => {
                drop(pool);
                let handle = pool_rc.clone();
                let timer = gloo_timers::callback::Timeout::new(wanted.delay_ms, move || {
                    handle
                        .borrow_mut()
                        .search(Purpose::Move, &pos, budget, player);
                    view.dispatch(ViewAction::Started(Purpose::Move, hash, pos.side_to_move()));
                });
                // A change (pause, undo, a new game) before it fires cancels it.
                return Box::new(move || drop(timer)) as Box<dyn FnOnce()>;
            }
            Some((purpose, budget, player)) => {
                pool.search(purpose, &pos, budget, player);
                view.dispatch(ViewAction::Started(purpose, hash, pos.side_to_move()));
            }
            None => {
                // A hint for this position may keep running.
                if pool
                    .searching()
                    .is_some_and(|(p, h)| !(p == Purpose::Hint && h == hash))
                {
                    pool.stop();
                    view.dispatch(ViewAction::Stopped);
                }
            }
        }
        Box::new(|| ()) as Box<dyn FnOnce()>
    });
}

/// What the loaders hand the page: load a pasted transcript or record (the seats stay),
/// load a position from board text (analysis), and the games of a record that holds
/// several, waiting for the person to pick one (`on_pick`: that game, or `None` to load
/// none).
#[derive(Clone, PartialEq)]
pub struct Loaders {
    pub transcript: Callback<String>,
    pub board: Callback<String>,
    pub choices: Option<Rc<Vec<RecordGame>>>,
    pub on_pick: Callback<Option<usize>>,
}

/// The loaders, which say what is wrong with a text they cannot load.
#[hook]
pub fn use_loaders(
    game: UseReducerHandle<GameModel>,
    view: UseReducerDispatcher<View>,
    size: BoardSize,
    variant: Variant,
) -> Loaders {
    let choices = use_state(|| None::<Rc<Vec<RecordGame>>>);
    let seats = game.seats;
    let dispatch = game.dispatcher();
    let notes = view.clone();
    let load = move |parsed: Result<(othello::Game, Seats), String>, what: &str| match parsed {
        Ok((loaded, seats)) => {
            view.dispatch(ViewAction::Message(None));
            dispatch.dispatch(Action::Load {
                game: loaded,
                seats,
            });
        }
        Err(e) => view.dispatch(ViewAction::Message(Some(format!("Cannot {what}: {e}")))),
    };
    let transcript = {
        let (load, choices) = (load.clone(), choices.clone());
        Callback::from(move |text: String| {
            choices.set(None);
            // One box takes both: a GGF record opens with "(;", a transcript never does.
            if !is_ggf(&text) {
                let parsed = game_from_transcript(&text, size, variant).map(|g| (g, seats));
                load(parsed, "load the transcript");
                return;
            }
            match games_from_ggf(&text) {
                // A file of several games (a GGS archive): the person picks one.
                Ok(games) if games.len() > 1 => {
                    notes.dispatch(ViewAction::Message(None));
                    choices.set(Some(Rc::new(games)));
                }
                Ok(games) => {
                    let first = games.into_iter().next().map(|g| (g.game, seats));
                    load(
                        first.ok_or_else(|| "the file holds no game".to_owned()),
                        "load the game record",
                    );
                }
                Err(e) => load(Err(e), "load the game record"),
            }
        })
    };
    let on_pick = {
        let (load, choices) = (load.clone(), choices.clone());
        Callback::from(move |pick: Option<usize>| {
            let chosen = pick.and_then(|i| choices.as_ref().and_then(|games| games.get(i)));
            if let Some(record) = chosen {
                load(Ok((record.game.clone(), seats)), "load the game record");
            }
            choices.set(None);
        })
    };
    let board = Callback::from(move |text: String| {
        let parsed = game_from_board_text(&text, variant).map(|g| (g, Seats::Analysis));
        load(parsed, "read the board text");
    });
    Loaders {
        transcript,
        board,
        choices: (*choices).clone(),
        on_pick,
    }
}

/// Fetches `url` chunk by chunk, telling `progress` the bytes received so far and the
/// whole size when the response's length is the file's (not for a compressed transfer).
async fn fetch_with_progress(
    url: &str,
    progress: impl Fn(u64, Option<u64>),
) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("cannot fetch {url}: {e:?}"))?
        .dyn_into()
        .map_err(|_| format!("cannot fetch {url}"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let header = |name: &str| response.headers().get(name).ok().flatten();
    let total = header("content-length")
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|_| header("content-encoding").is_none());
    let Some(body) = response.body() else {
        return fetch_bytes(url).await;
    };
    let reader: web_sys::ReadableStreamDefaultReader = body
        .get_reader()
        .dyn_into()
        .map_err(|_| format!("cannot read {url}"))?;
    let mut bytes = Vec::new();
    progress(0, total);
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("cannot read {url}: {e:?}"))?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .map(|d| d.is_truthy())
            .unwrap_or(true);
        if done {
            break;
        }
        let value = js_sys::Reflect::get(&chunk, &"value".into())
            .map_err(|e| format!("cannot read {url}: {e:?}"))?;
        bytes.extend(js_sys::Uint8Array::new(&value).to_vec());
        progress(bytes.len() as u64, total);
    }
    Ok(bytes)
}

async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| format!("cannot fetch {url}: {e:?}"))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("cannot fetch {url}"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(
        response
            .array_buffer()
            .map_err(|e| format!("cannot read {url}: {e:?}"))?,
    )
    .await
    .map_err(|e| format!("cannot read {url}: {e:?}"))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads a GGF file a person opened and hands its text to `on_text` (the loader, which
/// checks it); a file that is not text is refused here.
pub fn open_record(
    file: web_sys::File,
    on_text: Callback<String>,
    view: UseReducerDispatcher<View>,
) {
    spawn_local(async move {
        let text = read_file(&file).await.and_then(|bytes| {
            String::from_utf8(bytes).map_err(|_| format!("{} is not a text file", file.name()))
        });
        match text {
            Ok(text) if is_ggf(&text) => on_text.emit(text),
            Ok(_) => view.dispatch(ViewAction::Message(Some(format!(
                "Cannot load the game record: {} holds no GGF game (a record starts with \"(;\")",
                file.name()
            )))),
            Err(e) => view.dispatch(ViewAction::Message(Some(format!(
                "Cannot load the game record: {e}"
            )))),
        }
    });
}

async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("cannot read {}: {e:?}", file.name()))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads a person's network (an `.onnx`, perhaps with its card) and sends it to the
/// workers, which check it; the answer reaches the view as a pool event.
pub fn upload_model(
    files: Vec<web_sys::File>,
    pool: PoolHandle,
    view: UseReducerDispatcher<View>,
    size: BoardSize,
    variant: Variant,
) {
    spawn_local(async move {
        let result = async {
            let onnx_file = files
                .iter()
                .find(|f| f.name().to_lowercase().ends_with(".onnx"))
                .ok_or("pick an .onnx file (and, optionally, its .json card)")?;
            let card_file = files
                .iter()
                .find(|f| f.name().to_lowercase().ends_with(".json"));
            // A player spec names the network: no commas in the name.
            let stem = onnx_file.name().trim_end_matches(".onnx").replace(',', " ");
            let name = format!("{stem} (yours)");
            let onnx = read_file(onnx_file).await?;
            let card = match card_file {
                Some(f) => String::from_utf8(read_file(f).await?)
                    .map_err(|_| "the model card is not UTF-8".to_owned())?,
                None => default_card(&name, size, variant),
            };
            let bad_card = |e: engine::network::CardError| {
                format!("its model card is not valid (details: {e})")
            };
            let parsed = ModelCard::from_json(&card).map_err(bad_card)?;
            let board = parsed.board().map_err(bad_card)?;
            let model_variant = parsed.variant().map_err(bad_card)?;
            Ok::<_, String>((name, board, model_variant, onnx, card))
        };
        match result.await {
            Ok((name, board, model_variant, onnx, card)) => {
                view.dispatch(ViewAction::Message(Some(format!("Checking {name}…"))));
                if let Some(line) = strength_line(&card) {
                    view.dispatch(ViewAction::Strength(name.clone(), line));
                }
                if let Some(p) = pool.borrow().as_ref() {
                    p.borrow_mut()
                        .load_model(name, board, model_variant, Rc::new(onnx), card);
                }
            }
            Err(error) => view.dispatch(ViewAction::Message(Some(format!(
                "The network was not loaded: {error}"
            )))),
        }
    });
}

fn install_test_hooks(pool: PoolHandle) {
    use wasm_bindgen::closure::Closure;
    let pool_for_bench = pool.clone();
    let Some(window) = web_sys::window() else {
        return;
    };
    let crash = Closure::<dyn Fn(u32)>::new(move |index: u32| {
        if let Some(p) = pool.borrow().as_ref() {
            p.borrow_mut().crash_worker(index as usize);
        }
    });
    let _ = js_sys::Reflect::set(
        &window,
        &"othelloCrashWorker".into(),
        crash.as_ref().unchecked_ref(),
    );
    crash.forget();
    // othelloBenchNetwork(model, batch, millis, callback): the callback gets positions a
    // second through worker 0's network, or an error string.
    let bench = Closure::<dyn Fn(String, u32, u32, js_sys::Function)>::new(
        move |model: String, batch: u32, millis: u32, callback: js_sys::Function| {
            let answer = Box::new(move |result: Result<f64, String>| {
                let value = match result {
                    Ok(rate) => wasm_bindgen::JsValue::from_f64(rate),
                    Err(error) => wasm_bindgen::JsValue::from_str(&error),
                };
                let _ = callback.call1(&wasm_bindgen::JsValue::NULL, &value);
            });
            match pool_for_bench.borrow().as_ref() {
                Some(p) => p
                    .borrow_mut()
                    .bench_network(0, model, batch, millis, answer),
                None => answer(Err("the workers have not started".to_owned())),
            }
        },
    );
    let _ = js_sys::Reflect::set(
        &window,
        &"othelloBenchNetwork".into(),
        bench.as_ref().unchecked_ref(),
    );
    bench.forget();
}
