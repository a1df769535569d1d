#[cfg(target_arch = "wasm32")]
fn main() {
    protocol::panic_to_console();
    yew::Renderer::<page::app::App>::new().render();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The web game runs in a browser: start it with ./scripts/play.sh (see README.md).");
    std::process::exit(2);
}
