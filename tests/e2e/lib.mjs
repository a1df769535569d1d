// What the browser tests share: the browser, a fresh page with its network loaded, the
// page's controls, screenshots and the measured numbers. The tests are game.test.mjs (the
// game, the search, the workers) and player.test.mjs (what a player meets: passes, the heat
// map's turn, a game that a click cannot lose, the record); scripts/e2e.sh runs both
// against the release build, with Playwright (playwright-core, no browser download)
// driving Debian's Chromium.
//   E2E_URL       where the built site is served (required)
//   CHROMIUM      browser binary (default /usr/bin/chromium)
//   SHOTS         folder for screenshots (default: none taken)
//   E2E_REPORT    file to write measured numbers to as JSON (optional)
//   E2E_COMPRESSED  set when the server sends precompressed files (scripts/e2e.sh)
import { before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

export const SITE = process.env.E2E_URL;
const SHOTS = process.env.SHOTS;
// Measured numbers, written to E2E_REPORT (merged with what the other file wrote there).
export const numbers = { navigation_to_ready_ms: [] };
// launch() gives every run a fresh temporary profile (its own --user-data-dir).
let browser;

/** A fresh browser context (its own storage), for tests that set up a page themselves. */
export const newContext = (options) => browser.newContext(options);

/** Starts the browser before this file's tests and closes it after; writes the numbers. */
export function useBrowser() {
  before(async () => {
    assert.ok(SITE, "set E2E_URL to the served site");
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  });
  after(async () => {
    await browser?.close();
    const file = process.env.E2E_REPORT;
    if (file) {
      const earlier = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
      const merged = { ...earlier, ...numbers };
      merged.navigation_to_ready_ms = [
        ...(earlier.navigation_to_ready_ms ?? []),
        ...numbers.navigation_to_ready_ms,
      ];
      fs.writeFileSync(file, JSON.stringify(merged, null, 2) + "\n");
    }
    console.log("measured:", JSON.stringify(numbers));
  });
}

export async function shot(page, name, part = undefined) {
  if (!SHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  // Discs as they lie, not caught half-way through a flip (the page's CSS stops its
  // animations for reduced motion).
  await page.emulateMedia({ reducedMotion: "reduce" });
  // `part`, a selector: just that element, however far down the page it lies.
  const file = path.join(SHOTS, `web-${name}.png`);
  if (part) await page.locator(part).screenshot({ path: file });
  else await page.screenshot({ path: file });
  await page.emulateMedia({ reducedMotion: null });
}

/** A fresh page (empty localStorage) that has loaded its network. `cores` overrides
 * navigator.hardwareConcurrency, which sets how many workers the page starts. The opening
 * book is turned off unless `book`: most tests watch the agent search from the first move,
 * which a book move (played at once, with no search) would skip. `query` is added to the
 * page's address (`?simd=plain` forces the plain SIMD worker). */
export async function openGame(viewport = { width: 1100, height: 900 }, cores = undefined, book = false, query = "") {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  if (cores !== undefined) {
    await page.addInitScript((n) => {
      Object.defineProperty(Navigator.prototype, "hardwareConcurrency", { get: () => n });
    }, cores);
  }
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  // Warnings and errors on the console, the page's and its workers'.
  const warnings = [];
  const listen = (m) => {
    if (["warning", "error"].includes(m.type())) warnings.push(m.text());
  };
  page.on("console", listen);
  page.on("worker", (w) => w.on?.("console", listen));
  const t0 = Date.now();
  await page.goto(SITE + query);
  await page.waitForSelector('main[data-ready="true"]', { timeout: 60_000 });
  await page.waitForSelector("#model-status[data-player^='mcts:model=']", { timeout: 60_000 });
  const readyMs = Date.now() - t0;
  numbers.navigation_to_ready_ms.push(readyMs);
  if (!book) await page.uncheck("#book");
  return { page, context, readyMs, errors, warnings };
}

export async function setLevel(page, value, custom) {
  if (custom !== undefined) {
    await page.selectOption("#level", value);
    await page.fill("#custom-budget", String(custom));
    await page.press("#custom-budget", "Enter");
    await page.locator("#custom-budget").blur();
  } else {
    await page.selectOption("#level", value);
  }
}

export async function newGame(page, { size = "8", variant = "standard", players = "black" } = {}) {
  await page.selectOption("#new-size", size);
  await page.selectOption("#new-variant", variant);
  await page.selectOption("#new-players", players);
  // A game under way is thrown away only once the person confirms; a finished one, looked
  // back at or not, is not under way.
  const underWay = (await moveCount(page)) > 0 && !/Game over|the game itself ended/.test(await status(page));
  await page.click("#new-game");
  if (underWay) await page.click("#confirm-new-yes");
}

export const status = (page) => page.locator("#status").innerText();

/** Lets the agent play on in a game just loaded in which it is to move: such a game waits
 * for the person's "Play on" (issue 68: the agent played on at once, in a game the person
 * may only have wanted to look at). */
export async function playOn(page) {
  await page.click("#play-on");
  await page.waitForSelector("#held-notice", { state: "detached" });
}
/** The moves of the game: the transcript's, less an XOT opening's, which it shows first so
 * that it loads back (issue 68) but which are the game's start, not its moves. */
export const moveCount = async (page) =>
  page.evaluate(() => {
    const opening = document.querySelector("#transcript-opening")?.textContent ?? "";
    const t = document.querySelector("#transcript").textContent.slice(opening.length);
    return (t.match(/[a-h][1-8]/g) || []).length;
  });

/** Waits until it is the person's turn or the game is over; returns the status text. */
export async function waitForTurn(page, timeout = 30_000) {
  try {
    await page.waitForFunction(
      () => /your turn|Game over/i.test(document.querySelector("#status").textContent),
      null,
      { timeout },
    );
  } catch (e) {
    const transcript = await page.locator("#transcript").innerText();
    throw new Error(`still "${await status(page)}" after ${transcript}: ${e.message}`);
  }
  return status(page);
}

/** Watches every frame for what a heat map must never do: a percentage over a disc, a
 * percentage on the person's turn that is not a hint, tiles beside a search with no
 * simulations, a rate that is not simulations / elapsed, buttons that move. */
export async function watchHeatMap(page) {
  await page.evaluate(() => {
    const w = { frames: 0, withTiles: 0, violations: [], undoTops: new Set() };
    window.__heat = w;
    function check() {
      w.frames++;
      const pcts = document.querySelectorAll(".heat .pct");
      const info = document.querySelector("#search-info");
      const turn = /your turn/i.test(document.querySelector("#status").textContent);
      const undo = document.querySelector("#undo");
      if (undo) w.undoTops.add(Math.round(undo.getBoundingClientRect().top));
      if (pcts.length) {
        w.withTiles++;
        if (document.querySelectorAll(".cell .disc ~ .heat .pct").length) w.violations.push("a percentage over a disc");
        if (turn && info?.dataset.kind !== "hint") w.violations.push(`a percentage on the person's turn (${info?.dataset.kind})`);
        const sims = Number(info?.dataset.simulations);
        const rate = Number(info?.dataset.rate);
        const elapsed = Number(info?.dataset.elapsed);
        if (!(sims > 0)) w.violations.push(`tiles with ${sims} simulations`);
        const expected = (sims * 1000) / elapsed;
        if (elapsed > 0 && Math.abs(rate - expected) > 1 + 0.02 * expected)
          w.violations.push(`rate ${rate}/s for ${sims} simulations in ${elapsed} ms`);
        // A search's shares are blue, on neither end of a hint's red-to-green scale (a
        // fresh look read the most visited move, then orange-red, as the worst).
        if (info?.dataset.kind === "thinking") {
          for (const heat of document.querySelectorAll(".heat"))
            if (!/rgba\(30, 90, 220/.test(heat.getAttribute("style") ?? ""))
              w.violations.push(`a share tile coloured "${heat.getAttribute("style")}"`);
        }
        // No legal-move dot behind a number.
        for (const cell of document.querySelectorAll(".cell.legal")) {
          const number = cell.querySelector(".heat .pct")?.textContent;
          if (number && getComputedStyle(cell, "::after").display !== "none")
            w.violations.push(`the legal-move dot behind "${number}"`);
        }
        const speed = document.querySelector("#speed")?.textContent ?? "";
        if (!speed.startsWith(`${sims.toLocaleString("en-US")} simulation${sims === 1 ? "" : "s"} in `))
          w.violations.push(`the panel says "${speed}" for ${sims} simulations`);
      }
      if (!w.stop) requestAnimationFrame(check);
    }
    requestAnimationFrame(check);
  });
  return async () =>
    page.evaluate(() => {
      window.__heat.stop = true;
      return { ...window.__heat, undoTops: [...window.__heat.undoTops] };
    });
}

// Random games down to 16, 15 and 14 empties with White to move, and the moves the exact
// solver finds best (`othello solve TRANSCRIPT`): the only optimal move in each, among
// 10, 9 and 11 legal ones.
export const ENDGAMES = [
  {
    transcript: "e6f6c4e7e8d8g7f8h6h8g5g6g8h4f4g3e3f3b4f7f5d3c3c5d7a3c2h5a4c1d6h7e2c7b1b5a2d2c6a6g2b2h3a1",
    optimal: ["a5"],
    margin: -24,
  },
  {
    transcript: "c4c3c2e3f3b2a2d6d3g2c5b1f4c6d7g4b4a5b3a4a3f2c7b8e7b5d2e2f6b7g3f7c8f5e8c1a8b6g5a7h2h6g7h3f8",
    optimal: ["d8"],
    margin: 16,
  },
  {
    transcript: "d3c3e6d2d1e1b2c1a3a1b4b3d6b5f4e3f3e2a5g5b6b7f5f6c7g3h3c2e7c5h5d7g6e8f2h7g4g2f7h6g7f8a4c4h8a7",
    optimal: ["g8"],
    margin: 12,
  },
];

/** Reviews the game on the board at Quick and waits for the end. */
export async function reviewQuick(page) {
  await reviewAt(page, "quick", 200_000);
}

/** Reviews the game on the board at `level` and waits for the end, at most `timeout` ms. */
export async function reviewAt(page, level, timeout) {
  await page.selectOption("#review-level", level);
  await page.click("#review-start");
  // A few moves' review can come and go between two looks at the page, so its progress bar
  // is not waited for: its end is, the button back as "Review again" beside the table.
  await page.waitForFunction(
    () => document.querySelector("#review-start")?.textContent.trim() === "Review again" && document.querySelector("#review-moves"),
    null,
    { timeout },
  );
}

/** A finished game in which Black could wipe White out at move 9 (f4 takes every white
 * disc) but played f2, with two passes and three forced moves later on: the review once
 * stopped at move 9 ("mcts (network az-8x8 (tract)) gives no values for its moves"). */
export const WIPE_OUT_PASS_FORCED =
  "d3c3b3d2e1d6d7e3f2c6e6d1b6b2b4d8c4f1a1f6g6a3c2b1c1c5a5g7c8g3g8a4f4g4b5a6e8f5c7b7a7h7g5h8g2a2e7b8a8h3g1h4f3h6f7h5h1h2f8e2";

/** Pastes a transcript or a record into the move box and loads it. */
export async function loadTranscript(page, text) {
  await page.fill("#transcript-input", text);
  await page.click("#load-transcript");
}

/** Loads WIPE_OUT_PASS_FORCED for analysis and waits for its end; Black's final margin,
 * read from the status line. */
export async function loadFinishedGame(page) {
  await newGame(page, { players: "analysis" });
  await loadTranscript(page, WIPE_OUT_PASS_FORCED);
  await page.waitForFunction(() => /Game over/.test(document.querySelector("#status").textContent));
  const over = await status(page);
  const counts = over.match(/(Black|White) wins (\d+)-(\d+)/);
  assert.ok(counts, over);
  return (counts[1] === "Black" ? 1 : -1) * (Number(counts[2]) - Number(counts[3]));
}

/** Clicks a download link and returns the file's suggested name and its text. A second
 * click if the first starts no download within 15 s: once, in a full run on a loaded
 * machine, a click made while the analysis redrew the panel started none (the same test
 * passes alone and in other full runs); a person would click again, and a link that never
 * downloads still fails. */
export async function download(page, link) {
  for (let attempt = 1; ; attempt++) {
    try {
      const [file] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), page.click(link)]);
      return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), "utf8") };
    } catch (e) {
      if (attempt === 2) throw e;
    }
  }
}
