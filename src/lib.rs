//! The web game. Built for wasm32 by Trunk (`trunk serve`): the page (`app`, its
//! `components` and `hooks`, the worker `pool`) and the search worker (`worker`, its own
//! binary). Everything that can be tested without a browser lives in plain modules: the
//! game reducer (`state`), the view reducer (`view`), the worker's search (`search`), the
//! worker protocol and the pool's events, merging the workers' searches, difficulty levels
//! and the search plan, and the saved-game format.

pub mod editor;
pub mod explain;
pub mod graph;
pub mod levels;
pub mod merge;
pub mod models;
pub mod openings;
pub mod persist;
pub mod pool;
pub mod protocol;
pub mod records;
pub mod review;
pub mod search;
pub mod simd;
pub mod state;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
mod components;
#[cfg(target_arch = "wasm32")]
mod hooks;
#[cfg(target_arch = "wasm32")]
pub mod worker;

/// Sends panic messages to the browser console: without it a wasm panic says only
/// "unreachable executed".
#[cfg(target_arch = "wasm32")]
pub fn panic_to_console() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&info.to_string().into());
    }));
}
