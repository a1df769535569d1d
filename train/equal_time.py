"""Runs side by side at an equal CPU-time budget, each against one fixed opponent
(docs/training.md, "The 6x6 ablation at equal CPU time").

    python -m train.equal_time --run runs/ablation/6x6-full --run runs/ablation/6x6-puct \\
        --run runs/ablation/6x6-noaux --run runs/ablation/6x6-noexact \\
        --opponent models/archive/az-6x6-b25.onnx --othello target/release/othello \\
        [--cpu-hours 0.5] [--games 200] [--sims 100] [--seed 11] [--threads 2]

For each run, takes the network of its last generation whose cumulative CPU-hours
(metrics.csv) are within the budget (by default the largest budget every run has
reached), RUN/models/gen-NNNN.onnx, and plays it against the opponent in `othello arena`
on the run's board: GAMES games from random openings with colours swapped, both at SIMS
simulations with the root solve off (`exact=0`), so that the networks' play decides. The
arena's records go to RUN/final/BUDGET/. Then prints one Markdown row per run: its
wins-draws-losses, its score with a 95% interval (normal approximation, draws half a
win) and its mean final margin.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

from train.othello_cli import RunError, call, head_to_head

HEADER = (
    "| run | generation | CPU-hours | wins-draws-losses | score (95% interval) | margin |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: |"
)


@dataclass(frozen=True)
class Result:
    run: str
    generation: int
    cpu_hours: float
    wins: int
    draws: int
    losses: int
    margin: float

    def row(self) -> str:
        n = self.wins + self.draws + self.losses
        score = (self.wins + self.draws / 2) / n
        half = 1.96 * math.sqrt(score * (1 - score) / n)
        return (
            f"| {self.run} | {self.generation} | {self.cpu_hours:.2f} | "
            f"{self.wins}-{self.draws}-{self.losses} | "
            f"{100 * score:.1f}% [{100 * (score - half):.1f}, {100 * (score + half):.1f}] | "
            f"{self.margin:+.1f} |"
        )


def generations(run: Path) -> list[tuple[int, float]]:
    """Each generation of a run with its cumulative CPU-hours, from its metrics.csv."""
    try:
        with (run / "metrics.csv").open(newline="") as f:
            rows = [(int(r["generation"]), float(r["cpu_hours"])) for r in csv.DictReader(f)]
    except (OSError, KeyError, ValueError) as e:
        raise RunError(f"{run} has no metrics.csv with generations and CPU-hours: {e}") from e
    if not rows:
        raise RunError(f"{run}/metrics.csv lists no generation")
    return rows


def within(rows: list[tuple[int, float]], budget: float) -> tuple[int, float]:
    """The last generation whose CPU-hours are within the budget (generation 0 if none)."""
    return max((r for r in rows if r[1] <= budget + 1e-9), default=(0, 0.0))


def play(run: Path, budget: float, opponent: Path, args: argparse.Namespace) -> Result:
    generation, hours = within(generations(run), budget)
    model = run / "models" / f"gen-{generation:04d}.onnx"
    if not model.is_file():
        raise RunError(
            f"{run} keeps no network {model.name} (a finished run's networks leave git: "
            "docs/training.md, What a run keeps in git)"
        )
    board = json.loads((run / "config.json").read_text())["board"]
    out = run / "final" / f"{budget:.3f}"
    out.mkdir(parents=True, exist_ok=True)
    spec = f"sims={args.sims},exact=0"
    players = f"mcts:model={model},{spec},mcts:model={opponent},{spec}"
    call([
        args.othello, "arena", "--board", str(board), "--games", str(args.games),
        "--threads", str(args.threads), "--seed", str(args.seed), "--out", str(out),
        "--players", players,
    ])  # fmt: skip
    games = json.loads((out / "arena.json").read_text())["games"]
    wins, draws, losses = head_to_head(games, 0, 1)
    margins = [g["black_margin"] * (1 if g["black"] == 0 else -1) for g in games]
    if not margins:
        raise RunError(f"{out}/arena.json holds no games")
    return Result(run.name, generation, hours, wins, draws, losses, sum(margins) / len(margins))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.equal_time", description=__doc__)
    p.add_argument("--run", type=Path, action="append", required=True, help="a run directory")
    p.add_argument("--opponent", type=Path, required=True, help="the fixed opponent's network")
    p.add_argument("--cpu-hours", type=float, help="the budget (default: all runs reached it)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--sims", type=int, default=100)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--othello", default="target/release/othello")
    args = p.parse_args(argv)
    try:
        budget = args.cpu_hours
        if budget is None:
            budget = min(generations(run)[-1][1] for run in args.run)
        results = [play(run, budget, args.opponent, args) for run in args.run]
    except (RunError, OSError, KeyError, json.JSONDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"budget: {budget:.3f} CPU-hours each")
    print(HEADER)
    for result in results:
        print(result.row())
    return 0


if __name__ == "__main__":
    sys.exit(main())
