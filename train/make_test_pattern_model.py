"""Writes the pattern network fixtures of the engine's tests: for 8x8 and 6x6, an untrained
pattern network from a fixed seed (`pattern-test-NxN.onnx` and its card `.json`) and
`pattern-test-NxN.expected.json`, positions of random games at every stage with PyTorch's
whole-position evaluation of each:

    [{"board": "<board text>", "score": ..., "value": ..., "score_sum": ..., "value_sum": ...,
      "symmetric": {"score": ..., "value": ..., "score_sum": ..., "value_sum": ...}}]

`score` = clamp(score_sum, -1, 1) and `value` = tanh(value_sum), for the side to move.
`symmetric` holds the same from the sums averaged over the position's eight images under
the board's symmetries: what the engine's tables give (docs/model-contract.md).

`pattern-test-global-8x8` is a small network with a global network beside its patterns
(three patterns, the global network fed both sides' mobility, the parity and the stage),
the same files for it.

    python -m train.make_test_pattern_model [--out crates/engine/tests/data]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch

from train import contract, rules
from train.pattern import (
    DEFAULT_GLOBAL_HIDDEN,
    Pattern,
    PatternConfig,
    PatternNet,
    board_text,
    export_model,
    stage,
)

DEFAULT_OUT = Path("crates/engine/tests/data")
SEED = 58
POSITIONS = 40
# The standard deviation of a position's sums over the fixtures' positions: the score's
# clamp is reached by a few positions and not by most.
SPREAD = 0.7
# The global fixture's patterns: few and small, so that its tables build fast in a test.
GLOBAL_FIXTURE_PATTERNS = (
    ("corner3x3", ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")),
    ("line2", tuple(f"{c}2" for c in "abcdefgh")),
    ("diag5", ("d1", "e2", "f3", "g4", "h5")),
)
# How much more the global network's last layer is scaled than the patterns': its one
# term a position then weighs about as much as a pattern's instances together, so a
# reader that dropped or misread it fails the checks by far more than the rounding.
GLOBAL_WEIGHT = 4.0


def random_game(n: int, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """The positions of a random game from the start where the side to move has a move,
    then the final one: (black, white, black to move), as boolean grids."""
    geo = rules.geometry(n)
    black, white = rules.start(n)
    black_to_move, passes, out = True, 0, []

    def position() -> tuple[np.ndarray, np.ndarray, bool]:
        grids = contract.to_grids(np.array([black, white], dtype=np.uint64), n)
        return grids[0], grids[1], black_to_move

    while True:
        own, opp = (black, white) if black_to_move else (white, black)
        moves = rules.squares_of(rules.legal_moves(own, opp, geo), geo)
        if moves:
            out.append(position())
            opp, own = rules.play(own, opp, moves[rng.integers(len(moves))], geo)
            black, white = (own, opp) if black_to_move else (opp, own)
            passes = 0
        else:
            passes += 1
            if passes == 2:
                out.append(position())
                return out
        black_to_move = not black_to_move


def sample_positions(n: int, stages: int, count: int, seed: int) -> list[tuple[np.ndarray, ...]]:
    """`count` positions from random games, spread over every stage and both sides to
    move."""
    rng = np.random.default_rng(seed)
    pool: list[tuple[np.ndarray, np.ndarray, bool]] = []
    for _ in range(12):
        pool += random_game(n, rng)
    by_bucket: dict[tuple[int, bool], list[int]] = {}
    for i, (b, w, mover) in enumerate(pool):
        key = (int(stage(int(b.sum() + w.sum()), n, stages)), mover)
        by_bucket.setdefault(key, []).append(i)
    chosen: list[int] = []
    keys = sorted(by_bucket)
    while len(chosen) < count:
        progressed = False
        for key in keys:
            left = [i for i in by_bucket[key] if i not in chosen]
            if left and len(chosen) < count:
                chosen.append(left[rng.integers(len(left))])
                progressed = True
        if not progressed:
            break
    return [pool[i] for i in sorted(chosen)]


def build(
    board: int,
    seed: int,
    positions: list[tuple[np.ndarray, ...]],
    config: PatternConfig | None = None,
) -> PatternNet:
    """Random weights from `seed`, the last layers then scaled and shifted so that the
    sums over `positions` have mean 0 and spread SPREAD: PyTorch's initialisation alone
    gives sums dominated by the biases, the same for every position."""
    torch.manual_seed(seed)
    net = PatternNet(config or PatternConfig.default(board)).eval()
    with torch.no_grad():
        own, opp = position_tensors(positions)
        if net.global_mlp is not None:
            last = net.global_mlp.layers[-1]
            last.weight.mul_(GLOBAL_WEIGHT)
            last.bias.mul_(GLOBAL_WEIGHT)
        sums = net.sums(own, opp)
        mean, std = sums.mean(0), sums.std(0)
        scale = SPREAD / std
        terms = sum(net.instance_counts()) + (net.global_mlp is not None)
        share = mean * scale / terms
        lasts = [mlp.layers[-1] for mlp in net.mlps]
        if net.global_mlp is not None:
            lasts.append(net.global_mlp.layers[-1])
        for last in lasts:
            last.weight.mul_(scale[:, None])
            # Each term moves by -share: the sum's mean by -mean * scale.
            last.bias.mul_(scale).sub_(share)
    return net


def position_tensors(positions: list[tuple[np.ndarray, ...]]) -> tuple[torch.Tensor, torch.Tensor]:
    """(own, opponent) float32 [B, N, N] of (black, white, black to move) positions."""
    own = [b if mover else w for b, w, mover in positions]
    opp = [w if mover else b for b, w, mover in positions]
    return (
        torch.from_numpy(np.stack(own).astype(np.float32)),
        torch.from_numpy(np.stack(opp).astype(np.float32)),
    )


@torch.no_grad()
def expected(net: PatternNet, positions: list[tuple[np.ndarray, ...]]) -> list[dict[str, object]]:
    rows = []
    for black, white, mover in positions:
        own, opp = (black, white) if mover else (white, black)
        o = torch.from_numpy(np.asarray(own, np.float32))[None]
        p = torch.from_numpy(np.asarray(opp, np.float32))[None]
        sums = net.sums(o, p)[0]
        score, value = net(o, p)
        mean = torch.stack([net.sums(*image)[0] for image in symmetric_images(o, p)]).mean(0)
        rows.append(
            {
                "board": board_text(black, white, bool(mover)),
                "score": float(score[0]),
                "value": float(value[0]),
                "score_sum": float(sums[0]),
                "value_sum": float(sums[1]),
                "symmetric": {
                    "score": float(mean[0].clamp(-1, 1)),
                    "value": float(torch.tanh(mean[1])),
                    "score_sum": float(mean[0]),
                    "value_sum": float(mean[1]),
                },
            }
        )
    return rows


def symmetric_images(
    own: torch.Tensor, opp: torch.Tensor
) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """The eight images of [1, N, N] grids under the board's turns and mirrors."""
    out = []
    for mirrored in (False, True):
        o, p = (own.transpose(1, 2), opp.transpose(1, 2)) if mirrored else (own, opp)
        for k in range(4):
            out.append((torch.rot90(o, k, (1, 2)), torch.rot90(p, k, (1, 2))))
    return out


def global_config() -> PatternConfig:
    """The global fixture's layout: GLOBAL_FIXTURE_PATTERNS and a global network."""
    patterns = tuple(Pattern(name, squares) for name, squares in GLOBAL_FIXTURE_PATTERNS)
    return PatternConfig(8, 10, patterns, global_hidden=DEFAULT_GLOBAL_HIDDEN)


def write(
    out: Path,
    board: int,
    seed: int = SEED,
    count: int = POSITIONS,
    config: PatternConfig | None = None,
    name: str | None = None,
) -> list[Path]:
    stages = (config or PatternConfig.default(board)).stages
    positions = sample_positions(board, stages, count, seed)
    net = build(board, seed, positions, config)
    stem = out / (name or f"pattern-test-{board}x{board}")
    training = {
        "seed": seed,
        "note": "untrained, random weights from a fixed seed (python -m "
        "train.make_test_pattern_model): for the engine's tests only",
    }
    paths = list(export_model(net, stem, training))
    path = stem.with_name(stem.name + ".expected.json")
    rows = expected(net, positions)
    path.write_text("[\n" + ",\n".join("  " + json.dumps(r) for r in rows) + "\n]\n")
    return [*paths, path]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m train.make_test_pattern_model")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    for board in (8, 6):
        print("wrote " + ", ".join(str(p) for p in write(args.out, board, args.seed)))
    paths = write(args.out, 8, args.seed, config=global_config(), name="pattern-test-global-8x8")
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
