// A measurement, not a test (scripts/e2e.sh does not run it unless asked:
// `E2E_FILES=solver-speed.measure.mjs ./scripts/e2e.sh`, after
// `cargo build --release -p cli --bin othello`): the browser's exact solver against the
// native one in the same run, position by position. Each position is solved natively
// (`othello solve --best-only --threads 1`, the one-thread solver docs/solver.md compares
// with Edax), then by the page's agent at Strongest with one worker (its root solve: the
// same win/loss/draw proof and MTD(f) as `solve`, in wasm), then natively again, so that a
// change in the machine's load between the two shows as a gap between the native runs.
// The worker's table is smaller (2^18 entries against 2^20) and is kept from one
// position to the next, so the two count slightly different nodes; nodes per second is
// what is compared. The numbers go to docs/solver.md and docs/web.md.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";
import { newGame, numbers, openGame, setLevel, useBrowser, waitForTurn } from "./lib.mjs";

useBrowser();

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OTHELLO = process.env.OTHELLO_BIN ?? path.join(HERE, "../../target/release/othello");

// The endgame-reach measurement's three arena games (no passes before move 45), each cut
// at 21 and 20 empties with the agent to move: exact solves of about 1-15 M nodes, which
// Strongest's budget (5 s, 5,500 nodes a millisecond, capped at 20 M) always completes.
const GAMES = [
  "f5f4c3e6d3c4f3g3c6f2f6g4g5e3d2c2h4h3b3b4c5e1e7a4h2h6e2d1g2b6f1c7b5d7d6h1g1h5a3g6f7a5d8b2",
  "c4c3e6f6c2d6c6b4f5e3c5b5f3b6d3b3a3f4a6e2c7d2a5c8d7d8f1a4d1f2e7e1c1e8g3g4h4b2a1g5b1a2h6h2",
  "f5f4g3d6e3f2c6h4c4c5d3e6f3g5b5e2d2g4f1b6h3c3b4a3e1c2f6e7a4g6b3c1h5h6h7g1d1a5f7g2e8d8c8d7",
];
const EMPTIES = [21, 20];

function solveNatively(transcript) {
  const out = execFileSync(OTHELLO, ["solve", transcript, "--best-only", "--threads", "1"], { encoding: "utf8" });
  const found = out.match(/(\d+) nodes in ([\d.]+) s/);
  assert.ok(found, `no node count in: ${out}`);
  const margin = out.match(/margin ([+-]?\d+)/);
  return { nodes: Number(found[1]), seconds: Number(found[2]), margin: margin ? Number(margin[1]) : null };
}

test("the worker's exact solver against the native one, position by position", { timeout: 900_000 }, async () => {
  assert.ok(existsSync(OTHELLO), `build the native CLI first (cargo build --release -p cli --bin othello): no ${OTHELLO}`);
  const { page, context } = await openGame(undefined, 2);
  await setLevel(page, "strongest");
  const rows = [];
  for (const game of GAMES) {
    for (const empties of EMPTIES) {
      const plies = 60 - empties;
      const prefix = game.slice(0, 2 * plies);
      const before = solveNatively(prefix);
      await newGame(page, { size: "8", players: plies % 2 === 0 ? "white" : "black" });
      await page.fill("#transcript-input", prefix);
      await page.click("#load-transcript");
      await waitForTurn(page, 120_000);
      const solved = page.locator("#solved");
      assert.equal(await solved.count(), 1, `the agent did not solve ${prefix}`);
      assert.equal(await solved.getAttribute("data-exact"), "true", `not solved exactly: ${prefix}`);
      const wasm = {
        nodes: Number(await solved.getAttribute("data-nodes")),
        seconds: Number(await solved.getAttribute("data-micros")) / 1e6,
      };
      const after = solveNatively(prefix);
      const rate = (r) => r.nodes / r.seconds / 1e6;
      const nativeRate = (rate(before) + rate(after)) / 2;
      rows.push({
        position: `game ${GAMES.indexOf(game) + 1}, ${empties} empties`,
        margin: before.margin,
        native_nodes: before.nodes,
        native_s: [before.seconds, after.seconds],
        native_mnps: [rate(before), rate(after)].map((x) => Number(x.toFixed(1))),
        wasm_nodes: wasm.nodes,
        wasm_s: wasm.seconds,
        wasm_mnps: Number(rate(wasm).toFixed(1)),
        wasm_over_native: Number((rate(wasm) / nativeRate).toFixed(2)),
      });
    }
  }
  const sum = (key) => rows.reduce((s, r) => s + (Array.isArray(r[key]) ? r[key][0] : r[key]), 0);
  numbers.solver_speed = {
    rows,
    total: {
      native_mnps: Number((sum("native_nodes") / sum("native_s") / 1e6).toFixed(1)),
      wasm_mnps: Number((sum("wasm_nodes") / sum("wasm_s") / 1e6).toFixed(1)),
    },
  };
  console.table(rows);
  await context.close();
});
