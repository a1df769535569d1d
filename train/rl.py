"""What the learners of issue 14 share: games against a pool of opponents, the run
directory, CPU-time budgets and the evaluation in the Rust arena.

The learners (`train.dqn`, `train.reinforce`, `train.a2c`) differ only in how they act
and how they learn from the games; everything else is here, so the comparison between
them (docs/learners.md) is about the learning method and nothing else: the same network
(train/net.py), the same symmetry augmentation (train/data.py), the same export to the
model contract (train/export.py) and the same evaluation (`othello arena` through
train/othello_cli.py, the AlphaZero loop's own evaluation).

A learner's experience is a batch of games played in lockstep (train/env.py). In each,
the learner meets an opponent drawn from the pool: itself (both sides learn), `random`,
`greedy`, `heuristic` (the classic players, re-implemented here on the same rules and
tables as crates/engine/src/players) or a frozen copy of an earlier self. Every decision
of the learner is recorded with the index of its own next decision in the same game, so
a one-step target (Q-learning, the actor-critic's TD error) and a Monte Carlo return
(REINFORCE) come from the same records: the opponent's reply is part of the environment.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import torch

from train import env, rules
from train.contract import PLANES
from train.data import SYMMETRIES, transform_grid, transform_policy
from train.net import NetConfig
from train.othello_cli import EvalJob, Evaluate, othello_evaluate
from train.rundir import RunFiles, cpu_seconds, write_json_atomic
from train.settings import merged_config

CLASSIC = ("random", "greedy", "heuristic")
OPPONENTS = ("self", "past", *CLASSIC)

# Square values of the heuristic player (van der Ree & Wiering 2013), one quarter of the
# board as in crates/engine/src/players/heuristic.rs; the rest mirrors it.
QUARTERS = {
    8: [[100, -25, 10, 5], [-25, -25, 2, 2], [10, 2, 5, 1], [5, 2, 1, 2]],
    6: [[100, -25, 10], [-25, -25, 2], [10, 2, 5]],
    4: [[100, -25], [-25, 1]],
}


L = TypeVar("L", bound="Learner")


class LearnerError(ValueError):
    pass


def square_table(n: int) -> np.ndarray:
    q = QUARTERS[n]
    return np.array(
        [q[min(r, n - 1 - r)][min(c, n - 1 - c)] for r in range(n) for c in range(n)],
        dtype=np.int64,
    )


def parse_pool(text: str) -> dict[str, float]:
    """`self=4,heuristic=2,random=1` -> normalised weights; unknown names are refused."""
    weights: dict[str, float] = {}
    for part in text.split(","):
        name, _, w = part.strip().partition("=")
        if name not in OPPONENTS:
            raise LearnerError(f"unknown opponent {name!r} (use {', '.join(OPPONENTS)})")
        try:
            weights[name] = float(w) if w else 1.0
        except ValueError as e:
            raise LearnerError(f"bad weight {w!r} for opponent {name}") from e
        if weights[name] < 0:
            raise LearnerError(f"negative weight for opponent {name}")
    total = sum(weights.values())
    if total <= 0:
        raise LearnerError("the opponent pool has no weight")
    return {k: v / total for k, v in weights.items()}


def after_each_move(games: env.Games, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For the games `rows`, every square's placement: (own discs after it, opponent
    discs after it), each [len(rows), N*N], from the mover's point of view; illegal
    squares come back unchanged and must be masked by the caller."""
    geo = games.geo
    own, opp = games.own[rows], games.opp[rows]
    owns = np.empty((rows.size, geo.squares), dtype=np.uint64)
    opps = np.empty_like(owns)
    for sq in range(geo.squares):
        bit = np.full(rows.size, np.uint64(1) << geo.bits[sq], dtype=np.uint64)
        turned = rules.flips(own, opp, bit, geo)
        owns[:, sq] = own | turned | bit
        opps[:, sq] = opp & ~turned
    return owns, opps


def classic_moves(
    kind: str, games: env.Games, rows: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """The classic player `kind`'s moves in the games `rows` (ties broken at random, as
    the engine's players do)."""
    legal = games.legal_mask()[rows]
    noise = rng.random(legal.shape)
    if kind == "random":
        return np.argmax(np.where(legal, noise, -1.0), axis=1)
    squares = games.geo.squares
    owns, opps = after_each_move(games, rows)
    if kind == "greedy":
        score = env.popcount(owns) - env.popcount(games.own[rows])[:, None]
    elif kind == "heuristic":
        table = square_table(games.n)
        geo = games.geo
        score = env.bit_grid(owns, geo).astype(np.int64) @ table
        score -= env.bit_grid(opps, geo).astype(np.int64) @ table
    else:
        raise LearnerError(f"not a classic player: {kind}")
    keyed = np.where(legal[:, :squares], score + noise[:, :squares] * 0.5, -np.inf)
    best = np.argmax(keyed, axis=1)
    return np.where(legal[:, squares], squares, best)


class Actor(Protocol):
    def act(self, planes: np.ndarray, legal: np.ndarray, explore: bool) -> np.ndarray: ...


@dataclass
class Episodes:
    """The learner's decisions in a batch of games. `next_index[i]` is the record of the
    same player's next decision in the same game, or -1 when the game ended first;
    `outcome[i]` is that game's final result for the player who decided (+1, 0, -1)."""

    planes: np.ndarray  # uint8 [R, PLANES, N, N]
    legal: np.ndarray  # bool [R, N*N + 1]
    action: np.ndarray  # int64 [R]
    outcome: np.ndarray  # float32 [R]
    next_index: np.ndarray  # int64 [R]
    game: np.ndarray  # int64 [R]
    opponent: list[str]  # per game
    learner_outcome: np.ndarray  # float32 [games]: the learner's result (self-play: Black's)

    def __len__(self) -> int:
        return int(self.action.shape[0])


def play_games(
    learner: Actor,
    count: int,
    n: int,
    pool: dict[str, float],
    rng: np.random.Generator,
    past: Actor | None = None,
    learner_black: np.ndarray | None = None,
) -> Episodes:
    """Plays `count` games of the learner against opponents drawn from `pool`, the
    learner's colour at random unless `learner_black` gives it game by game, and records
    every decision of the learner that had a choice of placement."""
    names = list(pool)
    if past is None and "past" in names:
        names = [k for k in names if k != "past"] or ["self"]
    weights = np.array([pool.get(k, 0.0) for k in names])
    weights = weights / weights.sum() if weights.sum() > 0 else np.full(len(names), 1 / len(names))
    opponent = [names[i] for i in rng.choice(len(names), size=count, p=weights)]
    selfplay = np.array([o == "self" for o in opponent])
    if learner_black is None:
        learner_black = rng.random(count) < 0.5
    games = env.Games(n, count)
    records: dict[str, list[Any]] = {k: [] for k in ("planes", "legal", "action", "game", "black")}
    last: dict[tuple[int, bool], int] = {}
    next_index: list[int] = []
    while not games.done.all():
        legal = games.legal_mask()
        planes = games.planes()
        live = ~games.done
        learner_moves = live & (selfplay | (games.black_to_move == learner_black))
        actions = np.full(count, games.geo.pass_move, dtype=np.int64)
        rows = np.flatnonzero(learner_moves)
        if rows.size:
            actions[rows] = learner.act(planes[rows], legal[rows], explore=True)
            choice = rows[~legal[rows, -1]]
            for g in choice:
                key = (int(g), bool(games.black_to_move[g]))
                idx = len(next_index)
                if key in last:
                    next_index[last[key]] = idx
                last[key] = idx
                next_index.append(-1)
            records["planes"].append(planes[choice].astype(np.uint8))
            records["legal"].append(legal[choice])
            records["action"].append(actions[choice])
            records["game"].append(choice)
            records["black"].append(games.black_to_move[choice])
        for kind in set(opponent) - {"self"}:
            mask = live & ~learner_moves & np.array([o == kind for o in opponent])
            rows = np.flatnonzero(mask)
            if not rows.size:
                continue
            if kind == "past":
                assert past is not None
                actions[rows] = past.act(planes[rows], legal[rows], explore=True)
            else:
                actions[rows] = classic_moves(kind, games, rows, rng)
        games.play(actions)
    black_result = games.black_outcome()
    squares = games.geo.squares
    cat: dict[str, np.ndarray] = {
        k: np.concatenate(v) if v else np.zeros(0) for k, v in records.items()
    }
    if not next_index:
        cat["planes"] = np.zeros((0, PLANES, n, n), np.uint8)
        cat["legal"] = np.zeros((0, squares + 1), bool)
    game = cat["game"].astype(np.int64)
    black = cat["black"].astype(bool)
    outcome = np.where(black, black_result[game], -black_result[game]).astype(np.float32)
    learner_outcome = np.where(learner_black | selfplay, black_result, -black_result)
    return Episodes(
        planes=cat["planes"],
        legal=cat["legal"].astype(bool),
        action=cat["action"].astype(np.int64),
        outcome=outcome,
        next_index=np.array(next_index, dtype=np.int64),
        game=game,
        opponent=opponent,
        learner_outcome=learner_outcome.astype(np.float32),
    )


def augment_moves(
    planes: np.ndarray, per_move: list[np.ndarray], rng: np.random.Generator
) -> tuple[np.ndarray, list[np.ndarray]]:
    """One of the eight board symmetries drawn for each sample and applied to its planes
    and to each of its arrays over the N*N + 1 moves (the action taken, the legal mask)."""
    syms = rng.integers(0, len(SYMMETRIES), size=planes.shape[0])
    out_planes = np.empty_like(planes)
    out_moves = [np.empty_like(m) for m in per_move]
    for s in range(len(SYMMETRIES)):
        idx = np.flatnonzero(syms == s)
        if idx.size:
            out_planes[idx] = transform_grid(planes[idx], s)
            for src, dst in zip(per_move, out_moves, strict=True):
                dst[idx] = transform_policy(src[idx], s)
    return out_planes, out_moves


def frozen_twin(learner: L) -> L:
    """A copy of a learner that shares everything but its network and its random
    numbers: an earlier self for the opponent pool, which only acts."""
    twin = copy.copy(learner)
    twin.net = copy.deepcopy(learner.net)
    twin.rng = np.random.default_rng(learner.rng.integers(1 << 62))
    return twin


def gumbel_noise(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Gumbel(0, 1) noise: the argmax of logits plus it is a sample of softmax(logits)
    (the Gumbel-max trick), drawn from the caller's own rng."""
    return (-np.log(-np.log(rng.random(shape) + 1e-12) + 1e-12)).astype(np.float32)


def masked_logits(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(~legal, float("-inf"))


# ---- the run directory ----

METRICS = ["iteration", "games", "positions", "loss", "win_rate", "elo", "elo_low", "elo_high"]
METRICS += ["cpu_hours", "seconds", "heuristic_score", "heuristic_low", "heuristic_high"]


class LearnerRun(RunFiles):
    """A learner's run directory, resumed when it exists:
    config.json, state.json (iterations, games, CPU-hours, next evaluation), log.txt,
    metrics.csv (one row per evaluation), checkpoints/latest.pt (the learner's whole
    state, optimiser and replay included where small), models/gen-XXXX.onnx (each
    evaluated network), best.onnx (the newest evaluated), plots/, eval/. The files every
    run keeps are `RunFiles`'s."""

    @classmethod
    def open(cls, root: Path, defaults: dict[str, Any], given: dict[str, Any]) -> LearnerRun:
        root = Path(root)
        path = root / "config.json"
        fixed = ("learner", "board", "blocks", "channels")
        config = merged_config(path, defaults, given, fixed, LearnerError)
        NetConfig(board=config["board"], blocks=config["blocks"], channels=config["channels"])
        parse_pool(config["opponents"])
        for sub in ("checkpoints", "models", "plots", "eval"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        write_json_atomic(path, config)
        return cls(root, config)

    def initial_state(self) -> dict[str, Any]:
        return {"iteration": 0, "games": 0, "cpu_hours": 0.0, "evaluations": 0}

    @property
    def checkpoint(self) -> Path:
        return self.root / "checkpoints" / "latest.pt"

    def add_metrics(self, row: dict[str, Any]) -> None:
        rows = [*self.metrics(), {k: row.get(k, "") for k in METRICS}]
        self.replace_metrics(rows, METRICS)


class Learner(Protocol):
    net: torch.nn.Module
    rng: np.random.Generator

    def act(self, planes: np.ndarray, legal: np.ndarray, explore: bool) -> np.ndarray: ...

    def learn(self, episodes: Episodes) -> float: ...

    def state_dict(self) -> dict[str, Any]: ...

    def load_state_dict(self, state: dict[str, Any]) -> None: ...

    def export(self, out: Path, run: str, generation: int) -> Path: ...

    def frozen(self) -> Actor:
        """A copy of the acting network alone, for the pool's earlier selves."""
        ...


def common_arguments(p: argparse.ArgumentParser, defaults: dict[str, Any]) -> None:
    """Options every learner takes; each is saved in the run's config.json, and one
    given again on a resume replaces the saved value (the shape and board cannot)."""
    p.add_argument("--run", type=Path, required=True, help="run directory (resumed if present)")
    p.add_argument("--board", type=int, choices=(6, 8))
    p.add_argument("--blocks", type=int)
    p.add_argument("--channels", type=int)
    p.add_argument("--games", type=int, help="games per iteration, played in lockstep")
    p.add_argument(
        "--opponents",
        help="opponent pool with weights, e.g. 'self=4,past=2,heuristic=2,greedy=1,random=1'",
    )
    p.add_argument("--lr", type=float)
    p.add_argument("--batch-size", type=int)
    p.add_argument("--seed", type=int)
    p.add_argument("--max-cpu-hours", type=float, help="stop once the run holds this many")
    p.add_argument("--eval-every", type=float, help="evaluate every this many CPU-hours")
    p.add_argument("--eval-games", type=int, help="games per pairing in each evaluation")
    p.add_argument("--eval-players", help="the fixed players (random among them: Elo anchor)")
    p.add_argument("--past-every", type=int, help="iterations between frozen copies")
    p.add_argument("--othello", help="the othello binary (for the evaluation arena)")
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument(
        "--eval-heuristic-games",
        type=int,
        help="games against the heuristic player at each evaluation, played here in numpy"
        " from the standard start with the learner sampling its moves (0: none)",
    )
    p.add_argument(
        "--max-minutes",
        type=float,
        help="stop after this many minutes of wall time in this invocation (a lent"
        " machine's lease), saving as at an evaluation; not kept in config.json",
    )
    p.description = (p.description or "") + f" Defaults: {json.dumps(defaults)}"


COMMON_DEFAULTS: dict[str, Any] = {
    "board": 6,
    "blocks": 4,
    "channels": 32,
    "games": 64,
    "opponents": "self=4,past=2,heuristic=2,greedy=1,random=1",
    "lr": 0.001,
    "batch_size": 256,
    "seed": 1,
    "max_cpu_hours": 0.25,
    "eval_every": 0.025,
    "eval_games": 40,
    "eval_players": "random,greedy,heuristic,alphabeta:depth=2",
    "past_every": 20,
    "othello": "target/release/othello",
    "eval_heuristic_games": 0,
}


def given_options(args: argparse.Namespace) -> dict[str, Any]:
    skip = {"run", "torch_threads", "max_minutes"}
    return {k: v for k, v in vars(args).items() if k not in skip}


def train(
    run: LearnerRun,
    learner: Learner,
    evaluate: Evaluate | None,
    stop: Callable[[], bool] | None = None,
    cpu_clock: Callable[[], float] = cpu_seconds,
) -> dict[str, Any]:
    """Plays and learns until the run holds `max_cpu_hours`, evaluating every
    `eval_every` CPU-hours (the evaluation's games count: the AlphaZero loop counts its
    own too). A killed run loses at most the work since its last evaluation.
    `cpu_clock` reads the CPU seconds spent; a test passes its own, so that when the
    budget and the evaluations come does not depend on the machine's speed."""
    c = run.config
    state = run.state()
    rng = np.random.default_rng([c["seed"], state["iteration"]])
    torch.manual_seed(c["seed"] * 7919 + state["iteration"])
    if run.checkpoint.exists():
        # Saved on whatever device the run last used; load_state_dict moves it to ours.
        state_dict = torch.load(run.checkpoint, map_location="cpu", weights_only=False)
        learner.load_state_dict(state_dict)
        run.log(f"resuming at iteration {state['iteration']} ({state['cpu_hours']:.3f} CPU-h)")
    pool = parse_pool(c["opponents"])
    past: Actor | None = learner.frozen() if state["iteration"] > 0 else None
    base_cpu, base_hours = cpu_clock(), state["cpu_hours"]
    recent: list[float] = []
    wins: list[float] = []
    started = time.time()

    def hours() -> float:
        return base_hours + (cpu_clock() - base_cpu) / 3600

    while hours() < c["max_cpu_hours"] and not (stop and stop()):
        episodes = play_games(learner, c["games"], c["board"], pool, rng, past)
        loss = learner.learn(episodes)
        recent.append(loss)
        versus = np.array([o != "self" for o in episodes.opponent])
        if versus.any():
            wins.append(float(np.mean((episodes.learner_outcome[versus] + 1) / 2)))
        state["iteration"] += 1
        state["games"] += c["games"]
        state["positions"] = state.get("positions", 0) + len(episodes)
        if state["iteration"] % c["past_every"] == 0:
            past = learner.frozen()
        due = state["evaluations"] * c["eval_every"]
        finishing = hours() >= c["max_cpu_hours"] or bool(stop and stop())
        if hours() >= due or finishing:
            gen = state["evaluations"]
            row = {
                "iteration": state["iteration"],
                "games": state["games"],
                "positions": state["positions"],
                "loss": round(float(np.mean(recent)), 5) if recent else "",
                "win_rate": round(float(np.mean(wins)), 4) if wins else "",
                "seconds": round(time.time() - started, 1),
            }
            recent, wins = [], []
            row.update(heuristic_row(learner, c, gen))
            model = learner.export(run.root / "models" / f"gen-{gen:04d}", run.root.name, gen)
            for suffix in (".onnx", ".json"):
                (run.root / f"best{suffix}").write_bytes(model.with_suffix(suffix).read_bytes())
            if evaluate is not None:
                out = run.root / "eval" / f"gen-{gen:04d}"
                out.mkdir(parents=True, exist_ok=True)
                job = EvalJob(
                    c["board"], model, c["eval_players"], c["eval_games"], 0, out,
                    seed=c["seed"] * 1_000_003 + gen, threads=1,
                )  # fmt: skip
                elo, low, high = evaluate(job)
                row.update(elo=round(elo, 1), elo_low=round(low, 1), elo_high=round(high, 1))
            row["cpu_hours"] = round(hours(), 5)
            torch.save(learner.state_dict(), run.checkpoint)
            state.update(cpu_hours=row["cpu_hours"], evaluations=gen + 1)
            run.save_state(state)
            run.add_metrics(row)
            rated = f", Elo {row['elo']} [{row['elo_low']}, {row['elo_high']}]" if evaluate else ""
            if "heuristic_score" in row:
                rated += (
                    f", {row['heuristic_score']:.1%} [{row['heuristic_low']:.1%},"
                    f" {row['heuristic_high']:.1%}] against heuristic"
                )
            run.log(
                f"iteration {state['iteration']}: {state['games']} games, loss {row['loss']}"
                f"{rated}, {row['cpu_hours']:.3f} CPU-hours"
            )
            plot(run)
    return state


def score_against_heuristic(
    learner: Actor, games: int, n: int, seed: int
) -> tuple[float, float, float]:
    """The learner's score (wins and half the draws) in `games` games against the
    heuristic player from the standard start, sampling its moves, Black in the even
    games and White in the odd; and its Wilson 95% interval. The seeds' measure of their
    policy-gradient players (issue 37), played in numpy: it needs no engine binary."""
    from train.report_stats import wilson

    black = np.arange(games) % 2 == 0
    rng = np.random.default_rng(seed)
    e = play_games(learner, games, n, {"heuristic": 1.0}, rng, learner_black=black)
    score = float(np.mean((e.learner_outcome + 1) / 2))
    low, high = wilson(score, games)
    return score, low, high


def heuristic_row(learner: Learner, c: dict[str, Any], gen: int) -> dict[str, float]:
    games = int(c.get("eval_heuristic_games") or 0)
    if games <= 0:
        return {}
    score, low, high = score_against_heuristic(learner, games, c["board"], c["seed"] * 7 + gen)
    return {
        "heuristic_score": round(score, 4),
        "heuristic_low": round(low, 4),
        "heuristic_high": round(high, 4),
    }


def plot(run: LearnerRun) -> None:
    from train.plots import plot_against_heuristic, plot_elo_cpu

    rows = {run.root.name: run.metrics()}
    plot_elo_cpu(run.root / "plots" / "elo-cpu.png", rows)
    plot_against_heuristic(run.root / "plots" / "heuristic.png", rows)


def main_for(
    name: str,
    description: str,
    defaults: dict[str, Any],
    add_arguments: Callable[[argparse.ArgumentParser], None],
    build: Callable[[dict[str, Any]], Learner],
    argv: list[str] | None,
) -> int:
    p = argparse.ArgumentParser(prog=f"python -m train.{name}", description=description)
    common_arguments(p, defaults)
    add_arguments(p)
    args = p.parse_args(argv)
    torch.set_num_threads(args.torch_threads)
    try:
        run = LearnerRun.open(args.run, {**defaults, "learner": name}, given_options(args))
        learner = build(run.config)
        binary = run.config["othello"]
        evaluate = othello_evaluate(binary, "policy:model={model}") if binary else None
        if binary and not Path(binary).exists():
            raise LearnerError(
                f"othello binary {binary} not found (build it: cargo build --release -p cli)"
            )
        stop = None
        if args.max_minutes is not None:
            deadline = time.time() + 60 * args.max_minutes
            stop = lambda: time.time() >= deadline  # noqa: E731
        train(run, learner, evaluate, stop)
    except (LearnerError, ValueError, OSError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0
