//! Set up any position from board text and analyse it.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct AnalysisFormProps {
    /// The current position's board text.
    pub board_text: String,
    pub on_load: Callback<String>,
    /// Analyses the game on the board, its moves kept, when the box is left empty; `None`
    /// while the editor's board, which has no moves, is the position shown.
    pub on_here: Option<Callback<()>>,
}

#[function_component(AnalysisForm)]
pub fn analysis_form(props: &AnalysisFormProps) -> Html {
    let input = use_node_ref();
    let onclick = {
        let (input, board_text) = (input.clone(), props.board_text.clone());
        let (on_load, on_here) = (props.on_load.clone(), props.on_here.clone());
        Callback::from(move |_: MouseEvent| {
            let typed = input
                .cast::<HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default();
            match (&on_here, typed.trim().is_empty()) {
                (Some(here), true) => here.emit(()),
                _ => on_load.emit(crate::editor::text_to_analyse(&typed, &board_text)),
            }
        })
    };
    html! {
        <fieldset>
            <legend>{ "Analyse a position" }</legend>
            // One line that scrolls: 64 squares that wrapped anywhere were unreadable.
            <label class="small" for="board-text">{ "This position as board text:" }</label>
            <input id="board-text" class="board-text" readonly=true value={props.board_text.clone()} />
            <label class="small" for="board-input">{ "Board text to analyse (left empty: the game on the board, from the position shown, the moves after it kept to redo):" }</label>
            <textarea ref={input} id="board-input" rows="2"
                      placeholder="Empty: the game on the board, from the position shown. Or 64 (or 36) of X O -, a space, X or O to move" />
            <button id="load-board" {onclick}>{ "Analyse" }</button>
        </fieldset>
    }
}
