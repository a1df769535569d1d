import json
from pathlib import Path

import pytest

from train import othello_cli
from train.othello_cli import SelfPlayJob, othello_selfplay
from train.shards import LocalPool, ShardKilledError, play_shard, seed_ranges, shard_name
from train.tests import fake_othello
from train.tests.engine import BINARY_VARIABLE, real_othello

DATA = Path(__file__).parent / "data"


def test_a_job_s_seeds_are_cut_into_shards_named_by_their_range() -> None:
    shards = seed_ranges(3, 10, 4)
    assert [(r.start, r.stop) for r in shards] == [
        (3_000_000, 3_000_004),
        (3_000_004, 3_000_008),
        (3_000_008, 3_000_010),
    ]
    assert shard_name("selfplay", shards[2]) == "selfplay-3000008-3000009"
    # Arena shards play every opening with both colours: an even number of games each.
    assert [len(r) for r in seed_ranges(3, 10, 5, even=True)] == [4, 4, 2]
    assert seed_ranges(3, 0, 4) == []


@pytest.mark.skipif(
    real_othello() is None,
    reason=f"needs the othello binary: cargo build -p cli, or set ${BINARY_VARIABLE}",
)
def test_the_elo_fit_reproduces_the_arena_s_own_ratings() -> None:
    """What `othello arena` rated (a round robin of 4 players, random = 0), rated again from
    its games: the fit that rates the games of several arena shards as one tournament."""
    binary = str(real_othello())
    report = json.loads((DATA / "arena-round-robin.json").read_text())
    players = report["players"]
    games = [
        (g["black"], g["white"], othello_cli.points(g["black_margin"])) for g in report["games"]
    ]
    fitted = othello_cli.fit_elo(binary, len(players), games, players.index(report["anchor"]))
    for rating, (elo, low, high) in zip(report["ratings"], fitted, strict=True):
        assert elo == pytest.approx(rating["elo"], abs=1e-6)
        assert (low, high) == pytest.approx((rating["low"], rating["high"]), abs=1e-6)


def test_a_killed_phase_keeps_its_complete_shards_and_plays_the_rest(tmp_path: Path) -> None:
    binary, control = fake_othello.install(tmp_path)
    out = tmp_path / "data"
    job = SelfPlayJob(6, None, 6, 4, out, seed=2, threads=1)
    selfplay = othello_selfplay(str(binary), LocalPool(str(binary)), shard_games=2)
    selfplay([job])
    files = sorted(p.name for p in out.iterdir())
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    # What a run killed part way leaves: a shard without its marker (the sidecar, written
    # last), a half-written file, and a shard of another plan (another --shard-games).
    (out / "selfplay-2000002-2000003.json").unlink()
    (out / ".selfplay-2000004-2000005.npz.partial").write_bytes(b"half")
    (out / "selfplay-2000000-2000002.npz").write_bytes(b"stale")
    selfplay([job])
    assert sorted(p.name for p in out.iterdir()) == files
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first
    # Only the incomplete shard was played again.
    assert [r.seed for r in fake_othello.runs(control)] == [
        2_000_000, 2_000_002, 2_000_004, 2_000_002,
    ]  # fmt: skip


def test_an_othello_killed_by_a_signal_is_an_error_worth_a_retry(tmp_path: Path) -> None:
    binary = tmp_path / "othello"
    binary.write_text("#!/bin/sh\nkill -9 $$\n")
    binary.chmod(0o755)
    job = SelfPlayJob(6, None, 2, 4, tmp_path / "out", seed=1, threads=1)
    [shard] = othello_cli.selfplay_shards(job)
    with pytest.raises(ShardKilledError, match="signal 9"):
        play_shard(str(binary), shard)
