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

The features of input set v2 are computed here on numpy bitboards, a whole batch at once
(the legal planes by the rules of train/rules.py); the engine computes them its own way,
and the two must agree square for square: the cross-language test holds them to it, and
train/tests/grid_planes.py is a third version, square by square on grids, that both are
checked against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from train import rules

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


# ---- the planes of input set v2, on numpy bitboards [B] ----
#
# The engine's layout: bit `row * 8 + column`, a smaller board in the top-left corner
# (train/rules.py's, whose legal moves the legal planes are). uint64 operations over a
# whole batch at once cost a few microseconds each, where the same work on boolean grids
# took a training step's worth of time; train/tests/grid_planes.py keeps the grid version
# as the tests' reference.

U64 = np.uint64
FILE_A, FILE_H = U64(0x0101_0101_0101_0101), U64(0x8080_8080_8080_8080)
RANK_1, RANK_8 = U64(0xFF), U64(0xFF00_0000_0000_0000)
# The four lines, each as a step up it with the squares that have no next square up it and
# none down it.
LINES = ((1, FILE_H, FILE_A), (8, RANK_8, RANK_1), (9, FILE_H | RANK_8, FILE_A | RANK_1),
         (7, FILE_A | RANK_8, FILE_H | RANK_1))  # fmt: skip


@cache
def _squares(n: int) -> tuple[np.ndarray, np.uint64, np.uint64, tuple[np.uint64, ...]]:
    """The bit of each square (row-major), the board's squares, the squares off its edge,
    and its four quadrants."""
    geo = rules.geometry(n)
    bits = np.array(geo.bits, dtype=U64)
    mask = lambda keep: U64(sum(1 << (r * 8 + c) for r in range(n) for c in range(n) if keep(r, c)))  # noqa: E731
    inside = mask(lambda r, c: 0 < r < n - 1 and 0 < c < n - 1)
    h = n // 2
    quadrants = tuple(mask(lambda r, c, q=q: (r // h, c // h) == divmod(q, 2)) for q in range(4))
    return bits, U64(geo.on_board), inside, quadrants


def to_bitboards(grid: np.ndarray) -> np.ndarray:
    """Boolean grids [B, N, N] as bitboards [B]."""
    b, n = grid.shape[0], grid.shape[-1]
    bits = _squares(n)[0]
    return np.bitwise_or.reduce(grid.reshape(b, n * n).astype(U64) << bits, axis=1)


def to_grids(x: np.ndarray, n: int) -> np.ndarray:
    """Bitboards [B] as boolean grids [B, N, N]."""
    return ((x[:, None] >> _squares(n)[0]) & U64(1)).astype(bool).reshape(-1, n, n)


_NOT_FILE_A, _NOT_FILE_H, _ONE, _EIGHT = ~FILE_A, ~FILE_H, U64(1), U64(8)


def neighbours(x: np.ndarray) -> np.ndarray:
    """The squares of `x` and those next to them (the eight neighbours of each): a row's
    spread sideways, then that up and down, in a few operations rather than eight shifts
    (the region fill calls this in its inner loop)."""
    row = x | ((x & _NOT_FILE_H) << _ONE) | ((x & _NOT_FILE_A) >> _ONE)
    return row | (row << _EIGHT) | (row >> _EIGHT)


def odd_regions(empty: np.ndarray) -> np.ndarray:
    """The empty squares of the regions of empties (connected through the eight
    neighbours) with an odd number of squares: each board's regions one at a time, from
    its lowest empty square not yet in one, grown a neighbour at a time."""
    odd = np.zeros_like(empty)
    left = empty.copy()
    while left.any():
        region = left & (~left + U64(1))  # the lowest square left
        while True:
            grown = neighbours(region) & empty
            if np.array_equal(grown, region):
                break
            region = grown
        odd |= np.where(np.bitwise_count(region) % 2 == 1, region, U64(0))
        left &= ~region
    return odd


def odd_quadrants(empty: np.ndarray, n: int) -> np.ndarray:
    """The empty squares of the quadrants (N/2 x N/2) that hold an odd number of them."""
    odd = np.zeros_like(empty)
    for quadrant in _squares(n)[3]:
        inside = empty & quadrant
        odd |= np.where(np.bitwise_count(inside) % 2 == 1, inside, U64(0))
    return odd


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


def _edge_stable(own: np.ndarray, opponent: np.ndarray, n: int) -> np.ndarray:
    """The discs of `own` on the board's edges that the edge table keeps."""
    table = edge_table(n)
    one = U64(1)
    stable = np.zeros_like(own)
    # Each edge as the bit of its k-th square.
    edges = [
        [k for k in range(n)],
        [(n - 1) * 8 + k for k in range(n)],
        [k * 8 for k in range(n)],
        [k * 8 + n - 1 for k in range(n)],
    ]
    for squares in edges:
        p = sum(((own >> U64(s)) & one) << U64(k) for k, s in enumerate(squares))
        o = sum(((opponent >> U64(s)) & one) << U64(k) for k, s in enumerate(squares))
        kept = table[((p << U64(n)) | o).astype(np.int64)].astype(U64)
        for k, s in enumerate(squares):
            stable |= ((kept >> U64(k)) & one) << U64(s)
    return stable


def stable_discs(own: np.ndarray, opponent: np.ndarray, n: int) -> np.ndarray:
    """The discs of `own` that no sequence of moves can flip, as Edax finds them
    (src/board.c of github.com/abulmo/edax-reversi; docs/model-contract.md states the
    rules): on an edge, those the edge table keeps; inside, a disc each of whose four
    lines is full or holds a stable own disc next to it along the line, applied until
    nothing more is found."""
    _, on_board, inside, _ = _squares(n)
    # Off the board counts as filled: a line of the 8x8 layout is then full exactly when
    # its part on the board is.
    filled = own | opponent | ~on_board
    full = []
    for step, last_up, last_down in LINES:
        line = filled.copy()
        for _ in range(7):
            line &= ((line >> U64(step)) | last_up) & ((line << U64(step)) | last_down)
        full.append(line)
    candidates = own & inside
    stable = _edge_stable(own, opponent, n)
    while True:
        # Inside the board both neighbours along a line are on it: no wrap to mask.
        held = candidates.copy()
        for (step, _, _), line in zip(LINES, full, strict=True):
            held &= line | (stable << U64(step)) | (stable >> U64(step))
        grown = stable | held
        if np.array_equal(grown, stable):
            return stable
        stable = grown


def feature_planes(own: np.ndarray, opponent: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """The planes `names` of positions given as the side to move's discs and the other
    side's, boolean grids [B, N, N]: float32 [B, len(names), N, N]."""
    own, opponent = np.asarray(own, dtype=bool), np.asarray(opponent, dtype=bool)
    n = own.shape[-1]
    geo = rules.geometry(n)
    on_board = _squares(n)[1]
    p, o = to_bitboards(own), to_bitboards(opponent)
    empty = on_board & ~(p | o)
    features = {
        "own": lambda: p,
        "opponent": lambda: o,
        "legal": lambda: rules.legal_moves(p, o, geo),
        "ones": lambda: np.full_like(p, on_board),
        "opponent_legal": lambda: rules.legal_moves(o, p, geo),
        "own_stable": lambda: stable_discs(p, o, n),
        "opponent_stable": lambda: stable_discs(o, p, n),
        # neighbours(empty) holds the empty squares too, which hold no disc.
        "own_frontier": lambda: p & neighbours(empty),
        "opponent_frontier": lambda: o & neighbours(empty),
        "odd_region": lambda: odd_regions(empty),
        "odd_quadrant": lambda: odd_quadrants(empty, n),
    }
    planes = np.empty((own.shape[0], len(names), n, n), dtype=np.float32)
    for index, name in enumerate(input_planes(names)):
        planes[:, index] = to_grids(features[name](), n)
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
