"""`python -m train.against_heuristic MODEL.onnx`: a shipped or exported network against
the heuristic player, the seeds' measure of their policy-gradient players (issue 37).

The network plays its policy (illegal moves masked), sampling its moves by default as
the seeds' players did, or its favourite move with `--argmax`; from the standard start,
Black in half the games and White in the other half; the games are stepped in numpy
(train/env.py) against the heuristic player re-implemented there (train/rl.py). The ONNX
file itself runs (ONNX Runtime), so what is measured is what ships.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from train import contract, rl


class OnnxPolicy:
    """The network's policy, fed the planes its card names from the base planes the games
    give."""

    def __init__(
        self,
        model: Path,
        argmax: bool,
        seed: int,
        plane_names: tuple[str, ...] = contract.PLANE_ORDER,
    ) -> None:
        import onnxruntime

        self.session = onnxruntime.InferenceSession(str(model))
        self.argmax = argmax
        self.rng = np.random.default_rng(seed)
        self.plane_names = plane_names

    def act(self, planes: np.ndarray, legal: np.ndarray, explore: bool) -> np.ndarray:
        feed = {contract.INPUT: contract.encode_inputs(planes, self.plane_names)}
        logits = self.session.run(["policy"], feed)[0]
        logits = np.where(legal, logits, -np.inf)
        if self.argmax or not explore:
            return np.argmax(logits, axis=1)
        return np.argmax(logits + rl.gumbel_noise(self.rng, legal.shape), axis=1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.against_heuristic", description=__doc__)
    p.add_argument("model", type=Path)
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--argmax", action="store_true", help="play the favourite move")
    p.add_argument("--json", type=Path, help="write the result here too")
    args = p.parse_args(argv)
    if args.games < 2 or args.games % 2:
        print("error: --games must be even and at least 2 (half a colour)", file=sys.stderr)
        return 1
    card_path = args.model.with_suffix(".json")
    try:
        card = json.loads(card_path.read_text())
        board = int(card["board_size"])
        policy = OnnxPolicy(args.model, args.argmax, args.seed, contract.card_planes(card))
    except (OSError, ValueError, KeyError, TypeError) as e:  # ContractError is a ValueError
        print(f"error: cannot load {args.model} with its card {card_path}: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # onnxruntime's own errors share no base class
        print(f"error: cannot load {args.model}: {e}", file=sys.stderr)
        return 1
    score, low, high = rl.score_against_heuristic(policy, args.games, board, args.seed)
    how = "argmax" if args.argmax else "sampling"
    print(
        f"{args.model} ({how}) against heuristic, {args.games} games from the start, "
        f"colours swapped: {score:.1%} [{low:.1%}, {high:.1%}]"
    )
    if args.json:
        result = {"model": str(args.model), "moves": how, "games": args.games,
                  "seed": args.seed, "score": score, "low": low, "high": high}  # fmt: skip
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
