//! The page's title, the way into Puzzle mode, who plays the agent's side, and the link to
//! this game.

use crate::components::CopyLink;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HeaderProps {
    /// Who thinks for the agent, at which level ("Opponent: the az-8x8 network, …").
    pub opponent: String,
    /// The network's measured strength, when its card has it.
    pub strength: Option<String>,
    /// The agent's player spec (for the tests), empty while none plays.
    pub spec: String,
    /// The fragment that opens this game (`crate::link`).
    pub link: String,
    /// Whether the person is looking back at an earlier move: the link still opens the
    /// whole game, at its last move, which the words after a copy say (the ninth look read
    /// "Link copied" as a link to the move on the board).
    pub looking_back: bool,
    /// Why the address the page was opened with is no link it can follow.
    pub link_error: Option<String>,
    /// Opens Puzzle mode.
    pub on_puzzles: Callback<()>,
}

#[function_component(Header)]
pub fn header(props: &HeaderProps) -> Html {
    html! {
        <header>
            <h1>{ "Othello Zero" }</h1>
            <button id="open-puzzles" onclick={props.on_puzzles.reform(|_: MouseEvent| ())}
                    title="Positions with one right move, proven by the exact solver, rated as you solve them">{ "Puzzles" }</button>
            <CopyLink fragment={props.link.clone()} copied={copied_words(props.looking_back)} />
            if let Some(error) = props.link_error.clone() {
                <p class="message" id="link-error" role="alert" style="flex-basis: 100%">{ error }</p>
            }
            <p class="model" id="model-status" aria-live="polite" data-player={props.spec.clone()}>{ props.opponent.clone() }</p>
            // The card's match results are a dense paragraph: folded, so that the board,
            // the search and the graph come first on a laptop's screen.
            // Its room is kept before the card has come (hidden, out of the tab order), so
            // that its coming does not move the board down (the tenth look: 68 px on a phone
            // at 1.3 s).
            if let Some(strength) = props.strength.clone() {
                <details class="model small strength">
                    <summary>{ "How strong it measured" }</summary>
                    <p class="model small" id="model-strength">{ strength }</p>
                </details>
            } else {
                <details class="model small strength room" aria-hidden="true">
                    <summary tabindex="-1">{ "How strong it measured" }</summary>
                </details>
            }
        </header>
    }
}

/// What the header says once the game's link is copied.
fn copied_words(looking_back: bool) -> &'static str {
    if looking_back {
        "Link copied: it opens the whole game, at its last move"
    } else {
        "Link copied"
    }
}
