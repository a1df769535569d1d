"""The pattern network's learning curve measured from outside (issue 66, docs/pattern.md):
a network of the run plays fixed outside references (Zebra at fixed depths, through the
arena's `--engine` and `scripts/engines/zebra_move.py`) at a fixed budget, the same every
time, and each result is kept as a row of the run's `curve.csv` with the CPU-hours the
run had spent on it; `curve.svg` draws them.

    ZEBRA_DIR=path/to/zebra python -m train.pattern_curve --run runs/pattern-8x8 \\
        --model runs/pattern-8x8/best.onnx --generation 88 --cpu-hours 3.25

The Elo is the arena's, from game pairs (an opening with both colours: fishtest's
pentanomial counts), with its 95% interval, against each reference alone.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from train.shards import RunError

ROOT = Path(__file__).resolve().parent.parent
ZEBRA = ROOT / "scripts" / "engines" / "zebra_move.py"
# The network's fixed budget and the references: what every point of the curve plays.
PLAYER = "mcts:model={model},sims=1000"
DEPTHS = (2, 4)
GAMES = 100
FIELDS = [
    "cpu_hours", "generation", "reference", "games", "wins", "draws", "losses",
    "score", "elo", "elo_low", "elo_high",
]  # fmt: skip

# Plays one arena: (its arguments, the folder it writes) -> the arena's report.
Arena = Callable[[list[str], Path], dict[str, Any]]


def othello_arena(binary: str) -> Arena:
    def play(args: list[str], out: Path) -> dict[str, Any]:
        if not os.environ.get("ZEBRA_DIR"):
            raise RunError("ZEBRA_DIR must name the folder of Zebra's build (docs/arena.md)")
        done = subprocess.run([binary, *args, "--out", str(out)], check=False)
        if done.returncode != 0:
            raise RunError(f"the arena against Zebra failed with exit code {done.returncode}")
        return json.loads((out / "arena.json").read_text())

    return play


def measure(
    model: Path, depth: int, games: int, seed: int, arena: Arena, out: Path
) -> dict[str, Any]:
    """The network against Zebra at `depth`: its result and pentanomial Elo."""
    name = f"zebra{depth}"
    player = PLAYER.format(model=model)
    args = [
        "arena", "--board", "8", "--openings", "xot", "--games", str(games),
        "--seed", str(seed), "--threads", "1",
        "--engine", f"{name}=move {sys.executable} {ZEBRA} {depth} {{moves}}",
        "--players", f"{player},{name}",
    ]  # fmt: skip
    report = arena(args, out / name)
    total = report["pairings"][0]["total"]
    elo = report["pairs"][0]["elo"]
    return {
        "reference": name, "games": total["games"], "wins": total["wins"],
        "draws": total["draws"], "losses": total["losses"], "score": round(total["score"], 4),
        "elo": round(elo["elo"], 1), "elo_low": round(elo["low"], 1),
        "elo_high": round(elo["high"], 1),
    }  # fmt: skip


def add_rows(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    old = list(csv.DictReader(path.open())) if path.is_file() else []
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows([*old, *rows])


def plot(path: Path, out: Path) -> None:
    """Elo against each reference by CPU-hours, with the 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    rows = list(csv.DictReader(path.open()))
    fig, ax = plt.subplots(figsize=(7, 4))
    for reference in sorted({r["reference"] for r in rows}):
        mine = sorted(
            (r for r in rows if r["reference"] == reference), key=lambda r: float(r["cpu_hours"])
        )
        x = [float(r["cpu_hours"]) for r in mine]
        y = [float(r["elo"]) for r in mine]
        low = [y_ - float(r["elo_low"]) for y_, r in zip(y, mine, strict=True)]
        high = [float(r["elo_high"]) - y_ for y_, r in zip(y, mine, strict=True)]
        ax.errorbar(x, y, yerr=[low, high], marker="o", capsize=3, label=f"against {reference}")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    # The points' own CPU-hours as the ticks, in plain numbers: a log axis's default
    # labels ("2.2x10^1") ran into each other between 20 and 30. A point within 18% of the
    # last labelled one goes unlabelled, so that no two labels overlap.
    hours: list[float] = []
    for h in sorted({round(float(r["cpu_hours"]), 1) for r in rows}):
        if not hours or h >= hours[-1] * 1.18:
            hours.append(h)
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xticks(hours, [f"{h:g}" for h in hours], rotation=45)
    ax.set_xlabel("CPU-hours of training")
    ax.set_ylabel("Elo (game pairs, 95% interval)")
    ax.set_title("The pattern network, " + PLAYER.format(model="NET").split(":", 1)[1])
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.pattern_curve", description=__doc__)
    p.add_argument("--run", type=Path, required=True)
    p.add_argument("--model", type=Path, required=True, help="the network (.onnx with its card)")
    p.add_argument("--generation", type=int, required=True)
    p.add_argument("--cpu-hours", type=float, required=True, help="the run's, at that network")
    p.add_argument("--depths", type=int, nargs="+", default=list(DEPTHS))
    p.add_argument("--games", type=int, default=GAMES)
    p.add_argument(
        "--curve",
        default="curve",
        help="the series' name in the run directory (NAME.csv, NAME.svg): points played by "
        "another binary or reading are a series of their own, not points of the old one",
    )
    binary = os.environ.get("OTHELLO_BIN", str(ROOT / "target" / "release" / "othello"))
    p.add_argument("--othello", default=binary)
    args = p.parse_args(argv)
    arena = othello_arena(args.othello)
    try:
        with tempfile.TemporaryDirectory(prefix="curve-") as tmp:
            rows = [
                {
                    "cpu_hours": args.cpu_hours,
                    "generation": args.generation,
                    **measure(args.model, d, args.games, 66, arena, Path(tmp)),
                }
                for d in args.depths
            ]
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    table = args.run / f"{args.curve}.csv"
    add_rows(table, rows)
    plot(table, args.run / f"{args.curve}.svg")
    for row in rows:
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
