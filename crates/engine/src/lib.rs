//! Search and agents over the `othello` rules. The players, the exact solver, MCTS and
//! the evaluators land here (see DESIGN.md); the crate compiles to wasm32.

pub use othello;
