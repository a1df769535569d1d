//! Set up any position from board text and analyse it.

use super::text_box::use_text_submit;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct AnalysisFormProps {
    /// The current position's board text.
    pub board_text: String,
    pub on_load: Callback<String>,
}

#[function_component(AnalysisForm)]
pub fn analysis_form(props: &AnalysisFormProps) -> Html {
    let (input, onclick) = use_text_submit(&props.on_load);
    html! {
        <fieldset>
            <legend>{ "Analyse a position" }</legend>
            // One line that scrolls: 64 squares that wrapped anywhere were unreadable.
            <label class="small" for="board-text">{ "This position as board text:" }</label>
            <input id="board-text" class="board-text" readonly=true value={props.board_text.clone()} />
            <textarea ref={input} id="board-input" rows="2" aria-label="Board text to analyse" placeholder="64 (or 36) of X O -, a space, X or O to move" />
            <button id="load-board" {onclick}>{ "Analyse" }</button>
        </fieldset>
    }
}
