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
import torch

from train import contract, env, make_test_model
from train.data import SYMMETRIES, DataError, Samples, load_npz, transform_grid
from train.export import ExportError, check_model_card, export_model
from train.net import NetConfig, OthelloNet
from train.report import load_card
from train.report_stats import ReportError
from train.rules import DIRECTIONS, parse_move
from train.ship import ShipError, ship
from train.tests import grid_planes
from train.tests.engine import BINARY_VARIABLE, real_othello
from train.tests.positions import legal as reference_legal
from train.tests.positions import planes as reference_planes
from train.tests.positions import random_positions, start, write_batch

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


def test_the_games_encode_as_one_position_at_a_time_says() -> None:
    """env.Games (the learners' and the report's encoder, many games at once) against the
    planes of each position on its own (tests/positions.py: train/rules.py on one int
    bitboard, through grids), along random games."""
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


def test_the_input_sets_name_known_planes_and_v1_begins_v2() -> None:
    assert contract.INPUT_SETS["v1"] == contract.PLANE_ORDER
    assert contract.INPUT_SETS["v2"][: contract.PLANES] == contract.PLANE_ORDER
    assert len(contract.INPUT_SETS["v2"]) == 10
    assert contract.input_planes("v2") == contract.INPUT_SETS["v2"]
    assert contract.input_planes("own, opponent,odd_quadrant") == (
        "own",
        "opponent",
        "odd_quadrant",
    )
    assert contract.input_set_name(contract.INPUT_SETS["v2"]) == "v2"
    assert contract.input_set_name(["own", "ones"]) == "own,ones"
    with pytest.raises(contract.ContractError, match="'mobility' is not known"):
        contract.input_planes("own,mobility")
    with pytest.raises(contract.ContractError, match="named twice"):
        contract.input_planes(["own", "own"])


def grids(rows: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(own, opponent) [1, N, N] from rows of `x` (own), `o` and `.`, rank 1 first."""
    own = np.array([[c == "x" for c in r] for r in rows])[None]
    opp = np.array([[c == "o" for c in r] for r in rows])[None]
    return own, opp


def stable(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """The trainer's stable discs of `own`, checked against the grid reference's."""
    fast = contract.feature_planes(own, opp, ["own_stable"])[:, 0] > 0
    assert (fast == grid_planes.stable_grid(own, opp)).all()
    return fast


def test_stable_discs_of_boards_one_can_check_by_eye() -> None:
    """The cases of the engine's own test (crates/engine/src/network/features/tests.rs)."""
    full = ["xxxxoooo"] * 8
    own, opp = grids(full)
    assert (stable(own, opp) == own).all()
    rest = ["........"] * 7
    own, opp = grids(["xxxo....", *rest])
    assert stable(own, opp)[0, 0].tolist() == [True] * 3 + [False] * 5
    own, opp = grids([".xxxxxxx", *rest])
    assert stable(own, opp)[0, 0].tolist() == [False] + [True] * 7
    # b1-g1 between the other side's corner and an empty one: h1 would flip them all.
    own, opp = grids(["oxxxxxx.", *rest])
    assert not stable(own, opp).any()
    assert stable(opp, own)[0, 0, 0]
    own, opp = grids(["xxxx", "xoxx", "xxxx", "xxxx"])
    assert (stable(own, opp) == own).all()


def reference_regions(empty: np.ndarray) -> np.ndarray:
    """Odd regions of one board by a flood fill over the eight neighbours."""
    n = empty.shape[0]
    odd = np.zeros_like(empty)
    seen = np.zeros_like(empty)
    for r0, c0 in zip(*np.nonzero(empty), strict=True):
        if seen[r0, c0]:
            continue
        region, stack = [], [(r0, c0)]
        seen[r0, c0] = True
        while stack:
            r, c = stack.pop()
            region.append((r, c))
            for dr, dc in DIRECTIONS:
                y, x = r + dr, c + dc
                if 0 <= y < n and 0 <= x < n and empty[y, x] and not seen[y, x]:
                    seen[y, x] = True
                    stack.append((y, x))
        if len(region) % 2:
            for r, c in region:
                odd[r, c] = True
    return odd


@pytest.mark.parametrize("board", [6, 8])
def test_the_grid_reference_follows_the_plain_rules(board: int) -> None:
    """The grid reference's legal, frontier and parity planes against the rules
    (train/rules.py, through tests/positions.py's grids) and square-by-square definitions,
    on positions of random games."""
    base = random_positions(board, 60, np.random.default_rng(board))
    own, opp = base[:, contract.OWN] > 0, base[:, contract.OPPONENT] > 0
    planes = grid_planes.grid_planes(own, opp, contract.PLANE_NAMES)
    plane = {name: planes[:, i] > 0 for i, name in enumerate(contract.PLANE_NAMES)}
    half = board // 2
    for k in range(len(base)):
        o, p = own[k], opp[k]
        empty = ~(o | p)
        assert (plane["legal"][k] == reference_legal(o, p)).all()
        assert (plane["opponent_legal"][k] == reference_legal(p, o)).all()
        for side, name in ((o, "own_frontier"), (p, "opponent_frontier")):
            near = np.zeros_like(empty)
            for r, c in zip(*np.nonzero(side), strict=True):
                near[r, c] = any(
                    0 <= r + dr < board and 0 <= c + dc < board and empty[r + dr, c + dc]
                    for dr, dc in DIRECTIONS
                )
            assert (plane[name][k] == near).all()
        assert (plane["odd_region"][k] == reference_regions(empty)).all()
        quadrant_counts = empty.reshape(2, half, 2, half).sum(axis=(1, 3))
        for r, c in zip(*np.nonzero(empty), strict=True):
            assert plane["odd_quadrant"][k][r, c] == (quadrant_counts[r // half, c // half] % 2)
        assert not (plane["odd_quadrant"][k] & ~empty).any()
        assert (planes[k, contract.PLANE_NAMES.index("ones")] == 1).all()
    # The stable discs are the side's own, and there are some to check.
    assert not (plane["own_stable"] & ~own).any() and plane["own_stable"].sum() > 50


def random_boards(board: int, count: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Boards whose every square is own, the other side's or empty at random (reachable
    or not), with a random share of empties per board."""
    empty_share = rng.random((count, 1, 1))
    cell = rng.random((count, board, board))
    side = rng.random((count, board, board)) < 0.5
    filled = cell >= empty_share
    return filled & side, filled & ~side


@pytest.mark.parametrize("board", [4, 6, 8])
def test_the_trainer_s_planes_are_the_grid_reference_s(board: int) -> None:
    """Every plane of the trainer's bitboards against the grid reference, on positions of
    random games and on random boards."""
    rng = np.random.default_rng(board + 1)
    base = random_positions(board, 80, rng)
    boards = [(base[:, contract.OWN] > 0, base[:, contract.OPPONENT] > 0)]
    boards.append(random_boards(board, 80, rng))
    for own, opp in boards:
        fast = contract.feature_planes(own, opp, contract.PLANE_NAMES)
        slow = grid_planes.grid_planes(own, opp, contract.PLANE_NAMES)
        for i, name in enumerate(contract.PLANE_NAMES):
            bad = np.flatnonzero((fast[:, i] != slow[:, i]).any(axis=(1, 2)))
            assert not bad.size, f"{name} differs on {board}x{board} board {bad[0]}"
        assert fast[:, contract.PLANE_NAMES.index("own_stable")].sum() > 20


@pytest.mark.parametrize("board", [6, 8])
def test_every_plane_turns_with_the_board(board: int) -> None:
    """Training turns the base planes, then encodes: right only if each plane of a turned
    position is the turned plane, for all eight symmetries."""
    base = random_positions(board, 40, np.random.default_rng(11))
    planes = contract.encode_inputs(base, contract.PLANE_NAMES)
    for sym in range(len(SYMMETRIES)):
        turned = np.ascontiguousarray(transform_grid(base, sym))
        want = transform_grid(planes, sym)
        assert (contract.encode_inputs(turned, contract.PLANE_NAMES) == want).all(), sym


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
    message = (
        "declares 5 input planes, but names 4 (own, opponent, legal, ones: input set v1, "
        "as it names no plane_names)"
    )
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
    v2 = {
        "plane_names": list(contract.INPUT_SETS["v2"]),
        "planes": 10,
        "inputs": {"planes": ["batch", 10, 6, 6]},
    }
    contract.check_card(
        json.loads(card_file(tmp_path / "v2", **v2).with_suffix(".json").read_text()), "v2"
    )
    unknown = card_file(tmp_path / "unknown", plane_names=["own", "parity"])
    with pytest.raises(ReportError, match="input plane 'parity' is not known"):
        load_card(unknown)
    counted = card_file(tmp_path / "counted", plane_names=["own", "opponent"], planes=4)
    with pytest.raises(
        ExportError, match=re.escape("declares 4 input planes, but names 2 (own, opponent)")
    ):
        check_model_card(counted)


def test_samples_hold_the_columns_of_the_format_in_its_order() -> None:
    assert [f.name for f in fields(Samples)] == [c.name for c in contract.SAMPLE_COLUMNS]
    assert contract.REQUIRED_COLUMNS == ("planes", "policy", "value", "score")
    assert contract.COLUMNS["policy"].shape_for(5, 6) == (5, 37)
    assert contract.COLUMNS["planes"].shape_for(5, 8) == (5, contract.PLANES, 8, 8)
    assert contract.COLUMNS["planes"].shape_for(5, 8, 10) == (5, 10, 8, 8)


def test_a_sidecar_board_as_the_engine_writes_it_is_checked(tmp_path: Path) -> None:
    from train.data import DataError
    from train.tests.positions import write_batch

    path = write_batch(tmp_path / "a.npz", 6, 4, seed=1)
    path.with_suffix(".json").write_text(json.dumps({"board_size": 8}))
    with pytest.raises(DataError, match="sidecar says board 8, expected 6"):
        load_npz(path, 6)


def test_a_file_of_other_planes_loads_as_its_base_planes(tmp_path: Path) -> None:
    """A file stores its network's planes and the sidecar names them; the trainer keeps
    the base planes, whichever they were."""
    v1 = write_batch(tmp_path / "v1.npz", 6, 8, seed=3)
    base = load_npz(v1, 6).planes
    names = contract.INPUT_SETS["v2"]
    v2 = contract.encode_inputs(base, names).astype(np.uint8)
    path = write_batch(tmp_path / "v2.npz", 6, 8, seed=3, planes=v2)
    side = json.loads(path.with_suffix(".json").read_text())
    path.with_suffix(".json").write_text(json.dumps({**side, "plane_names": list(names)}))
    assert (load_npz(path, 6).planes == base).all()
    # Planes without the base ones first: found by name, the rest computed.
    names = ("opponent", "own_stable", "own")
    odd = contract.encode_inputs(base, names).astype(np.uint8)
    path = write_batch(tmp_path / "odd.npz", 6, 8, seed=3, planes=odd)
    path.with_suffix(".json").write_text(json.dumps({**side, "plane_names": list(names)}))
    assert (load_npz(path, 6).planes == base).all()
    # Ten planes that the sidecar does not name: v1's four were expected.
    path = write_batch(tmp_path / "unnamed.npz", 6, 8, seed=3, planes=v2)
    with pytest.raises(DataError, match="10 channels, but the file's planes are 4"):
        load_npz(path, 6)


def replay(transcript: str, n: int, names: tuple[str, ...]) -> list[np.ndarray]:
    """The positions of a game, before each of its moves, as the Python encoder's planes."""
    games = env.Games(n, 1)
    out = []
    for name in MOVE.findall(transcript):
        out.append(contract.encode_inputs(games.planes(), names)[0].astype(np.uint8))
        games.play(np.array([parse_move(name, n)]))
    assert games.done[0], f"the transcript {transcript} does not end the game"
    return out


def tiny_network(tmp_path: Path, board: int, inputs: str) -> Path:
    """A tiny network of random weights on `inputs`: v1 the numpy-built fixture of the
    tests, anything else a PyTorch tower with global pooling, exported as the trainer
    exports."""
    if inputs == "v1":
        model, parameters = make_test_model.build(board, seed=2)
        model_path = tmp_path / "tiny.onnx"
        onnx.save(model, str(model_path))
        card = make_test_model.card(board, parameters, 2, "tiny", {"kind": "tiny"})
        model_path.with_suffix(".json").write_text(json.dumps(card))
        return model_path
    torch.manual_seed(2)
    config = NetConfig(board=board, blocks=2, channels=8, inputs=inputs, global_pool=4)
    onnx_path, _, _ = export_model(OthelloNet(config).eval(), tmp_path / "tiny")
    return onnx_path


@pytest.mark.skipif(
    OTHELLO is None,
    reason=f"needs the othello binary: cargo build -p cli, or set ${BINARY_VARIABLE}",
)
@pytest.mark.parametrize("inputs", ["v1", "v2"])
@pytest.mark.parametrize("board", [6, 8])
def test_the_python_encoder_writes_the_planes_that_rust_self_play_wrote(
    tmp_path: Path, board: int, inputs: str
) -> None:
    """Self-play in Rust with a tiny network; every recorded sample's planes, in order,
    are the Python encoder's planes of a position along the recorded games (replayed by
    train/rules.py's rules, through train/env.py, from the sidecar's transcripts). The
    samples hold what the engine fed the network, so this is the engine's play-time
    encoding against the trainer's, and the Python rules against the engine's."""
    model_path = tiny_network(tmp_path, board, inputs)
    names = contract.input_planes(inputs)
    out = tmp_path / "data"
    cmd = [
        str(OTHELLO), "selfplay", "--board", str(board), "--model", str(model_path),
        "--runtime", "tract", "--games", "4", "--sims", "8", "--threads", "1",
        "--seed", "7", "--out", str(out), "--name", "games",
        # Random moves reach positions two equal players never would.
        "--random-moves", "0.5",
    ]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True)
    meta = json.loads((out / "games.json").read_text())
    assert contract.sidecar_board(meta) == board
    assert tuple(meta[contract.SIDECAR_PLANE_NAMES]) == names
    with np.load(out / "games.npz") as z:
        stored = z["planes"]
    assert stored.shape[1:] == (len(names), board, board)
    transcripts = meta[contract.SIDECAR_TRANSCRIPTS]
    assert len(transcripts) == 4
    line = [p for t in transcripts for p in replay(t, board, names)]
    # Greedy matching: the samples must be a subsequence of the games' positions.
    at = 0
    for i, planes in enumerate(stored):
        while at < len(line) and not np.array_equal(line[at], planes):
            at += 1
        assert at < len(line), f"sample {i}'s planes are no position of the games, in order"
        at += 1
    assert len(stored) >= 4 * 4, "too few samples to say anything"
    # What training reads of the file: its base planes.
    samples = load_npz(out / "games.npz", board)
    assert (samples.planes == stored[:, : contract.PLANES]).all()
    if inputs != "v1":
        # The features the comparison covered: not all empty.
        for k, name in enumerate(names[contract.PLANES :], contract.PLANES):
            assert stored[:, k].any(), f"no sample has a square in {name}"
