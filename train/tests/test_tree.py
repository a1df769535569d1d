"""What git keeps (docs/training.md, "What a run keeps in git"): the tracked files stay
under 20 MB, and a finished run keeps its summary, not its checkpoints, networks and
sample data. Skipped outside a git checkout (a source archive, an installed package)."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 20 * 1000 * 1000  # bytes of tracked files, as `du -cb` counts them
# Runs that go on: each keeps what its resume needs (its latest.pt, its best.onnx). A run
# leaves this list when it finishes, with a SUMMARY.md (python -m train.summarise) and
# without them.
LIVE_RUNS = ("pattern-8x8",)


def tracked() -> list[PurePosixPath]:
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    files = [PurePosixPath(p) for p in out.decode().split("\0") if p]
    if not files:
        pytest.skip("not a git checkout")
    return files


def run_of(path: PurePosixPath) -> str | None:
    """The folder under runs/ that holds `path`, or None outside runs/."""
    return path.parts[1] if len(path.parts) > 2 and path.parts[0] == "runs" else None


def test_the_tracked_files_stay_under_the_limit() -> None:
    # A file deleted in the working tree but not yet in git counts as nothing.
    sizes = [(ROOT / p).stat().st_size for p in tracked() if (ROOT / p).is_file()]
    total = sum(sizes)
    assert total <= LIMIT, (
        f"the tracked files hold {total:,} bytes, over {LIMIT:,}: see docs/training.md, "
        "What a run keeps in git"
    )


def test_finished_runs_keep_no_checkpoint_network_or_sample_data() -> None:
    heavy = []
    for p in tracked():
        run = run_of(p)
        if run is None:
            continue
        live = run in LIVE_RUNS
        if (
            p.suffix == ".npz"
            or (p.suffix == ".pt" and not (live and kept_for_the_resume(p)))
            or (p.suffix == ".onnx" and not (live and p.name == "best.onnx"))
        ):
            heavy.append(p)
    assert not heavy, f"checkpoints, networks or sample data of finished runs in git: {heavy}"


def kept_for_the_resume(p: PurePosixPath) -> bool:
    """A live run's checkpoint its resume reads: `latest.pt`, or a fit under fits/ that
    the next generations' means of weights read (`train.pattern_loop`)."""
    return p.name == "latest.pt" or (len(p.parts) == 4 and p.parts[2] == "fits")


def test_every_finished_run_has_its_summary() -> None:
    files = set(tracked())
    folders = {run for p in files if (run := run_of(p)) is not None}
    assert set(LIVE_RUNS) <= folders, "a run in LIVE_RUNS has no folder under runs/"
    missing = sorted(
        f for f in folders - set(LIVE_RUNS) if PurePosixPath("runs", f, "SUMMARY.md") not in files
    )
    assert not missing, f"finished runs without a SUMMARY.md (python -m train.summarise): {missing}"


def test_runs_hold_no_scripts_and_no_copies_of_files_kept_elsewhere() -> None:
    """A command a doc runs is a module of train/ with its test, not a file under runs/,
    and a file the tree keeps elsewhere (a shipped book, a network) is not kept again
    under runs/ (docs/training.md, "What a run keeps in git")."""
    files = [p for p in tracked() if (ROOT / p).is_file()]
    scripts = [p for p in files if run_of(p) is not None and p.suffix in (".py", ".sh")]
    assert not scripts, f"scripts under runs/ (make them train/ modules): {scripts}"
    sizes: dict[int, list[PurePosixPath]] = {}
    for p in files:
        if run_of(p) is None:
            sizes.setdefault((ROOT / p).stat().st_size, []).append(p)

    def digest(p: PurePosixPath) -> str:
        return hashlib.sha256((ROOT / p).read_bytes()).hexdigest()

    # A run that goes on keeps what its resume needs, and its best network may be the one
    # shipped in models/ until a later generation passes the gate.
    def resume_state(p: PurePosixPath) -> bool:
        return run_of(p) in LIVE_RUNS and (
            p.name in ("best.onnx", "best.json") or kept_for_the_resume(p)
        )

    copies = []
    for p in files:
        kept = run_of(p) is not None and not resume_state(p)
        same_size = sizes.get((ROOT / p).stat().st_size, []) if kept else []
        copies += [(p, q) for q in same_size if digest(p) == digest(q)]
    assert not copies, f"files under runs/ that are copies of files kept elsewhere: {copies}"
