"""Stochastic weight averaging of a run's checkpoints: one network whose weights are the
mean of the last N generations', with its batch-norm statistics measured again on the
run's self-play data.

KataGo and lc0 both ship averaged weights rather than the last step's (KataGo's
`swa_scale`/`swa_period_samples` in python/train.py; lc0's `swa_max_n` in
tf/tfprocess.py): at a constant learning rate the weights wander around a minimum, and
their mean sits nearer its middle (Izmailov et al., "Averaging Weights Leads to Wider
Optima and Better Generalization", UAI 2018). Batch norm's running statistics belong to
the weights they were measured under, so they are measured afresh for the mean
(`torch.optim.swa_utils.update_bn`, the paper's procedure).

    python -m train.swa --run runs/8x8-b --last 16 --out runs/8x8-b/swa/gen-0280-swa16
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.optim.swa_utils import update_bn

from train.data import load_window
from train.export import export_model
from train.net import NetConfig, OthelloNet
from train.train import CheckpointError, read_checkpoint


def checkpoint_paths(run: Path, last: int, upto: int | None) -> list[tuple[int, Path]]:
    """The last `last` generations' checkpoints (up to and including `upto`)."""
    found = []
    for path in (run / "checkpoints").glob("gen-*.pt"):
        try:
            generation = int(path.stem.removeprefix("gen-"))
        except ValueError:
            continue
        if upto is None or generation <= upto:
            found.append((generation, path))
    found.sort()
    if len(found) < last:
        raise CheckpointError(
            f"{run}/checkpoints: {len(found)} generation checkpoints, {last} wanted"
        )
    return found[-last:]


def average_weights(paths: list[Path]) -> tuple[NetConfig, dict[str, torch.Tensor]]:
    """The element-wise mean of the checkpoints' learnt tensors. Batch norm's running
    statistics are averaged too, as a start that `refresh_batch_norm` replaces."""
    states = [read_checkpoint(p) for p in paths]
    configs = {str(s["net_config"]) for s in states}
    if len(configs) != 1:
        raise CheckpointError(f"the checkpoints' networks differ: {sorted(configs)}")
    return NetConfig.from_dict(states[0]["net_config"]), mean_state([s["model"] for s in states])


def mean_state(states: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """The element-wise mean of state dicts of one layout; a tensor that is not learnt
    (batch norm's `num_batches_tracked`) is the first one's. The residual networks'
    averages here and the pattern networks' (`train.pattern.mean_of_checkpoints`) share it."""
    mean = {}
    for name, first in states[0].items():
        if first.is_floating_point():
            mean[name] = torch.stack([s[name] for s in states]).mean(dim=0)
        else:  # num_batches_tracked
            mean[name] = first.clone()
    return mean


def refresh_batch_norm(net: nn.Module, planes: np.ndarray, batch: int, seed: int) -> None:
    """Measures every batch norm's statistics afresh over `planes`, in shuffled batches
    (`torch.optim.swa_utils.update_bn`: the cumulative mean of the batches'), and leaves
    the network in evaluation mode."""
    order = np.random.default_rng(seed).permutation(len(planes))
    batches = (
        torch.from_numpy(np.ascontiguousarray(planes[order[start : start + batch]])).float()
        for start in range(0, len(order), batch)
    )
    update_bn(batches, net)
    net.eval()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, required=True, help="the run directory")
    parser.add_argument("--last", type=int, default=16, help="generations to average")
    parser.add_argument("--upto", type=int, default=None, help="the last generation to take")
    parser.add_argument(
        "--window",
        type=int,
        default=4,
        help="generations of self-play data to measure batch norm on",
    )
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True, help="output path, no suffix")
    args = parser.parse_args(argv)
    if args.last < 1:
        parser.error(f"--last must be at least 1, got {args.last}")
    try:
        taken = checkpoint_paths(args.run, args.last, args.upto)
        config, mean = average_weights([p for _, p in taken])
        net = OthelloNet(config)
        net.load_state_dict(mean)
        upto = taken[-1][0]
        data = load_window(args.run / "data", config.board, args.window, upto)
        refresh_batch_norm(net, data.planes, args.batch, args.seed)
    except (CheckpointError, ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    first = taken[0][0]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx_path, card_path, _ = export_model(net, args.out, run=str(args.run), generation=upto)
    card = json.loads(card_path.read_text())
    card["training"]["averaged_generations"] = [first, upto]
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    print(
        f"{onnx_path}: generations {first}-{upto} averaged, batch norm measured on "
        f"{len(data)} positions"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
