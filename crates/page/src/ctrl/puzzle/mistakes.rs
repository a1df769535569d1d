//! A reviewed game's worst moves (`puzzles::mistakes`) proven by a worker into the
//! player's own puzzles, whichever room is open.

use crate::hooks::{Command, GameModel, Gateway, SolveAsk};
use crate::puzzles::mistakes::{worst_moves, PROVE_NODES};
use crate::puzzles::record::{RecordAction, RecordModel, StoredPuzzle};
use crate::state::Seats;
use crate::view::View;
use protocol::{PuzzleAsk, PuzzleReply};
use yew::prelude::*;

/// After a review of the player's game, its worst moves are sent to a worker to prove;
/// each proven one becomes a puzzle of the theme "Mistakes from your reviewed games". A
/// game is looked at once a page visit (by its last position and length). Returns how many
/// games were looked at.
#[hook]
pub(super) fn use_mistake_finder(
    gateway: &Gateway,
    game: &GameModel,
    view: &View,
    record: UseReducerDispatcher<RecordModel>,
) -> usize {
    let done = use_mut_ref(std::collections::HashSet::<(u64, usize)>::new);
    let looked = use_state(|| 0usize);
    let counted = looked.setter();
    let reviews = view.review.of(game.id());
    let (seats, game) = (game.seats, &game.game);
    let reviewing = view.review.running.is_some();
    let of_game = reviews.of_game(game);
    let complete = !reviewing && !of_game.is_empty() && of_game.iter().all(Option::is_some);
    let key = (game.position().hash(), game.moves().len());
    let (gateway, game) = (gateway.clone(), game.clone());
    use_effect_with((complete, key), move |&(complete, key)| {
        if !complete || !done.borrow_mut().insert(key) {
            return;
        }
        counted.set(done.borrow().len());
        let mine = move |color| match seats {
            Seats::Human(c) => c == color,
            Seats::Analysis => true,
            Seats::AgentVsAgent => false,
        };
        let numbers = crate::format::move_numbers(game.moves());
        for mistake in worst_moves(&game, &of_game, mine) {
            let from = mistake.from_words(numbers.get(mistake.ply).copied().flatten());
            let (record, position, played) = (record.clone(), mistake.position, mistake.played);
            let answer = Callback::from(move |reply: PuzzleReply| {
                let PuzzleReply::Proven(Some(found)) = reply else {
                    return;
                };
                if found.answer == played {
                    return;
                }
                if let Some(stored) = StoredPuzzle::from_found(&position, &found, from.clone()) {
                    record.dispatch(RecordAction::AddMistakes(vec![stored]));
                }
            });
            gateway.send(Command::Solve(SolveAsk {
                position,
                ask: PuzzleAsk::Prove,
                max_nodes: PROVE_NODES,
                answer,
            }));
        }
    });
    *looked
}
