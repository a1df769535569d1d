"""Fits a pattern network (train/pattern.py) to self-play samples: the side to move's
discs and the opponent's (planes 0 and 1 of every file), the final margin over the
squares as the score target and the outcome as the value target, each sample under a
random one of the eight symmetries each epoch. 5% of the samples are held out for the
validation losses. Writes the checkpoint `<out>.pt`, the ONNX `<out>.onnx` and its card
`<out>.json`.

    python -m train.pattern_fit --board 8 --data runs/8x8-b/data --out models/pattern-8x8
    python -m train.pattern_fit --board 8 --data more.npz --init models/pattern-8x8.pt \
        --out models/pattern-8x8-2
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import Tensor

from train.contract import OPPONENT, OWN
from train.data import DataError, load_npz
from train.pattern import (
    DEFAULT_GLOBAL_HIDDEN,
    DEFAULT_HIDDEN,
    PATTERN_SETS,
    PatternConfig,
    PatternError,
    PatternNet,
    export_model,
    load_checkpoint,
    save_checkpoint,
    symmetry,
    with_global_network,
)

VALIDATION_SHARE = 0.05


@dataclass
class Positions:
    """Samples reduced to what the pattern network learns from: the side to move's and
    the opponent's discs, 0/1 uint8 [n, N*N]; score (margin / squares) and value [n]."""

    own: np.ndarray
    opponent: np.ndarray
    score: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return int(self.own.shape[0])

    def take(self, index: np.ndarray) -> Positions:
        return Positions(
            self.own[index], self.opponent[index], self.score[index], self.value[index]
        )


def data_files(paths: Sequence[Path]) -> list[Path]:
    """The `.npz` self-play files named, or found under the folders named (parity
    samples, `*.samples.npz`, are not self-play files)."""
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(p for p in path.rglob("*.npz") if not p.name.endswith(".samples.npz"))
            if not found:
                raise DataError(f"{path}: no .npz self-play files under it")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise DataError(f"{path}: no such file or folder")
    return files


def search_targets(path: Path, n: int) -> tuple[np.ndarray, np.ndarray] | None:
    """A file's `search_value` and `search_score` columns (what the search that played
    from each position found of it), or None for a file written before they were."""
    with np.load(path, allow_pickle=False) as z:
        if "search_value" not in z.files or "search_score" not in z.files:
            return None
        value, score = z["search_value"], z["search_score"]
    if value.shape != (n,) or score.shape != (n,):
        raise DataError(f"{path}: search columns of {value.shape} and {score.shape}, not ({n},)")
    return value.astype(np.float32), score.astype(np.float32)


def load_positions(paths: Sequence[Path], board: int, search_weight: float = 0.0) -> Positions:
    """The files' positions with their targets: the game's result, blended with the
    search's own value and margin at `search_weight` where a file has them (KataGo
    trains on its search's root value beside the outcome)."""
    if not 0.0 <= search_weight <= 1.0:
        raise PatternError(f"the search's weight must lie in [0, 1], not {search_weight}")
    parts = []
    for f in data_files(paths):
        s = load_npz(f, board)
        n = len(s)
        score, value = s.score.astype(np.float32), s.value.astype(np.float32)
        searched = search_targets(f, n) if search_weight > 0 else None
        if searched is not None:
            value = (1 - search_weight) * value + search_weight * searched[0]
            score = (1 - search_weight) * score + search_weight * searched[1]
        parts.append(
            Positions(
                s.planes[:, OWN].reshape(n, -1).astype(np.uint8),
                s.planes[:, OPPONENT].reshape(n, -1).astype(np.uint8),
                (score / (board * board)).astype(np.float32),
                value.astype(np.float32),
            )
        )
    return Positions(
        *(np.concatenate([getattr(p, k) for p in parts]) for k in Positions.__annotations__)
    )


def symmetry_gathers(n: int) -> Tensor:
    """[8, N*N]: gathering a flattened grid's squares at row g gives its image under a
    symmetry (the group's elements, each once)."""
    rows = []
    for g in range(8):
        rows.append([r * n + c for c, r in (symmetry(g, i % n, i // n, n) for i in range(n * n))])
    return torch.tensor(rows, dtype=torch.long)


def losses(
    net: PatternNet,
    own: Tensor,
    opponent: Tensor,
    score: Tensor,
    value: Tensor,
    global_rows: Tensor | None = None,
) -> Tensor:
    """[2]: the mean squared errors of the score sum (unclamped, so a sum beyond ±1 still
    learns) and of tanh(value logit sum)."""
    total = net.sums(own, opponent, global_rows)
    return torch.stack(
        [
            torch.mean((total[:, 0] - score) ** 2),
            torch.mean((torch.tanh(total[:, 1]) - value) ** 2),
        ]
    )


@torch.no_grad()
def evaluate(net: PatternNet, data: Positions, batch: int) -> tuple[float, float]:
    net.eval()
    sums = torch.zeros(2, dtype=torch.float64)
    for start in range(0, len(data), batch):
        part = data.take(np.arange(start, min(start + batch, len(data))))
        got = losses(net, *tensors(part), global_rows=all_global_rows(net, part))
        sums += got.double() * len(part)
    net.train()
    mean = sums / max(len(data), 1)
    return float(mean[0]), float(mean[1])


@torch.no_grad()
def all_global_rows(net: PatternNet, data: Positions, batch: int = 8192) -> Tensor | None:
    """The global network's input rows of every sample (None without a global network):
    computed once a fit, as they do not change under the symmetries each batch draws
    (mobility, parity and stage are the same in every image), where computing them every
    batch doubled a pass's time."""
    if net.global_mlp is None:
        return None
    parts = []
    for start in range(0, len(data), batch):
        part = data.take(np.arange(start, min(start + batch, len(data))))
        own, opponent, _, _ = tensors(part)
        parts.append(net.global_inputs(own, opponent))
    return torch.cat(parts) if parts else torch.zeros(0, 4)


def tensors(p: Positions) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    return (
        torch.from_numpy(p.own).float(),
        torch.from_numpy(p.opponent).float(),
        torch.from_numpy(p.score),
        torch.from_numpy(p.value),
    )


def split(data: Positions, share: float, seed: int) -> tuple[Positions, Positions]:
    order = np.random.default_rng(seed).permutation(len(data))
    held = math.ceil(len(data) * share) if len(data) > 1 else 0
    return data.take(order[held:]), data.take(order[:held])


def fit(
    net: PatternNet,
    train: Positions,
    validation: Positions,
    epochs: int,
    batch: int,
    lr: float,
    seed: int = 0,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Adam on the sum of the two losses, each batch under random symmetries. Returns the
    last epoch's losses for the card."""
    if epochs < 1 or batch < 1 or not lr > 0:
        raise PatternError(
            f"epochs and batch must be positive and lr above 0 (got {epochs}, {batch}, {lr})"
        )
    if len(train) == 0:
        raise PatternError("no training samples")
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    gathers = symmetry_gathers(net.config.board)
    global_rows = all_global_rows(net, train)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    net.train()
    record: dict[str, Any] = {}
    for epoch in range(1, epochs + 1):
        start = time.monotonic()
        order = rng.permutation(len(train))
        sums = torch.zeros(2, dtype=torch.float64)
        for first in range(0, len(train), batch):
            rows = order[first : first + batch]
            own, opponent, score, value = tensors(train.take(rows))
            extra = None if global_rows is None else global_rows[torch.from_numpy(rows)]
            g = gathers[torch.from_numpy(rng.integers(0, 8, size=own.shape[0]))]
            own, opponent = torch.gather(own, 1, g), torch.gather(opponent, 1, g)
            parts = losses(net, own, opponent, score, value, extra)
            optimizer.zero_grad()
            parts.sum().backward()
            optimizer.step()
            sums += parts.detach().double() * own.shape[0]
        train_loss = (sums / len(train)).tolist()
        val_loss = evaluate(net, validation, max(batch, 4096)) if len(validation) else None
        record = {
            "epochs": epoch,
            "train_loss": {"score": train_loss[0], "value": train_loss[1]},
            "validation_loss": (
                {"score": val_loss[0], "value": val_loss[1]} if val_loss is not None else None
            ),
        }
        shown = f"{val_loss[0]:.5f} {val_loss[1]:.5f}" if val_loss is not None else "-"
        log(
            f"epoch {epoch}/{epochs}: train score {train_loss[0]:.5f} value {train_loss[1]:.5f}"
            f" | validation score value {shown} | {time.monotonic() - start:.1f}s"
        )
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m train.pattern_fit", description="Fit a pattern network to self-play data."
    )
    parser.add_argument("--board", type=int, required=True, choices=(6, 8))
    parser.add_argument("--data", type=Path, nargs="+", required=True, help=".npz files or folders")
    parser.add_argument("--out", type=Path, required=True, help="output path without extension")
    parser.add_argument("--init", type=Path, help="a pattern checkpoint (.pt) to start from")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--stages", type=int, help="stage buckets (default 10 on 8x8, 8 on 6x6)")
    parser.add_argument("--hidden", type=int, nargs="+", help=f"default {list(DEFAULT_HIDDEN)}")
    parser.add_argument(
        "--pattern-set",
        choices=sorted(PATTERN_SETS),
        help="the patterns of a network fitted from zero (default base; docs/pattern.md)",
    )
    parser.add_argument(
        "--global-inputs",
        action="store_true",
        help="a global network fed both sides' mobility, the parity and the stage; added to "
        "an --init checkpoint without one with its last layer zero, so that the fit starts "
        "from the checkpoint's outputs exactly (docs/pattern.md)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--search-weight",
        type=float,
        default=0.0,
        help="weight of the search's own value and margin in the targets, beside the result",
    )
    parser.add_argument("--run", help="the card's training.run (default: the output's name)")
    parser.add_argument("--generation", type=int, help="the card's training.generation")
    args = parser.parse_args(argv)
    torch.set_num_threads(max(1, args.threads))
    try:
        if args.init is not None:
            net, _ = load_checkpoint(args.init)
            c = net.config
            if args.pattern_set is not None:
                raise PatternError(
                    f"{args.init}: a fit from a checkpoint keeps its patterns; --pattern-set "
                    "is for a network fitted from zero"
                )
            asked = {"board": args.board, "stages": args.stages, "hidden": args.hidden}
            have = {"board": c.board, "stages": c.stages, "hidden": list(c.hidden)}
            clash = [k for k, v in asked.items() if v is not None and v != have[k]]
            if clash:
                raise PatternError(
                    f"{args.init}: the checkpoint has {', '.join(f'{k} {have[k]}' for k in clash)}"
                    f", not {', '.join(f'{k} {asked[k]}' for k in clash)}"
                )
            if args.global_inputs and net.global_mlp is None:
                net = with_global_network(net, DEFAULT_GLOBAL_HIDDEN, args.seed)
                print(f"{args.init}: a global network added, its last layer zero")
        else:
            net = PatternNet(
                PatternConfig.default(
                    args.board,
                    args.stages,
                    args.hidden or DEFAULT_HIDDEN,
                    args.pattern_set or "base",
                    DEFAULT_GLOBAL_HIDDEN if args.global_inputs else (),
                )
            )
        data = load_positions(args.data, args.board, args.search_weight)
        train, validation = split(data, VALIDATION_SHARE, args.seed)
        print(
            f"{len(data)} samples ({len(train)} train, {len(validation)} validation); "
            f"{sum(net.instance_counts())} instances of {len(net.config.patterns)} patterns"
        )
        record = fit(net, train, validation, args.epochs, args.batch, args.lr, args.seed)
    except (PatternError, DataError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    training = {
        "run": args.run or args.out.name,
        "generation": args.generation,
        "samples": len(train),
        "validation_samples": len(validation),
        "batch": args.batch,
        "lr": args.lr,
        "seed": args.seed,
        "search_weight": args.search_weight,
        "init": str(args.init) if args.init else None,
        "global_inputs": net.global_mlp is not None,
        **record,
    }
    checkpoint = args.out.with_suffix(".pt")
    save_checkpoint(net, checkpoint, {"training": training})
    paths = export_model(net, args.out, training)
    print("wrote " + ", ".join(str(p) for p in (checkpoint, *paths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
