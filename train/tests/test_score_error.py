"""train.score_error: a report's positions read from the side to move's view, the errors
by range of empties, and a network's score head measured end to end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from train import contract, score_error
from train.export import export_model
from train.net import NetConfig, OthelloNet
from train.pattern import board_text
from train.tests.positions import random_positions


def write_report(path: Path, base: np.ndarray, truth: list[int], empties: list[int]) -> Path:
    """An `othello accuracy --json` report of these positions; every second one has White
    to move, so both sides' board text is read."""
    moves = []
    for k, planes in enumerate(base):
        own, opp = planes[contract.OWN] > 0, planes[contract.OPPONENT] > 0
        text = board_text(own, opp, True) if k % 2 == 0 else board_text(opp, own, False)
        moves.append({"position": text, "empties": empties[k], "best_margin": truth[k]})
    path.write_text(json.dumps({"player": "x", "moves": moves}))
    return path


def test_a_report_reads_as_the_side_to_move_s_planes(tmp_path: Path) -> None:
    base = random_positions(6, 12, np.random.default_rng(4))
    path = write_report(tmp_path / "r.json", base, list(range(12)), [20] * 12)
    positions = score_error.read_report(path)
    assert positions.board == 6
    assert (positions.planes == base).all()
    assert positions.truth.tolist() == list(range(12)) and positions.empties.tolist() == [20] * 12
    (tmp_path / "bad.json").write_text(json.dumps({"moves": [{"position": "XO"}]}))
    with pytest.raises(score_error.ScoreError, match="not an accuracy report"):
        score_error.read_report(tmp_path / "bad.json")


def test_the_errors_by_range_of_empties() -> None:
    truth = np.array([20.0, -20.0, 4.0, 0.0, 30.0])
    estimate = np.array([16.0, -14.0, 6.0, 0.0, 10.0])
    empties = np.array([16, 17, 19, 21, 30])
    low, high = score_error.range_errors(estimate, truth, empties, ((16, 19), (20, 23)), 16)
    assert (low.low, low.high, low.positions, low.lopsided) == (16, 19, 3, 2)
    assert low.error == pytest.approx((4 + 6 + 2) / 3)
    assert low.signed == pytest.approx((-4 + 6 + 2) / 3)
    assert low.lopsided_error == pytest.approx(5.0) and low.lopsided_signed == pytest.approx(1.0)
    # Both lopsided estimates are nearer zero than the truth: by 4 and by 6 discs.
    assert low.towards_even == pytest.approx(5.0)
    assert low.correlation == pytest.approx(np.corrcoef(estimate[:3], truth[:3])[0, 1])
    # One position and nothing lopsided: no correlation and no lopsided error, not a crash.
    assert high.positions == 1 and high.lopsided == 0
    assert np.isnan(high.correlation) and np.isnan(high.lopsided_error)
    assert low.line().startswith("  16-19 empties: 3 positions, error 4.00 (signed +1.33,")
    assert score_error.parse_ranges("16-19,20-23") == ((16, 19), (20, 23))


def test_a_network_s_score_head_is_measured_on_the_planes_its_card_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    torch.manual_seed(3)
    config = NetConfig(board=6, blocks=1, channels=8, inputs="v2", score_head=True)
    net = OthelloNet(config).eval()
    onnx_path, _, _ = export_model(net, tmp_path / "tiny")
    base = random_positions(6, 40, np.random.default_rng(5))
    rng = np.random.default_rng(6)
    truth = rng.integers(-30, 31, size=40).tolist()
    empties = rng.integers(16, 28, size=40).tolist()
    report = write_report(tmp_path / "r.json", base, truth, empties)

    # The ONNX file's score, in discs, is PyTorch's on the v2 planes of the positions.
    estimate = score_error.score_estimates(onnx_path, score_error.read_report(report))
    with torch.no_grad():
        planes = contract.encode_inputs(base, contract.INPUT_SETS["v2"])
        assert np.allclose(estimate, net(torch.from_numpy(planes)).score[:, 0], atol=1e-4)
    assert score_error.main([str(report), str(onnx_path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    want = score_error.range_errors(estimate, np.array(truth, float), np.array(empties))
    assert printed == [str(onnx_path), *(row.line() for row in want)]

    no_score = OthelloNet(NetConfig(board=6, blocks=1, channels=8)).eval()
    plain, _, _ = export_model(no_score, tmp_path / "plain")
    assert score_error.main([str(report), str(plain)]) == 1
    assert "has no score output" in capsys.readouterr().err
