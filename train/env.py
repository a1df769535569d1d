"""Othello for the learners (`train.dqn`, `train.pg`) and the model report: many games at
once on numpy bitboards.

The AlphaZero loop plays its games in Rust (`othello selfplay`); the learners of issue 14
step their games from Python, one network call per move for a whole batch of games, so the
rules must be vectorised over games rather than fast for one. Boards use the engine's
layout (bit `row * 8 + column`, row 0 = rank 1, a1 = bit 0) on 8x8 and 6x6 alike; a 6x6
board sits in the top-left corner and the off-board bits stay zero. Moves are square
indices `row * N + column` with `N * N` for the pass, as in the model contract's policy.

Legal moves and flips are Kogge-Stone-style shifts along the eight directions (the
method of every bitboard engine, e.g. Edax's `get_moves`), each direction masked to the
squares whose neighbour that way is on the board, so nothing wraps around an edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from train import contract

U64 = np.uint64
DIRECTIONS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


@dataclass(frozen=True)
class Geometry:
    """Everything about one board size that the shifts need."""

    n: int
    on_board: np.uint64
    # Per direction: the bit offset and the squares whose neighbour that way is on board.
    steps: tuple[tuple[int, np.uint64], ...]
    # bits[i] is the bitboard bit of square index i (row-major over the N x N board).
    bits: np.ndarray

    @property
    def squares(self) -> int:
        return self.n * self.n

    @property
    def pass_move(self) -> int:
        return self.squares


@cache
def geometry(n: int) -> Geometry:
    if n not in (4, 6, 8):
        raise ValueError(f"board size {n} is not supported (use 4, 6 or 8)")
    on_board = 0
    for r in range(n):
        for c in range(n):
            on_board |= 1 << (r * 8 + c)
    steps = []
    for dr, dc in DIRECTIONS:
        movable = 0
        for r in range(n):
            for c in range(n):
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    movable |= 1 << (r * 8 + c)
        steps.append((dr * 8 + dc, U64(movable)))
    bits = np.array([r * 8 + c for r in range(n) for c in range(n)], dtype=np.uint64)
    return Geometry(n, U64(on_board), tuple(steps), bits)


def _shift(x: np.ndarray, offset: int) -> np.ndarray:
    return x << U64(offset) if offset > 0 else x >> U64(-offset)


def legal_moves(own: np.ndarray, opp: np.ndarray, geo: Geometry) -> np.ndarray:
    """The squares where the side to move may place a disc, as bitboards."""
    empty = ~(own | opp) & geo.on_board
    moves = np.zeros_like(own)
    for offset, movable in geo.steps:
        run = _shift(own & movable, offset) & opp
        for _ in range(geo.n - 3):
            run |= _shift(run & movable, offset) & opp
        moves |= _shift(run & movable, offset) & empty
    return moves


def flips(own: np.ndarray, opp: np.ndarray, move_bits: np.ndarray, geo: Geometry) -> np.ndarray:
    """The discs each placement in `move_bits` (one bit per board, or 0) turns over."""
    flipped = np.zeros_like(own)
    zero = U64(0)
    for offset, movable in geo.steps:
        run = _shift(move_bits & movable, offset) & opp
        for _ in range(geo.n - 3):
            run |= _shift(run & movable, offset) & opp
        closed = (_shift(run & movable, offset) & own) != zero
        flipped |= np.where(closed, run, zero)
    return flipped


def popcount(x: np.ndarray) -> np.ndarray:
    return np.bitwise_count(x).astype(np.int64)


def move_bits(moves: np.ndarray, geo: Geometry) -> np.ndarray:
    """Square indices to bitboards; the pass (and anything off the board) gives 0."""
    moves = np.asarray(moves)
    placed = moves < geo.squares
    return np.where(placed, U64(1) << geo.bits[np.where(placed, moves, 0)], U64(0))


def bit_grid(x: np.ndarray, geo: Geometry) -> np.ndarray:
    """Bitboards of any shape [...] to their squares [..., N*N] as 0/1 (uint64), in
    policy order."""
    return (x[..., None] >> geo.bits) & U64(1)


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
        m = n // 2
        # Black (to move) on d5/e4, White on d4/e5 (docs/model-contract.md).
        black = (1 << (m * 8 + m - 1)) | (1 << ((m - 1) * 8 + m))
        white = (1 << ((m - 1) * 8 + m - 1)) | (1 << (m * 8 + m))
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


def move_name(move: int, n: int) -> str:
    """Othello notation: `f5`, or `pass`."""
    if move == n * n:
        return "pass"
    return f"{'abcdefgh'[move % n]}{move // n + 1}"
