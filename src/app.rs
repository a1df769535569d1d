//! The Yew front end: a view of [`GameState`] plus what the search workers report. The
//! game changes only through the reducer; the worker pool is the one side effect.

use crate::levels::{worker_count, Difficulty, LEVELS};
use crate::merge::Merged;
use crate::models::{builtin_for, default_card, variant_name};
use crate::persist::{self, Settings, STORAGE_KEY};
use crate::pool::{Pool, PoolEvent, Purpose};
use crate::protocol::{EngineKind, WireBudget};
use crate::state::{game_from_board_text, game_from_transcript, Action, GameState, Players};
use engine::model_card::ModelCard;
use othello::{BoardSize, Color, Move, Square, Variant};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// Analysis keeps searching the position until the person moves (or this runs out).
const ANALYSIS_BUDGET: WireBudget = WireBudget {
    simulations: None,
    millis: Some(60_000),
};

impl Reducible for GameState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = self.apply(action);
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum ModelStatus {
    Loading(String),
    Ready(String),
    /// The network could not be used; alpha-beta plays instead.
    Failed(String),
}

#[derive(Clone, Debug, PartialEq)]
struct Heat {
    position: u64,
    purpose: Purpose,
    side: Color,
    merged: Merged,
    done: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct View {
    heat: Option<Heat>,
    /// The search running now: its purpose, position and side to move.
    searching: Option<(Purpose, u64, Color)>,
    hint: Option<(u64, Move)>,
    models: Vec<((BoardSize, Variant), ModelStatus)>,
    message: Option<String>,
    restarts: u32,
}

enum ViewAction {
    Started(Purpose, u64, Color),
    Stopped,
    Pool(PoolEvent),
    Model(BoardSize, Variant, ModelStatus),
    Message(Option<String>),
}

impl View {
    fn model(&self, size: BoardSize, variant: Variant) -> Option<&ModelStatus> {
        self.models
            .iter()
            .find(|(key, _)| *key == (size, variant))
            .map(|(_, s)| s)
    }

    fn set_model(&mut self, size: BoardSize, variant: Variant, status: ModelStatus) {
        self.models.retain(|(key, _)| *key != (size, variant));
        self.models.push(((size, variant), status));
    }

    /// Draws a report of the search running now; stale ones (from a search the page has
    /// since replaced) are dropped.
    fn show(&mut self, purpose: Purpose, position: u64, merged: Merged, done: bool) {
        let Some((_, _, side)) = self
            .searching
            .filter(|&(p, h, _)| p == purpose && h == position)
        else {
            return;
        };
        self.heat = Some(Heat {
            position,
            purpose,
            side,
            merged,
            done,
        });
    }

    /// What searches this board: `None` while its network is still loading.
    fn engine(&self, size: BoardSize, variant: Variant) -> Option<EngineKind> {
        match self.model(size, variant) {
            Some(ModelStatus::Ready(_)) => Some(EngineKind::Network),
            Some(ModelStatus::Loading(_)) => None,
            Some(ModelStatus::Failed(_)) => Some(EngineKind::AlphaBeta),
            None if builtin_for(size, variant).is_some() => None,
            None => Some(EngineKind::AlphaBeta),
        }
    }
}

impl Reducible for View {
    type Action = ViewAction;

    fn reduce(self: Rc<Self>, action: ViewAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            ViewAction::Started(purpose, hash, side) => {
                next.searching = Some((purpose, hash, side));
                if purpose == Purpose::Hint {
                    next.hint = None;
                }
            }
            ViewAction::Stopped => next.searching = None,
            ViewAction::Pool(event) => match event {
                PoolEvent::Progress {
                    purpose,
                    position,
                    merged,
                } => next.show(purpose, position, merged, false),
                PoolEvent::Done {
                    purpose,
                    position,
                    merged,
                } => {
                    if purpose == Purpose::Hint {
                        next.hint = merged.best_move().map(|mv| (position, mv));
                    }
                    next.show(purpose, position, merged, true);
                }
                PoolEvent::Failed {
                    size,
                    variant,
                    error,
                    ..
                } => {
                    next.searching = None;
                    // A network that fails to search is retired for its board: alpha-beta
                    // takes over and the game goes on.
                    if matches!(next.model(size, variant), Some(ModelStatus::Ready(_))) {
                        next.set_model(size, variant, ModelStatus::Failed(error.clone()));
                    }
                    next.message = Some(format!("The search failed: {error}"));
                }
                PoolEvent::ModelLoaded {
                    name,
                    size,
                    variant,
                } => {
                    next.set_model(size, variant, ModelStatus::Ready(name));
                }
                PoolEvent::ModelRejected { name, error } => {
                    next.message = Some(format!("The model {name} was rejected: {error}"));
                    // A built-in network that fails leaves its board to alpha-beta.
                    let loading: Vec<(BoardSize, Variant)> = next
                        .models
                        .iter()
                        .filter(|(_, s)| *s == ModelStatus::Loading(name.clone()))
                        .map(|(key, _)| *key)
                        .collect();
                    for (size, variant) in loading {
                        next.set_model(size, variant, ModelStatus::Failed(error.clone()));
                    }
                }
                PoolEvent::WorkerRestarted { .. } => next.restarts += 1,
            },
            ViewAction::Model(size, variant, status) => next.set_model(size, variant, status),
            ViewAction::Message(message) => next.message = message,
        }
        Rc::new(next)
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

fn load_saved() -> (GameState, Settings) {
    storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .and_then(|text| persist::load(&text).ok())
        .unwrap_or_else(|| {
            (
                GameState::new(
                    BoardSize::Eight,
                    Variant::Standard,
                    Players::Human(Color::Black),
                ),
                Settings::default(),
            )
        })
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

async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    let buffer = JsFuture::from(file.array_buffer())
        .await
        .map_err(|e| format!("cannot read {}: {e:?}", file.name()))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

type Shared<T> = Rc<RefCell<T>>;

fn focus_square(sq: Square) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("sq-{sq}")))
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let saved = use_memo((), |_| load_saved());
    let game = {
        let saved = saved.clone();
        use_reducer(move || saved.0.clone())
    };
    let settings = {
        let saved = saved.clone();
        use_state(move || saved.1.clone())
    };
    let view = use_reducer(View::default);
    let pool: Shared<Option<Rc<RefCell<Pool>>>> = use_mut_ref(|| None);
    let builtin_bytes: Shared<HashMap<String, Rc<Vec<u8>>>> = use_mut_ref(HashMap::new);
    let cursor = use_state(|| None::<Square>);

    let pos = *game.position();
    let size = pos.size();
    let variant = pos.variant();

    // The worker pool, started once. Its events update the view; a finished move search
    // plays the move (the reducer drops it if the game has moved on).
    {
        let pool = pool.clone();
        let view_dispatch = view.dispatcher();
        let game_dispatch = game.dispatcher();
        use_effect_with((), move |_| {
            let cores = web_sys::window()
                .map(|w| w.navigator().hardware_concurrency())
                .unwrap_or(1.0);
            let p = Pool::new(worker_count(cores), move |event| {
                if let PoolEvent::Done {
                    purpose,
                    position,
                    merged,
                } = &event
                {
                    match purpose {
                        Purpose::Move => match merged.best_move() {
                            Some(mv) => game_dispatch.dispatch(Action::AgentMove {
                                position: *position,
                                mv,
                            }),
                            None => view_dispatch.dispatch(ViewAction::Message(Some(
                                "The agent's search named no move; undo or start a new game"
                                    .to_owned(),
                            ))),
                        },
                        Purpose::Hint | Purpose::Analysis => {}
                    }
                    view_dispatch.dispatch(ViewAction::Pool(event.clone()));
                    view_dispatch.dispatch(ViewAction::Stopped);
                    return;
                }
                view_dispatch.dispatch(ViewAction::Pool(event));
            });
            *pool.borrow_mut() = Some(p);
            // Test hooks: the end-to-end tests crash a worker and read the pool size.
            install_test_hooks(pool.clone());
        });
    }

    // The shipped network for this board, fetched once.
    {
        let pool = pool.clone();
        let view = view.clone();
        let builtin_bytes = builtin_bytes.clone();
        use_effect_with((size, variant), move |&(size, variant)| {
            if let Some(model) = builtin_for(size, variant) {
                if view.model(size, variant).is_none() {
                    view.dispatch(ViewAction::Model(
                        size,
                        variant,
                        ModelStatus::Loading(model.name().to_owned()),
                    ));
                    let dispatch = view.dispatcher();
                    spawn_local(async move {
                        let files = async {
                            let onnx = fetch_bytes(&model.onnx_path()).await?;
                            let card = fetch_bytes(&model.card_path()).await?;
                            let card = String::from_utf8(card)
                                .map_err(|_| "the model card is not UTF-8".to_owned())?;
                            Ok::<_, String>((onnx, card))
                        };
                        match files.await {
                            Ok((onnx, card)) => {
                                let onnx = Rc::new(onnx);
                                builtin_bytes
                                    .borrow_mut()
                                    .insert(model.name().to_owned(), onnx.clone());
                                if let Some(p) = pool.borrow().as_ref() {
                                    p.borrow_mut().load_model(
                                        model.name().to_owned(),
                                        size,
                                        variant,
                                        onnx,
                                        card,
                                    );
                                }
                            }
                            Err(error) => dispatch.dispatch(ViewAction::Model(
                                size,
                                variant,
                                ModelStatus::Failed(error),
                            )),
                        }
                    });
                }
            }
        });
    }

    // Starts or stops the search whenever the game, the players, the budget or the
    // engine for this board change.
    let engine_choice = view.engine(size, variant);
    let budget = settings.difficulty.budget();
    let agent_turn = game.agent_to_move();
    let analysing = game.players == Players::Analysis && !pos.is_game_over();
    {
        let pool = pool.clone();
        let view = view.clone();
        use_effect_with(
            (pos, agent_turn, analysing, budget, engine_choice),
            move |&(pos, agent_turn, analysing, budget, engine_choice)| {
                let Some(pool) = pool.borrow().clone() else {
                    return;
                };
                let mut pool = pool.borrow_mut();
                let hash = pos.hash();
                let wanted = match (agent_turn, analysing, engine_choice) {
                    (true, _, Some(engine)) => Some((Purpose::Move, budget, engine)),
                    // Alpha-beta cannot be stopped halfway, so its analysis is short.
                    (false, true, Some(EngineKind::AlphaBeta)) => Some((
                        Purpose::Analysis,
                        WireBudget {
                            simulations: None,
                            millis: Some(2000),
                        },
                        EngineKind::AlphaBeta,
                    )),
                    (false, true, Some(engine)) => {
                        Some((Purpose::Analysis, ANALYSIS_BUDGET, engine))
                    }
                    _ => None,
                };
                match wanted {
                    Some((purpose, budget, engine)) => {
                        pool.search(purpose, &pos, budget, engine);
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
            },
        );
    }

    // Saves the game and the settings after every change.
    {
        let settings_now = (*settings).clone();
        use_effect_with(((*game).clone(), settings_now), |(game, settings)| {
            if let Some(s) = storage() {
                let _ = s.set_item(STORAGE_KEY, &persist::save(game, settings));
            }
        });
    }

    let n = size.n();
    let legal = if game.human_to_move() {
        pos.legal_moves()
    } else {
        Default::default()
    };
    let last = game.last_placement();
    let flips = game.last_flips();
    let flip_class = if game.game.moves().len() % 2 == 0 {
        "flip-a"
    } else {
        "flip-b"
    };
    let heat = view
        .heat
        .as_ref()
        .filter(|h| settings.heat_map && h.merged.engine == EngineKind::Network)
        .filter(|h| game.heat_visible(h.position));
    let hint = view
        .hint
        .filter(|(h, _)| *h == pos.hash())
        .and_then(|(_, mv)| mv.square());
    let focus = cursor.or(last).or_else(|| legal.into_iter().next());

    let cells = Square::all(size).map(|sq| {
        let is_legal = legal.contains(sq);
        let onclick = {
            let game = game.clone();
            Callback::from(move |_| game.dispatch(Action::Play(Move::Place(sq))))
        };
        let onfocus = {
            let cursor = cursor.clone();
            Callback::from(move |_| cursor.set(Some(sq)))
        };
        let color = pos.color_at(sq);
        let disc = color.map(|c| {
            let class = classes!(
                "disc",
                if c == Color::Black { "black" } else { "white" },
                flips.contains(sq).then_some(flip_class),
                (last == Some(sq)).then_some("placed"),
            );
            html! { <span class={class} aria-hidden="true"></span> }
        });
        let share = heat.and_then(|h| h.merged.share_of(Move::Place(sq)));
        let best = heat.and_then(|h| h.merged.best_move()) == Some(Move::Place(sq));
        let heat_overlay = share.map(|share| {
            let alpha = 0.15 + 0.75 * share.sqrt();
            let style = format!("background: rgba(255, 99, 32, {alpha:.2})");
            html! {
                <span class={classes!("heat", best.then_some("best"))} style={style} aria-hidden="true">
                    <span class="pct">{ format!("{:.0}%", share * 100.0) }</span>
                </span>
            }
        });
        // Column letters along the top row and row numbers down the left edge, so the
        // notation in the move list and the principal variation can be read off the board.
        let text = sq.to_string();
        let (letter, number) = text.split_at(1);
        let coords = [
            (sq.index() / 8 == 0).then(|| html! { <span class="coord top" aria-hidden="true">{ letter.to_owned() }</span> }),
            (sq.index() % 8 == 0).then(|| html! { <span class="coord left" aria-hidden="true">{ number.to_owned() }</span> }),
        ];
        let mut label = format!("{sq}: ");
        label.push_str(match color {
            Some(Color::Black) => "black",
            Some(Color::White) => "white",
            None if is_legal => "empty, legal move",
            None => "empty",
        });
        if last == Some(sq) {
            label.push_str(", last move");
        }
        if let Some(share) = share {
            label.push_str(&format!(", {:.0}% of the agent's visits", share * 100.0));
        }
        if hint == Some(sq) {
            label.push_str(", suggested move");
        }
        html! {
            <button
                id={format!("sq-{sq}")}
                class={classes!(
                    "cell",
                    is_legal.then_some("legal"),
                    (last == Some(sq)).then_some("last"),
                    (hint == Some(sq)).then_some("hint"),
                )}
                role="gridcell"
                aria-label={label}
                aria-disabled={(!is_legal).to_string()}
                tabindex={if focus == Some(sq) { "0" } else { "-1" }}
                data-square={sq.to_string()}
                {onclick}
                {onfocus}
            >{ for coords.into_iter().flatten() }{ for disc }{ for heat_overlay }</button>
        }
    });

    let onkeydown = {
        Callback::from(move |e: KeyboardEvent| {
            let Some(current) = focus else { return };
            let (col, row) = (current.index() % 8, current.index() / 8);
            let (dc, dr): (i32, i32) = match e.key().as_str() {
                "ArrowLeft" => (-1, 0),
                "ArrowRight" => (1, 0),
                "ArrowUp" => (0, -1),
                "ArrowDown" => (0, 1),
                _ => return,
            };
            e.prevent_default();
            let (c, r) = (col as i32 + dc, row as i32 + dr);
            if (0..n as i32).contains(&c) && (0..n as i32).contains(&r) {
                if let Some(sq) = Square::new(c as u8, r as u8) {
                    focus_square(sq);
                }
            }
        })
    };

    let count = pos.count();
    let you = match game.players {
        Players::Human(c) => Some(c),
        _ => None,
    };
    let status = match pos.outcome() {
        Some(outcome) => {
            let who = match (outcome.winner(), you) {
                (Some(w), Some(y)) if w == y => " You win!",
                (Some(_), Some(_)) => " The agent wins.",
                _ => "",
            };
            format!("Game over: {outcome}.{who}")
        }
        None => {
            let mover = side_name(pos.side_to_move());
            let pass = game
                .pass_notice()
                .map(|p| format!("{p}. "))
                .unwrap_or_default();
            if agent_turn && engine_choice.is_none() {
                format!("{pass}Loading the network…")
            } else if agent_turn {
                format!("{pass}{mover} (the agent) is thinking…")
            } else if game.players == Players::Analysis {
                format!("{pass}Analysis: {mover} to move")
            } else {
                format!("{pass}{mover} to move: your turn")
            }
        }
    };

    let model_line = match view.model(size, variant) {
        Some(ModelStatus::Loading(name)) => format!("Loading network {name}…"),
        Some(ModelStatus::Ready(name)) => format!("Network: {name}"),
        Some(ModelStatus::Failed(error)) => {
            format!("Network unavailable ({error}); the classic alpha-beta player plays instead")
        }
        None => format!(
            "No network for {size} {}; the classic alpha-beta player plays",
            variant_name(variant)
        ),
    };
    let ready = engine_choice.is_some();

    let search_panel = heat.map(|h| {
        let who = side_name(h.side);
        let pv: Vec<String> = h.merged.pv.iter().map(|m| m.to_string()).collect();
        let rate = h.merged.simulations_per_second();
        let workers = h.merged.per_worker_rate.len().max(1);
        html! {
            <div id="search-info" class="search-info"
                 data-simulations={h.merged.simulations.to_string()}
                 data-rate={format!("{rate:.0}")}
                 data-workers={workers.to_string()}
                 data-elapsed={format!("{:.0}", h.merged.elapsed_ms)}>
                <p>{ format!("Win estimate for {who}{}: {:.0}%", if h.done { "" } else { " (to move)" }, h.merged.win_probability() * 100.0) }</p>
                <p>{ format!("Principal variation: {}", if pv.is_empty() { "—".to_owned() } else { pv.join(" ") }) }</p>
                <p class="small">{ format!("{} simulations, {:.0}/s on {} worker{}", h.merged.simulations, rate, workers, if workers == 1 { "" } else { "s" }) }</p>
            </div>
        }
    });

    // Controls.
    let size_ref = use_node_ref();
    let variant_ref = use_node_ref();
    let players_ref = use_node_ref();
    let transcript_ref = use_node_ref();
    let board_ref = use_node_ref();
    let custom_ref = use_node_ref();
    let file_ref = use_node_ref();

    let new_game = {
        let game = game.clone();
        let view = view.clone();
        let (size_ref, variant_ref, players_ref) =
            (size_ref.clone(), variant_ref.clone(), players_ref.clone());
        Callback::from(move |_| {
            let value = |r: &NodeRef| {
                r.cast::<HtmlSelectElement>()
                    .map(|s| s.value())
                    .unwrap_or_default()
            };
            let size = if value(&size_ref) == "6" {
                BoardSize::Six
            } else {
                BoardSize::Eight
            };
            let variant = if value(&variant_ref) == "reversed" {
                Variant::Reversed
            } else {
                Variant::Standard
            };
            let players = match value(&players_ref).as_str() {
                "white" => Players::Human(Color::White),
                "watch" => Players::AgentVsAgent,
                "analysis" => Players::Analysis,
                _ => Players::Human(Color::Black),
            };
            view.dispatch(ViewAction::Message(None));
            game.dispatch(Action::NewGame {
                size,
                variant,
                players,
            });
        })
    };
    let simple = |action: Action| {
        let game = game.clone();
        Callback::from(move |_| game.dispatch(action.clone()))
    };
    let on_hint = {
        let pool = pool.clone();
        let view = view.clone();
        Callback::from(move |_| {
            if let (Some(p), Some(engine)) = (pool.borrow().as_ref(), engine_choice) {
                p.borrow_mut().search(Purpose::Hint, &pos, budget, engine);
                view.dispatch(ViewAction::Started(
                    Purpose::Hint,
                    pos.hash(),
                    pos.side_to_move(),
                ));
            }
        })
    };
    let on_toggle_heat = {
        let settings = settings.clone();
        Callback::from(move |_| {
            let mut s = (*settings).clone();
            s.heat_map = !s.heat_map;
            settings.set(s);
        })
    };
    let on_level = {
        let settings = settings.clone();
        let custom_ref = custom_ref.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            let custom = custom_ref
                .cast::<HtmlInputElement>()
                .and_then(|i| i.value().trim().parse::<u64>().ok())
                .unwrap_or(500);
            let difficulty = match value.as_str() {
                "custom-sims" => Difficulty::Simulations(custom),
                "custom-ms" => Difficulty::Millis(custom),
                id => Difficulty::Level(id.to_owned()),
            };
            settings.set(Settings {
                difficulty,
                ..(*settings).clone()
            });
        })
    };
    let on_custom = {
        let settings = settings.clone();
        Callback::from(move |e: Event| {
            let Ok(value) = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .trim()
                .parse::<u64>()
            else {
                return;
            };
            let difficulty = match settings.difficulty {
                Difficulty::Millis(_) => Difficulty::Millis(value),
                Difficulty::Simulations(_) => Difficulty::Simulations(value),
                Difficulty::Level(_) => return,
            };
            settings.set(Settings {
                difficulty,
                ..(*settings).clone()
            });
        })
    };
    let on_load_transcript = {
        let game = game.clone();
        let view = view.clone();
        let transcript_ref = transcript_ref.clone();
        Callback::from(move |_| {
            let text = transcript_ref
                .cast::<HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default();
            match game_from_transcript(&text, size, variant) {
                Ok(loaded) => {
                    view.dispatch(ViewAction::Message(None));
                    game.dispatch(Action::Load {
                        game: loaded,
                        players: game.players,
                    });
                }
                Err(e) => view.dispatch(ViewAction::Message(Some(format!(
                    "Cannot load the transcript: {e}"
                )))),
            }
        })
    };
    let on_load_board = {
        let game = game.clone();
        let view = view.clone();
        let board_ref = board_ref.clone();
        Callback::from(move |_| {
            let text = board_ref
                .cast::<HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default();
            match game_from_board_text(&text, variant) {
                Ok(loaded) => {
                    view.dispatch(ViewAction::Message(None));
                    game.dispatch(Action::Load {
                        game: loaded,
                        players: Players::Analysis,
                    });
                }
                Err(e) => view.dispatch(ViewAction::Message(Some(format!(
                    "Cannot read the board text: {e}"
                )))),
            }
        })
    };
    let on_upload = {
        let pool = pool.clone();
        let view = view.clone();
        let file_ref = file_ref.clone();
        Callback::from(move |_: Event| {
            let Some(input) = file_ref.cast::<HtmlInputElement>() else {
                return;
            };
            let Some(files) = input.files() else { return };
            let files: Vec<web_sys::File> =
                (0..files.length()).filter_map(|i| files.get(i)).collect();
            let pool = pool.clone();
            let dispatch = view.dispatcher();
            spawn_local(async move {
                let result = async {
                    let onnx_file = files
                        .iter()
                        .find(|f| f.name().to_lowercase().ends_with(".onnx"))
                        .ok_or("pick an .onnx file (and, optionally, its .json card)")?;
                    let card_file = files
                        .iter()
                        .find(|f| f.name().to_lowercase().ends_with(".json"));
                    let name = format!("{} (yours)", onnx_file.name().trim_end_matches(".onnx"));
                    let onnx = read_file(onnx_file).await?;
                    let card = match card_file {
                        Some(f) => String::from_utf8(read_file(f).await?)
                            .map_err(|_| "the model card is not UTF-8".to_owned())?,
                        None => default_card(&name, size, variant),
                    };
                    let parsed = ModelCard::from_json(&card).map_err(|e| e.to_string())?;
                    let board = parsed.board().map_err(|e| e.to_string())?;
                    let model_variant = parsed.variant().map_err(|e| e.to_string())?;
                    Ok::<_, String>((name, board, model_variant, onnx, card))
                };
                match result.await {
                    Ok((name, board, model_variant, onnx, card)) => {
                        dispatch.dispatch(ViewAction::Message(Some(format!("Checking {name}…"))));
                        if let Some(p) = pool.borrow().as_ref() {
                            p.borrow_mut().load_model(
                                name,
                                board,
                                model_variant,
                                Rc::new(onnx),
                                card,
                            );
                        }
                    }
                    Err(error) => dispatch.dispatch(ViewAction::Message(Some(format!(
                        "The model was rejected: {error}"
                    )))),
                }
            });
            input.set_value("");
        })
    };
    let on_builtin = {
        let pool = pool.clone();
        let builtin_bytes = builtin_bytes.clone();
        let view = view.clone();
        Callback::from(move |_| {
            let Some(model) = builtin_for(size, variant) else {
                return;
            };
            let bytes = builtin_bytes.borrow().get(model.name()).cloned();
            let card = default_card(model.name(), size, variant);
            if let (Some(p), Some(bytes)) = (pool.borrow().as_ref(), bytes) {
                view.dispatch(ViewAction::Message(None));
                p.borrow_mut()
                    .load_model(model.name().to_owned(), size, variant, bytes, card);
            }
        })
    };

    let level_value = match &settings.difficulty {
        Difficulty::Level(id) => id.clone(),
        Difficulty::Simulations(_) => "custom-sims".to_owned(),
        Difficulty::Millis(_) => "custom-ms".to_owned(),
    };
    let custom_value = match settings.difficulty {
        Difficulty::Simulations(n) | Difficulty::Millis(n) => n.to_string(),
        Difficulty::Level(_) => String::new(),
    };
    let custom_active = !matches!(settings.difficulty, Difficulty::Level(_));
    let players_value = match game.players {
        Players::Human(Color::Black) => "black",
        Players::Human(Color::White) => "white",
        Players::AgentVsAgent => "watch",
        Players::Analysis => "analysis",
    };
    let moves_text: Vec<Html> = game
        .game
        .moves()
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let text: Vec<String> = pair.iter().map(|m| m.to_string()).collect();
            html! { <li><span class="num">{ format!("{}.", i + 1) }</span>{ format!(" {}", text.join(" ")) }</li> }
        })
        .collect();
    let builtin_active = matches!(
        (view.model(size, variant), builtin_for(size, variant)),
        (Some(ModelStatus::Ready(name)), Some(m)) if name == m.name()
    );

    html! {
        <main data-ready={ready.to_string()} data-restarts={view.restarts.to_string()} data-workers={pool.borrow().as_ref().map_or(0, |p| p.borrow().worker_count()).to_string()}>
            <header>
                <h1>{ "Othello Zero" }</h1>
                <p class="model" id="model-status" aria-live="polite">{ model_line }</p>
            </header>
            <div class="layout">
                <section class="play" aria-label="Game">
                    <p class="counts" id="counts">
                        <span class="count black"><span class="disc black mini" aria-hidden="true"></span>{ format!("Black {}", count.black_discs) }</span>
                        <span class="count white"><span class="disc white mini" aria-hidden="true"></span>{ format!("White {}", count.white_discs) }</span>
                    </p>
                    <div class={classes!("board", format!("n{n}"))} role="grid" aria-label={format!("Othello board, {size}")}
                         id="board" {onkeydown}
                         style={format!("grid-template-columns: repeat({n}, 1fr)")}>
                        { for cells }
                    </div>
                    <p class="status" id="status" role="status" aria-live="polite">{ status }</p>
                    if let Some(message) = view.message.clone() {
                        <p class="message" id="message" role="alert">{ message }</p>
                    }
                    { for search_panel }
                    <div class="controls">
                        <button id="undo" onclick={simple(Action::Undo)}>{ "Undo" }</button>
                        <button id="redo" onclick={simple(Action::Redo)}>{ "Redo" }</button>
                        <button id="hint" onclick={on_hint} disabled={!game.human_to_move() || engine_choice.is_none()}>{ "Hint" }</button>
                        <label class="toggle">
                            <input id="heatmap" type="checkbox" checked={settings.heat_map} onchange={on_toggle_heat} />
                            { " Heat map" }
                        </label>
                    </div>
                </section>
                <aside class="side">
                    <fieldset>
                        <legend>{ "New game" }</legend>
                        <label>{ "Board " }
                            <select ref={size_ref} id="new-size">
                                <option value="8" selected={size == BoardSize::Eight}>{ "8x8" }</option>
                                <option value="6" selected={size == BoardSize::Six}>{ "6x6" }</option>
                            </select>
                        </label>
                        <label>{ "Rules " }
                            <select ref={variant_ref} id="new-variant">
                                <option value="standard" selected={variant == Variant::Standard}>{ "standard" }</option>
                                <option value="reversed" selected={variant == Variant::Reversed}>{ "reversed (fewest discs wins)" }</option>
                            </select>
                        </label>
                        <label>{ "You " }
                            <select ref={players_ref} id="new-players">
                                <option value="black" selected={players_value == "black"}>{ "play Black" }</option>
                                <option value="white" selected={players_value == "white"}>{ "play White" }</option>
                                <option value="watch" selected={players_value == "watch"}>{ "watch agent vs agent" }</option>
                                <option value="analysis" selected={players_value == "analysis"}>{ "analyse (move both sides)" }</option>
                            </select>
                        </label>
                        <button id="new-game" onclick={new_game}>{ "New game" }</button>
                    </fieldset>
                    <fieldset>
                        <legend>{ "Difficulty" }</legend>
                        <select id="level" aria-label="Difficulty" onchange={on_level}>
                            { for LEVELS.iter().map(|l| html! {
                                <option value={l.id} selected={level_value == l.id}>{ l.label }</option>
                            }) }
                            <option value="custom-sims" selected={level_value == "custom-sims"}>{ "Custom: simulations per move" }</option>
                            <option value="custom-ms" selected={level_value == "custom-ms"}>{ "Custom: milliseconds per move" }</option>
                        </select>
                        <input ref={custom_ref} id="custom-budget" type="number" min="1" aria-label="Custom budget"
                               value={custom_value} disabled={!custom_active} onchange={on_custom} />
                        <p class="small">{ settings.difficulty.describe() }</p>
                    </fieldset>
                    <fieldset>
                        <legend>{ "Moves" }</legend>
                        <ol class="moves" id="moves" aria-label="Move list">{ for moves_text }</ol>
                        <p class="small">{ "Transcript: " }<code id="transcript">{ game.game.transcript(false) }</code></p>
                        <textarea ref={transcript_ref} id="transcript-input" rows="2" aria-label="Transcript to load" placeholder="paste a transcript, e.g. f5d6c3d3c4" />
                        <button id="load-transcript" onclick={on_load_transcript}>{ "Load transcript" }</button>
                    </fieldset>
                    <fieldset>
                        <legend>{ "Analyse a position" }</legend>
                        <p class="small">{ "Board text: " }<code id="board-text">{ pos.to_board_text() }</code></p>
                        <textarea ref={board_ref} id="board-input" rows="2" aria-label="Board text to analyse" placeholder="64 (or 36) of X O -, a space, X or O to move" />
                        <button id="load-board" onclick={on_load_board}>{ "Analyse" }</button>
                    </fieldset>
                    <fieldset>
                        <legend>{ "Network" }</legend>
                        <label>{ "Load your own (.onnx, optional .json card): " }
                            <input ref={file_ref} id="model-file" type="file" accept=".onnx,.json" multiple=true onchange={on_upload} />
                        </label>
                        if builtin_for(size, variant).is_some() && !builtin_active {
                            <button id="use-builtin" onclick={on_builtin}>{ "Use the built-in network" }</button>
                        }
                    </fieldset>
                </aside>
            </div>
        </main>
    }
}

fn install_test_hooks(pool: Shared<Option<Rc<RefCell<Pool>>>>) {
    use wasm_bindgen::closure::Closure;
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
}
