"""The model contract and the self-play format: one statement in train/contract.py, which
the Rust engine's encoder must agree with."""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import fields
from pathlib import Path

import numpy as np
import onnx
import pytest

from train import contract, env, make_test_model
from train.data import Samples, load_npz
from train.export import ExportError, check_model_card
from train.report import load_card
from train.report_stats import ReportError
from train.ship import ShipError, ship
from train.tests.engine import BINARY_VARIABLE, real_othello
from train.tests.rules import planes as reference_planes
from train.tests.rules import start

OTHELLO = real_othello()
MOVE = re.compile(r"pass|[a-h][1-8]")


def test_the_planes_are_own_opponent_legal_ones_in_that_order() -> None:
    assert contract.PLANE_ORDER == ("own", "opponent", "legal", "ones")
    own, opp = start(6)
    legal = np.zeros((6, 6), bool)
    legal[2, 1] = True  # any grid: encode does not judge legality
    planes = contract.encode(own[None], opp[None], legal[None])
    assert planes.dtype == np.float32 and planes.shape == (1, contract.PLANES, 6, 6)
    assert (planes[0, contract.OWN] == own).all() and (planes[0, contract.OPPONENT] == opp).all()
    assert (planes[0, contract.LEGAL] == legal).all() and (planes[0, contract.ONES] == 1).all()


def test_the_games_encode_as_the_independent_rules_say() -> None:
    """env.Games (numpy bitboards, the learners' and the report's encoder) against the
    plain grids of tests/rules.py, along random games."""
    rng = np.random.default_rng(3)
    games = env.Games(8, 1)
    for _ in range(30):
        planes = games.planes()[0]
        own = planes[contract.OWN].astype(bool)
        opp = planes[contract.OPPONENT].astype(bool)
        assert (planes == reference_planes(own, opp)).all()
        legal = np.flatnonzero(games.legal_mask()[0])
        games.play(np.array([rng.choice(legal)]))
        if games.done[0]:
            break


def test_encode_refuses_grids_of_different_shapes() -> None:
    with pytest.raises(ValueError, match="three \\[B, N, N\\] grids"):
        contract.encode(np.zeros((1, 6, 6)), np.zeros((1, 6, 6)), np.zeros((1, 8, 8)))


def card_file(tmp_path: Path, **change: object) -> Path:
    model, parameters = make_test_model.build(6, seed=1)
    tmp_path.mkdir()
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    card = make_test_model.card(6, parameters, 1, "m", {"kind": "tiny"})
    card.update(change)
    path.with_suffix(".json").write_text(json.dumps(card))
    return path


def test_a_card_that_declares_other_planes_is_refused_where_models_are_read(
    tmp_path: Path,
) -> None:
    ok = card_file(tmp_path / "ok")
    contract.check_card(json.loads(ok.with_suffix(".json").read_text()), "ok")
    load_card(ok)
    five = card_file(tmp_path / "five", planes=5)
    message = "declares 5 input planes; the model contract has 4 (own, opponent, legal, ones)"
    with pytest.raises(contract.ContractError, match=re.escape(message)):
        contract.check_card(json.loads(five.with_suffix(".json").read_text()), "five")
    with pytest.raises(ReportError, match=re.escape(message)):
        load_card(five)
    with pytest.raises(ExportError, match=re.escape(message)):
        check_model_card(five)
    with pytest.raises(ShipError, match=re.escape(message)):
        ship(five, "x", tmp_path / "out", [], None)
    shape = card_file(tmp_path / "shape", inputs={"planes": ["batch", 4, 8, 8]})
    with pytest.raises(contract.ContractError, match="not \\['batch', 4, 6, 6\\] for board 6"):
        contract.check_card(json.loads(shape.with_suffix(".json").read_text()), "shape")


def test_samples_hold_the_columns_of_the_format_in_its_order() -> None:
    assert [f.name for f in fields(Samples)] == [c.name for c in contract.SAMPLE_COLUMNS]
    assert contract.REQUIRED_COLUMNS == ("planes", "policy", "value", "score")
    assert contract.COLUMNS["policy"].shape_for(5, 6) == (5, 37)
    assert contract.COLUMNS["planes"].shape_for(5, 8) == (5, contract.PLANES, 8, 8)


def test_a_sidecar_board_as_the_engine_writes_it_is_checked(tmp_path: Path) -> None:
    from train.data import DataError
    from train.tests.rules import write_batch

    path = write_batch(tmp_path / "a.npz", 6, 4, seed=1)
    path.with_suffix(".json").write_text(json.dumps({"board_size": 8}))
    with pytest.raises(DataError, match="sidecar says board 8, expected 6"):
        load_npz(path, 6)


def replay(transcript: str, n: int) -> list[np.ndarray]:
    """The positions of a game, before each of its moves, as the Python encoder's planes."""
    games = env.Games(n, 1)
    out = []
    for name in MOVE.findall(transcript):
        out.append(games.planes()[0].astype(np.uint8))
        placed = name != "pass"
        move = (int(name[1]) - 1) * n + "abcdefgh".index(name[0]) if placed else n * n
        games.play(np.array([move]))
    assert games.done[0], f"the transcript {transcript} does not end the game"
    return out


@pytest.mark.skipif(
    OTHELLO is None,
    reason=f"needs the othello binary: cargo build -p cli, or set ${BINARY_VARIABLE}",
)
@pytest.mark.parametrize("board", [6, 8])
def test_the_python_encoder_writes_the_planes_that_rust_self_play_wrote(
    tmp_path: Path, board: int
) -> None:
    """Self-play in Rust with a tiny network; every recorded sample's planes, in order,
    are the Python encoder's planes of a position along the recorded games (replayed by
    train/env.py's rules from the sidecar's transcripts)."""
    model, parameters = make_test_model.build(board, seed=2)
    model_path = tmp_path / "tiny.onnx"
    onnx.save(model, str(model_path))
    card = make_test_model.card(board, parameters, 2, "tiny", {"kind": "tiny"})
    model_path.with_suffix(".json").write_text(json.dumps(card))
    out = tmp_path / "data"
    cmd = [
        str(OTHELLO), "selfplay", "--board", str(board), "--model", str(model_path),
        "--runtime", "tract", "--games", "4", "--sims", "8", "--threads", "1",
        "--seed", "7", "--out", str(out), "--name", "games",
        # Random moves reach positions two equal players never would.
        "--random-moves", "0.5",
    ]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True)
    samples = load_npz(out / "games.npz", board)
    meta = json.loads((out / "games.json").read_text())
    assert contract.sidecar_board(meta) == board
    transcripts = meta[contract.SIDECAR_TRANSCRIPTS]
    assert len(transcripts) == 4
    line = [p for t in transcripts for p in replay(t, board)]
    # Greedy matching: the samples must be a subsequence of the games' positions.
    at = 0
    for i, planes in enumerate(samples.planes):
        while at < len(line) and not np.array_equal(line[at], planes):
            at += 1
        assert at < len(line), f"sample {i}'s planes are no position of the games, in order"
        at += 1
    assert len(samples) >= 4 * 4, "too few samples to say anything"
