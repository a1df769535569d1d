//! The search worker, off the page's thread: the engine's search behind the protocol
//! (`search`, with its review of a game's moves and a hint's every-move solve), Puzzle
//! mode's solves (`puzzle`) and the
//! Web Worker's message loop around it (`message_loop`, browser only).
//!
//! A crate of its own on the protocol and the engine (with tract): the page is not among
//! its dependencies, so the worker cannot name it and its build carries none of it.

pub mod puzzle;
pub mod search;

#[cfg(target_arch = "wasm32")]
mod message_loop;

#[cfg(target_arch = "wasm32")]
pub use message_loop::SearchWorker;
