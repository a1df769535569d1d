"""Self-play data: reading the `.npz` batches the Rust `othello selfplay` writes, the replay
window over the last generations, and the eight board symmetries used for augmentation.

The file format (docs/selfplay-data.md) is `SAMPLE_COLUMNS` in
train/contract.py: the arrays, their types and shapes, which may be missing, plus a JSON
sidecar with the same stem (model, settings, seed, board, the games' transcripts).
"""

from __future__ import annotations

import json
import math
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from train.contract import (
    COLUMNS,
    PLANE_ORDER,
    REQUIRED_COLUMNS,
    SAMPLE_COLUMNS,
    SIDECAR_PLANE_NAMES,
    ContractError,
    base_planes,
    input_planes,
    sidecar_board,
)
from train.contract import moves as contract_moves

GENERATION_DIR = re.compile(r"^gen-(\d+)$")


class DataError(ValueError):
    """Self-play data that cannot be used; the message names the file and what is wrong."""


@dataclass
class Samples:
    """The columns of SAMPLE_COLUMNS, in its order; a missing ownership column becomes
    zeros with has_ownership all False, so a batch has every column. `planes` are the base
    planes (input set v1) whatever a file stored: the trainer encodes its network's planes
    from them (contract.encode_inputs)."""

    planes: np.ndarray
    policy: np.ndarray  # normalised to sum to one per row
    value: np.ndarray
    score: np.ndarray
    ownership: np.ndarray | None = None
    has_ownership: np.ndarray | None = None  # bool here, not the file's uint8

    def __post_init__(self) -> None:
        n, board = len(self), self.board
        if self.ownership is None:
            self.ownership = np.zeros((n, board, board), np.int8)
            self.has_ownership = np.zeros(n, bool)
        elif self.has_ownership is None:
            self.has_ownership = np.ones(n, bool)

    def __len__(self) -> int:
        return int(self.planes.shape[0])

    @property
    def board(self) -> int:
        return int(self.planes.shape[-1])

    def columns(self) -> dict[str, np.ndarray]:
        return {c.name: getattr(self, c.name) for c in SAMPLE_COLUMNS}

    def take(self, index: np.ndarray) -> Samples:
        return Samples(**{name: a[index] for name, a in self.columns().items()})

    @staticmethod
    def concat(parts: list[Samples]) -> Samples:
        names = [c.name for c in SAMPLE_COLUMNS]
        return Samples(**{k: np.concatenate([p.columns()[k] for p in parts]) for k in names})


def sidecar_path(npz: Path) -> Path:
    return npz.with_suffix(".json")


def load_npz(path: Path, board: int) -> Samples:
    """One self-play file, checked against the expected board size. Its planes are those
    the sidecar names (v1 without a sidecar or a name), reduced to the base planes."""
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: no such self-play file")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
    except Exception as e:  # zipfile, pickle and format errors all mean the same here
        raise DataError(f"{path}: not a readable .npz file ({e})") from e
    missing = [a for a in REQUIRED_COLUMNS if a not in arrays]
    if missing:
        raise DataError(f"{path}: missing arrays {missing} (has {sorted(arrays)})")
    planes, policy = arrays["planes"], arrays["policy"]
    value, score = arrays["value"], arrays["score"]
    names = plane_names(path)
    if planes.ndim != 4 or planes.shape[2] != planes.shape[3]:
        raise DataError(f"{path}: planes must be [n, {len(names)}, N, N], got {list(planes.shape)}")
    if planes.shape[1] != len(names):
        raise DataError(
            f"{path}: planes have {planes.shape[1]} channels, but the file's planes are "
            f"{len(names)} ({', '.join(names)})"
        )
    if planes.shape[2] != board:
        raise DataError(f"{path}: board size {planes.shape[2]}, expected {board}")
    moves = contract_moves(board)
    if policy.ndim != 2 or policy.shape[1] != moves:
        raise DataError(
            f"{path}: policy must be [n, {moves}] for board {board}, got {list(policy.shape)}"
        )
    n = planes.shape[0]
    lengths = {"planes": n, "policy": policy.shape[0], "value": len(value), "score": len(score)}
    if len(set(lengths.values())) != 1 or value.ndim != 1 or score.ndim != 1:
        shapes = {k: list(arrays[k].shape) for k in REQUIRED_COLUMNS}
        raise DataError(f"{path}: arrays have mismatched lengths: {shapes}")
    if planes.size and planes.max() > 1:
        raise DataError(f"{path}: planes must hold 0 or 1, found {int(planes.max())}")
    policy = policy.astype(np.float32)
    if not np.all(np.isfinite(policy)) or (policy < 0).any():
        raise DataError(f"{path}: policy has negative or non-finite entries")
    totals = policy.sum(axis=1, keepdims=True)
    if (totals <= 0).any():
        raise DataError(f"{path}: policy row {int(np.argmin(totals))} is all zeros")
    if not (np.abs(value) <= 1).all():
        raise DataError(f"{path}: value outside [-1, 1] (it is the game outcome)")
    ownership = arrays.get("ownership")
    if ownership is not None:
        want = COLUMNS["ownership"].shape_for(n, board)
        if ownership.shape != want:
            raise DataError(f"{path}: ownership must be {list(want)}, got {list(ownership.shape)}")
        if ownership.size and (np.abs(ownership.astype(np.int16)) > 1).any():
            raise DataError(f"{path}: ownership must hold -1, 0 or 1")
        ownership = ownership.astype(COLUMNS["ownership"].dtype, copy=False)
    has_ownership = arrays.get("has_ownership")
    if has_ownership is not None:
        if ownership is None or has_ownership.shape != COLUMNS["has_ownership"].shape_for(n, board):
            raise DataError(f"{path}: has_ownership must be [{n}] beside an ownership array")
        has_ownership = has_ownership.astype(bool)
    check_sidecar(path, board)
    try:
        planes = base_planes(planes, names)
    except ContractError as e:
        raise DataError(f"{path}: {e}") from e
    return Samples(
        planes.astype(COLUMNS["planes"].dtype, copy=False),
        # Visit counts and distributions both become distributions: the cross-entropy
        # target must sum to one.
        policy / totals,
        value.astype(COLUMNS["value"].dtype, copy=False),
        score.astype(COLUMNS["score"].dtype, copy=False),
        ownership,
        has_ownership,
    )


def plane_names(npz: Path) -> tuple[str, ...]:
    """The planes a file's `planes` array holds, as its sidecar names them: the learner
    network's. Files from before the field, and without a sidecar, hold v1's. (The rest
    of the sidecar is checked after the arrays, by check_sidecar.)"""
    side = sidecar_path(npz)
    try:
        meta = json.loads(side.read_text()) if side.is_file() else None
    except json.JSONDecodeError as e:
        raise DataError(f"{side}: sidecar is not valid JSON ({e})") from e
    names = meta.get(SIDECAR_PLANE_NAMES) if isinstance(meta, dict) else None
    if names is None:
        return PLANE_ORDER
    try:
        return input_planes(names)
    except ContractError as e:
        raise DataError(f"{sidecar_path(npz)}: {e}") from e


def check_sidecar(npz: Path, board: int) -> dict | None:
    side = sidecar_path(npz)
    if not side.is_file():
        # The arrays are self-describing enough to train on; the sidecar is provenance.
        warnings.warn(f"{npz}: no sidecar {side.name}", stacklevel=3)
        return None
    try:
        meta = json.loads(side.read_text())
    except json.JSONDecodeError as e:
        raise DataError(f"{side}: sidecar is not valid JSON ({e})") from e
    said = sidecar_board(meta) if isinstance(meta, dict) else None
    if said is not None and said != board:
        raise DataError(f"{side}: sidecar says board {said}, expected {board}")
    return meta


def generation_dirs(data_dir: Path) -> list[tuple[int, Path]]:
    """`gen-XXXX` folders under `data_dir`, oldest first."""
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise DataError(f"{data_dir}: no self-play data directory")
    found = []
    for child in data_dir.iterdir():
        m = GENERATION_DIR.match(child.name)
        if m and child.is_dir():
            found.append((int(m.group(1)), child))
    return sorted(found)


def generation_dir(data_dir: Path, generation: int) -> Path:
    return Path(data_dir) / f"gen-{generation:04d}"


def load_window(data_dir: Path, board: int, window: int, upto: int | None = None) -> Samples:
    """All samples of the last `window` generations (up to and including `upto`)."""
    if window < 1:
        raise ValueError(f"replay window must be at least 1 generation, got {window}")
    gens = [(g, d) for g, d in generation_dirs(data_dir) if upto is None or g <= upto]
    files = [f for _, d in gens[-window:] for f in sorted(d.glob("*.npz"))]
    if not files:
        raise DataError(f"{data_dir}: no .npz self-play files in the last {window} generations")
    parts = [load_npz(f, board) for f in files]
    return Samples.concat([p for p in parts if len(p)] or parts[:1])


# The eight symmetries of the square: k quarter turns, after a left-right mirror if
# `flip`. They act on the last two axes (rows, columns).
SYMMETRIES: tuple[tuple[int, bool], ...] = tuple((k, f) for f in (False, True) for k in range(4))


def transform_grid(grid: np.ndarray, sym: int) -> np.ndarray:
    k, flip = SYMMETRIES[sym]
    if flip:
        grid = np.flip(grid, axis=-1)
    return np.rot90(grid, k, axes=(-2, -1))


def inverse(sym: int) -> int:
    k, flip = SYMMETRIES[sym]
    # A mirror followed by a turn is a reflection, its own inverse; a pure turn undoes
    # with the opposite turn.
    return sym if flip else SYMMETRIES.index(((4 - k) % 4, False))


def transform_policy(policy: np.ndarray, sym: int) -> np.ndarray:
    """Moves the square entries [..., N*N] like the board; the pass entry stays last."""
    squares = policy.shape[-1] - 1
    n = math.isqrt(squares)
    grid = policy[..., :squares].reshape(*policy.shape[:-1], n, n)
    moved = transform_grid(grid, sym).reshape(*policy.shape[:-1], squares)
    return np.concatenate([moved, policy[..., squares:]], axis=-1)


def transform(planes: np.ndarray, policy: np.ndarray, sym: int) -> tuple[np.ndarray, np.ndarray]:
    return np.ascontiguousarray(transform_grid(planes, sym)), transform_policy(policy, sym)


def augment(
    planes: np.ndarray,
    policy: np.ndarray,
    rng: np.random.Generator,
    ownership: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """A symmetry drawn at random for each sample of a batch, applied to its planes, its
    policy and its ownership grid alike."""
    syms = rng.integers(0, len(SYMMETRIES), size=planes.shape[0])
    out_planes = np.empty_like(planes)
    out_policy = np.empty_like(policy)
    out_ownership = None if ownership is None else np.empty_like(ownership)
    for s in range(len(SYMMETRIES)):
        idx = np.flatnonzero(syms == s)
        if idx.size:
            out_planes[idx], out_policy[idx] = transform(planes[idx], policy[idx], s)
            if ownership is not None and out_ownership is not None:
                out_ownership[idx] = transform_grid(ownership[idx], s)
    return out_planes, out_policy, out_ownership
