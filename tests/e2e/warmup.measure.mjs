// A measurement, not a test (scripts/e2e.sh does not run it unless asked:
// `E2E_FILES=warmup.measure.mjs ./scripts/e2e.sh`): how fast the agent's first search on a
// fresh page runs against its later ones (issue 53: the first reply at Strong made a third
// of the later replies' simulations a second). One worker (two cores), Strong, the person
// White, so the agent's first move is the fresh page's first search; then four replies
// more. For each reply: its simulations a second, and within it the rate of its first
// quarter second against its last (from the panel's live figures). Twice: the agent moving
// as soon as the page is ready, and after three seconds of the player looking at the board.
// The numbers go to docs/web.md.
import test from "node:test";
import { newGame, numbers, openGame, setLevel, useBrowser, waitForTurn } from "./lib.mjs";

useBrowser();

/** Samples the panel's live figures (simulations, elapsed ms) of each search while it runs. */
async function sample(page) {
  await page.evaluate(() => {
    window.__samples = [];
    const tick = () => {
      const info = document.querySelector("#search-info");
      if (info && info.dataset.kind === "thinking") {
        window.__samples.push([Number(info.dataset.simulations), Number(info.dataset.elapsed)]);
      }
      if (!window.__stopSampling) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** The rate (simulations a second) over a search's first quarter second and its last. */
function quarterRates(samples) {
  const unique = samples.filter((s, i) => i === 0 || s[1] !== samples[i - 1][1]);
  if (unique.length < 3) return [null, null];
  const rate = (a, b) => ((b[0] - a[0]) * 1000) / Math.max(1, b[1] - a[1]);
  const first = unique.find((s) => s[1] >= 250) ?? unique[unique.length - 1];
  const end = unique[unique.length - 1];
  const lastStart = [...unique].reverse().find((s) => s[1] <= end[1] - 250) ?? unique[0];
  return [Math.round(rate([0, 0], first)), Math.round(rate(lastStart, end))];
}

async function replies(label, pauseMs) {
  const { page, context } = await openGame(undefined, 2);
  await setLevel(page, "strong");
  if (pauseMs) await page.waitForTimeout(pauseMs);
  await sample(page);
  await newGame(page, { size: "8", players: "white" });
  const rows = [];
  for (let reply = 1; reply <= 5; reply++) {
    await page.evaluate(() => (window.__samples = []));
    await waitForTurn(page, 60_000);
    const samples = await page.evaluate(() => window.__samples);
    const info = page.locator("#search-info");
    const sims = Number(await info.getAttribute("data-simulations"));
    const elapsed = Number(await info.getAttribute("data-elapsed"));
    const [firstQuarter, lastQuarter] = quarterRates(samples);
    rows.push({ reply, sims, rate: Math.round((sims * 1000) / Math.max(1, elapsed)), firstQuarter, lastQuarter });
    await page.locator(".cell.legal").first().click();
  }
  numbers[label] = rows;
  console.table(rows);
  await context.close();
}

test("the first search of a fresh page against the later ones", { timeout: 600_000 }, async () => {
  await replies("warmup_at_once", 0);
  await replies("warmup_after_3s", 3000);
  await replies("warmup_at_once_again", 0);
});
