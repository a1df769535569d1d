//! The moves so far, the transcript, and a form to load one.

use othello::Game;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct MoveListProps {
    pub game: Game,
    /// A pasted transcript to load.
    pub on_load: Callback<String>,
}

#[function_component(MoveList)]
pub fn move_list(props: &MoveListProps) -> Html {
    let input = use_node_ref();
    let onclick = {
        let input = input.clone();
        let on_load = props.on_load.clone();
        Callback::from(move |_| {
            let text = input
                .cast::<HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default();
            on_load.emit(text);
        })
    };
    let moves = props.game.moves().chunks(2).enumerate().map(|(i, pair)| {
        let text: Vec<String> = pair.iter().map(|m| m.to_string()).collect();
        html! { <li><span class="num">{ format!("{}.", i + 1) }</span>{ format!(" {}", text.join(" ")) }</li> }
    });
    html! {
        <fieldset>
            <legend>{ "Moves" }</legend>
            <ol class="moves" id="moves" aria-label="Move list">{ for moves }</ol>
            <p class="small">{ "Transcript: " }<code id="transcript">{ props.game.transcript(false) }</code></p>
            <textarea ref={input} id="transcript-input" rows="2" aria-label="Transcript to load" placeholder="paste a transcript, e.g. f5d6c3d3c4" />
            <button id="load-transcript" {onclick}>{ "Load transcript" }</button>
        </fieldset>
    }
}
