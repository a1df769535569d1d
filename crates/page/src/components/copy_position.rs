//! Copying the editor's position as board text or GGF, with a field to copy it from by
//! hand where the browser refuses the clipboard.

use wasm_bindgen_futures::{spawn_local, JsFuture};
use yew::prelude::*;

/// What the last copy put out: which form, its text, and whether the browser's clipboard
/// took it (`None` while it answers).
#[derive(Clone, PartialEq)]
struct Copied {
    what: &'static str,
    text: String,
    taken: Option<bool>,
}

#[derive(Properties, PartialEq)]
pub struct CopyProps {
    pub board_text: String,
    pub ggf: String,
}

/// The copy buttons, and what became of the last copy with its text in a field.
#[function_component(CopyPosition)]
pub fn copy_position(props: &CopyProps) -> Html {
    let copied = use_state(|| None::<Copied>);
    let on_copy_text = copy_to_clipboard(&copied, "board text", props.board_text.clone());
    let on_copy_ggf = copy_to_clipboard(&copied, "GGF", props.ggf.clone());
    // A copy of a position since changed is no longer this one: it goes.
    let current = (*copied)
        .as_ref()
        .filter(|c| c.text == props.board_text || c.text == props.ggf);
    let copy_note = current.map(|c| match c.taken {
        None => format!("Copying the position as {}…", c.what),
        Some(true) => format!("Copied the position as {} to the clipboard.", c.what),
        Some(false) => format!(
            "The browser refused the clipboard: select the {} below and copy it.",
            c.what
        ),
    });
    html! {
        <>
            <div class="controls">
                <button id="editor-copy-text" onclick={on_copy_text} title="Board text, which Analyse a position reads">{ "Copy as board text" }</button>
                <button id="editor-copy-ggf" onclick={on_copy_ggf} title="A GGF record with no moves, which Load and NBoard read">{ "Copy as GGF" }</button>
            </div>
            if let (Some(note), Some(c)) = (copy_note, current) {
                <p class="small" id="editor-copy-note" role="status">{ note }</p>
                <input id="editor-copied" class="board-text" readonly=true value={c.text.clone()}
                       aria-label={format!("The position as {}", c.what)} onfocus={Callback::from(select_all)} />
            }
        </>
    }
}

/// A copy button's click: the text goes in the field below at once, so it can be selected
/// by hand where the browser refuses the clipboard (no permission, a page that is not
/// https), and the note says whether the clipboard took it.
fn copy_to_clipboard(
    copied: &UseStateHandle<Option<Copied>>,
    what: &'static str,
    text: String,
) -> Callback<MouseEvent> {
    let copied = copied.clone();
    Callback::from(move |_: MouseEvent| {
        copied.set(Some(Copied {
            what,
            text: text.clone(),
            taken: None,
        }));
        let Some(window) = web_sys::window() else {
            return;
        };
        let written = JsFuture::from(window.navigator().clipboard().write_text(&text));
        let (copied, text) = (copied.clone(), text.clone());
        spawn_local(async move {
            let taken = written.await.is_ok();
            copied.set(Some(Copied {
                what,
                text,
                taken: Some(taken),
            }));
        });
    })
}

/// Selects the whole field, so a person copies it in one gesture.
fn select_all(e: FocusEvent) {
    e.target_unchecked_into::<web_sys::HtmlInputElement>()
        .select();
}
