//! The search that follows the game: started, delayed or stopped whenever what the page
//! wants searched changes.

use super::PoolHandle;
use crate::levels::analysis;
use crate::pool::Purpose;
use crate::view::{View, ViewAction};
use engine::PlayerSpec;
use othello::Position;
use protocol::WireBudget;
use yew::prelude::*;

/// What the page wants searched now.
#[derive(Clone, PartialEq)]
pub struct SearchWanted {
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
pub fn use_search_driver(pool: PoolHandle, view: UseReducerHandle<View>, wanted: SearchWanted) {
    use_effect_with(wanted, move |wanted| {
        let Some(pool_rc) = pool.borrow().clone() else {
            return Box::new(|| ()) as Box<dyn FnOnce()>;
        };
        let mut pool = pool_rc.borrow_mut();
        let pos = wanted.position;
        let hash = pos.hash();
        let search = match (wanted.agent_turn, wanted.analysing, &wanted.player) {
            (true, _, Some(player)) => Some((Purpose::Move, wanted.budget, player.clone())),
            (false, true, Some(player)) => {
                let (budget, player) = analysis(player, wanted.budget);
                Some((Purpose::Analysis, budget, player))
            }
            _ => None,
        };
        match search {
            Some((Purpose::Move, budget, player)) if wanted.delay_ms > 0 => {
                drop(pool);
                let handle = pool_rc.clone();
                let timer = gloo_timers::callback::Timeout::new(wanted.delay_ms, move || {
                    handle
                        .borrow_mut()
                        .search(Purpose::Move, &pos, budget, player);
                    view.dispatch(ViewAction::Started(Purpose::Move, hash, pos.side_to_move()));
                });
                // A change (pause, undo, a new game) before it fires cancels it.
                return Box::new(move || drop(timer)) as Box<dyn FnOnce()>;
            }
            Some((purpose, budget, player)) => {
                pool.search(purpose, &pos, budget, player);
                view.dispatch(ViewAction::Started(purpose, hash, pos.side_to_move()));
            }
            None => {
                // A hint for this position may keep running.
                if pool
                    .searching()
                    .is_some_and(|(p, h)| !(p == Purpose::Hint && h == hash))
                {
                    pool.stop();
                    view.dispatch(ViewAction::Stopped);
                }
            }
        }
        Box::new(|| ()) as Box<dyn FnOnce()>
    });
}
