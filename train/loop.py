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

This module is the command line; the settings are train/settings.py, the directory
train/rundir.py (`RunFiles`, the files every learner's run keeps, and `RunDir`, this
run's) and the phases of a generation train/phases.py.

With `--ray [auto|ADDRESS|local]` the shards of self-play and of the arenas are Ray tasks
on a cluster (train/cluster.py); the run directory is the same as a local run's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

from train.othello_cli import (
    EvalJob,
    GateJob,
    RunError,
    SelfPlayJob,
    othello_evaluate,
    othello_gate,
    othello_parity,
    othello_selfplay,
)
from train.phases import Run
from train.pools import opened_pool
from train.settings import DEFAULTS, FIXED_KEYS, add_flags
from train.train import CheckpointError

# The names the tests and other tools reach through this module.
__all__ = [
    "DEFAULTS",
    "FIXED_KEYS",
    "EvalJob",
    "GateJob",
    "Run",
    "RunError",
    "SelfPlayJob",
    "main",
    "othello_evaluate",
    "othello_gate",
    "othello_parity",
    "othello_selfplay",
]

# How to run, not what the run is: not saved in config.json.
HOW = ("run", "torch_threads", "ray")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m train.loop",
        description="AlphaZero-style training loop over a resumable run directory. "
        "Options left out keep the run's saved value (or the default for a new run).",
    )
    p.add_argument("--run", type=Path, required=True, help="run directory, e.g. runs/6x6-a")
    add_flags(p)
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
    overrides = {k: v for k, v in vars(args).items() if k not in HOW}
    try:
        run = Run.open(args.run, overrides)
        if run.config["device"].startswith("cuda") and not torch.cuda.is_available():
            raise RunError("--device cuda asked for, but torch sees no CUDA device")
        binary = run.config["othello"]
        player = run.config["gate_player"]
        shards = run.config["shard_games"]
        with opened_pool(binary, args.ray) as pool:
            run.remote_cpu = pool.remote_cpu_seconds
            run.run(
                othello_selfplay(binary, pool, shards),
                othello_gate(binary, player, pool, shards),
                othello_evaluate(binary, player, pool, shards),
                othello_parity(binary),
            )
    except (RunError, CheckpointError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
