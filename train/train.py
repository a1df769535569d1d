"""Training steps and checkpoints.

loss = cross-entropy(policy logits, search policy) + MSE(value, target)
       + score_weight * MSE(score / squares, final difference / squares)
       + ownership_weight * MSE(ownership, final owners)   (mean over the squares, on the
         samples whose files carry ownership)
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

from train.contract import encode_inputs
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
    ownership_weight: float = 0.0
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
    ownership: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass
class Batch:
    planes: Tensor
    policy: Tensor
    value: Tensor
    score: Tensor
    ownership: Tensor  # [B, N, N]
    has_ownership: Tensor  # [B] bool


def compute_losses(net: OthelloNet, batch: Batch, config: TrainConfig) -> tuple[Tensor, Losses]:
    out = net(batch.planes)
    policy_loss = -(batch.policy * F.log_softmax(out.policy, dim=1)).sum(dim=1).mean()
    value_loss = F.mse_loss(out.value.squeeze(1), batch.value)
    zero = torch.zeros((), device=batch.planes.device)
    score_loss = zero
    if out.score is not None:
        squares = net.config.squares
        score_loss = F.mse_loss(out.score.squeeze(1) / squares, batch.score / squares)
    ownership_loss = zero
    if out.ownership is not None and bool(batch.has_ownership.any()):
        rows = batch.has_ownership
        ownership_loss = F.mse_loss(out.ownership[rows], batch.ownership[rows])
    total = (
        policy_loss
        + value_loss
        + config.score_weight * score_loss
        + config.ownership_weight * ownership_loss
    )
    parts = (total, policy_loss, value_loss, score_loss, ownership_loss)
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

    def batch_tensors(self, batch: Samples, augmented: bool = True) -> Batch:
        planes, policy, ownership = batch.planes, batch.policy, batch.ownership
        assert ownership is not None and batch.has_ownership is not None
        if self.config.augment and augmented:
            planes, policy, moved = augment(planes, policy, self.rng, ownership)
            assert moved is not None
            ownership = moved
        # The network's planes from the samples' base planes, by the encoder the engine
        # mirrors (train/contract.py), after the symmetry: every plane is a function of
        # the discs that turns with the board, so this is the turned position's input.
        planes = encode_inputs(planes, self.net_config.plane_names)
        d = self.device

        def tensor(a: np.ndarray) -> Tensor:
            return torch.from_numpy(np.ascontiguousarray(a, dtype=np.float32)).to(d)

        return Batch(
            tensor(planes),
            tensor(policy),
            tensor(self.value_target(batch)),
            tensor(batch.score),
            tensor(ownership),
            torch.from_numpy(np.asarray(batch.has_ownership, dtype=bool)).to(d),
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
        loss, losses = compute_losses(self.net, self.batch_tensors(batch), self.config)
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
        return compute_losses(self.net, self.batch_tensors(data, augmented=False), self.config)[1]

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
        heads: NetConfig | None = None,
    ) -> Trainer:
        """Resumes from a checkpoint. `config` replaces the saved training settings (a
        changed learning rate, say); the tower's shape always comes from the file. `heads`
        may add output heads the checkpoint lacks (a score or ownership head), which start
        from scratch on the trained tower; a head is never taken away."""
        state = read_checkpoint(path)
        try:
            net_config = NetConfig.from_dict(state["net_config"])
            saved = TrainConfig.from_dict(state["train_config"])
            added = heads is not None and heads != net_config
            if heads is not None and added:
                net_config = with_heads(net_config, heads)
            trainer = cls(net_config, config or saved, device)
            missing, unexpected = trainer.net.load_state_dict(state["model"], strict=not added)
            if unexpected or any(not k.startswith(("score_", "ownership_")) for k in missing):
                raise ValueError(f"weights do not fit: missing {missing}, unexpected {unexpected}")
            # New heads have no optimiser state: the momentum starts afresh for all.
            if not added and (config is None or config.optimizer == saved.optimizer):
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


def with_heads(saved: NetConfig, wanted: NetConfig) -> NetConfig:
    """The saved network with the heads `wanted` adds; anything else that differs is an
    error, since the tower's weights would not fit."""
    tower = {"board", "blocks", "channels", "inputs", "planes", "global_pool",
             "policy_channels", "value_channels", "value_hidden"}  # fmt: skip
    a, b = saved.to_dict(), wanted.to_dict()
    changed = sorted(k for k in tower if a[k] != b[k])
    if changed:
        raise ValueError(f"the checkpoint's tower differs in {changed}: {saved} vs {wanted}")
    return NetConfig(
        **{
            **a,
            "score_head": saved.score_head or wanted.score_head,
            "ownership_head": saved.ownership_head or wanted.ownership_head,
        }
    )


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
