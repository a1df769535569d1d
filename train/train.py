"""Training steps and checkpoints.

loss = cross-entropy(policy logits, visit distribution) + MSE(value, target)
       + score_weight * MSE(score / squares, final difference / squares)
target = (1 - margin_weight) * outcome + margin_weight * final difference / squares: with a
margin weight the value is a utility that also prefers larger wins (and smaller losses),
which the search then maximises, as KataGo's score utility does; 0 is AlphaZero's value.
L2 regularisation is the optimiser's weight decay on conv and linear weights (not on
biases or batch-norm parameters, which it would only pull towards a worse fit).
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812 (the usual name)
from torch import Tensor

from train.data import Samples, augment
from train.net import NetConfig, OthelloNet

CHECKPOINT_FORMAT = "othello-zero-checkpoint"
CHECKPOINT_VERSION = 1


class CheckpointError(RuntimeError):
    """A checkpoint that cannot be resumed from; the message names the file and why."""


@dataclass(frozen=True)
class TrainConfig:
    optimizer: str = "sgd"  # "sgd" (with momentum) or "adamw"
    lr: float = 0.02
    momentum: float = 0.9
    weight_decay: float = 1e-4
    batch_size: int = 256
    score_weight: float = 0.0
    margin_weight: float = 0.0
    augment: bool = True
    seed: int = 0

    def __post_init__(self) -> None:
        if self.optimizer not in ("sgd", "adamw"):
            raise ValueError(f"optimizer must be 'sgd' or 'adamw', got {self.optimizer!r}")
        if not 0.0 <= self.margin_weight <= 1.0:
            raise ValueError(f"margin_weight must be within [0, 1], got {self.margin_weight}")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TrainConfig:
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


@dataclass
class Losses:
    total: float
    policy: float
    value: float
    score: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def compute_losses(
    net: OthelloNet,
    planes: Tensor,
    policy: Tensor,
    value: Tensor,
    score: Tensor,
    score_weight: float,
) -> tuple[Tensor, Losses]:
    out = net(planes)
    policy_loss = -(policy * F.log_softmax(out.policy, dim=1)).sum(dim=1).mean()
    value_loss = F.mse_loss(out.value.squeeze(1), value)
    score_loss = torch.zeros((), device=planes.device)
    if out.score is not None:
        squares = net.config.squares
        score_loss = F.mse_loss(out.score.squeeze(1) / squares, score / squares)
    total = policy_loss + value_loss + score_weight * score_loss
    parts = (total, policy_loss, value_loss, score_loss)
    return total, Losses(*(float(t.detach()) for t in parts))


def make_optimizer(net: OthelloNet, config: TrainConfig) -> torch.optim.Optimizer:
    decay = [p for p in net.parameters() if p.ndim > 1]
    no_decay = [p for p in net.parameters() if p.ndim <= 1]
    groups = [
        {"params": decay, "weight_decay": config.weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]
    if config.optimizer == "sgd":
        return torch.optim.SGD(groups, lr=config.lr, momentum=config.momentum)
    return torch.optim.AdamW(groups, lr=config.lr)


class Trainer:
    """A network, its optimiser, the step count and the sampling RNG: everything a resumed
    run needs to carry on exactly where it stopped."""

    def __init__(
        self, net_config: NetConfig, config: TrainConfig, device: str | torch.device = "cpu"
    ) -> None:
        self.device = torch.device(device)
        torch.manual_seed(config.seed)
        self.net_config = net_config
        self.config = config
        self.net = OthelloNet(net_config).to(self.device)
        self.optimizer = make_optimizer(self.net, config)
        self.step = 0
        self.rng = np.random.default_rng(config.seed)

    def batch_tensors(self, batch: Samples) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        planes, policy = batch.planes, batch.policy
        if self.config.augment:
            planes, policy = augment(planes, policy, self.rng)
        d = self.device
        return (
            torch.from_numpy(planes.astype(np.float32)).to(d),
            torch.from_numpy(np.ascontiguousarray(policy, dtype=np.float32)).to(d),
            torch.from_numpy(self.value_target(batch)).to(d),
            torch.from_numpy(np.asarray(batch.score, dtype=np.float32)).to(d),
        )

    def value_target(self, batch: Samples) -> np.ndarray:
        """The outcome, mixed with the final disc difference by the margin weight."""
        w = self.config.margin_weight
        value = np.asarray(batch.value, dtype=np.float32)
        if w == 0.0:
            return value
        margin = np.asarray(batch.score, dtype=np.float32) / self.net_config.squares
        return ((1.0 - w) * value + w * margin).astype(np.float32)

    def train_step(self, batch: Samples) -> Losses:
        self.net.train()
        tensors = self.batch_tensors(batch)
        loss, losses = compute_losses(self.net, *tensors, self.config.score_weight)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.step += 1
        return losses

    def sample(self, data: Samples) -> Samples:
        size = min(self.config.batch_size, len(data))
        return data.take(self.rng.choice(len(data), size=size, replace=False))

    def train(self, data: Samples, steps: int) -> list[Losses]:
        if len(data) == 0:
            raise ValueError("no samples to train on")
        return [self.train_step(self.sample(data)) for _ in range(steps)]

    @torch.no_grad()
    def evaluate(self, data: Samples) -> Losses:
        self.net.eval()
        t = (
            torch.from_numpy(data.planes.astype(np.float32)).to(self.device),
            torch.from_numpy(data.policy).to(self.device),
            torch.from_numpy(self.value_target(data)).to(self.device),
            torch.from_numpy(data.score).to(self.device),
        )
        return compute_losses(self.net, *t, self.config.score_weight)[1]

    def state(self) -> dict[str, Any]:
        return {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "net_config": self.net_config.to_dict(),
            "train_config": asdict(self.config),
            "model": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "step": self.step,
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
        }

    def save(self, path: Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        torch.save(self.state(), tmp)
        # Write-then-rename: a run killed mid-save keeps the previous checkpoint whole.
        os.replace(tmp, path)

    @classmethod
    def load(
        cls,
        path: Path,
        device: str | torch.device = "cpu",
        config: TrainConfig | None = None,
    ) -> Trainer:
        """Resumes from a checkpoint. `config` replaces the saved training settings (a
        changed learning rate, say); the network shape always comes from the file."""
        state = read_checkpoint(path)
        try:
            net_config = NetConfig.from_dict(state["net_config"])
            saved = TrainConfig.from_dict(state["train_config"])
            trainer = cls(net_config, config or saved, device)
            trainer.net.load_state_dict(state["model"])
            if config is None or config.optimizer == saved.optimizer:
                trainer.optimizer.load_state_dict(state["optimizer"])
                if config is not None:
                    for group in trainer.optimizer.param_groups:
                        group["lr"] = config.lr
            trainer.step = int(state["step"])
            trainer.rng.bit_generator.state = state["rng"]
            torch.set_rng_state(state["torch_rng"])
        except (KeyError, ValueError, TypeError, RuntimeError) as e:
            raise CheckpointError(f"{path}: checkpoint does not fit this trainer ({e})") from e
        return trainer


def read_checkpoint(path: Path) -> dict[str, Any]:
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"{path}: no such checkpoint")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # truncated zip, garbage bytes, unpickling errors
        raise CheckpointError(f"{path}: corrupt or not a checkpoint ({e})") from e
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise CheckpointError(f"{path}: not an Othello Zero checkpoint")
    if state.get("version") != CHECKPOINT_VERSION:
        raise CheckpointError(
            f"{path}: checkpoint version {state.get('version')}, this trainer reads "
            f"{CHECKPOINT_VERSION}"
        )
    return state
