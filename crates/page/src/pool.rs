//! The page's side of the search: a pool of workers running root-parallel MCTS (the
//! browser part, in `workers`), the events it sends the view (plain data, in `event`), and
//! a game's move searched by one worker alone for the browser tests' matches (`lone`).

mod event;
pub mod lone;
#[cfg(target_arch = "wasm32")]
mod remote;
#[cfg(target_arch = "wasm32")]
mod workers;

pub use event::{PoolEvent, Purpose};
#[cfg(target_arch = "wasm32")]
pub use workers::{random_seed, BenchAnswer, LoneAnswer, Pool, PuzzleAnswer};
