//! The saved game: read once at start, written after every change (local storage).

use super::GameModel;
use crate::graph::Estimates;
use crate::link;
use crate::persist::{self, Settings, STORAGE_KEY, UNREADABLE_KEY};
use crate::review::Reviews;
use crate::state::{in_progress, GameIds, GameState, Seats};
use othello::{BoardSize, Color, Position, Variant};
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// This browser's local storage, where the page has one.
pub fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// Replaces the address's fragment (`""`: none) without a new history entry: a link
/// leaves the address once read, and Puzzle mode names the puzzle on the board there.
pub fn set_fragment(fragment: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let address = format!(
        "{}{}{fragment}",
        location.pathname().unwrap_or_default(),
        location.search().unwrap_or_default()
    );
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&address));
    }
}

/// The saved game, settings, graph and review, or a new game as Black; the game it had put
/// aside, with its graph and reviews; and, when a saved game was there but could not be read, what
/// to tell the person (its text is kept aside, since the new game's first save overwrites
/// it).
fn load_saved() -> (persist::Restored, Option<persist::Aside>, Option<String>) {
    let store = storage();
    let Some(text) = store
        .as_ref()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
    else {
        return (fresh(), None, None);
    };
    match persist::load(&text) {
        Ok(restored) => (restored, persist::load_aside(&text), None),
        Err(e) => {
            let kept = store.is_some_and(|s| s.set_item(UNREADABLE_KEY, &text).is_ok());
            (fresh(), None, Some(persist::unreadable_notice(&e, kept)))
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

/// The saved game, or the game the page's address links to (`crate::link`), with
/// its side and level; and, for an address that is no link the page can read, why (the
/// saved game then opens as usual). The link leaves the address once read: the game is
/// saved from then on, and a reload goes on with it rather than back to the link.
pub fn load_linked() -> Loaded {
    let (mut restored, saved_aside, unreadable) = load_saved();
    let (aside_state, aside_reviews, mut earlier_aside) = match saved_aside {
        Some(a) => (Some(a.game), Some(a.kept), a.earlier),
        None => (None, None, Vec::new()),
    };
    let Some(window) = web_sys::window() else {
        return Loaded {
            ids: GameIds::opened(false, aside_state.is_some(), false),
            restored,
            set_aside: aside_state,
            earlier_aside,
            aside_reviews,
            unreadable,
            link_error: None,
            puzzle: None,
        };
    };
    let location = window.location();
    let fragment = location.hash().unwrap_or_default();
    let puzzle_link = crate::puzzles::link::read(&fragment);
    // A puzzle's link opens Puzzle mode and leaves the game as it was.
    let read = match &puzzle_link {
        Some(_) => Ok(None),
        None => link::read(&fragment),
    };
    if !fragment.is_empty() {
        set_fragment("");
    }
    let saved_aside = aside_state.is_some();
    let (set_aside, aside_reviews, ids, link_error) = match read {
        // The saved game in progress is put aside, as a pasted game puts it aside, so a
        // link never costs the person the game they were playing; a saved game not in
        // progress leaves the one it had put aside there.
        Ok(Some(opened)) => {
            let saved = std::mem::replace(&mut restored.0, link::state(&opened));
            restored.1.difficulty = opened.difficulty;
            let playing = in_progress(&saved);
            let ids = GameIds::opened(true, saved_aside, playing);
            if playing {
                // The game the saved one had put aside goes before it, not away.
                earlier_aside.extend(aside_state);
                (Some(saved), None, ids, None)
            } else {
                (aside_state, aside_reviews, ids, None)
            }
        }
        Ok(None) => (
            aside_state,
            aside_reviews,
            GameIds::opened(false, saved_aside, false),
            None,
        ),
        Err(e) => (
            aside_state,
            aside_reviews,
            GameIds::opened(false, saved_aside, false),
            Some(format!("This link cannot be read: {e}.")),
        ),
    };
    let (puzzle, link_error) = match puzzle_link {
        Some(Ok(id)) => (Some(id), link_error),
        Some(Err(e)) => (None, Some(format!("This puzzle link cannot be read: {e}."))),
        None => (None, link_error),
    };
    Loaded {
        restored,
        set_aside,
        earlier_aside,
        aside_reviews,
        ids,
        unreadable,
        link_error,
        puzzle,
    }
}

/// A game's graph estimates and reviews, as a save kept them.
pub type Kept = (Estimates, Reviews);

/// What the page starts from: the saved game or a linked one, and what to tell the person
/// about a saved game that could not be read or an address that is no link.
pub struct Loaded {
    pub restored: persist::Restored,
    /// The game put aside, to be brought back: the one the saved game had put aside (kept
    /// over the reload), or the saved game in progress that a link replaced.
    pub set_aside: Option<GameState>,
    /// Games put aside before it, oldest first ([`crate::hooks::GameModel::earlier_aside`]).
    pub earlier_aside: Vec<GameState>,
    /// The graph's estimates and the reviews of the game put aside, where it is the saved
    /// one's.
    pub aside_reviews: Option<Kept>,
    /// The games' ids ([`GameIds::opened`]): the saved review is the saved game's (id 0),
    /// not a linked one's, and the reviews of the game put aside are its own.
    pub ids: GameIds,
    pub unreadable: Option<String>,
    pub link_error: Option<String>,
    /// The puzzle a puzzle link names (`crate::puzzles::link`): the page opens in Puzzle
    /// mode on it.
    pub puzzle: Option<String>,
}

/// Saves the game, the settings, the graph and the review after every change (`mine`: the
/// game's estimates and reviews), and the game put aside with its own (`aside`).
#[hook]
pub fn use_persistence(
    game: &GameModel,
    settings: &Settings,
    mine: (&Estimates, &Reviews),
    aside: (&Estimates, &Reviews),
) {
    use_effect_with(
        (
            game.state.clone(),
            (game.set_aside.clone(), game.earlier_aside.clone()),
            settings.clone(),
            (mine.0.clone(), mine.1.clone()),
            (aside.0.clone(), aside.1.clone()),
        ),
        |(
            game,
            (aside_game, earlier),
            settings,
            (estimates, reviews),
            (aside_estimates, aside_reviews),
        )| {
            if let Some(s) = storage() {
                let aside = aside_game
                    .as_ref()
                    .map(|g| (g, aside_estimates, aside_reviews));
                let text =
                    persist::save_with_aside(game, settings, (estimates, reviews), aside, earlier);
                let _ = s.set_item(STORAGE_KEY, &text);
            }
        },
    );
}
