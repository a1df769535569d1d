//! The settings (difficulty, heat map, opening book, the review's level and order), each
//! changed by a callback, and the player they make for the board.

use crate::levels::Difficulty;
use crate::persist::Settings;
use crate::review::{ReviewLevel, ReviewOrder};
use crate::view::View;
use engine::PlayerSpec;
use othello::{BoardSize, Variant};
use yew::prelude::*;

/// The callbacks that change the settings.
#[derive(Clone, PartialEq)]
pub struct SettingsAsks {
    pub on_difficulty: Callback<Difficulty>,
    pub on_toggle_heat: Callback<()>,
    pub on_toggle_book: Callback<()>,
    pub on_review_level: Callback<ReviewLevel>,
    pub on_review_order: Callback<ReviewOrder>,
}

pub(super) fn settings_asks(settings: &UseStateHandle<Settings>) -> SettingsAsks {
    SettingsAsks {
        on_difficulty: change(settings, |s, d| s.difficulty = d),
        on_toggle_heat: change(settings, |s, ()| s.heat_map = !s.heat_map),
        on_toggle_book: change(settings, |s, ()| s.book = !s.book),
        on_review_level: change(settings, |s, level| {
            s.review_level = level;
            s.review_level_chosen = true;
        }),
        on_review_order: change(settings, |s, order| s.review_order = order),
    }
}

/// A callback that changes the settings by `apply`.
fn change<T: 'static>(
    settings: &UseStateHandle<Settings>,
    apply: fn(&mut Settings, T),
) -> Callback<T> {
    let settings = settings.clone();
    Callback::from(move |value| {
        let mut next = (*settings).clone();
        apply(&mut next, value);
        settings.set(next);
    })
}

/// Who thinks for the agent on this board: the view's player, tuned by the difficulty,
/// without the book when the person turned it off; `None` while the network loads.
pub(super) fn player(
    view: &View,
    settings: &Settings,
    size: BoardSize,
    variant: Variant,
) -> Option<PlayerSpec> {
    let player = settings.difficulty.tune(view.player(size, variant)?);
    Some(if settings.book {
        player
    } else {
        PlayerSpec {
            book: None,
            book_random: None,
            ..player
        }
    })
}
