//! What could not be read (a saved game, the puzzle record), said until the person
//! dismisses it with OK (`{id}-ok`).

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NoticeProps {
    pub id: &'static str,
    /// The words; nothing is drawn without them.
    pub text: Option<String>,
    pub on_ok: Callback<()>,
}

#[function_component(Notice)]
pub fn notice(props: &NoticeProps) -> Html {
    let Some(words) = props.text.clone() else {
        return Html::default();
    };
    let id = props.id;
    html! {
        <p class="message" {id} role="alert">{ words }{ " " }
            <button id={format!("{id}-ok")} onclick={props.on_ok.reform(|_| ())}>{ "OK" }</button>
        </p>
    }
}
