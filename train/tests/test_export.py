import json
import re
import subprocess
from pathlib import Path

import numpy as np
import onnx
import pytest
import torch

from train.contract import encode_inputs
from train.data import Samples
from train.export import ExportError, check_parity, export_model, main, run_onnx, torch_outputs
from train.net import NetConfig, OthelloNet
from train.tests.engine import real_othello
from train.tests.positions import planes, start
from train.train import TrainConfig, Trainer


def trained_net(config: NetConfig) -> OthelloNet:
    """A net whose batch-norm statistics are not the defaults, so folding them into the
    graph is actually exercised."""
    trainer = Trainer(config, TrainConfig(lr=0.05))
    rng = np.random.default_rng(0)
    n = 8
    policy = rng.random((n, config.moves)).astype(np.float32)
    batch = Samples(
        (rng.random((n, 4, config.board, config.board)) < 0.5).astype(np.uint8),
        policy / policy.sum(1, keepdims=True),
        rng.uniform(-1, 1, n).astype(np.float32),
        rng.uniform(-10, 10, n).astype(np.float32),
    )
    trainer.train(batch, 3)
    return trainer.net.eval()


@pytest.mark.parametrize(
    "config",
    [
        NetConfig(board=6, blocks=1, channels=8),
        NetConfig(board=8, blocks=2, channels=8, score_head=True, ownership_head=True),
        NetConfig(board=8, blocks=3, channels=8, inputs="v2", global_pool=4, score_head=True),
    ],
    ids=["6x6", "8x8-score-ownership", "8x8-v2-global-pooling"],
)
def test_the_exported_model_matches_pytorch(tmp_path: Path, config: NetConfig) -> None:
    net = trained_net(config)
    onnx_path, card_path, samples_path = export_model(
        net, tmp_path / "m", run="test-run", generation=3
    )
    model = onnx.load(str(onnx_path))
    assert [i.name for i in model.graph.input] == ["planes"]
    names = [o.name for o in model.graph.output]
    assert names == (["policy", "value", "score"] if config.score_head else ["policy", "value"])
    assert model.opset_import[0].version == 17
    assert check_parity(onnx_path, samples_path) <= 1e-4

    # a batch size other than the one traced: the batch axis is dynamic
    planes = np.random.default_rng(1).integers(0, 2, (5, config.planes, config.board, config.board))
    planes = planes.astype(np.float32)
    got, want = run_onnx(onnx_path, planes), torch_outputs(net, planes)
    assert got["policy"].shape == (5, config.moves)
    assert got["value"].shape == (5, 1)
    np.testing.assert_allclose(got["policy"], want["policy"], atol=1e-4)
    np.testing.assert_allclose(got["value"][:, 0], want["value"], atol=1e-4)
    if config.score_head:
        # The contract's score is the disc difference over the squares: in [-1, 1].
        with torch.no_grad():
            discs = net(torch.from_numpy(planes)).score
        assert discs is not None
        squares = config.board * config.board
        np.testing.assert_allclose(got["score"][:, 0], discs[:, 0].numpy() / squares, atol=1e-5)

    card = json.loads(card_path.read_text())
    assert card["board_size"] == config.board
    assert card["planes"] == config.planes
    assert tuple(card["plane_names"]) == config.plane_names
    assert card["inputs"]["planes"] == ["batch", config.planes, config.board, config.board]
    if config.global_pool:
        assert card["network"]["global_pool"] == config.global_pool
        # What tract must run: the pooling is ReduceMean and ReduceMax, nothing exotic.
        ops = {node.op_type for node in model.graph.node}
        assert {"ReduceMean", "ReduceMax"} <= ops, ops
    assert card["outputs"]["policy"] == ["batch", config.moves]
    assert card["network"]["blocks"] == config.blocks
    assert card["network"]["channels"] == config.channels
    assert card["training"] == {"run": "test-run", "generation": 3}
    for field in ("name", "variant", "inputs", "parameters", "date", "strength"):
        assert field in card


def test_the_samples_file_has_the_documented_arrays(tmp_path: Path) -> None:
    _, _, samples_path = export_model(
        trained_net(NetConfig(board=6, blocks=1, channels=4)), tmp_path / "m", samples=3
    )
    with np.load(samples_path) as z:
        assert z["planes"].dtype == np.float32 and z["planes"].shape == (3, 4, 6, 6)
        assert z["policy"].dtype == np.float32 and z["policy"].shape == (3, 37)
        assert z["value"].dtype == np.float32 and z["value"].shape == (3,)


def test_the_check_fails_when_outputs_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    onnx_path, _, samples_path = export_model(
        trained_net(NetConfig(board=6, blocks=1, channels=4)), tmp_path / "m"
    )
    assert main(["--check", str(onnx_path), str(samples_path)]) == 0
    with np.load(samples_path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["value"] = arrays["value"] + 1e-3
    np.savez(samples_path, **arrays)
    assert main(["--check", str(onnx_path), str(samples_path)]) == 1
    assert "output 'value' differs" in capsys.readouterr().err


def test_the_cli_exports_a_checkpoint(tmp_path: Path) -> None:
    trainer = Trainer(NetConfig(board=6, blocks=1, channels=4), TrainConfig())
    trainer.save(tmp_path / "c.pt")
    out = tmp_path / "models" / "az"
    assert main(["--checkpoint", str(tmp_path / "c.pt"), "--out", str(out)]) == 0
    assert out.with_suffix(".onnx").exists() and out.with_suffix(".json").exists()
    assert main(["--check", str(out.with_suffix(".onnx")), f"{out}.samples.npz"]) == 0


def test_the_cli_reports_a_corrupt_checkpoint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "c.pt").write_bytes(b"junk")
    assert main(["--checkpoint", str(tmp_path / "c.pt"), "--out", str(tmp_path / "m")]) == 1
    assert "corrupt or not a checkpoint" in capsys.readouterr().err


OTHELLO = real_othello()


@pytest.mark.skipif(OTHELLO is None, reason="needs the othello binary: cargo build -p cli")
@pytest.mark.parametrize(
    "config",
    [
        NetConfig(board=6, blocks=1, channels=8),
        NetConfig(board=6, blocks=2, channels=8, inputs="v2", global_pool=4),
    ],
    ids=["v1", "v2-global-pooling"],
)
def test_the_rust_engine_reads_the_exported_model_like_pytorch(
    tmp_path: Path, config: NetConfig
) -> None:
    """End to end through tract and the engine's own plane encoding: the start position's
    priors and value printed by `othello model check` equal PyTorch's on the planes the
    trainer's encoder makes."""
    net = trained_net(config)
    onnx_path, _, _ = export_model(net, tmp_path / "m")
    text = subprocess.run(
        [str(OTHELLO), "--runtime", "tract", "model", "check", str(onnx_path)],
        capture_output=True,
        text=True,
    ).stdout
    assert f"input planes: {config.inputs} ({', '.join(config.plane_names)})" in text, text
    line = next(x for x in text.splitlines() if x.startswith("start position:"))
    value = float(re.search(r"value ([-+][\d.]+) for Black", line).group(1))
    priors = {m: float(p) for m, p in re.findall(r"([a-f]\d) ([\d.]+)%", line)}

    base = planes(*start(6))[None]
    out = torch_outputs(net, encode_inputs(base, config.plane_names))
    legal = np.flatnonzero(base[0, 2].reshape(-1))
    logits = out["policy"][0, legal]
    soft = np.exp(logits - logits.max())
    soft /= soft.sum()
    want = {f"{'abcdef'[i % 6]}{i // 6 + 1}": 100 * s for i, s in zip(legal, soft, strict=True)}
    assert priors.keys() == want.keys()
    for move, percent in want.items():
        assert priors[move] == pytest.approx(percent, abs=0.06)
    assert value == pytest.approx(float(out["value"][0]), abs=6e-4)


def ort_available() -> bool:
    """Whether the engine finds an ONNX Runtime library (the trainer's venv has one)."""
    model = Path(__file__).resolve().parents[2] / "models" / "tiny-random-6x6.onnx"
    check = [str(OTHELLO), "--runtime", "ort", "model", "check", str(model)]
    return subprocess.run(check, capture_output=True).returncode == 0


@pytest.mark.skipif(OTHELLO is None, reason="needs the othello binary: cargo build -p cli")
def test_a_v2_global_pooling_network_plays_on_tract_and_onnx_runtime(tmp_path: Path) -> None:
    """Random weights, v2 planes and global pooling: both runtimes reproduce PyTorch's
    outputs on the parity samples (`model check --compare` with `auto` checks tract and,
    where its library is found, ONNX Runtime), and the network plays arena games on each."""
    config = NetConfig(board=6, blocks=2, channels=8, inputs="v2", global_pool=4, score_head=True)
    onnx_path, _, samples_path = export_model(trained_net(config), tmp_path / "m")
    runtimes = ["tract", *(["ort"] if ort_available() else [])]
    compare = [str(OTHELLO), "model", "check", str(onnx_path), "--compare", str(samples_path)]
    result = subprocess.run(compare, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for runtime in runtimes:
        out = tmp_path / f"arena-{runtime}"
        arena = [
            str(OTHELLO), "--runtime", runtime, "arena", "--board", "6", "--players",
            f"mcts:model={onnx_path},sims=16,random", "--games", "2", "--seed", "1",
            "--out", str(out),
        ]  # fmt: skip
        result = subprocess.run(arena, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        assert "2 games" in result.stdout, result.stdout


def test_a_confident_policy_passes_and_a_wrong_one_still_fails(tmp_path: Path) -> None:
    net = trained_net(NetConfig(board=6, blocks=1, channels=4))
    with torch.no_grad():  # logits in the thousands: float32 keeps no 1e-4 there
        net.policy_fc.weight.mul_(100000.0)
        net.policy_fc.bias.mul_(100000.0)
    onnx_path, _, samples_path = export_model(net, tmp_path / "m")
    with np.load(samples_path) as z:
        arrays = {k: z[k] for k in z.files}
    assert np.abs(arrays["policy"]).max() > 1000
    assert check_parity(onnx_path, samples_path) <= 1e-4
    # Off by a thousandth of its size, the largest logit is wrong, not rounded.
    worst = np.unravel_index(np.argmax(np.abs(arrays["policy"])), arrays["policy"].shape)
    arrays["policy"][worst] *= 1.001
    np.savez(samples_path, **arrays)
    with pytest.raises(ExportError, match="output 'policy' differs"):
        check_parity(onnx_path, samples_path)
