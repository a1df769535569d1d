// Browser tests of a later fresh look at the page for issue 68 ("a page a player trusts"):
// a game's searches drawn on its own graph only, a record's fields kept, and what the board
// and the words beside it say agreeing with each other.
// Run by scripts/e2e.sh (or alone with E2E_FILES=agree.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { download, ENDGAMES, loadTranscript, newContext, newGame, openGame, setLevel, useBrowser, waitForTurn } from "./lib.mjs";

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

/** Analysis mode on ENDGAMES[0] (16 empties, White to move, a5 loses by 24), solved. */
async function solvedAnalysis() {
  const opened = await openGame({ width: 1280, height: 800 });
  await newGame(opened.page, { players: "analysis" });
  await loadTranscript(opened.page, ENDGAMES[0].transcript);
  await opened.page.waitForSelector("#solved", { timeout: 20_000 });
  return opened;
}

test("an analysis's panel speaks for the side its squares speak for", { timeout: 120_000 }, async () => {
  const { page, context, errors } = await solvedAnalysis();
  // Issue 68: "Proven win by 24 for Black" beside "-24" on a5 and a legend "for White".
  assert.match(await page.locator("#solved").innerText(), /^Proven loss by 24 for White, solved exactly: that is the result after a5 by White, and no move of White's does better/);
  assert.match(await page.locator("#heat-legend").innerText(), /^On the squares: the final disc margin for White after each move/);
  assert.equal(await page.locator("#sq-a5 .pct").innerText(), "\u221224");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a solved analysis gives every move its exact margin, coloured by rank, the best green", { timeout: 120_000 }, async () => {
  const { page, context, errors } = await solvedAnalysis();
  // The twelfth look: "?" on every move but the solver's under "finished (100
  // simulations)"; within the sure reach the other moves are solved too, as for a hint.
  await page.waitForFunction(() => /^Analysis of White to move: finished: solved exactly in /.test(document.querySelector("#search-heading")?.textContent ?? ""), null, { timeout: 20_000 });
  const tiles = await page.evaluate(() =>
    [...document.querySelectorAll(".cell.legal .heat")].map((h) => ({ square: h.closest("button").dataset.square, label: h.textContent, style: h.getAttribute("style") })),
  );
  assert.ok(tiles.length >= 5, JSON.stringify(tiles));
  const hue = (t) => Number(/hsla\(([\d.]+), 75%/.exec(t.style)?.[1]);
  const margin = (t) => Number(t.label.replace("\u2212", "-"));
  for (const t of tiles) {
    assert.match(t.label, /^([+\u2212]\d+|0)$/, `${t.square} is not an exact margin: ${JSON.stringify(tiles)}`);
    assert.ok(!Number.isNaN(hue(t)), `${t.square} is not ranked: ${t.style}`);
  }
  // Issue 68: the framed "-24" was painted red among them, read as the worst move.
  const best = tiles.find((t) => t.square === "a5");
  assert.equal(margin(best), ENDGAMES[0].margin);
  assert.match(best.style, /hsla\(120\.0, /, `a5 is not green: ${best.style}`);
  for (const a of tiles)
    for (const b of tiles)
      if (margin(a) > margin(b)) assert.ok(hue(a) > hue(b), `${a.square} ${a.label} is not greener than ${b.square} ${b.label}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a record with no result says so, and its link opens it to download byte for byte as it came", { timeout: 120_000 }, async () => {
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  const record = RECORD.replace("RE[+0.000]", "RE[?]");
  assert.ok(record.includes("RE[?]") && record.includes("TI[05:00//02:00]"));
  await newGame(page, { players: "analysis" });
  await loadTranscript(page, record);
  await page.waitForFunction(() => document.querySelector("#transcript").textContent.length === 120);
  // Issue 68: RE[?] read "The record's result: Black won by 10".
  assert.match(await page.locator("#record-players").innerText(), /The record's result: not given; its moves end the game, a draw on the board\.$/);
  assert.equal((await download(page, "#download-ggf")).text, record);
  // Its link, opened in a fresh browser, is the record as it came (issue 68: it lost its
  // TI[...], gained RE[+10] and wrote BO anew).
  const link = await page.getAttribute("#copy-link", "data-link");
  const fresh = await newContext({ viewport: { width: 1280, height: 800 } });
  const opened = await fresh.newPage();
  await opened.goto(link);
  await opened.waitForSelector('main[data-ready="true"]');
  await opened.waitForFunction(() => document.querySelector("#transcript").textContent.length === 120);
  assert.equal((await download(opened, "#download-ggf")).text, record);
  assert.match(await opened.locator("#record-players").innerText(), /Saio1200 \(Black\) vs Saio3000 \(White\)/);
  await fresh.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test("at a finished game's end the disc counts say whose the empty squares are, as the result line counts them", { timeout: 120_000 }, async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page, context, errors } = await openGame(viewport);
    // Black's 2 discs against White's 60, c1 and d1 empty, and neither side can move.
    await page.fill("#board-input", `XX--OOOO${"O".repeat(56)} X`);
    await page.click("#load-board");
    await page.waitForFunction(() => /White wins 62-2/.test(document.querySelector("#status").textContent));
    // Issue 68: "Black 2 White 60" stood beside "White wins 62-2" with no word why.
    assert.match(await page.locator("#counts").innerText(), /^Black 2\s+White 60\s+2 empty: White's, 62-2$/);
    // One line, on the page: the board under it stays where it was, and nothing runs
    // past the screen's edge.
    const counts = await page.locator("#counts").boundingBox();
    assert.ok(counts.height < 30, JSON.stringify(counts));
    const right = await page.evaluate(() => [document.documentElement.scrollWidth, document.querySelector("#counts-empties").getBoundingClientRect().right]);
    assert.ok(right[0] <= viewport.width && right[1] <= viewport.width, JSON.stringify(right));
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test("Analyse with the box left empty keeps a finished game, and analyses the game from the earlier position looked back at, its moves kept", { timeout: 120_000 }, async () => {
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  await loadTranscript(page, RECORD);
  await page.waitForFunction(() => document.querySelector("#transcript").textContent.length === 120);
  const final = await page.inputValue("#board-text");
  // A fresh look: the finished game was replaced by its bare final position, moves gone.
  await page.click("#load-board");
  await page.waitForFunction(() => /no move to analyse/.test(document.querySelector("#message")?.textContent ?? ""));
  assert.equal((await page.locator("#transcript").innerText()).length, 120);
  // Looking back at move 20, the board text and Analyse are that position's.
  await page.click('#moves button[data-ply="20"]');
  await page.waitForFunction((f) => document.querySelector("#board-text").value !== f, final);
  const earlier = await page.inputValue("#board-text");
  await page.click("#load-board");
  await page.waitForFunction(() => /^Analysis of/.test(document.querySelector("#search-heading")?.textContent ?? ""), null, { timeout: 20_000 });
  assert.equal(await page.inputValue("#board-text"), earlier);
  // The game goes on from move 20 with its moves (the thirteenth look: it was put aside
  // and the position analysed bare): nothing put aside, the first 20 moves on the board,
  // the other 40 to redo.
  assert.equal(await page.locator("#set-aside").count(), 0);
  const moves = RECORD.match(/[BW]\[([a-h][1-8]|pa)/gi).slice(0, 20).map((m) => m.slice(2).toLowerCase()).join("");
  assert.equal(await page.locator("#transcript").innerText(), moves);
  assert.ok(await page.locator("#redo").isEnabled());
  // The transcript says what it leaves out (the fourteenth look: 20 moves beside a list
  // of 60).
  assert.match(await page.locator("#transcript-redo").innerText(), /40 more, greyed in the list, to redo/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("a link copied after an undo opens with the later moves to redo", async () => {
  // Issue 68, eighth look: played as White, Undo said "Redo replays them", and the copied
  // link opened with Redo off.
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  await setLevel(page, "beginner");
  await newGame(page, { players: "white" });
  for (let i = 0; i < 2; i++) {
    await waitForTurn(page);
    await page.locator(".cell.legal").first().click();
  }
  await waitForTurn(page);
  const whole = await page.locator("#transcript").innerText();
  await page.click("#undo");
  await page.waitForFunction(() => !document.querySelector("#redo").disabled);
  const back = await page.locator("#transcript").innerText();
  assert.notEqual(back, whole);
  const link = await page.getAttribute("#copy-link", "data-link");
  const fresh = await newContext({ viewport: { width: 1280, height: 800 } });
  const opened = await fresh.newPage();
  await opened.goto(link);
  await opened.waitForSelector('main[data-ready="true"]');
  await opened.waitForFunction((t) => document.querySelector("#transcript").innerText === t, back);
  assert.ok(await opened.locator("#redo").isEnabled(), `Redo off after opening ${link}`);
  await opened.click("#redo");
  await opened.waitForFunction((t) => document.querySelector("#transcript").innerText === t, whole);
  await fresh.close();
  assert.deepEqual(errors, []);
  await context.close();
});

test("Analyse in a game against the agent offers the way back: Play on against the agent", { timeout: 120_000 }, async () => {
  // The fourteenth look pressed Analyse mid-game and lost its opponent, with no way back
  // but a new game.
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  await setLevel(page, "beginner");
  await newGame(page, { players: "black" });
  await page.click("#sq-f5");
  await waitForTurn(page);
  await page.click("#load-board");
  await page.waitForSelector("#analysed-notice");
  assert.equal((await page.locator("#transcript").innerText()).length, 4, "both moves kept");
  assert.match(await page.locator("#status").innerText(), /^Analysis of your game: Black to move, both sides yours \("Play on against the agent", above/);
  // Moves in the analysis are the person's, both sides'.
  await page.locator(".cell.legal").first().click();
  await page.waitForFunction(() => document.querySelector("#transcript").textContent.length === 6);
  await page.click("#resume-agent");
  await page.waitForSelector("#analysed-notice", { state: "detached" });
  // White, the agent, is to move: it plays on, and the person has Black again.
  await waitForTurn(page);
  assert.equal((await page.locator("#transcript").innerText()).length, 8);
  assert.equal(await page.inputValue("#new-players"), "black");
  assert.deepEqual(errors, []);
  await context.close();
});
