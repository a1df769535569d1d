"""ONNX export with a model card, parity samples, and the parity check.

    python -m train.export --checkpoint runs/6x6-a/checkpoints/gen-0003.pt --out models/az-6x6
    python -m train.export --check models/az-6x6.onnx models/az-6x6.samples.npz

The samples file (`<name>.samples.npz`) holds `planes` float32 [n, C, N, N] (the
model contract's input for the network's C planes, train/contract.py) and the
PyTorch outputs for them: `policy` float32 [n, N*N+1] (logits) and `value` float32 [n]
(plus `score` float32 [n] when the network has a score head). Any runtime that loads the
ONNX file (the onnx reference evaluator here, tract in `othello model check --compare`)
must reproduce them within 1e-4.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import torch
from torch import Tensor, nn

from train import contract
from train.net import NetConfig, OthelloNet, parameter_count

OPSET = 17
TOLERANCE = 1e-4


class ExportError(RuntimeError):
    pass


class ContractWrapper(nn.Module):
    """The network's outputs as a tuple in contract order: policy, value[, score]. The
    contract's score is the disc difference divided by the number of squares (so in
    [-1, 1]); ownership is a training target and stays out."""

    def __init__(self, net: OthelloNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, planes: Tensor) -> tuple[Tensor, ...]:
        out = self.net(planes)
        if out.score is None:
            return out.policy, out.value
        return out.policy, out.value, out.score / self.net.config.squares


def output_names(config: NetConfig) -> list[str]:
    return list(contract.output_shapes(config.board, config.score_head))


def export_onnx(net: OthelloNet, path: Path, wrapper: nn.Module | None = None) -> None:
    """Writes the network as the model contract's graph. `wrapper` maps planes to the
    contract's outputs when the network's own heads are not them (the Q-learner's
    action values, say); by default, ContractWrapper."""
    config = net.config
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    wrapper = (wrapper or ContractWrapper(net)).eval()
    assert config.planes is not None  # NetConfig sets it
    dummy = torch.zeros(1, config.planes, config.board, config.board)
    names = output_names(config)
    axes = {name: {0: "batch"} for name in [contract.INPUT, *names]}
    # The TorchScript exporter: it needs no onnxscript and writes plain opset-17 graphs
    # that tract and the reference evaluator both run. It is deprecated (torch >= 2.9)
    # but still shipped; moving to dynamo=True is a separate, checked change.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            wrapper,
            (dummy,),
            str(path),
            input_names=[contract.INPUT],
            output_names=names,
            dynamic_axes=axes,
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )
    onnx.checker.check_model(onnx.load(str(path)))


def model_card(
    name: str,
    net: OthelloNet,
    run: str | None,
    generation: int | None,
    strength: str,
    variant: str = "standard",
) -> dict[str, Any]:
    c = net.config
    names = list(c.plane_names)
    network: dict[str, Any] = {
        "kind": "residual tower (conv3x3-BN-ReLU stem, residual blocks"
        + (", every second with KataGo's global pooling bias" if c.global_pool else "")
        + "), policy and value heads"
        + (", final disc difference / squares 'score'" if c.score_head else "")
        + (", ownership (training only)" if c.ownership_head else ""),
        "blocks": c.blocks,
        "channels": c.channels,
    }
    if c.global_pool:
        network["global_pool"] = c.global_pool
    return {
        "name": name,
        "board_size": c.board,
        "variant": variant,
        "planes": len(names),
        # Named even for v1, which a card without names also means: a card says what
        # its network takes.
        contract.CARD_PLANE_NAMES: names,
        "inputs": {contract.INPUT: contract.input_shape(c.board, len(names))},
        "outputs": contract.output_shapes(c.board, c.score_head),
        "network": network,
        "parameters": parameter_count(net),
        "training": {"run": run, "generation": generation},
        "date": datetime.date.today().isoformat(),
        "strength": strength,
    }


@torch.no_grad()
def torch_outputs(
    net: OthelloNet, planes: np.ndarray, wrapper: nn.Module | None = None
) -> dict[str, np.ndarray]:
    """The contract's outputs as PyTorch computes them: policy [n, moves], value and
    score [n]."""
    wrapper = (wrapper or ContractWrapper(net)).eval()
    outs = wrapper(torch.from_numpy(planes))
    result = {}
    for name, out in zip(output_names(net.config), outs, strict=True):
        result[name] = out.numpy() if name == "policy" else out.squeeze(1).numpy()
    return result


def sample_planes(
    board: int, n: int, seed: int, names: tuple[str, ...] = contract.PLANE_ORDER
) -> np.ndarray:
    """Inputs for the parity samples, one plane per name. Random 0/1 planes, not game
    positions: parity is about arithmetic, and random planes reach every weight."""
    rng = np.random.default_rng(seed)
    planes = (rng.random((n, len(names), board, board)) < 0.4).astype(np.float32)
    if "own" in names and "opponent" in names:
        # A square holds at most one disc.
        planes[:, names.index("opponent")] *= 1 - planes[:, names.index("own")]
    if "ones" in names:
        planes[:, names.index("ones")] = 1.0
    return planes


def write_samples(
    net: OthelloNet, path: Path, planes: np.ndarray, wrapper: nn.Module | None = None
) -> None:
    planes = np.ascontiguousarray(planes, dtype=np.float32)
    outputs = torch_outputs(net, planes, wrapper)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, planes=planes, **outputs)


def run_onnx(model_path: Path, planes: np.ndarray) -> dict[str, np.ndarray]:
    from onnx.reference import ReferenceEvaluator

    model = onnx.load(str(model_path))
    names = [o.name for o in model.graph.output]
    results = ReferenceEvaluator(model).run(None, {contract.INPUT: planes.astype(np.float32)})
    return dict(zip(names, results, strict=True))


def check_model_card(model_path: Path) -> None:
    """Refuses a model whose card (beside it) declares other input planes than the
    contract's; a model without a card is left to the engine, which refuses it."""
    card_path = Path(model_path).with_suffix(".json")
    if not card_path.is_file():
        return
    try:
        card = json.loads(card_path.read_text())
    except json.JSONDecodeError as e:
        raise ExportError(f"{card_path}: the model card is not valid JSON ({e})") from e
    try:
        contract.check_card(card, str(card_path))
    except contract.ContractError as e:
        raise ExportError(str(e)) from e


def check_parity(model_path: Path, samples_path: Path, tol: float = TOLERANCE) -> float:
    """The largest difference between the ONNX outputs and the samples' expected outputs,
    absolute up to 1 and relative above (float32 keeps about seven digits, so a policy
    that has grown confident, with logits in the tens, differs by more than `tol` between
    two correct runtimes); raises ExportError above `tol`."""
    with np.load(samples_path) as z:
        expected = {k: z[k] for k in z.files}
    for key in (contract.INPUT, *contract.OUTPUTS):
        if key not in expected:
            raise ExportError(f"{samples_path}: missing array {key!r}")
    check_model_card(model_path)
    got = run_onnx(model_path, expected[contract.INPUT])
    worst = 0.0
    for key, want in expected.items():
        if key == contract.INPUT:
            continue
        if key not in got:
            raise ExportError(f"{model_path}: has no output {key!r} that the samples expect")
        have = got[key].reshape(want.shape)
        scale = np.maximum(1.0, np.abs(want))
        diff = float(np.max(np.abs(have - want) / scale)) if want.size else 0.0
        if not diff <= tol:  # also catches NaN
            raise ExportError(f"{model_path}: output {key!r} differs by {diff:.3g} > {tol}")
        worst = max(worst, diff)
    return worst


def export_model(
    net: OthelloNet,
    out: Path,
    run: str | None = None,
    generation: int | None = None,
    strength: str = "not yet measured",
    samples: int = 8,
    seed: int = 0,
    variant: str = "standard",
    wrapper: type[nn.Module] | None = None,
    kind: str | None = None,
) -> tuple[Path, Path, Path]:
    """Writes `<out>.onnx`, the card `<out>.json` and `<out>.samples.npz`, and checks the
    ONNX file against PyTorch on the samples. `wrapper` (a module class built on the net)
    replaces ContractWrapper, and `kind` the card's description of the network."""
    # A copy on the CPU: the network may live on a GPU mid-run, and export and the
    # parity samples must not disturb it.
    net = copy.deepcopy(net).cpu().eval()
    module = wrapper(net) if wrapper is not None else None
    out = Path(out)
    onnx_path, card_path = out.with_suffix(".onnx"), out.with_suffix(".json")
    samples_path = out.with_name(out.name + ".samples.npz")
    export_onnx(net, onnx_path, module)
    planes = sample_planes(net.config.board, samples, seed, net.config.plane_names)
    write_samples(net, samples_path, planes, module)
    check_parity(onnx_path, samples_path)
    card = model_card(out.name, net, run, generation, strength, variant)
    if kind is not None:
        card["network"]["kind"] = kind
    card_path.write_text(json.dumps(card, indent=2) + "\n")
    return onnx_path, card_path, samples_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m train.export", description="Export a checkpoint to ONNX, or check one."
    )
    parser.add_argument(
        "--check",
        nargs=2,
        metavar=("MODEL_ONNX", "SAMPLES_NPZ"),
        type=Path,
        help="compare the ONNX outputs with the samples' expected outputs",
    )
    parser.add_argument("--checkpoint", type=Path, help="a trainer checkpoint (.pt)")
    parser.add_argument("--out", type=Path, help="output path without extension")
    parser.add_argument("--run", help="training run name for the card")
    parser.add_argument("--generation", type=int, help="generation for the card")
    parser.add_argument("--strength", default="not yet measured")
    parser.add_argument("--samples", type=int, default=8, help="parity samples to write")
    parser.add_argument("--tolerance", type=float, default=TOLERANCE)
    args = parser.parse_args(argv)

    if args.check:
        model_path, samples_path = args.check
        try:
            worst = check_parity(model_path, samples_path, args.tolerance)
        except (ExportError, OSError, ValueError) as e:
            print(f"parity check failed: {e}", file=sys.stderr)
            return 1
        print(f"parity ok: max difference {worst:.3g} <= {args.tolerance}")
        return 0
    if not (args.checkpoint and args.out):
        parser.error("give --checkpoint and --out to export, or --check MODEL SAMPLES")
    from train.train import CheckpointError, Trainer

    try:
        trainer = Trainer.load(args.checkpoint)
    except CheckpointError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    paths = export_model(
        trainer.net, args.out, args.run, args.generation, args.strength, args.samples
    )
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
