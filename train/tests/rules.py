"""Just enough Othello to make real positions for the tests: legal moves and playing a
move on boolean grids (row 0 = rank 1), independent of the code under test."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def start(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Black to move: (own, opponent) with d5/e4 black, d4/e5 white on 8x8."""
    own = np.zeros((n, n), bool)
    opp = np.zeros((n, n), bool)
    m = n // 2
    opp[m - 1, m - 1] = opp[m, m] = True
    own[m, m - 1] = own[m - 1, m] = True
    return own, opp


def flips(own: np.ndarray, opp: np.ndarray, r: int, c: int) -> list[tuple[int, int]]:
    n = own.shape[0]
    if own[r, c] or opp[r, c]:
        return []
    out = []
    for dr, dc in DIRECTIONS:
        line = []
        y, x = r + dr, c + dc
        while 0 <= y < n and 0 <= x < n and opp[y, x]:
            line.append((y, x))
            y, x = y + dr, x + dc
        if line and 0 <= y < n and 0 <= x < n and own[y, x]:
            out += line
    return out


def legal(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    n = own.shape[0]
    return np.array([[bool(flips(own, opp, r, c)) for c in range(n)] for r in range(n)])


def planes(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    return np.stack([own, opp, legal(own, opp), np.ones_like(own)]).astype(np.uint8)


def random_positions(n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """Positions from random games, side to move's view, as uint8 planes [count, 4, n, n]."""
    out: list[np.ndarray] = []
    while len(out) < count:
        own, opp = start(n)
        passes = 0
        while passes < 2 and len(out) < count:
            moves = np.argwhere(legal(own, opp))
            if len(moves):
                out.append(planes(own, opp))
                r, c = moves[rng.integers(len(moves))]
                for y, x in flips(own, opp, r, c):
                    opp[y, x], own[y, x] = False, True
                own[r, c] = True
                passes = 0
            else:
                passes += 1
            own, opp = opp, own
    return np.stack(out)


def random_batch(n: int, count: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A valid self-play batch: real positions, a visit distribution over legal moves."""
    p = random_positions(n, count, rng)
    weights = p[:, 2].reshape(count, -1) * rng.random((count, n * n))
    policy = np.concatenate([weights, np.zeros((count, 1))], axis=1)
    policy /= policy.sum(axis=1, keepdims=True)
    score = rng.integers(-n * n, n * n + 1, size=count).astype(np.float32)
    return {
        "planes": p,
        "policy": policy.astype(np.float32),
        "value": np.sign(score).astype(np.float32),
        "score": score,
    }


def write_batch(path: Path, n: int, count: int, seed: int, **override: np.ndarray) -> Path:
    arrays = {**random_batch(n, count, np.random.default_rng(seed)), **override}
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, **arrays)
    sidecar = {"model": "none", "settings": {"sims": 8}, "seed": seed, "board": n}
    path.with_suffix(".json").write_text(json.dumps(sidecar))
    return path
