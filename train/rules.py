"""The rules of Othello, once for all of the trainer's Python: the learners' batched games
(train/env.py), the model contract's legal planes (train/contract.py), the pattern
fixtures (train/make_test_pattern_model.py), the arena's Zebra adapter
(scripts/engines/zebra_move.py) and every test play, check and replay moves through this
module. The engine states the same rules in Rust (crates/othello).

Boards are 4x4, 6x6 or 8x8 in the engine's layout: bit `row * 8 + column` (row 0 = rank
1, a1 = bit 0), a smaller board in the top-left corner with its off-board bits zero.
Squares are indices `row * N + column`, and `N * N` is the pass, as in the model
contract's policy. A position is seen from the side to move: `own` and `opp` bitboards.

One form serves one position and many: `legal_moves` and `flips` take bitboards as Python
ints or as numpy uint64 arrays of any shape, and give back the same, because they use only
shifts, masks and comparisons that both types have (numpy 2 reads the Python int masks as
uint64). So the learners' thousand games at once and a replay of one game run the same
lines, and the module needs nothing beyond the standard library: the Zebra adapter runs
under a bare `python3`. Legal moves and flips are Kogge-Stone-style shifts along the
eight directions (every bitboard engine's method, e.g. Edax's `get_moves`), each
direction masked to the squares whose neighbour that way is on the board, so nothing
wraps around an edge or leaves the board.

train/tests/test_rules.py holds the module to perft counts it did not make: Aart Bik's
published ones from the 8x8 start and the engine's for 6x6 and 4x4.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import numpy as np

# A bitboard: a Python int for one position, a numpy uint64 array for many.
Bits = TypeVar("Bits", int, "np.ndarray")

SIZES = (4, 6, 8)
DIRECTIONS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
FILES = "abcdefgh"


@dataclass(frozen=True)
class Geometry:
    """Everything about one board size that the shifts need."""

    n: int
    on_board: int
    # Per direction: the bit offset and the squares whose neighbour that way is on board.
    steps: tuple[tuple[int, int], ...]
    # bits[i] is the bitboard bit of square index i (row-major over the N x N board).
    bits: tuple[int, ...]

    @property
    def squares(self) -> int:
        return self.n * self.n

    @property
    def pass_move(self) -> int:
        return self.squares


@cache
def geometry(n: int) -> Geometry:
    if n not in SIZES:
        raise ValueError(f"board size {n} is not supported (use 4, 6 or 8)")
    cells = [(r, c) for r in range(n) for c in range(n)]
    bits = tuple(r * 8 + c for r, c in cells)
    steps = []
    for dr, dc in DIRECTIONS:
        movable = sum(1 << (r * 8 + c) for r, c in cells if 0 <= r + dr < n and 0 <= c + dc < n)
        steps.append((dr * 8 + dc, movable))
    return Geometry(n, sum(1 << b for b in bits), tuple(steps), bits)


def _shift(x: Bits, offset: int) -> Bits:
    return x << offset if offset > 0 else x >> -offset


def legal_moves(own: Bits, opp: Bits, geo: Geometry) -> Bits:
    """The squares where the side to move may place a disc: next to a run of the other
    side's discs that one of its own closes."""
    empty = ~(own | opp) & geo.on_board
    moves = 0
    for offset, movable in geo.steps:
        run = _shift(own & movable, offset) & opp
        # A run holds at most N - 2 discs: N - 3 more steps after the first.
        for _ in range(geo.n - 3):
            run |= _shift(run & movable, offset) & opp
        moves |= _shift(run & movable, offset) & empty
    return moves


def flips(own: Bits, opp: Bits, placed: Bits, geo: Geometry) -> Bits:
    """The discs that placing `placed` (one bit per board, or 0 for none) turns over."""
    flipped = 0
    for offset, movable in geo.steps:
        run = _shift(placed & movable, offset) & opp
        for _ in range(geo.n - 3):
            run |= _shift(run & movable, offset) & opp
        closed = (_shift(run & movable, offset) & own) != 0
        # The run counts only where an own disc closes it. Multiplying by the comparison
        # (a bool, or an array of them) keeps one line for an int and for an array.
        flipped |= run * closed
    return flipped


# ---- one position, as Python ints ----


def start(n: int) -> tuple[int, int]:
    """The start, Black to move: (Black's discs, White's). Black on d5/e4 and White on
    d4/e5 on 8x8, the same squares about the centre on the smaller boards."""
    m = geometry(n).n // 2
    black = (1 << (m * 8 + m - 1)) | (1 << ((m - 1) * 8 + m))
    white = (1 << ((m - 1) * 8 + m - 1)) | (1 << (m * 8 + m))
    return black, white


def square_bit(move: int, geo: Geometry) -> int:
    """A square index's bit; the pass (and anything off the board) gives 0."""
    return 1 << geo.bits[move] if 0 <= move < geo.squares else 0


def squares_of(x: int, geo: Geometry) -> list[int]:
    """The square indices of a bitboard's discs, in square order (a1, b1, ...)."""
    return [i for i, b in enumerate(geo.bits) if x >> b & 1]


def play(own: int, opp: int, move: int, geo: Geometry) -> tuple[int, int]:
    """The position after the side to move plays `move` (a square, or the pass), from the
    next mover's side: (its discs, the other side's). Refuses an illegal move, and a pass
    while a placement exists."""
    legal = legal_moves(own, opp, geo)
    placed = square_bit(move, geo)
    if move == geo.pass_move:
        if legal:
            raise ValueError("a pass while the side to move has a move")
        return opp, own
    if not placed & legal:
        raise ValueError(f"{move_name(move, geo.n)} is not a legal move")
    turned = flips(own, opp, placed, geo)
    return opp & ~turned, own | turned | placed


def game_over(own: int, opp: int, geo: Geometry) -> bool:
    """Neither side can place a disc."""
    return legal_moves(own, opp, geo) == 0 and legal_moves(opp, own, geo) == 0


def move_name(move: int, n: int) -> str:
    """Othello notation: `f5`, or `pass`."""
    if move == n * n:
        return "pass"
    return f"{FILES[move % n]}{move // n + 1}"


def parse_move(name: str, n: int) -> int:
    """A move's square index from its name (`f5`, or `pass`)."""
    if name == "pass":
        return n * n
    if len(name) == 2 and name[0] in FILES[:n] and name[1] in "12345678"[:n]:
        return (int(name[1]) - 1) * n + FILES.index(name[0])
    raise ValueError(f"{name!r} is no square of a {n}x{n} board")
