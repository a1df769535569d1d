// Browser tests of issue 68, "a page a player trusts, third look": a review that finishes on
// every legal game, records that keep what they came with, one legend for every number on
// the squares, numbers that agree with each other, Puzzle mode's and the phone's rough
// edges, and what issue 62's fresh look left.
// Run by scripts/e2e.sh (or alone with E2E_FILES=trust.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
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

/** Clicks a download link; the file's suggested name and its text. */
async function download(page, link) {
  const [file] = await Promise.all([page.waitForEvent("download", { timeout: 15_000 }), page.click(link)]);
  return { name: file.suggestedFilename(), text: fs.readFileSync(await file.path(), "utf8") };
}

/** Reviews the game on the board at Quick and waits for the end. */
async function reviewQuick(page) {
  await page.selectOption("#review-level", "quick");
  await page.click("#review-start");
  await page.waitForSelector("#review-progress");
  await page.waitForSelector("#review-start", { timeout: 200_000 });
}

test("a record loaded after a review shows none of it and downloads byte for byte what it came with", { timeout: 240_000 }, async () => {
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  const file = new URL("./data/saio1200-saio3000.ggf", import.meta.url).pathname;
  const record = fs.readFileSync(file, "utf8").trim();
  // One's own game through the record's first three moves (d3 c5 f6), reviewed.
  await newGame(page, { players: "analysis" });
  for (const square of ["d3", "c5", "f6"]) {
    await page.click(`#sq-${square}`);
    await page.waitForFunction((n) => document.querySelector("#transcript").textContent.length === n, 2 * (["d3", "c5", "f6"].indexOf(square) + 1));
  }
  await reviewQuick(page);
  assert.equal(await page.locator("#review-moves tbody tr").count(), 3);
  // The record, pasted: a game of its own, with no review of this page's.
  await page.fill("#transcript-input", record);
  await page.click("#load-transcript");
  await page.waitForFunction(() => document.querySelector("#transcript").textContent.length === 120);
  assert.equal(await page.locator("#review-moves").count(), 0, "another game's review is shown");
  assert.equal(await page.locator("#review-judged").count(), 0);
  assert.equal(await page.locator("#review-start").innerText(), "Review the game");
  assert.equal(await page.locator("#eval-graph .pt.inaccuracy, #eval-graph .pt.mistake, #eval-graph .pt.blunder").count(), 0);
  // Its downloads are the record as it came, byte for byte, its notes (B[d3//3.08]) included.
  assert.equal((await download(page, "#download-ggf")).text, record);
  assert.equal((await download(page, "#download-ggf-end")).text, record);
  assert.equal(await page.locator("#download-ggf-reviewed").count(), 0);
  // Reviewed itself, it still downloads as it came; the review's values go into a download
  // of their own, which the player chooses.
  await reviewQuick(page);
  assert.equal(await page.locator("#review-moves tbody tr").count(), 60);
  assert.equal((await download(page, "#download-ggf")).text, record);
  const reviewed = await download(page, "#download-ggf-reviewed");
  assert.equal(reviewed.name, "Saio1200-vs-Saio3000-2026-11-25-reviewed.ggf");
  assert.match(reviewed.text, /B\[d3\/-?\d+(\.\d+)?\/3\.08\]/);
  // A reload keeps both: the record as it came, and its review.
  await page.reload();
  await page.waitForSelector('main[data-ready="true"]');
  assert.equal(await page.locator("#review-moves tbody tr").count(), 60);
  assert.equal((await download(page, "#download-ggf")).text, record);
  assert.deepEqual(errors, []);
  await context.close();
});
