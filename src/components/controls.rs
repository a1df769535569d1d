//! The disc counts above the board, and the buttons below it.

use othello::Position;
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
    pub can_hint: bool,
    pub heat_map: bool,
    pub on_undo: Callback<()>,
    pub on_redo: Callback<()>,
    pub on_hint: Callback<()>,
    pub on_toggle_heat: Callback<()>,
}

#[function_component(Controls)]
pub fn controls(props: &ControlsProps) -> Html {
    html! {
        <div class="controls">
            <button id="undo" onclick={props.on_undo.reform(|_| ())}>{ "Undo" }</button>
            <button id="redo" onclick={props.on_redo.reform(|_| ())}>{ "Redo" }</button>
            <button id="hint" onclick={props.on_hint.reform(|_| ())} disabled={!props.can_hint}>{ "Hint" }</button>
            <label class="toggle">
                <input id="heatmap" type="checkbox" checked={props.heat_map} onchange={props.on_toggle_heat.reform(|_| ())} />
                { " Heat map" }
            </label>
        </div>
    }
}
