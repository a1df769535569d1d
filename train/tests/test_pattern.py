import json
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch

from train import pattern_fit
from train.make_test_pattern_model import symmetric_images
from train.pattern import (
    BASE_PATTERNS,
    EGAROUCID7_PATTERNS,
    PatternConfig,
    PatternError,
    PatternNet,
    board_text,
    config_from_card,
    export_model,
    instances,
    load_checkpoint,
    load_half_weights,
    mean_of_checkpoints,
    parse_board_text,
    read_card,
    save_checkpoint,
    save_half_weights,
    stage,
    stage_input,
)
from train.pattern_fit import Positions, evaluate, fit
from train.tests.positions import random_positions, write_batch


def sym_square(g: int, col: int, row: int, n: int) -> tuple[int, int]:
    """othello::Symmetry, written out again: transpose, then flip rows, then mirror."""
    if g & 1:
        col, row = row, col
    if g & 2:
        row = n - 1 - row
    if g & 4:
        col = n - 1 - col
    return col, row


def cells(name: str) -> tuple[int, int]:
    return "abcdefgh".index(name[0]), int(name[1]) - 1


def positions(n: int, count: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    p = random_positions(n, count, np.random.default_rng(seed))
    return torch.from_numpy(p[:, 0]).float(), torch.from_numpy(p[:, 1]).float()


def reference_sums(net: PatternNet, own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """One position, one instance and one square at a time."""
    c = net.config
    n = c.board
    total = np.zeros(2)
    discs = int(own.sum() + opp.sum())
    s = (discs - 4) * c.stages // (n * n - 3)
    s_in = s / (c.stages - 1) if c.stages > 1 else 0.0
    for mlp, p in zip(net.mlps, c.patterns, strict=True):
        seen = []
        for g in range(8):
            image = [sym_square(g, *cells(sq), n) for sq in p.squares]
            if set(image) in seen:
                continue
            seen.append(set(image))
            row = [float(own[r, col]) for col, r in image]
            row += [float(opp[r, col]) for col, r in image]
            row.append(s_in)
            with torch.no_grad():
                total += mlp(torch.tensor([row])).numpy()[0]
    return total


def test_instances():
    net8 = PatternNet(PatternConfig.default(8))
    assert net8.instance_counts() == [4, 4, 4, 4, 4, 4, 4, 2, 4, 4, 4, 4]
    assert sum(net8.instance_counts()) == 46
    assert sum(PatternNet(PatternConfig.default(6)).instance_counts()) == 30
    for n, patterns in BASE_PATTERNS.items():
        for _, squares in patterns:
            found = instances(squares, n)
            assert len({frozenset(i) for i in found}) == len(found)
            assert found[0] == tuple(cells(s)[1] * n + cells(s)[0] for s in squares)
    # diag8 reads a1..h8, then its transpose is itself, then flip rows gives a8..h1.
    diag = instances(BASE_PATTERNS[8][7][1], 8)
    assert diag == [tuple(9 * k for k in range(8)), tuple((7 - k) * 8 + k for k in range(8))]
    # The 3x3 corner at each corner (the transposed images repeat a set and are dropped),
    # b1 read second: b8 under the row flip.
    corners = instances(BASE_PATTERNS[8][0][1], 8)
    assert [c[0] for c in corners] == [0, 56, 7, 63]
    assert corners[1][1] == 57


def test_egaroucid7_set():
    """Egaroucid 7 lists 62 images of its 16 patterns (evaluate_simd.hpp, 64 with its two
    dummies): 4 of each but the long diagonal's 2, every image a distinct set of squares."""
    config = PatternConfig.default(8, pattern_set="egaroucid7")
    assert [p.name for p in config.patterns] == [name for name, _ in EGAROUCID7_PATTERNS]
    counts = PatternNet(config).instance_counts()
    assert counts == [4] * 6 + [2] + [4] * 9 and sum(counts) == 62
    images = [frozenset(i) for _, sq in EGAROUCID7_PATTERNS for i in instances(sq, 8)]
    assert len(set(images)) == len(images)
    # Egaroucid's kite at the a8 corner (its image 62), as a set.
    kite = ("a8", "b8", "a7", "b7", "c7", "d7", "e7", "b6", "b5", "b4")
    assert frozenset(cells(s)[1] * 8 + cells(s)[0] for s in kite) in images
    with pytest.raises(PatternError, match="egaroucid7 pattern set is for boards"):
        PatternConfig.default(6, pattern_set="egaroucid7")
    with pytest.raises(PatternError, match="no pattern set 'edax'"):
        PatternConfig.default(8, pattern_set="edax")


def test_vectorised_forward_equals_reference():
    for n, seed in ((8, 1), (6, 2)):
        torch.manual_seed(seed)
        net = PatternNet(PatternConfig.default(n)).eval()
        own, opp = positions(n, 6, seed)
        with torch.no_grad():
            got = net.sums(own, opp).numpy()
            score, value = net(own, opp)
        for i in range(len(own)):
            want = reference_sums(net, own[i].numpy(), opp[i].numpy())
            np.testing.assert_allclose(got[i], want, atol=1e-5)
        np.testing.assert_allclose(score.numpy(), np.clip(got[:, 0], -1, 1), atol=1e-6)
        np.testing.assert_allclose(value.numpy(), np.tanh(got[:, 1]), atol=1e-6)


def test_onnx_matches_torch(tmp_path):
    torch.manual_seed(3)
    net = PatternNet(PatternConfig.default(8)).eval()
    onnx_path, card_path = export_model(net, tmp_path / "p", {"run": "test"})
    model = onnx.load(str(onnx_path))
    dims = [i.type.tensor_type.shape.dim for i in model.graph.input]
    assert [i.name for i in model.graph.input] == [f"pattern_{k}" for k in range(12)]
    assert [o.name for o in model.graph.output] == [f"out_{k}" for k in range(12)]
    assert len({d[0].dim_param for d in dims}) == 12
    assert [d[1].dim_value for d in dims] == [2 * len(p.squares) + 1 for p in net.config.patterns]
    card = json.loads(card_path.read_text())
    assert card["kind"] == "pattern" and card["stages"] == 10 and card["board_size"] == 8
    assert config_from_card(card, "card") == net.config

    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    own, opp = positions(8, 5, 4)
    with torch.no_grad():
        rows = net.pattern_inputs(own, opp)
        want = net.sums(own, opp).numpy()
    feeds = {f"pattern_{k}": r.reshape(-1, r.shape[-1]).numpy() for k, r in enumerate(rows)}
    outs = session.run(None, feeds)
    got = sum(o.reshape(len(own), -1, 2).sum(1) for o in outs)
    np.testing.assert_allclose(got, want, atol=1e-5)
    # One pattern at a time, the others fed one row of zeros, as the engine tabulates.
    k = 3
    feeds = {
        f"pattern_{j}": np.zeros((1, f.shape[1]), np.float32) for j, f in enumerate(feeds.values())
    }
    feeds[f"pattern_{k}"] = rows[k].reshape(-1, rows[k].shape[-1]).numpy()
    alone = session.run([f"out_{k}"], feeds)[0]
    with torch.no_grad():
        np.testing.assert_allclose(alone, net.mlps[k](rows[k]).reshape(-1, 2).numpy(), atol=1e-5)


def test_stage_ends():
    assert stage(4, 8, 10) == 0 and stage(64, 8, 10) == 9
    assert stage(4, 6, 8) == 0 and stage(36, 6, 8) == 7
    assert stage(np.arange(4, 65), 8, 10).tolist() == sorted(
        stage(np.arange(4, 65), 8, 10).tolist()
    )
    assert stage_input(0, 1) == 0 and stage_input(9, 10) == 1
    net = PatternNet(PatternConfig.default(8))
    full = torch.zeros(1, 8, 8)
    full[0, :4] = 1
    rows = net.pattern_inputs(full, 1 - full)
    assert float(rows[0][0, 0, -1]) == 1.0
    own, opp = parse_board_text("-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " X")
    assert (
        float(net.pattern_inputs(torch.tensor(own)[None], torch.tensor(opp)[None])[0][0, 0, -1])
        == 0
    )
    # Board text: black to move reads black as its own.
    black = np.zeros((6, 6), bool)
    black[0, 1] = True
    text = board_text(black, np.zeros((6, 6), bool), False)
    assert text == "-X" + "-" * 34 + " O"
    mine, theirs = parse_board_text(text)
    assert mine.sum() == 0 and theirs[0, 1] == 1


def synthetic(n: int, count: int, seed: int) -> Positions:
    p = random_positions(n, count, np.random.default_rng(seed))
    own, opp = p[:, 0].reshape(count, -1), p[:, 1].reshape(count, -1)
    margin = (own.sum(1).astype(np.float32) - opp.sum(1)) / (n * n)
    return Positions(own, opp, margin, np.sign(margin).astype(np.float32))


def test_fit_reduces_loss():
    torch.manual_seed(0)
    net = PatternNet(PatternConfig.default(6, hidden=(8, 8)))
    train, val = synthetic(6, 160, 5), synthetic(6, 60, 6)
    before = evaluate(net, val, 256)
    record = fit(net, train, val, epochs=4, batch=16, lr=3e-3, log=lambda _: None)
    after = evaluate(net, val, 256)
    assert sum(after) < 0.7 * sum(before)
    assert record["validation_loss"]["score"] == pytest.approx(after[0])


def test_fit_cli_and_errors(tmp_path, capsys):
    write_batch(tmp_path / "data" / "a.npz", 6, 60, seed=7)
    out = tmp_path / "m" / "pattern-6x6"
    argv = ["--board", "6", "--data", str(tmp_path / "data"), "--out", str(out), "--epochs", "1"]
    assert pattern_fit.main([*argv, "--batch", "16", "--threads", "1"]) == 0
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["training"]["samples"] == 57 and card["training"]["validation_samples"] == 3
    assert card["network"] == {
        "kind": "pattern",
        "hidden": [16, 16],
        "instances": [4] * 5 + [2, 4, 4],
    }
    # A checkpoint with other settings than asked, and a file that is no checkpoint.
    capsys.readouterr()
    assert pattern_fit.main([*argv, "--init", str(out.with_suffix(".pt")), "--stages", "5"]) == 1
    assert "the checkpoint has stages 8, not stages 5" in capsys.readouterr().err
    assert pattern_fit.main([*argv, "--init", str(out.with_suffix(".json"))]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not a readable checkpoint" in err and err.count("\n") == 1
    # A checkpoint keeps its patterns.
    init = ["--init", str(out.with_suffix(".pt"))]
    assert pattern_fit.main([*argv, *init, "--pattern-set", "base"]) == 1
    assert "a fit from a checkpoint keeps its patterns" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": None}, "kind is None, not 'pattern'"),
        ({"stages": 0}, "stages must be an integer from 1 to 60, got 0"),
        ({"board_size": 7}, "board 7: pattern networks are for boards (4, 6, 8)"),
        ({"patterns": []}, "1 to 32 patterns, got 0"),
        ({"patterns": [{"name": "x", "squares": ["a1", "i9"]}]}, "pattern 'x': square 'i9'"),
        ({"patterns": [{"name": "x", "squares": ["a1", "a1"]}]}, "a square appears twice"),
        ({"patterns": [{"name": "x", "squares": ["a1"]}] * 2}, "pattern 'x' is named twice"),
        ({"network": {"hidden": "16"}}, "network.hidden must be a list of layer sizes"),
    ],
)
def test_bad_card(change, message):
    card = {
        "kind": "pattern",
        "board_size": 8,
        "stages": 10,
        "patterns": [{"name": "diag4", "squares": ["e1", "f2", "g3", "h4"]}],
    }
    with pytest.raises(PatternError) as e:
        config_from_card({**card, **change}, "m.json")
    assert str(e.value).startswith("m.json: ") and message in str(e.value)


@pytest.mark.parametrize("board", [8, 6])
def test_fixtures_agree_with_onnx(board):
    """The engine's fixtures (python -m train.make_test_pattern_model): ONNX Runtime on
    each position's instance rows gives the sums PyTorch wrote."""
    stem = Path(__file__).parents[2] / "crates/engine/tests/data" / f"pattern-test-{board}x{board}"
    config = read_card(stem.with_suffix(".json"))
    net = PatternNet(config)
    rows = json.loads(stem.with_name(stem.name + ".expected.json").read_text())
    stages = {
        int(stage(int(sum(g.sum() for g in parse_board_text(r["board"]))), board, config.stages))
        for r in rows
    }
    assert stages == set(range(config.stages))
    session = ort.InferenceSession(
        str(stem.with_suffix(".onnx")), providers=["CPUExecutionProvider"]
    )
    for r in rows:
        own, opp = (torch.from_numpy(g)[None] for g in parse_board_text(r["board"]))
        inputs = net.pattern_inputs(own, opp)
        feeds = {f"pattern_{k}": x[0].numpy() for k, x in enumerate(inputs)}
        got = sum(o.sum(0) for o in session.run(None, feeds))
        np.testing.assert_allclose(got, [r["score_sum"], r["value_sum"]], atol=1e-5)
        assert r["score"] == pytest.approx(np.clip(r["score_sum"], -1, 1), abs=1e-6)
        assert r["value"] == pytest.approx(np.tanh(r["value_sum"]), abs=1e-6)

        # The symmetric sums: ONNX Runtime on the eight turned and mirrored boards, averaged.
        def run(o: torch.Tensor, p: torch.Tensor) -> np.ndarray:
            inputs = net.pattern_inputs(o, p)
            feeds = {f"pattern_{k}": x[0].numpy() for k, x in enumerate(inputs)}
            return sum(out.sum(0) for out in session.run(None, feeds))

        mean = np.mean([run(*image) for image in symmetric_images(own, opp)], axis=0)
        sym = r["symmetric"]
        np.testing.assert_allclose(mean, [sym["score_sum"], sym["value_sum"]], atol=1e-5)
        assert sym["value"] == pytest.approx(np.tanh(sym["value_sum"]), abs=1e-6)


def test_the_search_s_values_blend_into_the_targets_where_a_file_has_them(tmp_path):
    plain = tmp_path / "plain.npz"
    write_batch(plain, 6, 40, seed=3)
    with np.load(plain) as z:
        columns = {k: z[k] for k in z.files}
    n = len(columns["value"])
    rng = np.random.default_rng(4)
    columns["search_value"] = rng.uniform(-1, 1, n).astype(np.float32)
    columns["search_score"] = rng.uniform(-36, 36, n).astype(np.float32)
    searched = tmp_path / "searched.npz"
    np.savez(searched, **columns)
    outcome = pattern_fit.load_positions([searched], 6, 0.0)
    blended = pattern_fit.load_positions([searched], 6, 0.25)
    want_value = 0.75 * columns["value"] + 0.25 * columns["search_value"]
    want_score = (0.75 * columns["score"] + 0.25 * columns["search_score"]) / 36
    np.testing.assert_allclose(blended.value, want_value, rtol=1e-6)
    np.testing.assert_allclose(blended.score, want_score, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(outcome.value, columns["value"])
    # A file from before the search columns keeps its results' targets whatever the weight.
    old = pattern_fit.load_positions([plain], 6, 0.5)
    np.testing.assert_allclose(old.value, columns["value"])
    with pytest.raises(PatternError, match="weight must lie in"):
        pattern_fit.load_positions([searched], 6, 1.5)


def test_averaged_checkpoints_refuse_a_second_layout(tmp_path: Path) -> None:
    paths = []
    for hidden in ((8, 8), (8, 8), (4, 4)):
        torch.manual_seed(len(paths))
        paths.append(tmp_path / f"{len(paths)}.pt")
        save_checkpoint(PatternNet(PatternConfig.default(6, hidden=hidden)), paths[-1])
    mean = mean_of_checkpoints(paths[:2])
    one, two = (load_checkpoint(p)[0].state_dict() for p in paths[:2])
    for name, weights in mean.state_dict().items():
        assert torch.allclose(weights, (one[name] + two[name]) / 2)
    with pytest.raises(PatternError, match=r"2\.pt: another layout"):
        mean_of_checkpoints(paths)
    with pytest.raises(PatternError, match="no checkpoints"):
        mean_of_checkpoints([])


def test_half_precision_weights_come_back_within_their_rounding(tmp_path: Path) -> None:
    torch.manual_seed(3)
    net = PatternNet(PatternConfig.default(8, global_hidden=(16, 16)))
    save_half_weights(net, tmp_path / "fit.pt")
    back = load_half_weights(tmp_path / "fit.pt")
    assert back.config == net.config
    for name, weights in net.state_dict().items():
        got = back.state_dict()[name]
        assert torch.allclose(got, weights, rtol=2**-10, atol=1e-7), name
    # Two bytes a weight and the layout: one record, not one a tensor.
    weights = sum(t.numel() for t in net.state_dict().values())
    assert (tmp_path / "fit.pt").stat().st_size < 2 * weights + 4000
    save_checkpoint(net, tmp_path / "full.pt")
    with pytest.raises(PatternError, match="not a pattern network's half-precision weights"):
        load_half_weights(tmp_path / "full.pt")
    (tmp_path / "cut.pt").write_bytes((tmp_path / "fit.pt").read_bytes()[:100])
    with pytest.raises(PatternError, match="not readable weights"):
        load_half_weights(tmp_path / "cut.pt")
