"""Grows an opening book in rounds whose searches are shards, played here one after another
or as Ray tasks on a cluster: `othello book build` for many machines.

    python -m train.book --book books/8x8.book --player mcts:model=models/az-8x8.onnx \\
        --sims 20000 --othello target/release/othello [--ray auto|ADDRESS|local] \\
        [--rounds R] [--round-positions 64] [--shard-positions 4] \\
        [--depth D --margin M --total-margin T] [--board 8] [--variant standard]

A round:
1. `othello book todo BOOK --count K` lists the positions the drop-out expansion searches
   next (deterministic for a given book); none left: the book is done;
2. they are cut, in that order, into shards of S positions, each named by a hash of its
   board texts (`book-<hash>`) and running `othello book search --position ... --out
   OUT/book-<hash>.book`; the player's network is the shard's input, so Ray ships it
   through the object store and the worker runs its own copy;
3. the pool plays them; each finished shard's book is written into the shard folder
   (`BOOK.shards/`, beside BOOK) under a temporary name and renamed (train.shards);
4. `othello book merge BOOK <shard books>` (an atomic rewrite of BOOK), then the merged
   shard books are removed.

A killed driver leaves complete shard books in the shard folder (and maybe a hidden
partial one); the next start merges the complete ones into BOOK first and removes
everything else there, so what was searched is kept and not searched again, and the next
`todo`, from the grown book, lists only positions it lacks. Merging a shard book twice
(killed between the merge and the removal) changes nothing: a search's entry counts no
games, and of two equal searches the book's is kept.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from train.othello_cli import networks_in
from train.pools import opened_pool
from train.shards import (
    OUT,
    Pool,
    RunError,
    Shard,
    binary_missing,
    onnxruntime_library,
    play_missing,
    prune,
)

ROUND_POSITIONS = 64
SHARD_POSITIONS = 4
# Shard books merged by one `othello book merge` (it rewrites BOOK once per call): few
# enough that the command line stays short whatever the round's size.
MERGE_BATCH = 256
KIND = "book"  # shard names: book-<hash>


@dataclass(frozen=True)
class BookJob:
    book: Path
    player: str  # an `mcts` spec; its model=PATH is the shards' input
    sims: int
    board: int = 8
    variant: str = "standard"
    # The growth's limits; None: the binary's defaults.
    depth: int | None = None
    margin: float | None = None
    total_margin: float | None = None

    @property
    def shards(self) -> Path:
        return shard_folder(self.book)

    def board_args(self) -> list[str]:
        return ["--board", str(self.board), "--variant", self.variant]

    def growth_args(self) -> list[str]:
        args = []
        for flag, value in (
            ("--depth", self.depth),
            ("--margin", self.margin),
            ("--total-margin", self.total_margin),
        ):
            if value is not None:
                args += [flag, str(value)]
        return args


def shard_folder(book: Path) -> Path:
    return book.with_name(book.name + ".shards")


def shard_name(positions: Sequence[str]) -> str:
    """Named by its positions: the same positions, the same shard, on any run."""
    digest = hashlib.sha256("\n".join(positions).encode()).hexdigest()
    return f"{KIND}-{digest[:16]}"


def book_shards(job: BookJob, positions: Sequence[str], per_shard: int) -> list[Shard]:
    """The round's positions, in `todo`'s order, in shards of `per_shard`."""
    size = max(1, per_shard)
    shards = []
    for start in range(0, len(positions), size):
        chunk = positions[start : start + size]
        name = shard_name(chunk)
        args = ["book", "search", "--player", job.player, "--sims", str(job.sims)]
        args += job.board_args()
        for position in chunk:
            args += ["--position", position]
        args += ["--out", f"{OUT}/{name}.book"]
        marker = f"{name}.book"
        # threads=1: `book search` runs one search at a time, on one core.
        shards.append(Shard(name, tuple(args), job.shards, marker, networks_in(job.player), 1))
    return shards


def othello(binary: str, *args: str) -> str:
    """Runs the binary; its standard output. A failure is a RunError with its message."""
    env = dict(os.environ)
    library = onnxruntime_library()
    if library:
        env["ORT_DYLIB_PATH"] = library
    try:
        result = subprocess.run(
            [binary, *args], capture_output=True, text=True, env=env, check=False
        )
    except FileNotFoundError as e:
        raise binary_missing(binary) from e
    if result.returncode != 0:
        command = " ".join([binary, *args])
        raise RunError(f"`{command}` failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def merge(binary: str, job: BookJob, books: Sequence[Path]) -> str:
    """Merges shard books into BOOK, then removes them; the last merge's summary line."""
    summary = ""
    for start in range(0, len(books), MERGE_BATCH):
        batch = books[start : start + MERGE_BATCH]
        text = othello(binary, "book", "merge", str(job.book), *map(str, batch), *job.board_args())
        summary = text.strip().splitlines()[-1] if text.strip() else summary
        # Only once BOOK holds them: a kill before this point merges them again on the
        # next start, which changes nothing.
        for path in batch:
            path.unlink()
    return summary


def merge_leftovers(binary: str, job: BookJob) -> int:
    """What a killed driver left in the shard folder: the complete shard books go into
    BOOK, the rest (hidden partial files) away. How many were merged."""
    folder = job.shards
    if not folder.is_dir():
        return 0
    done = sorted(p for p in folder.glob(f"{KIND}-*.book") if p.is_file())
    if done:
        print(merge(binary, job, done))
    prune(folder, KIND, [])
    return len(done)


def todo(binary: str, job: BookJob, count: int) -> list[str]:
    out = othello(binary, "book", "todo", str(job.book), "--count", str(count), *job.growth_args())
    return [line.strip() for line in out.splitlines() if line.strip()]


def grow(
    binary: str,
    pool: Pool,
    job: BookJob,
    rounds: int | None = None,
    round_positions: int = ROUND_POSITIONS,
    shard_positions: int = SHARD_POSITIONS,
) -> int:
    """Grows the book by up to `rounds` rounds (None: until `todo` lists nothing); the
    positions it searched."""
    leftovers = merge_leftovers(binary, job)
    if leftovers:
        print(f"merged {leftovers} shard books a killed run left in {job.shards}")
    if not job.book.exists():
        # `todo` reads a book: start with an empty one of this board, made by the binary.
        othello(binary, "book", "build", str(job.book), "--player", job.player,
                "--sims", str(job.sims), *job.board_args(), "--positions", "0")  # fmt: skip
    searched = 0
    done = 0
    while rounds is None or done < rounds:
        positions = todo(binary, job, round_positions)
        if not positions:
            print(f"{job.book}: the book holds every line its margins and depth allow")
            break
        start = time.monotonic()
        shards = book_shards(job, positions, shard_positions)
        play_missing(pool, shards)
        summary = merge(binary, job, [s.dest / s.marker for s in shards])
        done += 1
        searched += len(positions)
        seconds = time.monotonic() - start
        print(
            f"round {done}: {len(positions)} positions in {len(shards)} shards, "
            f"{seconds:.1f} s; {summary}",
            flush=True,
        )
    with contextlib.suppress(OSError):
        job.shards.rmdir()  # empty now: the round's shard books are merged and gone
    return searched


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m train.book",
        description="Grow an opening book in rounds of `othello book todo`, whose searches "
        "(`othello book search`) are shards played here or on a Ray cluster and merged into "
        "the book. A killed run resumes with the same command.",
    )
    p.add_argument("--book", type=Path, required=True, help="the book file (made when missing)")
    p.add_argument(
        "--player",
        required=True,
        help="the `mcts` player that searches each position, e.g. mcts:model=models/az-8x8.onnx",
    )
    p.add_argument("--sims", type=int, required=True, help="simulations per position")
    p.add_argument("--othello", default="target/release/othello", help="the othello binary")
    p.add_argument("--board", type=int, default=8, help="8, 6 or 4")
    p.add_argument("--variant", default="standard", help="standard or reversed")
    p.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        metavar="ADDRESS",
        help="play the shards as Ray tasks: on the cluster at ADDRESS (HOST:PORT of its "
        "head), `auto` (the cluster `ray start` runs on this machine, or RAY_ADDRESS) or "
        "`local` (a private cluster of this machine's cores); without it, here",
    )
    p.add_argument("--rounds", type=int, help="stop after this many rounds (default: when done)")
    p.add_argument(
        "--round-positions",
        type=int,
        default=ROUND_POSITIONS,
        help="positions a round searches (`todo --count`): at least shards x cluster cores",
    )
    p.add_argument(
        "--shard-positions", type=int, default=SHARD_POSITIONS, help="positions per shard"
    )
    p.add_argument("--depth", type=int, help="deepest position, in moves from the start")
    p.add_argument("--margin", type=float, help="follow moves within this many discs")
    p.add_argument("--total-margin", type=float, help="... on lines losing at most this many")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    job = BookJob(a.book, a.player, a.sims, a.board, a.variant, a.depth, a.margin, a.total_margin)
    try:
        if a.round_positions < 1 or a.shard_positions < 1:
            raise RunError("--round-positions and --shard-positions must be at least 1")
        with opened_pool(a.othello, a.ray) as pool:
            searched = grow(a.othello, pool, job, a.rounds, a.round_positions, a.shard_positions)
        print(f"{job.book}: {searched} positions searched")
        print(othello(a.othello, "book", "stats", str(job.book)), end="")
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
