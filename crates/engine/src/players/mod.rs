//! The classic players: the yardsticks every learned agent is measured against.

mod alphabeta;
mod heuristic;
mod simple;

pub use alphabeta::{solver_empties, AlphaBetaPlayer, DEFAULT_DEPTH};
pub use heuristic::HeuristicPlayer;
pub use simple::{GreedyPlayer, NovicePlayer, RandomPlayer};
