"""`python -m train.score_error REPORT.json MODEL.onnx [MODEL.onnx ...]`: how far each
network's score head is from the exact best margin on the positions of an
`othello accuracy --json` report (docs/training.md, "A wider tower does not fit them
either"): by ranges of empties, the mean absolute error in discs, the mean signed error
and the correlation, overall and on the lopsided positions (best margin `--lopsided`
discs or more either way), where it also says how far the estimate leans towards an
even game.

    python -m train.score_error runs/6x6-c/accuracy/gen-57.json models/az-6x6.onnx \\
        [--ranges 16-19,20-23,24-27] [--lopsided 16]

The networks run in ONNX Runtime on the planes their cards name, so what is measured is
the file that ships.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from train import contract, rules
from train.pattern import PatternError, parse_board_text

RANGES = ((16, 19), (20, 23), (24, 27))
LOPSIDED = 16  # discs of best margin, either way


class ScoreError(ValueError):
    """A report or a network this command cannot read."""


@dataclass(frozen=True)
class Positions:
    """A report's positions: base planes (input set v1) from the side to move's view, the
    exact best margin of each in discs, and its empties."""

    board: int
    planes: np.ndarray
    truth: np.ndarray
    empties: np.ndarray


@dataclass(frozen=True)
class RangeError:
    """The score head's errors, in discs, on the positions of one range of empties."""

    low: int
    high: int
    positions: int
    error: float
    signed: float
    correlation: float
    lopsided: int
    lopsided_error: float
    lopsided_signed: float
    # How much nearer an even game than the truth the estimate is, on the lopsided ones.
    towards_even: float

    def line(self) -> str:
        return (
            f"  {self.low}-{self.high} empties: {self.positions} positions, error "
            f"{self.error:.2f} (signed {self.signed:+.2f}, correlation {self.correlation:.3f});"
            f" lopsided {self.lopsided}: {self.lopsided_error:.2f}"
            f" (signed {self.lopsided_signed:+.2f},"
            f" towards an even game {self.towards_even:+.2f})"
        )


def read_report(path: Path) -> Positions:
    """The positions of an `othello accuracy --json` report (its `moves`: `position` as
    board text, `best_margin`, `empties`)."""
    try:
        moves = json.loads(path.read_text())["moves"]
        boards = [parse_board_text(m["position"]) for m in moves]
        truth = np.array([m["best_margin"] for m in moves], dtype=float)
        empties = np.array([m["empties"] for m in moves], dtype=np.int64)
    except (OSError, json.JSONDecodeError, KeyError, TypeError, PatternError) as e:
        raise ScoreError(f"{path} is not an accuracy report with positions: {e}") from e
    if not boards:
        raise ScoreError(f"{path} holds no positions")
    n = boards[0][0].shape[0]
    own = contract.to_bitboards(np.stack([b[0] for b in boards]) > 0)
    opp = contract.to_bitboards(np.stack([b[1] for b in boards]) > 0)
    legal = rules.legal_moves(own, opp, rules.geometry(n))
    planes = contract.encode(*(contract.to_grids(x, n) for x in (own, opp, legal)))
    return Positions(n, planes, truth, empties)


def score_estimates(model: Path, positions: Positions) -> np.ndarray:
    """The network's score for every position, in discs for the side to move."""
    import onnxruntime

    card_path = model.with_suffix(".json")
    card = json.loads(card_path.read_text()) if card_path.exists() else {}
    names = contract.card_planes(card)
    session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    outputs = [o.name for o in session.get_outputs()]
    if contract.SCORE_OUTPUT not in outputs:
        raise ScoreError(f"{model} has no {contract.SCORE_OUTPUT} output")
    feed = {contract.INPUT: contract.encode_inputs(positions.planes, names)}
    score = dict(zip(outputs, session.run(None, feed), strict=True))[contract.SCORE_OUTPUT]
    return score[:, 0] * positions.board * positions.board


def _mean(x: np.ndarray) -> float:
    return float(x.mean()) if x.size else float("nan")


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    if a.size < 2 or a.std() == 0 or b.std() == 0:
        return float("nan")
    return float(np.corrcoef(a, b)[0, 1])


def range_errors(
    estimate: np.ndarray,
    truth: np.ndarray,
    empties: np.ndarray,
    ranges: tuple[tuple[int, int], ...] = RANGES,
    lopsided: int = LOPSIDED,
) -> list[RangeError]:
    error = estimate - truth
    towards_even = -error * np.sign(truth)
    rows = []
    for low, high in ranges:
        at = (empties >= low) & (empties <= high)
        far = at & (np.abs(truth) >= lopsided)
        rows.append(
            RangeError(
                low, high, int(at.sum()), _mean(np.abs(error[at])), _mean(error[at]),
                _correlation(estimate[at], truth[at]), int(far.sum()),
                _mean(np.abs(error[far])), _mean(error[far]), _mean(towards_even[far]),
            )
        )  # fmt: skip
    return rows


def parse_ranges(text: str) -> tuple[tuple[int, int], ...]:
    """`16-19,20-23` -> ((16, 19), (20, 23))."""
    try:
        pairs = [tuple(int(x) for x in part.split("-")) for part in text.split(",")]
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"ranges are LOW-HIGH,LOW-HIGH: {e}") from e
    if any(len(p) != 2 or p[0] > p[1] for p in pairs):
        raise argparse.ArgumentTypeError(f"ranges are LOW-HIGH with LOW <= HIGH, not {text!r}")
    return tuple((p[0], p[1]) for p in pairs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.score_error", description=__doc__)
    p.add_argument("report", type=Path, help="an `othello accuracy --json` report")
    p.add_argument("models", type=Path, nargs="+", help="networks with a score head")
    p.add_argument("--ranges", type=parse_ranges, default=RANGES, help="empties, LOW-HIGH,...")
    p.add_argument("--lopsided", type=int, default=LOPSIDED, help="discs of best margin")
    args = p.parse_args(argv)
    try:
        positions = read_report(args.report)
        for model in args.models:
            estimate = score_estimates(model, positions)
            print(model)
            for row in range_errors(
                estimate, positions.truth, positions.empties, args.ranges, args.lopsided
            ):
                print(row.line())
    except (ScoreError, OSError, json.JSONDecodeError, contract.ContractError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
