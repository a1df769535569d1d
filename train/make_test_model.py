"""Builds tiny, untrained networks that follow the model contract (docs/model-contract.md), so the
engine's ONNX loading, batching and masking are tested on real ONNX files before the
trainer ships real models. Weights are random from a fixed seed: they play no better
than chance.

    python -m train.make_test_model --board 8 --out models/tiny-random-8x8
"""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from train import contract
from train.contract import ONES, PLANES

CHANNELS = 8


def value_infos(board: int) -> list[onnx.ValueInfoProto]:
    return [
        helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)
        for name, shape in contract.output_shapes(board, score=False).items()
    ]


def build(board: int, seed: int) -> tuple[onnx.ModelProto, int]:
    rng = np.random.default_rng(seed)
    squares = board * board
    hidden = CHANNELS * squares

    def weight(name: str, *shape: int, scale: float) -> onnx.TensorProto:
        return numpy_helper.from_array(
            (rng.standard_normal(shape) * scale).astype(np.float32), name
        )

    initializers = [
        weight("conv_w", CHANNELS, PLANES, 3, 3, scale=0.3),
        weight("conv_b", CHANNELS, scale=0.1),
        weight("policy_w", hidden, squares + 1, scale=0.05),
        weight("policy_b", squares + 1, scale=0.05),
        weight("value_w", hidden, 1, scale=0.02),
        weight("value_b", 1, scale=0.01),
    ]
    nodes = [
        helper.make_node("Conv", [contract.INPUT, "conv_w", "conv_b"], ["conv"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["conv"], ["features"]),
        helper.make_node("Flatten", ["features"], ["flat"], axis=1),
        helper.make_node("Gemm", ["flat", "policy_w", "policy_b"], ["policy"]),
        helper.make_node("Gemm", ["flat", "value_w", "value_b"], ["value_raw"]),
        helper.make_node("Tanh", ["value_raw"], ["value"]),
    ]
    graph = helper.make_graph(
        nodes,
        f"tiny-random-{board}x{board}",
        [
            helper.make_tensor_value_info(
                contract.INPUT, TensorProto.FLOAT, contract.input_shape(board)
            )
        ],
        value_infos(board),
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    parameters = sum(int(np.prod(t.dims)) for t in initializers)
    return model, parameters


def build_tower(board: int, blocks: int, channels: int, seed: int) -> tuple[onnx.ModelProto, int]:
    """A residual tower of the AlphaZero shape with random weights (batch norm folded into
    the convolutions, as an exported network has it): for speed measurements only."""
    rng = np.random.default_rng(seed)
    squares = board * board
    initializers: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def conv(inp: str, out: str, cin: int, cout: int, k: int) -> None:
        w, b = f"{out}_w", f"{out}_b"
        fan_in = cin * k * k
        initializers.append(
            numpy_helper.from_array(
                (rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / fan_in)).astype(np.float32),
                w,
            )
        )
        initializers.append(numpy_helper.from_array(np.zeros(cout, np.float32), b))
        pad = k // 2
        nodes.append(helper.make_node("Conv", [inp, w, b], [out], pads=[pad] * 4))

    def dense(inp: str, out: str, fin: int, fout: int) -> None:
        w, b = f"{out}_w", f"{out}_b"
        initializers.append(
            numpy_helper.from_array(
                (rng.standard_normal((fin, fout)) / np.sqrt(fin)).astype(np.float32), w
            )
        )
        initializers.append(numpy_helper.from_array(np.zeros(fout, np.float32), b))
        nodes.append(helper.make_node("Gemm", [inp, w, b], [out]))

    conv(contract.INPUT, "stem", PLANES, channels, 3)
    nodes.append(helper.make_node("Relu", ["stem"], ["x0"]))
    x = "x0"
    for i in range(blocks):
        conv(x, f"b{i}c1", channels, channels, 3)
        nodes.append(helper.make_node("Relu", [f"b{i}c1"], [f"b{i}r1"]))
        conv(f"b{i}r1", f"b{i}c2", channels, channels, 3)
        nodes.append(helper.make_node("Add", [f"b{i}c2", x], [f"b{i}sum"]))
        nodes.append(helper.make_node("Relu", [f"b{i}sum"], [f"x{i + 1}"]))
        x = f"x{i + 1}"
    conv(x, "ph", channels, 2, 1)
    nodes.append(helper.make_node("Relu", ["ph"], ["phr"]))
    nodes.append(helper.make_node("Flatten", ["phr"], ["phf"], axis=1))
    dense("phf", "policy", 2 * squares, squares + 1)
    conv(x, "vh", channels, 1, 1)
    nodes.append(helper.make_node("Relu", ["vh"], ["vhr"]))
    nodes.append(helper.make_node("Flatten", ["vhr"], ["vhf"], axis=1))
    dense("vhf", "v1", squares, 64)
    nodes.append(helper.make_node("Relu", ["v1"], ["v1r"]))
    dense("v1r", "v2", 64, 1)
    nodes.append(helper.make_node("Tanh", ["v2"], ["value"]))
    graph = helper.make_graph(
        nodes,
        f"random-{blocks}x{channels}-{board}x{board}",
        [
            helper.make_tensor_value_info(
                contract.INPUT, TensorProto.FLOAT, contract.input_shape(board)
            )
        ],
        value_infos(board),
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model, sum(int(np.prod(t.dims)) for t in initializers)


def reference_forward(model: onnx.ModelProto, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The tiny network computed by hand in numpy, as an independent check of the runtime."""
    w = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    batch, _, n, _ = planes.shape
    padded = np.pad(planes, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((batch, CHANNELS, n, n), dtype=np.float64)
    for dy in range(3):
        for dx in range(3):
            window = padded[:, :, dy : dy + n, dx : dx + n]
            conv += np.einsum("bchw,oc->bohw", window, w["conv_w"][:, :, dy, dx])
    conv += w["conv_b"][None, :, None, None]
    flat = np.maximum(conv, 0).reshape(batch, -1)
    policy = flat @ w["policy_w"] + w["policy_b"]
    value = np.tanh(flat @ w["value_w"] + w["value_b"])
    return policy, value


def write_samples(model: onnx.ModelProto, board: int, path: Path, seed: int) -> None:
    rng = np.random.default_rng(seed + 1000)
    planes = (rng.random((5, PLANES, board, board)) < 0.4).astype(np.float32)
    planes[:, ONES] = 1.0
    policy, value = reference_forward(model, planes.astype(np.float64))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {
                "batch": int(planes.shape[0]),
                "planes": planes.reshape(-1).tolist(),
                "policy": policy.reshape(-1).tolist(),
                "value": value.reshape(-1).tolist(),
            }
        )
    )


def card(board: int, parameters: int, seed: int, name: str, network: dict) -> dict:
    return {
        "name": name,
        "board_size": board,
        "variant": "standard",
        "planes": PLANES,
        "inputs": {contract.INPUT: contract.input_shape(board)},
        "outputs": contract.output_shapes(board, score=False),
        "network": network,
        "parameters": parameters,
        "training": {
            "run": None,
            "generation": 0,
            "seed": seed,
            "note": "untrained random weights",
        },
        "date": datetime.date.today().isoformat(),
        "strength": "untrained: a test fixture for the ONNX plumbing, not a player",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--board", type=int, choices=[6, 8], required=True)
    parser.add_argument("--out", type=Path, required=True, help="path without extension")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--blocks", type=int, default=0, help="residual blocks (0: the tiny one-convolution net)"
    )
    parser.add_argument("--channels", type=int, default=CHANNELS)
    parser.add_argument(
        "--samples", type=Path, help="also write random inputs and numpy-computed outputs here"
    )
    args = parser.parse_args()
    if args.blocks > 0:
        model, parameters = build_tower(args.board, args.blocks, args.channels, args.seed)
        network = {
            "kind": "residual tower, random weights",
            "blocks": args.blocks,
            "channels": args.channels,
        }
    else:
        model, parameters = build(args.board, args.seed)
        network = {
            "kind": "one 3x3 convolution, then linear policy and tanh value heads",
            "blocks": 0,
            "channels": CHANNELS,
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(args.out.with_suffix(".onnx")))
    args.out.with_suffix(".json").write_text(
        json.dumps(card(args.board, parameters, args.seed, args.out.name, network), indent=2) + "\n"
    )
    if args.samples and args.blocks == 0:
        write_samples(model, args.board, args.samples, args.seed)


if __name__ == "__main__":
    main()
