//! The difficulty: a level, each a search budget, with what it means.

use crate::levels::{Difficulty, LEVELS};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DifficultyProps {
    pub difficulty: Difficulty,
    pub on_change: Callback<Difficulty>,
    /// What plays this board at this level, when it is not the network (alpha-beta).
    #[prop_or_default]
    pub note: Option<String>,
    /// Which way the levels run, and how the two Instinct levels compare with this board's
    /// network (`levels::instinct_note`).
    #[prop_or_default]
    pub range: String,
}

#[function_component(DifficultyPicker)]
pub fn difficulty_picker(props: &DifficultyProps) -> Html {
    // What the person typed that was refused, and why; cleared by the next valid entry.
    let refused = use_state(|| None::<String>);
    let on_level = {
        let (on_change, refused) = (props.on_change.clone(), refused.clone());
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            refused.set(None);
            on_change.emit(match value.as_str() {
                "custom-sims" => Difficulty::Simulations(500),
                "custom-ms" => Difficulty::Millis(1000),
                id => Difficulty::Level(id.to_owned()),
            });
        })
    };
    let kind = props.difficulty.custom_kind();
    let on_custom = {
        let (on_change, refused) = (props.on_change.clone(), refused.clone());
        Callback::from(move |e: Event| {
            let Some(kind) = kind else { return };
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            match kind.parse(&text) {
                Ok(d) => {
                    refused.set(None);
                    on_change.emit(d);
                }
                Err(why) => refused.set(Some(why)),
            }
        })
    };
    let (level_value, custom_value) = match &props.difficulty {
        Difficulty::Level(id) => (id.clone(), String::new()),
        Difficulty::Simulations(n) => ("custom-sims".to_owned(), n.to_string()),
        Difficulty::Millis(n) => ("custom-ms".to_owned(), n.to_string()),
    };
    html! {
        <fieldset>
            <legend>{ "Difficulty" }</legend>
            <select id="level" aria-label="Difficulty" onchange={on_level}>
                { for LEVELS.iter().map(|l| html! {
                    <option value={l.id} selected={level_value == l.id}>{ l.label }</option>
                }) }
                <option value="custom-sims" selected={level_value == "custom-sims"}>{ "Custom: simulations per move" }</option>
                <option value="custom-ms" selected={level_value == "custom-ms"}>{ "Custom: milliseconds per move" }</option>
            </select>
            if let Some(kind) = kind {
                <label class="custom">{ format!("{}: ", capitalise(&kind.prompt())) }
                    <input id="custom-budget" type="number" min={kind.range().0.to_string()} max={kind.range().1.to_string()}
                           value={custom_value} onchange={on_custom} aria-invalid={refused.is_some().to_string()} />
                </label>
                if let Some(why) = (*refused).clone() {
                    <p class="small error" id="custom-error" role="alert">{ why }</p>
                }
            }
            <p class="small" id="level-note">{ props.difficulty.describe() }</p>
            // Which way the list runs, without opening it, and which Instinct is the easier
            // (issue 68: neither was said).
            <p class="small" id="level-range">{ props.range.clone() }</p>
            if let Some(note) = props.note.clone() {
                <p class="small" id="level-player">{ note }</p>
            }
        </fieldset>
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
