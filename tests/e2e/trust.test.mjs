// Browser tests of issue 68, "a page a player trusts, third look": a review that finishes on
// every legal game, records that keep what they came with, one legend for every number on
// the squares, numbers that agree with each other, Puzzle mode's and the phone's rough
// edges, and what issue 62's fresh look left.
// Run by scripts/e2e.sh (or alone with E2E_FILES=trust.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { moveCount, newGame, openGame, useBrowser } from "./lib.mjs";

useBrowser();

/** A finished game in which Black could wipe White out at move 9 (f4 takes every white
 * disc) but played f2, with two passes and three forced moves later on: the review once
 * stopped at move 9 ("mcts (network az-8x8 (tract)) gives no values for its moves"). */
const WIPE_OUT_PASS_FORCED =
  "d3c3b3d2e1d6d7e3f2c6e6d1b6b2b4d8c4f1a1f6g6a3c2b1c1c5a5g7c8g3g8a4f4g4b5a6e8f5c7b7a7h7g5h8g2a2e7b8a8h3g1h4f3h6f7h5h1h2f8e2";

async function loadTranscript(page, text) {
  await page.fill("#transcript-input", text);
  await page.click("#load-transcript");
}

test("a review of a game with a wipe-out in one, passes and forced moves finishes", { timeout: 240_000 }, async () => {
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  await newGame(page, { players: "black" });
  await loadTranscript(page, WIPE_OUT_PASS_FORCED);
  await page.waitForFunction(() => /Game over/.test(document.querySelector("#status").textContent));
  assert.equal(await moveCount(page), 60);
  await page.selectOption("#review-level", "quick");
  await page.click("#review-start");
  await page.waitForSelector("#review-progress");
  await page.waitForSelector("#review-start", { timeout: 200_000 });
  const error = await page.locator("#review-error").allInnerTexts();
  assert.deepEqual(error, [], "the review stopped");
  const rows = page.locator("#review-moves tbody tr");
  // Every move, the two passes included.
  assert.equal(await rows.count(), 62);
  // Move 9: f2 played where f4 wiped White out, exactly +64.
  const ninth = await page.locator('#review-moves tr[data-ply="9"] td').allInnerTexts();
  assert.equal(ninth[1], "f2");
  assert.equal(ninth[3], "f4");
  assert.equal(ninth[4], "+64");
  assert.equal(await page.locator("#review-moves tr.forced").count() >= 5, true, "the passes and forced moves are marked forced");
  assert.deepEqual(errors, []);
  await context.close();
});
