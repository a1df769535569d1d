//! The disc counts above the board, at a finished game's end what its empty squares
//! add, as the result line's score counts them, and the unit of the squares' numbers.

use othello::Position;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CountsProps {
    pub position: Position,
    /// The unit of the numbers on the squares, if they hold any (`overlay::unit`).
    #[prop_or_default]
    pub unit: Option<&'static str>,
}

#[function_component(Counts)]
pub fn counts(props: &CountsProps) -> Html {
    let count = props.position.count();
    // The squares' unit at a glance, above the board on the counts' line, where it takes no
    // room of its own: shares of visits while the agent thinks, margins in discs for a hint,
    // an analysis or a reviewed move, and the switch between them was a caption's word only
    // (issue 68). Beside the counts, not in them, whose text is the board's alone.
    html! {
        <div class="counts-row">
            <p class="counts" id="counts">
                <span class="count black"><span class="disc black mini" aria-hidden="true"></span>{ format!("Black {}", count.black_discs) }</span>
                <span class="count white"><span class="disc white mini" aria-hidden="true"></span>{ format!("White {}", count.white_discs) }</span>
                if let Some(note) = crate::format::empties_note(&props.position) {
                    <span class="count empties" id="counts-empties" title={note.clone()}>{ note }</span>
                }
            </p>
            if let Some(unit) = props.unit {
                <span class={classes!("legend-unit", unit.contains("visits").then_some("shares"))} id="heat-unit"
                      title="What the numbers on the squares are: the line under the board says more">{ unit }</span>
            }
        </div>
    }
}
