"""Trains a fresh residual tower on a run's self-play data, apart from the run's loop: to
ask what another shape or schedule makes of the same positions (docs/training.md, "A
wider tower does not fit them either", fitted a 6x48 tower to the last 26 generations of
runs/6x6-c up to generation 109).

    python -m train.tower_fit --run runs/6x6-c --upto 109 --window 26 \\
        --blocks 6 --channels 48 --steps 8000 --lr 0.02 --out /tmp/wide-6x48

The samples are the last WINDOW generations of RUN/data up to UPTO (train.data.load_window)
on the run's board (its config.json). STEPS steps of 256, the last --final-steps (1,000)
at a tenth of LR, score weight 2 and ownership weight 1 unless told otherwise, with a
line of losses every 1,000 steps. Writes OUT.pt, a checkpoint as the trainer saves it,
and OUT.onnx with its card, whose training names the run (`--name`, by default the run's
folder with `-fresh`) and generation UPTO.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

from train.data import DataError, Samples, load_window
from train.export import export_model
from train.net import NetConfig
from train.train import TrainConfig, Trainer


@dataclass(frozen=True)
class Schedule:
    """STEPS steps in all, the last `final_steps` of them at a tenth of the rate."""

    steps: int
    lr: float
    final_steps: int = 1000
    report_every: int = 1000

    def __post_init__(self) -> None:
        if not 0 <= self.final_steps <= self.steps or self.report_every < 1:
            raise ValueError(
                f"need 0 <= final steps ({self.final_steps}) <= steps ({self.steps}) "
                f"and a report every step or more ({self.report_every})"
            )


def fit(trainer: Trainer, samples: Samples, schedule: Schedule, say: Callable[[str], None]) -> None:
    """Runs the schedule on the trainer, saying the losses every `report_every` steps."""
    start, done = time.time(), 0
    every, drop = schedule.report_every, schedule.steps - schedule.final_steps
    while done < schedule.steps:
        if done == drop:
            for group in trainer.optimizer.param_groups:
                group["lr"] = schedule.lr / 10
        # Up to the next report, or to where the rate drops if that comes first.
        until = min(schedule.steps, (done // every + 1) * every)
        until = min(until, drop) if done < drop else until
        losses = trainer.train(samples, until - done)
        done = until
        if done % every == 0 or done == schedule.steps:
            say(f"{done} steps, {time.time() - start:.0f} s: {losses[-1]}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.tower_fit", description=__doc__)
    p.add_argument("--run", type=Path, required=True, help="the run whose data/ to fit")
    p.add_argument("--upto", type=int, required=True, help="the last generation's data")
    p.add_argument("--window", type=int, required=True, help="generations up to UPTO")
    p.add_argument("--blocks", type=int, required=True)
    p.add_argument("--channels", type=int, required=True)
    p.add_argument("--steps", type=int, required=True)
    p.add_argument("--lr", type=float, required=True)
    p.add_argument("--out", type=Path, required=True, help="writes OUT.pt and OUT.onnx")
    p.add_argument("--final-steps", type=int, default=1000, help="at a tenth of LR")
    p.add_argument("--score-weight", type=float, default=2.0)
    p.add_argument("--ownership-weight", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--name", help="the run the card names (default: RUN's folder-fresh)")
    args = p.parse_args(argv)
    try:
        schedule = Schedule(args.steps, args.lr, args.final_steps)
        board = int(json.loads((args.run / "config.json").read_text())["board"])
        torch.set_num_threads(args.threads)
        samples = load_window(args.run / "data", board, args.window, upto=args.upto)
    except (OSError, ValueError, KeyError, TypeError, DataError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{len(samples)} positions", flush=True)
    net = NetConfig(
        board=board, blocks=args.blocks, channels=args.channels, score_head=True,
        ownership_head=True,
    )  # fmt: skip
    config = TrainConfig(
        lr=args.lr, score_weight=args.score_weight, ownership_weight=args.ownership_weight,
        seed=args.seed,
    )  # fmt: skip
    trainer = Trainer(net, config)
    fit(trainer, samples, schedule, lambda line: print(line, flush=True))
    trainer.save(args.out.with_suffix(".pt"))
    name = args.name or f"{args.run.resolve().name}-fresh"
    export_model(trainer.net, args.out, run=name, generation=args.upto)
    return 0


if __name__ == "__main__":
    sys.exit(main())
