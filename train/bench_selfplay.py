"""Self-play throughput: the same shards played here one after another (the loop's local
path) or as Ray tasks on a private local cluster of N CPUs (`--ray`), in games per hour,
with Ray's overhead per shard (the wall time it adds to each shard's own).

    python -m train.bench_selfplay --othello target/release/othello --board 8 \\
        --model models/az-8x8.onnx --games 128 --shard-games 16 --sims 200 --fast-sims 40
    python -m train.bench_selfplay ... --ray 1     # one worker
    python -m train.bench_selfplay ... --ray 2     # two

The numbers in docs/training.md ("Self-play on a Ray cluster") come from it.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from train.othello_cli import SelfPlayJob, selfplay_shards
from train.shards import LocalPool, Pool, onnxruntime_library, write_shard


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m train.bench_selfplay", description=__doc__)
    p.add_argument("--othello", default="target/release/othello")
    p.add_argument("--board", type=int, default=8)
    p.add_argument("--model", type=Path)
    p.add_argument("--games", type=int, default=128)
    p.add_argument("--shard-games", type=int, default=16)
    p.add_argument("--sims", type=int, default=200)
    p.add_argument("--fast-sims", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="threads of each shard")
    p.add_argument("--ray", type=int, metavar="CPUS", help="a local Ray cluster of CPUS")
    a = p.parse_args(argv)
    pool: Pool
    if a.ray:
        from train.cluster import RayPool

        t0 = time.monotonic()
        pool = RayPool(a.othello, "local", library=onnxruntime_library(), init={"num_cpus": a.ray})
        print(f"ray: a local cluster of {a.ray} CPUs up in {time.monotonic() - t0:.1f} s")
    else:
        pool = LocalPool(a.othello)
    with tempfile.TemporaryDirectory() as tmp:
        job = SelfPlayJob(
            a.board, a.model, a.games, a.sims, Path(tmp), seed=1, threads=a.threads,
            fast_sims=a.fast_sims,
        )  # fmt: skip
        shards = selfplay_shards(job, a.shard_games)
        t0 = time.monotonic()
        own = 0.0
        for shard, result in pool.play(shards):
            write_shard(shard, result)
            own += result.seconds
        wall = time.monotonic() - t0
    close = getattr(pool, "close", None)
    if close is not None:
        close()
    workers = a.ray or 1
    print(
        f"{a.games} games in {len(shards)} shards: {wall:.1f} s, "
        f"{a.games * 3600 / wall:.0f} games/hour; the shards' own time {own:.1f} s; "
        f"overhead per shard {(wall * workers - own) / len(shards):.3f} s "
        f"(wall x workers - own, over the shards); load {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
