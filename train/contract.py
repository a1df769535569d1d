"""The model contract and the self-play data format, on the Python side: the one place
that says what a network takes and gives (docs/model-contract.md) and what a self-play
sample is (docs/selfplay-data.md). The Rust engine states the same in
crates/engine/src/network (`encode_planes`) and crates/tools/src/selfplay/write.rs;
train/tests/test_contract.py checks that the two encoders agree on real games.

Input: `planes` float32 [batch, PLANES, N, N] from the side to move's view, in
PLANE_ORDER, each plane row-major from a1 (row 0 = rank 1). Outputs: `policy` logits
[batch, N*N + 1] (square indices `row * N + column`, the pass last), `value` [batch, 1]
in [-1, 1], and optionally `score` [batch, 1], the final disc difference / squares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

# The input planes, in order. A new plane is a new contract: every exported network and
# the engine's encoder change with it.
PLANE_ORDER = ("own", "opponent", "legal", "ones")
PLANES = len(PLANE_ORDER)
OWN, OPPONENT, LEGAL, ONES = (PLANE_ORDER.index(p) for p in ("own", "opponent", "legal", "ones"))

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


def input_shape(board: int) -> list[Any]:
    return ["batch", PLANES, board, board]


def output_shapes(board: int, score: bool) -> dict[str, list[Any]]:
    shapes: dict[str, list[Any]] = {"policy": ["batch", moves(board)], "value": ["batch", 1]}
    if score:
        shapes[SCORE_OUTPUT] = ["batch", 1]
    return shapes


def check_card(card: Mapping[str, Any], where: str) -> None:
    """Refuses a model card whose declared inputs are not the contract's planes: a network
    trained on other planes would play legal but meaningless moves."""
    planes = card.get("planes", PLANES)  # cards from before the field meant these planes
    if planes != PLANES:
        raise ContractError(
            f"{where}: the card declares {planes} input planes; the model contract has "
            f"{PLANES} ({', '.join(PLANE_ORDER)})"
        )
    declared = card.get("inputs", {}).get(INPUT)
    board = card.get("board_size")
    if declared is not None and declared[1:] != [PLANES, board, board]:
        raise ContractError(
            f"{where}: the card's input {INPUT} is {declared}, not {input_shape(board)} "
            f"for board {board}"
        )


# ---- self-play data ----


@dataclass(frozen=True)
class Column:
    """One array of a self-play `.npz` file. `shape` names its axes: `n` the samples, `N`
    the board's side, `moves` the policy's N*N + 1, or a number."""

    name: str
    dtype: type[np.generic]
    shape: tuple[str | int, ...]
    required: bool
    meaning: str

    def shape_for(self, n: int, board: int) -> tuple[int, ...]:
        sizes = {"n": n, "N": board, "moves": moves(board)}
        return tuple(sizes[a] if isinstance(a, str) else a for a in self.shape)


# What `othello selfplay` writes (crates/tools/src/selfplay/write.rs), in its order.
SAMPLE_COLUMNS = (
    Column("planes", np.uint8, ("n", PLANES, "N", "N"), True, "the network input, 0 or 1"),
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


def sidecar_board(meta: Mapping[str, Any]) -> int | None:
    for key in SIDECAR_BOARD_KEYS:
        if key in meta:
            return int(meta[key])
    return None
