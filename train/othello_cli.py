"""The trainer's calls into the `othello` binary: self-play, the gate and evaluation
arenas, and the parity check of an exported model. Each is a function of a job, so the
loop can be tested with stand-ins.

Self-play and the arenas are cut into shards with fixed seeds (train.shards), played by a
pool: one after another on this machine (`LocalPool`), or as Ray tasks on a cluster
(`train.cluster.RayPool`). Either way the same shards are written into the run directory,
and a phase that was killed part way resumes with the shards it has.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from train.shards import (
    OUT,
    LocalPool,
    Pool,
    RunError,
    Shard,
    binary_missing,
    complete,
    onnxruntime_library,
    play_missing,
    prune,
    seed_ranges,
    shard_name,
)

# Games of a self-play shard, and games per pairing of an arena shard: what one `othello`
# run plays. Each thread keeps 16 games going and the last of a shard's games leave it
# idle, so a shard costs a tail: on 2 threads, 128 8x8 games in two shards of 64 played
# 5% slower than in one run (4,231 against 4,472 games/hour, two runs each); 128 halves
# that. On a cluster, smaller shards (--shard-games) spread a generation over more cores.
SHARD_GAMES = 128


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
    # exact targets for the searched positions with at most this many empties (None: off)
    label_empties: int | None = None
    # OLIVAW's extra samples: unplayed moves with at least this share of a search's visits
    explored_share: float | None = None
    # exploration: the share of one side's searched moves played at random (None: off)
    random_moves: float | None = None
    # with random_moves: random moves only while more than this many empties remain
    random_moves_above: int | None = None
    # plies played in proportion to the visits before the best move (None: the default)
    temperature_plies: int | None = None
    # where games start: "start", "xot" (a balanced 8-ply opening each) or a file of lines
    openings: str = "start"


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


# Plays the jobs' games into their `out` folders (all of them one generation's), keeping
# the complete shards that an earlier, killed call left there.
SelfPlay = Callable[[Sequence[SelfPlayJob]], None]
Gate = Callable[[GateJob], float]  # the candidate's score against the best, in [0, 1]
# The network's rating against the classic players: (elo, low, high), random = 0.
Evaluate = Callable[[EvalJob], tuple[float, float, float]]
# Checks an exported model against its samples with the engine that will run it.
Parity = Callable[[Path], None]


def selfplay_shards(job: SelfPlayJob, shard_games: int = SHARD_GAMES) -> list[Shard]:
    shards = []
    for seeds in seed_ranges(job.seed, job.games, shard_games):
        name = shard_name("selfplay", seeds)
        args = [
            "selfplay",
            "--board", str(job.board),
            "--model", str(job.model) if job.model else "none",
            "--games", str(len(seeds)),
            "--sims", str(job.sims),
            "--out", OUT,
            "--name", name,
            "--seed", str(seeds.start),
            "--threads", str(job.threads),
        ]  # fmt: skip
        if job.fast_sims > 0:
            args += ["--fast-sims", str(job.fast_sims), "--full-share", str(job.full_share)]
        if job.opponent is not None:
            args += ["--opponent", str(job.opponent)]
        if job.variant != "standard":
            args += ["--variant", job.variant]
        if job.search:
            args += ["--player", job.search]
        if job.exact_empties is not None:
            args += ["--exact-empties", str(job.exact_empties)]
        if job.label_empties is not None:
            args += ["--label-empties", str(job.label_empties)]
        if job.explored_share is not None:
            args += ["--explored-share", str(job.explored_share)]
        if job.random_moves is not None:
            args += ["--random-moves", str(job.random_moves)]
        if job.random_moves_above is not None:
            args += ["--random-moves-above", str(job.random_moves_above)]
        if job.temperature_plies is not None:
            args += ["--temperature-plies", str(job.temperature_plies)]
        if job.openings != "start":
            args += ["--openings", job.openings]
        inputs = tuple(str(n) for n in (job.model, job.opponent) if n is not None)
        shards.append(Shard(name, tuple(args), job.out, f"{name}.json", inputs, job.threads))
    return shards


def othello_selfplay(
    binary: str, pool: Pool | None = None, shard_games: int = SHARD_GAMES
) -> SelfPlay:
    pool = pool or LocalPool(binary)

    def run(jobs: Sequence[SelfPlayJob]) -> None:
        shards = [shard for job in jobs for shard in selfplay_shards(job, shard_games)]
        for out in {s.dest for s in shards}:
            done = [s for s in shards if s.dest == out and complete(s)]
            prune(out, "selfplay", [f for s in done for f in (f"{s.name}.npz", s.marker)])
        play_missing(pool, shards)

    return run


def networks_in(players: str) -> tuple[str, ...]:
    """The network files that arena player specs name."""
    return tuple(dict.fromkeys(re.findall(r"model=([^,]+)", players)))


def arena_shards(
    board: int, players: str, games: int, seed: int, threads: int, variant: str, out: Path,
    shard_games: int,
) -> list[Shard]:  # fmt: skip
    shards = []
    for seeds in seed_ranges(seed, games, shard_games, even=True):
        name = shard_name("arena", seeds)
        args = (
            "arena",
            "--board", str(board),
            "--players", players,
            "--games", str(len(seeds)),
            "--seed", str(seeds.start),
            "--threads", str(threads),
            "--out", OUT,
            "--variant", variant,
        )  # fmt: skip
        shards.append(Shard(name, args, out / name, "arena.json", networks_in(players), threads))
    return shards


def play_arena(pool: Pool, shards: list[Shard]) -> dict[str, Any]:
    """Plays an arena's missing shards; their games as one report: `players`, `anchor`
    and `games` (each with `black`, `white` and `black_margin`)."""
    out = shards[0].dest.parent
    prune(out, "arena", [s.name for s in shards if complete(s)])
    play_missing(pool, shards)
    reports = [json.loads((s.dest / "arena.json").read_text()) for s in shards]
    return {
        "players": reports[0]["players"],
        "anchor": reports[0].get("anchor", reports[0]["players"][0]),
        "games": [g for r in reports for g in r["games"]],
    }


def head_to_head(games: list[dict[str, Any]], player: int, opponent: int) -> tuple[int, int, int]:
    """Wins, draws and losses of `player` against `opponent`."""
    wins = draws = losses = 0
    for g in games:
        if {g["black"], g["white"]} != {player, opponent}:
            continue
        margin = g["black_margin"] if g["black"] == player else -g["black_margin"]
        wins, draws, losses = wins + (margin > 0), draws + (margin == 0), losses + (margin < 0)
    return wins, draws, losses


def othello_gate(
    binary: str, player: str, pool: Pool | None = None, shard_games: int = SHARD_GAMES
) -> Gate:
    """Candidate against best with `othello arena`; `player` is the arena spec template
    for a network player, with {model} and {sims} filled in."""
    pool = pool or LocalPool(binary)

    def run(job: GateJob) -> float:
        players = ",".join(player.format(model=m, sims=job.sims) for m in (job.candidate, job.best))
        shards = arena_shards(
            job.board, players, job.games, job.seed, job.threads, job.variant, job.out,
            shard_games,
        )  # fmt: skip
        wins, draws, losses = head_to_head(play_arena(pool, shards)["games"], 0, 1)
        if wins + draws + losses == 0:
            raise RunError(f"{job.out}: no candidate-vs-best games")
        return (wins + 0.5 * draws) / (wins + draws + losses)

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


def othello_evaluate(
    binary: str, player: str, pool: Pool | None = None, shard_games: int = SHARD_GAMES
) -> Evaluate:
    """The network (as the arena spec template `player`) against the evaluation players.
    With `random` among them: its Elo in the round robin, anchored at random = 0, fitted
    to the games of every shard as the arena fits one tournament. Without: its Elo
    difference from the first of them (a fixed reference network, say), from their
    head-to-head games, with the 95% interval."""
    pool = pool or LocalPool(binary)

    def run(job: EvalJob) -> tuple[float, float, float]:
        network = player.format(model=job.model, sims=job.sims)
        shards = arena_shards(
            job.board, f"{network},{job.opponents}", job.games, job.seed, job.threads,
            job.variant, job.out, shard_games,
        )  # fmt: skip
        report = play_arena(pool, shards)
        players, games = report["players"], report["games"]
        if report["anchor"] == players[0]:
            return elo_from_score(*head_to_head(games, 0, 1))
        anchor = players.index(report["anchor"])
        results = [(g["black"], g["white"], points(g["black_margin"])) for g in games]
        return fit_elo(binary, len(players), results, anchor)[0]

    return run


def points(margin: int) -> float:
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


# The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

Rating = tuple[float, float, float]  # elo, low, high


def fit_elo(
    binary: str,
    n: int,
    games: Sequence[tuple[int, int, float]],
    anchor: int,
    prior_draws: float = 1.0,
) -> list[Rating]:
    """(elo, low, high) of each of `n` players from `games` (black, white, Black's points)
    with `anchor` at 0 and `prior_draws` virtual draws of everyone against it, as `othello
    arena` rates a tournament: used to rate the games of several arena shards, or of
    several matches, as one tournament. The fit is the engine's, the project's only one
    (crates/tools/src/arena/elo.rs): `binary elo -` is given the games as an arena.json's
    `players`, `anchor` and `games` on stdin (plus `prior_draws`) and prints the ratings
    as an arena.json's `ratings`."""
    if not Path(binary).exists() and shutil.which(binary) is None:
        raise binary_missing(binary)
    names = [f"p{i}" for i in range(n)]
    request = {
        "players": names,
        "anchor": names[anchor],
        "prior_draws": prior_draws,
        # Only who won counts in the fit, so the margin's sign stands for the margin.
        "games": [
            {"black": b, "white": w, "black_margin": (p > 0.5) - (p < 0.5)} for b, w, p in games
        ],
    }
    try:
        # Popen, not run: the fit is a question to the binary, not one of the shards that
        # tests stand in for by replacing subprocess.run.
        with subprocess.Popen(
            [binary, "elo", "-"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ) as process:
            stdout, stderr = process.communicate(json.dumps(request))
    except OSError as e:
        raise RunError(f"cannot run `{binary} elo`: {e}") from e
    if process.returncode != 0:
        # The binary says `error: <cause>`; say the cause once.
        cause = stderr.strip().removeprefix("error: ") or f"exit code {process.returncode}"
        raise RunError(f"`{binary} elo` failed: {cause}")
    try:
        by_name = {r["player"]: r for r in json.loads(stdout)["ratings"]}
        return [(by_name[p]["elo"], by_name[p]["low"], by_name[p]["high"]) for p in names]
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        raise RunError(f"`{binary} elo` printed no ratings for {names}: {e!r}") from e


def call(cmd: list[str]) -> None:
    if not Path(cmd[0]).exists() and shutil.which(cmd[0]) is None:
        raise binary_missing(cmd[0])
    library = onnxruntime_library()
    if library:
        os.environ["ORT_DYLIB_PATH"] = library
    result = subprocess.run(cmd, check=False)
    if result.returncode != 0:
        raise RunError(f"`{' '.join(cmd)}` failed with exit code {result.returncode}")
