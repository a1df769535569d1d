"""Finding the Rust engine that the end-to-end tests drive."""

from __future__ import annotations

import os
from pathlib import Path

# A binary built elsewhere (another worktree's target/, say), tried before this checkout's.
BINARY_VARIABLE = "OTHELLO_BINARY"


def real_othello() -> Path | None:
    """$OTHELLO_BINARY when it names a file, else the newest engine binary that `cargo test`
    (debug) or `cargo build --release` left in this checkout."""
    given = os.environ.get(BINARY_VARIABLE)
    if given and Path(given).is_file():
        return Path(given)
    root = Path(__file__).resolve().parents[2] / "target"
    built = [root / b / "othello" for b in ("release", "debug") if (root / b / "othello").exists()]
    return max(built, key=lambda p: p.stat().st_mtime, default=None)
