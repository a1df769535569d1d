// Starts the search worker (crates/worker/src/bin/worker.rs, built by Trunk as a no-modules script).
// Written here because the loaders gloo-worker and Trunk generate pass wasm-bindgen's
// init a bare URL, which it reports on the console as a deprecated form.
// The page names the build in the query (crates/page/src/simd.rs): `?build=relaxed` is the
// relaxed SIMD build (scripts/build-relaxed-worker.sh), for browsers that validate it.
// It fetches the wasm itself to tell the page how many bytes have arrived (www/site.js
// shows them), while the browser still compiles the module as it streams in.
const relaxed = new URLSearchParams(self.location.search).get("build") === "relaxed";
importScripts(relaxed ? "./worker-relaxed.js" : "./worker.js");
const wasm = relaxed ? "./worker-relaxed_bg.wasm" : "./worker_bg.wasm";
const progress = "BroadcastChannel" in self ? new BroadcastChannel("othello-zero-load") : null;
const id = Math.random();
const say = (news) => progress?.postMessage({ kind: "engine", id, ...news });

async function counted() {
  const response = await fetch(wasm);
  // A compressed transfer's length is not the file's: then only the bytes so far are told.
  const length = Number(response.headers.get("content-length"));
  const total = response.headers.get("content-encoding") || !length ? null : length;
  if (!response.ok || !response.body) return response;
  let received = 0;
  // Told at most every 100 ms: each message redraws a line of the page.
  let told = 0;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      received += value.length;
      if (performance.now() - told >= 100) {
        told = performance.now();
        say({ received, total });
      }
      controller.enqueue(value);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

wasm_bindgen({ module_or_path: counted() }).then(
  () => say({ done: true }),
  (e) => {
    say({ error: String(e?.message ?? e) });
    throw e;
  },
);
