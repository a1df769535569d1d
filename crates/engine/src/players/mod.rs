//! The classic players: the yardsticks every learned agent is measured against.

mod rollout_mcts;
mod simple;

pub use rollout_mcts::{RolloutMcts, DEFAULT_SIMULATIONS as MCTS_DEFAULT_SIMULATIONS};
pub use simple::{GreedyPlayer, NovicePlayer, RandomPlayer};
