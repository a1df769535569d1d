"""The learners side by side (issue 14, docs/learners.md): each run's Elo against CPU-hours
in one plot, and its final network rated in one round robin with the fixed players.

    python -m train.compare --board 6 --run runs/6x6-dqn --run runs/6x6-reinforce \\
        --run runs/6x6-a2c --run runs/6x6-az --games 200 --out runs/compare-6x6 \\
        --plot docs/learners/elo-cpu-6x6.png --search-sims 100

Every run was evaluated during training by the same arena (its network alone, as the
`policy` player, against random, greedy, heuristic and alpha-beta at depth 2, random = 0),
so the curves share one scale. The final networks then meet the fixed players and each
other in one `othello arena` round robin (`--games` per pairing) for the table, each
copied into OUT under its release name first (`q-6x6`, `reinforce-6x6`, `a2c-6x6`,
`az-6x6`: `python -m train.ship --model OUT/q-6x6.onnx --arena OUT/arena.json` ships
one); with
`--search-sims` the AlphaZero network plays once more with that many simulations, to show
what its search adds. The table is printed as markdown and written to OUT/table.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from csv import DictReader
from pathlib import Path
from typing import Any

from train.othello_cli import RunError, call, head_to_head
from train.plots import plot_elo_cpu

FIXED = "random,greedy,heuristic,alphabeta:depth=2"
# The file names the final networks take in OUT (and in models/ when shipped).
SHORT = {"dqn": "q", "reinforce": "reinforce", "a2c": "a2c"}
LABELS = {
    "dqn": "Q-learning (DQN)",
    "reinforce": "REINFORCE with baseline",
    "a2c": "actor-critic (A2C)",
}


def run_label(config: dict[str, Any]) -> str:
    return LABELS.get(config.get("learner", ""), "AlphaZero")


def read_run(root: Path) -> tuple[str, dict[str, Any], list[dict[str, str]]]:
    """The run's label, config and metrics rows."""
    try:
        config = json.loads((root / "config.json").read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise RunError(f"{root} is not a run directory: {e}") from e
    metrics = root / "metrics.csv"
    rows = list(DictReader(metrics.open(newline=""))) if metrics.exists() else []
    return run_label(config), config, rows


def final_hours(rows: list[dict[str, str]]) -> float:
    hours = [float(r["cpu_hours"]) for r in rows if r.get("cpu_hours", "")]
    return max(hours, default=0.0)


def table(report: dict[str, Any], labels: dict[str, str], hours: dict[str, float]) -> str:
    """Markdown: each player's Elo in the round robin with its 95% interval, and its
    score against the heuristic player (the bar of issue 14)."""
    players: list[str] = report["players"]
    heuristic = players.index("heuristic") if "heuristic" in players else None
    lines = [
        "| player | CPU-hours | Elo (random = 0) [95%] | score against heuristic [95%] |",
        "| --- | ---: | ---: | ---: |",
    ]
    ratings = {r["player"]: r for r in report["ratings"]}
    order = sorted(players, key=lambda p: -ratings[p]["elo"])
    for spec in order:
        r = ratings[spec]
        versus = ""
        if heuristic is not None and spec != "heuristic":
            versus = score_cell(*head_to_head(report["games"], players.index(spec), heuristic))
        cpu = f"{hours[spec]:.2f}" if spec in hours else ""
        elo = f"{r['elo']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]"
        lines.append(f"| {labels.get(spec, spec)} | {cpu} | {elo} | {versus} |")
    return "\n".join(lines) + "\n"


def score_cell(wins: int, draws: int, losses: int) -> str:
    games = wins + draws + losses
    if games == 0:
        return ""
    score = (wins + draws / 2) / games
    half = 1.96 * (score * (1 - score) / games) ** 0.5
    lo, hi = max(0.0, score - half), min(1.0, score + half)
    return f"{100 * score:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] ({wins}-{draws}-{losses})"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.compare", description=__doc__.split("\n")[0])
    p.add_argument("--board", type=int, choices=(6, 8), required=True)
    p.add_argument("--run", type=Path, action="append", required=True, help="a run directory")
    p.add_argument("--games", type=int, default=200, help="games per pairing (even)")
    p.add_argument("--out", type=Path, required=True, help="folder for the arena and table")
    p.add_argument("--plot", type=Path, help="where to write the Elo/CPU-hours plot")
    p.add_argument("--search-sims", type=int, default=0, help="AlphaZero with search too")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--othello", default="target/release/othello")
    args = p.parse_args(argv)
    try:
        curves: dict[str, list[dict[str, str]]] = {}
        labels: dict[str, str] = {}
        hours: dict[str, float] = {}
        players = FIXED.split(",")
        args.out.mkdir(parents=True, exist_ok=True)
        for root in args.run:
            label, config, rows = read_run(root)
            if config.get("board") != args.board:
                raise RunError(f"{root} trains {config.get('board')}x{config.get('board')}")
            best = root / "best.onnx"
            if not best.exists():
                raise RunError(f"{root} has no evaluated network (best.onnx) yet")
            # Under its release name, so the arena's records and a card made from them
            # name each network by what it is.
            name = f"{SHORT.get(config.get('learner', ''), 'az')}-{args.board}x{args.board}"
            model = args.out / f"{name}.onnx"
            for suffix in (".onnx", ".json"):
                shutil.copyfile(best.with_suffix(suffix), model.with_suffix(suffix))
            curves[label] = rows
            spec = f"policy:model={model}"
            players.append(spec)
            labels[spec] = f"{label}, network alone"
            hours[spec] = final_hours(rows)
            if label == "AlphaZero" and args.search_sims > 0:
                spec = f"mcts:model={model},sims={args.search_sims}"
                players.append(spec)
                labels[spec] = f"{label}, {args.search_sims} simulations"
                hours[spec] = final_hours(rows)
        if args.plot is not None:
            title = f"{args.board}x{args.board}: Elo against CPU-hours, networks alone"
            plot_elo_cpu(args.plot, curves, title)
        call([
            args.othello, "arena", "--board", str(args.board), "--players", ",".join(players),
            "--games", str(args.games), "--seed", str(args.seed), "--threads", str(args.threads),
            "--out", str(args.out),
        ])  # fmt: skip
        report = json.loads((args.out / "arena.json").read_text())
    except (RunError, OSError, json.JSONDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    text = table(report, labels, hours)
    (args.out / "table.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
