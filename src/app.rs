//! The page: a small `App` that owns the game and view reducers and the settings, hands
//! data and callbacks to the components, and leaves the side effects to the hooks (as
//! Yew's `function_memory_game` example is written).

use crate::components::{
    AnalysisForm, Board, Controls, Counts, DifficultyPicker, MoveList, NetworkPanel, NewGame,
    SearchPanel,
};
use crate::hooks::{
    load_saved, upload_model, use_builtin_model, use_loaders, use_persistence, use_pool,
    use_search_driver, GameModel, SearchWanted,
};
use crate::levels::Difficulty;
use crate::models::builtin_for;
use crate::persist::Settings;
use crate::protocol::EngineKind;
use crate::state::{heat_visible, Action, Seats};
use crate::view::{model_line, status_line, ModelStatus, Purpose, View, ViewAction};
use othello::{Move, Square};
use yew::prelude::*;

#[function_component(App)]
pub fn app() -> Html {
    let saved = use_memo((), |_| load_saved());
    let game = use_reducer({
        let saved = saved.clone();
        move || GameModel(saved.0.clone())
    });
    let settings = use_state({
        let saved = saved.clone();
        move || saved.1.clone()
    });
    let view = use_reducer(View::default);
    let pool = use_pool(view.dispatcher(), game.dispatcher());
    let pos = *game.position();
    let (size, variant) = (pos.size(), pos.variant());
    let on_builtin = use_builtin_model(pool.clone(), view.clone(), size, variant);
    let player = view.player(size, variant);
    let budget = settings.difficulty.budget();
    use_search_driver(
        pool.clone(),
        view.clone(),
        SearchWanted {
            position: pos,
            agent_turn: game.agent_to_move(),
            analysing: game.seats == Seats::Analysis && !pos.is_game_over(),
            budget,
            player: player.clone(),
        },
    );
    use_persistence(&game, &settings);

    let dispatch = |action: Action| {
        let game = game.dispatcher();
        Callback::from(move |()| game.dispatch(action.clone()))
    };
    let message = |view: &UseReducerHandle<View>, text: Option<String>| {
        view.dispatch(ViewAction::Message(text))
    };
    let on_play = {
        let game = game.dispatcher();
        Callback::from(move |sq: Square| game.dispatch(Action::Play(Move::Place(sq))))
    };
    let on_new = {
        let (game, view) = (game.dispatcher(), view.clone());
        Callback::from(move |(size, variant, seats)| {
            message(&view, None);
            game.dispatch(Action::NewGame {
                size,
                variant,
                seats,
            });
        })
    };
    let on_difficulty = {
        let settings = settings.clone();
        Callback::from(move |difficulty: Difficulty| {
            settings.set(Settings {
                difficulty,
                ..(*settings).clone()
            })
        })
    };
    let on_toggle_heat = {
        let settings = settings.clone();
        Callback::from(move |()| {
            settings.set(Settings {
                heat_map: !settings.heat_map,
                ..(*settings).clone()
            })
        })
    };
    let on_hint = {
        let (pool, view, player) = (pool.clone(), view.clone(), player.clone());
        Callback::from(move |()| {
            if let (Some(p), Some(player)) = (pool.borrow().as_ref(), player.clone()) {
                p.borrow_mut().search(Purpose::Hint, &pos, budget, player);
                let started = ViewAction::Started(Purpose::Hint, pos.hash(), pos.side_to_move());
                view.dispatch(started);
            }
        })
    };
    let (on_load_transcript, on_load_board) =
        use_loaders(game.clone(), view.dispatcher(), size, variant);
    let on_upload = {
        let (pool, view) = (pool.clone(), view.dispatcher());
        Callback::from(move |files| upload_model(files, pool.clone(), view.clone(), size, variant))
    };
    let heat = view
        .heat
        .clone()
        .filter(|h| settings.heat_map && h.merged.engine == EngineKind::Network)
        .filter(|h| heat_visible(&game, h.position));
    let hint = view
        .hint
        .filter(|(h, _)| *h == pos.hash())
        .and_then(|(_, mv)| mv.square());
    let legal = if game.human_to_move() {
        pos.legal_moves()
    } else {
        Default::default()
    };
    let builtin_active = matches!(
        (view.model(size, variant), builtin_for(size, variant)),
        (Some(ModelStatus::Ready(name)), Some(m)) if name == m.name()
    );
    let workers = pool
        .borrow()
        .as_ref()
        .map_or(0, |p| p.borrow().worker_count());
    html! {
        <main data-ready={player.is_some().to_string()} data-restarts={view.restarts.to_string()} data-workers={workers.to_string()}>
            <header>
                <h1>{ "Othello Zero" }</h1>
                <p class="model" id="model-status" aria-live="polite">{ model_line(&view, size, variant) }</p>
            </header>
            <div class="layout">
                <section class="play" aria-label="Game">
                    <Counts position={pos} />
                    <Board position={pos} {legal} last={game.last_placement()} flips={game.last_flips()}
                           flip_class={if game.game.moves().len() % 2 == 0 { "flip-a" } else { "flip-b" }}
                           heat={heat.clone()} {hint} {on_play} />
                    <p class="status" id="status" role="status" aria-live="polite">{ status_line(&game, player.is_some()) }</p>
                    if let Some(text) = view.message.clone() {
                        <p class="message" id="message" role="alert">{ text }</p>
                    }
                    if let Some(heat) = heat {
                        <SearchPanel {heat} />
                    }
                    <Controls can_hint={game.human_to_move() && player.is_some()} heat_map={settings.heat_map}
                              on_undo={dispatch(Action::Undo)} on_redo={dispatch(Action::Redo)} {on_hint} {on_toggle_heat} />
                </section>
                <aside class="side">
                    <NewGame {size} {variant} seats={game.seats} {on_new} />
                    <DifficultyPicker difficulty={settings.difficulty.clone()} on_change={on_difficulty} />
                    <MoveList game={game.game.clone()} on_load={on_load_transcript} />
                    <AnalysisForm board_text={pos.to_board_text()} on_load={on_load_board} />
                    <NetworkPanel offer_builtin={builtin_for(size, variant).is_some() && !builtin_active} {on_upload} {on_builtin} />
                </aside>
            </div>
        </main>
    }
}
