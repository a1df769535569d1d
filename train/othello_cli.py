"""The trainer's calls into the `othello` binary: self-play, the gate and evaluation
arenas, and the parity check of an exported model. Each is a function of a job, so the
loop can be tested with stand-ins.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


class RunError(RuntimeError):
    pass


@dataclass(frozen=True)
class SelfPlayJob:
    board: int
    model: Path | None  # None: no network yet
    games: int
    sims: int
    out: Path
    seed: int
    threads: int
    fast_sims: int = 0
    full_share: float = 0.25
    opponent: Path | None = None  # a milestone network to play instead of self
    variant: str = "standard"
    search: str | None = None  # the search as an `mcts` player spec, e.g. mcts:gumbel=16
    exact_empties: int | None = None  # where the solver takes over (None: the default)


@dataclass(frozen=True)
class GateJob:
    board: int
    candidate: Path
    best: Path
    games: int
    sims: int
    out: Path
    seed: int
    threads: int
    variant: str = "standard"


@dataclass(frozen=True)
class EvalJob:
    board: int
    model: Path
    opponents: str
    games: int
    sims: int
    out: Path
    seed: int
    threads: int
    variant: str = "standard"


SelfPlay = Callable[[SelfPlayJob], None]
Gate = Callable[[GateJob], float]  # the candidate's score against the best, in [0, 1]
# The network's rating against the classic players: (elo, low, high), random = 0.
Evaluate = Callable[[EvalJob], tuple[float, float, float]]
# Checks an exported model against its samples with the engine that will run it.
Parity = Callable[[Path], None]


def othello_selfplay(binary: str) -> SelfPlay:
    def run(job: SelfPlayJob) -> None:
        cmd = [
            binary, "selfplay",
            "--board", str(job.board),
            "--model", str(job.model) if job.model else "none",
            "--games", str(job.games),
            "--sims", str(job.sims),
            "--out", str(job.out),
            "--seed", str(job.seed),
            "--threads", str(job.threads),
        ]  # fmt: skip
        if job.fast_sims > 0:
            cmd += ["--fast-sims", str(job.fast_sims), "--full-share", str(job.full_share)]
        if job.opponent is not None:
            cmd += ["--opponent", str(job.opponent)]
        if job.variant != "standard":
            cmd += ["--variant", job.variant]
        if job.search:
            cmd += ["--player", job.search]
        if job.exact_empties is not None:
            cmd += ["--exact-empties", str(job.exact_empties)]
        call(cmd)

    return run


def othello_gate(binary: str, player: str) -> Gate:
    """Candidate against best with `othello arena`; `player` is the arena spec template
    for a network player, with {model} and {sims} filled in."""

    def run(job: GateJob) -> float:
        players = [player.format(model=m, sims=job.sims) for m in (job.candidate, job.best)]
        cmd = [
            binary, "arena",
            "--board", str(job.board),
            "--players", ",".join(players),
            "--games", str(job.games),
            "--seed", str(job.seed),
            "--threads", str(job.threads),
            "--out", str(job.out),
            "--variant", job.variant,
        ]  # fmt: skip
        call(cmd)
        report = json.loads((job.out / "arena.json").read_text())
        for pairing in report["pairings"]:
            if pairing["player"] == 0 and pairing["opponent"] == 1:
                return float(pairing["total"]["score"])
        raise RunError(f"{job.out / 'arena.json'}: no candidate-vs-best pairing")

    return run


def othello_parity(binary: str) -> Parity:
    """`othello model check --compare`: the Rust evaluator (tract) must reproduce the
    PyTorch outputs saved beside the model, or the generation stops here."""

    def run(model: Path) -> None:
        samples = model.with_name(model.stem + ".samples.npz")
        call([binary, "model", "check", str(model), "--compare", str(samples)])

    return run


def elo_from_score(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """The Elo difference a head-to-head result implies, with its 95% interval (normal
    approximation on the score, one virtual draw so that 100% stays finite, as the arena
    does)."""
    games = wins + draws + losses + 1
    score = (wins + 0.5 * draws + 0.5) / games
    half = 1.96 * math.sqrt(score * (1 - score) / games)

    def elo(s: float) -> float:
        s = min(max(s, 1e-6), 1 - 1e-6)
        return 400 * math.log10(s / (1 - s))

    return elo(score), elo(score - half), elo(score + half)


def othello_evaluate(binary: str, player: str) -> Evaluate:
    """The network (as the arena spec template `player`) against the evaluation players.
    With `random` among them: its Elo in the round robin, anchored at random = 0. Without:
    its Elo difference from the first of them (a fixed reference network, say), from
    their head-to-head games, with the 95% interval."""

    def run(job: EvalJob) -> tuple[float, float, float]:
        network = player.format(model=job.model, sims=job.sims)
        cmd = [
            binary, "arena",
            "--board", str(job.board),
            "--players", f"{network},{job.opponents}",
            "--games", str(job.games),
            "--seed", str(job.seed),
            "--threads", str(job.threads),
            "--out", str(job.out),
            "--variant", job.variant,
        ]  # fmt: skip
        call(cmd)
        report = json.loads((job.out / "arena.json").read_text())
        if report.get("anchor") == report["players"][0]:
            for pairing in report["pairings"]:
                if pairing["player"] == 0 and pairing["opponent"] == 1:
                    t = pairing["total"]
                    return elo_from_score(t["wins"], t["draws"], t["losses"])
        for rating in report["ratings"]:
            if rating["player"] == report["players"][0]:
                return float(rating["elo"]), float(rating["low"]), float(rating["high"])
        raise RunError(f"{job.out / 'arena.json'}: no rating for {network}")

    return run


def onnxruntime_library() -> str | None:
    """The ONNX Runtime shared library of this Python's `onnxruntime` package, which the
    engine loads to run networks several times faster than with tract."""
    try:
        import onnxruntime
    except ImportError:
        return None
    capi = Path(onnxruntime.__file__).parent / "capi"
    found = sorted(capi.glob("libonnxruntime.so*")) + sorted(capi.glob("onnxruntime.dll"))
    return str(found[-1]) if found else None


def call(cmd: list[str]) -> None:
    if not Path(cmd[0]).exists() and shutil.which(cmd[0]) is None:
        raise RunError(
            f"othello binary not found: {cmd[0]} (build it with `cargo build --release -p cli`"
            " or pass --othello PATH)"
        )
    library = os.environ.get("ORT_DYLIB_PATH") or onnxruntime_library()
    if library and "ORT_DYLIB_PATH" not in os.environ:
        os.environ["ORT_DYLIB_PATH"] = library
    result = subprocess.run(cmd, check=False)
    if result.returncode != 0:
        raise RunError(f"`{' '.join(cmd)}` failed with exit code {result.returncode}")
