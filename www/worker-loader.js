// Starts the search worker (src/bin/worker.rs, built by Trunk as a no-modules script).
// Written here because the loaders gloo-worker and Trunk generate pass wasm-bindgen's
// init a bare URL, which it reports on the console as a deprecated form.
// The page names the build in the query (src/page/simd.rs): `?build=relaxed` is the
// relaxed SIMD build (scripts/build-relaxed-worker.sh), for browsers that validate it.
const relaxed = new URLSearchParams(self.location.search).get("build") === "relaxed";
importScripts(relaxed ? "./worker-relaxed.js" : "./worker.js");
wasm_bindgen({ module_or_path: relaxed ? "./worker-relaxed_bg.wasm" : "./worker_bg.wasm" });
