"""Scores the ablation runs at equal CPU time against one fixed opponent.

For each run under runs/ablation/, takes the network of the last generation whose
cumulative CPU-hours (metrics.csv) do not exceed the budget (by default the largest budget
every run has reached), and plays it against the archived az-6x6-b25: 200 games from random
openings with colours swapped, both at 100 simulations with the root solve off (exact=0),
so that the networks' play decides. Prints one Markdown row per run, score with its 95%
interval (normal approximation, draws half a win).

    python runs/ablation/evaluate.py --othello target/release/othello [--cpu-hours 0.5]
"""

from __future__ import annotations

import argparse
import csv
import math
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ABLATION = ROOT / "runs" / "ablation"
OPPONENT = ROOT / "models" / "archive" / "az-6x6-b25.onnx"


def generations(run: Path) -> list[tuple[int, float]]:
    with (run / "metrics.csv").open() as f:
        return [(int(r["generation"]), float(r["cpu_hours"])) for r in csv.DictReader(f)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--othello", default=str(ROOT / "target" / "release" / "othello"))
    parser.add_argument("--cpu-hours", type=float, default=None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    runs = sorted(p for p in ABLATION.glob("6x6-*") if (p / "metrics.csv").exists())
    budget = args.cpu_hours
    if budget is None:
        budget = min(generations(run)[-1][1] for run in runs)
    print(f"budget: {budget:.3f} CPU-hours each")
    print("| run | generation | CPU-hours | wins-draws-losses | score (95% interval) | margin |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for run in runs:
        gen, hours = max((g for g in generations(run) if g[1] <= budget + 1e-9), default=(0, 0.0))
        model = run / "models" / f"gen-{gen:04d}.onnx"
        out = run / "final" / f"{budget:.3f}"
        players = f"mcts:model={model},sims=100,exact=0,mcts:model={OPPONENT},sims=100,exact=0"
        subprocess.run(
            [args.othello, "arena", "--board", "6", "--games", str(args.games), "--threads", "2",
             "--seed", str(args.seed), "--out", str(out), "--players", players],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        with (out / "arena.csv").open() as f:
            row = next(r for r in csv.DictReader(f) if r["colour"] == "all" and str(model) in r["player"])
        n = int(row["games"])
        wins, draws, losses = int(row["wins"]), int(row["draws"]), int(row["losses"])
        score = (wins + draws / 2) / n
        half = 1.96 * math.sqrt(score * (1 - score) / n)
        print(
            f"| {run.name} | {gen} | {hours:.2f} | {wins}-{draws}-{losses} | "
            f"{100 * score:.1f}% [{100 * (score - half):.1f}, {100 * (score + half):.1f}] | "
            f"{float(row['mean_margin']):+.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
