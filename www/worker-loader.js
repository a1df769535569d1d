// Starts the search worker (src/bin/worker.rs, built by Trunk as a no-modules script).
// Written here because the loaders gloo-worker and Trunk generate pass wasm-bindgen's
// init a bare URL, which it reports on the console as a deprecated form.
importScripts("./worker.js");
wasm_bindgen({ module_or_path: "./worker_bg.wasm" });
