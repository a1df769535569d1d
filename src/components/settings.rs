//! The new-game form (board, rules, who plays) and the difficulty (a search budget).

use crate::levels::{Difficulty, LEVELS};
use othello::{BoardSize, Color, Seats, Variant};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NewGameProps {
    pub size: BoardSize,
    pub variant: Variant,
    pub seats: Seats,
    pub on_new: Callback<(BoardSize, Variant, Seats)>,
}

fn seats_value(seats: Seats) -> &'static str {
    match seats {
        Seats::Human(Color::Black) => "black",
        Seats::Human(Color::White) => "white",
        Seats::AgentVsAgent => "watch",
        Seats::Analysis => "analysis",
    }
}

fn seats_from(value: &str) -> Seats {
    match value {
        "white" => Seats::Human(Color::White),
        "watch" => Seats::AgentVsAgent,
        "analysis" => Seats::Analysis,
        _ => Seats::Human(Color::Black),
    }
}

#[function_component(NewGame)]
pub fn new_game(props: &NewGameProps) -> Html {
    let size_ref = use_node_ref();
    let variant_ref = use_node_ref();
    let seats_ref = use_node_ref();
    let onclick = {
        let (size_ref, variant_ref, seats_ref) =
            (size_ref.clone(), variant_ref.clone(), seats_ref.clone());
        let on_new = props.on_new.clone();
        Callback::from(move |_| {
            let value = |r: &NodeRef| {
                r.cast::<HtmlSelectElement>()
                    .map(|s| s.value())
                    .unwrap_or_default()
            };
            let size = value(&size_ref).parse().unwrap_or(BoardSize::Eight);
            let variant = value(&variant_ref).parse().unwrap_or_default();
            on_new.emit((size, variant, seats_from(&value(&seats_ref))));
        })
    };
    let seats = seats_value(props.seats);
    html! {
        <fieldset>
            <legend>{ "New game" }</legend>
            <label>{ "Board " }
                <select ref={size_ref} id="new-size">
                    { for [BoardSize::Eight, BoardSize::Six].map(|s| html! {
                        <option value={s.n().to_string()} selected={props.size == s}>{ s.to_string() }</option>
                    }) }
                </select>
            </label>
            <label>{ "Rules " }
                <select ref={variant_ref} id="new-variant">
                    <option value={Variant::Standard.to_string()} selected={props.variant == Variant::Standard}>{ "standard" }</option>
                    <option value={Variant::Reversed.to_string()} selected={props.variant == Variant::Reversed}>{ "reversed (fewest discs wins)" }</option>
                </select>
            </label>
            <label>{ "You " }
                <select ref={seats_ref} id="new-players">
                    <option value="black" selected={seats == "black"}>{ "play Black" }</option>
                    <option value="white" selected={seats == "white"}>{ "play White" }</option>
                    <option value="watch" selected={seats == "watch"}>{ "watch agent vs agent" }</option>
                    <option value="analysis" selected={seats == "analysis"}>{ "analyse (move both sides)" }</option>
                </select>
            </label>
            <button id="new-game" {onclick}>{ "New game" }</button>
        </fieldset>
    }
}

#[derive(Properties, PartialEq)]
pub struct DifficultyProps {
    pub difficulty: Difficulty,
    pub on_change: Callback<Difficulty>,
}

#[function_component(DifficultyPicker)]
pub fn difficulty_picker(props: &DifficultyProps) -> Html {
    let custom_ref = use_node_ref();
    let on_level = {
        let custom_ref = custom_ref.clone();
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            let custom = custom_ref
                .cast::<HtmlInputElement>()
                .and_then(|i| i.value().trim().parse::<u64>().ok())
                .unwrap_or(500);
            on_change.emit(match value.as_str() {
                "custom-sims" => Difficulty::Simulations(custom),
                "custom-ms" => Difficulty::Millis(custom),
                id => Difficulty::Level(id.to_owned()),
            });
        })
    };
    let on_custom = {
        let on_change = props.on_change.clone();
        let current = props.difficulty.clone();
        Callback::from(move |e: Event| {
            let Ok(value) = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .trim()
                .parse::<u64>()
            else {
                return;
            };
            match current {
                Difficulty::Millis(_) => on_change.emit(Difficulty::Millis(value)),
                Difficulty::Simulations(_) => on_change.emit(Difficulty::Simulations(value)),
                Difficulty::Level(_) => {}
            }
        })
    };
    let (level_value, custom_value) = match &props.difficulty {
        Difficulty::Level(id) => (id.clone(), String::new()),
        Difficulty::Simulations(n) => ("custom-sims".to_owned(), n.to_string()),
        Difficulty::Millis(n) => ("custom-ms".to_owned(), n.to_string()),
    };
    let custom_active = !matches!(props.difficulty, Difficulty::Level(_));
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
            <input ref={custom_ref} id="custom-budget" type="number" min="1" aria-label="Custom budget"
                   value={custom_value} disabled={!custom_active} onchange={on_custom} />
            <p class="small">{ props.difficulty.describe() }</p>
        </fieldset>
    }
}
