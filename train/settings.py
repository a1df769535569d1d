"""The training loop's settings: one table, from which the defaults, the command line's
flags and the checks of a run's config.json are all made, so a new setting is one entry.

A run saves every setting in its config.json when it is created; a resumed run keeps its
saved values (settings added since take their defaults) under the flags given again.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from train import contract
from train.net import NetConfig
from train.othello_cli import SHARD_GAMES
from train.shards import RunError
from train.train import TrainConfig


@dataclass(frozen=True)
class Check:
    """A condition on one value, and what it asks, as the error says it."""

    holds: Callable[[Any], bool]
    asks: str


def at_least(low: int) -> Check:
    return Check(lambda v: v >= low, f"must be at least {low}")


SHARE = Check(lambda v: 0 < v <= 1, "must be above 0 and at most 1")


def known_inputs(spec: str) -> bool:
    try:
        contract.input_planes(spec)
    except contract.ContractError:
        return False
    return True


INPUTS = Check(
    known_inputs,
    f"must be v1, v2 or plane names joined by commas ({', '.join(contract.PLANE_NAMES)})",
)


@dataclass(frozen=True)
class Setting:
    """One setting of a run. `kind` is its type (a bool is an on-switch flag); None is
    allowed only where it is the default (off, or the engine's own default). `fixed`
    settings define what the run is and cannot change once it exists."""

    name: str
    default: Any
    kind: type
    help: str | None = None
    choices: tuple[Any, ...] | None = None
    check: Check | None = None
    fixed: bool = False

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def problem(self, value: Any) -> str | None:
        """What is wrong with `value` for this setting, or None."""
        if value is None:
            return None if self.default is None else f"{self.flag} must be given a value"
        # JSON and argparse give ints where a float is meant; bool is an int to Python.
        numeric = self.kind is float and isinstance(value, int) and not isinstance(value, bool)
        if not (isinstance(value, self.kind) or numeric) or (
            self.kind is not bool and isinstance(value, bool)
        ):
            return f"{self.flag} must be {self.kind.__name__}, not {value!r}"
        if self.choices is not None and value not in self.choices:
            return f"{self.flag} must be one of {', '.join(map(str, self.choices))}, not {value!r}"
        if self.check is not None and not self.check.holds(value):
            return f"{self.flag} {self.check.asks}"
        return None


SETTINGS: tuple[Setting, ...] = (
    # What the run is.
    Setting("board", 8, int, choices=(6, 8), fixed=True),
    Setting("variant", "standard", str, choices=("standard", "reversed"), fixed=True),
    Setting("blocks", 6, int, fixed=True),
    Setting("channels", 64, int, fixed=True),
    # The network's input planes (docs/model-contract.md#input) and KataGo's global
    # pooling bias in its tower: both shape the network, so both are fixed.
    Setting(
        "inputs",
        contract.DEFAULT_INPUTS,
        str,
        "input planes: v1, v2, or plane names joined by commas",
        check=INPUTS,
        fixed=True,
    ),
    Setting(
        "global_pool",
        0,
        int,
        "channels of the global pooling bias in every second residual block (0: off)",
        check=at_least(0),
        fixed=True,
    ),
    # Output heads may be added to a run later (they start from scratch on its tower),
    # never taken away.
    Setting("score_head", False, bool),
    Setting("ownership_head", False, bool),
    Setting("ownership_weight", 0.0, float, "weight of the ownership loss"),
    # Self-play.
    Setting("search", None, str, "self-play's search as an mcts spec, e.g. mcts:gumbel=16"),
    Setting("exact_empties", None, int, "where the solver plays both sides"),
    # Exact targets where the search still plays: recorded positions with at most this
    # many empties (above `exact_empties`) learn the solver's move and margin while the
    # game goes on with the searched move, so the positions the network reaches, not only
    # perfect-play lines, get exact labels.
    Setting(
        "label_empties",
        None,
        int,
        "exact targets for searched positions with at most this many empties",
    ),
    # More positions per game (OLIVAW, Norelli and Panconesi 2022).
    Setting(
        "explored_share",
        None,
        float,
        "also learn unplayed moves with at least this share of a search's visits (OLIVAW)",
        check=SHARE,
    ),
    # Exploration off the agent's own lines, so the network also sees the lopsided
    # positions a weaker player makes. See `othello selfplay --random-moves`.
    Setting(
        "random_moves",
        None,
        float,
        "share of the weaker side's searched moves played at random in self-play",
        check=SHARE,
    ),
    # Below the floor the positions learn the played-out result instead of the search's
    # own estimate (None: random moves down to where the solver plays).
    Setting(
        "random_moves_above",
        None,
        int,
        "with --random-moves: random moves only while more than this many empties remain",
        check=at_least(0),
    ),
    Setting("generations", 10, int, "total generations to reach"),
    Setting("games", 100, int, "self-play games per generation"),
    Setting("sims", 200, int, "MCTS simulations of a full search"),
    # Playout cap randomisation: 0 gives every move a full search of `sims`; N > 0 gives a
    # `full_share` of the moves a full search (recorded for training) and the rest N
    # simulations (played, not recorded).
    Setting("fast_sims", 0, int, "playout cap randomisation: simulations of a fast search"),
    Setting("full_share", 0.25, float, "share of moves with a full search"),
    Setting("threads", 1, int, "threads of each self-play and arena shard"),
    # One `othello` run, one Ray task with --ray. The seeds, and so the games, depend on it.
    Setting(
        "shard_games",
        SHARD_GAMES,
        int,
        "games of a self-play shard (per pairing in an arena)",
        check=at_least(1),
    ),
    Setting("seed", 1, int),
    # Training.
    Setting("window", 4, int, "replay window in generations"),
    Setting("steps", 500, int, "training steps per generation"),
    Setting("batch_size", 256, int),
    Setting("optimizer", "sgd", str, choices=("sgd", "adamw")),
    Setting("lr", 0.02, float),
    Setting("momentum", 0.9, float),
    Setting("weight_decay", 1e-4, float),
    Setting("score_weight", 0.0, float, "weight of the score-head loss"),
    # The value target mixes the outcome with the final disc difference (see train.py).
    Setting("margin_weight", 0.0, float, "share of the disc difference in the value target"),
    Setting("device", "cpu", str, "torch device: cpu, cuda, cuda:1 ..."),
    Setting("othello", "target/release/othello", str, "path to the othello binary"),
    # Gating and evaluation.
    Setting("gate_games", 0, int, "arena games per gate (0: always promote)"),
    Setting("gate_threshold", 0.55, float, "score needed to replace the best"),
    Setting(
        "gate_player",
        "mcts:model={model},sims={sims}",
        str,
        "arena spec template with {model} and {sims}",
    ),
    # Evaluation of each generation's network against fixed classic players (0: off).
    Setting("eval_games", 0, int, "games per pairing against classic players"),
    Setting("eval_sims", 0, int, "network simulations in evaluation games (0: the sims)"),
    # A warm start from another run with the same network shape: generation 0 plays
    # with it and trains on from it.
    Setting("init", None, str, "checkpoint to start from (same network shape)"),
    # A strong player's games for a new run (a bigger network, say) before its own.
    Setting("teacher", None, str, "network (.onnx) whose games the first generations learn"),
    Setting("teacher_generations", 0, int, "generations the teacher plays"),
    Setting("eval_every", 1, int, "evaluate every N-th generation", check=at_least(1)),
    # For comparisons at equal compute (None: run to `generations`).
    Setting("max_cpu_hours", None, float, "stop once the run has spent this much"),
    # Milestones: the best network of every `milestone_every`-th generation is kept, and an
    # `opponent_share` of each generation's games pit the current best against one of them
    # drawn at random (only the current best's moves are recorded), so the network keeps
    # beating what it once beat. 0 turns either off.
    Setting("milestone_every", 0, int, "keep every N-th generation's best"),
    Setting("opponent_share", 0.0, float, "share of games against a random milestone"),
    Setting(
        "eval_players",
        "random,greedy,heuristic,alphabeta:depth=2",
        str,
        "classic opponents, as an arena player list",
    ),
)

BY_NAME = {s.name: s for s in SETTINGS}
DEFAULTS: dict[str, Any] = {s.name: s.default for s in SETTINGS}
# Changing these mid-run would mix incompatible networks or data.
FIXED_KEYS = tuple(s.name for s in SETTINGS if s.fixed)


def add_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per setting, defaulting to None (not given: the run keeps its value)."""
    for s in SETTINGS:
        if s.kind is bool:
            parser.add_argument(s.flag, action="store_true", default=None, help=s.help)
        else:
            parser.add_argument(s.flag, type=s.kind, choices=s.choices, help=s.help)


def labels_above_solver(c: Mapping[str, Any]) -> bool:
    label, exact = c["label_empties"], c["exact_empties"]
    return label >= 1 and (exact is None or label > exact)


# Conditions between settings, each with its error: checked after every setting alone.
RULES: tuple[tuple[Callable[[Mapping[str, Any]], bool], str], ...] = (
    (
        lambda c: not (c["teacher_generations"] > 0 and not c["teacher"]),
        "--teacher-generations needs a --teacher network",
    ),
    (
        lambda c: c["label_empties"] is None or labels_above_solver(c),
        "--label-empties must be above --exact-empties (where the solver plays)",
    ),
    (
        lambda c: c["random_moves_above"] is None or c["random_moves"] is not None,
        "--random-moves-above needs --random-moves",
    ),
)


def validate(config: Mapping[str, Any]) -> None:
    """Raises RunError with the first thing wrong with a run's settings."""
    for s in SETTINGS:
        problem = s.problem(config[s.name])
        if problem is not None:
            raise RunError(problem)
    try:
        net_config(config)
    except ValueError as e:
        raise RunError(str(e)) from e
    for holds, message in RULES:
        if not holds(config):
            raise RunError(message)
    if config["teacher"] and not Path(config["teacher"]).is_file():
        raise RunError(f"teacher network {config['teacher']} not found")


def merged_config(
    path: Path,
    defaults: dict[str, Any],
    given: dict[str, Any],
    fixed: Iterable[str],
    error: type[Exception],
) -> dict[str, Any]:
    """A run's settings: the saved ones (settings added since the run began take their
    defaults) with those given now (None: not given) on top, or the defaults and those
    given for a new run. Changing a `fixed` one of a run raises `error`."""
    given = {k: v for k, v in given.items() if v is not None}
    if not path.exists():
        return {**defaults, **given}
    config = {**defaults, **json.loads(path.read_text())}
    for key in fixed:
        if key in given and given[key] != config[key]:
            raise error(
                f"{path.parent}: the run was created with {key}={config[key]}, "
                f"not {given[key]}; start a new run to change it"
            )
    return {**config, **given}


def load(path: Path, given: dict[str, Any]) -> dict[str, Any]:
    """The checked settings of the run whose config.json is at `path` (new or not) with
    `given` on top."""
    config = merged_config(path, DEFAULTS, given, FIXED_KEYS, RunError)
    validate(config)
    return config


def net_config(c: Mapping[str, Any]) -> NetConfig:
    return NetConfig(
        board=c["board"], blocks=c["blocks"], channels=c["channels"], inputs=c["inputs"],
        global_pool=c["global_pool"], score_head=c["score_head"],
        ownership_head=c["ownership_head"],
    )  # fmt: skip


def train_config(c: Mapping[str, Any]) -> TrainConfig:
    return TrainConfig(
        optimizer=c["optimizer"], lr=c["lr"], momentum=c["momentum"],
        weight_decay=c["weight_decay"], batch_size=c["batch_size"],
        score_weight=c["score_weight"], ownership_weight=c["ownership_weight"],
        margin_weight=c["margin_weight"], seed=c["seed"],
    )  # fmt: skip
