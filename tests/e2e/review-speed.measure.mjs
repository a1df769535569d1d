// A measurement, not a test (scripts/e2e.sh does not run it unless asked:
// `E2E_FILES=review-speed.measure.mjs ./scripts/e2e.sh`): how long the page's review takes
// per move at each of its budgets, on a whole 60-move game, in Chromium. The numbers go to
// docs/web.md (Game review).
import assert from "node:assert/strict";
import test from "node:test";
import { newGame, numbers, openGame, useBrowser } from "./lib.mjs";

useBrowser();

// The random game of review.test.mjs: 60 moves, no pass.
const GAME =
  "e6d6c3f4d7c5g4g3c4g5b5c7f5a5a6d8a4f7f6d3h4c2e7e3g6f8b4b3e2h5b6f3h6g7c6a7d2d1c1b1c8b2h7h8h2a3h3h1f2g2f1g1e8g8a2a1b7b8a8e1";

test("the review's time per move at each budget", async () => {
  const { page, context } = await openGame({ width: 1280, height: 800 });
  await newGame(page, { size: "8", players: "black" });
  await page.fill("#transcript-input", GAME);
  await page.click("#load-transcript");
  await page.waitForFunction(() => /Game over/.test(document.querySelector("#status").textContent));
  for (const level of ["quick", "medium", "deep"]) {
    await page.selectOption("#review-level", level);
    const t0 = Date.now();
    await page.click("#review-start");
    await page.waitForSelector("#review-progress");
    await page.waitForSelector("#review-start", { timeout: 600_000 });
    const ms = Date.now() - t0;
    assert.equal(await page.locator("#review-moves tbody tr").count(), 60);
    numbers[`review_${level}_ms_per_move`] = Math.round(ms / 60);
    numbers[`review_${level}_s_whole_game`] = Math.round(ms / 100) / 10;
  }
  await context.close();
});
