"""The Elo fit is asked of the engine (`othello elo`), and the numpy copy stands in while
the binary has no such subcommand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from train import othello_cli
from train.othello_cli import RunError, fit_elo, fit_elo_numpy, points
from train.tests.engine import BINARY_VARIABLE, real_othello

GAMES = [(0, 1, 1.0), (1, 0, 0.0), (0, 1, 0.5), (1, 0, 1.0), (0, 2, 1.0), (2, 0, 0.5), (1, 2, 0.0)]

# An `othello` with an `elo` subcommand as the Python side asks for it: it keeps the
# request, and answers the numpy fit plus 1000 so that its answer is told apart.
ENGINE = """#!{python}
import json, sys
sys.path.insert(0, {root!r})
from train.othello_cli import fit_elo_numpy
if sys.argv[1:] != ["elo", "-"]:
    print("error: unrecognized subcommand", file=sys.stderr)
    sys.exit(2)
request = json.load(sys.stdin)
open({log!r}, "w").write(json.dumps(request))
if {fail}:
    print("error: the results have no finite best fit", file=sys.stderr)
    sys.exit(1)
names = request["players"]
index = {{p: i for i, p in enumerate(names)}}
points = {{1: 1.0, 0: 0.5, -1: 0.0}}
games = [(g["black"], g["white"], points[g["black_margin"]]) for g in request["games"]]
fitted = fit_elo_numpy(len(names), games, index[request["anchor"]], request["prior_draws"])
ratings = [
    {{"player": p, "elo": e + 1000, "stderr": 1.0, "low": lo + 1000, "high": hi + 1000}}
    for p, (e, lo, hi) in zip(names, fitted)
]
print(json.dumps({{"anchor": request["anchor"], "ratings": ratings[::-1]}}))
"""

ROOT = Path(__file__).resolve().parents[2]


def engine(tmp_path: Path, fail: bool = False) -> tuple[Path, Path]:
    binary, log = tmp_path / "othello", tmp_path / "request.json"
    text = ENGINE.format(python=sys.executable, root=str(ROOT), log=str(log), fail=fail)
    binary.write_text(text)
    binary.chmod(0o755)
    return binary, log


def test_the_engine_fits_when_it_can(tmp_path: Path) -> None:
    binary, log = engine(tmp_path)
    got = fit_elo(3, GAMES, anchor=1, binary=str(binary))
    want = fit_elo_numpy(3, GAMES, anchor=1)
    np.testing.assert_allclose(np.array(got), np.array(want) + 1000)
    request = json.loads(log.read_text())
    assert request["players"] == ["p0", "p1", "p2"] and request["anchor"] == "p1"
    assert request["prior_draws"] == 1.0
    assert request["games"][:3] == [
        {"black": 0, "white": 1, "black_margin": 1},
        {"black": 1, "white": 0, "black_margin": -1},
        {"black": 0, "white": 1, "black_margin": 0},
    ]


def test_an_engine_that_finds_no_fit_says_so(tmp_path: Path) -> None:
    binary, _ = engine(tmp_path, fail=True)
    with pytest.raises(RunError, match="elo` failed: error: the results have no finite best fit"):
        fit_elo(3, GAMES, anchor=1, binary=str(binary))


def test_without_the_subcommand_or_the_binary_the_numpy_fit_answers(tmp_path: Path) -> None:
    want = fit_elo_numpy(3, GAMES, anchor=1)
    assert fit_elo(3, GAMES, anchor=1, binary=str(tmp_path / "missing")) == want
    old = tmp_path / "old"
    # What clap answers for a subcommand it does not know.
    clap = "print(\"error: unrecognized subcommand 'elo'\", file=sys.stderr); sys.exit(2)"
    old.write_text(f"#!{sys.executable}\nimport sys\n{clap}\n")
    old.chmod(0o755)
    binary = real_othello()
    for b in [old] + ([binary] if binary else []):
        got = othello_cli.engine_fit_elo(str(b), 3, GAMES, 1, 1.0)
        assert got is None or np.allclose(got, want, atol=1e-6)


@pytest.mark.skipif(
    real_othello() is None,
    reason=f"needs the othello binary: cargo build -p cli, or set ${BINARY_VARIABLE}",
)
def test_the_numpy_fit_gives_the_arenas_own_ratings(tmp_path: Path) -> None:
    """While both fits exist they must agree: the arena's ratings of its own games."""
    cmd = [
        str(real_othello()), "arena", "--board", "6", "--players", "random,greedy,heuristic",
        "--games", "10", "--threads", "1", "--seed", "3", "--out", str(tmp_path),
    ]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True)
    report = json.loads((tmp_path / "arena.json").read_text())
    players = report["players"]
    games = [(g["black"], g["white"], points(g["black_margin"])) for g in report["games"]]
    fitted = fit_elo_numpy(len(players), games, players.index(report["anchor"]))
    want = [(r["elo"], r["low"], r["high"]) for r in report["ratings"]]
    np.testing.assert_allclose(np.array(fitted), np.array(want), atol=1e-6)
