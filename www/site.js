// What the site does around the game (docs/web.md, "Installable and offline"): it registers
// the service worker (sw.js, written for each build by scripts/build-site.sh), offers a new
// build when one is waiting, and shows the search engine's download as its bytes arrive.
// Plain script outside the Yew app, which owns <body>'s children: the lines below live in
// one fixed box of their own, put back if the app's first render cleared it.
(() => {
  const box = () => {
    let el = document.getElementById("site-status");
    if (!el) {
      el = document.createElement("div");
      el.id = "site-status";
    }
    if (!el.isConnected && document.body) document.body.appendChild(el);
    return el;
  };
  const line = (id) => {
    let el = document.getElementById(id);
    if (!el) {
      el = document.createElement("p");
      el.id = id;
      box().appendChild(el);
    }
    box();
    return el;
  };

  // The engine's download, as the workers report it (www/worker-loader.js). Every worker
  // fetches the same file; the first to report speaks for all of them.
  const kb = (n) => `${Math.round(n / 1000).toLocaleString("en-US")} KB`;
  let speaker = null;
  const channel = "BroadcastChannel" in self ? new BroadcastChannel("othello-zero-load") : null;
  channel?.addEventListener("message", ({ data }) => {
    if (!data || data.kind !== "engine") return;
    speaker ??= data.id;
    if (data.id !== speaker) return;
    const el = line("engine-progress");
    el.dataset.received = data.received;
    if (data.error) {
      el.textContent = `The search engine did not load: ${data.error}`;
      el.dataset.state = "failed";
    } else if (data.done) {
      // Gone at once: a "ready" box lingered over the controls for seconds (and came back
      // as workers restarted) while the opponent line still said the network was being
      // made ready, two words for two things (a fresh look, issue 68). The opponent line
      // says when the agent can play.
      el.textContent = "";
      el.dataset.state = "ready";
      el.hidden = true;
    } else {
      const of = data.total ? ` of ${kb(data.total)}` : " so far";
      el.textContent = `Loading the search engine… ${kb(data.received)}${of}`;
      el.dataset.state = "loading";
    }
  });

  if (!("serviceWorker" in navigator)) return;
  // The page reloads once the build it accepted has taken over, not before: until then the
  // old service worker serves every file of the old build.
  let accepted = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (accepted) location.reload();
  });
  const offer = (waiting) => {
    const el = line("update");
    // Said to a screen reader once; the engine's bytes, redrawn often, are not.
    el.setAttribute("role", "status");
    el.replaceChildren("A new version of Othello Zero is ready. ");
    const button = document.createElement("button");
    button.id = "update-reload";
    button.textContent = "Reload to use it";
    button.addEventListener("click", () => {
      accepted = true;
      waiting.postMessage("take-over");
    });
    el.appendChild(button);
  };
  const watch = (registration) => {
    // A page left open for days still hears of a new build: the browser looks at each
    // visit, and this every hour.
    setInterval(() => registration.update().catch(() => {}), 3_600_000);
    // A waiting build matters only to a page another build controls.
    if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
    registration.addEventListener("updatefound", () => {
      const incoming = registration.installing;
      incoming?.addEventListener("statechange", () => {
        if (incoming.state === "installed" && navigator.serviceWorker.controller) offer(incoming);
      });
    });
  };
  // After the page has loaded and gone idle, so that the service worker's downloads do not
  // compete with the game's. Relative: the site may live under any path.
  const register = () =>
    navigator.serviceWorker
      .register("./sw.js", { scope: "./" })
      .then(watch)
      .catch((e) => console.info(`The site will not work offline: ${e.message}`));
  addEventListener("load", () => {
    if ("requestIdleCallback" in self) requestIdleCallback(register, { timeout: 5000 });
    else setTimeout(register, 1000);
  });
})();
