"""The network: an AlphaZero residual tower with policy, value and optional score heads.

Input `planes` [B, C, N, N] as the model contract says (docs/model-contract.md,
train/contract.py): the C planes of the config's input set (`inputs`: v1's four, v2's ten,
or any list of plane names). Outputs
policy logits [B, N*N + 1] (row-major from a1, pass last), value [B, 1] in [-1, 1] and,
when the config asks for them, `score` [B, 1]: the predicted final disc difference for the
side to move, in discs, and `ownership` [B, N, N] in [-1, 1]: who owns each square at the
end, from the side to move (1 its disc, -1 the opponent's). Ownership is a training target
only (KataGo's auxiliary target, Wu 2019): it shapes the trunk's features and is not
exported.

With `global_pool` > 0, every second residual block (the 2nd, 4th, ...) is a global
pooling block: KataGo's global pooling bias (`KataConvAndGPool` in
python/model_pytorch.py of github.com/lightvector/KataGo), which hands every square a
summary of the whole board that 3x3 convolutions would need the whole tower to gather.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

import torch
from torch import Tensor, nn

from train import contract

BOARD_SIZES = (6, 8)


@dataclass(frozen=True)
class NetConfig:
    board: int = 8
    blocks: int = 6
    channels: int = 64
    # The input planes: an input set (`v1`, `v2`) or plane names joined by commas; kept
    # as contract.input_set_name writes it. `planes` is their count (saved configs from
    # before input sets carry only it, and mean v1).
    inputs: str = contract.DEFAULT_INPUTS
    planes: int | None = None
    # Channels of the global pooling branch in every second residual block (0: none).
    global_pool: int = 0
    policy_channels: int = 2
    value_channels: int = 1
    value_hidden: int = 64
    score_head: bool = False
    ownership_head: bool = False

    def __post_init__(self) -> None:
        if self.board not in BOARD_SIZES:
            raise ValueError(f"board size {self.board} is not supported (use 6 or 8)")
        if self.blocks < 0 or self.channels < 1:
            raise ValueError(f"bad tower shape: {self.blocks} blocks x {self.channels} channels")
        try:
            names = contract.input_planes(self.inputs)
        except contract.ContractError as e:
            raise ValueError(str(e)) from e
        # Frozen: the canonical spelling and the count are set once, here.
        object.__setattr__(self, "inputs", contract.input_set_name(names))
        if self.planes is None:
            object.__setattr__(self, "planes", len(names))
        if self.planes != len(names):
            # Saved configs carry the count; a network on other planes cannot be exported.
            raise ValueError(
                f"{self.planes} input planes, but input set {self.inputs} has {len(names)}"
            )
        if not 0 <= self.global_pool < self.channels:
            raise ValueError(
                f"global pooling of {self.global_pool} channels in a tower of {self.channels}"
            )

    @property
    def plane_names(self) -> tuple[str, ...]:
        return contract.input_planes(self.inputs)

    def pools(self, block: int) -> bool:
        """Whether residual block `block` (from 0) is a global pooling block."""
        return self.global_pool > 0 and block % 2 == 1

    @property
    def squares(self) -> int:
        return self.board * self.board

    @property
    def moves(self) -> int:
        return contract.moves(self.board)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> NetConfig:
        known = set(cls.__dataclass_fields__)
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown network config keys: {sorted(unknown)}")
        return cls(**d)


class NetOutput(NamedTuple):
    policy: Tensor
    value: Tensor
    score: Tensor | None
    ownership: Tensor | None = None


def conv_bn(cin: int, cout: int, kernel: int) -> nn.Sequential:
    # No conv bias: the batch norm that follows has its own shift.
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, padding=kernel // 2, bias=False), nn.BatchNorm2d(cout)
    )


class ResidualBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.a = conv_bn(channels, channels, 3)
        self.b = conv_bn(channels, channels, 3)

    def forward(self, x: Tensor) -> Tensor:
        return torch.relu(x + self.b(torch.relu(self.a(x))))


class GlobalPoolingBlock(nn.Module):
    """A residual block whose first convolution gets a bias per channel and per position
    from the whole board, as KataGo's global pooling bias (`KataConvAndGPool`): a second
    3x3 convolution of `pooled` channels is batch-normed and rectified, each of its
    channels averaged and maximised over the board, and a linear map of those means and
    maxima is added to the first convolution's channels. KataGo also pools the mean
    scaled by the board's width, for nets that play every size; a network here plays one
    size, where that is a constant multiple of the mean. Mean and max over the last two
    axes export as ReduceMean and ReduceMax, which tract and ONNX Runtime both run."""

    def __init__(self, channels: int, pooled: int) -> None:
        super().__init__()
        self.a = conv_bn(channels, channels, 3)
        self.g = conv_bn(channels, pooled, 3)
        self.bias = nn.Linear(2 * pooled, channels, bias=False)
        self.b = conv_bn(channels, channels, 3)

    def forward(self, x: Tensor) -> Tensor:
        g = torch.relu(self.g(x))
        summary = torch.cat([g.mean(dim=(2, 3)), g.amax(dim=(2, 3))], dim=1)
        a = self.a(x) + self.bias(summary)[:, :, None, None]
        return torch.relu(x + self.b(torch.relu(a)))


class OthelloNet(nn.Module):
    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        c, sq = config.channels, config.squares
        self.stem = conv_bn(config.planes, c, 3)
        self.tower = nn.Sequential(
            *(
                GlobalPoolingBlock(c, config.global_pool) if config.pools(i) else ResidualBlock(c)
                for i in range(config.blocks)
            )
        )
        self.policy_conv = conv_bn(c, config.policy_channels, 1)
        self.policy_fc = nn.Linear(config.policy_channels * sq, config.moves)
        self.value_conv = conv_bn(c, config.value_channels, 1)
        self.value_fc1 = nn.Linear(config.value_channels * sq, config.value_hidden)
        self.value_fc2 = nn.Linear(config.value_hidden, 1)
        self.score_fc: nn.Linear | None = None
        if config.score_head:
            # Shares the value head's features: the disc difference and the outcome are
            # two readings of the same end position.
            self.score_fc = nn.Linear(config.value_hidden, 1)
        self.ownership_conv: nn.Conv2d | None = None
        if config.ownership_head:
            # One 1x1 convolution from the trunk: a square's owner is a local reading.
            self.ownership_conv = nn.Conv2d(c, 1, 1)

    def forward(self, planes: Tensor) -> NetOutput:
        x = self.tower(torch.relu(self.stem(planes)))
        p = torch.relu(self.policy_conv(x)).flatten(1)
        policy = self.policy_fc(p)
        v = torch.relu(self.value_conv(x)).flatten(1)
        hidden = torch.relu(self.value_fc1(v))
        value = torch.tanh(self.value_fc2(hidden))
        score = None
        if self.score_fc is not None:
            # Learned on the [-1, 1] scale (difference / squares), reported in discs.
            score = self.score_fc(hidden) * self.config.squares
        ownership = None
        if self.ownership_conv is not None:
            ownership = torch.tanh(self.ownership_conv(x)).squeeze(1)
        return NetOutput(policy, value, score, ownership)


def parameter_count(net: nn.Module) -> int:
    return sum(p.numel() for p in net.parameters())
