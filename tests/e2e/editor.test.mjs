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
    await page.click("#editor-play");
    assert.match(await page.locator("#editor-error").innerText(),
      /No game can reach this position: d4, e4, d5, e5 are empty, but the four centre squares hold discs/);
    await page.click("#editor-reset");
    assert.equal(await page.locator("#editor-error").count(), 0);
    await page.click('.cell[data-square="a1"]');
    await page.click("#editor-play");
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
    assert.match(await waitForTurn(page), /your turn/);
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
