"""train.equal_time: each run's network at the budget, its match against the opponent
(with the stand-in binary), and the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from train import equal_time
from train.tests import fake_othello


def make_run(root: Path, hours: list[float], networks: list[int]) -> Path:
    root.mkdir(parents=True)
    (root / "config.json").write_text(json.dumps({"board": 6}))
    rows = ["generation,step,cpu_hours", *(f"{g},{g * 10},{h}" for g, h in enumerate(hours))]
    (root / "metrics.csv").write_text("\n".join(rows) + "\n")
    (root / "models").mkdir()
    for g in networks:
        (root / "models" / f"gen-{g:04d}.onnx").write_bytes(b"")
    return root


def fake_result(seed: int, games: int) -> tuple[int, int, int, float]:
    """What the stand-in's arena gives the first player: its margin formula, played out."""
    margins = []
    for opening in range(games // 2):
        for black, white in ((0, 1), (1, 0)):
            margin = (seed * 7 + black * 5 + white * 3 + opening) % 13 - 6
            margins.append(margin if black == 0 else -margin)
    wins, draws = sum(m > 0 for m in margins), sum(m == 0 for m in margins)
    return wins, draws, len(margins) - wins - draws, sum(margins) / len(margins)


def test_each_run_plays_its_last_network_within_the_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary, _ = fake_othello.install(tmp_path / "bin")
    a = make_run(tmp_path / "6x6-a", [0.1, 0.2, 0.3, 0.4], [2])
    b = make_run(tmp_path / "6x6-b", [0.15, 0.35], [1])
    opponent = tmp_path / "opponent.onnx"
    args = ["--run", str(a), "--run", str(b), "--opponent", str(opponent)]
    args += ["--othello", str(binary), "--games", "20", "--seed", "5"]
    assert equal_time.main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    # The budget every run reached: b's 0.35 CPU-hours, within which a is at generation 2.
    assert lines[0] == "budget: 0.350 CPU-hours each"
    assert "\n".join(lines[1:3]) == equal_time.HEADER
    wins, draws, losses, margin = fake_result(5, 20)
    picked = [("6x6-a", 2, 0.3), ("6x6-b", 1, 0.35)]
    for line, (name, gen, hours) in zip(lines[3:], picked, strict=True):
        want = equal_time.Result(name, gen, hours, wins, draws, losses, margin)
        assert line == want.row()
        report = json.loads((tmp_path / name / "final" / "0.350" / "arena.json").read_text())
        spec = f"mcts:model={tmp_path / name / 'models' / f'gen-{gen:04d}.onnx'},sims=100,exact=0"
        assert report["players"] == [spec, f"mcts:model={opponent},sims=100,exact=0"]


def test_a_run_without_the_network_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = make_run(tmp_path / "6x6-a", [0.1, 0.2], [])
    args = ["--run", str(a), "--opponent", "x.onnx", "--othello", "missing"]
    assert equal_time.main([*args, "--cpu-hours", "0.15"]) == 1
    assert "keeps no network gen-0000.onnx" in capsys.readouterr().err
    assert equal_time.within([(0, 0.1), (1, 0.2)], 0.05) == (0, 0.0)


def test_a_row_gives_the_score_with_its_interval() -> None:
    row = equal_time.Result("6x6-full", 22, 0.48, 90, 10, 100, 0.3).row()
    assert row == "| 6x6-full | 22 | 0.48 | 90-10-100 | 47.5% [40.6, 54.4] | +0.3 |"
