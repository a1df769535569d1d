//! The classic players: the yardsticks every learned agent is measured against.

mod simple;

pub use simple::{GreedyPlayer, NovicePlayer, RandomPlayer};
