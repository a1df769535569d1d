"""The learning curve's rows and picture from arena reports (a stand-in for the arena)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from train import pattern_curve


def report(wins: int, draws: int, losses: int, elo: float) -> dict[str, Any]:
    games = wins + draws + losses
    return {
        "pairings": [
            {
                "total": {
                    "games": games,
                    "wins": wins,
                    "draws": draws,
                    "losses": losses,
                    "score": (wins + draws / 2) / games,
                }
            }
        ],
        "pairs": [{"elo": {"elo": elo, "low": elo - 40, "high": elo + 45}}],
    }


def test_each_reference_adds_a_row_with_the_run_s_cpu_hours_and_the_curve_is_drawn(
    tmp_path: Path,
) -> None:
    seen: list[list[str]] = []

    def arena(args: list[str], out: Path) -> dict[str, Any]:
        seen.append(args)
        depth = int(args[args.index("--players") + 1].rsplit("zebra", 1)[1])
        return report(60 - depth, 4, 36 + depth, 70.0 - 10 * depth)

    rows = [
        {
            "cpu_hours": h,
            "generation": g,
            **pattern_curve.measure(Path("net.onnx"), d, 100, 66, arena, tmp_path),
        }
        for h, g in ((1.0, 39), (3.25, 88))
        for d in (2, 4)
    ]
    path = tmp_path / "curve.csv"
    pattern_curve.add_rows(path, rows[:2])
    pattern_curve.add_rows(path, rows[2:])
    kept = list(csv.DictReader(path.open()))
    assert [(r["generation"], r["reference"]) for r in kept] == [
        ("39", "zebra2"), ("39", "zebra4"), ("88", "zebra2"), ("88", "zebra4"),
    ]  # fmt: skip
    assert kept[1]["wins"] == "56" and kept[1]["elo"] == "30.0" and kept[1]["score"] == "0.58"
    # The budget is fixed: every point plays the same player spec, Zebra by its depth.
    players = {a[a.index("--players") + 1] for a in seen}
    assert players == {
        "mcts:model=net.onnx,sims=1000,zebra2",
        "mcts:model=net.onnx,sims=1000,zebra4",
    }
    assert all(
        "zebra_move.py 2 {moves}" in " ".join(a) or "zebra_move.py 4" in " ".join(a) for a in seen
    )
    pattern_curve.plot(path, tmp_path / "curve.svg")
    assert (tmp_path / "curve.svg").read_text().startswith("<?xml")
