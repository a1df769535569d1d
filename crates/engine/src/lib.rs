//! Search and agents over the `othello` rules: classic players, the exact endgame
//! solver, MCTS and its evaluators, and the arena. Compiles to wasm32 (no threads or
//! `std::time::Instant` outside the native-only arena).

pub mod accuracy;
pub mod agent;
pub mod arena;
pub mod evaluator;
pub mod mcts;
pub mod model_card;
#[cfg(feature = "onnx")]
pub mod network;
pub mod npz;
#[cfg(feature = "onnx")]
pub mod onnx;
#[cfg(feature = "ort")]
pub mod onnxruntime;
pub mod players;
pub mod rng;
#[cfg(not(target_arch = "wasm32"))]
pub mod selfplay;
pub mod solver;

pub use agent::{Agent, Budget};
pub use evaluator::{EvalError, Evaluation, Evaluator, HeuristicEvaluator};
pub use mcts::{Mcts, MctsConfig, SearchInfo};
pub use othello;
pub use rng::Rng;
pub use solver::{Solution, Solver, WinLossDraw};
