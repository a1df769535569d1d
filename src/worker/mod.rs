//! The search worker, off the page's thread: the engine's search behind the protocol
//! (`search`, with its review of a game's moves and a hint's every-move solve) and the
//! Web Worker's message loop around it (`message_loop`, browser only).
//!
//! It imports the protocol and the engine, never a page module (`tests/layout.rs`), so the
//! worker's build carries none of the page.

pub mod search;

#[cfg(target_arch = "wasm32")]
mod message_loop;

#[cfg(target_arch = "wasm32")]
pub use message_loop::SearchWorker;
