// Browser tests of the board editor: an impossible position refused in words, and a
// position set up by clicking played against the agent. Desktop 1280x800 and phone 390x844.
// Run by scripts/e2e.sh; lib.mjs lists the environment they read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { moveCount, openGame, setLevel, shot, status, useBrowser, waitForTurn } from "./lib.mjs";

useBrowser();

const sideScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const discs = (page) => page.locator("#board .disc").count();

for (const [name, viewport] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
  test(`the editor (${name}): an impossible position is refused in words, a set-up one is played`, async () => {
    const { page, context, errors } = await openGame(viewport);
    await setLevel(page, "beginner");
    await page.click("#edit-board");
    await page.waitForSelector("#editor");
    assert.equal(await discs(page), 4, "it opens on the position on the board");

    // An empty centre, then a disc cut off from the others: refused, with the reason.
    await page.click("#editor-clear");
    assert.equal(await discs(page), 0);
    // Refused before any click: "Play from here" is disabled, and the reason is shown.
    assert.ok(await page.locator("#editor-play").isDisabled());
    assert.match(await page.locator("#editor-error").innerText(),
      /No game can reach this position: d4, e4, d5, e5 are empty, but the four centre squares hold discs/);
    await page.click("#editor-reset");
    assert.equal(await page.locator("#editor-error").count(), 0);
    assert.ok(!(await page.locator("#editor-play").isDisabled()));
    await page.click('.cell[data-square="a1"]');
    assert.ok(await page.locator("#editor-play").isDisabled());
    assert.match(await page.locator("#editor-error").innerText(), /a1 is cut off from the centre's discs/);
    assert.ok(await page.locator("#editor").isVisible(), "the editor stays open");
    if (name === "phone") assert.ok((await sideScroll(page)) <= 0, "the page scrolls sideways at 390 px");
    if (name === "desktop") await shot(page, "editor");

    // a1 back to empty (black, white, empty); f4 black, f5 white; White to move.
    await page.click('.cell[data-square="a1"]');
    await page.click('.cell[data-square="a1"]');
    await page.click('.cell[data-square="f4"]');
    await page.click('.cell[data-square="f5"]');
    await page.click('.cell[data-square="f5"]');
    assert.equal(await page.locator('.cell[data-square="f4"] .disc.black').count(), 1);
    assert.equal(await page.locator('.cell[data-square="f5"] .disc.white').count(), 1);
    assert.equal(await page.locator('.cell[data-square="a1"] .disc').count(), 0);
    await page.selectOption("#editor-side", "white");
    await page.selectOption("#editor-seats", "black");
    await page.click("#editor-play");
    await page.waitForSelector("#editor", { state: "detached" });
    // White is the agent and to move: it plays from the set-up position at once.
    assert.match(await waitForTurn(page), /your turn/i);
    assert.equal(await moveCount(page), 1);
    assert.ok((await discs(page)) === 7, `${await discs(page)} discs after the agent's move`);
    assert.match(await page.locator("#transcript").innerText(), /^[a-h][1-8]$/);
    // And the person plays on.
    await page.locator(".cell.legal").first().click();
    await waitForTurn(page);
    assert.ok((await moveCount(page)) >= 2);
    assert.doesNotMatch(await status(page), /Setting up/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

/** The board as the page draws it: square -> "X" (black), "O" (white) or "-". */
const board = (page) =>
  page.$$eval("#board .cell", (cells) =>
    Object.fromEntries(cells.map((c) => [c.dataset.square, c.querySelector(".disc.black") ? "X" : c.querySelector(".disc.white") ? "O" : "-"])));

test("the editor turns and mirrors a position, and copies it as board text and GGF that load back", async () => {
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
  await page.click("#edit-board");
  // An asymmetric position: c3 white, f4 black, beside the start's four.
  for (const sq of ["c3", "c3", "f4"]) await page.click(`.cell[data-square="${sq}"]`);
  const set = await board(page);
  assert.deepEqual([set.c3, set.f4, set.d4, set.e4], ["O", "X", "O", "X"]);
  // A quarter turn clockwise as drawn: c3 to f3, f4 to e6, the centre's diagonals swapped.
  await page.click("#editor-rotate");
  let b = await board(page);
  assert.deepEqual([b.f3, b.e6, b.c3, b.f4, b.d4, b.e4], ["O", "X", "-", "-", "X", "O"]);
  // Mirror (left and right) and flip (top and bottom).
  await page.click("#editor-mirror");
  b = await board(page);
  assert.deepEqual([b.c3, b.d6], ["O", "X"]);
  await page.click("#editor-flip");
  b = await board(page);
  assert.deepEqual([b.c6, b.d3], ["O", "X"]);
  // A flip and a mirror make a half turn: with three more quarter turns and another half
  // turn, two whole turns bring it back.
  for (let i = 0; i < 3; i++) await page.click("#editor-rotate");
  await page.click("#editor-flip");
  await page.click("#editor-mirror");
  assert.deepEqual(await board(page), set);
  await page.selectOption("#editor-side", "white");

  // Copy as board text: the clipboard and the field beside it say the same.
  await page.click("#editor-copy-text");
  await page.waitForFunction(() => /^Copied the position as board text/.test(document.querySelector("#editor-copy-note")?.textContent ?? ""));
  const text = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(await page.locator("#editor-copied").inputValue(), text);
  assert.match(text, /^[XO-]{64} O$/);
  await page.click("#editor-copy-ggf");
  await page.waitForFunction(() => /^Copied the position as GGF/.test(document.querySelector("#editor-copy-note")?.textContent ?? ""));
  const ggf = await page.locator("#editor-copied").inputValue();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), ggf);
  assert.match(ggf, /^\(;GM\[Othello\].*BO\[8 [-*O]{64} O\];\)$/);
  await shot(page, "editor-copy", "section.play");
  await page.click("#editor-close");

  // The page's own loaders read both back to the same position, White to move.
  await page.fill("#board-input", text);
  await page.click("#load-board");
  await page.waitForFunction((t) => document.querySelector("#board-text").value === t, text);
  assert.deepEqual(await board(page), set);
  await page.click('.cell[data-square="e3"]'); // moves on, so the record's load is seen
  await page.fill("#transcript-input", ggf);
  await page.click("#load-transcript");
  await page.waitForFunction((t) => document.querySelector("#board-text").value === t, text);
  assert.deepEqual(await board(page), set);
  assert.equal(await page.locator("#message").count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the editor offers the seats of the game on the board: an analysis goes on as one", async () => {
  // The thirteenth look opened the editor from an analysis and found "play Black" chosen.
  const { page, context, errors } = await openGame({ width: 1280, height: 800 });
  await setLevel(page, "beginner");
  await page.click("#edit-board");
  await page.waitForSelector("#editor");
  assert.equal(await page.inputValue("#editor-seats"), "black", "a game played as Black");
  await page.click("#editor-close");
  await page.waitForSelector("#editor", { state: "detached" });
  await page.click("#load-board");
  await page.waitForFunction(() => /^Analysis/.test(document.querySelector("#search-heading")?.textContent ?? ""), null, { timeout: 30_000 });
  await page.click("#edit-board");
  await page.waitForSelector("#editor");
  assert.equal(await page.inputValue("#editor-seats"), "analysis");
  assert.deepEqual(errors, []);
  await context.close();
});
