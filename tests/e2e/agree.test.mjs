// Browser tests of a later fresh look at the page for issue 68 ("a page a player trusts"):
// a game's searches drawn on its own graph only, a record's fields kept, and what the board
// and the words beside it say agreeing with each other.
// Run by scripts/e2e.sh (or alone with E2E_FILES=agree.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { loadTranscript, newGame, openGame, useBrowser } from "./lib.mjs";

useBrowser();

const RECORD = fs.readFileSync(new URL("./data/saio1200-saio3000.ggf", import.meta.url).pathname, "utf8").trim();

/** The plies of the graph's points (the end point of a finished game included). */
const graphPlies = (page) =>
  page.evaluate(() => [...document.querySelectorAll("#eval-graph [data-ply]")].map((p) => Number(p.dataset.ply)).sort((a, b) => a - b));

test("a record loaded after a game's searches draws none of them, and the game they were made for keeps them", { timeout: 120_000 }, async () => {
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  // One's own game through the record's first three moves, each position analysed.
  await newGame(page, { players: "analysis" });
  for (const [i, square] of ["d3", "c5", "f6"].entries()) {
    await page.waitForTimeout(1500);
    await page.click(`#sq-${square}`);
    await page.waitForSelector(`#eval-graph [data-ply="${i + 1}"]`, { state: "attached" });
  }
  const searched = await graphPlies(page);
  // The record, pasted: it passes through those positions, but nobody searched it here
  // (issue 68: its graph read "2. c3 (White): Black 46% to win, ~-2 discs").
  await loadTranscript(page, RECORD);
  await page.waitForFunction(() => document.querySelector("#transcript").textContent.length === 120);
  assert.deepEqual(await graphPlies(page), [61], "only the record's end, its exact result");
  // A reload keeps each game's graph its own.
  await page.reload();
  await page.waitForSelector('main[data-ready="true"]');
  assert.deepEqual(await graphPlies(page), [61]);
  await page.click("#bring-back");
  await page.waitForFunction(() => document.querySelector("#transcript").textContent === "d3c5f6");
  const back = await graphPlies(page);
  assert.deepEqual(back.filter((p) => p <= 3), searched.filter((p) => p <= 3), "the game's own searches are kept");
  assert.deepEqual(errors, []);
  await context.close();
});
