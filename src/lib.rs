//! The web game, in three rooms. Built for wasm32 by Trunk (`trunk serve`).
//!
//! - [`page`]: the Yew app on the page's thread: its components and hooks, the game and
//!   view reducers, the saved game, GGF records, and the pool that runs the workers.
//! - [`worker`]: the search worker (its own binary, `src/bin/worker.rs`): the engine's
//!   search behind the protocol, and only what the worker runs.
//! - [`protocol`]: the messages between them, at the bottom: it imports neither room.
//!
//! The worker imports no page module, and the page reaches the worker only to spawn it
//! (`worker::SearchWorker`) and otherwise through the protocol; `tests/layout.rs` keeps it
//! so, keeps the page's modules free of import circles and every function outside the
//! tests at 80 lines or fewer. Everything that can be tested without a browser is a plain
//! module with native tests.

pub mod page;
pub mod protocol;
pub mod worker;

/// Sends panic messages to the browser console: without it a wasm panic says only
/// "unreachable executed".
#[cfg(target_arch = "wasm32")]
pub fn panic_to_console() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&info.to_string().into());
    }));
}
