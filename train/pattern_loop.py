"""The pattern network's run (docs/pattern.md): generation after generation, the current
network plays itself with MCTS (`othello selfplay`: its search given as a player spec, so
its leaves may be valued by alpha-beta, `mcts:leaf_depth=2`), then the network is fitted
again to the newest positions of every generation so far (up to `--window-positions`,
each with the game's result as its target, blended with the search's own value at
`--search-weight`) and exported as the next generation; with `--gate-games` each new
generation plays the last one that passed as a sequential match with the arena's SPRT
(fishtest's pentanomial test), and only a generation the test accepts plays the next
self-play.

    python -m train.pattern_loop --run runs/pattern-8x8 --board 8 --generations 20

It goes through the trainer's shared pieces: the settings table's `Setting` and a run's
`config.json` (`train.settings`: flags not given keep the run's saved values), the run
directory's state, log and metrics (`train.rundir.RunFiles`), and the `othello` calls cut
into shards with fixed seeds (`train.othello_cli`, `train.shards`). A run resumes where it
stopped and keeps its CPU-hours (this process and its children, every `othello` and fit).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from train.othello_cli import SelfPlay, SelfPlayJob, othello_selfplay
from train.pattern import (
    PatternConfig,
    PatternError,
    PatternNet,
    export_model,
    load_checkpoint,
    load_half_weights,
    mean_of_networks,
    save_checkpoint,
    save_half_weights,
)
from train.rundir import RunFiles, cpu_seconds, write_json_atomic
from train.settings import Check, Setting, at_least, merged_config
from train.shards import OUT, LocalPool, RunError, Shard, play_missing

# How to run, not what the run is: not saved in config.json.
DEFAULT_BINARY = os.environ.get(
    "OTHELLO_BIN", str(Path(__file__).resolve().parent.parent / "target" / "release" / "othello")
)

SETTINGS: tuple[Setting, ...] = (
    Setting("board", 8, int, choices=(6, 8), fixed=True),
    Setting("games", 400, int, "self-play games a generation", check=at_least(2)),
    Setting("sims", 100, int, "simulations a move in self-play", check=at_least(1)),
    Setting(
        "search",
        None,
        str,
        "the self-play search as an mcts spec without model or budget (mcts:leaf_depth=2)",
    ),
    Setting("exact_empties", 14, int, "the solver plays both sides from here"),
    Setting("label_empties", 18, int, "exact targets for searched positions from here"),
    Setting("random_moves", 0.04, float, "share of one side's moves played at random"),
    Setting("temperature_plies", 12, int, "plies played in proportion to the visits"),
    Setting(
        "openings",
        "start",
        str,
        "where self-play's games start: the initial position, or a balanced 8-ply XOT "
        "opening each (its plies count toward --temperature-plies)",
        choices=("start", "xot"),
    ),
    Setting(
        "window_positions",
        2_000_000,
        int,
        "the newest positions of every generation so far that each fit sees",
        check=at_least(1),
    ),
    Setting("epochs", 1, int, "passes over the window a generation", check=at_least(1)),
    Setting(
        "search_weight",
        0.0,
        float,
        "the search's own value and margin in the targets, beside the result",
        check=Check(lambda v: 0 <= v <= 1, "must lie in [0, 1]"),
    ),
    Setting(
        "average_last",
        1,
        int,
        "a generation's network: the mean of the last N fits' weights (1: its fit's own)",
        check=at_least(1),
    ),
    Setting(
        "global_inputs",
        False,
        bool,
        "a global network beside the patterns (mobility, parity, stage); switched on, the "
        "next fit adds it to latest.pt with its last layer zero",
    ),
    Setting("threads", 2, int, "threads of the self-play and the gate", check=at_least(1)),
    Setting(
        "fit_threads",
        1,
        int,
        "PyTorch's threads in the fit (two spin idle on a busy machine: docs/pattern.md)",
        check=at_least(1),
    ),
    Setting("gate_games", 0, int, "most games of a gate (0: no gate)", check=at_least(0)),
    Setting("gate_sims", 100, int, "simulations a move in the gate", check=at_least(1)),
    Setting("gate_elo1", 20.0, float, "the SPRT's alternative hypothesis, in Elo"),
)
DEFAULTS: dict[str, Any] = {s.name: s.default for s in SETTINGS}
FIXED = tuple(s.name for s in SETTINGS if s.fixed)

METRICS = [
    "generation",
    "games",
    "positions",
    "window",
    "selfplay_s",
    "fit_s",
    "gate",
    "cpu_hours",
    "model",
]

# A gate's verdict: H1 (the new generation is stronger: it plays next), H0, or none when
# the games ran out first (the best so far plays on).
Gate = Callable[["PatternRun", int], str]
Fit = Callable[[Sequence[str]], int]


class PatternRun(RunFiles):
    """A pattern network's run directory: config.json, state.json (the last finished
    generation, the CPU-hours, the generation that plays), log.txt, metrics.csv; at its
    root what the next generation needs and git keeps (`latest.pt`, the checkpoint fitted
    last; `best.onnx` and its card, the network that plays; with `--average-last`, under
    fits/ the fits the next generations' means still need); under data/ each
    generation's self-play, under models/ each generation's fit (`.pt`) and network
    (`.onnx` and card: the fit's own, or with `--average-last` the mean of the last fits),
    under gates/ each gate's games (none of these three in git)."""

    othello: str = DEFAULT_BINARY

    @classmethod
    def open(cls, root: Path, given: dict[str, Any]) -> Self:
        root = Path(root)
        config = merged_config(root / "config.json", DEFAULTS, given, FIXED, RunError)
        for s in SETTINGS:
            problem = s.problem(config[s.name])
            if problem is not None:
                raise RunError(problem)
        if config["openings"] == "xot" and config["board"] != 8:
            raise RunError("--openings xot: the XOT list is for 8x8 only")
        for sub in ("data", "models"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        write_json_atomic(root / "config.json", config)
        return cls(root, config)

    def initial_state(self) -> dict[str, Any]:
        return {"generation": -1, "cpu_hours": 0.0, "best": None}

    def stem(self, gen: int) -> Path:
        return self.root / "models" / f"gen-{gen:04d}"

    def data(self, gen: int) -> Path:
        return self.root / "data" / f"gen-{gen:04d}"

    def kept_fit(self, gen: int) -> Path:
        """Generation `gen`'s fit as git keeps it while a later mean still needs it."""
        return self.root / "fits" / f"gen-{gen:04d}.pt"

    def fit_of(self, gen: int) -> tuple[Path, PatternNet] | None:
        """Generation `gen`'s fit: its own under models/, else the copy under fits/."""
        own = self.stem(gen).with_suffix(".pt")
        if own.is_file():
            return own, load_checkpoint(own)[0]
        kept = self.kept_fit(gen)
        return (kept, load_half_weights(kept)) if kept.is_file() else None

    def keep_fits_for_the_mean(self, gen: int, last: int) -> None:
        """Keeps generation `gen`'s fit under fits/ and drops those that neither its mean
        (made again if the run stops before `gen` is saved) nor a later one reads:
        models/ is not in git, so a run that moves to another machine would
        otherwise play its next generations as the mean of the fits it made there alone,
        one at first (the mean of 16 erred by 8.08 discs where one fit erred by 8.63,
        docs/pattern.md). Kept in half precision (`save_half_weights`)."""
        kept = self.kept_fit(gen)
        kept.parent.mkdir(exist_ok=True)
        save_half_weights(load_checkpoint(self.stem(gen).with_suffix(".pt"))[0], kept)
        for old in kept.parent.glob("gen-*.pt"):
            number = old.stem.removeprefix("gen-")
            if number.isdigit() and int(number) <= gen - last:
                old.unlink()

    def keep(self, gen: int, best: bool) -> None:
        """The generation's checkpoint becomes `latest.pt`; its network and card
        `best.onnx`/`best.json` when it plays the next self-play."""
        stem = self.stem(gen)
        shutil.copyfile(stem.with_suffix(".pt"), self.root / "latest.pt")
        if best:
            shutil.copyfile(stem.with_suffix(".onnx"), self.root / "best.onnx")
            shutil.copyfile(stem.with_suffix(".json"), self.root / "best.json")

    def add_metrics(self, row: dict[str, Any]) -> None:
        rows = [*self.metrics(), {k: row.get(k, "") for k in METRICS}]
        self.replace_metrics(rows, METRICS)


def generation_files(run: PatternRun, gen: int) -> list[tuple[Path, int]]:
    """A generation's self-play files with their positions: the shards of data/gen-XXXX/
    (or the single data/gen-XXXX.npz of runs from before the shards), each counted by its
    sidecar."""
    single = run.data(gen).with_suffix(".npz")
    files = [single] if single.is_file() else sorted(run.data(gen).glob("*.npz"))
    counted = []
    for f in files:
        sidecar = f.with_suffix(".json")
        positions = json.loads(sidecar.read_text()).get("positions", 0) if sidecar.is_file() else 0
        counted.append((f, int(positions)))
    return counted


def window(run: PatternRun, newest: int) -> tuple[list[Path], int]:
    """The files of the newest generations up to `newest` whose positions reach the
    window (the oldest generation in it whole), and how many positions they hold."""
    files: list[Path] = []
    positions = 0
    for gen in range(newest, -1, -1):
        found = generation_files(run, gen)
        if not found and gen < newest:
            break  # the data of older generations is gone (a new machine): stop here
        files = [f for f, _ in found] + files
        positions += sum(n for _, n in found)
        if positions >= run.config["window_positions"]:
            break
    return files, positions


def self_play(run: PatternRun, gen: int, selfplay: SelfPlay) -> None:
    c = run.config
    job = SelfPlayJob(
        board=c["board"], model=run.root / "best.onnx", games=c["games"], sims=c["sims"],
        out=run.data(gen), seed=1000 + gen, threads=c["threads"], search=c["search"],
        exact_empties=c["exact_empties"], label_empties=c["label_empties"],
        random_moves=c["random_moves"], temperature_plies=c["temperature_plies"],
        openings=c["openings"],
    )  # fmt: skip
    selfplay([job])


def fit(run: PatternRun, gen: int, files: Sequence[Path], fitter: Fit) -> None:
    c = run.config
    argv = [
        "--board", str(c["board"]),
        "--data", *map(str, files),
        "--init", str(run.root / "latest.pt"),
        "--out", str(run.stem(gen + 1)),
        "--epochs", str(c["epochs"]),
        "--threads", str(c["fit_threads"]),
        "--search-weight", str(c["search_weight"]),
        "--run", run.root.name,
        "--generation", str(gen + 1),
        "--seed", str(gen + 1),
    ]  # fmt: skip
    if c["global_inputs"]:
        argv.append("--global-inputs")
    if fitter(argv) != 0:
        raise RunError(f"the fit of generation {gen + 1} failed (see the lines above)")
    if c["average_last"] > 1:
        average(run, gen + 1, c["average_last"])
        run.keep_fits_for_the_mean(gen + 1, c["average_last"])


def average(run: PatternRun, gen: int, last: int) -> None:
    """Generation `gen`'s network (`.onnx` and card) becomes the mean of the weights of the
    last `last` fits that exist, its own included; its `.pt` stays its fit's, which the next
    fit continues from (KataGo's self-play plays the averaged weights while the optimiser
    keeps its own). Only the newest fits of the generation's own layout are averaged: a run
    whose network changed (another pattern set or width put at `latest.pt`) averages its
    new fits alone. A fit is read from models/ or, on a machine the run moved to, from the
    copies git keeps under fits/."""
    generations = range(max(gen - last + 1, 0), gen + 1)
    try:
        fits = same_layout_tail([fit for g in generations if (fit := run.fit_of(g)) is not None])
        card = json.loads(run.stem(gen).with_suffix(".json").read_text())
        first = int(fits[0][0].stem.removeprefix("gen-"))
        training = {**card.get("training", {}), "averaged_generations": [first, gen]}
        mean = mean_of_networks([net for _, net in fits], [str(p) for p, _ in fits])
        export_model(mean, run.stem(gen), training)
    except PatternError as e:
        raise RunError(f"generation {gen}: {e}") from e


def same_layout_tail(fits: Sequence[tuple[Path, PatternNet]]) -> list[tuple[Path, PatternNet]]:
    """The newest of `fits` (oldest first) back to the first whose network has another
    layout than the newest's."""
    tail = len(fits)
    while tail > 0 and fits[tail - 1][1].config == fits[-1][1].config:
        tail -= 1
    return list(fits[tail:])


def sprt_gate(run: PatternRun, gen: int) -> str:
    """The SPRT between generation `gen` and the network that plays, at the gate's budget:
    its verdict (H1, H0 or none)."""
    c = run.config
    spec = f"sims={c['gate_sims']}"
    new, best = run.stem(gen).with_suffix(".onnx"), run.root / "best.onnx"
    args = (
        "arena",
        "--board", str(c["board"]),
        "--players", f"mcts:model={new},{spec},seed=1,mcts:model={best},{spec},seed=2",
        "--games", str(c["gate_games"]),
        "--sprt", f"elo0=0,elo1={c['gate_elo1']}",
        "--threads", str(c["threads"]),
        "--seed", str(gen),
        "--out", OUT,
    )  # fmt: skip
    out = run.root / "gates"
    name = f"gen-{gen:04d}"
    shard = Shard(name, args, out / name, "arena.json", (str(new), str(best)), c["threads"])
    play_missing(LocalPool(run.othello), [shard])
    report = json.loads((out / name / "arena.json").read_text())
    verdict = (report.get("sprt") or {}).get("verdict")
    return verdict if verdict in ("H0", "H1") else "none"


def start(run: PatternRun) -> dict[str, Any]:
    """The run's state, generation 0 (random weights) made first for a new run."""
    state = run.state()
    if state["generation"] < 0:
        import torch

        torch.manual_seed(0)
        net = PatternNet(PatternConfig.default(run.config["board"]))
        save_checkpoint(net, run.stem(0).with_suffix(".pt"))
        export_model(net, run.stem(0), {"run": run.root.name, "generation": 0})
        run.keep(0, best=True)
        state = {"generation": 0, "best": 0, "cpu_hours": 0.0}
        run.save_state(state)
    return state


@dataclass
class Clock:
    """The run's CPU-hours: those saved, and this process's since it started."""

    before: float
    started: float

    def hours(self) -> float:
        return self.before + (cpu_seconds() - self.started) / 3600


def generation(run: PatternRun, state: dict[str, Any], tools: Tools, clock: Clock) -> None:
    """Plays, fits, gates and keeps one generation."""
    gen = state["generation"]
    watch = cpu_seconds()
    self_play(run, gen, tools.selfplay)
    selfplay_s = cpu_seconds() - watch
    files, positions = window(run, gen)
    watch = cpu_seconds()
    fit(run, gen, files, tools.fit)
    fit_s = cpu_seconds() - watch
    verdict = tools.gate(run, gen + 1) if run.config["gate_games"] > 0 else "none"
    best = gen + 1 if run.config["gate_games"] == 0 or verdict == "H1" else state["best"]
    run.keep(gen + 1, best=best == gen + 1)
    state.update(generation=gen + 1, best=best, cpu_hours=clock.hours())
    run.save_state(state)
    made = sum(n for _, n in generation_files(run, gen))
    run.add_metrics(
        {
            "generation": gen + 1, "games": run.config["games"], "positions": made,
            "window": positions, "selfplay_s": round(selfplay_s, 1), "fit_s": round(fit_s, 1),
            "gate": verdict, "cpu_hours": round(state["cpu_hours"], 4),
            "model": str(run.stem(best).with_suffix(".onnx").relative_to(run.root)),
        }
    )  # fmt: skip
    run.log(
        f"generation {gen + 1}: {made} positions, window {positions} in {len(files)} files, "
        f"self-play {selfplay_s:.0f} s, fit {fit_s:.0f} s (CPU), gate {verdict}, "
        f"{state['cpu_hours']:.3f} CPU-hours"
    )


@dataclass
class Tools:
    """What a generation calls out to: stand-ins in the tests."""

    selfplay: SelfPlay
    fit: Fit
    gate: Gate


def default_tools(binary: str) -> Tools:
    from train import pattern_fit

    return Tools(othello_selfplay(binary), pattern_fit.main, sprt_gate)


def run_generations(run: PatternRun, generations: int, tools: Tools) -> dict[str, Any]:
    state = start(run)
    clock = Clock(state["cpu_hours"], cpu_seconds())
    for _ in range(generations):
        generation(run, state, tools, clock)
    return state


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m train.pattern_loop", description=__doc__)
    p.add_argument("--run", type=Path, required=True, help="run directory")
    p.add_argument("--generations", type=int, default=10, help="generations to add now")
    p.add_argument(
        "--othello", default=DEFAULT_BINARY, help="the othello binary (default: $OTHELLO_BIN)"
    )
    for s in SETTINGS:
        p.add_argument(s.flag, type=s.kind, choices=s.choices, help=s.help)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    given = {s.name: getattr(args, s.name) for s in SETTINGS}
    try:
        run = PatternRun.open(args.run, given)
        run.othello = args.othello
        run_generations(run, args.generations, default_tools(args.othello))
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
