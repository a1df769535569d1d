"""The learning curve's rows and picture from arena reports (a stand-in for the arena)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

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


def test_a_named_series_keeps_its_own_table_and_picture(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def arena_for(binary: str) -> pattern_curve.Arena:
        return lambda args, out: report(50, 4, 46, 12.0)

    monkeypatch.setattr(pattern_curve, "othello_arena", arena_for)
    (tmp_path / "curve.csv").write_text("cpu_hours,generation\n")
    argv = ["--run", str(tmp_path), "--model", "net.onnx", "--generation", "7"]
    assert pattern_curve.main([*argv, "--cpu-hours", "2.5", "--depths", "6", "--curve", "b"]) == 0
    rows = list(csv.DictReader((tmp_path / "b.csv").open()))
    assert [(r["generation"], r["reference"], r["elo"]) for r in rows] == [("7", "zebra6", "12.0")]
    assert (tmp_path / "b.svg").read_text().startswith("<?xml")
    # The default series is untouched.
    assert (tmp_path / "curve.csv").read_text() == "cpu_hours,generation\n"
