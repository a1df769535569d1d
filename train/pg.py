"""Policy-gradient learners for Othello: REINFORCE with a baseline, and advantage
actor-critic. `python -m train.reinforce` and `python -m train.a2c` run them.

Both act by sampling the policy head (illegal moves masked) and learn on-policy from the
games just played, then throw them away. They differ in the return a move is judged by:
- REINFORCE with a baseline (Williams 1992; Sutton & Barto 2018, section 13.4): the
  game's result, less the value head's estimate of the position as the baseline; the
  value head learns the result.
- Advantage actor-critic (Mnih et al. 2016's A2C, synchronous): the lambda-return that
  bootstraps from the critic's value of the learner's next decision (GAE, Schulman et al.
  2016, with gamma = 1); the critic learns that return. With lambda = 1 it is REINFORCE.
With `epochs` above 1 each batch of games is learned from that many times, through PPO's
clipped objective (Schulman et al. 2017), so that the later passes cannot move a move's
probability more than `clip` away from the policy that played it. An entropy bonus keeps
the policy from collapsing early (both, as in A3C), and the advantages can be normalised
per minibatch (`normalize_advantage`, as PPO's baselines do), which keeps the step size
the same whether the results are lopsided or not. The network is the AlphaZero tower
with its policy and value heads, exported to the model contract as it is, so both
learners play in the arena, in `othello play` and in the page, and their
value head lets a search use them.
"""

from __future__ import annotations

import argparse
import copy
from pathlib import Path
from typing import Any

import numpy as np
import torch

from train import rl
from train.export import export_model
from train.net import NetConfig, OthelloNet

DEFAULTS: dict[str, Any] = {
    **rl.COMMON_DEFAULTS,
    "lr": 0.0005,
    "value_weight": 1.0,
    "entropy_weight": 0.01,
    "lam": 0.8,
    "normalize_advantage": False,
    "epochs": 1,
    "clip": 0.2,
    # Learn each decision in one of the board's eight symmetries, drawn at random, as the
    # Q-learner and AlphaZero do. Off by default here (issue 37): the policy gradient is
    # on-policy only as played; a network that is not yet symmetric gives a move it played
    # in one orientation a probability of e^-80 in another, and learning from that held
    # REINFORCE at 50-64% against the heuristic player where learning as played reached
    # 92% in a sixth of the games (docs/learners.md).
    "augment": False,
    # Where the network lives: "cpu", or "cuda" on a lent GPU machine. The games are
    # stepped in numpy either way; only the network's calls move.
    "device": "cpu",
}


class PolicyGradient:
    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        net_config = NetConfig(
            board=config["board"], blocks=config["blocks"], channels=config["channels"]
        )
        self.device = torch.device(config["device"])
        if self.device.type == "cuda" and not torch.cuda.is_available():
            raise rl.LearnerError("device cuda asked for, but PyTorch sees no GPU here")
        self.net = OthelloNet(net_config).to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config["lr"])
        self.rng = np.random.default_rng(config["seed"])
        self.actor_critic = config["learner"] == "a2c"

    @torch.no_grad()
    def act(self, planes: np.ndarray, legal: np.ndarray, explore: bool) -> np.ndarray:
        self.net.eval()
        logits = self.net(self.tensor(planes.astype(np.float32))).policy
        logits = rl.masked_logits(logits, self.tensor(legal))
        if not explore:
            return logits.argmax(dim=1).cpu().numpy()
        gumbel = self.tensor(rl.gumbel_noise(self.rng, legal.shape))
        return (logits + gumbel).argmax(dim=1).cpu().numpy()

    def tensor(self, array: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(array).to(self.device)

    @torch.no_grad()
    def values(self, planes: np.ndarray) -> np.ndarray:
        self.net.eval()
        out = []
        for start in range(0, len(planes), 1024):
            chunk = self.tensor(planes[start : start + 1024].astype(np.float32))
            out.append(self.net(chunk).value.squeeze(1).cpu().numpy())
        return np.concatenate(out) if out else np.zeros(0, np.float32)

    def returns(self, e: rl.Episodes) -> np.ndarray:
        """What each decision is judged by: the result (REINFORCE) or the lambda-return
        over the learner's own next decisions (A2C)."""
        if not self.actor_critic:
            return e.outcome.copy()
        lam = self.config["lam"]
        value = self.values(e.planes)
        out = e.outcome.copy()
        # A decision's successor is always recorded after it: fill from the end.
        for i in range(len(e) - 1, -1, -1):
            j = e.next_index[i]
            if j >= 0:
                out[i] = (1 - lam) * value[j] + lam * out[j]
        return out

    def learn(self, e: rl.Episodes) -> float:
        if len(e) == 0:
            return 0.0
        c = self.config
        target = self.returns(e)
        # The policy that played the games, for the clipped passes; in training mode, as
        # the learning net is, so that both see the same batch statistics.
        played = copy.deepcopy(self.net).train() if c["epochs"] > 1 else None
        losses = []
        for _ in range(max(1, c["epochs"])):
            order = self.rng.permutation(len(e))
            for start in range(0, len(e), c["batch_size"]):
                rows = order[start : start + c["batch_size"]]
                losses.append(self.step(e, rows, target[rows], played))
        return float(np.mean(losses))

    def step(
        self,
        e: rl.Episodes,
        rows: np.ndarray,
        target: np.ndarray,
        played: torch.nn.Module | None = None,
    ) -> float:
        c = self.config
        moves = e.legal.shape[1]
        onehot = np.zeros((rows.size, moves), np.float32)
        onehot[np.arange(rows.size), e.action[rows]] = 1
        planes, (moved, legal_moved) = e.planes[rows], (onehot, e.legal[rows])
        if c["augment"]:
            planes, (moved, legal_moved) = rl.augment_moves(
                planes, [onehot, legal_moved.astype(np.float32)], self.rng
            )
        action = self.tensor(moved.argmax(axis=1))
        legal = self.tensor(legal_moved > 0.5)
        self.net.train()
        batch = self.tensor(planes.astype(np.float32))
        out = self.net(batch)
        logp = torch.log_softmax(rl.masked_logits(out.policy, legal), dim=1)
        probs = logp.exp()
        entropy = -(probs * logp.masked_fill(~legal, 0.0)).sum(dim=1)
        value = out.value.squeeze(1)
        target_t = self.tensor(target.astype(np.float32))
        advantage = self.advantages(target_t, value)
        taken = logp.gather(1, action[:, None]).squeeze(1)
        if played is None:
            policy_loss = -(advantage * taken).mean()
        else:
            with torch.no_grad():
                before = torch.log_softmax(rl.masked_logits(played(batch).policy, legal), dim=1)
            old = before.gather(1, action[:, None]).squeeze(1)
            policy_loss = -clipped_surrogate(taken, old, advantage, c["clip"]).mean()
        value_loss = ((value - target_t) ** 2).mean()
        loss = policy_loss + c["value_weight"] * value_loss - c["entropy_weight"] * entropy.mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def advantages(self, target: torch.Tensor, value: torch.Tensor) -> torch.Tensor:
        """How much better each decision turned out than the critic expected; with
        `normalize_advantage`, centred and scaled within the minibatch."""
        advantage = (target - value).detach()
        if self.config["normalize_advantage"] and advantage.numel() > 1:
            advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        return advantage

    def state_dict(self) -> dict[str, Any]:
        return {
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        # The saved optimiser carries the learning rate it ran at; a resume given another
        # (a lower one to settle a run) must use it.
        for group in self.optimizer.param_groups:
            group["lr"] = self.config["lr"]
        self.rng.bit_generator.state = state["rng"]

    def frozen(self) -> PolicyGradient:
        return rl.frozen_twin(self)

    def export(self, out: Path, run: str, generation: int) -> Path:
        method = "advantage actor-critic" if self.actor_critic else "REINFORCE with a baseline"
        kind = f"policy-gradient network ({method}): AlphaZero residual tower, policy and value"
        onnx_path, _, _ = export_model(
            self.net, out, run, generation, "see docs/learners.md", kind=kind
        )
        return onnx_path


def clipped_surrogate(
    logp: torch.Tensor, old_logp: torch.Tensor, advantage: torch.Tensor, clip: float
) -> torch.Tensor:
    """PPO's objective per decision: the probability ratio times the advantage, the ratio
    clipped to [1 - clip, 1 + clip] where that is the smaller; past the clip in the
    advantage's direction it has no gradient, so a batch reused cannot push further.
    A bad move whose ratio has grown large is bounded below at DUAL_CLIP times its
    advantage (dual-clip PPO, Ye et al. 2020): unbounded, one such decision's gradient
    overflowed a run to NaN in its first batch."""
    ratio = torch.exp((logp - old_logp).clamp(max=LOG_RATIO_CAP))
    objective = torch.minimum(ratio * advantage, ratio.clamp(1 - clip, 1 + clip) * advantage)
    return torch.where(advantage < 0, torch.maximum(objective, DUAL_CLIP * advantage), objective)


DUAL_CLIP = 3.0
# e^20: far past any clip; keeps exp() finite whatever the log-probabilities do.
LOG_RATIO_CAP = 20.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--value-weight", type=float, help="weight of the value (critic) loss")
    p.add_argument("--entropy-weight", type=float, help="weight of the entropy bonus")
    switch = {"type": int, "choices": (0, 1)}
    p.add_argument(
        "--normalize-advantage",
        **switch,
        help="1: scale each minibatch's advantages to mean 0, deviation 1",
    )
    p.add_argument("--device", help="where the network runs: cpu or cuda")
    p.add_argument("--epochs", type=int, help="passes over each batch of games (PPO above 1)")
    p.add_argument("--clip", type=float, help="PPO's clip on the probability ratio")
    p.add_argument(
        "--augment",
        **switch,
        help="1: learn each decision in a random board symmetry; 0: as played",
    )


def add_a2c_arguments(p: argparse.ArgumentParser) -> None:
    add_arguments(p)
    p.add_argument("--lam", type=float, help="GAE lambda (1: Monte Carlo returns)")


def main(learner: str, argv: list[str] | None = None) -> int:
    if learner == "a2c":
        return rl.main_for(
            "a2c",
            "Advantage actor-critic on Othello.",
            DEFAULTS,
            add_a2c_arguments,
            PolicyGradient,
            argv,
        )
    defaults = {k: v for k, v in DEFAULTS.items() if k != "lam"}
    return rl.main_for(
        "reinforce",
        "REINFORCE with a baseline on Othello.",
        defaults,
        add_arguments,
        PolicyGradient,
        argv,
    )
