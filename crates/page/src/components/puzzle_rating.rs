//! Beside a puzzle: the way back to the game, the player's rating with its last change,
//! the streak, the puzzle's own rating, the theme and board to choose, and the rating's
//! history as a small chart.

use crate::puzzles::chart::history_chart;
use crate::puzzles::rating::Glicko;
use crate::puzzles::record::{HistoryPoint, RecordModel, ThemeChoice};
use othello::BoardSize;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// A rating Lichess would show with a "?": its deviation is still wide.
const PROVISIONAL_DEVIATION: f64 = 110.0;
const CHART_WIDTH: f64 = 280.0;
const CHART_HEIGHT: f64 = 80.0;

#[derive(Properties, PartialEq)]
pub struct PuzzleRatingProps {
    pub record: Rc<RecordModel>,
    /// The puzzle shown: its id and shipped rating.
    pub puzzle: Option<(String, u16)>,
    pub size: BoardSize,
    pub on_size: Callback<BoardSize>,
    pub on_theme: Callback<ThemeChoice>,
    pub on_close: Callback<()>,
}

fn selected(event: &Event) -> Option<String> {
    event
        .target()
        .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
        .map(|s| s.value())
}

#[function_component(PuzzleRating)]
pub fn puzzle_rating(props: &PuzzleRatingProps) -> Html {
    let record = &props.record.record;
    let provisional = if record.player.deviation > PROVISIONAL_DEVIATION {
        "?"
    } else {
        ""
    };
    let on_theme = {
        let on_theme = props.on_theme.clone();
        Callback::from(move |e: Event| {
            if let Some(theme) = selected(&e).as_deref().and_then(ThemeChoice::from_key) {
                on_theme.emit(theme);
            }
        })
    };
    let on_size = {
        let on_size = props.on_size.clone();
        Callback::from(move |e: Event| match selected(&e).as_deref() {
            Some("6") => on_size.emit(BoardSize::Six),
            Some("8") => on_size.emit(BoardSize::Eight),
            _ => {}
        })
    };
    let on_close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <aside class="side puzzle-side" aria-label="Your puzzle rating">
            <button id="close-puzzles" onclick={on_close}>{ "Back to the game" }</button>
            <p class="puzzle-rating">{ "Your puzzle rating: " }
                <strong id="puzzle-rating" data-rating={format!("{:.3}", record.player.rating)}>
                    { format!("{:.0}{provisional}", record.player.rating) }</strong>
                { " " }{ change_text(&props.record, props.puzzle.as_ref()) }
            </p>
            if !provisional.is_empty() {
                <p class="small" id="puzzle-provisional">{ "\"?\": provisional. Over your first puzzles the rating moves in big steps, as Glicko-2 does while it is unsure of a player; the steps shrink as it settles." }</p>
            }
            <p class="small" id="puzzle-ratings-kept">{ crate::puzzles::words::ratings_kept() }</p>
            <p id="puzzle-streak">{ format!("Streak: {} solved in a row (best {})", record.streak, record.best_streak) }</p>
            if let Some((id, shipped)) = &props.puzzle {
                <p class="small" id="puzzle-puzzle-rating">{ crate::puzzles::words::puzzle_rating(record.rating_of(id, *shipped).rating, *shipped) }</p>
            }
            <label for="puzzle-theme">{ "Theme " }</label>
            <select id="puzzle-theme" onchange={on_theme}>
                { for ThemeChoice::all().into_iter().map(|t| html! {
                    <option value={t.key()} selected={t == record.theme}>{ t.label() }</option>
                }) }
            </select>
            { " " }
            <label for="puzzle-board">{ "Board " }</label>
            <select id="puzzle-board" onchange={on_size}>
                <option value="8" selected={props.size == BoardSize::Eight}>{ "8x8" }</option>
                <option value="6" selected={props.size == BoardSize::Six}>{ "6x6" }</option>
            </select>
            { history(&props.record) }
        </aside>
    }
}

/// The last first try's change, when it was this puzzle's; or why this try moves nothing.
fn change_text(model: &RecordModel, puzzle: Option<&(String, u16)>) -> Html {
    let Some((id, _)) = puzzle else {
        return Html::default();
    };
    match &model.last_change {
        Some((changed, before, after)) if changed == id => {
            // The change between the ratings as shown (rounded), so the two add up.
            let delta = after.round() as i64 - before.round() as i64;
            let text = if delta >= 0 {
                format!("+{delta}")
            } else {
                format!("−{}", -delta)
            };
            let class = if delta >= 0 { "gain" } else { "loss" };
            html! { <span id="puzzle-rating-change" class={class}>{ text }</span> }
        }
        _ if model.record.tried.contains(id) => html! {
            <span id="puzzle-rating-change" class="small">{ "(practice: tried before)" }</span>
        },
        _ => Html::default(),
    }
}

fn history(model: &RecordModel) -> Html {
    let points = &model.record.history;
    if points.is_empty() {
        return html! {
            <p class="small" id="puzzle-history-empty">{ "Your rating's history is drawn here after your first puzzle." }</p>
        };
    }
    // From where the player started (a new player's rating), while the history reaches
    // back to the first try.
    let mut drawn = Vec::with_capacity(points.len() + 1);
    if points.first().is_some_and(|p| p.tries <= 1) {
        drawn.push(HistoryPoint {
            tries: 0,
            rating: Glicko::player().rating,
        });
    }
    drawn.extend_from_slice(points);
    let chart = history_chart(&drawn, CHART_WIDTH, CHART_HEIGHT);
    let now = chart.last.unwrap_or_default();
    let tries = match points.len() {
        1 => "your first try".to_owned(),
        n => format!("your last {n} first tries"),
    };
    let words = format!(
        "Your rating over {tries}: low {:.0}, high {:.0}, now {now:.0}",
        chart.low, chart.high
    );
    html! {
        <figure class="puzzle-history">
            <svg id="puzzle-history" viewBox={format!("0 0 {CHART_WIDTH} {CHART_HEIGHT}")}
                 role="img" aria-label={words.clone()} data-points={points.len().to_string()}>
                <path d={chart.path} fill="none" stroke="#2e7d32" stroke-width="2" />
            </svg>
            <figcaption class="small">{ words }</figcaption>
        </figure>
    }
}
