"""The planes of input set v2 on boolean grids, square by square or line by line: the
tests' reference for train/contract.py's bitboards (and, through them, the engine's).
Slow, and written from the definitions in docs/model-contract.md rather than from either
fast version: the edges by walking every content placements can make, full lines by
counting each line's discs, regions by spreading labels. The legal planes are the rules'
(train/rules.py), which the Python has once."""

from __future__ import annotations

from functools import cache

import numpy as np

from train.tests.positions import legal

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
    """The empty squares where `own` may place, board by board: the rules' own
    (train/rules.py, held to perft counts), not a second statement of them."""
    return np.stack([legal(o, p) for o, p in zip(own, opponent, strict=True)])


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
def edge_keeps(line: tuple[int, ...]) -> np.ndarray:
    """For an edge given as -1 (own), 1 (the other side's) and 0 (empty) per square: the
    squares that are own in every content reachable by placing either side's disc on any
    empty square, flipping along the line as the rules do, in any order."""
    seen = {line}
    todo = [line]
    keeps = np.array([c == -1 for c in line])
    while todo:
        state = todo.pop()
        keeps &= np.array([c == -1 for c in state])
        for square, cell in enumerate(state):
            if cell != 0:
                continue
            for mover in (-1, 1):
                nxt = list(state)
                nxt[square] = mover
                for step in (-1, 1):
                    run, at = [], square + step
                    while 0 <= at < len(state) and state[at] == -mover:
                        run.append(at)
                        at += step
                    if 0 <= at < len(state) and state[at] == mover:
                        for k in run:
                            nxt[k] = mover
                made = tuple(nxt)
                if made not in seen:
                    seen.add(made)
                    todo.append(made)
    return keeps


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
    """The discs of `own` that no sequence of moves can flip, by the rules of
    docs/model-contract.md (Edax's): on an edge, those that are own in every content
    placements on the edge can make (edge_keeps); inside, a disc each of whose four lines
    is full or holds a stable own disc next to it along the line, applied until nothing
    more is found."""
    b, n = own.shape[0], own.shape[-1]
    stable = np.zeros_like(own)
    for rows, cols in _edges(n):
        for k in range(b):
            line = opponent[k, rows, cols].astype(int) - own[k, rows, cols].astype(int)
            stable[k, rows, cols] |= edge_keeps(tuple(line.tolist()))
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


def grid_planes(own: np.ndarray, opponent: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """The planes `names` of boolean grids [B, N, N], as 0/1 uint8 [B, len(names), N, N]."""
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
    return np.stack([features[name]() for name in names], axis=1).astype(np.uint8)
