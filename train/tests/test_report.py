"""The model report: its statistics on games and positions with known answers, and the
command end to end on a committed arena record (no `othello` binary needed)."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from train import report
from train.env import Games
from train.report_stats import (
    CornerStats,
    ModelGame,
    ReportError,
    entropy,
    entropy_by_phase,
    model_games,
    parse_transcript,
    phase,
    policy_probabilities,
    replay,
    symmetry_consistency,
    wilson,
)
from train.tests.engine import real_othello

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "models" / "tiny-random-6x6.onnx"
TINY_8 = ROOT / "models" / "tiny-random-8x8.onnx"
ARENA = Path(__file__).parent / "data" / "arena-report-6x6.json"

# 6x6, Black to move: c2 d2 e4 b2 b1 b4 a1. Black's third move (b1) is its first with a
# corner on offer (a1, through b2 and c3); it passes it up, and takes a1 on its fourth.
CORNER_LINE = "c2d2e4b2b1b4a1"


def positions(n: int, plies: int, games: int = 32, seed: int = 0) -> np.ndarray:
    """The planes of random games' positions, a few of every phase."""
    rng = np.random.default_rng(seed)
    g = Games(n, games)
    out = []
    for _ in range(plies):
        legal = g.legal_mask()
        g.play(np.array([rng.choice(np.flatnonzero(row)) for row in legal]))
        out.append(g.planes()[~g.done])
    return np.concatenate(out)


def test_transcripts_read_squares_and_passes_in_policy_order() -> None:
    assert parse_transcript("a1f6passb2", 6) == [0, 35, 36, 7]
    with pytest.raises(ReportError, match="off the 6x6 board"):
        parse_transcript("g1", 6)
    with pytest.raises(ReportError, match="bad transcript"):
        parse_transcript("a1zz", 6)


def test_a_corner_passed_up_once_then_taken_is_a_wait_of_one_turn() -> None:
    r = replay(ModelGame("x", True, parse_transcript(CORNER_LINE, 6), 0, 0), 6)
    assert r.corner_chance == [False, False, True, True]
    assert r.took_corner == [False, False, False, True]
    stats = CornerStats()
    stats.add(r.corner_chance, r.took_corner)
    assert (stats.turns, stats.chances, stats.taken, stats.rate) == (4, 2, 1, 0.5)
    assert (stats.waits, stats.censored, stats.games_taken) == ([1], [], 1)
    # Counted by hand: Black c2 (4-1), White d2 (3-3), Black e4 (6-1), White b2 (5-3)...
    assert r.model_discs.tolist() == [2, 4, 3, 6, 5, 7, 6, 9]
    assert r.opponent_discs.tolist() == [2, 1, 3, 1, 3, 2, 4, 2]
    assert r.model_mobility[0] == r.opponent_mobility[0] == 4


def test_the_opening_plies_are_not_the_models_turns() -> None:
    r = replay(ModelGame("x", True, parse_transcript(CORNER_LINE, 6), 4, 0), 6)
    assert (r.corner_chance, r.took_corner) == ([True, True], [False, True])
    assert len(r.planes) == len(r.empties) == 2


def test_waits_count_own_turns_from_the_first_chance() -> None:
    stats = CornerStats()
    stats.add([False, True, False, True], [False, True, False, False])  # at once: 0
    stats.add([True, True, False, True], [False, False, False, True])  # three turns later
    stats.add([False, True, True, False], [False, False, False, False])  # never: 3 left
    stats.add([False, False], [False, False])  # no chance at all
    assert (stats.turns, stats.chances, stats.taken) == (14, 7, 2)
    assert (stats.games_with_chance, stats.games_taken) == (3, 2)
    assert stats.waits == [0, 3] and stats.mean_wait == 1.5
    assert stats.censored == [3] and stats.mean_censored == 3


def test_an_illegal_move_in_a_record_is_a_report_error() -> None:
    with pytest.raises(ReportError, match="illegal move at ply 2"):
        replay(ModelGame("x", True, parse_transcript("c2c2", 6), 0, 0), 6)


def test_a_uniform_policy_over_k_legal_moves_has_entropy_ln_k() -> None:
    legal = np.zeros((3, 37), bool)
    for row, k in enumerate((1, 4, 9)):
        legal[row, :k] = True
    h = entropy(policy_probabilities(np.random.default_rng(0).normal(size=(3, 37)) * 0, legal))
    assert np.allclose(h, np.log([1, 4, 9]))
    # Illegal moves' logits do not count, however large.
    logits = np.where(legal, 0.0, 50.0)
    assert np.allclose(entropy(policy_probabilities(logits, legal)), np.log([1, 4, 9]))


def test_entropy_by_phase_of_a_uniform_network_is_the_uniform_entropy() -> None:
    planes = positions(6, 30)
    empties = 36 - planes[:, :2].sum(axis=(1, 2, 3)).astype(int)
    stats = entropy_by_phase(np.zeros((len(planes), 37)), planes, empties, 6)
    assert all(k > 0 for k in stats.positions)
    assert np.allclose(stats.mean, stats.uniform)
    assert phase(np.array([32, 22, 21, 11, 10, 0]), 6).tolist() == [0, 0, 1, 1, 2, 2]


def symmetric(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exactly equivariant: each square's logit depends on that square's planes only, and
    the value on disc counts."""
    b = len(planes)
    squares = (2 * planes[:, 0] - planes[:, 1] + 3 * planes[:, 2]).reshape(b, -1)
    logits = np.concatenate([squares, np.zeros((b, 1))], axis=1)
    value = np.tanh(planes[:, 0].sum(axis=(1, 2)) / 10 - planes[:, 1].sum(axis=(1, 2)) / 7)
    return logits, value


def test_an_exactly_symmetric_network_scores_r2_of_one() -> None:
    s = symmetry_consistency(symmetric, positions(6, 20))
    assert np.allclose(s.policy, 1) and np.allclose(s.value, 1)
    assert s.policy_pooled == pytest.approx(1) and s.value_pooled == pytest.approx(1)
    assert s.same_move == [1.0] * 8


def test_the_tiny_random_network_is_not_symmetric() -> None:
    net = report.OnnxNet(TINY, 6)
    s = symmetry_consistency(net, positions(6, 20, games=8))
    assert s.policy[0] == pytest.approx(1) and s.value[0] == pytest.approx(1)
    assert s.policy_pooled < 0.99 and s.value_pooled < 0.99


def test_wilson_interval() -> None:
    low, high = wilson(1.0, 10)
    assert (low, high) == (pytest.approx(0.7225, abs=1e-4), pytest.approx(1.0))
    low, high = wilson(0.5, 100)
    assert (low, high) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    assert all(math.isnan(x) for x in wilson(0.0, 0))


def test_model_games_are_read_from_the_models_side() -> None:
    record = json.loads(ARENA.read_text())
    games = model_games(record, 0, 6)
    assert len(games) == 8 and {g.opponent for g in games} == {"random", "greedy"}
    assert sum(g.model_black for g in games) == 4
    assert all(g.opening_plies in range(4, 9) for g in games)
    with pytest.raises(ReportError, match="not an arena report"):
        model_games({"players": ["a"], "games": [{"black": 0}]}, 0, 6)


def test_the_report_of_a_recorded_arena(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    model = tmp_path / "tiny-random-6x6.onnx"
    shutil.copy(TINY, model)
    shutil.copy(TINY.with_suffix(".json"), model.with_suffix(".json"))
    out = tmp_path / "report"
    player = "policy:model=models/tiny-random-6x6.onnx"
    args = [str(model), "--out", str(out), "--arena", str(ARENA), "--player", player]
    assert report.main(args) == 0
    page = (out / "index.html").read_text()
    for png in ("game.png", "entropy.png", "wins.png"):
        assert (out / png).stat().st_size > 1000 and f'src="{png}"' in page
    assert "<script" not in page and "http" not in page
    # The probes see the boards as the engine does: the policy player's every move is the
    # favourite of the policy head as ONNX Runtime computes it here.
    made = re.search(r"made in (\d+) of the model's (\d+) turns", page)
    assert made and made[1] == made[2] and int(made[1]) > 50
    summary = capsys.readouterr().out
    assert "tiny-random-6x6 (6x6 standard)" in summary and "8 games" in summary


@pytest.mark.parametrize(
    "problem", ["missing", "no card", "corrupt card", "not a network", "another board"]
)
def test_a_bad_model_is_one_line_and_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture, problem: str
) -> None:
    model = tmp_path / "m.onnx"
    network = {"not a network": b"not onnx", "another board": TINY_8.read_bytes()}
    if problem != "missing":
        model.write_bytes(network.get(problem, TINY.read_bytes()))
    if problem == "corrupt card":
        model.with_suffix(".json").write_text("{ nope")
    if problem in ("not a network", "another board"):
        shutil.copy(TINY.with_suffix(".json"), model.with_suffix(".json"))
    assert report.main([str(model), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "r").exists()


@pytest.mark.skipif(real_othello() is None, reason="no othello binary built")
def test_the_report_plays_its_games_in_the_arena(tmp_path: Path) -> None:
    args = [str(TINY), "--out", str(tmp_path), "--games", "2", "--othello", str(real_othello())]
    assert report.main(args) == 0
    record = json.loads((tmp_path / "arena.json").read_text())
    assert len(model_games(record, 0, 6)) == 8
