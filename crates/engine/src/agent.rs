//! The one interface every player implements, from random to MCTS.

use othello::{Move, Position};
use std::time::Duration;

/// How much a player may think about one move. Each limit is optional; a player stops at
/// the first one it reaches and ignores those that mean nothing to it (a random player
/// ignores them all; alpha-beta reads depth and time, MCTS simulations and time). With no
/// limit set a player uses its own default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    pub depth: Option<u32>,
    pub simulations: Option<u64>,
    pub time: Option<Duration>,
}

impl Budget {
    pub fn depth(depth: u32) -> Budget {
        Budget {
            depth: Some(depth),
            ..Budget::default()
        }
    }

    pub fn simulations(simulations: u64) -> Budget {
        Budget {
            simulations: Some(simulations),
            ..Budget::default()
        }
    }

    pub fn time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            ..Budget::default()
        }
    }

    pub fn is_unlimited(&self) -> bool {
        *self == Budget::default()
    }
}

/// A player: given a position and a budget, returns a move.
pub trait Agent: Send {
    /// A short name for tables, e.g. `greedy` or `alphabeta:depth=4`.
    fn name(&self) -> String;

    /// A legal move for the side to move (a pass when that is the only one). The caller
    /// never asks in a finished game.
    fn select_move(&mut self, pos: &Position, budget: &Budget) -> Move;

    /// Forget anything kept from an earlier game (search trees, caches).
    fn new_game(&mut self) {}
}
