//! The board editor's controls (the board itself is the game's board, drawn from the
//! editor's position): the side to move, clear, the start position, turn and mirror, copy
//! as board text or GGF, who plays, and "Play from here" (or the reason the position cannot
//! be played).

use super::copy_position::CopyPosition;
use othello::Color;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub to_move: Color,
    pub error: Option<String>,
    /// Why no game can start from the board as it is, if so: "Play from here" is then
    /// disabled, with the reason as its title, instead of looking ready.
    pub refusal: Option<String>,
    pub on_side: Callback<Color>,
    pub on_clear: Callback<()>,
    pub on_reset: Callback<()>,
    pub on_rotate: Callback<()>,
    pub on_mirror: Callback<()>,
    pub on_flip: Callback<()>,
    /// The position as board text and as a GGF record, to copy.
    pub board_text: String,
    pub ggf: String,
    /// Play from the position with these seats ("black", "white", "analysis").
    pub on_play: Callback<String>,
    pub on_close: Callback<()>,
    /// Who plays, as first offered: the game's seats ("black", "white", "analysis").
    pub seats: &'static str,
}

#[function_component(EditorPanel)]
pub fn editor_panel(props: &EditorProps) -> Html {
    let seats = use_state(|| props.seats.to_owned());
    let on_side = props.on_side.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        if value == "white" {
            Color::White
        } else {
            Color::Black
        }
    });
    let on_seats = {
        let seats = seats.clone();
        Callback::from(move |e: Event| {
            seats.set(
                e.target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value(),
            );
        })
    };
    let on_play = {
        let (seats, play) = (seats.clone(), props.on_play.clone());
        Callback::from(move |_| play.emit((*seats).clone()))
    };
    let side = if props.to_move == Color::White {
        "white"
    } else {
        "black"
    };
    html! {
        <div class="editor" id="editor" aria-label="Set up a position">
            <p class="small">{ "Click a square to cycle it: empty, black, white. Then choose who moves and play from here." }</p>
            <div class="controls">
                <label>{ "To move " }
                    <select id="editor-side" onchange={on_side}>
                        <option value="black" selected={side == "black"}>{ "Black" }</option>
                        <option value="white" selected={side == "white"}>{ "White" }</option>
                    </select>
                </label>
                <button id="editor-clear" onclick={props.on_clear.reform(|_| ())}>{ "Clear" }</button>
                <button id="editor-reset" onclick={props.on_reset.reform(|_| ())}>{ "Start position" }</button>
            </div>
            <div class="controls">
                <label>{ "You " }
                    <select id="editor-seats" onchange={on_seats}>
                        <option value="black" selected={*seats == "black"}>{ "play Black" }</option>
                        <option value="white" selected={*seats == "white"}>{ "play White" }</option>
                        <option value="analysis" selected={*seats == "analysis"}>{ "analyse (move both sides)" }</option>
                    </select>
                </label>
                <button id="editor-play" onclick={on_play} disabled={props.refusal.is_some()}
                        title={props.refusal.clone()}>{ "Play from here" }</button>
                <button id="editor-close" onclick={props.on_close.reform(|_| ())}>{ "Cancel" }</button>
            </div>
            // The board's own fault, said as soon as there is one, beside the disabled
            // button (a title alone is no help on a phone); else what a click was refused for.
            if let Some(error) = props.refusal.clone().or_else(|| props.error.clone()) {
                <p class="message" id="editor-error" role="alert">{ error }</p>
            }
            // Turning and copying come after playing and its refusal, which a person looks
            // for first and which must stay in view on a laptop's screen.
            <div class="controls">
                <button id="editor-rotate" onclick={props.on_rotate.reform(|_| ())} title="Turn the discs a quarter turn clockwise">{ "Rotate ↻" }</button>
                <button id="editor-mirror" onclick={props.on_mirror.reform(|_| ())} title="Swap left and right">{ "Mirror ↔" }</button>
                <button id="editor-flip" onclick={props.on_flip.reform(|_| ())} title="Swap top and bottom">{ "Flip ↕" }</button>
            </div>
            <CopyPosition board_text={props.board_text.clone()} ggf={props.ggf.clone()} />
        </div>
    }
}
