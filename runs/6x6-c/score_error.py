"""How far a network's score head is from the exact best margin on the positions of an
`othello accuracy --json` report (docs/training.md, "A measure with far less noise"):
mean absolute error, mean signed error and correlation by empties, overall and on the
lopsided positions (best margin 16 discs or more either way).

    python runs/6x6-c/score_error.py REPORT.json MODEL.onnx [MODEL.onnx ...]
"""

from __future__ import annotations

import json
import sys

import numpy as np
import onnxruntime as ort

from train.env import encode_planes, geometry, legal_moves

BOARD = 6
RANGES = ((16, 19), (20, 23), (24, 27))
LOPSIDED = 16  # discs of best margin, either way


def side_to_move_boards(position: str) -> tuple[int, int]:
    """(mover's discs, opponent's discs) as bitboards of an 8-wide grid, from a report's
    `position` (36 squares of X, O or -, a space, the side to move)."""
    black = white = 0
    for i, square in enumerate(position[: BOARD * BOARD]):
        row, col = divmod(i, BOARD)
        bit = 1 << (row * 8 + col)
        black |= bit if square == "X" else 0
        white |= bit if square == "O" else 0
    return (black, white) if position[BOARD * BOARD + 1] == "X" else (white, black)


def main(argv: list[str]) -> None:
    with open(argv[0]) as f:
        report = json.load(f)
    moves = report["moves"]
    geo = geometry(BOARD)
    boards = [side_to_move_boards(m["position"]) for m in moves]
    own = np.array([b[0] for b in boards], dtype=np.uint64)
    opp = np.array([b[1] for b in boards], dtype=np.uint64)
    planes = encode_planes(own, opp, legal_moves(own, opp, geo), geo)
    truth = np.array([m["best_margin"] for m in moves], dtype=float)
    empties = np.array([m["empties"] for m in moves])
    for model in argv[1:]:
        session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
        names = [o.name for o in session.get_outputs()]
        outputs = dict(zip(names, session.run(None, {"planes": planes}), strict=True))
        estimate = outputs["score"][:, 0] * BOARD * BOARD
        error = estimate - truth
        towards_zero = -error * np.sign(truth)
        print(model)
        for lo, hi in RANGES:
            at = (empties >= lo) & (empties <= hi)
            lopsided = at & (np.abs(truth) >= LOPSIDED)
            corr = np.corrcoef(estimate[at], truth[at])[0, 1]
            print(
                f"  {lo}-{hi} empties: {at.sum()} positions, error {np.abs(error[at]).mean():.2f}"
                f" (signed {error[at].mean():+.2f}, correlation {corr:.3f}); lopsided"
                f" {lopsided.sum()}: {np.abs(error[lopsided]).mean():.2f}"
                f" (signed {error[lopsided].mean():+.2f},"
                f" towards an even game {towards_zero[lopsided].mean():+.2f})"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
