// A measurement, not a test (scripts/e2e.sh does not run it unless asked:
// `E2E_FILES=endgame-reach.measure.mjs ./scripts/e2e.sh`): where the agent's root solve
// proves the result and where it solves exactly in Chromium, at Strong and Strongest, with
// one worker and with three (the first proves the whole root, the other two split it by the
// root's moves). Each game (arena games between az-8x8 agents, no passes
// before move 45) is loaded at every empties count from 26 to 15 with the agent to move,
// and the agent's move is read: proven (exact or only the result) or searched. The numbers
// go to docs/web.md.
import assert from "node:assert/strict";
import test from "node:test";
import { newGame, numbers, openGame, setLevel, useBrowser, waitForTurn } from "./lib.mjs";

useBrowser();

const GAMES = [
  "f5f4c3e6d3c4f3g3c6f2f6g4g5e3d2c2h4h3b3b4c5e1e7a4h2h6e2d1g2b6f1c7b5d7d6h1g1h5a3g6f7a5d8b2",
  "c4c3e6f6c2d6c6b4f5e3c5b5f3b6d3b3a3f4a6e2c7d2a5c8d7d8f1a4d1f2e7e1c1e8g3g4h4b2a1g5b1a2h6h2",
  "f5f4g3d6e3f2c6h4c4c5d3e6f3g5b5e2d2g4f1b6h3c3b4a3e1c2f6e7a4g6b3c1h5h6h7g1d1a5f7g2e8d8c8d7",
];

for (const level of ["strong", "strongest"]) {
  for (const [label, cores] of [["one worker", 2], ["three workers", 4]]) {
    test(`${level}, ${label}: the empties at which the root is proven and solved`, async () => {
      const { page, context } = await openGame(undefined, cores);
      await setLevel(page, level);
      const rows = [];
      for (const game of GAMES) {
        for (let empties = 26; empties >= 15; empties--) {
          const plies = 60 - empties;
          const prefix = game.slice(0, 2 * plies);
          // The agent plays the side to move (no passes in these prefixes).
          await newGame(page, { size: "8", players: plies % 2 === 0 ? "white" : "black" });
          await page.fill("#transcript-input", prefix);
          const t0 = Date.now();
          await page.click("#load-transcript");
          await waitForTurn(page, 60_000);
          const wall = Date.now() - t0;
          const solved = page.locator("#solved");
          const proven = (await solved.count()) > 0;
          rows.push({
            empties,
            result: proven ? ((await solved.getAttribute("data-exact")) === "true" ? "exact" : "proof") : "search",
            nodes: proven ? Number(await solved.getAttribute("data-nodes")) : 0,
            ms: proven ? Number(await solved.getAttribute("data-micros")) / 1000 : 0,
            wall,
          });
        }
      }
      const highest = (kind) => Math.max(0, ...rows.filter((r) => kind.includes(r.result)).map((r) => r.empties));
      const key = `${level}_${label.replace(" ", "_")}`;
      numbers.endgame_reach = numbers.endgame_reach ?? {};
      numbers.endgame_reach[key] = {
        highest_proven: highest(["proof", "exact"]),
        highest_exact: highest(["exact"]),
        by_empties: Object.fromEntries(
          [...new Set(rows.map((r) => r.empties))].map((e) => [
            e,
            rows.filter((r) => r.empties === e).map((r) => `${r.result} ${(r.nodes / 1e6).toFixed(1)}M ${r.ms.toFixed(0)}ms, move ${r.wall}ms`),
          ]),
        ),
      };
      assert.ok(rows.length > 0);
      await context.close();
    });
  }
}
