//! The game's state as the page opens: the game, the settings and the view as the last
//! visit left them (the view keeps the evaluation graph's estimates and the reviews), or
//! the game a link opened.

use crate::graph::GameEstimates;
use crate::hooks::{load_linked, GameModel};
use crate::persist::Settings;
use crate::review::ReviewState;
use crate::state::waits_for_play_on;
use crate::view::View;
use yew::prelude::*;

/// The game's reducers and settings, restored; why a saved game could not be read, until
/// the person has read it; and why the address is no link the page can follow (said in one
/// line under the title).
pub struct Restored {
    pub game: UseReducerHandle<GameModel>,
    pub settings: UseStateHandle<Settings>,
    pub view: UseReducerHandle<View>,
    pub unreadable: UseStateHandle<Option<String>>,
    pub link_error: Option<String>,
    /// The puzzle a puzzle link named: the page opens in Puzzle mode on it.
    pub puzzle: Option<String>,
}

/// Reads the saved game and the address once, and holds what they gave.
#[hook]
pub fn use_restored() -> Restored {
    let loaded = use_memo((), |_| load_linked());
    let unreadable = use_state({
        let loaded = loaded.clone();
        move || loaded.unreadable.clone()
    });
    let game = use_reducer({
        let loaded = loaded.clone();
        // A linked game is another game than the saved one, which it may put aside. A
        // loaded game nobody has played on waits for "Play on" again.
        move || GameModel {
            set_aside: loaded.set_aside.clone(),
            earlier_aside: loaded.earlier_aside.clone(),
            ids: loaded.ids,
            held: waits_for_play_on(&loaded.restored.0),
            ..GameModel::new(loaded.restored.0.clone())
        }
    });
    let settings = use_state({
        let loaded = loaded.clone();
        move || loaded.restored.1.clone()
    });
    let view = use_reducer({
        let loaded = loaded.clone();
        // The saved review and graph are the saved game's: a linked game put them aside.
        // The game the saved one had put aside keeps its own.
        move || {
            let mut review = ReviewState::with(0, loaded.restored.3.clone());
            let mut estimates = GameEstimates::with(0, loaded.restored.2.clone());
            if let Some((kept, reviews)) = loaded.aside_reviews.clone() {
                review.games.insert(0, (loaded.ids.aside, reviews));
                estimates.set(loaded.ids.aside, kept);
            }
            View {
                estimates,
                review,
                ..View::default()
            }
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
