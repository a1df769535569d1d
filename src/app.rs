//! The Yew front end: a view of [`GameState`] and the controls that dispatch actions.

use crate::state::{Action, GameState};
use engine::players::GreedyPlayer;
use engine::{Agent, Budget};
use othello::{BoardSize, Color, Move, Square};
use std::rc::Rc;
use yew::prelude::*;

impl Reducible for GameState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| GameState::new(BoardSize::Eight, Color::Black));
    let agent = use_mut_ref(|| GreedyPlayer::new(js_sys_seed()));

    {
        // The agent replies whenever it is its turn.
        let state = state.clone();
        use_effect_with(state.game.clone(), move |_| {
            if state.agent_to_move() {
                let mv = agent
                    .borrow_mut()
                    .select_move(state.position(), &Budget::default());
                state.dispatch(Action::Play(mv));
            }
        });
    }

    let pos = *state.position();
    let n = pos.size().n();
    let legal = if state.agent_to_move() {
        Default::default()
    } else {
        pos.legal_moves()
    };
    let last = state.game.moves().last().and_then(|mv| mv.square());

    let cells = Square::all(pos.size()).map(|sq| {
        let is_legal = legal.contains(sq);
        let onclick = {
            let state = state.clone();
            Callback::from(move |_| state.dispatch(Action::Play(Move::Place(sq))))
        };
        let disc = pos.color_at(sq).map(|color| {
            let class = if color == Color::Black { "disc black" } else { "disc white" };
            html! { <span class={class}></span> }
        });
        let label = match pos.color_at(sq) {
            Some(color) => format!("{sq}: {color}"),
            None if is_legal => format!("{sq}: legal move"),
            None => format!("{sq}: empty"),
        };
        html! {
            <button
                class={classes!("cell", is_legal.then_some("legal"), (last == Some(sq)).then_some("last"))}
                aria-label={label}
                disabled={!is_legal}
                onclick={onclick}
            >{ for disc }</button>
        }
    });

    let count = pos.count();
    let status = match pos.outcome() {
        Some(outcome) => format!("Game over: {outcome}"),
        None if state.agent_to_move() => "The agent is thinking…".to_string(),
        None if pos.must_pass() => format!("{} has no move and must pass", pos.side_to_move()),
        None => format!("{} to move", pos.side_to_move()),
    };
    let on_pass = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Play(Move::Pass)))
    };
    let new_game = |size: BoardSize, human: Color| {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::NewGame { size, human }))
    };
    let on_undo = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Undo))
    };
    let on_redo = {
        let state = state.clone();
        Callback::from(move |_| state.dispatch(Action::Redo))
    };

    html! {
        <main>
            <h1>{ "Othello Zero" }</h1>
            <p class="counts">{ format!("Black {}  ·  White {}", count.black_discs, count.white_discs) }</p>
            <div class="board" role="grid" aria-label="Othello board"
                 style={format!("grid-template-columns: repeat({n}, 1fr)")}>
                { for cells }
            </div>
            <p class="status" aria-live="polite">{ status }</p>
            <div class="controls">
                if pos.must_pass() && !state.agent_to_move() {
                    <button onclick={on_pass}>{ "Pass" }</button>
                }
                <button onclick={on_undo}>{ "Undo" }</button>
                <button onclick={on_redo}>{ "Redo" }</button>
                <button onclick={new_game(BoardSize::Eight, Color::Black)}>{ "New 8x8 game as Black" }</button>
                <button onclick={new_game(BoardSize::Eight, Color::White)}>{ "New 8x8 game as White" }</button>
                <button onclick={new_game(BoardSize::Six, Color::Black)}>{ "New 6x6 game" }</button>
            </div>
            <p class="moves">{ state.game.transcript(true) }</p>
        </main>
    }
}

/// A seed that differs between page loads, so the agent does not always break ties alike.
fn js_sys_seed() -> u64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(1, |p| (p.now() * 1000.0) as u64)
}
