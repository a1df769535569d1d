"""The training loop: self-play -> train -> export -> gate, one generation at a time, in a
run directory that a killed run resumes from.

    python -m train.loop --run runs/6x6-a --board 6 --generations 20 --games 200 --sims 200

Run directory:
    config.json     settings; the network shape and board are fixed at creation
    state.json      finished generations, the current best model, the step count, the
                    CPU-hours spent so far
    best.onnx       the current best network with its card (best.json): committed with
                    checkpoints/latest.pt and state.json, so the run goes on in a later
                    session on another machine
    data/gen-XXXX/  self-play shards from `othello selfplay`: selfplay-FIRST-LAST.npz +
                    .json, named by their seed range (train/shards.py)
    checkpoints/    gen-XXXX.pt after each generation's training (latest.pt = newest)
    models/         gen-XXXX.onnx + .json card + .samples.npz
    gating/         gen-XXXX/arena-FIRST-LAST/ arena output of each gate shard, when on
    eval/           gen-XXXX/arena-FIRST-LAST/ the evaluation shards' arena output
    metrics.csv     one row per generation
    plots/loss.png  loss curves; plots/elo.png: Elo against the classic players
    log.txt         what each step did

Each phase of a generation leaves a mark (data/gen-XXXX/DONE, the checkpoint, the model)
and is skipped when its mark is there, so a resumed run repeats at most the phase it was
killed in, and of self-play and the arenas only the shards it had not finished. Generation
0 plays with no model (`--model none`: the engine's playout evaluator) and trains the first
network.

With `--ray [auto|ADDRESS|local]` the shards of self-play and of the arenas are Ray tasks
on a cluster (train/cluster.py); the run directory is the same as a local run's.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import resource
import shutil
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import torch

from train.data import generation_dir, load_window
from train.export import export_model
from train.net import NetConfig
from train.othello_cli import (
    SHARD_GAMES,
    EvalJob,
    Evaluate,
    Gate,
    GateJob,
    Parity,
    RunError,
    SelfPlay,
    SelfPlayJob,
    othello_evaluate,
    othello_gate,
    othello_parity,
    othello_selfplay,
)
from train.plots import plot_run
from train.shards import LocalPool, Pool, onnxruntime_library
from train.train import CheckpointError, TrainConfig, Trainer, with_heads

# Settings that define what the run is; changing them mid-run would mix incompatible
# networks or data, so a resume with different values is refused.
FIXED_KEYS = ("board", "variant", "blocks", "channels")

DEFAULTS: dict[str, Any] = {
    "board": 8,
    "variant": "standard",
    "blocks": 6,
    "channels": 64,
    # Output heads may be added to a run later (they start from scratch on its tower),
    # never taken away.
    "score_head": False,
    "ownership_head": False,
    "ownership_weight": 0.0,
    # Self-play's search as an `mcts` player spec without model or budget, e.g.
    # "mcts:gumbel=16" for a Gumbel root (None: PUCT with the engine's defaults), and
    # where the exact solver takes over (None: the engine's default, 16 on 8x8).
    "search": None,
    "exact_empties": None,
    # Exact targets where the search still plays: recorded positions with at most this
    # many empties (above `exact_empties`) learn the solver's move and margin while the
    # game goes on with the searched move, so the positions the network reaches, not only
    # perfect-play lines, get exact labels (None: off).
    "label_empties": None,
    # More positions per game (OLIVAW, Norelli and Panconesi 2022): root moves that a
    # recorded search did not play but gave at least this share of its visits become
    # samples too, with the search's value and margin (None: off).
    "explored_share": None,
    # Exploration off the agent's own lines: in each game one side plays each searched
    # move with this probability as a random legal move, so the network also sees the
    # lopsided positions a weaker player makes (None: off). See `othello selfplay
    # --random-moves`.
    "random_moves": None,
    # With random_moves: random moves only while more than this many empties remain, so
    # the positions below learn the played-out result instead of the search's own
    # estimate (None: random moves down to where the solver plays).
    "random_moves_above": None,
    "generations": 10,
    "games": 100,
    "sims": 200,
    # Playout cap randomisation: 0 gives every move a full search of `sims`; N > 0 gives a
    # `full_share` of the moves a full search (recorded for training) and the rest N
    # simulations (played, not recorded).
    "fast_sims": 0,
    "full_share": 0.25,
    "threads": 1,
    # Games of a self-play shard (games per pairing in an arena shard): one `othello` run,
    # one Ray task with --ray. The seeds, and so the games, depend on it.
    "shard_games": SHARD_GAMES,
    "seed": 1,
    "window": 4,
    "steps": 500,
    "batch_size": 256,
    "optimizer": "sgd",
    "lr": 0.02,
    "momentum": 0.9,
    "weight_decay": 1e-4,
    "score_weight": 0.0,
    # The value target mixes the outcome with the final disc difference (see train.py).
    "margin_weight": 0.0,
    "device": "cpu",
    "othello": "target/release/othello",
    "gate_games": 0,
    "gate_threshold": 0.55,
    "gate_player": "mcts:model={model},sims={sims}",
    # Evaluation of each generation's network against fixed classic players (0: off):
    # games per pairing, and the opponents as an `othello arena` player list.
    "eval_games": 0,
    # Simulations of the network player in evaluation games (0: the self-play `sims`).
    "eval_sims": 0,
    # Milestones: the best network of every `milestone_every`-th generation is kept, and an
    # `opponent_share` of each generation's games pit the current best against one of them
    # drawn at random (only the current best's moves are recorded), so the network keeps
    # beating what it once beat. 0 turns either off.
    # A checkpoint to start from (a warm start from another run with the same network
    # shape): generation 0 plays with it and trains on from it. None: from scratch.
    "init": None,
    # A network (.onnx with its card) that plays the self-play of the first
    # `teacher_generations` generations: a new run (a bigger network, say) learns from a
    # strong player's games before it plays its own.
    "teacher": None,
    "teacher_generations": 0,
    # Evaluate every N-th generation (and the last one).
    "eval_every": 1,
    # Stop once the run has spent this many CPU-hours (None: run to `generations`): for
    # comparisons at equal compute.
    "max_cpu_hours": None,
    "milestone_every": 0,
    "opponent_share": 0.0,
    "eval_players": "random,greedy,heuristic,alphabeta:depth=2",
}

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


def merged_config(
    path: Path,
    defaults: dict[str, Any],
    given: dict[str, Any],
    fixed: Iterable[str],
    error: type[Exception],
) -> dict[str, Any]:
    """A run's settings: the saved ones (settings added since the run began take their
    defaults) with those given now (None: not given) on top, or the defaults and those
    given for a new run. Changing a `fixed` one of a run raises `error`."""
    given = {k: v for k, v in given.items() if v is not None}
    if not path.exists():
        return {**defaults, **given}
    config = {**defaults, **json.loads(path.read_text())}
    for key in fixed:
        if key in given and given[key] != config[key]:
            raise error(
                f"{path.parent}: the run was created with {key}={config[key]}, "
                f"not {given[key]}; start a new run to change it"
            )
    return {**config, **given}


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


class Run:
    def __init__(self, root: Path, config: dict[str, Any]) -> None:
        self.root = Path(root)
        self.config = config
        # CPU time spent outside this process's children (shards on a Ray cluster), so far.
        self.remote_cpu: Callable[[], float] = lambda: 0.0

    def cpu_seconds(self) -> float:
        return cpu_seconds() + self.remote_cpu()

    # ---- directory and bookkeeping ----

    @classmethod
    def open(cls, root: Path, overrides: dict[str, Any]) -> Run:
        """Creates the run, or resumes it; `overrides` are the settings given on the
        command line (None for those not given)."""
        root = Path(root)
        config_path = root / "config.json"
        config = merged_config(config_path, DEFAULTS, overrides, FIXED_KEYS, RunError)
        NetConfig(board=config["board"], blocks=config["blocks"], channels=config["channels"])
        if config["teacher_generations"] > 0 and not config["teacher"]:
            raise RunError("--teacher-generations needs a --teacher network")
        if config["teacher"] and not Path(config["teacher"]).is_file():
            raise RunError(f"teacher network {config['teacher']} not found")
        if config["eval_every"] < 1:
            raise RunError("--eval-every must be at least 1")
        if config["shard_games"] < 1:
            raise RunError("--shard-games must be at least 1")
        label, exact = config["label_empties"], config["exact_empties"]
        if label is not None and (label < 1 or (exact is not None and label <= exact)):
            raise RunError("--label-empties must be above --exact-empties (where the solver plays)")
        for key in ("explored_share", "random_moves"):
            share = config[key]
            if share is not None and not 0 < share <= 1:
                flag = "--" + key.replace("_", "-")
                raise RunError(f"{flag} must be above 0 and at most 1")
        floor = config["random_moves_above"]
        if floor is not None and config["random_moves"] is None:
            raise RunError("--random-moves-above needs --random-moves")
        if floor is not None and floor < 0:
            raise RunError("--random-moves-above must be at least 0")
        for sub in ("data", "checkpoints", "models", "plots"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        write_json_atomic(config_path, config)
        return cls(root, config)

    @property
    def state_path(self) -> Path:
        return self.root / "state.json"

    def state(self) -> dict[str, Any]:
        if self.state_path.exists():
            return json.loads(self.state_path.read_text())
        return {"generation": 0, "best": None, "step": 0}

    def save_state(self, state: dict[str, Any]) -> None:
        write_json_atomic(self.state_path, state)

    def log(self, message: str) -> None:
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {message}"
        print(line, flush=True)
        with open(self.root / "log.txt", "a") as f:
            f.write(line + "\n")

    def checkpoint(self, gen: int) -> Path:
        return self.root / "checkpoints" / f"gen-{gen:04d}.pt"

    def model(self, gen: int) -> Path:
        return self.root / "models" / f"gen-{gen:04d}.onnx"

    def net_config(self) -> NetConfig:
        c = self.config
        return NetConfig(
            board=c["board"], blocks=c["blocks"], channels=c["channels"],
            score_head=c["score_head"], ownership_head=c["ownership_head"],
        )  # fmt: skip

    def train_config(self) -> TrainConfig:
        c = self.config
        return TrainConfig(
            optimizer=c["optimizer"], lr=c["lr"], momentum=c["momentum"],
            weight_decay=c["weight_decay"], batch_size=c["batch_size"],
            score_weight=c["score_weight"], ownership_weight=c["ownership_weight"],
            margin_weight=c["margin_weight"], seed=c["seed"],
        )  # fmt: skip

    # ---- one generation ----

    def generation(
        self,
        gen: int,
        selfplay: SelfPlay,
        gate: Gate | None,
        evaluate: Evaluate | None = None,
        parity: Parity | None = None,
    ) -> dict[str, Any]:
        state = self.state()
        c = self.config
        row: dict[str, Any] = {"generation": gen}
        cpu_start = self.cpu_seconds()

        data = generation_dir(self.root / "data", gen)
        done = data / "DONE"
        if not done.exists():
            # A generation a killed run left part-played keeps its complete shards; the
            # self-play call removes the rest and plays what is missing.
            data.mkdir(parents=True, exist_ok=True)
            best = self.best_model(state)
            if c["teacher"] and gen < c["teacher_generations"]:
                best = Path(c["teacher"])
            milestones = state.get("milestones", [])
            against = round(c["games"] * c["opponent_share"]) if best and milestones else 0
            seed = c["seed"] * 1_000_003 + gen
            self.log(f"gen {gen}: self-play {c['games'] - against} games with {best or 'no model'}")
            t0 = time.monotonic()
            job = SelfPlayJob(
                c["board"], best, c["games"] - against, c["sims"], data, seed=seed,
                threads=c["threads"], fast_sims=c["fast_sims"], full_share=c["full_share"],
                variant=c["variant"], search=c["search"], exact_empties=c["exact_empties"],
                label_empties=c["label_empties"], explored_share=c["explored_share"],
                random_moves=c["random_moves"], random_moves_above=c["random_moves_above"],
            )  # fmt: skip
            jobs = [job]
            if against > 0:
                milestone = self.root / milestones[random.Random(seed).randrange(len(milestones))]
                self.log(f"gen {gen}: {against} games of {best} against milestone {milestone}")
                jobs.append(replace(job, games=against, seed=seed + 500_000, opponent=milestone))
            selfplay(jobs)
            done.write_text(json.dumps({"seconds": time.monotonic() - t0}) + "\n")
        row["selfplay_seconds"] = round(json.loads(done.read_text())["seconds"], 2)

        checkpoint = self.checkpoint(gen)
        if not checkpoint.exists():
            previous = self.checkpoint(gen - 1) if gen > 0 else self.init_checkpoint
            if gen > 0 and not previous.exists():
                # A run resumed on another machine has only its committed latest.pt, which
                # is the previous generation's checkpoint.
                previous = self.latest_checkpoint
            if previous.exists():
                trainer = Trainer.load(
                    previous, c["device"], self.train_config(), heads=self.net_config()
                )
            else:
                trainer = Trainer(self.net_config(), self.train_config(), c["device"])
            samples = load_window(self.root / "data", c["board"], c["window"], upto=gen)
            steps, note = self.steps_for_window(gen)
            self.log(f"gen {gen}: training {steps} steps on {len(samples)} positions{note}")
            t0 = time.monotonic()
            losses = trainer.train(samples, steps)
            seconds = time.monotonic() - t0
            n = max(1, len(losses) // 10)  # the mean of the last tenth: less noisy
            tail = losses[-n:]
            summary = {
                "positions": len(samples),
                "loss": sum(x.total for x in tail) / n,
                "policy_loss": sum(x.policy for x in tail) / n,
                "value_loss": sum(x.value for x in tail) / n,
                "score_loss": sum(x.score for x in tail) / n,
                "train_seconds": round(seconds, 2),
            }
            write_json_atomic(checkpoint.with_suffix(".json"), summary)
            trainer.save(checkpoint)
            shutil.copyfile(checkpoint, self.latest_checkpoint)
        summary = json.loads(checkpoint.with_suffix(".json").read_text())
        row.update(summary)
        trainer = Trainer.load(checkpoint)
        row["step"] = trainer.step

        model = self.model(gen)
        if not model.exists():
            export_model(
                trainer.net, model.with_suffix(""), run=self.root.name, generation=gen,
                seed=c["seed"], variant=c["variant"],
            )  # fmt: skip
            if parity is not None:
                try:
                    parity(model)
                except RunError:
                    # A model the engine cannot reproduce must not be used or resumed from.
                    for path in model.parent.glob(model.stem + ".*"):
                        path.unlink()
                    raise

        promoted, score = True, None
        if gate is not None and state["best"] is not None and c["gate_games"] > 0:
            out = self.root / "gating" / f"gen-{gen:04d}"
            out.mkdir(parents=True, exist_ok=True)
            score = gate(
                GateJob(
                    c["board"], model, self.best_model(state) or model, c["gate_games"],
                    c["sims"], out, seed=c["seed"] * 1_000_003 + gen, threads=c["threads"],
                    variant=c["variant"],
                )
            )  # fmt: skip
            promoted = score >= c["gate_threshold"]
            self.log(f"gen {gen}: gate score {score:.3f}, promoted: {promoted}")
        row["gate_score"] = "" if score is None else round(score, 4)
        row["promoted"] = int(promoted)

        last = gen == c["generations"] - 1
        if evaluate is not None and c["eval_games"] > 0 and (gen % c["eval_every"] == 0 or last):
            out = self.root / "eval" / f"gen-{gen:04d}"
            out.mkdir(parents=True, exist_ok=True)
            elo, low, high = evaluate(
                EvalJob(
                    c["board"], model, c["eval_players"], c["eval_games"],
                    c["eval_sims"] or c["sims"], out,
                    seed=c["seed"] * 1_000_003 + gen, threads=c["threads"], variant=c["variant"],
                )
            )  # fmt: skip
            self.log(
                f"gen {gen}: Elo {elo:.0f} [{low:.0f}, {high:.0f}] against {c['eval_players']}"
            )
            row.update(elo=round(elo, 1), elo_low=round(low, 1), elo_high=round(high, 1))

        # Only what ran in this process counts: a phase skipped on resume cost nothing now.
        row["cpu_seconds"] = round(self.cpu_seconds() - cpu_start, 1)
        cpu_hours = state.get("cpu_hours", 0.0) + row["cpu_seconds"] / 3600
        row["cpu_hours"] = round(cpu_hours, 6)
        self.write_metrics(row)
        if promoted:
            for suffix in (".onnx", ".json"):
                shutil.copyfile(model.with_suffix(suffix), self.portable_best.with_suffix(suffix))
        state.update(
            generation=gen + 1,
            step=trainer.step,
            best=str(model.relative_to(self.root)) if promoted else state["best"],
            best_generation=gen if promoted else state.get("best_generation"),
            cpu_hours=round(cpu_hours, 6),
        )
        self.log(
            f"gen {gen}: done in {row['cpu_seconds'] / 3600:.2f} CPU-hours; "
            f"the run holds {cpu_hours:.2f} CPU-hours, best network: generation "
            f"{state['best_generation']}"
        )
        every = c["milestone_every"]
        if every > 0 and gen % every == 0 and state["best"] is not None:
            milestones = state.setdefault("milestones", [])
            if state["best"] not in milestones:
                milestones.append(state["best"])
                self.log(f"gen {gen}: {state['best']} kept as a milestone")
        self.save_state(state)
        self.plot()
        return row

    def steps_for_window(self, gen: int) -> tuple[int, str]:
        """The generation's training steps, cut in proportion when part of the replay
        window is missing: a run resumed on a fresh machine has only the generations it
        played there (self-play data is not committed), and the full count of steps on
        one generation's positions would train on each of them `window` times as often
        as the run does, overfitting the network it will play with."""
        c = self.config
        first = max(0, gen - c["window"] + 1)
        expected = gen - first + 1
        present = sum(
            1 for g in range(first, gen + 1) if generation_dir(self.root / "data", g).is_dir()
        )
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
        path = self.root / "metrics.csv"
        rows = self.metrics()
        rows = [r for r in rows if int(r["generation"]) != row["generation"]] + [row]
        rows.sort(key=lambda r: int(r["generation"]))
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=METRICS_FIELDS, extrasaction="ignore")
            writer.writeheader()
            for r in rows:
                writer.writerow({k: fmt(r.get(k, "")) for k in METRICS_FIELDS})
        os.replace(tmp, path)

    def metrics(self) -> list[dict[str, str]]:
        path = self.root / "metrics.csv"
        if not path.exists():
            return []
        with open(path, newline="") as f:
            return list(csv.DictReader(f))

    def plot(self) -> None:
        plot_run(self.root, self.metrics(), self.config["eval_players"])

    @property
    def latest_checkpoint(self) -> Path:
        return self.root / "checkpoints" / "latest.pt"

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

    @property
    def init_checkpoint(self) -> Path:
        return self.root / "checkpoints" / "init.pt"

    def warm_start(self, parity: Parity | None) -> None:
        """Copies the `init` checkpoint into the run and makes its network the first best,
        once, before generation 0."""
        state = self.state()
        source = self.config.get("init")
        if not source or state["generation"] > 0 or state["best"] is not None:
            return
        trainer = Trainer.load(Path(source), self.config["device"], self.train_config())
        try:
            with_heads(trainer.net_config, self.net_config())
        except ValueError as e:
            raise RunError(
                f"--init {source} is a {trainer.net_config}, but this run trains a "
                f"{self.net_config()}"
            ) from e
        if trainer.net_config != self.net_config():
            trainer = Trainer.load(
                Path(source), self.config["device"], self.train_config(), heads=self.net_config()
            )
        trainer.save(self.init_checkpoint)
        model = self.root / "models" / "init.onnx"
        export_model(
            trainer.net, model.with_suffix(""), run=self.root.name, seed=self.config["seed"],
            variant=self.config["variant"],
        )  # fmt: skip
        if parity is not None:
            parity(model)
        self.log(f"warm start from {source}")
        state["best"] = str(model.relative_to(self.root))
        self.save_state(state)

    def run(
        self,
        selfplay: SelfPlay,
        gate: Gate | None = None,
        evaluate: Evaluate | None = None,
        parity: Parity | None = None,
    ) -> None:
        self.warm_start(parity)
        start = self.state()["generation"]
        if start > 0:
            self.log(f"resuming at generation {start}")
        limit = self.config["max_cpu_hours"]
        for gen in range(start, self.config["generations"]):
            if limit is not None and self.state().get("cpu_hours", 0.0) >= limit:
                self.log(f"done: {self.state()['cpu_hours']:.2f} CPU-hours spent (limit {limit})")
                return
            self.generation(gen, selfplay, gate, evaluate, parity)
        self.log(f"done: {self.config['generations']} generations")


def fmt(value: Any) -> Any:
    return f"{value:.6g}" if isinstance(value, float) else value


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m train.loop",
        description="AlphaZero-style training loop over a resumable run directory. "
        "Options left out keep the run's saved value (or the default for a new run).",
    )
    p.add_argument("--run", type=Path, required=True, help="run directory, e.g. runs/6x6-a")
    p.add_argument("--board", type=int, choices=[6, 8])
    p.add_argument("--variant", choices=["standard", "reversed"])
    p.add_argument("--blocks", type=int)
    p.add_argument("--channels", type=int)
    p.add_argument("--score-head", action="store_true", default=None)
    p.add_argument("--ownership-head", action="store_true", default=None)
    p.add_argument("--ownership-weight", type=float, help="weight of the ownership loss")
    p.add_argument("--search", help="self-play's search as an mcts spec, e.g. mcts:gumbel=16")
    p.add_argument("--exact-empties", type=int, help="where the solver plays both sides")
    p.add_argument(
        "--label-empties", type=int,
        help="exact targets for searched positions with at most this many empties",
    )  # fmt: skip
    p.add_argument(
        "--explored-share", type=float,
        help="also learn unplayed moves with at least this share of a search's visits (OLIVAW)",
    )  # fmt: skip
    p.add_argument(
        "--random-moves", type=float,
        help="share of the weaker side's searched moves played at random in self-play",
    )  # fmt: skip
    p.add_argument(
        "--random-moves-above", type=int,
        help="with --random-moves: random moves only while more than this many empties remain",
    )  # fmt: skip
    p.add_argument("--generations", type=int, help="total generations to reach")
    p.add_argument("--games", type=int, help="self-play games per generation")
    p.add_argument("--sims", type=int, help="MCTS simulations of a full search")
    p.add_argument(
        "--fast-sims", type=int, help="playout cap randomisation: simulations of a fast search"
    )
    p.add_argument("--full-share", type=float, help="share of moves with a full search")
    p.add_argument("--threads", type=int, help="threads of each self-play and arena shard")
    p.add_argument(
        "--shard-games", type=int, help="games of a self-play shard (per pairing in an arena)"
    )
    p.add_argument("--seed", type=int)
    p.add_argument("--window", type=int, help="replay window in generations")
    p.add_argument("--steps", type=int, help="training steps per generation")
    p.add_argument("--batch-size", type=int)
    p.add_argument("--optimizer", choices=["sgd", "adamw"])
    p.add_argument("--lr", type=float)
    p.add_argument("--momentum", type=float)
    p.add_argument("--weight-decay", type=float)
    p.add_argument("--score-weight", type=float, help="weight of the score-head loss")
    p.add_argument(
        "--margin-weight", type=float, help="share of the disc difference in the value target"
    )
    p.add_argument("--device", help="torch device: cpu, cuda, cuda:1 ...")
    p.add_argument("--othello", help="path to the othello binary")
    p.add_argument("--gate-games", type=int, help="arena games per gate (0: always promote)")
    p.add_argument("--gate-threshold", type=float, help="score needed to replace the best")
    p.add_argument("--gate-player", help="arena spec template with {model} and {sims}")
    p.add_argument("--eval-games", type=int, help="games per pairing against classic players")
    p.add_argument("--eval-players", help="classic opponents, as an arena player list")
    p.add_argument("--eval-sims", type=int, help="network simulations in evaluation games")
    p.add_argument("--init", help="checkpoint to start from (same network shape)")
    p.add_argument("--teacher", help="network (.onnx) whose games the first generations learn")
    p.add_argument("--teacher-generations", type=int, help="generations the teacher plays")
    p.add_argument("--eval-every", type=int, help="evaluate every N-th generation")
    p.add_argument("--max-cpu-hours", type=float, help="stop once the run has spent this much")
    p.add_argument("--milestone-every", type=int, help="keep every N-th generation's best")
    p.add_argument("--opponent-share", type=float, help="share of games against a random milestone")
    p.add_argument(
        "--torch-threads",
        type=int,
        default=None,
        help="torch CPU threads (1 when two runs share the cores)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        metavar="ADDRESS",
        help="play the self-play and arena shards as Ray tasks: on the cluster at ADDRESS "
        "(HOST:PORT of its head), `auto` (the default: the cluster `ray start` runs on this "
        "machine, or RAY_ADDRESS) or `local` (a private cluster of this machine's cores)",
    )
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.torch_threads:
        torch.set_num_threads(args.torch_threads)
    how = ("run", "torch_threads", "ray")  # how to run, not what the run is: not saved
    overrides = {k: v for k, v in vars(args).items() if k not in how}
    pool: Pool | None = None
    try:
        run = Run.open(args.run, overrides)
        if run.config["device"].startswith("cuda") and not torch.cuda.is_available():
            raise RunError("--device cuda asked for, but torch sees no CUDA device")
        binary = run.config["othello"]
        player = run.config["gate_player"]
        pool = open_pool(binary, args.ray)
        run.remote_cpu = pool.remote_cpu_seconds
        shards = run.config["shard_games"]
        run.run(
            othello_selfplay(binary, pool, shards),
            othello_gate(binary, player, pool, shards),
            othello_evaluate(binary, player, pool, shards),
            othello_parity(binary),
        )
    except (RunError, CheckpointError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        close = getattr(pool, "close", None)
        if close is not None:
            close()
    return 0


def open_pool(binary: str, ray_address: str | None) -> Pool:
    """Where shards are played: here, one after another, or on a Ray cluster, with the
    binary and ONNX Runtime's library sent to the workers."""
    if ray_address is None:
        return LocalPool(binary)
    from train.cluster import RayPool  # ray is imported only when asked for

    return RayPool(binary, ray_address, library=onnxruntime_library())


if __name__ == "__main__":
    sys.exit(main())
