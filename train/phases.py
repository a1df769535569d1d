"""The phases of a generation: self-play, training, export, gating, evaluation, and the
bookkeeping that ends it, plus the warm start before generation 0.

Each phase leaves a mark (data/gen-XXXX/DONE, the checkpoint, the model) and is skipped
when its mark is there, so a resumed run repeats at most the phase it was killed in, and
of self-play and the arenas only the shards it had not finished.
"""

from __future__ import annotations

import json
import random
import shutil
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from train.data import load_window
from train.export import export_model
from train.othello_cli import (
    EvalJob,
    Evaluate,
    Gate,
    GateJob,
    Parity,
    RunError,
    SelfPlay,
    SelfPlayJob,
)
from train.rundir import RunDir, write_json_atomic
from train.train import Trainer, with_heads


def seed_of(run: RunDir, gen: int) -> int:
    return run.config["seed"] * 1_000_003 + gen


def self_play(run: RunDir, gen: int, state: dict[str, Any], selfplay: SelfPlay) -> float:
    """Plays the generation's games (once); the seconds they took."""
    c = run.config
    data = run.data(gen)
    done = data / "DONE"
    if not done.exists():
        # A generation a killed run left part-played keeps its complete shards; the
        # self-play call removes the rest and plays what is missing.
        data.mkdir(parents=True, exist_ok=True)
        best = run.best_model(state)
        if c["teacher"] and gen < c["teacher_generations"]:
            best = Path(c["teacher"])
        milestones = state.get("milestones", [])
        against = round(c["games"] * c["opponent_share"]) if best and milestones else 0
        seed = seed_of(run, gen)
        run.log(f"gen {gen}: self-play {c['games'] - against} games with {best or 'no model'}")
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
            milestone = run.root / milestones[random.Random(seed).randrange(len(milestones))]
            run.log(f"gen {gen}: {against} games of {best} against milestone {milestone}")
            jobs.append(replace(job, games=against, seed=seed + 500_000, opponent=milestone))
        selfplay(jobs)
        done.write_text(json.dumps({"seconds": time.monotonic() - t0}) + "\n")
    return json.loads(done.read_text())["seconds"]


def train(run: RunDir, gen: int) -> tuple[Trainer, dict[str, Any]]:
    """Trains the generation's network (once) from the previous checkpoint; the trained
    network and the summary of its losses."""
    c = run.config
    checkpoint = run.checkpoint(gen)
    if not checkpoint.exists():
        previous = run.checkpoint(gen - 1) if gen > 0 else run.init_checkpoint
        if gen > 0 and not previous.exists():
            # A run resumed on another machine has only its committed latest.pt, which
            # is the previous generation's checkpoint.
            previous = run.latest_checkpoint
        if previous.exists():
            trainer = Trainer.load(
                previous, c["device"], run.train_config(), heads=run.net_config()
            )
        else:
            trainer = Trainer(run.net_config(), run.train_config(), c["device"])
        samples = load_window(run.root / "data", c["board"], c["window"], upto=gen)
        steps, note = run.steps_for_window(gen)
        run.log(f"gen {gen}: training {steps} steps on {len(samples)} positions{note}")
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
        shutil.copyfile(checkpoint, run.latest_checkpoint)
    summary = json.loads(checkpoint.with_suffix(".json").read_text())
    return Trainer.load(checkpoint), summary


def export(run: RunDir, gen: int, trainer: Trainer, parity: Parity | None) -> Path:
    """The generation's network as a model (exported once, checked by the engine)."""
    c = run.config
    model = run.model(gen)
    if not model.exists():
        export_model(
            trainer.net, model.with_suffix(""), run=run.root.name, generation=gen,
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
    return model


def gating(
    run: RunDir, gen: int, state: dict[str, Any], model: Path, gate: Gate | None
) -> tuple[bool, float | None]:
    """Whether the new network replaces the best, and its score against it (None when
    there was no gate)."""
    c = run.config
    if gate is None or state["best"] is None or c["gate_games"] <= 0:
        return True, None
    out = run.root / "gating" / f"gen-{gen:04d}"
    out.mkdir(parents=True, exist_ok=True)
    score = gate(
        GateJob(
            c["board"], model, run.best_model(state) or model, c["gate_games"], c["sims"], out,
            seed=seed_of(run, gen), threads=c["threads"], variant=c["variant"],
        )
    )  # fmt: skip
    promoted = score >= c["gate_threshold"]
    run.log(f"gen {gen}: gate score {score:.3f}, promoted: {promoted}")
    return promoted, score


def evaluation(
    run: RunDir, gen: int, model: Path, evaluate: Evaluate | None
) -> tuple[float, float, float] | None:
    """The network's Elo against the evaluation players, on the generations that are
    evaluated."""
    c = run.config
    last = gen == c["generations"] - 1
    if evaluate is None or c["eval_games"] <= 0 or not (gen % c["eval_every"] == 0 or last):
        return None
    out = run.root / "eval" / f"gen-{gen:04d}"
    out.mkdir(parents=True, exist_ok=True)
    elo, low, high = evaluate(
        EvalJob(
            c["board"], model, c["eval_players"], c["eval_games"], c["eval_sims"] or c["sims"],
            out, seed=seed_of(run, gen), threads=c["threads"], variant=c["variant"],
        )
    )  # fmt: skip
    run.log(f"gen {gen}: Elo {elo:.0f} [{low:.0f}, {high:.0f}] against {c['eval_players']}")
    return elo, low, high


def finish(
    run: RunDir,
    gen: int,
    state: dict[str, Any],
    row: dict[str, Any],
    step: int,
    model: Path,
    promoted: bool,
) -> None:
    """Writes the generation's metrics row, the new best and the state: the generation is
    done once the state says so."""
    c = run.config
    # Kept as finely as the seconds (a millisecond is 2.8e-7 hours).
    cpu_hours = round(state.get("cpu_hours", 0.0) + row["cpu_seconds"] / 3600, 9)
    row["cpu_hours"] = cpu_hours
    run.write_metrics(row)
    if promoted:
        for suffix in (".onnx", ".json"):
            shutil.copyfile(model.with_suffix(suffix), run.portable_best.with_suffix(suffix))
    state.update(
        generation=gen + 1,
        step=step,
        best=str(model.relative_to(run.root)) if promoted else state["best"],
        best_generation=gen if promoted else state.get("best_generation"),
        cpu_hours=cpu_hours,
    )
    run.log(
        f"gen {gen}: done in {row['cpu_seconds'] / 3600:.2f} CPU-hours; "
        f"the run holds {cpu_hours:.2f} CPU-hours, best network: generation "
        f"{state['best_generation']}"
    )
    every = c["milestone_every"]
    if every > 0 and gen % every == 0 and state["best"] is not None:
        milestones = state.setdefault("milestones", [])
        if state["best"] not in milestones:
            milestones.append(state["best"])
            run.log(f"gen {gen}: {state['best']} kept as a milestone")
    run.save_state(state)
    run.plot()


def warm_start(run: RunDir, parity: Parity | None) -> None:
    """Copies the `init` checkpoint into the run and makes its network the first best,
    once, before generation 0."""
    state = run.state()
    source = run.config.get("init")
    if not source or state["generation"] > 0 or state["best"] is not None:
        return
    device = run.config["device"]
    trainer = Trainer.load(Path(source), device, run.train_config())
    try:
        with_heads(trainer.net_config, run.net_config())
    except ValueError as e:
        raise RunError(
            f"--init {source} is a {trainer.net_config}, but this run trains a {run.net_config()}"
        ) from e
    if trainer.net_config != run.net_config():
        trainer = Trainer.load(Path(source), device, run.train_config(), heads=run.net_config())
    trainer.save(run.init_checkpoint)
    model = run.root / "models" / "init.onnx"
    export_model(
        trainer.net, model.with_suffix(""), run=run.root.name, seed=run.config["seed"],
        variant=run.config["variant"],
    )  # fmt: skip
    if parity is not None:
        parity(model)
    run.log(f"warm start from {source}")
    state["best"] = str(model.relative_to(run.root))
    run.save_state(state)


class Run(RunDir):
    """A run directory and the generations it plays, one phase after another."""

    def generation(
        self,
        gen: int,
        selfplay: SelfPlay,
        gate: Gate | None,
        evaluate: Evaluate | None = None,
        parity: Parity | None = None,
    ) -> dict[str, Any]:
        state = self.state()
        row: dict[str, Any] = {"generation": gen}
        cpu_start = self.cpu_seconds()
        row["selfplay_seconds"] = round(self_play(self, gen, state, selfplay), 2)
        trainer, summary = train(self, gen)
        row.update(summary)
        row["step"] = trainer.step
        model = export(self, gen, trainer, parity)
        promoted, score = gating(self, gen, state, model, gate)
        row["gate_score"] = "" if score is None else round(score, 4)
        row["promoted"] = int(promoted)
        rating = evaluation(self, gen, model, evaluate)
        if rating is not None:
            elo, low, high = rating
            row.update(elo=round(elo, 1), elo_low=round(low, 1), elo_high=round(high, 1))
        # Only what ran in this process counts: a phase skipped on resume cost nothing now.
        # To the millisecond: a tiny generation costs some 0.05 s, which tenths rounded
        # to 0 (or doubled), and the run's CPU-hours are the sum of these.
        row["cpu_seconds"] = round(self.cpu_seconds() - cpu_start, 3)
        finish(self, gen, state, row, trainer.step, model, promoted)
        return row

    def run(
        self,
        selfplay: SelfPlay,
        gate: Gate | None = None,
        evaluate: Evaluate | None = None,
        parity: Parity | None = None,
    ) -> None:
        warm_start(self, parity)
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
