"""The files every run directory keeps, AlphaZero's and the other learners' alike."""

from __future__ import annotations

from pathlib import Path

from train.rl import METRICS, LearnerRun
from train.rundir import METRICS_FIELDS, RunDir, RunFiles


def test_both_run_directories_keep_state_log_and_metrics_the_same_way(tmp_path: Path) -> None:
    alphazero = RunDir(tmp_path / "az", {})
    learner = LearnerRun(tmp_path / "rl", {})
    for run in (alphazero, learner):
        run.root.mkdir()
        assert isinstance(run, RunFiles)
        assert run.metrics() == []
        run.save_state({**run.state(), "note": 1})
        assert run.state()["note"] == 1
        run.log("hello")
        assert (run.root / "log.txt").read_text().endswith("hello\n")
    # Each starts from its own state.
    assert RunDir(tmp_path / "new-az", {}).state()["generation"] == 0
    assert LearnerRun(tmp_path / "new-rl", {}).state()["iteration"] == 0


def test_metrics_rows_are_replaced_by_generation_or_appended_by_evaluation(
    tmp_path: Path,
) -> None:
    alphazero = RunDir(tmp_path / "az", {})
    alphazero.root.mkdir()
    alphazero.write_metrics({"generation": 0, "loss": 2.0})
    alphazero.write_metrics({"generation": 1, "loss": 1.123456789})
    # A generation redone after a kill replaces its row.
    alphazero.write_metrics({"generation": 0, "loss": 1.5})
    rows = alphazero.metrics()
    assert [(r["generation"], r["loss"]) for r in rows] == [("0", "1.5"), ("1", "1.12346")]
    assert list(rows[0]) == METRICS_FIELDS
    assert not (alphazero.root / "metrics.csv.tmp").exists()

    learner = LearnerRun(tmp_path / "rl", {})
    learner.root.mkdir()
    learner.add_metrics({"iteration": 3, "loss": 0.5, "not_a_column": 1})
    learner.add_metrics({"iteration": 6, "loss": 0.25})
    rows = learner.metrics()
    assert [(r["iteration"], r["loss"]) for r in rows] == [("3", "0.5"), ("6", "0.25")]
    assert list(rows[0]) == METRICS
