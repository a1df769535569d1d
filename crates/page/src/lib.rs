//! The page: the Yew app (`app`, the rooms' controllers in `ctrl`, its `components`, and
//! its `hooks`, one module a hook, among them the one gateway to the worker `pool`) and
//! everything it holds and says, as plain modules tested without a
//! browser: the game reducer (`state`), the view reducer (`view`), what the board shows
//! (`overlay`, decided from both in one place), the sentences
//! (`explain`, with numbers written by `format`), merging the workers' searches (`merge`),
//! difficulty levels and the search plan (`levels`), the review, the board editor, the
//! evaluation graph, GGF records, the page's own text record and the saved game.
//!
//! It talks to the worker through [`protocol`] and starts it by its script's URL: the
//! worker is a crate the page does not depend on (`pool::remote` says how).

pub mod editor;
pub mod explain;
pub mod format;
pub mod graph;
pub mod levels;
pub mod link;
pub mod merge;
pub mod models;
pub mod openings;
pub mod overlay;
pub mod persist;
pub mod pool;
pub mod puzzles;
pub mod records;
pub mod review;
pub mod simd;
pub mod state;
pub mod text_record;
pub mod view;

#[cfg(test)]
mod test_support;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod ctrl;
#[cfg(target_arch = "wasm32")]
mod hooks;
