// A measurement, not a test (scripts/e2e.sh does not run it unless asked:
// `E2E_FILES=review-reach.measure.mjs ./scripts/e2e.sh`): how long each move of a review
// takes in one worker, by the empties of the position it was played from, at the default
// budget (400 simulations a position), so that the review's exact reach
// (`engine::review::review_exact_empties`) stays within what a player waits for a row. A
// move's review is one message: the time between two steps of the progress bar, with one
// worker and in order, is that move's. The games: the Saio record of the other tests and
// the endgame-reach measurement's three arena games. The numbers go to docs/review.md.
import assert from "node:assert/strict";
import fs from "node:fs";
import test from "node:test";
import { loadTranscript, newGame, numbers, openGame, reviewAt, useBrowser } from "./lib.mjs";

useBrowser();

const GAMES = [
  fs.readFileSync(new URL("./data/saio1200-saio3000.ggf", import.meta.url), "utf8").trim(),
  "f5f4c3e6d3c4f3g3c6f2f6g4g5e3d2c2h4h3b3b4c5e1e7a4h2h6e2d1g2b6f1c7b5d7d6h1g1h5a3g6f7a5d8b2",
  "c4c3e6f6c2d6c6b4f5e3c5b5f3b6d3b3a3f4a6e2c7d2a5c8d7d8f1a4d1f2e7e1c1e8g3g4h4b2a1g5b1a2h6h2",
  "f5f4g3d6e3f2c6h4c4c5d3e6f3g5b5e2d2g4f1b6h3c3b4a3e1c2f6e7a4g6b3c1h5h6h7g1d1a5f7g2e8d8c8d7",
];

test("each move's review in one worker, by empties", { timeout: 1_800_000 }, async () => {
  const { page, context } = await openGame({ width: 1280, height: 800 }, 2);
  const byEmpties = {};
  for (const game of GAMES) {
    await newGame(page, { size: "8", players: "analysis" });
    await loadTranscript(page, game);
    // Every move on the board: a record's 60 moves, or the transcript's.
    const length = game.startsWith("(;") ? 120 : game.length;
    await page.waitForFunction((n) => document.querySelector("#transcript").textContent.length === n, length);
    // Every step of the progress bar, timed in the page.
    await page.evaluate(() => {
      window.__steps = [];
      new MutationObserver(() => {
        const bar = document.querySelector("#review-progress");
        if (bar) window.__steps.push([Number(bar.getAttribute("value")), performance.now()]);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["value"] });
    });
    await reviewAt(page, "medium", 1_200_000);
    const steps = await page.evaluate(() => window.__steps);
    // The first time each count was reached; a move's time is from the count before.
    const first = new Map();
    for (const [done, at] of steps) if (!first.has(done)) first.set(done, at);
    assert.ok(first.size > 1, "no progress seen");
    for (let done = 1; done <= 60; done++) {
      if (!first.has(done) || !first.has(done - 1)) continue;
      // The empties before move `done`: no game passes before 15 empties.
      const left = 60 - done + 1;
      if (left > 26) continue;
      (byEmpties[left] ??= []).push(Math.round(first.get(done) - first.get(done - 1)));
    }
  }
  numbers.review_reach = byEmpties;
  console.table(Object.entries(byEmpties).map(([e, ms]) => ({ empties: Number(e), ms: ms.join(" "), slowest: Math.max(...ms) })));
  await context.close();
});
