"""Finding the Rust engine that the end-to-end tests drive."""

from __future__ import annotations

from pathlib import Path


def real_othello() -> Path | None:
    """The newest engine binary that `cargo test` (debug) or `cargo build --release` left."""
    root = Path(__file__).resolve().parents[2] / "target"
    built = [root / b / "othello" for b in ("release", "debug") if (root / b / "othello").exists()]
    return max(built, key=lambda p: p.stat().st_mtime, default=None)
