//! Search and agents over the `othello` rules: the classic players, the exact endgame
//! solver, MCTS and its evaluators, the network contract with the tract runtime (feature
//! `onnx`), and the one builder every front end gets its agent from ([`spec`]). This is
//! the crate the web page links, and it builds for wasm32 as it is: no threads, no clock
//! but `web-time`, no files but the few helpers that read a model from a path. The native
//! tooling (arena, self-play, `.npz` files, ONNX Runtime) lives in the `tools` crate.

pub mod agent;
pub mod evaluator;
pub mod mcts;
pub mod network;
#[cfg(feature = "onnx")]
pub mod onnx;
pub mod players;
pub mod report;
pub mod rng;
pub mod solver;
pub mod spec;
pub mod symmetric;
#[cfg(test)]
mod test_support;

pub use agent::{Agent, Budget, Thinking};
pub use evaluator::{EvalError, Evaluation, Evaluator, PlayoutEvaluator};
pub use mcts::{Mcts, MctsConfig, MctsPlayer, SearchInfo};
pub use othello;
pub use rng::Rng;
pub use solver::{Solution, Solver, WinLossDraw};
pub use spec::{parse_player_list, ModelSource, NoModels, PlayerKind, PlayerSpec, SpecError};
