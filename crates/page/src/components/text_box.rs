//! A text box and the button beside it that hands its text on (the board text to analyse,
//! a transcript or record to load).

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// The ref for a `<textarea>` and the `onclick` of its button, which hands the text in the
/// box to `on_text`.
#[hook]
pub fn use_text_submit(on_text: &Callback<String>) -> (NodeRef, Callback<MouseEvent>) {
    let input = use_node_ref();
    let onclick = {
        let input = input.clone();
        on_text.reform(move |_: MouseEvent| {
            input
                .cast::<HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default()
        })
    };
    (input, onclick)
}
