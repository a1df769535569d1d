//! AlphaZero-style Monte Carlo tree search (PUCT) over any [`Evaluator`], and the agent
//! built on it.
//!
//! Split by concern, as KataGo splits its search into helper files:
//! - [`config`]: the settings and the board-dependent defaults every caller shares;
//! - `tree`: the node store (children contiguous, referred to by index), the evaluation
//!   cache and the root's bookkeeping;
//! - `select`: one simulation's walk down the tree under virtual loss, expansion and the
//!   backup of values and margin bounds;
//! - `explored`: the positions of root moves searched heavily but not played, with the
//!   search's targets, for self-play's extra samples (OLIVAW);
//! - `gumbel`: Gumbel AlphaZero's root (sequential halving, completed q, the improved
//!   policy), when the config asks for it; below the root the search stays PUCT;
//! - [`driver`]: the one search driver every caller goes through ([`SearchDriver`]: root
//!   decision, begin, advance, report, and a move's thinking a slice at a time through
//!   them), with no evaluator of its own, so self-play can batch many games' leaves into
//!   one evaluator call;
//! - [`time_policy`]: the time policy, all of it ([`TimePolicy`]): a budget's simulations,
//!   a game's clock shared out over its moves, the early stop of a timed search whose best
//!   move can no longer change and the extension of one that is unsure;
//! - `player`: [`Mcts`], the driver paired with an evaluator: the agent, behind the `Agent`
//!   interface (no wrapper type).
//!
//! What a search reports ([`SearchInfo`](crate::report::SearchInfo)) and the rule for the move
//! to play ([`choose_move`](crate::report::choose_move)) live in [`crate::report`], which the
//! agent interface shares.
//!
//! Leaves are collected in batches with virtual loss so a network evaluates many positions
//! per call, evaluations are cached by position hash, and finished games are scored exactly.
//! Exact margins (from finished games, or from the exact solver below
//! [`MctsConfig::solver_empties`]) propagate up the tree as bounds on every node's final
//! margin (score-bounded MCTS, Cazenave and Saffidine 2010, which contains MCTS-Solver's
//! win/loss proofs): moves that cannot beat what is already assured are not searched, a
//! proven win ends the search only once its margin is known to be the largest, and the
//! agent never misplays an ending it has solved, by result or by margin.
//!
//! [`Evaluator`]: crate::evaluator::Evaluator

pub mod config;
pub mod driver;
mod explored;
mod gumbel;
mod player;
mod select;
pub mod time_policy;
mod tree;

pub use config::{
    default_budgeted_extra_empties, default_exact_root_empties, default_solver_empties,
    self_play_noise, GumbelRoot, MctsConfig, ProofPart, RootSolve, SolveReach, C_PUCT_LOG_BASE,
};
pub use driver::{BookPlay, RootDecision, SearchDriver};
pub use explored::ExploredPosition;
pub use player::Mcts;
pub use time_policy::{GameClock, TimePolicy};
pub use tree::{endgame_solver, ExactSolver, LeafBatch, SearchTree};

#[cfg(test)]
mod exploration_tests;
#[cfg(test)]
mod prior_split_tests;
#[cfg(test)]
mod sliced_proof_tests;
#[cfg(test)]
mod split_proof_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod timed_search_tests;
