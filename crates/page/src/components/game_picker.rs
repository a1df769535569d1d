//! A record of several games: which one to load.

use crate::records::RecordGame;
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PickerProps {
    pub games: Rc<Vec<RecordGame>>,
    pub on_pick: Callback<Option<usize>>,
}

/// A record of several games (a GGS archive): which one to load.
#[function_component(GamePicker)]
pub fn game_picker(props: &PickerProps) -> Html {
    let select = use_node_ref();
    let on_load = {
        let select = select.clone();
        props.on_pick.reform(move |_| {
            select
                .cast::<HtmlSelectElement>()
                .and_then(|s| s.value().parse().ok())
        })
    };
    html! {
        <div class="confirm" id="pick-game" role="group" aria-label="Pick a game of the record">
            <p>{ format!("The record holds {} games: pick one to load.", props.games.len()) }</p>
            <select ref={select} id="pick-game-select" aria-label="Game to load">
                { for props.games.iter().enumerate().map(|(i, g)| html! {
                    <option value={i.to_string()}>{ g.label.clone() }</option>
                }) }
            </select>
            <button id="pick-game-load" onclick={on_load}>{ "Load this game" }</button>
            <button id="pick-game-cancel" onclick={props.on_pick.reform(|_| None)}>{ "Cancel" }</button>
        </div>
    }
}
