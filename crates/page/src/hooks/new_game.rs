//! Starting a new game: at once, or once the person confirms throwing away the game under
//! way; from the standard position or a random balanced (XOT) opening.

use super::reducers::GameModel;
use crate::openings::xot_game;
use crate::pool::random_seed;
use crate::state::{in_progress, Action, Seats};
use crate::view::{View, ViewAction};
use othello::xot_openings;
use othello::{BoardSize, Variant};
use yew::prelude::*;

/// Board, rules, seats, and whether to start from a random balanced (XOT) opening.
pub type NewGameChoice = (BoardSize, Variant, Seats, bool);

/// The callbacks of the new-game form, and whether a new game waits for confirmation.
#[derive(Clone, PartialEq)]
pub struct NewGameFlow {
    /// Starts the chosen game now (a rematch, or a new game confirmed).
    pub start: Callback<NewGameChoice>,
    /// Starts it, or holds it while a game is under way.
    pub on_new: Callback<NewGameChoice>,
    pub on_confirm: Callback<()>,
    pub on_cancel: Callback<()>,
    pub pending: bool,
}

#[hook]
pub fn use_new_game(
    game: UseReducerHandle<GameModel>,
    view: UseReducerDispatcher<View>,
) -> NewGameFlow {
    // A new game asked for while one is under way, until the person confirms it.
    let pending_new = use_state(|| None::<NewGameChoice>);
    let start = {
        let (game, pending_new) = (game.dispatcher(), pending_new.clone());
        Callback::from(move |choice: NewGameChoice| {
            view.dispatch(ViewAction::Message(None));
            pending_new.set(None);
            start_game(choice, &game, &view);
        })
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
    NewGameFlow {
        start,
        on_new,
        on_confirm,
        on_cancel,
        pending: pending_new.is_some(),
    }
}

fn start_game(
    (size, variant, seats, xot): NewGameChoice,
    game: &UseReducerDispatcher<GameModel>,
    view: &UseReducerDispatcher<View>,
) {
    let message = |text: String| view.dispatch(ViewAction::Message(Some(text)));
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
        message(
            "Balanced (XOT) openings exist for standard 8x8 Othello only: choose that \
                     board and rules, or the standard position."
                .to_owned(),
        );
        return;
    }
    match xot_game(random_seed()) {
        Ok(xot) => {
            game.dispatch(Action::Load {
                game: xot.game,
                seats,
            });
            view.dispatch(ViewAction::Note(format!(
                "Started from balanced opening {} of {} (XOT): {}.",
                xot.number,
                xot_openings().len(),
                xot.transcript
            )));
        }
        Err(e) => message(format!("Cannot start from an opening: {e}")),
    }
}
