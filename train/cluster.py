"""Shards as Ray tasks: `python -m train.loop ... --ray [auto|ADDRESS|local]`.

The loop connects to the cluster as the driver of one Ray job. Each shard is one task
(`train.shards.play_on_worker`) that runs the `othello` binary on whichever node Ray puts
it, with `num_cpus` = the shard's threads, and returns its files; the driver writes them
into the run directory (train.shards.write_shard) as they come.

What reaches the workers, and how:
- the networks: `ray.put` once per phase, passed to every task as arguments; a node
  fetches each object from the object store once and its tasks share it;
- the `othello` binary and ONNX Runtime's shared library: the job's runtime environment
  (`working_dir`: a folder holding the two, which `ray.init` uploads to the cluster and
  every node unpacks once; Ray keeps file modes, so the binary stays executable). So a
  worker node needs nothing of the project but what any Ray node needs: the same Python
  and Ray as the driver (the trainer's venv, or just `pip install ray==<pinned>`);
- this package's code: `py_modules` of the same runtime environment, so a worker imports
  the driver's `train`, whatever is (or is not) installed there.
Ray accepts local folders only in a job's runtime environment, not in a task's options.

A task whose worker dies is retried by Ray (`max_retries`); one whose `othello` process
died of a signal is retried too (`retry_exceptions=[ShardKilledError]`); a non-zero exit
is an error that stops the run, as it does locally. The `othello` process dies with its
worker (PR_SET_PDEATHSIG), so a retry never races an orphan of the first attempt.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import ray

import train
from train.shards import (
    RunError,
    Shard,
    ShardKilledError,
    ShardResult,
    binary_missing,
    card,
    play_on_worker,
)

# Tries after the first for a task whose worker or `othello` process died (Ray's
# default for tasks is 3 as well).
RETRIES = 3


class RayPool:
    """Connects this process to a Ray cluster as the driver of one job and plays shards as
    its tasks. `address`: what `ray.init` connects to -- `auto` (the cluster `ray start`
    runs on this machine, or RAY_ADDRESS), `HOST:PORT` of a head node, or `local` (a
    private cluster of this machine's cores, gone with the driver). `library`: ONNX
    Runtime's shared library, sent along with the binary (None: the workers' engine finds
    its own, or uses tract). `close` disconnects."""

    def __init__(
        self,
        binary: str,
        address: str | None = "auto",
        library: str | None = None,
        retries: int = RETRIES,
        init: dict[str, Any] | None = None,
    ) -> None:
        path = Path(binary) if Path(binary).exists() else None
        if path is None:
            found = shutil.which(binary)
            if found is None:
                raise binary_missing(binary)
            path = Path(found)
        if ray.is_initialized():
            raise RunError("this process is connected to Ray already: one RayPool at a time")
        self.retries = retries
        self.remote_cpu = 0.0
        self.stage = Path(tempfile.mkdtemp(prefix="othello-ray-env-"))
        shutil.copy2(path, self.stage / "othello")
        if library:
            shutil.copy2(library, self.stage / Path(library).name)
        runtime_env = {
            "working_dir": str(self.stage),
            "py_modules": [str(Path(train.__file__).parent)],
        }
        try:
            ray.init(address=address, runtime_env=runtime_env, **(init or {}))
        except (ConnectionError, RuntimeError, ValueError) as e:
            shutil.rmtree(self.stage, ignore_errors=True)
            raise RunError(f"cannot connect to the Ray cluster at {address}: {e}") from e
        self.task = ray.remote(play_on_worker)

    def play(self, shards: Sequence[Shard]) -> Iterator[tuple[Shard, ShardResult]]:
        networks = {n for s in shards for n in s.inputs}
        objects = {
            n: (ray.put(Path(n).read_bytes()), ray.put(Path(card(n)).read_bytes()))
            for n in sorted(networks)
        }
        pending = {}
        for shard in shards:
            blobs = [ref for n in shard.inputs for ref in objects[n]]
            ref = self.task.options(
                name=shard.name,
                num_cpus=shard.threads,
                max_retries=self.retries,
                retry_exceptions=[ShardKilledError],
            ).remote(shard, *blobs)
            pending[ref] = shard
        try:
            while pending:
                [ready], _ = ray.wait(list(pending), num_returns=1)
                shard = pending.pop(ready)
                try:
                    result: ShardResult = ray.get(ready)
                except ray.exceptions.RayTaskError as e:
                    cause = e.cause if isinstance(e.cause, RunError) else e
                    raise RunError(f"shard {shard.name}: {cause}") from e
                except ray.exceptions.RayError as e:
                    raise RunError(f"shard {shard.name} failed on the Ray cluster: {e}") from e
                self.remote_cpu += result.cpu_seconds
                yield shard, result
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def remote_cpu_seconds(self) -> float:
        return self.remote_cpu

    def close(self) -> None:
        ray.shutdown()
        shutil.rmtree(self.stage, ignore_errors=True)
