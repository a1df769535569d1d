"""The model contract and the self-play data format, on the Python side: the one place
that says what a network takes and gives (docs/model-contract.md) and what a self-play
sample is (docs/selfplay-data.md). The Rust engine states the same in
crates/engine/src/network (`InputPlanes::encode`, the features in `features.rs`) and
crates/tools/src/selfplay/write.rs; train/tests/test_contract.py checks that the two
encoders agree on real games.

Input: `planes` float32 [batch, C, N, N] from the side to move's view, the C planes the
model card names (`plane_names`; a card without it means input set v1, PLANE_ORDER), each
plane row-major from a1 (row 0 = rank 1). Outputs: `policy` logits [batch, N*N + 1]
(square indices `row * N + column`, the pass last), `value` [batch, 1] in [-1, 1], and
optionally `score` [batch, 1], the final disc difference / squares.

The features of input set v2 are computed here on boolean grids [B, N, N], a whole batch
at once, and independently of the engine's bitboards: the two must agree square for
square, and the cross-language test holds them to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

# Every plane a network may take, by its name on a model card, in the order
# docs/model-contract.md defines them (the engine's `Plane::ALL`). A new plane is a new
# name here and in the engine's encoder, with the cross-language test extended.
PLANE_NAMES = (
    "own",  # the side to move's discs
    "opponent",  # the other side's discs
    "legal",  # the side to move's legal placements (none when it must pass)
    "ones",  # every square: where the board ends, for a convolution
    "opponent_legal",  # the other side's legal placements, as if it were to move
    "own_stable",  # the side to move's stable discs (stable_discs)
    "opponent_stable",
    "own_frontier",  # the side to move's discs next to an empty square
    "opponent_frontier",
    "odd_region",  # the empty squares of odd-sized regions of empties (odd_regions)
    "odd_quadrant",  # the empty squares of quadrants with an odd number of empties
)
# The named input sets. v1 is the four planes of every network before sets had names (and
# of every card that names none); v2 begins with them, so a v1 stem grows into a v2 one.
INPUT_SETS: dict[str, tuple[str, ...]] = {"v1": PLANE_NAMES[:4], "v2": PLANE_NAMES[:10]}
DEFAULT_INPUTS = "v1"
# The base planes: input set v1, what the trainer keeps of every self-play sample and
# encodes its network's planes from (the other planes are functions of the discs).
PLANE_ORDER = INPUT_SETS["v1"]
PLANES = len(PLANE_ORDER)
OWN, OPPONENT, LEGAL, ONES = (PLANE_ORDER.index(p) for p in ("own", "opponent", "legal", "ones"))
# The model card's list of plane names.
CARD_PLANE_NAMES = "plane_names"

INPUT = "planes"
OUTPUTS = ("policy", "value")
SCORE_OUTPUT = "score"


class ContractError(ValueError):
    """A model or its card that does not follow the contract; the message says where."""


def moves(board: int) -> int:
    """Entries of the policy: every square, then the pass."""
    return board * board + 1


def encode(own: np.ndarray, opponent: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The network input for positions given as 0/1 grids [B, N, N] from the side to
    move's view (its discs, the opponent's, its legal placements): float32 [B, PLANES, N, N]."""
    grids = {"own": own, "opponent": opponent, "legal": legal}
    shape = np.shape(own)
    if len(shape) != 3 or shape[1] != shape[2] or any(np.shape(g) != shape for g in grids.values()):
        raise ValueError(
            f"encode takes three [B, N, N] grids, got {[list(np.shape(g)) for g in grids.values()]}"
        )
    planes = np.empty((shape[0], PLANES, shape[1], shape[2]), dtype=np.float32)
    for index, name in enumerate(PLANE_ORDER):
        planes[:, index] = 1.0 if name == "ones" else grids[name]
    return planes


def input_shape(board: int, planes: int = PLANES) -> list[Any]:
    return ["batch", planes, board, board]


def output_shapes(board: int, score: bool) -> dict[str, list[Any]]:
    shapes: dict[str, list[Any]] = {"policy": ["batch", moves(board)], "value": ["batch", 1]}
    if score:
        shapes[SCORE_OUTPUT] = ["batch", 1]
    return shapes


def input_planes(spec: str | Sequence[str]) -> tuple[str, ...]:
    """The plane names of an input set: `v1`, `v2`, names joined by commas, or a sequence of
    names. Refuses an unknown or repeated name, or none, as the engine does."""
    if isinstance(spec, str):
        if spec.strip() in INPUT_SETS:
            return INPUT_SETS[spec.strip()]
        names = [n.strip() for n in spec.split(",")]
    else:
        names = list(spec)
    for name in names:
        if name not in PLANE_NAMES:
            raise ContractError(
                f"input plane {name!r} is not known (the planes are {', '.join(PLANE_NAMES)}; "
                f"the sets {', '.join(INPUT_SETS)})"
            )
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ContractError(f"input planes {repeated} are named twice")
    if not names:
        raise ContractError("an input set needs at least one plane")
    return tuple(names)


def input_set_name(names: Sequence[str]) -> str:
    """`v1` or `v2` for those sets, else the names joined by commas (what input_planes
    reads back, and the engine's `InputPlanes` prints)."""
    for name, planes in INPUT_SETS.items():
        if tuple(names) == planes:
            return name
    return ",".join(names)


def card_planes(card: Mapping[str, Any]) -> tuple[str, ...]:
    """The planes a model card's network takes: its `plane_names`, or input set v1."""
    names = card.get(CARD_PLANE_NAMES)
    return INPUT_SETS[DEFAULT_INPUTS] if names is None else input_planes(names)


def check_card(card: Mapping[str, Any], where: str) -> None:
    """Refuses a model card whose declared inputs are not planes the contract knows, or
    whose count, names and shape disagree: a network fed other planes than it was trained
    on would play legal but meaningless moves."""
    try:
        names = card_planes(card)
    except ContractError as e:
        raise ContractError(f"{where}: {e}") from e
    planes = card.get("planes", len(names))
    if planes != len(names):
        unnamed = "" if CARD_PLANE_NAMES in card else ": input set v1, as it names no plane_names"
        raise ContractError(
            f"{where}: the card declares {planes} input planes, but names "
            f"{len(names)} ({', '.join(names)}{unnamed})"
        )
    declared = card.get("inputs", {}).get(INPUT)
    board = card.get("board_size")
    if declared is not None and declared[1:] != [len(names), board, board]:
        raise ContractError(
            f"{where}: the card's input {INPUT} is {declared}, not "
            f"{input_shape(board, len(names))} for board {board}"
        )


# ---- the planes of input set v2, on boolean grids [B, N, N] ----

# The eight directions (row step, column step), and the four lines through a square.
DIRECTIONS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))


def shifted(grid: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """out[..., r, c] = grid[..., r + dr, c + dc], False (0) off the board."""
    n = grid.shape[-1]
    out = np.zeros_like(grid)
    if abs(dr) >= n or abs(dc) >= n:
        return out
    rows_to, rows_from = slice(max(0, -dr), n - max(0, dr)), slice(max(0, dr), n - max(0, -dr))
    cols_to, cols_from = slice(max(0, -dc), n - max(0, dc)), slice(max(0, dc), n - max(0, -dc))
    out[..., rows_to, cols_to] = grid[..., rows_from, cols_from]
    return out


def legal_grid(own: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """The empty squares where `own` may place: next to a run of `opponent` discs that one
    of its own discs closes, in some direction."""
    n = own.shape[-1]
    moves = np.zeros_like(own)
    for dr, dc in DIRECTIONS:
        run = shifted(opponent, dr, dc)  # the first k - 1 squares that way are the opponent's
        for k in range(2, n):
            moves |= run & shifted(own, k * dr, k * dc)
            run = run & shifted(opponent, k * dr, k * dc)
    return moves & ~(own | opponent)


def frontier_grid(discs: np.ndarray, empty: np.ndarray) -> np.ndarray:
    """The discs with an empty square among their eight neighbours."""
    near = np.zeros_like(empty)
    for dr, dc in DIRECTIONS:
        near |= shifted(empty, dr, dc)
    return discs & near


def odd_region_grid(empty: np.ndarray) -> np.ndarray:
    """The empty squares of the regions of empties (connected through the eight neighbours)
    with an odd number of squares. Every empty square takes the largest label of its
    region, spread a neighbour at a time; the regions' sizes are the labels' counts."""
    b, n = empty.shape[0], empty.shape[-1]
    squares = n * n
    label = np.where(empty, np.arange(squares).reshape(n, n), -1)
    while True:
        spread = label.copy()
        for dr, dc in DIRECTIONS:
            neighbour = shifted(label + 1, dr, dc) - 1  # -1 off the board, as a disc
            spread = np.maximum(spread, neighbour)
        spread = np.where(empty, spread, -1)
        if np.array_equal(spread, label):
            break
        label = spread
    flat = label.reshape(b, squares)
    index = np.arange(b)[:, None] * squares + np.where(flat >= 0, flat, 0)
    sizes = np.bincount(index[flat >= 0], minlength=b * squares)
    return empty & (sizes[index].reshape(b, n, n) % 2 == 1)


def odd_quadrant_grid(empty: np.ndarray) -> np.ndarray:
    """The empty squares of the quadrants (N/2 x N/2) holding an odd number of empties."""
    b, n = empty.shape[0], empty.shape[-1]
    h = n // 2
    counts = empty.reshape(b, 2, h, 2, h).sum(axis=(2, 4))
    odd = np.repeat(np.repeat(counts % 2 == 1, h, axis=1), h, axis=2)
    return empty & odd


@cache
def edge_table(n: int) -> np.ndarray:
    """For every edge of length n, indexed `own * 2**n + opponent` (bit k: the edge's k-th
    square): the own discs that are own on every edge either side can make by placing discs
    on its empty squares, in any order and whether or not the rest of the board would allow
    it. An edge disc can only be flipped along its edge, so these are stable. Filled from
    the full edges down, as every placement adds a disc."""
    table = np.zeros(1 << (2 * n), dtype=np.int64)

    def place(mover: int, other: int, square: int) -> tuple[int, int]:
        flipped = 0
        for step in (-1, 1):
            run, at = 0, square + step
            while 0 <= at < n and other >> at & 1:
                run |= 1 << at
                at += step
            if 0 <= at < n and mover >> at & 1:
                flipped |= run
        return mover | flipped | 1 << square, other & ~flipped

    for occupied in sorted(range(1 << n), key=lambda o: -bin(o).count("1")):
        for own in range(1 << n):
            if own & ~occupied:
                continue
            opponent = occupied ^ own
            stable = own
            for square in range(n):
                if occupied >> square & 1:
                    continue
                p, o = place(own, opponent, square)
                stable &= int(table[p << n | o])
                o, p = place(opponent, own, square)
                stable &= int(table[p << n | o])
            table[own << n | opponent] = stable
    return table


def _edges(n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The four edges as (rows, columns) index arrays, square k of each at [k]."""
    k, last = np.arange(n), np.full(n, n - 1)
    zero = np.zeros(n, dtype=np.int64)
    return [(zero, k), (last, k), (k, zero), (k, last)]


def _line_full(filled: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """Whether the whole line through each square in direction (dr, dc) is filled: each
    square of a line gets the line's id, and a line is full when its count of filled
    squares is its length."""
    b, n = filled.shape[0], filled.shape[-1]
    if (dr, dc) == (0, 1):
        ids = np.repeat(np.arange(n), n)
    elif (dr, dc) == (1, 0):
        ids = np.tile(np.arange(n), n)
    elif (dr, dc) == (1, 1):
        ids = (np.arange(n)[:, None] - np.arange(n)[None, :] + n - 1).reshape(-1)
    else:
        ids = (np.arange(n)[:, None] + np.arange(n)[None, :]).reshape(-1)
    onehot = np.eye(ids.max() + 1, dtype=np.int64)[ids]  # [N*N, lines]
    counts = filled.reshape(b, n * n).astype(np.int64) @ onehot
    full = counts == onehot.sum(axis=0)
    return full[:, ids].reshape(b, n, n)


def stable_grid(own: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """The discs of `own` that no sequence of moves can flip, as Edax finds them
    (src/board.c of github.com/abulmo/edax-reversi): on an edge, those the edge table
    keeps; inside, a disc each of whose four lines is full or holds a stable own disc next
    to it along the line, applied until nothing more is found."""
    n = own.shape[-1]
    table = edge_table(n)
    weights = 1 << np.arange(n)
    stable = np.zeros_like(own)
    for rows, cols in _edges(n):
        p = (own[:, rows, cols] * weights).sum(axis=1)
        o = (opponent[:, rows, cols] * weights).sum(axis=1)
        kept = table[(p << n) | o]
        stable[:, rows, cols] |= (kept[:, None] >> np.arange(n)) & 1 == 1
    filled = own | opponent
    full = [_line_full(filled, dr, dc) for dr, dc in LINES]
    inside = np.zeros((n, n), dtype=bool)
    inside[1:-1, 1:-1] = True
    candidates = own & inside
    while True:
        held = candidates.copy()
        for (dr, dc), line_full in zip(LINES, full, strict=True):
            held &= line_full | shifted(stable, dr, dc) | shifted(stable, -dr, -dc)
        grown = stable | held
        if np.array_equal(grown, stable):
            return stable
        stable = grown


def feature_planes(own: np.ndarray, opponent: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """The planes `names` of positions given as the side to move's discs and the other
    side's, boolean grids [B, N, N]: float32 [B, len(names), N, N]."""
    own, opponent = np.asarray(own, dtype=bool), np.asarray(opponent, dtype=bool)
    empty = ~(own | opponent)
    features = {
        "own": lambda: own,
        "opponent": lambda: opponent,
        "legal": lambda: legal_grid(own, opponent),
        "ones": lambda: np.ones_like(own),
        "opponent_legal": lambda: legal_grid(opponent, own),
        "own_stable": lambda: stable_grid(own, opponent),
        "opponent_stable": lambda: stable_grid(opponent, own),
        "own_frontier": lambda: frontier_grid(own, empty),
        "opponent_frontier": lambda: frontier_grid(opponent, empty),
        "odd_region": lambda: odd_region_grid(empty),
        "odd_quadrant": lambda: odd_quadrant_grid(empty),
    }
    b, n = own.shape[0], own.shape[-1]
    planes = np.empty((b, len(names), n, n), dtype=np.float32)
    for index, name in enumerate(input_planes(names)):
        planes[:, index] = features[name]()
    return planes


def encode_inputs(base: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """A network's input from base planes [B, PLANES, N, N] (input set v1, what the trainer
    keeps of every sample): float32 [B, len(names), N, N]. v1 is the base planes as they
    are; any other set is computed from the discs."""
    names = input_planes(names)
    if names == PLANE_ORDER:
        return np.asarray(base, dtype=np.float32)
    return feature_planes(base[:, OWN] > 0, base[:, OPPONENT] > 0, names)


def base_planes(planes: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """The base planes (v1) of stored planes [B, len(names), N, N] named `names`, as
    uint8: found by name where the set has them, else computed from the discs."""
    names = tuple(names)
    if names[:PLANES] == PLANE_ORDER:
        return np.ascontiguousarray(planes[:, :PLANES], dtype=np.uint8)
    missing = [p for p in ("own", "opponent") if p not in names]
    if missing:
        raise ContractError(f"planes {list(names)} hold no {' or '.join(missing)} discs")
    own = planes[:, names.index("own")] > 0
    opponent = planes[:, names.index("opponent")] > 0
    return feature_planes(own, opponent, PLANE_ORDER).astype(np.uint8)


# ---- self-play data ----


@dataclass(frozen=True)
class Column:
    """One array of a self-play `.npz` file. `shape` names its axes: `n` the samples, `N`
    the board's side, `moves` the policy's N*N + 1, `C` the planes (the sidecar's
    `plane_names`, v1's four without), or a number."""

    name: str
    dtype: type[np.generic]
    shape: tuple[str | int, ...]
    required: bool
    meaning: str

    def shape_for(self, n: int, board: int, planes: int = PLANES) -> tuple[int, ...]:
        sizes = {"n": n, "N": board, "moves": moves(board), "C": planes}
        return tuple(sizes[a] if isinstance(a, str) else a for a in self.shape)


# What `othello selfplay` writes (crates/tools/src/selfplay/write.rs), in its order.
SAMPLE_COLUMNS = (
    Column("planes", np.uint8, ("n", "C", "N", "N"), True, "the network input, 0 or 1"),
    Column("policy", np.float32, ("n", "moves"), True, "the search's policy target"),
    Column("value", np.float32, ("n",), True, "the outcome for the side to move, in [-1, 1]"),
    Column("score", np.float32, ("n",), True, "the final disc difference for the side to move"),
    # Files from before it have none.
    Column("ownership", np.int8, ("n", "N", "N"), False, "final owners: 1 own, -1 theirs, 0"),
    # 0 where the game's end is not the sample's (a position the search explored but the
    # game did not play); files without it: all known.
    Column("has_ownership", np.uint8, ("n",), False, "1 where ownership is a real target"),
)
COLUMNS = {c.name: c for c in SAMPLE_COLUMNS}
REQUIRED_COLUMNS = tuple(c.name for c in SAMPLE_COLUMNS if c.required)

# The sidecar `<stem>.json` beside each file: provenance, not needed to train. The board
# is `board_size` as the engine writes it, `board` in older and hand-made files.
SIDECAR_BOARD_KEYS = ("board_size", "board")
# One transcript per game, its moves run together (`f5d6c3...`, `pass` for a pass).
SIDECAR_TRANSCRIPTS = "transcripts"
# The planes of the file's `planes` array, in order: the learner network's planes
# (input set v1 in files from before the field, and where no network played).
SIDECAR_PLANE_NAMES = "plane_names"


def sidecar_board(meta: Mapping[str, Any]) -> int | None:
    for key in SIDECAR_BOARD_KEYS:
        if key in meta:
            return int(meta[key])
    return None
