"""The ladder chains head-to-head matches into one Elo scale (train/ladder.py), fitted by
`othello elo`: the real binary where the numbers are checked, fake_othello's stand-in
(the real fit when one is built, else a placeholder) where only the plumbing is."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

from train.ladder import LadderError, fit_ladder, main, match_games
from train.tests import fake_othello
from train.tests.engine import BINARY_VARIABLE, real_othello

OTHELLO = real_othello()
needs_othello = pytest.mark.skipif(
    OTHELLO is None,
    reason=f"needs the othello binary: cargo build -p cli, or set ${BINARY_VARIABLE}",
)


def arena(path: Path, players: list[str], wins: int, draws: int, losses: int) -> str:
    """An arena report of the first player's wins, draws and losses, colours alternating."""
    games = []
    for i, margin in enumerate([8] * wins + [0] * draws + [-8] * losses):
        black, white = (0, 1) if i % 2 == 0 else (1, 0)
        games.append(
            {"black": black, "white": white, "black_margin": margin if black == 0 else -margin}
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"players": players, "games": games}))
    return path.name


def run_dir(root: Path, hours: dict[int, float]) -> None:
    rows = ["generation,cpu_hours"] + [f"{g},{h}" for g, h in hours.items()]
    (root / "metrics.csv").write_text("\n".join(rows) + "\n")


def ladder(anchor: str, *matches: tuple[str, list[str]]) -> dict[str, object]:
    """A manifest of the run in the test's folder."""
    return {
        "run": ".",
        "anchor": anchor,
        "matches": [{"arena": a, "players": players} for a, players in matches],
    }


def elo(score: float) -> float:
    return 400 * math.log10(score / (1 - score))


@needs_othello
def test_one_match_gives_the_elo_of_its_score(tmp_path: Path) -> None:
    run_dir(tmp_path, {3: 1.5})
    name = arena(tmp_path / "a.json", ["x.onnx", "y.onnx"], 150, 0, 50)
    manifest = ladder("fixed", (name, ["gen-3", "fixed"]))
    rungs = {r.name: r for r in fit_ladder(manifest, tmp_path, str(OTHELLO))}
    # One virtual draw against the anchor, as `othello arena` rates.
    assert rungs["gen-3"].elo == pytest.approx(elo(150.5 / 201), abs=0.5)
    assert rungs["gen-3"].low < rungs["gen-3"].elo < rungs["gen-3"].high
    assert rungs["gen-3"].cpu_hours == 1.5 and rungs["gen-3"].games == 200
    assert rungs["fixed"].elo == 0 and rungs["fixed"].cpu_hours is None


@needs_othello
def test_a_generation_that_never_met_the_anchor_is_rated_through_the_chain(
    tmp_path: Path,
) -> None:
    run_dir(tmp_path, {1: 1.0, 2: 2.0})
    even = arena(tmp_path / "m/even.json", ["g1", "a"], 100, 0, 100)
    ahead = arena(tmp_path / "m/ahead.json", ["g2", "g1"], 150, 0, 50)
    manifest = ladder("a", (f"m/{even}", ["gen-1", "a"]), (f"m/{ahead}", ["gen-2", "gen-1"]))
    rungs = fit_ladder(manifest, tmp_path, str(OTHELLO))
    assert [r.name for r in rungs] == ["a", "gen-1", "gen-2"]
    by_name = {r.name: r for r in rungs}
    assert abs(by_name["gen-1"].elo) < 5
    assert by_name["gen-2"].elo == pytest.approx(elo(0.75), abs=8)
    # Two links of uncertainty: wider than the first generation's.
    width = {n: r.high - r.low for n, r in by_name.items()}
    assert width["gen-2"] > width["gen-1"]


def test_a_manifest_that_does_not_fit_its_reports_is_refused(tmp_path: Path) -> None:
    binary, _ = fake_othello.install(tmp_path / "bin")
    run_dir(tmp_path, {1: 1.0})
    name = arena(tmp_path / "a.json", ["x", "y"], 10, 0, 10)
    three = ladder("a", (name, ["gen-1", "a", "b"]))
    with pytest.raises(LadderError, match="names 3 players"):
        fit_ladder(three, tmp_path, str(binary))
    unknown = ladder("a", (name, ["gen-9", "a"]))
    with pytest.raises(LadderError, match="no generation 9"):
        fit_ladder(unknown, tmp_path, str(binary))
    no_anchor = ladder("z", (name, ["gen-1", "a"]))
    with pytest.raises(LadderError, match="anchor z"):
        fit_ladder(no_anchor, tmp_path, str(binary))
    (tmp_path / "bad.json").write_text("{not json")
    broken = ladder("a", ("bad.json", ["gen-1", "a"]))
    with pytest.raises(LadderError, match="not an arena report"):
        fit_ladder(broken, tmp_path, str(binary))
    with pytest.raises(LadderError, match="othello binary not found"):
        fit_ladder(ladder("a", (name, ["gen-1", "a"])), tmp_path, str(tmp_path / "none"))


def test_the_command_writes_the_plot_and_fails_cleanly_on_a_bad_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary, _ = fake_othello.install(tmp_path / "bin")
    run_dir(tmp_path, {4: 2.5})
    name = arena(tmp_path / "a.json", ["x", "y"], 120, 10, 70)
    manifest = tmp_path / "ladder.json"
    manifest.write_text(json.dumps(ladder("a", (name, ["gen-4", "a"]))))
    assert main(["--manifest", str(manifest), "--othello", str(binary)]) == 0
    assert (tmp_path / "plots" / "ladder-cpu.png").stat().st_size > 0
    assert "| gen-4 | 2.50 | 200 |" in capsys.readouterr().out
    missing = ["--othello", str(tmp_path / "none")]
    assert main(["--manifest", str(manifest), *missing]) == 2
    assert "othello binary not found" in capsys.readouterr().err
    manifest.write_text(json.dumps({"run": ".", "matches": []}))
    assert main(["--manifest", str(manifest), "--othello", str(binary)]) == 2
    assert "no `anchor`" in capsys.readouterr().err


def test_a_gzipped_report_reads_as_the_plain_one(tmp_path: Path) -> None:
    name = arena(tmp_path / "a.json", ["x", "y"], 12, 3, 9)
    plain = tmp_path / name
    packed = tmp_path / "a.json.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    games = match_games(plain, ["gen-1", "a"])
    assert len(games) == 24 and match_games(packed, ["gen-1", "a"]) == games
    (tmp_path / "bad.json.gz").write_bytes(b"not gzip")
    with pytest.raises(LadderError, match="not an arena report"):
        match_games(tmp_path / "bad.json.gz", ["gen-1", "a"])
