//! The new-game form: board, rules, who plays, and a balanced opening.

use othello::{BoardSize, Color, Seats, Variant};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NewGameProps {
    pub size: BoardSize,
    pub variant: Variant,
    pub seats: Seats,
    /// Board, rules, seats, and whether to start from a random balanced (XOT) opening.
    pub on_new: Callback<(BoardSize, Variant, Seats, bool)>,
    /// A new game waits for the person to confirm throwing this one away.
    pub pending: bool,
    /// Discs placed in the game that would be thrown away (its passes left out).
    pub moves: usize,
    pub on_confirm: Callback<()>,
    pub on_cancel: Callback<()>,
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

/// A select's value, empty before it is drawn.
fn value(select: &NodeRef) -> String {
    select
        .cast::<HtmlSelectElement>()
        .map(|s| s.value())
        .unwrap_or_default()
}

/// The form's selects: board, rules, who plays, and the start.
#[derive(Clone, Default)]
struct Selects {
    size: NodeRef,
    variant: NodeRef,
    seats: NodeRef,
    start: NodeRef,
}

impl Selects {
    /// The board and rules chosen, and whether XOT's openings are for them.
    fn board(&self) -> (BoardSize, Variant, bool) {
        let size: BoardSize = value(&self.size).parse().unwrap_or(BoardSize::Eight);
        let variant: Variant = value(&self.variant).parse().unwrap_or_default();
        (
            size,
            variant,
            size == BoardSize::Eight && variant == Variant::Standard,
        )
    }

    /// Offers XOT's openings only for standard 8x8; a choice no longer offered goes back
    /// to the standard position, in sight.
    fn on_board_change(&self, xot_allowed: UseStateHandle<bool>) -> Callback<Event> {
        let selects = self.clone();
        Callback::from(move |_: Event| {
            let (_, _, allowed) = selects.board();
            if !allowed {
                if let Some(start) = selects.start.cast::<HtmlSelectElement>() {
                    start.set_value("standard");
                }
            }
            xot_allowed.set(allowed);
        })
    }

    fn on_start(
        &self,
        on_new: Callback<(BoardSize, Variant, Seats, bool)>,
    ) -> Callback<MouseEvent> {
        let selects = self.clone();
        Callback::from(move |_| {
            let (size, variant, allowed) = selects.board();
            let xot = value(&selects.start) == "xot" && allowed;
            on_new.emit((size, variant, seats_from(&value(&selects.seats)), xot));
        })
    }
}

#[function_component(NewGame)]
pub fn new_game(props: &NewGameProps) -> Html {
    let selects = use_memo((), |()| Selects::default());
    let (size_ref, variant_ref) = (selects.size.clone(), selects.variant.clone());
    let (seats_ref, start_ref) = (selects.seats.clone(), selects.start.clone());
    // XOT's openings are for standard 8x8 alone: the choice is offered only there.
    let xot_allowed =
        use_state(|| props.size == BoardSize::Eight && props.variant == Variant::Standard);
    let on_board_change = selects.on_board_change(xot_allowed.clone());
    let onclick = selects.on_start(props.on_new.clone());
    let seats = seats_value(props.seats);
    html! {
        <fieldset>
            <legend>{ "New game" }</legend>
            <label>{ "Board " }
                <select ref={size_ref} id="new-size" onchange={on_board_change.clone()}>
                    { for [BoardSize::Eight, BoardSize::Six].map(|s| html! {
                        <option value={s.n().to_string()} selected={props.size == s}>{ s.to_string() }</option>
                    }) }
                </select>
            </label>
            <label>{ "Rules " }
                <select ref={variant_ref} id="new-variant" onchange={on_board_change}>
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
            <label>{ "Start " }
                <select ref={start_ref} id="new-start">
                    <option value="standard" selected=true>{ "the standard position" }</option>
                    <option value="xot" disabled={!*xot_allowed}>{ "a random balanced opening (XOT, 8x8 standard only)" }</option>
                </select>
            </label>
            <button id="new-game" {onclick}>{ "New game" }</button>
            if props.pending {
                <div class="confirm" id="confirm-new" role="alertdialog" aria-label="Discard the game?">
                    <p>{ crate::explain::discard_question(props.moves) }</p>
                    <button id="confirm-new-yes" onclick={props.on_confirm.reform(|_| ())}>{ "Discard it and start" }</button>
                    <button id="confirm-new-no" onclick={props.on_cancel.reform(|_| ())}>{ "Keep playing" }</button>
                </div>
            }
        </fieldset>
    }
}
