//! The page: a small `App` that owns the game and view reducers and the settings, leaves
//! the side effects to the hooks and the words to `explain`, and hands data and callbacks
//! to its parts, as Yew's `function_memory_game` example composes its App: the header,
//! the game (`play`, with its board in `play_board`), the search's panel and graph
//! (`search_view`) and the side panel (`side`), each drawn from the components. The parts
//! get the game and the view as values and ask for changes through callbacks, which only
//! the App turns into the reducers' dispatches.

mod header;
mod play;
mod play_board;
mod puzzle_room;
mod search_view;
mod side;

use crate::components::ReviewPanel;
use crate::editor::EditAction;
use crate::explain::who;
use crate::explain::{level_note, opponent_lines};
use crate::hooks::{
    load_linked, open_record, review_callbacks, review_unavailable, solve_callback, upload_model,
    use_builtin_model, use_loaders, use_mistake_finder, use_new_game, use_persistence, use_pool,
    use_puzzle_record, use_review_follows_game, use_search_driver, GameModel, PoolHandle,
    SearchWanted,
};
use crate::levels::Difficulty;
use crate::persist::Settings;
use crate::pool::Purpose;
use crate::review::{ReviewLevel, ReviewOrder, ReviewState};
use crate::state::{Action, Seats};
use crate::view::{View, ViewAction};
use engine::PlayerSpec;
use header::Header;
use othello::Position;
use play::PlayArea;
use protocol::WireBudget;
use puzzle_room::PuzzleRoom;
use search_view::SearchView;
use side::SidePanel;
use std::rc::Rc;
use yew::prelude::*;

#[function_component(App)]
pub fn app() -> Html {
    let Restored {
        game,
        settings,
        view,
        unreadable,
        link_error,
        puzzle,
    } = use_restored();
    let new_game = use_new_game(game.clone(), view.dispatcher());
    let (watch, on_watch) = use_watch(game.generation, restored_watch_game(&game));
    let pool = use_pool(view.dispatcher(), game.dispatcher());
    let pos = *game.position();
    let (size, variant) = (pos.size(), pos.variant());
    let on_builtin = use_builtin_model(pool.clone(), view.clone(), size, variant);
    let player = view
        .player(size, variant)
        .map(|p| settings.difficulty.tune(p))
        .map(|p| without_book_unless(settings.book, p));
    let budget = settings.difficulty.budget();
    let watching = game.seats == Seats::AgentVsAgent;
    let puzzles = use_puzzles(&pool, &game, &view, puzzle);
    // In Puzzle mode the game waits: its search would take the workers the puzzles use.
    let in_game = !*puzzles.open;
    use_search_driver(
        pool.clone(),
        view.clone(),
        SearchWanted {
            position: pos,
            agent_turn: in_game && game.agent_to_move() && !(watching && watch.0),
            analysing: in_game && game.seats == Seats::Analysis && !pos.is_game_over(),
            budget,
            player: player.clone(),
            delay_ms: if watching { watch.1 } else { 0 },
        },
    );
    use_persistence(&game, &settings, &view.estimates, &view.review.reviews);
    use_review_follows_game(&pool, &view, &game);
    let review_panel = review_panel(&pool, &view, &game, &settings);

    let (on_difficulty, on_toggle_heat, on_toggle_book) = settings_callbacks(&settings);
    let on_hint = hint_callback(&pool, &view, pos, player.clone(), budget);
    let on_stop = {
        let pool = pool.clone();
        Callback::from(move |()| {
            if let Some(p) = pool.borrow().as_ref() {
                p.borrow_mut().finish_now();
            }
        })
    };
    let on_upload = {
        let (pool, view) = (pool.clone(), view.dispatcher());
        Callback::from(move |files| upload_model(files, pool.clone(), view.clone(), size, variant))
    };
    let loaders = use_loaders(game.clone(), view.dispatcher(), size, variant);
    let on_open = {
        let (load, view) = (loaders.transcript.clone(), view.dispatcher());
        Callback::from(move |file| open_record(file, load.clone(), view.clone()))
    };
    let asks = Asks::of(&game, &view, on_watch);
    // The parts get the state as values: they draw it, and ask through the callbacks.
    let (game_now, view_now) = (Rc::new((*game).clone()), Rc::new((*view).clone()));
    let (workers, simd) = workers_and_build(&pool);
    let (opponent, strength) =
        opponent_lines(&view, game.seats, size, variant, &settings.difficulty);
    // The game's records name the agent without its role ("Opponent: ").
    let record_opponent = opponent
        .split_once(": ")
        .map_or(opponent.as_str(), |(_, o)| o)
        .to_owned();
    let spec = player
        .as_ref()
        .map(std::string::ToString::to_string)
        .unwrap_or_default();
    if *puzzles.open {
        return puzzles.room();
    }
    html! {
        <main data-ready={player.is_some().to_string()} data-restarts={view.restarts.to_string()} data-workers={workers.to_string()} data-simd={simd}
              data-reviewed={view.review.reviews.len().to_string()}>
            <Header {opponent} {strength} {spec} link={crate::link::write(&game.state, &settings.difficulty)} {link_error}
                    on_puzzles={puzzles.on_open()} />
            { dismissible_notice("save-error", &unreadable) }
            { dismissible_notice("puzzle-store-error", &puzzles.notice) }
            <div class="layout">
                <PlayArea game={game_now.clone()} view={view_now.clone()} heat_map={settings.heat_map} ready={player.is_some()}
                          opponent={record_opponent.clone()} {watch} on_watch={asks.on_watch} {on_hint} {on_toggle_heat}
                          {on_toggle_book} book={settings.book} on_new_game={new_game.start.clone()} on_game={asks.on_game.clone()}
                          on_edit={asks.on_edit} on_message={asks.on_message} on_review_focus={asks.on_review_focus} />
                <section class="thinking" aria-label="The search and the evaluation graph">
                    <SearchView game={game_now.clone()} view={view_now.clone()} player={player.clone()} {budget} on_goto={asks.on_goto.clone()} {on_stop} />
                    { review_panel }
                </section>
                <SidePanel game={game_now} view={view_now} difficulty={settings.difficulty.clone()} {on_difficulty}
                           note={level_note(player.as_ref(), budget)} {new_game} opponent={record_opponent}
                           on_goto={asks.on_goto} {loaders} {on_open} {on_upload} {on_builtin} />
            </div>
        </main>
    }
}

/// Puzzle mode as the App holds it: whether it is open, the player's record (kept across
/// reloads, apart from the game), why a stored record could not be read, and the solves
/// sent to the workers; a reviewed game's mistakes are proven from here whichever room is
/// open.
struct Puzzles {
    open: UseStateHandle<bool>,
    record: UseReducerHandle<crate::hooks::RecordModel>,
    notice: UseStateHandle<Option<String>>,
    /// The room's own state, kept here so that leaving the room and coming back finds the
    /// puzzle, its stage, the board and its file as they were.
    session: UseReducerHandle<crate::puzzles::session::Session>,
    size: UseStateHandle<othello::BoardSize>,
    file: UseStateHandle<crate::hooks::PuzzleFile>,
    linked: Rc<std::cell::RefCell<Option<String>>>,
    on_solve: Callback<crate::hooks::SolveAsk>,
}

#[hook]
fn use_puzzles(
    pool: &PoolHandle,
    game: &UseReducerHandle<GameModel>,
    view: &UseReducerHandle<View>,
    linked: Option<String>,
) -> Puzzles {
    let (record, stored_notice) = use_puzzle_record();
    let notice = use_state(|| stored_notice);
    let open = use_state(|| linked.is_some());
    let session = use_reducer(crate::puzzles::session::Session::default);
    let linked_size = linked
        .as_deref()
        .and_then(crate::puzzles::record::parse_shipped_id)
        .map(|(size, _)| size);
    let size = use_state(|| linked_size.unwrap_or(othello::BoardSize::Eight));
    let file = crate::hooks::use_puzzle_file(*size, *open);
    let linked = use_mut_ref(move || linked);
    let on_solve = solve_callback(pool);
    use_mistake_finder(
        on_solve.clone(),
        &game.game,
        game.seats,
        &view.review.reviews,
        view.review.running.is_some(),
        record.dispatcher(),
    );
    Puzzles {
        open,
        record,
        notice,
        session,
        size,
        file,
        linked,
        on_solve,
    }
}

impl Puzzles {
    fn on_open(&self) -> Callback<()> {
        let open = self.open.clone();
        Callback::from(move |()| open.set(true))
    }

    fn room(&self) -> Html {
        let open = self.open.clone();
        let on_record = {
            let record = self.record.dispatcher();
            Callback::from(move |action| record.dispatch(action))
        };
        let record = self.record.clone();
        // The game has no link of its own in the address: a reload goes on with it.
        let on_close = Callback::from(move |()| {
            crate::hooks::set_fragment("");
            open.set(false);
        });
        html! {
            <main data-ready="true">
                <header><h1>{ "Othello Zero" }</h1><p class="model">{ "Puzzles: positions with one right move, proven by the exact solver" }</p></header>
                { dismissible_notice("puzzle-store-error", &self.notice) }
                <PuzzleRoom {record} {on_record} session={self.session.clone()}
                            size={self.size.clone()} file={self.file.clone()} linked={self.linked.clone()}
                            on_solve={self.on_solve.clone()} {on_close} />
            </main>
        }
    }
}

/// What the app's parts ask of the reducers: each callback one kind of request, turned
/// here into the dispatches.
struct Asks {
    /// A change to the game; like any act of the person's, it takes the message away.
    on_game: Callback<Action>,
    /// The position after this many moves (a click in the move list or the graph).
    on_goto: Callback<usize>,
    on_edit: Callback<EditAction>,
    on_message: Callback<Option<String>>,
    on_review_focus: Callback<Option<usize>>,
    /// A watched game's pause and speed.
    on_watch: Callback<(bool, u32)>,
}

impl Asks {
    fn of(
        game: &UseReducerHandle<GameModel>,
        view: &UseReducerHandle<View>,
        on_watch: Callback<(bool, u32)>,
    ) -> Asks {
        let on_game = {
            let (game, view) = (game.dispatcher(), view.dispatcher());
            Callback::from(move |action: Action| {
                view.dispatch(ViewAction::Message(None));
                game.dispatch(action);
            })
        };
        let to_view = {
            let view = view.dispatcher();
            Callback::from(move |action: ViewAction| view.dispatch(action))
        };
        Asks {
            on_goto: on_game.reform(Action::Browse),
            on_game,
            on_edit: to_view.reform(ViewAction::Edit),
            on_message: to_view.reform(ViewAction::Message),
            on_review_focus: to_view.reform(ViewAction::ReviewFocus),
            on_watch,
        }
    }
}

/// The game, the settings and the view as the last visit left them (the view keeps the
/// evaluation graph's estimates and the reviews), or the game a link opened; why a saved
/// game could not be read, until the person has read it; and why the address is no link
/// the page can follow (said in one line under the title).
struct Restored {
    game: UseReducerHandle<GameModel>,
    settings: UseStateHandle<Settings>,
    view: UseReducerHandle<View>,
    unreadable: UseStateHandle<Option<String>>,
    link_error: Option<String>,
    /// The puzzle a puzzle link named: the page opens in Puzzle mode on it.
    puzzle: Option<String>,
}

#[hook]
fn use_restored() -> Restored {
    let loaded = use_memo((), |_| load_linked());
    let unreadable = use_state({
        let loaded = loaded.clone();
        move || loaded.unreadable.clone()
    });
    let game = use_reducer({
        let loaded = loaded.clone();
        move || GameModel {
            set_aside: loaded.set_aside.clone(),
            ..GameModel::new(loaded.restored.0.clone())
        }
    });
    let settings = use_state({
        let loaded = loaded.clone();
        move || loaded.restored.1.clone()
    });
    let view = use_reducer({
        let loaded = loaded.clone();
        move || View {
            estimates: loaded.restored.2.clone(),
            review: ReviewState {
                reviews: loaded.restored.3.clone(),
                ..ReviewState::default()
            },
            ..View::default()
        }
    });
    Restored {
        game,
        settings,
        view,
        unreadable,
        link_error: loaded.link_error.clone(),
        puzzle: loaded.puzzle.clone(),
    }
}

/// What could not be read (a saved game, the puzzle record), said until the person
/// dismisses it with OK (`{id}-ok`).
fn dismissible_notice(id: &'static str, text: &UseStateHandle<Option<String>>) -> Html {
    let Some(words) = (**text).clone() else {
        return Html::default();
    };
    let dismiss = {
        let text = text.clone();
        Callback::from(move |_| text.set(None))
    };
    html! {
        <p class="message" {id} role="alert">{ words }{ " " }
            <button id={format!("{id}-ok")} onclick={dismiss}>{ "OK" }</button>
        </p>
    }
}

/// Agent against agent: paused, and the pause between moves (ms), with the way to change
/// them. A pause belongs to its watched game: it is held as the `generation` it was asked
/// in, so the next game (a new one, a load) runs without anything to reset. A watch game
/// restored by a reload starts paused (`restored`): whether it was paused is not saved, and
/// a page that opens must not play on behind the person's back.
#[hook]
fn use_watch(generation: u64, restored: bool) -> ((bool, u32), Callback<(bool, u32)>) {
    let held = use_state(|| (restored.then_some(generation), 1000u32));
    let watch = (held.0 == Some(generation), held.1);
    let set = Callback::from(move |(paused, delay): (bool, u32)| {
        held.set((paused.then_some(generation), delay));
    });
    (watch, set)
}

/// Whether the page opened on a watch game under way (restored from this browser's
/// storage): it then waits for Resume.
fn restored_watch_game(game: &GameModel) -> bool {
    game.generation == 0 && game.seats == Seats::AgentVsAgent && !game.position().is_game_over()
}

/// How many workers the pool runs and which build of the worker (for the tests, on
/// `<main>`); none before the pool starts.
fn workers_and_build(pool: &PoolHandle) -> (usize, &'static str) {
    match pool.borrow().as_ref() {
        Some(p) => {
            let p = p.borrow();
            (p.worker_count(), p.worker_build().name())
        }
        None => (0, ""),
    }
}

/// The review's panel, wired to the pool, the view and the review's budget (a setting);
/// nothing before the game has a move, so that an empty game's side starts with New game
/// and the difficulty.
fn review_panel(
    pool: &PoolHandle,
    view: &UseReducerHandle<View>,
    game: &UseReducerHandle<GameModel>,
    settings: &UseStateHandle<Settings>,
) -> Html {
    if game.game.moves().is_empty() && game.undone.is_empty() {
        return Html::default();
    }
    let (level, order) = (settings.review_level, settings.review_order);
    // The agent that played the game, whose own search the review must outdo.
    let agent = (game.seats != Seats::Analysis).then(|| {
        let difficulty = &settings.difficulty;
        (difficulty.name().to_owned(), difficulty.budget())
    });
    let (on_review, on_cancel) = review_callbacks(pool, view, game, (level, order), agent);
    let on_level = {
        let settings = settings.clone();
        Callback::from(move |level: ReviewLevel| {
            settings.set(Settings {
                review_level: level,
                ..(*settings).clone()
            });
        })
    };
    let on_order = {
        let settings = settings.clone();
        Callback::from(move |order: ReviewOrder| {
            settings.set(Settings {
                review_order: order,
                ..(*settings).clone()
            });
        })
    };
    let moves = view
        .review
        .reviews
        .of_game(&game.game)
        .into_iter()
        .zip(game.game.moves().iter().copied())
        .map(|(r, mv)| (mv, r))
        .collect::<Vec<_>>();
    let on_focus = {
        let view = view.dispatcher();
        Callback::from(move |focus| view.dispatch(ViewAction::ReviewFocus(focus)))
    };
    html! {
        <ReviewPanel {moves} running={view.review.running.map(|(_, done, total)| (done, total))}
                     error={view.review.error.clone()} {level} {on_level} {order} {on_order}
                     unavailable={review_unavailable(game, view)} {on_review} {on_cancel}
                     focus={view.review.focus} {on_focus} judged={view.review.reviews.judged().map(str::to_owned)}
                     black={who(game, othello::Color::Black)} white={who(game, othello::Color::White)} />
    }
}

/// Changing the difficulty and turning the heat map on or off, both kept in the settings.
fn settings_callbacks(
    settings: &UseStateHandle<Settings>,
) -> (Callback<Difficulty>, Callback<()>, Callback<()>) {
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
    let on_toggle_heat = {
        let set = set_settings.clone();
        Callback::from(move |()| set(&|s: &mut Settings| s.heat_map = !s.heat_map))
    };
    let on_toggle_book =
        Callback::from(move |()| set_settings(&|s: &mut Settings| s.book = !s.book));
    (on_difficulty, on_toggle_heat, on_toggle_book)
}

/// The agent's spec with its book, or without it when the person turned the book off.
fn without_book_unless(book: bool, player: PlayerSpec) -> PlayerSpec {
    if book {
        player
    } else {
        PlayerSpec {
            book: None,
            book_random: None,
            ..player
        }
    }
}

/// Asks the workers for a hint: the agent's search of the position for the person.
fn hint_callback(
    pool: &PoolHandle,
    view: &UseReducerHandle<View>,
    pos: Position,
    player: Option<PlayerSpec>,
    budget: WireBudget,
) -> Callback<()> {
    let (pool, view) = (pool.clone(), view.clone());
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
}
