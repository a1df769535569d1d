//! Loading a game from text: a transcript, a GGF record (a pick among several), or a
//! position as board text.

use super::GameModel;
use crate::editor::game_to_analyse;
use crate::records::{games_from_ggf, is_ggf, RecordGame};
use crate::state::{analyse_here, at_ply, game_from_transcript, seats_for_loaded, Action, Seats};
use crate::view::{View, ViewAction};
use othello::{BoardSize, GgfGame, Variant};
use std::rc::Rc;
use yew::prelude::*;

/// What the loaders hand the page: load a pasted transcript or record (the seats stay),
/// load a position from board text (analysis), analyse the game on the board with its
/// moves (`here`: "Analyse" with the box left empty), and the games of a record that holds
/// several, waiting for the person to pick one (`on_pick`: that game, or `None` to load
/// none).
#[derive(Clone, PartialEq)]
pub struct Loaders {
    pub transcript: Callback<String>,
    pub board: Callback<String>,
    pub here: Callback<()>,
    pub choices: Option<Rc<Vec<RecordGame>>>,
    pub on_pick: Callback<Option<usize>>,
}

/// Brings the analysis into view: the analysis form lies at the bottom of the page, and
/// what it sets up would otherwise appear out of sight. On a wide screen the board, with
/// the search beside it; on a phone, where the search panel lies below the board's
/// buttons, the panel and its Stop button (issue 68: on a phone both were below the
/// fold, the board in view above them).
fn show_the_board() {
    let document = web_sys::window().and_then(|w| w.document());
    let find = |selector: &str| {
        document
            .as_ref()
            .and_then(|d| d.query_selector(selector).ok().flatten())
    };
    if let Some(board) = find(super::scroll::GAME_TOP) {
        super::scroll::scroll_target(board).scroll_into_view();
    }
    if super::scroll::panel_below_board() {
        super::scroll::want_panel_when_running();
    }
}

/// Brings the message line (below the board) into view once it is drawn: the forms lie
/// at the bottom of the page, and on a phone the refusal would appear far out of sight,
/// as if the button did nothing.
fn show_the_message() {
    // After the render the dispatch schedules, which runs before a timer's callback.
    gloo_timers::callback::Timeout::new(0, || {
        let message = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("#message").ok().flatten());
        if let Some(message) = message {
            message.scroll_into_view_with_bool(false);
        }
    })
    .forget();
}

/// "Analyse" with the box left empty: the game on the board becomes an analysis, its
/// moves kept ([`analyse_here`]), or the message line says why not.
fn analyse_here_callback(
    game: &UseReducerHandle<GameModel>,
    shown: Option<usize>,
    view: UseReducerDispatcher<View>,
) -> Callback<()> {
    let state = game.state.clone();
    let dispatch = game.dispatcher();
    Callback::from(move |()| match analyse_here(&state, shown) {
        Ok(actions) => {
            view.dispatch(ViewAction::Message(None));
            // A review row shown goes: the board is the analysis's now.
            view.dispatch(ViewAction::ReviewFocus(None));
            actions.into_iter().for_each(|a| dispatch.dispatch(a));
            show_the_board();
        }
        Err(e) => {
            let why = format!("Cannot analyse this position: {e}");
            view.dispatch(ViewAction::Message(Some(why)));
            show_the_message();
        }
    })
}

/// The loaders, which say what is wrong with a text they cannot load.
#[hook]
pub fn use_loaders(
    game: UseReducerHandle<GameModel>,
    shown: Option<usize>,
    view: UseReducerDispatcher<View>,
    size: BoardSize,
    variant: Variant,
) -> Loaders {
    let choices = use_state(|| None::<Rc<Vec<RecordGame>>>);
    let seats = game.seats;
    let dispatch = game.dispatcher();
    let notes = view.clone();
    let here = analyse_here_callback(&game, shown, view.clone());
    // A game in progress that a loaded one replaces is put aside, to be brought back.
    // Every loaded game comes as a record (a transcript's says nothing more), kept with it.
    let load = move |parsed: Result<(GgfGame, Seats), String>, what: &str| match parsed {
        Ok((record, seats)) => {
            view.dispatch(ViewAction::Message(None));
            let seats = seats_for_loaded(record.game(), seats);
            dispatch.dispatch(Action::Replace { record, seats });
            true
        }
        Err(e) => {
            view.dispatch(ViewAction::Message(Some(format!("Cannot {what}: {e}"))));
            show_the_message();
            false
        }
    };
    let transcript = {
        let (load, choices) = (load.clone(), choices.clone());
        Callback::from(move |text: String| {
            choices.set(None);
            // One box takes both: a GGF record opens with "(;", a transcript never does.
            if !is_ggf(&text) {
                let parsed =
                    game_from_transcript(&text, size, variant).map(|g| (GgfGame::new(g), seats));
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
                    let first = games.into_iter().next().map(|g| (g.record, seats));
                    load(
                        first.ok_or_else(|| "the file holds no game".to_owned()),
                        "load the game record",
                    );
                }
                Err(e) => {
                    load(Err(e), "load the game record");
                }
            }
        })
    };
    let on_pick = {
        let (load, choices) = (load.clone(), choices.clone());
        Callback::from(move |pick: Option<usize>| {
            let chosen = pick.and_then(|i| choices.as_ref().and_then(|games| games.get(i)));
            if let Some(record) = chosen {
                load(Ok((record.record.clone(), seats)), "load the game record");
            }
            choices.set(None);
        })
    };
    // The position the board shows, which an empty box stands for.
    let shown = shown.map_or(*game.position(), |ply| *at_ply(&game, ply).position());
    let board = Callback::from(move |text: String| {
        let parsed =
            game_to_analyse(&text, variant, &shown).map(|g| (GgfGame::new(g), Seats::Analysis));
        if load(parsed, "analyse this position") {
            show_the_board();
        }
    });
    Loaders {
        transcript,
        board,
        here,
        choices: (*choices).clone(),
        on_pick,
    }
}
