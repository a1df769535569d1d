"""Shards: a phase's `othello` work cut into runs with fixed seeds, played here one after
another (`LocalPool`) or as Ray tasks on a cluster (`train.cluster.RayPool`; `train.pools`
opens either), and written into the run directory by the driver, once each.

A job of `games` games (or games per pairing, in an arena) and seed S owns the seeds
S*SEEDS_PER_JOB .. S*SEEDS_PER_JOB + games - 1. Its shard of games a..b-1 runs the binary
with `--seed S*SEEDS_PER_JOB + a --games b-a` and is named by that seed range, e.g.
`selfplay-1000003000000-1000003000063`; the plan depends only on the job and the shard
size, so a resumed run, a local run and a Ray run play the same shards with the same
seeds and write the same files.

A shard's files are written to a hidden temporary name and renamed, its marker file (the
self-play sidecar, the arena's arena.json) last: a shard whose marker is there is
complete and is never played again; anything else in the phase's folder is what a killed
run left half-done, and is removed before the missing shards are played.

Nothing here imports torch, numpy or ray: a Ray worker imports this module to play a shard.
"""

from __future__ import annotations

import ctypes
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

# Seeds a job owns: a job plays at most this many games (per pairing, in an arena).
SEEDS_PER_JOB = 1_000_000

# The argument that stands for the shard's output folder.
OUT = "{out}"

# Output files whose text may name an input network (player names, the sidecar's model):
# the paths a worker used are written back as the driver's.
TEXT_SUFFIXES = (".json", ".csv", ".svg", ".txt", ".ggf")


class RunError(RuntimeError):
    pass


class ShardKilledError(RunError):
    """The `othello` process died of a signal (the OOM killer, a node going away): worth
    another try, unlike a non-zero exit, which the same arguments would repeat."""


@dataclass(frozen=True)
class Shard:
    name: str  # the seed range, e.g. selfplay-1000003000000-1000003000063
    args: tuple[str, ...]  # after the binary; OUT stands for the output folder
    dest: Path  # the run-directory folder its files go to
    marker: str  # the file written last: its presence means the shard is complete
    inputs: tuple[str, ...] = ()  # networks (.onnx) the args name; each card goes along
    threads: int = 1  # cores it keeps busy


@dataclass
class ShardResult:
    files: dict[str, bytes] = field(default_factory=dict)
    cpu_seconds: float = 0.0  # of the `othello` process, on whichever machine it ran
    seconds: float = 0.0  # its wall time


class Pool(Protocol):
    def play(self, shards: Sequence[Shard]) -> Iterator[tuple[Shard, ShardResult]]:
        """Plays the shards, yielding each with its files as it finishes."""
        ...

    def remote_cpu_seconds(self) -> float:
        """CPU time of shards that ran outside this process's children, so far."""
        ...


def seed_ranges(seed: int, games: int, shard_games: int, even: bool = False) -> list[range]:
    """The seed ranges of a job's shards: at most `shard_games` each (an even number when
    `even`, for arenas, which play every opening with both colours)."""
    if games > SEEDS_PER_JOB:
        raise RunError(f"a job plays at most {SEEDS_PER_JOB} games, not {games}")
    size = max(1, shard_games)
    if even:
        size = max(2, size - size % 2)
    first = seed * SEEDS_PER_JOB
    return [range(first + a, first + min(games, a + size)) for a in range(0, games, size)]


def shard_name(kind: str, seeds: range) -> str:
    return f"{kind}-{seeds.start}-{seeds.stop - 1}"


def card(network: str) -> str:
    """The model card that goes with a network file."""
    return str(Path(network).with_suffix(".json"))


# ---- playing one shard ----


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL it when the process that started it dies, so a
    killed Ray worker (or driver) leaves no `othello` playing on (Linux's
    PR_SET_PDEATHSIG; elsewhere a no-op)."""
    if _prctl is not None:
        _prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG


def _load_prctl():  # type: ignore[no-untyped-def]
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


# Looked up once, before any fork: the child only calls it.
_prctl = _load_prctl()


def onnxruntime_library() -> str | None:
    """The ONNX Runtime shared library the engine should load to run networks several
    times faster than with tract: ORT_DYLIB_PATH when set, else the one of this Python's
    `onnxruntime` package."""
    if "ORT_DYLIB_PATH" in os.environ:
        return os.environ["ORT_DYLIB_PATH"]
    try:
        import onnxruntime
    except ImportError:
        return None
    capi = Path(onnxruntime.__file__).parent / "capi"
    found = sorted(capi.glob("libonnxruntime.so*")) + sorted(capi.glob("onnxruntime.dll"))
    return str(found[-1]) if found else None


def binary_missing(binary: str) -> RunError:
    return RunError(
        f"othello binary not found: {binary} (build it with `cargo build --release -p cli`"
        " or pass --othello PATH)"
    )


def play_shard(
    binary: str,
    shard: Shard,
    local: Mapping[str, str] | None = None,
    library: str | None = None,
) -> ShardResult:
    """Runs one shard in a fresh temporary folder and returns its output files. `local`
    maps the driver's path of each input to where it is on this machine (a Ray worker's
    copy); the outputs name the driver's paths again. `library`: ONNX Runtime's shared
    library (else ORT_DYLIB_PATH or this Python's onnxruntime)."""
    if not Path(binary).exists() and shutil.which(binary) is None:
        raise binary_missing(binary)
    moved = sorted(((d, w) for d, w in (local or {}).items() if d != w), key=lambda p: -len(p[0]))
    env = dict(os.environ)
    library = library or onnxruntime_library()
    if library:
        env["ORT_DYLIB_PATH"] = library
    with tempfile.TemporaryDirectory(prefix="othello-shard-") as tmp:
        out = Path(tmp) / "out"
        out.mkdir()
        args = []
        for arg in shard.args:
            arg = arg.replace(OUT, str(out))
            for driver, worker in moved:
                arg = arg.replace(driver, worker)
            args.append(arg)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        result = subprocess.run([binary, *args], check=False, env=env, preexec_fn=_die_with_parent)
        seconds = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if result.returncode < 0:
            raise ShardKilledError(f"{shard.name}: othello died of signal {-result.returncode}")
        if result.returncode != 0:
            command = " ".join([binary, *args])
            raise RunError(f"`{command}` failed with exit code {result.returncode}")
        files = {}
        for path in sorted(out.iterdir()):
            if path.is_file() and not path.name.startswith("."):
                data = path.read_bytes()
                if path.suffix in TEXT_SUFFIXES:
                    for driver, worker in moved:
                        data = data.replace(worker.encode(), driver.encode())
                files[path.name] = data
    if shard.marker not in files:
        raise RunError(f"{shard.name}: othello wrote no {shard.marker}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return ShardResult(files, cpu, seconds)


class LocalPool:
    """Plays shards one after another on this machine, each on `threads` cores."""

    def __init__(self, binary: str) -> None:
        self.binary = binary

    def play(self, shards: Sequence[Shard]) -> Iterator[tuple[Shard, ShardResult]]:
        for shard in shards:
            yield shard, play_shard(self.binary, shard)

    def remote_cpu_seconds(self) -> float:
        return 0.0  # the `othello` runs are this process's children: getrusage has them


# ---- the driver's side: what is done, what is left, writing results ----


def complete(shard: Shard) -> bool:
    return (shard.dest / shard.marker).is_file()


def prune(folder: Path, kind: str, keep: Iterable[str]) -> None:
    """Removes what a killed run left of shards of `kind` in `folder` (their files, and
    hidden partial ones), but the entries named in `keep`."""
    if not folder.is_dir():
        return
    keep = set(keep)
    for entry in folder.iterdir():
        ours = entry.name.startswith((f"{kind}-", "."))
        if entry.name in keep or not ours:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def write_shard(shard: Shard, result: ShardResult) -> None:
    """Writes a finished shard's files, its marker last, each under a temporary name first;
    a shard that is already complete is left as it is."""
    if complete(shard):
        return
    shard.dest.mkdir(parents=True, exist_ok=True)
    names = sorted(result.files, key=lambda name: (name == shard.marker, name))
    for name in names:
        tmp = shard.dest / f".{name}.partial"
        tmp.write_bytes(result.files[name])
        os.replace(tmp, shard.dest / name)


def play_missing(pool: Pool, shards: Sequence[Shard]) -> None:
    """Plays the shards that are not complete yet and writes each as it finishes."""
    for shard, result in pool.play([s for s in shards if not complete(s)]):
        write_shard(shard, result)


# ---- a Ray worker's side ----


def play_on_worker(shard: Shard, *blobs: bytes) -> ShardResult:
    """A shard on a Ray worker: the binary and the ONNX Runtime library are in the task's
    working directory (its runtime environment), the networks come as `blobs` from the
    object store, two per input (the .onnx, then its card)."""
    here = Path.cwd()
    libraries = sorted(here.glob("libonnxruntime.so*"))
    with tempfile.TemporaryDirectory(prefix="othello-inputs-") as tmp:
        local = {}
        for i, network in enumerate(shard.inputs):
            folder = Path(tmp) / str(i)
            folder.mkdir()
            model = folder / Path(network).name
            model.write_bytes(blobs[2 * i])
            (folder / Path(card(network)).name).write_bytes(blobs[2 * i + 1])
            local[network] = str(model)
        library = str(libraries[-1]) if libraries else None
        return play_shard(str(here / "othello"), shard, local, library)
