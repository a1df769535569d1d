//! The game's controller: the game, the view and the settings as the page restored them
//! (`restore`), the settings' callbacks and the player they make (`settings`), a watched
//! game's pause, and the game's effects composed from `hooks/` (a new game, the loaders,
//! the built-in networks, the search that follows the game, the saved game, the review),
//! returned as plain values and callbacks ([`GameCtrl`]) for the game's room (`app/`) to
//! draw. Every change is asked through a callback, which only this module turns into the
//! reducers' dispatches and the gateway's commands.

mod restore;
mod settings;

pub use restore::{use_restored, Restored};
pub use settings::SettingsAsks;

use crate::editor::EditAction;
use crate::hooks::{
    open_record, review_callbacks, review_unavailable, upload_model, use_builtin_model,
    use_loaders, use_new_game, use_persistence, use_review_follows_game, use_search_driver,
    Command, GameModel, Gateway, Loaders, NewGameFlow, SearchAsk, SearchWanted,
};
use crate::models::BuiltinModel;
use crate::persist::Settings;
use crate::review::ReviewLevel;
use crate::state::{Action, Seats};
use crate::view::{View, ViewAction};
use engine::PlayerSpec;
use protocol::WireBudget;
use std::rc::Rc;
use yew::prelude::*;

/// The game as its room draws it: values, and the callbacks that change them.
#[derive(Clone, PartialEq)]
pub struct GameCtrl {
    pub game: Rc<GameModel>,
    pub view: Rc<View>,
    pub settings: Settings,
    /// Who thinks for the agent; `None` while the board's network loads.
    pub player: Option<PlayerSpec>,
    pub budget: WireBudget,
    /// Agent against agent: paused, and the pause between moves (ms).
    pub watch: (bool, u32),
    /// How many workers the pool runs and which build of the worker (for the tests).
    pub workers: (usize, &'static str),
    /// Why the saved game could not be read, until the person dismisses it.
    pub unreadable: Option<String>,
    /// Why the address is no link the page can follow.
    pub link_error: Option<String>,
    /// Why the game cannot be reviewed now.
    pub review_unavailable: Option<String>,
    pub new_game: NewGameFlow,
    pub loaders: Loaders,
    pub asks: GameAsks,
    pub settings_asks: SettingsAsks,
    pub work: WorkAsks,
}

/// What the parts ask of the game and the view: each callback one kind of request.
#[derive(Clone, PartialEq)]
pub struct GameAsks {
    /// A change to the game; like any act of the person's, it takes the message away.
    pub on_game: Callback<Action>,
    /// The position after this many moves (a click in the move list or the graph).
    pub on_goto: Callback<usize>,
    pub on_edit: Callback<EditAction>,
    pub on_message: Callback<Option<String>>,
    pub on_review_focus: Callback<Option<usize>>,
    /// A watched game's pause and speed.
    pub on_watch: Callback<(bool, u32)>,
    /// The saved game's notice read.
    pub on_dismiss: Callback<()>,
}

/// What the parts ask of the workers and of the files a person opens.
#[derive(Clone, PartialEq)]
pub struct WorkAsks {
    /// A hint: the agent's search of the position for the person.
    pub on_hint: Callback<()>,
    /// Ends the analysis or hint under way now, keeping what it found.
    pub on_stop: Callback<()>,
    pub on_review: Callback<()>,
    pub on_cancel_review: Callback<()>,
    /// What each review level would judge this game with, simulations a position.
    pub review_budgets: Vec<u64>,
    /// Why the review's budgets are this game's, where its agent raised them.
    pub review_budget_note: Option<String>,
    /// Whether the note's room is kept: where it is, or can come with the agent's move.
    pub review_budget_room: bool,
    /// The review level in effect: the person's pick, or this game's default
    /// ([`crate::review::default_level`]).
    pub review_level: ReviewLevel,
    /// A person's own network files.
    pub on_upload: Callback<Vec<web_sys::File>>,
    /// A record opened from a file.
    pub on_open: Callback<web_sys::File>,
    /// Play this shipped network.
    pub on_builtin: Callback<&'static BuiltinModel>,
}

/// The game's state and effects. `in_game`: the game's room is open (in Puzzle mode the
/// game waits, since its search would take the workers the puzzles use).
#[hook]
pub fn use_game_ctrl(restored: &Restored, gateway: &Gateway, in_game: bool) -> GameCtrl {
    let Restored {
        game,
        settings,
        view,
        unreadable,
        link_error,
        ..
    } = restored;
    let new_game = use_new_game(game.clone(), view.dispatcher());
    let (watch, on_watch) = use_watch(game.generation, restored_watch_game(game));
    let pos = *game.position();
    let (size, variant) = (pos.size(), pos.variant());
    let on_builtin = use_builtin_model(gateway, view.clone(), size, variant);
    let player = settings::player(view, settings, size, variant);
    let budget = settings.difficulty.budget();
    let watching = game.seats == Seats::AgentVsAgent;
    let agent_turn = in_game && game.agent_to_move() && !(watching && watch.0) && !game.held;
    // The level of each search the agent moved from, by position: a review names every
    // level the agent played its game at (issue 68: it named only the last).
    let levels = use_mut_ref(Vec::<(u64, String, WireBudget)>::new);
    if agent_turn && player.is_some() {
        let level = (pos.hash(), settings.difficulty.name(), budget);
        record_level(&mut levels.borrow_mut(), level);
    }
    use_search_driver(
        gateway,
        SearchWanted {
            game_id: game.id(),
            position: pos,
            agent_turn,
            analysing: in_game && game.seats == Seats::Analysis && !pos.is_game_over(),
            budget,
            player: player.clone(),
            delay_ms: if watching { watch.1 } else { 0 },
        },
    );
    use_persistence(
        game,
        settings,
        (
            view.estimates.of(game.id()),
            &view.review.to_save(game.id()),
        ),
        (
            view.estimates.of(game.ids.aside),
            &view.review.to_save(game.ids.aside),
        ),
    );
    use_review_follows_game(gateway, view, game);
    let shown = crate::overlay::shown_ply(view, game, game.browsing);
    let loaders = use_loaders(game.clone(), shown, view.dispatcher(), size, variant);
    let work = work_asks(
        gateway,
        restored,
        &loaders,
        player.clone(),
        on_builtin,
        &levels.borrow(),
    );
    GameCtrl {
        game: Rc::new((**game).clone()),
        view: Rc::new((**view).clone()),
        settings: (**settings).clone(),
        player,
        budget,
        watch,
        workers: gateway.workers(),
        unreadable: (**unreadable).clone(),
        link_error: link_error.clone(),
        review_unavailable: review_unavailable(game, view),
        new_game,
        loaders,
        asks: game_asks(restored, on_watch),
        settings_asks: settings::settings_asks(settings),
        work,
    }
}

/// Keeps the level (its name and budget) the agent searched the position with this hash
/// at. The page renders many times while the agent thinks (the heat map): the level is
/// recorded once, not again on each render.
fn record_level(
    levels: &mut Vec<(u64, String, WireBudget)>,
    (here, name, budget): (u64, &str, WireBudget),
) {
    let recorded = levels
        .last()
        .is_some_and(|(h, n, b)| *h == here && n == name && *b == budget);
    if !recorded {
        levels.retain(|(h, _, _)| *h != here);
        levels.push((here, name.to_owned(), budget));
        if levels.len() > 600 {
            levels.remove(0);
        }
    }
}

fn game_asks(restored: &Restored, on_watch: Callback<(bool, u32)>) -> GameAsks {
    let (game, view) = (restored.game.dispatcher(), restored.view.dispatcher());
    // A reviewed move shown on the board is of the game on the board now.
    let id = restored.game.id();
    let on_game = {
        let view = view.clone();
        Callback::from(move |action: Action| {
            view.dispatch(ViewAction::Message(None));
            game.dispatch(action);
        })
    };
    // A move of the list or a point of the graph is the position to show: a review row
    // shown on the board gives way to it (the sixteenth look: the list and the graph moved
    // their highlight while the board stayed on the row).
    let on_goto = {
        let (view, on_game) = (view.clone(), on_game.clone());
        Callback::from(move |ply: usize| {
            view.dispatch(ViewAction::ReviewFocus(None));
            on_game.emit(Action::Browse(ply));
        })
    };
    let to_view = Callback::from(move |action: ViewAction| view.dispatch(action));
    let unreadable = restored.unreadable.setter();
    GameAsks {
        on_goto,
        on_game,
        on_edit: to_view.reform(ViewAction::Edit),
        on_message: to_view.reform(ViewAction::Message),
        on_review_focus: to_view
            .reform(move |focus: Option<usize>| ViewAction::ReviewFocus(focus.map(|i| (id, i)))),
        on_watch,
        on_dismiss: Callback::from(move |()| unreadable.set(None)),
    }
}

fn work_asks(
    gateway: &Gateway,
    restored: &Restored,
    loaders: &Loaders,
    player: Option<PlayerSpec>,
    on_builtin: Callback<&'static BuiltinModel>,
    levels: &[(u64, String, WireBudget)],
) -> WorkAsks {
    let (game, settings) = (&restored.game, &restored.settings);
    let view = restored.view.dispatcher();
    let position = *game.position();
    let game_id = game.id();
    let budget = settings.difficulty.budget();
    let on_hint = {
        let gateway = gateway.clone();
        Callback::from(move |()| {
            if let Some(player) = player.clone() {
                // On a phone the hint's panel lies below the buttons (issue 68).
                crate::hooks::scroll::want_panel_text();
                gateway.send(Command::Hint(SearchAsk {
                    game_id,
                    position,
                    budget,
                    player,
                }));
            }
        })
    };
    // The agent that played the game, at each level it moved at, whose own search the
    // review must outdo: the levels its searches of the game's positions had, in the
    // order first used; a move with no such record (a game brought back by a reload) is
    // taken at the level set now.
    let difficulty = &settings.difficulty;
    let agents = crate::review::agent_levels(
        &game.state,
        levels,
        (difficulty.name().to_owned(), difficulty.budget()),
    );
    let (review_budgets, review_budget_note, default_level) =
        crate::hooks::level_budgets(&restored.view, game, &agents);
    // The level a person picked stands; until then, the one that suits this game.
    let review_level = if settings.review_level_chosen {
        settings.review_level
    } else {
        default_level
    };
    let review = (review_level, settings.review_order);
    // Whether the level set now would bring a note with the agent's next move.
    let now = [(difficulty.name().to_owned(), difficulty.budget())];
    let would_raise = crate::hooks::level_budgets(&restored.view, game, &now)
        .1
        .is_some();
    let review_budget_room =
        crate::review::budget_note_room(&game.state, review_budget_note.is_some(), would_raise);
    let (on_review, on_cancel_review) =
        review_callbacks(gateway, &restored.view, game, review, agents);
    let on_upload = {
        let (gateway, view) = (gateway.clone(), view.clone());
        let (size, variant) = (position.size(), position.variant());
        Callback::from(move |files| {
            upload_model(files, gateway.clone(), view.clone(), size, variant);
        })
    };
    let on_open = {
        let load = loaders.transcript.clone();
        Callback::from(move |file| open_record(file, load.clone(), view.clone()))
    };
    WorkAsks {
        on_hint,
        on_stop: gateway.callback(|()| Command::Finish),
        on_review,
        on_cancel_review,
        review_budgets,
        review_budget_note,
        review_budget_room,
        review_level,
        on_upload,
        on_open,
        on_builtin,
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
