//! The saved game: read once at start, written after every change (local storage).

use super::GameModel;
use crate::page::graph::Estimates;
use crate::page::persist::{self, Settings, STORAGE_KEY, UNREADABLE_KEY};
use crate::page::review::Reviews;
use crate::page::state::{GameState, Seats};
use othello::{BoardSize, Color, Position, Variant};
use yew::prelude::*;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The saved game, settings, graph and review, or a new game as Black; and, when a saved
/// game was there but could not be read, what to tell the person (its text is kept aside,
/// since the new game's first save overwrites it).
pub fn load_saved() -> (persist::Restored, Option<String>) {
    let store = storage();
    let Some(text) = store
        .as_ref()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
    else {
        return (fresh(), None);
    };
    match persist::load(&text) {
        Ok(restored) => (restored, None),
        Err(e) => {
            let kept = store.is_some_and(|s| s.set_item(UNREADABLE_KEY, &text).is_ok());
            (fresh(), Some(persist::unreadable_notice(&e, kept)))
        }
    }
}

fn fresh() -> persist::Restored {
    (
        GameState::new(
            Position::start(BoardSize::Eight, Variant::Standard),
            Seats::Human(Color::Black),
        ),
        Settings::default(),
        Estimates::default(),
        Reviews::default(),
    )
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
