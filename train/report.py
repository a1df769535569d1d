"""A report on one shipped network: how it plays against the classic players and how its
outputs behave, as an HTML page with PNG plots and a few lines on stdout.

    python -m train.report models/az-8x8.onnx [--out DIR] [--games N] [--player SPEC]
        [--othello PATH] [--seed S] [--arena arena.json]

The network plays `random`, `greedy`, `heuristic` and `alphabeta:depth=2` with both colours
in `othello arena` (as `policy:model=MODEL` by default: the network alone, no search, since
the report describes the network). Its games are replayed here with `train.env` for the
corner, disc and mobility statistics, and the positions it faced go through the network
(ONNX Runtime) for the policy entropy and the symmetry check. The board and the variant
come from the model card. `--arena` takes the `arena.json` of an earlier run instead of
playing (it must hold the model's games). Writes `DIR/index.html` (no scripts, no external
assets), the plots beside it and the arena's `arena.json`; DIR defaults to
`docs/reports/<model name>/`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from train import contract
from train.othello_cli import head_to_head
from train.report_page import summary, write_html, write_plots
from train.report_stats import (
    Analysis,
    CornerStats,
    Model,
    ReportError,
    Tally,
    entropy_by_phase,
    evaluate_all,
    legal_from_planes,
    mean_by_ply,
    model_games,
    replay,
    symmetry_consistency,
)
from train.shards import RunError, binary_missing, onnxruntime_library
from train.ship import spec_model

OPPONENTS = ("random", "greedy", "heuristic", "alphabeta:depth=2")
SYMMETRY_POSITIONS = 256


def load_card(path: Path) -> Model:
    path = Path(path)
    if path.suffix != ".onnx" or not path.is_file():
        raise ReportError(f"no model at {path} (give a .onnx file with its .json card beside it)")
    card_path = path.with_suffix(".json")
    try:
        card = json.loads(card_path.read_text())
        board, variant = int(card["board_size"]), str(card.get("variant", "standard"))
    except OSError as e:
        raise ReportError(f"cannot read the model card {card_path}: {e.strerror}") from e
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
        raise ReportError(f"{card_path} is not a model card with a board_size ({e})") from e
    if board not in (6, 8) or variant not in ("standard", "reversed"):
        raise ReportError(f"{card_path}: board {board}, variant {variant!r} not supported")
    try:
        contract.check_card(card, str(card_path))
    except contract.ContractError as e:
        raise ReportError(str(e)) from e
    return Model(path, str(card.get("name", path.stem)), board, variant, card)


class OnnxNet:
    """One ONNX Runtime session for every probe (one thread: the box is shared). It takes
    base planes (input set v1, as train/env.py writes them) and feeds the network the
    planes its card names."""

    def __init__(
        self, path: Path, board: int, plane_names: tuple[str, ...] = contract.PLANE_ORDER
    ) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(
                str(path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as e:  # ORT raises its own exception types for every load failure
            raise ReportError(f"cannot load {path} with ONNX Runtime: {e}") from e
        inputs = {i.name: i.shape for i in self.session.get_inputs()}
        outputs = {o.name for o in self.session.get_outputs()}
        if contract.INPUT not in inputs or not set(contract.OUTPUTS) <= outputs:
            raise ReportError(
                f"{path} does not follow the model contract: inputs {sorted(inputs)}, "
                f"outputs {sorted(outputs)} (want planes -> policy, value)"
            )
        if inputs["planes"][-2:] not in ([board, board], ["N", "N"]) and all(
            isinstance(d, int) for d in inputs["planes"][-2:]
        ):
            raise ReportError(
                f"{path} takes {inputs['planes'][-2]}x{inputs['planes'][-1]} boards; "
                f"its card says {board}x{board}"
            )
        self.board = board
        self.plane_names = plane_names

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        feed = {contract.INPUT: contract.encode_inputs(planes, self.plane_names)}
        out = self.session.run(list(contract.OUTPUTS), feed)
        return out[0], out[1].reshape(-1)


def play_arena(
    binary: str, model: Model, player: str, games: int, seed: int, threads: int
) -> dict[str, Any]:
    """One `othello arena` run, the model against the classic players; its arena.json.
    The arena's own table goes unprinted: the report's summary says what matters here."""
    if not Path(binary).exists() and shutil.which(binary) is None:
        raise binary_missing(binary)
    env = dict(os.environ)
    library = onnxruntime_library()
    if library:
        env["ORT_DYLIB_PATH"] = library
    with tempfile.TemporaryDirectory(prefix="othello-report-") as tmp:
        cmd = [
            binary, "arena", "--board", str(model.board), "--variant", model.variant,
            "--players", ",".join([player, *OPPONENTS]), "--games", str(games),
            "--seed", str(seed), "--threads", str(threads), "--out", tmp,
        ]  # fmt: skip
        result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            why = (result.stderr.strip().splitlines() or ["no message"])[-1]
            raise ReportError(f"othello arena failed (exit code {result.returncode}): {why}")
        return json.loads((Path(tmp) / "arena.json").read_text())


def model_index(report: dict[str, Any], model: Path, player: str) -> int:
    players: list[str] = report.get("players", [])
    if player in players:
        return players.index(player)
    ours = [
        i for i, p in enumerate(players) if (m := spec_model(p)) and m.resolve() == model.resolve()
    ]
    if len(ours) != 1:
        raise ReportError(f"the arena report has {len(ours)} players using {model}, expected 1")
    return ours[0]


def analyse(report: dict[str, Any], model: Model, player: str, net: Any, seed: int) -> Analysis:
    me = model_index(report, model.path, player)
    n, reversed_rules = model.board, model.variant == "reversed"
    games = model_games(report, me, n)
    if not games:
        raise ReportError("the arena report holds no games of the model")
    players: list[str] = report["players"]
    wins: dict[str, tuple[Tally, Tally]] = {}
    for j, name in enumerate(players):
        if j == me:
            continue
        split = []
        for black in (True, False):
            colour = [g for g in report["games"] if (g["black"] == me) == black]
            split.append(Tally(*head_to_head(colour, me, j)))
        if split[0].games + split[1].games:
            wins[name] = (split[0], split[1])
    corners = {"all": CornerStats()} | {name: CornerStats() for name in wins}
    series: dict[str, list[np.ndarray]] = {
        k: [] for k in ("model discs", "opponent discs", "model mobility", "opponent mobility")
    }
    planes, empties, chosen = [], [], []
    for g in games:
        r = replay(g, n, reversed_rules)
        for stats in (corners["all"], corners[g.opponent]):
            stats.add(r.corner_chance, r.took_corner)
        series["model discs"].append(r.model_discs)
        series["opponent discs"].append(r.opponent_discs)
        series["model mobility"].append(r.model_mobility)
        series["opponent mobility"].append(r.opponent_mobility)
        planes += r.planes
        empties += r.empties
        chosen += r.chosen
    if not planes:
        raise ReportError("the model had no move to choose in its games")
    all_planes = np.stack(planes)
    min_games = max(3, len(games) // 10)
    curves = {k: mean_by_ply(v, min_games) for k, v in series.items()}
    logits = evaluate_all(net, all_planes)
    ent = entropy_by_phase(logits, all_planes, np.array(empties), n)
    best = np.where(legal_from_planes(all_planes), logits, -np.inf).argmax(axis=1)
    agreement = (int(np.sum(best == np.array(chosen))), len(chosen))
    rng = np.random.default_rng(seed)
    pick = rng.choice(len(all_planes), min(SYMMETRY_POSITIONS, len(all_planes)), replace=False)
    sym = symmetry_consistency(net, all_planes[np.sort(pick)])
    return Analysis(model, player, games, wins, corners, curves, ent, sym, agreement)


def model_only(report: dict[str, Any], a: Analysis) -> dict[str, Any]:
    """The arena report with only the model's games, each without its timings: what the
    report reads, at a third of the size (the classic players' games among themselves are
    most of it)."""
    me = model_index(report, a.model.path, a.player)
    keep = ("black", "white", "opening", "black_margin", "transcript")
    games = [{k: g[k] for k in keep} for g in report["games"] if me in (g["black"], g["white"])]
    # Timings are the only part that changes from run to run; without them the same
    # command writes the same file.
    ratings = [
        {k: v for k, v in r.items() if k != "ms_per_move"} for r in report.get("ratings", [])
    ]
    note = "othello arena's report; train.report kept the model's games, without timings"
    return {"note": note} | report | {"ratings": ratings, "games": games}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.report", description=__doc__.split("\n")[0])
    p.add_argument("model", type=Path, help="the network (.onnx) with its card beside it")
    p.add_argument("--out", type=Path, help="folder for the report (docs/reports/<name>/)")
    p.add_argument("--games", type=int, default=20, help="games per opponent, half each colour")
    p.add_argument("--player", default="policy:model={model}", help="the model's arena spec")
    p.add_argument("--othello", default="target/release/othello", help="the othello binary")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--arena", type=Path, help="an arena.json to analyse instead of playing")
    args = p.parse_args(argv)
    if args.games < 2 or args.games % 2:
        p.error("--games must be even and at least 2 (each opening is played with both colours)")
    try:
        model = load_card(args.model)
        net = OnnxNet(model.path, model.board, contract.card_planes(model.card))
        try:
            player = args.player.format(model=model.path)
        except (KeyError, IndexError, ValueError) as e:
            raise ReportError(f"--player {args.player!r}: only {{model}} is filled in ({e})") from e
        out = args.out or Path("docs/reports") / model.name
        if args.arena:
            try:
                report = json.loads(args.arena.read_text())
            except (OSError, json.JSONDecodeError) as e:
                raise ReportError(f"cannot read the arena report {args.arena}: {e}") from e
        else:
            report = play_arena(args.othello, model, player, args.games, args.seed, args.threads)
        analysis = analyse(report, model, player, net, args.seed)
        out.mkdir(parents=True, exist_ok=True)
        (out / "arena.json").write_text(json.dumps(model_only(report, analysis)) + "\n")
        write_plots(analysis, out)
        command = f"python -m train.report {args.model} --games {args.games} --seed {args.seed}"
        if args.player != p.get_default("player"):
            command += f" --player '{args.player}'"
        if args.arena:
            command += f" --arena {args.arena}"
        write_html(analysis, out, command)
    except (ReportError, RunError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(summary(analysis))
    print(f"wrote {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
