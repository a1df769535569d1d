//! The web game. Built for wasm32 by Trunk (`trunk serve`); the browser front end lives in
//! `app`, and the game state in `state` so that it can be tested natively.

pub mod state;

#[cfg(target_arch = "wasm32")]
pub mod app;
