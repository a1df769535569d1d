//! The search that follows the game: started, delayed or stopped whenever what the page
//! wants searched changes. It decides what and when; the gateway does it.

use super::gateway::{Command, Gateway, SearchAsk};
use engine::PlayerSpec;
use othello::Position;
use protocol::WireBudget;
use yew::prelude::*;

/// What the page wants searched now.
#[derive(Clone, PartialEq)]
pub struct SearchWanted {
    /// The page's id of the game (`GameModel::id`): another game through the same
    /// position is searched again, for its own graph.
    pub game_id: u64,
    pub position: Position,
    pub agent_turn: bool,
    pub analysing: bool,
    pub budget: WireBudget,
    /// Who thinks; `None` while the board's network is still loading.
    pub player: Option<PlayerSpec>,
    /// A pause before the agent's move starts (agent against agent, to follow the game).
    pub delay_ms: u32,
}

/// Starts or stops the search whenever the game, the seats, the budget or the player for
/// this board change.
#[hook]
pub fn use_search_driver(gateway: &Gateway, wanted: SearchWanted) {
    let gateway = gateway.clone();
    use_effect_with(wanted, move |wanted| {
        let ask = |player: &PlayerSpec| SearchAsk {
            game_id: wanted.game_id,
            position: wanted.position,
            budget: wanted.budget,
            player: player.clone(),
        };
        let command = match (wanted.agent_turn, wanted.analysing, &wanted.player) {
            (true, _, Some(player)) => Command::Move(ask(player)),
            (false, true, Some(player)) => Command::Analyse(ask(player)),
            _ => Command::Stop {
                unless_hint_of: wanted.position.hash(),
            },
        };
        let timer = match command {
            Command::Move(ask) if wanted.delay_ms > 0 => {
                let timer = gloo_timers::callback::Timeout::new(wanted.delay_ms, move || {
                    gateway.send(Command::Move(ask));
                });
                Some(timer)
            }
            command => {
                gateway.send(command);
                None
            }
        };
        // A change (pause, undo, a new game) before the delayed move starts cancels it.
        move || drop(timer)
    });
}
