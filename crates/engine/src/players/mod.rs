//! The classic players, the yardsticks every learned agent is measured against, and the
//! network's own players without search (`policy`, `value`).

mod alphabeta;
mod heuristic;
mod network;
mod rollout_mcts;
mod simple;

pub use alphabeta::{solver_empties, AlphaBetaPlayer, DEFAULT_DEPTH};
pub use heuristic::HeuristicPlayer;
pub use network::{PolicyPlayer, ValuePlayer};
pub use rollout_mcts::{RolloutMcts, DEFAULT_SIMULATIONS as MCTS_DEFAULT_SIMULATIONS};
#[cfg(test)]
pub(crate) use simple::wins_at_once;
pub use simple::{GreedyPlayer, NovicePlayer, RandomPlayer};
