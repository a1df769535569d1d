//! The disc counts above the board, the buttons below it, the pause and speed of a game
//! the agent plays against itself, and what a finished game offers.

use othello::Position;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CountsProps {
    pub position: Position,
}

#[function_component(Counts)]
pub fn counts(props: &CountsProps) -> Html {
    let count = props.position.count();
    html! {
        <p class="counts" id="counts">
            <span class="count black"><span class="disc black mini" aria-hidden="true"></span>{ format!("Black {}", count.black_discs) }</span>
            <span class="count white"><span class="disc white mini" aria-hidden="true"></span>{ format!("White {}", count.white_discs) }</span>
        </p>
    }
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub can_undo: bool,
    pub can_redo: bool,
    pub can_hint: bool,
    pub heat_map: bool,
    pub on_undo: Callback<()>,
    pub on_redo: Callback<()>,
    pub on_hint: Callback<()>,
    pub on_toggle_heat: Callback<()>,
    pub book: bool,
    pub on_toggle_book: Callback<()>,
}

#[function_component(Controls)]
pub fn controls(props: &ControlsProps) -> Html {
    html! {
        <div class="controls">
            <button id="undo" onclick={props.on_undo.reform(|_| ())} disabled={!props.can_undo}
                    title="Take back your last move (and the agent's reply)">{ "Undo" }</button>
            <button id="redo" onclick={props.on_redo.reform(|_| ())} disabled={!props.can_redo}>{ "Redo" }</button>
            <button id="hint" onclick={props.on_hint.reform(|_| ())} disabled={!props.can_hint}>{ "Hint" }</button>
            <label class="toggle">
                <input id="heatmap" type="checkbox" checked={props.heat_map} onchange={props.on_toggle_heat.reform(|_| ())} />
                { " Heat map" }
            </label>
            <label class="toggle" title="The agent plays its first moves from its opening book, at once (8x8 standard)">
                <input id="book" type="checkbox" checked={props.book} onchange={props.on_toggle_book.reform(|_| ())} />
                { " Opening book" }
            </label>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct WatchProps {
    pub paused: bool,
    /// The pause between moves, in milliseconds.
    pub delay_ms: u32,
    pub on_change: Callback<(bool, u32)>,
}

/// Pause and speed for agent against agent.
#[function_component(WatchControls)]
pub fn watch_controls(props: &WatchProps) -> Html {
    let (paused, delay) = (props.paused, props.delay_ms);
    let on_pause = props.on_change.reform(move |_| (!paused, delay));
    let on_speed = props.on_change.reform(move |e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        (paused, value.parse().unwrap_or(delay))
    });
    html! {
        <div class="controls watch">
            <button id="pause" onclick={on_pause}>{ if paused { "Resume" } else { "Pause" } }</button>
            <label>{ "Speed " }
                <select id="watch-delay" onchange={on_speed}>
                    { for [(0, "as fast as it thinks"), (1000, "a move a second"), (3000, "a move every 3 s")].map(|(ms, label)| html! {
                        <option value={ms.to_string()} selected={delay == ms}>{ label }</option>
                    }) }
                </select>
            </label>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct GameOverProps {
    /// The game's record as text.
    pub record: String,
    /// The same game as a GGF record.
    pub ggf: String,
    /// Offer a rematch with the colours swapped (when a person played one colour).
    pub rematch: bool,
    pub on_rematch: Callback<()>,
}

/// A rematch, and the record to copy or download.
#[function_component(GameOver)]
pub fn game_over(props: &GameOverProps) -> Html {
    // What the last copy did: None before any, then whether the browser took it.
    let copied = use_state(|| None::<bool>);
    let on_copy = {
        let (record, copied) = (props.record.clone(), copied.clone());
        Callback::from(move |_| {
            let Some(window) = web_sys::window() else {
                return;
            };
            // The browser may refuse (no permission, not a secure page): say so, and the
            // download is still there.
            let written = JsFuture::from(window.navigator().clipboard().write_text(&record));
            let copied = copied.clone();
            spawn_local(async move { copied.set(Some(written.await.is_ok())) });
        })
    };
    let copy_label = match *copied {
        None => "Copy the record",
        Some(true) => "Copied",
        Some(false) => "Copy refused by the browser: download it",
    };
    let href = data_href(&props.record);
    html! {
        <div class="controls game-over" id="game-over">
            if props.rematch {
                <button id="rematch" onclick={props.on_rematch.reform(|_| ())}>{ "Rematch (colours swapped)" }</button>
            }
            <button id="copy-record" onclick={on_copy}>{ copy_label }</button>
            <a id="download-record" class="button" {href} download="othello-zero-game.txt">{ "Download the record" }</a>
            <a id="download-ggf-end" class="button" href={data_href(&props.ggf)} download="othello-zero-game.ggf"
               title="The game as a GGF record, which NBoard, NTest and Edax read">{ "Download as GGF" }</a>
        </div>
    }
}

/// A link target that downloads `text` as a file, with no server round trip.
pub fn data_href(text: &str) -> String {
    format!(
        "data:text/plain;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(text))
    )
}
