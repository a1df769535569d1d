"""A run's Elo against CPU-hours from its 200-game matches, chained to a fixed network.

    python -m train.ladder --manifest runs/8x8-b/ladder.json

The loop's own evaluation (20-40 games against one fixed network at 200 simulations) runs
out of scale once a run beats that network in nearly every game: the interval's top goes to
the fit's ceiling. The matches played to ship a network (200 games, colours swapped, both at
the same budget) do not: each new network met an older one it was close to. Fitted together
by maximum likelihood (Bradley-Terry, draws half a win: `othello elo`, the fit with which
`othello arena` rates a tournament), they put every generation that played one on one
scale, anchored at the fixed network, even where it never met that network itself.

The manifest names, for each match, its `arena.json` (relative to the manifest; gzipped as
`arena.json.gz` too, as git keeps the larger records) and who its
two players were: `gen-N` for a generation of the run (its CPU-hours come from the run's
`metrics.csv`) or another name (a fixed network: the anchor, say). A name is needed
because a path like `models/az-8x8.onnx` meant different networks at different times.

    {"run": ".", "anchor": "az-8x8-a9", "budget": "800 simulations",
     "matches": [{"arena": "ship/gen-10/arena-vs-a9.json", "players": ["gen-10", "az-8x8-a9"]}]}

Writes the plot (`--plot`, default `plots/ladder-cpu.png` in the run) and prints the table
as markdown.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from train.othello_cli import RunError, fit_elo, points

GENERATION = re.compile(r"gen-(\d+)$")


class LadderError(ValueError):
    """A manifest or a match report that cannot be read as a ladder."""


@dataclass(frozen=True)
class Rung:
    name: str
    elo: float
    low: float
    high: float
    games: int
    cpu_hours: float | None


def read_manifest(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise LadderError(f"{path}: cannot read the manifest: {e}") from e
    for key in ("run", "anchor", "matches"):
        if key not in manifest:
            raise LadderError(f"{path}: the manifest has no `{key}`")
    if not manifest["matches"]:
        raise LadderError(f"{path}: the manifest lists no match")
    return manifest


def match_games(report_path: Path, names: list[str]) -> list[tuple[str, str, float]]:
    """The games of one arena report as (Black's name, White's name, Black's points)."""
    try:
        if report_path.suffix == ".gz":
            with gzip.open(report_path, "rt", encoding="utf-8") as f:
                report = json.load(f)
        else:
            report = json.loads(report_path.read_text())
        players, games = report["players"], report["games"]
    except (OSError, EOFError, json.JSONDecodeError, KeyError, TypeError) as e:
        raise LadderError(f"{report_path}: not an arena report: {e}") from e
    if len(names) != len(players):
        raise LadderError(
            f"{report_path}: the manifest names {len(names)} players, the report has "
            f"{len(players)} ({', '.join(players)})"
        )
    try:
        return [(names[g["black"]], names[g["white"]], points(g["black_margin"])) for g in games]
    except (KeyError, IndexError, TypeError) as e:
        raise LadderError(f"{report_path}: a game without its players or margin: {e}") from e


def cpu_hours_by_generation(run: Path) -> dict[int, float]:
    path = run / "metrics.csv"
    try:
        with path.open() as f:
            return {
                int(row["generation"]): float(row["cpu_hours"])
                for row in csv.DictReader(f)
                if row.get("cpu_hours")
            }
    except (OSError, KeyError, ValueError) as e:
        raise LadderError(f"{path}: cannot read CPU-hours by generation: {e}") from e


def fit_ladder(manifest: dict[str, Any], base: Path, binary: str) -> list[Rung]:
    """Every player's Elo (the anchor 0) with its 95% interval, strongest last, fitted by
    `binary`'s `othello elo` (othello_cli.fit_elo)."""
    games: list[tuple[str, str, float]] = []
    for match in manifest["matches"]:
        games += match_games(base / match["arena"], list(match["players"]))
    names = sorted({n for g in games for n in g[:2]})
    anchor = manifest["anchor"]
    if anchor not in names:
        raise LadderError(f"the anchor {anchor} plays in none of the matches")
    index = {n: i for i, n in enumerate(names)}
    results = [(index[b], index[w], p) for b, w, p in games]
    try:
        ratings = fit_elo(binary, len(names), results, index[anchor])
    except RunError as e:
        raise LadderError(str(e)) from e
    hours = cpu_hours_by_generation(base / manifest["run"])
    rungs = []
    for name, (elo, low, high) in zip(names, ratings, strict=True):
        played = sum(name in g[:2] for g in games)
        generation = GENERATION.match(name)
        cpu = None
        if generation:
            number = int(generation.group(1))
            if number not in hours:
                raise LadderError(f"{name}: the run's metrics.csv has no generation {number}")
            cpu = hours[number]
        rungs.append(Rung(name, elo, low, high, played, cpu))
    return sorted(rungs, key=lambda r: (r.cpu_hours is not None, r.cpu_hours or 0.0, r.elo))


def table(rungs: list[Rung], anchor: str) -> str:
    lines = [
        f"| network | CPU-hours | games | Elo against {anchor} (95% interval) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for r in rungs:
        hours = "" if r.cpu_hours is None else f"{r.cpu_hours:.2f}"
        lines.append(
            f"| {r.name} | {hours} | {r.games} | {r.elo:+.0f} [{r.low:+.0f}, {r.high:+.0f}] |"
        )
    return "\n".join(lines)


def plot(path: Path, rungs: list[Rung], anchor: str, title: str, budget: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = [r for r in rungs if r.cpu_hours is not None]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(
        [r.cpu_hours for r in run],
        [r.elo for r in run],
        yerr=[[r.elo - r.low for r in run], [r.high - r.elo for r in run]],
        marker="o", capsize=3, label="generation (95% interval)",
    )  # fmt: skip
    for r in run:
        ax.annotate(r.name.removeprefix("gen-"), (r.cpu_hours, r.elo), xytext=(4, -12),
                    textcoords="offset points", fontsize=8)  # fmt: skip
    ax.axhline(0, color="grey", linewidth=1, label=f"{anchor} (0)")
    ax.set_xlabel("CPU-hours of the run (self-play, training, evaluation)")
    ax.set_ylabel(f"Elo against {anchor}")
    ax.set_title(f"{title}: 200-game matches at {budget}" if budget else title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--manifest", type=Path, required=True, help="the ladder's manifest (JSON)")
    p.add_argument("--plot", type=Path, help="where the plot goes (default: the run's plots/)")
    p.add_argument(
        "--othello", default="target/release/othello", help="the othello binary that fits Elo"
    )
    args = p.parse_args(argv)
    try:
        manifest = read_manifest(args.manifest)
        base = args.manifest.parent
        rungs = fit_ladder(manifest, base, args.othello)
    except LadderError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    run = base / manifest["run"]
    out = args.plot or run / "plots" / "ladder-cpu.png"
    title = run.resolve().name
    plot(out, rungs, manifest["anchor"], title, manifest.get("budget", ""))
    print(table(rungs, manifest["anchor"]))
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
