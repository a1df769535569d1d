"""Othello for the learners (`train.dqn`, `train.pg`) and the model report: many games at
once on numpy bitboards.

The AlphaZero loop plays its games in Rust (`othello selfplay`); the learners of issue 14
step their games from Python, one network call per move for a whole batch of games, so the
rules must be vectorised over games rather than fast for one. They are train/rules.py's,
whose legal moves and flips take a numpy array of bitboards as they take one: this module
keeps the games' bookkeeping (turns, passes, the end, the outcome) and the conversions to
the model contract's squares and planes. Boards use the engine's layout (bit
`row * 8 + column`, row 0 = rank 1, a1 = bit 0) on 8x8, 6x6 and 4x4 alike. Moves are
square indices `row * N + column` with `N * N` for the pass, as in the model contract's
policy.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from train import contract, rules
from train.rules import Geometry, flips, geometry, legal_moves

U64 = np.uint64


@cache
def _bits(n: int) -> np.ndarray:
    """The bit of each square index, as a uint64 array to shift by."""
    return np.array(geometry(n).bits, dtype=U64)


def popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x).astype(np.int64)


def move_bits(moves: np.ndarray, geo: Geometry) -> np.ndarray:
    """Square indices to bitboards; the pass (and anything off the board) gives 0."""
    moves = np.asarray(moves)
    placed = moves < geo.squares
    return np.where(placed, U64(1) << _bits(geo.n)[np.where(placed, moves, 0)], U64(0))


def bit_grid(x: np.ndarray, geo: Geometry) -> np.ndarray:
    """Bitboards of any shape [...] to their squares [..., N*N] as 0/1 (uint64), in
    policy order."""
    return (x[..., None] >> _bits(geo.n)) & U64(1)


def mask_to_moves(mask: np.ndarray, geo: Geometry) -> np.ndarray:
    """Bitboards to [B, N*N + 1] booleans in policy order; the pass is legal exactly when
    nothing else is."""
    squares = bit_grid(mask, geo).astype(bool)
    return np.concatenate([squares, ~squares.any(axis=1, keepdims=True)], axis=1)


class Games:
    """B games played in lockstep from the side to move's point of view: `own` is the
    mover's discs. Finished games stay finished and ignore the moves given to them."""

    def __init__(self, n: int, count: int, reversed_rules: bool = False) -> None:
        self.geo = geometry(n)
        self.reversed_rules = reversed_rules
        black, white = rules.start(n)
        self.own = np.full(count, black, dtype=np.uint64)
        self.opp = np.full(count, white, dtype=np.uint64)
        self.black_to_move = np.ones(count, dtype=bool)
        self.done = np.zeros(count, dtype=bool)
        self.plies = np.zeros(count, dtype=np.int64)
        self._legal = legal_moves(self.own, self.opp, self.geo)

    @property
    def n(self) -> int:
        return self.geo.n

    def __len__(self) -> int:
        return self.own.shape[0]

    def legal_mask(self) -> np.ndarray:
        """[B, N*N + 1] legal moves in policy order (finished games: only the pass)."""
        return mask_to_moves(np.where(self.done, U64(0), self._legal), self.geo)

    def planes(self) -> np.ndarray:
        """The model contract's input (train/contract.py)."""
        return encode_planes(self.own, self.opp, self._legal, self.geo)

    def play(self, moves: np.ndarray) -> None:
        """Plays one move in every unfinished game; raises on an illegal one."""
        moves = np.asarray(moves, dtype=np.int64)
        live = ~self.done
        legal = self.legal_mask()
        rows = np.arange(len(self))
        in_range = (moves >= 0) & (moves <= self.geo.squares)
        ok = in_range & legal[rows, np.clip(moves, 0, self.geo.squares)]
        if np.any(live & ~ok):
            bad = int(np.flatnonzero(live & ~ok)[0])
            raise ValueError(f"illegal move {moves[bad]} in game {bad}")
        placed = move_bits(np.where(live, moves, self.geo.pass_move), self.geo)
        turned = flips(self.own, self.opp, placed, self.geo)
        new_own = np.where(live, self.opp & ~turned, self.own)
        new_opp = np.where(live, self.own | turned | placed, self.opp)
        self.own, self.opp = new_own, new_opp
        self.black_to_move = np.where(live, ~self.black_to_move, self.black_to_move)
        self.plies += live
        self._legal = legal_moves(self.own, self.opp, self.geo)
        # Over when the new mover has no placement and neither would the other side.
        stuck = self._legal == U64(0)
        if np.any(stuck & live):
            other = legal_moves(self.opp, self.own, self.geo)
            self.done |= live & stuck & (other == U64(0))

    def discs(self) -> tuple[np.ndarray, np.ndarray]:
        """Disc counts (side to move, opponent)."""
        return popcount(self.own), popcount(self.opp)

    def outcome(self) -> np.ndarray:
        """+1, 0 or -1 for the side to move, under the variant's rules."""
        diff = popcount(self.own) - popcount(self.opp)
        return np.sign(-diff if self.reversed_rules else diff).astype(np.float32)

    def black_outcome(self) -> np.ndarray:
        return np.where(self.black_to_move, self.outcome(), -self.outcome())


def encode_planes(own: np.ndarray, opp: np.ndarray, legal: np.ndarray, geo: Geometry) -> np.ndarray:
    """Bitboards [B] of the side to move's discs, the opponent's and its legal placements
    as the model contract's input."""
    b = own.shape[0]
    grids = [bit_grid(x, geo).reshape(b, geo.n, geo.n) for x in (own, opp, legal)]
    return contract.encode(*grids)
