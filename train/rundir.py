"""A training run's directory: its files, its state and how it is created or resumed.
What each file holds is in train/loop.py's docstring; the phases that fill them are in
train/phases.py. `RunFiles` is what every run directory shares, AlphaZero's (`RunDir`)
and the other learners' (`train.rl.LearnerRun`): the config, state.json, log.txt and
metrics.csv.
"""

from __future__ import annotations

import csv
import json
import math
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from train import settings
from train.data import generation_dir
from train.net import NetConfig
from train.plots import plot_run
from train.train import TrainConfig

METRICS_FIELDS = [
    "generation",
    "step",
    "positions",
    "loss",
    "policy_loss",
    "value_loss",
    "score_loss",
    "gate_score",
    "promoted",
    "elo",
    "elo_low",
    "elo_high",
    "selfplay_seconds",
    "train_seconds",
    "cpu_seconds",
    "cpu_hours",
]


def cpu_seconds() -> float:
    """User and system CPU time of this process and of its finished children (the local
    `othello` runs): what a generation costs, whatever the number of cores."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def fmt(value: Any) -> Any:
    return f"{value:.6g}" if isinstance(value, float) else value


class RunFiles:
    """The files every run directory keeps, whatever its learner: config.json (read by
    the subclass's `open`), state.json, log.txt and metrics.csv (one row per evaluation or
    generation), each written whole so that a kill never leaves half a file."""

    def __init__(self, root: Path, config: dict[str, Any]) -> None:
        self.root = Path(root)
        self.config = config

    def initial_state(self) -> dict[str, Any]:
        """The state of a run that has not started."""
        return {}

    @property
    def state_path(self) -> Path:
        return self.root / "state.json"

    def state(self) -> dict[str, Any]:
        if self.state_path.exists():
            return json.loads(self.state_path.read_text())
        return self.initial_state()

    def save_state(self, state: dict[str, Any]) -> None:
        write_json_atomic(self.state_path, state)

    def log(self, message: str) -> None:
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {message}"
        print(line, flush=True)
        with open(self.root / "log.txt", "a") as f:
            f.write(line + "\n")

    def metrics(self) -> list[dict[str, str]]:
        path = self.root / "metrics.csv"
        if not path.exists():
            return []
        with open(path, newline="") as f:
            return list(csv.DictReader(f))

    def replace_metrics(self, rows: list[dict[str, Any]], fields: list[str]) -> None:
        """Writes metrics.csv anew with these rows and columns (a row's other keys are
        left out), through a temporary file."""
        path = self.root / "metrics.csv"
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
        os.replace(tmp, path)


class RunDir(RunFiles):
    """AlphaZero's run directory: generations of self-play data, checkpoints and networks."""

    def __init__(self, root: Path, config: dict[str, Any]) -> None:
        super().__init__(root, config)
        # CPU time spent outside this process's children (shards on a Ray cluster), so far.
        self.remote_cpu: Callable[[], float] = lambda: 0.0

    def cpu_seconds(self) -> float:
        return cpu_seconds() + self.remote_cpu()

    @classmethod
    def open(cls, root: Path, overrides: dict[str, Any]) -> Self:
        """Creates the run, or resumes it; `overrides` are the settings given on the
        command line (None for those not given)."""
        root = Path(root)
        config_path = root / "config.json"
        config = settings.load(config_path, overrides)
        for sub in ("data", "checkpoints", "models", "plots"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        write_json_atomic(config_path, config)
        return cls(root, config)

    def initial_state(self) -> dict[str, Any]:
        return {"generation": 0, "best": None, "step": 0}

    def data(self, gen: int) -> Path:
        return generation_dir(self.root / "data", gen)

    def checkpoint(self, gen: int) -> Path:
        return self.root / "checkpoints" / f"gen-{gen:04d}.pt"

    def model(self, gen: int) -> Path:
        return self.root / "models" / f"gen-{gen:04d}.onnx"

    def net_config(self) -> NetConfig:
        return settings.net_config(self.config)

    def train_config(self) -> TrainConfig:
        return settings.train_config(self.config)

    @property
    def latest_checkpoint(self) -> Path:
        return self.root / "checkpoints" / "latest.pt"

    @property
    def init_checkpoint(self) -> Path:
        return self.root / "checkpoints" / "init.pt"

    @property
    def portable_best(self) -> Path:
        """The best network's copy in the run's root, which is committed."""
        return self.root / "best.onnx"

    def best_model(self, state: dict[str, Any]) -> Path | None:
        """The current best network: its file under models/, or the committed copy when
        the run resumes on a machine that never had models/."""
        if not state["best"]:
            return None
        path = self.root / state["best"]
        if not path.exists() and self.portable_best.exists():
            return self.portable_best
        return path

    def steps_for_window(self, gen: int) -> tuple[int, str]:
        """The generation's training steps, cut in proportion when part of the replay
        window is missing: a run resumed on a fresh machine has only the generations it
        played there (self-play data is not committed), and the full count of steps on
        one generation's positions would train on each of them `window` times as often
        as the run does, overfitting the network it will play with."""
        c = self.config
        first = max(0, gen - c["window"] + 1)
        expected = gen - first + 1
        present = sum(1 for g in range(first, gen + 1) if self.data(g).is_dir())
        if present >= expected:
            return c["steps"], ""
        steps = max(1, math.ceil(c["steps"] * present / expected))
        note = (
            f" ({present} of the window's {expected} generations are on this machine: "
            f"{steps} of {c['steps']} steps)"
        )
        return steps, note

    def write_metrics(self, row: dict[str, Any]) -> None:
        """Replaces the row of the same generation, so a generation redone after a kill
        between this write and the state save is not counted twice."""
        rows = self.metrics()
        rows = [r for r in rows if int(r["generation"]) != row["generation"]] + [row]
        rows.sort(key=lambda r: int(r["generation"]))
        formatted = [{k: fmt(r.get(k, "")) for k in METRICS_FIELDS} for r in rows]
        self.replace_metrics(formatted, METRICS_FIELDS)

    def plot(self) -> None:
        plot_run(self.root, self.metrics(), self.config["eval_players"])
