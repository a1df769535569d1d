// A measurement, not a test (scripts/e2e.sh runs it only when named:
// `E2E_FILES=equal-time.measure.mjs ./scripts/e2e.sh`): the page's 8x8 agent against the
// one it replaced (the az-8x8 network's search, the page's agent until 2026-11-29), each in
// a browser worker at the same time a move (issue 67: the page plays the new agent once it
// beats the old one at equal time in a browser worker). Two pages, one a side: the first
// keeps the page's agent, the second picks az-8x8 as its opponent; both at Strong with the
// opening book, whose player specs (`#model-status`'s `data-player`) are the agents. Each
// move is searched by the mover's page's worker 0 alone (the test hook `othelloPlayMove`,
// `crates/page/src/pool/lone.rs`) for the same milliseconds, one search at a time. Games
// start from the XOT openings (crates/othello/data/xot-8x8.txt), each played with both
// colours. The games, the score, the pairs and the Elo difference with its 95% interval
// go to the report; docs/web.md has the figures.
//   EQUAL_TIME_MS     milliseconds a move (default 1000, the page's Strong)
//   EQUAL_TIME_PAIRS  game pairs (default 10)
//   EQUAL_TIME_FROM   the first XOT opening's index (default 0)
//   EQUAL_TIME_OPPONENT  the shipped 8x8 network the second page picks (default az-8x8)
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { numbers, openGame, setLevel, useBrowser } from "./lib.mjs";

useBrowser();

const MILLIS = Number(process.env.EQUAL_TIME_MS ?? 1000);
const PAIRS = Number(process.env.EQUAL_TIME_PAIRS ?? 10);
const FROM = Number(process.env.EQUAL_TIME_FROM ?? 0);
const OPPONENT = process.env.EQUAL_TIME_OPPONENT ?? "az-8x8";

const openings = fs
  .readFileSync(path.resolve(import.meta.dirname, "../../crates/othello/data/xot-8x8.txt"), "utf8")
  .split("\n")
  .map((line) => line.split("#")[0].trim())
  .filter((line) => line.length > 0);

/** A page at Strong with the book, its opponent the shipped `learner` (or the default). */
async function agentPage(learner) {
  const { page, context } = await openGame(undefined, 2, true);
  await setLevel(page, "strong");
  if (learner) {
    await page.selectOption("#learner", learner);
    await page.waitForFunction(
      (name) => new RegExp(`Opponent: the ${name} network`).test(document.querySelector("#model-status")?.innerText ?? ""),
      learner,
      { timeout: 60_000 },
    );
  }
  const spec = await page.getAttribute("#model-status", "data-player");
  return { page, context, spec };
}

/** The next move of `transcript` by `side`'s worker 0: the hook's answer, parsed. */
async function move(side, transcript, seed) {
  const answer = await side.page.evaluate(
    ([spec, moves, ms, s]) => new Promise((resolve) => window.othelloPlayMove(spec, moves, ms, s, resolve)),
    [side.spec, transcript, MILLIS, seed],
  );
  assert.ok(!String(answer).startsWith("error"), `${side.spec} after '${transcript}': ${answer}`);
  return JSON.parse(answer);
}

/** A game from `opening`: `black` and `white` are the sides; Black's final margin. */
async function play(opening, black, white, seed) {
  let transcript = opening;
  for (let ply = 0; ply < 130; ply++) {
    const mover = ply % 2 === 0 ? black : white;
    // The transcript's own length says whose turn it is only without passes; the hook
    // answers a pass for the side with no move, so the sides simply alternate.
    const answer = await move(mover, transcript, seed * 1000 + ply);
    transcript = answer.transcript;
    if (answer.move !== "pass" && !answer.settled && answer.ms > 0) {
      mover.rates.push((answer.simulations * 1000) / answer.ms);
    }
    if (answer.over) return { transcript, margin: answer.black_margin };
  }
  throw new Error(`no end after '${transcript}'`);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// The logistic Elo of a score, clamped as the arena clamps a sweep; the interval below is
// the normal one on the pairs' mean score (the arena's fishtest-style interval, in `tools`,
// also regularises outcomes never seen; the page does not link it).
const elo = (p) => -400 * Math.log10(1 / Math.min(0.999, Math.max(0.001, p)) - 1);

test("the page's 8x8 agent against the one it replaced, at equal time in a browser worker", { timeout: PAIRS * 2 * 240_000 + 120_000 }, async () => {
  const ours = { ...(await agentPage(null)), rates: [] };
  const old = { ...(await agentPage(OPPONENT)), rates: [] };
  assert.match(ours.spec, /^mcts:model=pattern-8x8,/);
  assert.ok(old.spec.startsWith(`mcts:model=${OPPONENT}`), old.spec);
  const games = [];
  const pairScores = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const opening = openings[(FROM + pair) % openings.length];
    const scores = [];
    for (const oursBlack of [true, false]) {
      const [black, white] = oursBlack ? [ours, old] : [old, ours];
      // The sides alternate from Black: XOT openings have eight plies, so Black is to move.
      assert.equal((opening.length / 2) % 2, 0, `an even opening: ${opening}`);
      const { transcript, margin } = await play(opening, black, white, games.length + 1);
      const oursMargin = oursBlack ? margin : -margin;
      const score = oursMargin > 0 ? 1 : oursMargin === 0 ? 0.5 : 0;
      scores.push(score);
      games.push({ opening, ours_black: oursBlack, transcript, black_margin: margin, score });
      console.log(`pair ${pair + 1} ${oursBlack ? "ours Black" : "ours White"}: ${oursMargin > 0 ? "+" : ""}${oursMargin}`);
    }
    pairScores.push(scores[0] + scores[1]);
  }
  const n = pairScores.length;
  const mean = pairScores.reduce((a, b) => a + b, 0) / (2 * n);
  const variance = pairScores.reduce((a, s) => a + (s / 2 - mean) ** 2, 0) / n;
  const half = 1.96 * Math.sqrt(variance / n);
  const count = (v) => games.filter((g) => g.score === v).length;
  const pentanomial = [0, 0.5, 1, 1.5, 2].map((v) => pairScores.filter((s) => s === v).length);
  numbers.equal_time = {
    millis: MILLIS,
    first: ours.spec,
    second: old.spec,
    wins_draws_losses: [count(1), count(0.5), count(0)],
    score: mean,
    pairs_ll_ld_even_wd_ww: pentanomial,
    elo: [elo(mean), elo(mean - half), elo(mean + half)].map(Math.round),
    simulations_per_second: { first: Math.round(median(ours.rates)), second: Math.round(median(old.rates)) },
    games,
  };
  console.log(JSON.stringify({ ...numbers.equal_time, games: undefined }));
  assert.equal(games.length, 2 * PAIRS);
  assert.ok(ours.rates.length > 0 && old.rates.length > 0, "both sides searched");
  await ours.context.close();
  await old.context.close();
});
