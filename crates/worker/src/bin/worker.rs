//! The search worker's entry point (Trunk builds it as a no-modules Web Worker script).

#[cfg(target_arch = "wasm32")]
fn main() {
    use gloo_worker::Registrable;
    protocol::panic_to_console();
    worker::SearchWorker::registrar().register();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The search worker runs in a browser: start the game with ./scripts/play.sh.");
    std::process::exit(2);
}
