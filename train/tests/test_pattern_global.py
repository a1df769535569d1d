"""The pattern network's optional global network (docs/model-contract.md, "The global
network"): its inputs, its export, the warm start that adds it to a network without one,
and the fit and loop switches."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
import torch

from train import pattern_fit, pattern_loop, rules
from train.pattern import (
    GLOBAL_FEATURES,
    PatternConfig,
    PatternError,
    PatternNet,
    config_from_card,
    export_model,
    load_checkpoint,
    mobility,
    parse_board_text,
    read_card,
    save_checkpoint,
    with_global_network,
)
from train.pattern_fit import Positions, fit
from train.tests.positions import random_positions, to_bits, write_batch


def grids(n: int, count: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    p = random_positions(n, count, np.random.default_rng(seed))
    return torch.from_numpy(p[:, 0]).float(), torch.from_numpy(p[:, 1]).float()


@pytest.mark.parametrize("n", [8, 6])
def test_mobility_counts_the_rules_legal_moves(n: int) -> None:
    own, opp = grids(n, 200, n)
    geo = rules.geometry(n)
    for side, other, got in ((own, opp, mobility(own, opp)), (opp, own, mobility(opp, own))):
        legal = [
            rules.legal_moves(to_bits(a.numpy()), to_bits(b.numpy()), geo)
            for a, b in zip(side, other, strict=True)
        ]
        want = [len(rules.squares_of(m, geo)) for m in legal]
        assert got.tolist() == want
    assert max(mobility(own, opp).tolist()) > 5


def test_the_global_network_exports_beside_the_patterns(tmp_path: Path) -> None:
    torch.manual_seed(1)
    net = PatternNet(PatternConfig.default(6, global_hidden=(8,))).eval()
    onnx_path, card_path = export_model(net, tmp_path / "g", {"run": "test"})
    card = json.loads(card_path.read_text())
    assert card["global"] == {"features": list(GLOBAL_FEATURES), "hidden": [8]}
    assert card["inputs"]["global"] == ["batch_global", 4]
    assert config_from_card(card, "card") == net.config
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    assert session.get_inputs()[-1].name == "global"
    assert session.get_outputs()[-1].name == "out_global"
    own, opp = grids(6, 7, 2)
    with torch.no_grad():
        rows = net.pattern_inputs(own, opp)
        extra = net.global_inputs(own, opp)
        want = net.sums(own, opp).numpy()
    feeds = {f"pattern_{k}": r.reshape(-1, r.shape[-1]).numpy() for k, r in enumerate(rows)}
    feeds["global"] = extra.numpy()
    outs = session.run(None, feeds)
    got = sum(o.reshape(len(own), -1, 2).sum(1) for o in outs[:-1]) + outs[-1]
    np.testing.assert_allclose(got, want, atol=1e-5)
    # The global inputs as the contract states them.
    discs = (own + opp).sum((1, 2))
    np.testing.assert_allclose(extra[:, 2].numpy(), ((36 - discs) % 2).numpy())
    np.testing.assert_allclose(extra[:, 0].numpy(), (mobility(own, opp) / 32).numpy())
    bad = {**card, "global": {"features": ["mobility"]}}
    with pytest.raises(PatternError, match=r"global\.features must be"):
        config_from_card(bad, "m.json")


def test_the_warm_start_gives_the_old_network_s_outputs_exactly(tmp_path: Path) -> None:
    torch.manual_seed(4)
    old = PatternNet(PatternConfig.default(6))
    warm = with_global_network(old, (8, 8), seed=3)
    assert warm.global_mlp is not None and old.global_mlp is None
    own, opp = grids(6, 64, 5)
    with torch.no_grad():
        assert torch.equal(warm.sums(own, opp), old.sums(own, opp))
        assert all(torch.equal(a, b) for a, b in zip(warm(own, opp), old(own, opp), strict=True))
    # The checkpoint keeps it, and the fit moves the global network off zero.
    save_checkpoint(warm, tmp_path / "w.pt")
    loaded, _ = load_checkpoint(tmp_path / "w.pt")
    assert loaded.config.global_hidden == (8, 8)
    samples = Positions(
        own.reshape(64, -1).numpy().astype(np.uint8),
        opp.reshape(64, -1).numpy().astype(np.uint8),
        np.linspace(-0.5, 0.5, 64).astype(np.float32),
        np.linspace(-1, 1, 64).astype(np.float32),
    )
    fit(loaded, samples, samples.take(np.arange(0)), 1, 16, 1e-2, log=lambda _: None)
    assert loaded.global_mlp is not None
    assert loaded.global_mlp.layers[-1].weight.abs().sum() > 0
    assert with_global_network(loaded) is loaded


def test_the_fit_adds_a_global_network_to_a_checkpoint_without_one(tmp_path: Path) -> None:
    write_batch(tmp_path / "data" / "a.npz", 6, 40, seed=8)
    first = tmp_path / "m" / "first"
    argv = ["--board", "6", "--data", str(tmp_path / "data"), "--epochs", "1", "--batch", "16"]
    assert pattern_fit.main([*argv, "--out", str(first), "--threads", "1"]) == 0
    assert "global" not in json.loads(first.with_suffix(".json").read_text())
    second = tmp_path / "m" / "second"
    init = ["--init", str(first.with_suffix(".pt")), "--global-inputs", "--threads", "1"]
    assert pattern_fit.main([*argv, "--out", str(second), *init]) == 0
    card = json.loads(second.with_suffix(".json").read_text())
    assert card["global"]["features"] == list(GLOBAL_FEATURES)
    assert card["training"]["global_inputs"] is True
    assert load_checkpoint(second.with_suffix(".pt"))[0].global_mlp is not None


def test_the_loop_s_setting_asks_the_fit_for_the_global_network(tmp_path: Path) -> None:
    run = pattern_loop.PatternRun.open(tmp_path / "run", {"board": 6, "global_inputs": True})
    assert json.loads((tmp_path / "run" / "config.json").read_text())["global_inputs"] is True
    asked: list[list[str]] = []
    pattern_loop.fit(run, 0, [tmp_path / "x.npz"], lambda argv: asked.append(list(argv)) or 0)
    assert "--global-inputs" in asked[0]


def test_the_global_fixture_agrees_with_onnx() -> None:
    """The engine's global fixture (python -m train.make_test_pattern_model): ONNX Runtime
    on each position's instance rows and global row gives the sums PyTorch wrote, and the
    global term weighs in them."""
    stem = Path(__file__).parents[2] / "crates/engine/tests/data" / "pattern-test-global-8x8"
    config = read_card(stem.with_suffix(".json"))
    assert config.global_hidden
    net = PatternNet(config)
    rows = json.loads(stem.with_name(stem.name + ".expected.json").read_text())
    session = ort.InferenceSession(
        str(stem.with_suffix(".onnx")), providers=["CPUExecutionProvider"]
    )
    terms = []
    for r in rows:
        own, opp = (torch.from_numpy(g)[None] for g in parse_board_text(r["board"]))
        feeds = {f"pattern_{k}": x[0].numpy() for k, x in enumerate(net.pattern_inputs(own, opp))}
        feeds["global"] = net.global_inputs(own, opp).numpy()
        *patterns, extra = session.run(None, feeds)
        got = sum(o.sum(0) for o in patterns) + extra[0]
        np.testing.assert_allclose(got, [r["score_sum"], r["value_sum"]], atol=1e-5)
        terms.append(extra[0])
    # The global term differs from position to position by far more than any rounding.
    assert np.ptp(np.array(terms), axis=0).min() > 0.05


def test_global_rows_computed_once_equal_those_of_each_turned_batch() -> None:
    """The fit computes the global inputs once (pattern_fit.all_global_rows) and reuses
    them under every symmetry a batch draws: they must not change under any."""
    net = PatternNet(PatternConfig.default(8, global_hidden=(4,)))
    own, opp = grids(8, 50, 12)
    samples = Positions(
        own.reshape(50, -1).numpy().astype(np.uint8),
        opp.reshape(50, -1).numpy().astype(np.uint8),
        np.zeros(50, np.float32),
        np.zeros(50, np.float32),
    )
    once = pattern_fit.all_global_rows(net, samples, batch=16)
    assert once is not None
    gathers = pattern_fit.symmetry_gathers(8)
    flat_own, flat_opp = own.reshape(50, -1), opp.reshape(50, -1)
    for g in range(8):
        index = gathers[g].expand(50, -1)
        turned = net.global_inputs(
            torch.gather(flat_own, 1, index), torch.gather(flat_opp, 1, index)
        )
        assert torch.equal(turned, once)
