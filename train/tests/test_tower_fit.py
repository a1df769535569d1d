"""train.tower_fit: the schedule (the rate's drop, the reports) and a whole fit of a tiny
tower on a run's window of generations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from train import tower_fit
from train.data import Samples, load_npz
from train.net import NetConfig
from train.tests.positions import write_batch
from train.train import Losses, TrainConfig, Trainer


def test_the_rate_drops_for_the_final_steps_and_losses_are_said_every_report(
    tmp_path: Path,
) -> None:
    trainer = Trainer(NetConfig(board=6, blocks=1, channels=8), TrainConfig(lr=0.1))
    calls: list[tuple[int, float]] = []
    real_train = trainer.train

    def train(data: Samples, steps: int) -> list[Losses]:
        calls.append((steps, trainer.optimizer.param_groups[0]["lr"]))
        return real_train(data, steps)

    trainer.train = train  # type: ignore[method-assign]
    said: list[str] = []
    samples = load_npz(write_batch(tmp_path / "one.npz", 6, 16, seed=1), 6)
    tower_fit.fit(trainer, samples, tower_fit.Schedule(10, 0.1, 3, 4), said.append)
    # Steps 0-6 at the rate, 7-9 at a tenth of it; a report after steps 4, 8 and 10.
    assert calls == [(4, 0.1), (3, 0.1), (1, pytest.approx(0.01)), (2, pytest.approx(0.01))]
    assert [line.split(" steps")[0] for line in said] == ["4", "8", "10"]
    assert trainer.step == 10
    with pytest.raises(ValueError, match="final steps"):
        tower_fit.Schedule(10, 0.1, 11)


def test_a_fit_trains_on_the_window_and_writes_a_checkpoint_and_a_network(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "6x6-x"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"board": 6}))
    for gen, count in enumerate((5, 6, 7, 8)):
        write_batch(run / "data" / f"gen-{gen:04d}" / "selfplay.npz", 6, count, seed=gen)
    out = tmp_path / "fresh"
    args = ["--run", str(run), "--upto", "2", "--window", "2", "--blocks", "1"]
    args += ["--channels", "8", "--steps", "3", "--lr", "0.01", "--final-steps", "1"]
    assert tower_fit.main([*args, "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "13 positions"  # generations 1 and 2
    assert printed[-1].startswith("3 steps, ")
    assert out.with_suffix(".pt").is_file()
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["training"] == {"run": "6x6-x-fresh", "generation": 2}
    assert "score" in card["outputs"]
    assert tower_fit.main([*args, "--out", str(out), "--window", "0"]) == 1
    assert "window" in capsys.readouterr().err
