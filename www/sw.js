// The service worker (docs/web.md, "Installable and offline"): it keeps every file of one
// build (the page, both worker builds, the networks; the opening book is inside the
// worker) in a cache named by that build, and answers every request of the site from it,
// so the game works offline after the first visit and a page never mixes two builds'
// files. scripts/build-site.sh writes BUILD and FILES for each build; as Trunk copies it
// (trunk serve, a development build) FILES is empty and the worker stays out of the way.
const BUILD = "development";
const FILES = [];
// Relative to this file, so the site works under any path.
const INDEX = new URL("./index.html", self.location).href;
const SCOPE = new URL("./", self.location).href;
// Named by the path too: two copies of the site on one host (GitHub Pages serves every
// repository of an owner from one origin) keep their caches apart.
const PREFIX = `othello-zero:${new URL(SCOPE).pathname}:`;
const CACHE = PREFIX + BUILD;

self.addEventListener("install", (event) => {
  if (!FILES.length) return;
  // `no-cache`: the server confirms each file (a 304 costs nothing when the page has just
  // fetched it), so the browser's HTTP cache cannot slip an older build's file in.
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" })))),
  );
  // The first build activates at once and serves from the next visit on; a later one
  // waits until the player accepts it (www/site.js offers it), so an open game never
  // changes build under its feet.
});

self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))),
      ),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (!FILES.length || request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  event.respondWith(answer(request));
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  // Every address of the page (a link's query, `./`) is the build's index.html; a file is
  // the same whatever its query (`worker-loader.js?build=relaxed`).
  const url = new URL(request.url);
  const page = [SCOPE, INDEX].includes(url.origin + url.pathname);
  const key = request.mode === "navigate" && page ? INDEX : request;
  const hit = await cache.match(key, { ignoreSearch: true });
  return hit ?? fetch(request);
}
