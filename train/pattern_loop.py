"""The pattern network's run from zero (issue 58, docs/pattern.md): generation after
generation, the current network plays itself with MCTS (`othello selfplay`, the pattern
evaluator: thousands of games an hour on two cores), then the network is fitted again to
the newest generations' samples (train.pattern_fit) and exported as the next generation.
Generation 0 is a network with random weights: the exact solver's labels near the end of
every game are what it learns first, and the values climb back through the game from
there, generation by generation.

    python -m train.pattern_loop --run runs/pattern-8x8 --board 8 --generations 20

A run resumes where it stopped (its state.json says the last finished generation), and
keeps its CPU-hours (this process and its children, every `othello` and fit).
`--gate-games N` plays each new generation against the last one that passed, as a
sequential match with the arena's SPRT (fishtest's pentanomial test,
`elo0=0,elo1=GATE_ELO1`): a generation the test rejects is kept on disk but the next
self-play uses the one that passed.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from train.pattern import PatternConfig, PatternNet, export_model, save_checkpoint
from train.rundir import cpu_seconds, write_json_atomic

FIELDS = [
    "generation",
    "games",
    "positions",
    "selfplay_s",
    "fit_s",
    "gate",
    "cpu_hours",
    "model",
]


def binary() -> Path:
    """`othello`: $OTHELLO_BIN, else the workspace's release (or debug) build."""
    if os.environ.get("OTHELLO_BIN"):
        return Path(os.environ["OTHELLO_BIN"])
    root = Path(__file__).resolve().parent.parent
    for profile in ("release", "debug"):
        path = root / "target" / profile / "othello"
        if path.is_file():
            return path
    sys.exit("error: no othello binary: build it first (cargo build --release -p cli)")


def run(cmd: list[str], log: Path) -> str:
    with log.open("a") as out:
        out.write("$ " + " ".join(cmd) + "\n")
        out.flush()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        out.write(done.stdout + done.stderr)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(cmd[:2])} failed (see {log}):\n{done.stderr.strip()}")
    return done.stdout


def gate(args: argparse.Namespace, new: Path, best: Path, gen: int, log: Path) -> str:
    """The SPRT between the new generation and the best so far, at the gate's budget: its
    verdict, `H1` (the new one is stronger: it plays next), `H0`, or `none` when the games
    ran out first (the best so far plays on)."""
    spec = f"sims={args.gate_sims}"
    out = args.run / "gates" / f"gen-{gen:04d}"
    run(
        [
            str(binary()),
            "arena",
            "--board",
            str(args.board),
            "--players",
            f"mcts:model={new},{spec},seed=1,mcts:model={best},{spec},seed=2",
            "--games",
            str(args.gate_games),
            "--sprt",
            f"elo0=0,elo1={args.gate_elo1}",
            "--threads",
            str(args.threads),
            "--seed",
            str(gen),
            "--out",
            str(out),
        ],
        log,
    )
    report = json.loads((out / "arena.json").read_text())
    return str((report.get("sprt") or {}).get("verdict") or "none")


def keep(stem: Path, root: Path, best: bool) -> None:
    """Copies a generation's checkpoint to the run's `latest.pt`, and its network and card
    to `best.onnx`/`best.json` when it plays the next self-play."""
    shutil.copyfile(stem.with_suffix(".pt"), root / "latest.pt")
    if best:
        shutil.copyfile(stem.with_suffix(".onnx"), root / "best.onnx")
        shutil.copyfile(stem.with_suffix(".json"), root / "best.json")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--run", type=Path, required=True)
    p.add_argument("--board", type=int, choices=(6, 8), default=8)
    p.add_argument("--generations", type=int, default=10, help="generations to add now")
    p.add_argument("--games", type=int, default=1000, help="self-play games a generation")
    p.add_argument("--sims", type=int, default=200, help="simulations a move in self-play")
    p.add_argument("--exact-empties", type=int, default=14)
    p.add_argument("--label-empties", type=int, default=18)
    p.add_argument("--random-moves", type=float, default=0.04)
    p.add_argument("--temperature-plies", type=int, default=12)
    p.add_argument("--window", type=int, default=4, help="generations of samples fitted")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--gate-games", type=int, default=0, help="0: no gate")
    p.add_argument("--gate-sims", type=int, default=200)
    p.add_argument("--gate-elo1", type=float, default=20.0)
    args = p.parse_args(argv)

    root: Path = args.run
    for sub in ("data", "models"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    log = root / "log.txt"
    state_path = root / "state.json"
    state: dict[str, Any] = (
        json.loads(state_path.read_text())
        if state_path.is_file()
        else {"generation": -1, "cpu_hours": 0.0, "best": None}
    )
    spent_before = state["cpu_hours"]
    clock_start = cpu_seconds()

    def hours() -> float:
        return spent_before + (cpu_seconds() - clock_start) / 3600

    def stem(gen: int) -> Path:
        return root / "models" / f"gen-{gen:04d}"

    if state["generation"] < 0:
        torch_seed = 0
        import torch

        torch.manual_seed(torch_seed)
        net = PatternNet(PatternConfig.default(args.board))
        save_checkpoint(net, stem(0).with_suffix(".pt"))
        export_model(net, stem(0), {"run": root.name, "generation": 0, "note": "random weights"})
        keep(stem(0), root, best=True)
        state.update(generation=0, best=0, cpu_hours=hours())
        write_json_atomic(state_path, state)

    metrics = root / "metrics.csv"
    for _ in range(args.generations):
        gen = state["generation"]
        best = state["best"]
        # The run's root keeps what the next generation needs (git keeps it, not models/).
        player = root / "best.onnx"
        started = time.monotonic()
        out = run(
            [
                str(binary()),
                "selfplay",
                "--board",
                str(args.board),
                "--model",
                str(player),
                "--sims",
                str(args.sims),
                "--games",
                str(args.games),
                "--exact-empties",
                str(args.exact_empties),
                "--label-empties",
                str(args.label_empties),
                "--random-moves",
                str(args.random_moves),
                "--temperature-plies",
                str(args.temperature_plies),
                "--threads",
                str(args.threads),
                "--seed",
                str(1000 + gen),
                "--out",
                str(root / "data"),
                "--name",
                f"gen-{gen:04d}",
            ],
            log,
        )
        selfplay_s = time.monotonic() - started
        positions = out.split(" positions")[0].rsplit(" ", 1)[-1] if " positions" in out else ""
        files = [
            root / "data" / f"gen-{g:04d}.npz"
            for g in range(max(0, gen - args.window + 1), gen + 1)
        ]
        started = time.monotonic()
        run(
            [
                sys.executable,
                "-m",
                "train.pattern_fit",
                "--board",
                str(args.board),
                "--data",
                *[str(f) for f in files if f.is_file()],
                "--init",
                str(root / "latest.pt"),
                "--out",
                str(stem(gen + 1)),
                "--epochs",
                str(args.epochs),
                "--threads",
                str(args.threads),
                "--run",
                root.name,
                "--generation",
                str(gen + 1),
                "--seed",
                str(gen + 1),
            ],
            log,
        )
        fit_s = time.monotonic() - started
        verdict = "none"
        new_best = gen + 1
        if args.gate_games > 0:
            verdict = gate(args, stem(gen + 1).with_suffix(".onnx"), player, gen + 1, log)
            if verdict != "H1":
                new_best = best
        keep(stem(gen + 1), root, best=new_best == gen + 1)
        state.update(generation=gen + 1, best=new_best, cpu_hours=hours())
        write_json_atomic(state_path, state)
        fresh = not metrics.is_file()
        with metrics.open("a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=FIELDS)
            if fresh:
                writer.writeheader()
            writer.writerow(
                {
                    "generation": gen + 1,
                    "games": args.games,
                    "positions": positions,
                    "selfplay_s": round(selfplay_s, 1),
                    "fit_s": round(fit_s, 1),
                    "gate": verdict,
                    "cpu_hours": round(state["cpu_hours"], 4),
                    "model": str(stem(new_best).with_suffix(".onnx").relative_to(root)),
                }
            )
        print(
            f"generation {gen + 1}: self-play {selfplay_s:.0f} s ({positions} positions), "
            f"fit {fit_s:.0f} s, gate {verdict}, {state['cpu_hours']:.3f} CPU-hours",
            flush=True,
        )


if __name__ == "__main__":
    main()
