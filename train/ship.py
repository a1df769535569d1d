"""Ships a run's network: copies it to models/ under its release name, with a card that
says what it was measured against (from `othello arena --out` and `othello accuracy --json`
output) and where it came from.

    python -m train.ship --model runs/6x6-b/models/gen-0030.onnx --name az-6x6 \\
        --arena runs/6x6-b/ship/arena/arena.json --accuracy runs/6x6-b/ship/accuracy.json

The card keeps everything the export wrote (shapes, network, training run and generation)
and replaces `name`, `date` and `strength`. Given a model already in models/ under that name,
it re-measures it: only `strength` changes. The engine refuses a model without its card, so
the pair is written together, the card last.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from train import contract


class ShipError(RuntimeError):
    pass


def read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ShipError(f"cannot read {what} {path}: {e}") from e


def spec_model(spec: str) -> Path | None:
    """The `model=` path of an arena player spec such as `mcts:model=x.onnx,sims=800`."""
    _, _, options = spec.partition(":")
    for option in options.split(","):
        key, _, value = option.partition("=")
        if key.strip() == "model":
            return Path(value.strip())
    return None


def arena_strength(report: dict[str, Any], model: Path) -> list[dict[str, Any]]:
    """The model's results against each opponent of an `othello arena` report: the player
    whose spec names the model's file is the one measured."""
    players: list[str] = report["players"]
    target = Path(model).resolve()
    ours = [
        i for i, p in enumerate(players)
        if (m := spec_model(p)) is not None and m.resolve() == target
    ]  # fmt: skip
    if len(ours) != 1:
        raise ShipError(f"the arena report has {len(ours)} players using {model}, expected 1")
    me = ours[0]
    results = []
    # The report lists every pairing from both sides; ours are those it plays first.
    for pairing in report["pairings"]:
        if pairing["player"] != me:
            continue
        total = pairing["total"]
        results.append(
            {
                "opponent": players[pairing["opponent"]],
                **{k: total[k] for k in ("games", "wins", "draws", "losses")},
                "score": round(total["score"], 4),
                "mean_margin": round(total["mean_margin"], 2),
            }
        )
    entry: dict[str, Any] = {
        "as": players[me],
        "board": report.get("board"),
        "openings": openings_label(report.get("openings", [""]), report.get("board")),
        "results": results,
    }
    # An Elo is only a measurement against an anchor other than the model itself.
    elo = next((r for r in report["ratings"] if r["player"] == players[me]), None)
    if elo is not None and report.get("anchor") != players[me]:
        entry.update(elo=round(elo["elo"], 1), elo_anchor=report.get("anchor"))
    return [entry]


def accuracy_strength(report: dict[str, Any]) -> dict[str, Any]:
    moves = report["moves"]
    if not moves:
        raise ShipError("the accuracy report has no checked moves")
    # A move labelled win/loss/draw only (`"exact": false`, from `--exact-up-to`) holds the
    # margins' signs: it says whether the result was kept, not whether the move was optimal.
    exact = [m for m in moves if m.get("exact", True)]
    optimal = sum(m["played_margin"] == m["best_margin"] for m in exact)
    kept = sum((m["played_margin"] > 0) - (m["played_margin"] < 0)
               == (m["best_margin"] > 0) - (m["best_margin"] < 0) for m in moves)  # fmt: skip
    strength: dict[str, Any] = {
        "as": report["player"],
        "positions": len(moves),
        "min_empties": report.get("min_empties", 0),
        "max_empties": report["max_empties"],
        "sparring": report["sparring"],
    }
    if exact:
        strength["optimal"] = round(optimal / len(exact), 4)
    if len(exact) < len(moves):
        strength["exact_positions"] = len(exact)
    strength["keeps_result"] = round(kept / len(moves), 4)
    return strength


def openings_label(openings: list[str], board: int | None) -> str:
    """What an arena's games started from: the initial position, the shipped XOT openings
    of the board (crates/othello/data/xot-8x8.txt; 8x8 only), or random ones."""
    if all(o == "" for o in openings):
        return "the initial position"
    data = Path(__file__).resolve().parent.parent / "crates" / "othello" / "data"
    xot = data / f"xot-{board}x{board}.txt"
    if xot.is_file():
        lines = (line.split("#")[0].strip() for line in xot.read_text().splitlines())
        if set(openings) <= {line for line in lines if line}:
            return "XOT openings"
    return "random 4-8 ply openings"


def ship(
    model: Path,
    name: str,
    out_dir: Path,
    arena: list[Path],
    accuracy: Path | None,
) -> Path:
    model = Path(model)
    card_path = model.with_suffix(".json")
    if not model.is_file():
        raise ShipError(f"no model {model}")
    card = read_json(card_path, "the model card")
    try:
        contract.check_card(card, str(card_path))
    except contract.ContractError as e:
        raise ShipError(str(e)) from e
    strength: dict[str, Any] = {"measured": datetime.date.today().isoformat()}
    rel = model.as_posix()
    if arena:
        strength["arena"] = [
            entry for path in arena for entry in arena_strength(read_json(path, "arena"), model)
        ]
    if accuracy is not None:
        strength["accuracy"] = accuracy_strength(read_json(accuracy, "accuracy report"))
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{name}.onnx"
    # Re-measuring a shipped model: the file stays, and so does the run it came from.
    remeasure = target.exists() and target.resolve() == model.resolve()
    if remeasure:
        card.update(strength=strength)
    else:
        card.update(name=name, date=datetime.date.today().isoformat(), strength=strength)
        card.setdefault("training", {})["source"] = rel
        shutil.copyfile(model, target)
    (out_dir / f"{name}.json").write_text(json.dumps(card, indent=2) + "\n")
    return target


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.ship", description=__doc__.split("\n")[0])
    p.add_argument("--model", type=Path, required=True, help="the run's .onnx (card beside it)")
    p.add_argument("--name", required=True, help="release name, e.g. az-8x8")
    p.add_argument("--out", type=Path, default=Path("models"))
    p.add_argument("--arena", type=Path, action="append", default=[], help="arena.json")
    p.add_argument("--accuracy", type=Path, help="othello accuracy --json output")
    args = p.parse_args(argv)
    try:
        target = ship(args.model, args.name, args.out, args.arena, args.accuracy)
    except ShipError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyError as e:
        print(f"error: a report lacks the field {e}", file=sys.stderr)
        return 1
    print(f"shipped {target} and its card")
    return 0


if __name__ == "__main__":
    sys.exit(main())
