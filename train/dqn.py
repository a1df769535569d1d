"""Deep Q-learning for Othello: an action-value network over the N*N + 1 moves.

    python -m train.dqn --run runs/6x6-dqn --board 6 --max-cpu-hours 0.25

Mnih et al. 2015 (experience replay, a target network, epsilon-greedy with a schedule),
with van Hasselt et al.'s 2016 double-Q target and the eight board symmetries as
augmentation, as the deep Q-learning Othello players before this one did (van der Ree &
Wiering 2013 learned Othello with Q-learning against fixed opponents). The reward is the
game's result (+1, 0, -1) at its end and nothing before, without discount; a transition
runs from one of the learner's decisions to its next one, the opponent's reply in
between, so the same code learns by self-play and against the fixed players.

The network is the AlphaZero tower (train/net.py); its policy head's outputs, through
tanh, are the action values. Exported to the model contract (docs/model-contract.md):
`policy` is the action values times Q_LOGIT_SCALE (so the policy player plays the greedy
move and a search gets priors), and `value` the largest action value among the legal
moves.
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import Tensor, nn

from train import rl
from train.contract import LEGAL, PLANES
from train.export import export_model
from train.net import NetConfig, OthelloNet

# Softmax temperature of the exported policy: action values 0.1 apart give priors about
# 2.7:1, so a search over this network still explores the second-best move.
Q_LOGIT_SCALE = 10.0

DEFAULTS: dict[str, Any] = {
    **rl.COMMON_DEFAULTS,
    "replay": 100_000,
    "replay_ratio": 4.0,
    "target_every": 500,
    "eps_start": 0.5,
    "eps_end": 0.05,
    "eps_games": 20_000,
}


def action_values(net: OthelloNet, planes: Tensor) -> Tensor:
    return torch.tanh(net(planes).policy)


def legal_from_planes(planes: Tensor) -> Tensor:
    """The contract's legal moves as a 0/1 mask over N*N + 1, the pass legal exactly when
    no placement is; arithmetic only, so every ONNX runtime takes it."""
    squares = planes[:, LEGAL].flatten(1)
    no_placement = 1 - squares.amax(dim=1, keepdim=True)
    return torch.cat([squares, no_placement], dim=1)


class QContract(nn.Module):
    """The Q-network as the model contract's outputs: policy, value."""

    def __init__(self, net: OthelloNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, planes: Tensor) -> tuple[Tensor, Tensor]:
        q = action_values(self.net, planes)
        legal = legal_from_planes(planes)
        # Illegal moves pushed 4 below the smallest possible value, out of the max.
        value = (q + (legal - 1) * 4).amax(dim=1, keepdim=True)
        return q * Q_LOGIT_SCALE, value


class Replay:
    """A ring buffer of transitions (planes stored as uint8)."""

    def __init__(self, capacity: int, n: int) -> None:
        moves = n * n + 1
        self.planes = np.zeros((capacity, PLANES, n, n), np.uint8)
        self.next_planes = np.zeros_like(self.planes)
        self.next_legal = np.zeros((capacity, moves), bool)
        self.action = np.zeros(capacity, np.int64)
        self.reward = np.zeros(capacity, np.float32)
        self.terminal = np.zeros(capacity, bool)
        self.size = 0
        self.cursor = 0

    def add(self, e: rl.Episodes) -> None:
        has_next = e.next_index >= 0
        nxt = np.where(has_next, e.next_index, 0)
        for start in range(0, len(e), self.planes.shape[0]):
            rows = np.arange(start, min(len(e), start + self.planes.shape[0]))
            at = (self.cursor + np.arange(rows.size)) % self.planes.shape[0]
            self.planes[at] = e.planes[rows]
            self.next_planes[at] = e.planes[nxt[rows]]
            self.next_legal[at] = e.legal[nxt[rows]]
            self.action[at] = e.action[rows]
            self.reward[at] = np.where(has_next[rows], 0.0, e.outcome[rows])
            self.terminal[at] = ~has_next[rows]
            self.cursor = int((at[-1] + 1) % self.planes.shape[0])
            self.size = min(self.planes.shape[0], self.size + rows.size)


class DQN:
    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        net_config = NetConfig(
            board=config["board"], blocks=config["blocks"], channels=config["channels"]
        )
        self.net = OthelloNet(net_config)
        self.target = copy.deepcopy(self.net)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config["lr"])
        self.replay = Replay(config["replay"], config["board"])
        self.rng = np.random.default_rng(config["seed"])
        self.steps = 0
        self.games = 0

    def epsilon(self) -> float:
        c = self.config
        done = min(1.0, self.games / max(1, c["eps_games"]))
        return c["eps_start"] + (c["eps_end"] - c["eps_start"]) * done

    @torch.no_grad()
    def act(self, planes: np.ndarray, legal: np.ndarray, explore: bool) -> np.ndarray:
        self.net.eval()
        q = action_values(self.net, torch.from_numpy(planes.astype(np.float32))).numpy()
        greedy = np.argmax(np.where(legal, q, -np.inf), axis=1)
        if not explore:
            return greedy
        random = np.argmax(np.where(legal, self.rng.random(legal.shape), -1.0), axis=1)
        return np.where(self.rng.random(len(greedy)) < self.epsilon(), random, greedy)

    def learn(self, episodes: rl.Episodes) -> float:
        c = self.config
        self.games += len(episodes.opponent)
        self.replay.add(episodes)
        steps = max(1, round(len(episodes) * c["replay_ratio"] / c["batch_size"]))
        losses = [self.step() for _ in range(steps)]
        return float(np.mean(losses))

    def targets(self, rows: np.ndarray) -> Tensor:
        """Double Q: the online network picks the next move, the target network values it."""
        r = self.replay
        reward = torch.from_numpy(r.reward[rows])
        live = ~r.terminal[rows]
        if not live.any():
            return reward
        planes = torch.from_numpy(r.next_planes[rows][live].astype(np.float32))
        legal = torch.from_numpy(r.next_legal[rows][live])
        with torch.no_grad():
            self.net.eval()
            self.target.eval()
            choice = rl.masked_logits(action_values(self.net, planes), legal).argmax(dim=1)
            value = action_values(self.target, planes).gather(1, choice[:, None]).squeeze(1)
        out = reward.clone()
        out[torch.from_numpy(live)] = value
        return out

    def step(self) -> float:
        c, r = self.config, self.replay
        rows = self.rng.integers(0, r.size, size=min(c["batch_size"], r.size))
        target = self.targets(rows)
        moves = c["board"] ** 2 + 1
        onehot = np.zeros((rows.size, moves), np.float32)
        onehot[np.arange(rows.size), r.action[rows]] = 1
        planes, (onehot,) = rl.augment_moves(r.planes[rows], [onehot], self.rng)
        action = torch.from_numpy(onehot.argmax(axis=1))
        self.net.train()
        q = action_values(self.net, torch.from_numpy(planes.astype(np.float32)))
        taken = q.gather(1, action[:, None]).squeeze(1)
        loss = nn.functional.smooth_l1_loss(taken, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.steps += 1
        if self.steps % c["target_every"] == 0:
            self.target.load_state_dict(self.net.state_dict())
        return loss.item()

    def state_dict(self) -> dict[str, Any]:
        # The replay is left out: at 100k positions it outweighs the network a hundred
        # times, and a resumed run refills it in a few iterations.
        return {
            "net": self.net.state_dict(),
            "target": self.target.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "steps": self.steps,
            "games": self.games,
            "rng": self.rng.bit_generator.state,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.net.load_state_dict(state["net"])
        self.target.load_state_dict(state["target"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.steps, self.games = state["steps"], state["games"]
        self.rng.bit_generator.state = state["rng"]

    def frozen(self) -> DQN:
        return rl.frozen_twin(self)

    def export(self, out: Path, run: str, generation: int) -> Path:
        kind = (
            "deep Q-network (AlphaZero residual tower, action values from the policy head "
            f"through tanh); policy = action values x {Q_LOGIT_SCALE:g}, value = the best "
            "legal action value"
        )
        onnx_path, _, _ = export_model(
            self.net, out, run, generation, "see docs/learners.md", wrapper=QContract, kind=kind
        )
        return onnx_path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--replay", type=int, help="replay capacity (positions)")
    p.add_argument("--replay-ratio", type=float, help="samples trained per position played")
    p.add_argument("--target-every", type=int, help="steps between target-network copies")
    p.add_argument("--eps-start", type=float)
    p.add_argument("--eps-end", type=float)
    p.add_argument("--eps-games", type=int, help="games over which epsilon falls")


def main(argv: list[str] | None = None) -> int:
    return rl.main_for("dqn", "Deep Q-learning on Othello.", DEFAULTS, add_arguments, DQN, argv)


if __name__ == "__main__":
    sys.exit(main())
