"""Where a phase's shards are played: `opened_pool` opens this machine's `LocalPool`
(`train.shards`) or a Ray cluster's `RayPool` (`train.cluster`). It lives above both, so
that `train.cluster` can build on `train.shards` without the two importing each other."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from train.shards import LocalPool, Pool, onnxruntime_library


@contextmanager
def opened_pool(binary: str, ray_address: str | None) -> Iterator[Pool]:
    """Where shards are played, for the `with` block: here, one after another, or on a Ray
    cluster, with the binary and ONNX Runtime's library sent to the workers, disconnected
    from the cluster on the way out."""
    if ray_address is None:
        yield LocalPool(binary)
        return
    from train.cluster import RayPool  # ray is imported only when asked for

    pool = RayPool(binary, ray_address, library=onnxruntime_library())
    try:
        yield pool
    finally:
        pool.close()
