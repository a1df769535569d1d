//! Set up any position from board text and analyse it.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct AnalysisFormProps {
    /// The current position's board text.
    pub board_text: String,
    pub on_load: Callback<String>,
}

#[function_component(AnalysisForm)]
pub fn analysis_form(props: &AnalysisFormProps) -> Html {
    let input = use_node_ref();
    let onclick = {
        let (input, board_text) = (input.clone(), props.board_text.clone());
        props.on_load.reform(move |_: MouseEvent| {
            let typed = input
                .cast::<HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default();
            crate::editor::text_to_analyse(&typed, &board_text)
        })
    };
    html! {
        <fieldset>
            <legend>{ "Analyse a position" }</legend>
            // One line that scrolls: 64 squares that wrapped anywhere were unreadable.
            <label class="small" for="board-text">{ "This position as board text:" }</label>
            <input id="board-text" class="board-text" readonly=true value={props.board_text.clone()} />
            <label class="small" for="board-input">{ "Board text to analyse (left empty: the position on the board, above):" }</label>
            <textarea ref={input} id="board-input" rows="2"
                      placeholder="Empty: the position on the board. Or 64 (or 36) of X O -, a space, X or O to move" />
            <button id="load-board" {onclick}>{ "Analyse" }</button>
        </fieldset>
    }
}
