"""The numbers behind the model report (`train.report`): arena games replayed from the
model's side, corner and waiting statistics, disc count and mobility by ply, policy
entropy by game phase, symmetry consistency of the network, and score intervals.

Everything here is a function of game records and of an `Evaluate` callable (planes ->
policy logits, value), so it is tested without the `othello` binary or a real network.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from train.contract import LEGAL
from train.data import SYMMETRIES, inverse, transform_grid, transform_policy
from train.env import Games, popcount
from train.othello_cli import Z95
from train.rules import legal_moves

# planes [B, PLANES, N, N] (train/contract.py) -> (policy logits [B, N*N + 1], value [B])
Evaluate = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]

PHASES = ("opening", "midgame", "endgame")
MOVE = re.compile(r"pass|[a-h][1-8]", re.IGNORECASE)


class ReportError(ValueError):
    """Input the report cannot use; the message says which and why."""


def parse_transcript(text: str, n: int) -> list[int]:
    """`f5d6pass...` (the arena's transcripts, passes written) to policy indices."""
    moves = []
    pos = 0
    for m in MOVE.finditer(text):
        if m.start() != pos:
            raise ReportError(f"bad transcript near {text[pos : pos + 8]!r}")
        pos = m.end()
        token = m.group().lower()
        if token == "pass":
            moves.append(n * n)
            continue
        col, row = ord(token[0]) - ord("a"), int(token[1]) - 1
        if col >= n or row >= n:
            raise ReportError(f"move {token} is off the {n}x{n} board")
        moves.append(row * n + col)
    if pos != len(text):
        raise ReportError(f"bad transcript near {text[pos : pos + 8]!r}")
    return moves


def corners(n: int) -> tuple[int, ...]:
    return (0, n - 1, n * (n - 1), n * n - 1)


@dataclass
class ModelGame:
    """One arena game of the model, from its side."""

    opponent: str
    model_black: bool
    moves: list[int]
    opening_plies: int  # the arena's random opening, played by neither side
    black_margin: int

    @property
    def margin(self) -> int:
        return self.black_margin if self.model_black else -self.black_margin


def model_games(report: dict[str, Any], me: int, n: int) -> list[ModelGame]:
    """The games of player `me` in an `othello arena` report (its `arena.json`)."""
    try:
        players: list[str] = report["players"]
        openings: list[str] = report["openings"]
        games = []
        for g in report["games"]:
            if me not in (g["black"], g["white"]):
                continue
            other = g["white"] if g["black"] == me else g["black"]
            games.append(
                ModelGame(
                    opponent=players[other],
                    model_black=g["black"] == me,
                    moves=parse_transcript(g["transcript"], n),
                    opening_plies=len(parse_transcript(openings[g["opening"]], n)),
                    black_margin=int(g["black_margin"]),
                )
            )
    except (KeyError, IndexError, TypeError) as e:
        raise ReportError(f"not an arena report with transcripts ({e!r} missing)") from e
    return games


@dataclass
class Replay:
    """One game replayed. Arrays by ply: index i is the position before move i (the last
    one is the final position)."""

    model_discs: np.ndarray
    opponent_discs: np.ndarray
    model_mobility: np.ndarray  # legal placements of each side, whoever is to move
    opponent_mobility: np.ndarray
    # The model's own turns with a placement to choose, after the opening:
    corner_chance: list[bool] = field(default_factory=list)
    took_corner: list[bool] = field(default_factory=list)
    planes: list[np.ndarray] = field(default_factory=list)
    empties: list[int] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)  # the move it played


def replay(game: ModelGame, n: int, reversed_rules: bool = False) -> Replay:
    g = Games(n, 1, reversed_rules)
    geo = g.geo
    corner_set = set(corners(n))
    rows: list[tuple[int, int, int, int]] = []
    r = Replay(*(np.zeros(0, np.int64) for _ in range(4)))
    for ply in range(len(game.moves) + 1):
        model_to_move = bool(g.black_to_move[0]) == game.model_black
        own, opp = int(popcount(g.own)[0]), int(popcount(g.opp)[0])
        own_mob = int(popcount(legal_moves(g.own, g.opp, geo))[0])
        opp_mob = int(popcount(legal_moves(g.opp, g.own, geo))[0])
        if model_to_move:
            rows.append((own, opp, own_mob, opp_mob))
        else:
            rows.append((opp, own, opp_mob, own_mob))
        if ply == len(game.moves):
            break
        move = game.moves[ply]
        if model_to_move and ply >= game.opening_plies and own_mob > 0:
            legal = np.flatnonzero(g.legal_mask()[0, : n * n])
            r.corner_chance.append(bool(corner_set.intersection(legal.tolist())))
            r.took_corner.append(move in corner_set)
            r.planes.append(g.planes()[0])
            r.empties.append(n * n - own - opp)
            r.chosen.append(move)
        try:
            g.play(np.array([move]))
        except ValueError as e:
            raise ReportError(f"illegal move at ply {ply + 1} of a game ({e})") from e
    r.model_discs, r.opponent_discs, r.model_mobility, r.opponent_mobility = (
        np.array(col, dtype=np.int64) for col in zip(*rows, strict=True)
    )
    return r


@dataclass
class CornerStats:
    turns: int = 0  # the model's turns with a choice
    chances: int = 0  # of them, turns with a corner among the legal moves
    taken: int = 0  # of those, turns it took one
    games_with_chance: int = 0
    games_taken: int = 0  # games where it took a corner after its first chance
    waits: list[int] = field(default_factory=list)  # own turns from first chance to taking
    censored: list[int] = field(default_factory=list)  # the same where it never took one

    @property
    def rate(self) -> float:
        return self.taken / self.chances if self.chances else math.nan

    @property
    def mean_wait(self) -> float:
        return float(np.mean(self.waits)) if self.waits else math.nan

    @property
    def mean_censored(self) -> float:
        return float(np.mean(self.censored)) if self.censored else math.nan

    def add(self, chance: Sequence[bool], took: Sequence[bool]) -> None:
        """One game's turns: whether a corner was legal, and whether the move was one."""
        self.turns += len(chance)
        self.chances += sum(chance)
        self.taken += sum(c and t for c, t in zip(chance, took, strict=True))
        first = next((i for i, c in enumerate(chance) if c), None)
        if first is None:
            return
        self.games_with_chance += 1
        # A corner taken without a chance cannot happen: taking one means it was legal.
        taken_at = next((i for i in range(first, len(took)) if took[i]), None)
        if taken_at is None:
            self.censored.append(len(chance) - first)
        else:
            self.games_taken += 1
            self.waits.append(taken_at - first)


def policy_probabilities(logits: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Softmax over the legal moves only, as the engine's evaluator does."""
    masked = np.where(legal, logits.astype(np.float64), -np.inf)
    masked -= masked.max(axis=1, keepdims=True)
    e = np.exp(masked)
    return e / e.sum(axis=1, keepdims=True)


def entropy(p: np.ndarray) -> np.ndarray:
    """In nats, row by row; zero probabilities contribute nothing."""
    logs = np.log(np.where(p > 0, p, 1.0))
    return -(p * logs).sum(axis=1)


def legal_from_planes(planes: np.ndarray) -> np.ndarray:
    """[B, N*N + 1] legal moves from the legal-move plane (the pass when none)."""
    squares = planes[:, LEGAL].reshape(planes.shape[0], -1) > 0.5
    return np.concatenate([squares, ~squares.any(axis=1, keepdims=True)], axis=1)


def phase(empties: np.ndarray, n: int) -> np.ndarray:
    """0 opening, 1 midgame, 2 endgame: thirds of the squares the game fills."""
    fill = n * n - 4
    played = fill - np.asarray(empties)
    return np.minimum(played * 3 // fill, 2)


def r_squared(y: np.ndarray, y_hat: np.ndarray) -> float:
    """1 - residual / total sum of squares of `y_hat` predicting `y`."""
    y, y_hat = np.ravel(y).astype(np.float64), np.ravel(y_hat).astype(np.float64)
    total = float(np.sum((y - y.mean()) ** 2))
    if total == 0.0:
        return math.nan
    return 1.0 - float(np.sum((y - y_hat) ** 2)) / total


@dataclass
class SymmetryStats:
    """R^2 between the network's outputs on a position and on its transforms (mapped
    back), per symmetry (index 0 is the identity) and pooled over the seven others."""

    policy: list[float]
    value: list[float]
    policy_pooled: float
    value_pooled: float
    positions: int
    # Per symmetry: the share of positions where the mapped-back policy's favourite move
    # is the untransformed one's (what a player without search would play).
    same_move: list[float] = field(default_factory=list)


def symmetry_consistency(evaluate: Evaluate, planes: np.ndarray) -> SymmetryStats:
    legal = legal_from_planes(planes)
    logits, value = evaluate(planes)
    base_p = policy_probabilities(logits, legal)
    per_p, per_v, all_p, all_v, same = [], [], [], [], []
    for s in range(len(SYMMETRIES)):
        moved = np.ascontiguousarray(transform_grid(planes, s))
        s_logits, s_value = evaluate(moved)
        s_p = policy_probabilities(s_logits, legal_from_planes(moved))
        back = transform_policy(s_p, inverse(s))
        # Only legal moves: illegal ones are zero on both sides and would inflate R^2.
        per_p.append(r_squared(base_p[legal], back[legal]))
        per_v.append(r_squared(value, s_value))
        same.append(float(np.mean(back.argmax(axis=1) == base_p.argmax(axis=1))))
        if s:
            all_p.append(back[legal])
            all_v.append(s_value)
    base_p_pool = np.concatenate([base_p[legal]] * (len(SYMMETRIES) - 1))
    base_v_pool = np.concatenate([value] * (len(SYMMETRIES) - 1))
    return SymmetryStats(
        per_p,
        per_v,
        r_squared(base_p_pool, np.concatenate(all_p)),
        r_squared(base_v_pool, np.concatenate(all_v)),
        int(planes.shape[0]),
        same,
    )


@dataclass
class EntropyStats:
    mean: list[float]  # per phase, nats
    uniform: list[float]  # mean ln(legal moves): a uniform policy's entropy
    positions: list[int]


def evaluate_all(evaluate: Evaluate, planes: np.ndarray, batch: int = 512) -> np.ndarray:
    """The policy logits of every position, in batches."""
    parts = [evaluate(planes[i : i + batch])[0] for i in range(0, len(planes), batch)]
    n = planes.shape[-1]
    return np.concatenate(parts) if parts else np.zeros((0, n * n + 1), np.float32)


def entropy_by_phase(
    logits: np.ndarray, planes: np.ndarray, empties: np.ndarray, n: int
) -> EntropyStats:
    legal = legal_from_planes(planes)
    h = entropy(policy_probabilities(logits, legal)) if len(planes) else np.zeros(0)
    uniform = np.log(legal.sum(axis=1))
    ph = phase(empties, n)
    mean, uni, count = [], [], []
    for k in range(len(PHASES)):
        sel = ph == k
        count.append(int(sel.sum()))
        mean.append(float(h[sel].mean()) if sel.any() else math.nan)
        uni.append(float(uniform[sel].mean()) if sel.any() else math.nan)
    return EntropyStats(mean, uni, count)


def mean_by_ply(series: Sequence[np.ndarray], min_games: int) -> tuple[np.ndarray, np.ndarray]:
    """Mean over the games still under way at each ply; plies fewer than `min_games`
    games reach are left out (a handful of long games would make the tail noise)."""
    longest = max((len(s) for s in series), default=0)
    plies, means = [], []
    for i in range(longest):
        values = [s[i] for s in series if len(s) > i]
        if len(values) >= min_games:
            plies.append(i)
            means.append(float(np.mean(values)))
    return np.array(plies), np.array(means)


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    def add(self, margin: int) -> None:
        self.wins += margin > 0
        self.draws += margin == 0
        self.losses += margin < 0


def wilson(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval. The docs' normal intervals (on 100-200 games) collapse
    to a point at 0% or 100%, which ten games a colour often give; Wilson's does not."""
    if games == 0:
        return math.nan, math.nan
    centre = (score + z * z / (2 * games)) / (1 + z * z / games)
    half = z / (1 + z * z / games) * math.sqrt(score * (1 - score) / games + z * z / (4 * games**2))
    return max(0.0, centre - half), min(1.0, centre + half)


# ---- what the report's command (train.report) hands its page (train.report_page) ----


@dataclass
class Model:
    path: Path
    name: str
    board: int
    variant: str
    card: dict[str, Any]


@dataclass
class Analysis:
    model: Model
    player: str
    games: list[ModelGame]
    wins: dict[str, tuple[Tally, Tally]]  # opponent -> (as Black, as White)
    corners: dict[str, CornerStats]  # opponent (and "all") -> stats
    curves: dict[str, tuple[np.ndarray, np.ndarray]]  # name -> (plies, mean)
    entropy: EntropyStats
    symmetry: SymmetryStats
    # Positions where the policy head's favourite is the move the arena's player made: all
    # of them for `policy:` (the probes see the board as the engine does), fewer with search.
    agreement: tuple[int, int]
