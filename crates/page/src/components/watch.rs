//! The pause and speed of a game the agent plays against itself.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

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
