//! The saved game: read once at start, written after every change (local storage).

use super::GameModel;
use crate::page::graph::Estimates;
use crate::page::link;
use crate::page::persist::{self, Settings, STORAGE_KEY};
use crate::page::review::Reviews;
use crate::page::state::{GameState, Seats};
use othello::{BoardSize, Color, Position, Variant};
use wasm_bindgen::JsValue;
use yew::prelude::*;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The saved game, settings, graph and review, or a new game as Black.
fn load_saved() -> persist::Restored {
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

/// The saved game, or the game the page's address links to (`crate::page::link`), with
/// its side and level; and, for an address that is no link the page can read, why (the
/// saved game then opens as usual). The link leaves the address once read: the game is
/// saved from then on, and a reload goes on with it rather than back to the link.
pub fn load_linked() -> (persist::Restored, Option<String>) {
    let mut restored = load_saved();
    let Some(window) = web_sys::window() else {
        return (restored, None);
    };
    let location = window.location();
    let fragment = location.hash().unwrap_or_default();
    let read = link::read(&fragment);
    if !fragment.is_empty() {
        let address = format!(
            "{}{}",
            location.pathname().unwrap_or_default(),
            location.search().unwrap_or_default()
        );
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&address));
        }
    }
    match read {
        Ok(Some(opened)) => {
            restored.0 = link::state(&opened);
            restored.1.difficulty = opened.difficulty;
            (restored, None)
        }
        Ok(None) => (restored, None),
        Err(e) => (restored, Some(format!("This link cannot be read: {e}."))),
    }
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
