//! The buttons below the board: undo, redo, hint, and the heat map's and the opening
//! book's switches.

use yew::prelude::*;

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
