//! The disc counts above the board, and at a finished game's end what its empty squares
//! add, as the result line's score counts them.

use othello::Position;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CountsProps {
    pub position: Position,
}

#[function_component(Counts)]
pub fn counts(props: &CountsProps) -> Html {
    let count = props.position.count();
    html! {
        <p class="counts" id="counts">
            <span class="count black"><span class="disc black mini" aria-hidden="true"></span>{ format!("Black {}", count.black_discs) }</span>
            <span class="count white"><span class="disc white mini" aria-hidden="true"></span>{ format!("White {}", count.white_discs) }</span>
            if let Some(note) = crate::format::empties_note(&props.position) {
                <span class="count empties" id="counts-empties" title={note.clone()}>{ note }</span>
            }
        </p>
    }
}
