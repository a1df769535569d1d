//! The game's review as a side effect: the gateway has the workers review the game's
//! moves, one at a time, and their answers reach the view as pool events
//! (`ViewAction::Pool`).

use super::gateway::{Command, Gateway, ReviewAsk};
use super::GameModel;
use crate::models::RESIDUAL_WORKER_SIMULATIONS_PER_SECOND;
use crate::review::{judging, Judging, ReviewLevel, ReviewOrder};
use crate::view::{View, ViewAction};
use engine::PlayerKind;
use protocol::WireBudget;
use yew::prelude::*;

/// Ends the review under way when the game on the board is no longer the one reviewed (a
/// new game, a loaded record, a position set up in the editor, another move after an
/// undo: [`crate::review::ReviewState::follows`]), so that it does not go on valuing the
/// old game's moves in the worker; and leaves a reviewed move shown on the board once the
/// game changes, as any move of the game leaves browsing; and forgets a hint, whose marker
/// is about the game it was asked in.
#[hook]
pub fn use_review_follows_game(gateway: &Gateway, view: &UseReducerHandle<View>, game: &GameModel) {
    let (gateway, view) = (gateway.clone(), view.clone());
    use_effect_with((game.id(), game.state.clone()), move |(id, state)| {
        if !view.review.follows(*id, state) {
            gateway.send(Command::CancelReview);
        }
        if view.hint.is_some() {
            view.dispatch(ViewAction::ForgetHint);
        }
        if view.review.focus.is_some() {
            view.dispatch(ViewAction::ReviewFocus(None));
        }
    });
}

/// Why the game cannot be reviewed now, in words, or `None` when it can.
pub fn review_unavailable(game: &GameModel, view: &View) -> Option<String> {
    let pos = game.game.start();
    if game.game.moves().is_empty() {
        return Some("No moves to review yet.".to_owned());
    }
    // A loaded game waiting for "Play on" is not waiting for a search: it can be reviewed
    // as it stands (a fresh look found a GGS record unreviewable until the person turned
    // it into a game against the agent).
    if game.agent_to_move() && !game.held && !game.position().is_game_over() {
        return Some("The review waits until the agent has moved.".to_owned());
    }
    match view.player(pos.size(), pos.variant()) {
        None => Some("The network is still loading.".to_owned()),
        Some(p) if p.kind != PlayerKind::Mcts => {
            Some("A review needs the network's search, and this board has no network.".to_owned())
        }
        Some(_) => None,
    }
}

/// The board's reviewer: its network with the engine's defaults, as `othello review`'s
/// is (no book, no noise), so that the page and the CLI value moves alike; `None` where no
/// network plays this board.
fn reviewer(view: &View, start: &othello::Position) -> Option<engine::PlayerSpec> {
    view.player(start.size(), start.variant())
        .filter(|p| p.kind == PlayerKind::Mcts)
}

/// How `level` judges a game `agents` played (each agent's name and budget): more than
/// an agent's own search, so that the review does not repeat it, counted at what
/// `reviewer`'s network searches in a worker (the residual network's rate without one).
fn judged(
    level: ReviewLevel,
    agents: &[(String, WireBudget)],
    reviewer: Option<&engine::PlayerSpec>,
) -> Judging {
    let named: Vec<(&str, WireBudget)> =
        agents.iter().map(|(name, b)| (name.as_str(), *b)).collect();
    let rate = reviewer
        .and_then(|p| p.model.as_deref())
        .and_then(crate::models::builtin_named)
        .map_or(RESIDUAL_WORKER_SIMULATIONS_PER_SECOND, |m| {
            m.worker_simulations_per_second()
        });
    judging(level, &named, rate)
}

/// The simulations a position each review level would judge the game on the board with
/// (in [`ReviewLevel::ALL`]'s order), for the budget menu to say what each costs here;
/// the levels' own where no network can review yet. And why they are not the levels' own,
/// where the game's agent raised them (`review::budget_note`).
pub fn level_budgets(
    view: &View,
    game: &GameModel,
    agents: &[(String, WireBudget)],
) -> (Vec<u64>, Option<String>, ReviewLevel) {
    let reviewer = reviewer(view, game.game.start());
    let judgings: Vec<Judging> = ReviewLevel::ALL
        .iter()
        .map(|&level| judged(level, agents, reviewer.as_ref()))
        .collect();
    let note = crate::review::budget_note(&judgings);
    let default = crate::review::default_level(&judgings);
    (
        judgings.into_iter().map(|j| j.simulations).collect(),
        note,
        default,
    )
}

/// Starts a review of the game's moves (those played, not the redo list) at `level` in
/// `order`, judged with more than `agents`' own budgets where an agent played (each level's
/// name and budget), and cancels one: the callbacks the review panel calls.
pub fn review_callbacks(
    gateway: &Gateway,
    view: &View,
    game: &GameModel,
    (level, order): (ReviewLevel, ReviewOrder),
    agents: Vec<(String, WireBudget)>,
) -> (Callback<()>, Callback<()>) {
    let start = {
        let gateway = gateway.clone();
        let (played, game_id) = (game.game.clone(), game.id());
        let reviewer = reviewer(view, played.start());
        Callback::from(move |()| {
            let Some(player) = reviewer.clone() else {
                return;
            };
            if played.moves().is_empty() {
                return;
            }
            let judged = judged(level, &agents, Some(&player));
            let budget = WireBudget {
                simulations: Some(judged.simulations),
                millis: None,
            };
            gateway.send(Command::Review(ReviewAsk {
                game_id,
                game: played.clone(),
                player,
                budget,
                order,
                judged: judged.text,
            }));
        })
    };
    (start, gateway.callback(|()| Command::CancelReview))
}
