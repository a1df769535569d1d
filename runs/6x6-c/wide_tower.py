"""Trains a fresh tower on this run's self-play data, to ask whether a wider 6x6 network
fits the margins of lopsided endgames better than the run's 4x32 (docs/training.md, "A
wider tower does not fit them either").

    python runs/6x6-c/wide_tower.py BLOCKS CHANNELS STEPS LR WINDOW OUT

e.g. `6 48 8000 0.02 26 /tmp/wide-6x48`: the last WINDOW generations up to 109, STEPS
steps of 256 (the last 1,000 at a tenth of LR), score weight 2, ownership weight 1;
writes OUT.pt (a checkpoint) and OUT.onnx with its card.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import torch

from train.data import load_window
from train.export import export_model
from train.net import NetConfig
from train.train import TrainConfig, Trainer

RUN = Path(__file__).resolve().parent
LAST_GENERATION = 109


def main(argv: list[str]) -> None:
    blocks, channels, steps = int(argv[0]), int(argv[1]), int(argv[2])
    lr, window, out = float(argv[3]), int(argv[4]), Path(argv[5])
    torch.set_num_threads(2)
    samples = load_window(RUN / "data", 6, window, upto=LAST_GENERATION)
    print(f"{len(samples)} positions", flush=True)
    net = NetConfig(board=6, blocks=blocks, channels=channels, score_head=True, ownership_head=True)
    trainer = Trainer(net, TrainConfig(lr=lr, score_weight=2.0, ownership_weight=1.0, seed=1))
    start = time.time()
    chunks = steps // 1000
    for chunk in range(chunks):
        if chunk == chunks - 1:
            for group in trainer.optimizer.param_groups:
                group["lr"] = lr / 10
        losses = trainer.train(samples, 1000)
        print(f"{(chunk + 1) * 1000} steps, {time.time() - start:.0f} s: {losses[-1]}", flush=True)
    trainer.save(out.with_suffix(".pt"))
    export_model(trainer.net, out, run="6x6-c-wide", generation=LAST_GENERATION)


if __name__ == "__main__":
    main(sys.argv[1:])
