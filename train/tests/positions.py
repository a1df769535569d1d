"""Real positions and self-play batches for the tests, from games played by train/rules.py,
and that module's rules on the boolean grids the tests think in (row 0 = rank 1): the
grids go to bitboards and back here, and the rules are the module's, which
train/tests/test_rules.py holds to published perft counts."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from train import rules


def to_bits(grid: np.ndarray) -> int:
    """A boolean grid [N, N] as a bitboard (Python int)."""
    bits = rules.geometry(grid.shape[0]).bits
    return sum(1 << b for b, on in zip(bits, np.asarray(grid).reshape(-1), strict=True) if on)


def to_grid(x: int, n: int) -> np.ndarray:
    """A bitboard as a boolean grid [N, N]."""
    return np.array([bool(x >> b & 1) for b in rules.geometry(n).bits]).reshape(n, n)


def start(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Black to move: (own, opponent) with d5/e4 black, d4/e5 white on 8x8."""
    black, white = rules.start(n)
    return to_grid(black, n), to_grid(white, n)


def flips(own: np.ndarray, opp: np.ndarray, r: int, c: int) -> list[tuple[int, int]]:
    """The squares placing at (r, c) turns over; none where it is no legal move."""
    n = own.shape[0]
    geo = rules.geometry(n)
    p, o, placed = to_bits(own), to_bits(opp), rules.square_bit(r * n + c, geo)
    if not rules.legal_moves(p, o, geo) & placed:
        return []
    return [divmod(s, n) for s in rules.squares_of(rules.flips(p, o, placed, geo), geo)]


def legal(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    n = own.shape[0]
    return to_grid(rules.legal_moves(to_bits(own), to_bits(opp), rules.geometry(n)), n)


def planes(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    return np.stack([own, opp, legal(own, opp), np.ones_like(own)]).astype(np.uint8)


def random_positions(n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """Positions from random games, side to move's view, as uint8 planes [count, 4, n, n]."""
    geo = rules.geometry(n)
    out: list[np.ndarray] = []
    while len(out) < count:
        own, opp = rules.start(n)
        passes = 0
        while passes < 2 and len(out) < count:
            moves = rules.squares_of(rules.legal_moves(own, opp, geo), geo)
            if moves:
                out.append(planes(to_grid(own, n), to_grid(opp, n)))
                own, opp = rules.play(own, opp, moves[rng.integers(len(moves))], geo)
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
