//! Search and agents over the `othello` rules: classic players, the exact endgame
//! solver, MCTS and its evaluators, and the arena. Compiles to wasm32 (no threads or
//! `std::time::Instant` outside the native-only arena).

pub mod agent;
pub mod players;
pub mod rng;
pub mod solver;

pub use agent::{Agent, Budget};
pub use othello;
pub use rng::Rng;
pub use solver::{Solution, Solver, WinLossDraw};
