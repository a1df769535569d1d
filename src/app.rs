//! The page: a small `App` that owns the game and view reducers and the settings, hands
//! data and callbacks to the components, and leaves the side effects to the hooks (as
//! Yew's `function_memory_game` example is written) and the words to `explain`.

use crate::components::{
    AnalysisForm, Board, Controls, Counts, DifficultyPicker, EvalGraph, GameOver, MoveList,
    NetworkPanel, NewGame, SearchPanel, WatchControls,
};
use crate::explain::{
    game_record, level_note, opponent_lines, pass_notice, search_summary, status_line,
};
use crate::graph::{points, scale};
use crate::hooks::{
    load_saved, open_record, upload_model, use_builtin_model, use_loaders, use_persistence,
    use_pool, use_search_driver, GameModel, SearchWanted,
};
use crate::levels::Difficulty;
use crate::models::{builtin_named, learners_for};
use crate::openings::{xot_game, xot_openings};
use crate::persist::Settings;
use crate::pool::random_seed;
use crate::pool::Purpose;
use crate::records::ggf_record;
use crate::state::{explain_click, in_progress, rematch_seats, Action, Seats};
use crate::view::{live_estimate, shown, ModelStatus, View, ViewAction};
use othello::{BoardSize, Square, Variant};
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
    // A new game asked for while one is under way, until the person confirms it.
    let pending_new = use_state(|| None::<(BoardSize, Variant, Seats, bool)>);
    // Agent against agent: paused, and the pause between moves (ms).
    let watch = use_state(|| (false, 1000u32));
    let pool = use_pool(view.dispatcher(), game.dispatcher());
    let pos = *game.position();
    let (size, variant) = (pos.size(), pos.variant());
    let on_builtin = use_builtin_model(pool.clone(), view.clone(), size, variant);
    let player = view
        .player(size, variant)
        .map(|p| settings.difficulty.tune(p));
    let budget = settings.difficulty.budget();
    let watching = game.seats == Seats::AgentVsAgent;
    use_search_driver(
        pool.clone(),
        view.clone(),
        SearchWanted {
            position: pos,
            agent_turn: game.agent_to_move() && !(watching && watch.0),
            analysing: game.seats == Seats::Analysis && !pos.is_game_over(),
            budget,
            player: player.clone(),
            delay_ms: if watching { watch.1 } else { 0 },
        },
    );
    use_persistence(&game, &settings);

    let message = {
        let view = view.dispatcher();
        move |text: Option<String>| view.dispatch(ViewAction::Message(text))
    };
    let dispatch = |action: Action| {
        let (game, message) = (game.dispatcher(), message.clone());
        Callback::from(move |()| {
            message(None);
            game.dispatch(action.clone())
        })
    };
    let on_play = {
        let (game, message) = (game.clone(), message.clone());
        Callback::from(move |sq: Square| match explain_click(&game, sq) {
            Ok(mv) => {
                message(None);
                game.dispatch(Action::Play(mv));
            }
            Err(why) => message(Some(why)),
        })
    };
    let start = {
        let (game, message, pending_new) =
            (game.dispatcher(), message.clone(), pending_new.clone());
        Callback::from(
            move |(size, variant, seats, xot): (BoardSize, Variant, Seats, bool)| {
                message(None);
                pending_new.set(None);
                if !xot {
                    game.dispatch(Action::NewGame {
                        size,
                        variant,
                        seats,
                    });
                    return;
                }
                // The balanced openings were made and checked for standard 8x8 only.
                if (size, variant) != (BoardSize::Eight, Variant::Standard) {
                    message(Some(
                        "Balanced (XOT) openings exist for standard 8x8 Othello only: choose that \
                     board and rules, or the standard position."
                            .to_owned(),
                    ));
                    return;
                }
                match xot_game(random_seed()) {
                    Ok((number, opening)) => {
                        game.dispatch(Action::Load {
                            game: opening,
                            seats,
                        });
                        message(Some(format!(
                            "Started from balanced opening {number} of {} (XOT).",
                            xot_openings().len()
                        )));
                    }
                    Err(e) => message(Some(format!("Cannot start from an opening: {e}"))),
                }
            },
        )
    };
    let on_new = {
        let (start, pending_new, busy) = (start.clone(), pending_new.clone(), in_progress(&game));
        Callback::from(move |choice| match busy {
            true => pending_new.set(Some(choice)),
            false => start.emit(choice),
        })
    };
    let on_confirm = {
        let (start, pending) = (start.clone(), *pending_new);
        Callback::from(move |()| pending.into_iter().for_each(|p| start.emit(p)))
    };
    let on_cancel = {
        let pending_new = pending_new.clone();
        Callback::from(move |()| pending_new.set(None))
    };
    let set_settings = {
        let settings = settings.clone();
        move |change: &dyn Fn(&mut Settings)| {
            let mut next = (*settings).clone();
            change(&mut next);
            settings.set(next);
        }
    };
    let on_difficulty = {
        let set = set_settings.clone();
        Callback::from(move |d: Difficulty| set(&|s: &mut Settings| s.difficulty = d.clone()))
    };
    let on_toggle_heat =
        Callback::from(move |()| set_settings(&|s: &mut Settings| s.heat_map = !s.heat_map));
    let on_hint = {
        let (pool, view, player) = (pool.clone(), view.clone(), player.clone());
        Callback::from(move |()| {
            if let (Some(p), Some(player)) = (pool.borrow().as_ref(), player.clone()) {
                p.borrow_mut().search(Purpose::Hint, &pos, budget, player);
                view.dispatch(ViewAction::Started(
                    Purpose::Hint,
                    pos.hash(),
                    pos.side_to_move(),
                ));
            }
        })
    };
    let on_watch = {
        let watch = watch.clone();
        Callback::from(move |w| watch.set(w))
    };
    let (on_load_transcript, on_load_board) =
        use_loaders(game.clone(), view.dispatcher(), size, variant);
    let on_upload = {
        let (pool, view) = (pool.clone(), view.dispatcher());
        Callback::from(move |files| upload_model(files, pool.clone(), view.clone(), size, variant))
    };
    let (panel, board_heat) = shown(&view, &game, settings.heat_map);
    let summary = search_summary(&view, &game, panel, player.as_ref(), budget);
    let solved = panel.and_then(|(h, _)| h.merged.solved);
    // A hint reads as Othello players read one: every legal move's evaluation; the agent's
    // search as where its visits go.
    let tiles = board_heat.map(|h| {
        let tiles = match h.purpose {
            Purpose::Hint => h.merged.hint_tiles(&pos.legal_move_list()),
            _ => h.merged.heat_tiles(),
        };
        (tiles, h.merged.best_move())
    });
    let hint = view
        .hint
        .filter(|(h, _)| *h == pos.hash())
        .and_then(|(_, mv)| mv.square());
    let legal = if game.human_to_move() {
        pos.legal_moves()
    } else {
        Default::default()
    };
    // The shipped network playing (or loading) now; none while a network of one's own is.
    let active_builtin = match view.model(size, variant) {
        Some(ModelStatus::Ready(name) | ModelStatus::Loading(name)) => {
            builtin_named(name).filter(|m| m.size == size && m.variant == variant)
        }
        _ => None,
    };
    let workers = pool
        .borrow()
        .as_ref()
        .map_or(0, |p| p.borrow().worker_count());
    let (opponent, strength) =
        opponent_lines(&view, game.seats, size, variant, &settings.difficulty);
    let record = game_record(
        &game,
        opponent.split_once(": ").map_or(&opponent, |(_, o)| o),
    );
    let ggf = ggf_record(
        &game,
        opponent.split_once(": ").map_or(&opponent, |(_, o)| o),
    );
    let on_open = {
        let (load, view) = (on_load_transcript.clone(), view.dispatcher());
        Callback::from(move |file| open_record(file, load.clone(), view.clone()))
    };
    let seats = game.seats;
    let on_goto = {
        let (game, message) = (game.dispatcher(), message.clone());
        Callback::from(move |ply| {
            message(None);
            game.dispatch(Action::GoTo(ply));
        })
    };
    let graph_points = points(&game.game, &view.estimates, live_estimate(&view, &game));
    let graph_scale = scale(&graph_points);
    let spec = player.as_ref().map(|p| p.to_string()).unwrap_or_default();
    html! {
        <main data-ready={player.is_some().to_string()} data-restarts={view.restarts.to_string()} data-workers={workers.to_string()}>
            <header>
                <h1>{ "Othello Zero" }</h1>
                <p class="model" id="model-status" aria-live="polite" data-player={spec}>{ opponent }</p>
                if let Some(strength) = strength {
                    <p class="model small" id="model-strength">{ strength }</p>
                }
            </header>
            <div class="layout">
                <section class="play" aria-label="Game">
                    <Counts position={pos} />
                    <Board position={pos} {legal} last={game.last_placement()} flips={game.last_flips()}
                           flip_class={if game.game.moves().len() % 2 == 0 { "flip-a" } else { "flip-b" }}
                           {tiles} {hint} {on_play} />
                    if let Some(text) = pass_notice(&game) {
                        <p class="notice" id="pass-notice" role="status">{ text }</p>
                    }
                    <p class="status" id="status" role="status" aria-live="polite">{ status_line(&game, player.is_some()) }</p>
                    if let Some(text) = view.message.clone() {
                        <p class="message" id="message" role="alert">{ text }</p>
                    }
                    if pos.is_game_over() {
                        <GameOver {record} ggf={ggf.clone()} rematch={matches!(seats, Seats::Human(_))}
                                  on_rematch={start.reform(move |()| (size, variant, rematch_seats(seats), false))} />
                    }
                    <Controls can_undo={game.can_undo()} can_redo={game.can_redo()} can_hint={game.human_to_move() && player.is_some()}
                              heat_map={settings.heat_map} on_undo={dispatch(Action::Undo)} on_redo={dispatch(Action::Redo)} {on_hint} {on_toggle_heat} />
                    if watching {
                        <WatchControls paused={watch.0} delay_ms={watch.1} on_change={on_watch} />
                    }
                    if let Some(summary) = summary {
                        <SearchPanel {summary} {solved} />
                    }
                    if !graph_points.is_empty() {
                        <EvalGraph points={graph_points} scale={graph_scale} on_goto={on_goto.clone()} />
                    }
                </section>
                <aside class="side">
                    <NewGame {size} {variant} seats={game.seats} {on_new} pending={pending_new.is_some()}
                             moves={game.game.moves().len()} {on_confirm} {on_cancel} />
                    <DifficultyPicker difficulty={settings.difficulty.clone()} on_change={on_difficulty} note={level_note(player.as_ref(), budget)} />
                    <MoveList game={game.game.clone()} undone={game.undone.clone()} {on_goto} on_load={on_load_transcript} {ggf} {on_open} />
                    <AnalysisForm board_text={pos.to_board_text()} on_load={on_load_board} />
                    <NetworkPanel learners={learners_for(size, variant).collect::<Vec<_>>()} active={active_builtin} {on_upload} {on_builtin} />
                </aside>
            </div>
        </main>
    }
}
