//! Search and agents over the `othello` rules: the classic players, the exact endgame
//! solver, MCTS and its evaluators, the network contract with the tract runtime (feature
//! `tract`), and the one builder every front end gets its agent from ([`spec`]). This is
//! the crate the web page links, and it builds for wasm32 as it is, with its clock from
//! `web-time`; the one place it starts threads is the parallel solve
//! ([`Solver::parallel`]), which runs on the calling thread on wasm32. It reads no files but
//! through the few helpers that read a model from a path. The native tooling (arena,
//! self-play, `.npz` files, ONNX Runtime) lives in the `tools` crate.
//!
//! An agent from a player spec, its move for a position, and what it found:
//!
//! ```
//! use engine::othello::{BoardSize, Position, Variant};
//! use engine::{Agent, NoModels, PlayerSpec};
//!
//! let start = Position::start(BoardSize::Six, Variant::Standard);
//! // The AlphaZero search over random playouts (`model=` would name a network).
//! let spec: PlayerSpec = "mcts:sims=200".parse()?;
//! let (mut agent, budget) = spec.build(7, &NoModels)?;
//! let info = agent.think(&start, &budget, &mut |_| true)?;
//! let best = info.best_move().expect("the start has legal moves");
//! assert!(start.is_legal(best));
//! assert_eq!(info.simulations, 200);
//!
//! // The exact solver: the final margin with perfect play, and the move that gets it.
//! let mut late = start;
//! while late.empty_count() > 14 && !late.is_game_over() {
//!     let mv = late.legal_move_list()[0];
//!     late = late.play(mv)?;
//! }
//! let solution = engine::Solver::new().solve(&late);
//! let margins = engine::Solver::new().score_moves(&late);
//! assert_eq!(margins.first().map(|&(_, margin)| margin), Some(solution.margin));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(unreachable_pub)]

pub mod agent;
pub mod book;
// Public only so that the thinking's public methods may name its `Instant` in the crate's
// own tests too; other crates use web-time's.
#[doc(hidden)]
pub mod clock_source;
pub mod evaluator;
pub mod mcts;
pub mod midgame;
pub mod network;
pub mod pattern;
pub mod players;
pub mod puzzles;
pub mod report;
pub mod review;
pub mod rng;
pub mod solver;
pub mod spec;
mod squares;
pub mod symmetric;
pub mod table_sizes;
#[cfg(test)]
mod test_support;
#[cfg(feature = "tract")]
pub mod tract;

pub use agent::{Agent, Budget, RootRule, Thinking};
pub use evaluator::{EvalError, Evaluation, Evaluator, PlayoutEvaluator};
pub use mcts::{Mcts, MctsConfig};
pub use othello;
pub use report::SearchInfo;
pub use rng::Rng;
pub use solver::{Proven, Solution, Solver, WinLossDraw};
pub use spec::{parse_player_list, ModelSource, NoModels, PlayerKind, PlayerSpec, SpecError};
