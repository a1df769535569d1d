"""The pattern network (docs/model-contract.md, "Pattern networks"): a small dense
network per pattern of squares, read at every image of the pattern under the board's
symmetries, fed the pattern's squares and the game's stage; a position's evaluation is
the sum of every instance's outputs. The engine turns each network into lookup tables
at load (crates/engine/src/pattern/); here is the PyTorch model that trains them, its
ONNX export and its model card.

The 8x8 pattern set is Egaroucid for Web's features (src/web/evaluate.hpp of
github.com/Nyanyan/Egaroucid, which also feeds each pattern and the stage to a small
dense network and tabulates it at start-up): the 3x3 corner, the corner L, the edge with
its two X-squares, the edge with its c2-f2 block, rows 2 to 4 and the diagonals of 8 to 4
squares, 46 instances in all. (The set changed between Egaroucid's versions: the corner L
is in earlier ones; later ones have a corner triangle and a cross in its place and
diag4's.) The 6x6 set is ours, in the same spirit (30 instances).

Squares are named a1..h8, column a and row 1 the top-left; a square's index in a grid
flattened row by row is `row * N + column` (the engine's bit is `row * 8 + column`).
"""

from __future__ import annotations

import datetime
import json
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import torch
from torch import Tensor, nn

from train.contract import ContractError
from train.swa import mean_state

OPSET = 17
KIND = "pattern"
BOARDS = (4, 6, 8)
MAX_STAGES = 60
MAX_PATTERNS = 32
MAX_SQUARES = 10
DEFAULT_HIDDEN = (16, 16)
DEFAULT_STAGES = {8: 10, 6: 8}
# The global network's inputs, in order (docs/model-contract.md, "The global network"):
# each side's count of legal moves over MOBILITY_SCALE, the empties' parity (1 odd) and the
# stage input the patterns read. Mobility is the same under every symmetry of the board,
# so the term is read once a position, where each pattern is read at each of its images.
GLOBAL_FEATURES = ("mobility", "opponent_mobility", "parity", "stage")
MOBILITY_SCALE = 32.0
DEFAULT_GLOBAL_HIDDEN = (16, 16)
GLOBAL_INPUT = "global"
GLOBAL_OUTPUT = "out_global"


class PatternError(ContractError):
    """A pattern card, checkpoint or setting that does not follow the contract; the
    message says where and what."""


def _row(letters: str, row: int) -> tuple[str, ...]:
    return tuple(f"{c}{row}" for c in letters)


# The base patterns, each as (name, squares in the order its network reads them).
BASE_PATTERNS: dict[int, tuple[tuple[str, tuple[str, ...]], ...]] = {
    8: (
        ("corner3x3", ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")),
        ("cornerL", ("a5", "a4", "a3", "a2", "a1", "b2", "b1", "c1", "d1", "e1")),
        ("edge2x", ("b2", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "g2")),
        ("edge_triangle", ("a1", "c1", "d1", "c2", "d2", "e2", "f2", "e1", "f1", "h1")),
        ("line2", _row("abcdefgh", 2)),
        ("line3", _row("abcdefgh", 3)),
        ("line4", _row("abcdefgh", 4)),
        ("diag8", ("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8")),
        ("diag7", ("b1", "c2", "d3", "e4", "f5", "g6", "h7")),
        ("diag6", ("c1", "d2", "e3", "f4", "g5", "h6")),
        ("diag5", ("d1", "e2", "f3", "g4", "h5")),
        ("diag4", ("e1", "f2", "g3", "h4")),
    ),
    6: (
        ("corner3x3", ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")),
        ("cornerL", ("a4", "a3", "a2", "a1", "b2", "b1", "c1", "d1")),
        ("edge2x", ("b2", "a1", "b1", "c1", "d1", "e1", "f1", "e2")),
        ("line2", _row("abcdef", 2)),
        ("line3", _row("abcdef", 3)),
        ("diag6", ("a1", "b2", "c3", "d4", "e5", "f6")),
        ("diag5", ("b1", "c2", "d3", "e4", "f5")),
        ("diag4", ("c1", "d2", "e3", "f4")),
    ),
}


# Egaroucid 7's sixteen patterns (src/engine/evaluate_simd.hpp of github.com/Nyanyan/Egaroucid,
# its `feature_to_coord`, each pattern's first image; the squares here are ours, named as
# this file names them): rows 2-4, the diagonals of 5 to 8 squares, the 3x3 corner, the
# edge with its X-squares, the corner triangle, the edge with its c2-f2 block, the cross,
# the edge with c2 and f2, the narrow triangle, the fish and the kite: 62 instances. An
# arm of issue 66's levers (docs/pattern.md), on 8x8 only.
EGAROUCID7_PATTERNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("line2", _row("abcdefgh", 2)),
    ("line3", _row("abcdefgh", 3)),
    ("line4", _row("abcdefgh", 4)),
    ("diag5", ("d1", "e2", "f3", "g4", "h5")),
    ("diag6", ("c1", "d2", "e3", "f4", "g5", "h6")),
    ("diag7", ("b1", "c2", "d3", "e4", "f5", "g6", "h7")),
    ("diag8", ("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8")),
    ("corner3x3", ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")),
    ("edge2x", ("b2", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "g2")),
    ("triangle", ("a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4")),
    ("edge_block", ("a1", "c1", "d1", "e1", "f1", "h1", "c2", "d2", "e2", "f2")),
    ("cross", ("a1", "b2", "c3", "d4", "b1", "c2", "d3", "a2", "b3", "c4")),
    ("edge_y", ("c2", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "f2")),
    ("narrow_triangle", ("a1", "b1", "c1", "d1", "e1", "a2", "b2", "a3", "a4", "a5")),
    ("fish", ("a1", "b1", "a2", "b2", "c2", "d2", "b3", "c3", "b4", "d4")),
    ("kite", ("a1", "b1", "a2", "b2", "c2", "d2", "e2", "b3", "b4", "b5")),
)

# The pattern sets a fit can start from, by name: `base` is BASE_PATTERNS (every board).
PATTERN_SETS: dict[str, dict[int, tuple[tuple[str, tuple[str, ...]], ...]]] = {
    "base": BASE_PATTERNS,
    "egaroucid7": {8: EGAROUCID7_PATTERNS},
}


def parse_square(name: str, n: int) -> tuple[int, int]:
    """`c2` -> (column 2, row 1) on an n x n board."""
    if not isinstance(name, str) or len(name) != 2:
        raise PatternError(f"square {name!r} is not a square name such as 'c2'")
    col, row = ord(name[0]) - ord("a"), ord(name[1]) - ord("1")
    if not (0 <= col < n and 0 <= row < n):
        raise PatternError(f"square {name!r} is not on a {n}x{n} board")
    return col, row


def square_name(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


def symmetry(sym: int, col: int, row: int, n: int) -> tuple[int, int]:
    """The image of a square under symmetry `sym` (0..7), as the engine's
    `othello::Symmetry`: bit 1 transposes, then bit 2 flips the rows, then bit 4 mirrors
    the columns."""
    if sym & 1:
        col, row = row, col
    if sym & 2:
        row = n - 1 - row
    if sym & 4:
        col = n - 1 - col
    return col, row


@dataclass(frozen=True)
class Pattern:
    name: str
    squares: tuple[str, ...]


def instances(squares: Sequence[str], n: int) -> list[tuple[int, ...]]:
    """The instances of a pattern: its squares' images under the eight symmetries, in
    symmetry order, as grid indices `row * n + column` in the pattern's order; an image
    whose set of squares an earlier one has is dropped."""
    cells = [parse_square(s, n) for s in squares]
    found: list[tuple[int, ...]] = []
    seen: set[frozenset[int]] = set()
    for sym in range(8):
        image = tuple(r * n + c for c, r in (symmetry(sym, c, r, n) for c, r in cells))
        if frozenset(image) not in seen:
            seen.add(frozenset(image))
            found.append(image)
    return found


def stage(discs: int | np.ndarray | Tensor, n: int, stages: int) -> Any:
    """The stage of a position with `discs` discs (4 to n*n): `(discs - 4) * stages //
    (n*n - 3)`, 0 to stages - 1."""
    return (discs - 4) * stages // (n * n - 3)


def stage_input(stage_index: Any, stages: int) -> Any:
    """The stage as the networks read it: stage / (stages - 1), 0 when there is one."""
    return stage_index / (stages - 1) if stages > 1 else stage_index * 0.0


@dataclass(frozen=True)
class PatternConfig:
    board: int = 8
    stages: int = 10
    patterns: tuple[Pattern, ...] = field(default_factory=tuple)
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    # The global network's hidden sizes; empty: no global network (every model before it).
    global_hidden: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        check_layout(self.board, self.stages, [(p.name, p.squares) for p in self.patterns])
        if not self.hidden or any(int(h) < 1 for h in self.hidden):
            raise PatternError(f"hidden sizes must be positive, got {list(self.hidden)}")
        if any(int(h) < 1 for h in self.global_hidden):
            raise PatternError(
                f"global hidden sizes must be positive, got {list(self.global_hidden)}"
            )

    @staticmethod
    def default(
        board: int,
        stages: int | None = None,
        hidden: Sequence[int] = DEFAULT_HIDDEN,
        pattern_set: str = "base",
        global_hidden: Sequence[int] = (),
    ) -> PatternConfig:
        if pattern_set not in PATTERN_SETS:
            raise PatternError(
                f"no pattern set {pattern_set!r}: the sets are {', '.join(PATTERN_SETS)}"
            )
        sets = PATTERN_SETS[pattern_set]
        if board not in sets:
            raise PatternError(
                f"board {board}: the {pattern_set} pattern set is for boards {tuple(sets)}"
            )
        return PatternConfig(
            board,
            DEFAULT_STAGES[board] if stages is None else stages,
            tuple(Pattern(name, squares) for name, squares in sets[board]),
            tuple(int(h) for h in hidden),
            tuple(int(h) for h in global_hidden),
        )

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "board": self.board,
            "stages": self.stages,
            "patterns": [{"name": p.name, "squares": list(p.squares)} for p in self.patterns],
            "hidden": list(self.hidden),
        }
        # Absent without a global network: checkpoints from before it read the same.
        if self.global_hidden:
            d["global_hidden"] = list(self.global_hidden)
        return d

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> PatternConfig:
        return PatternConfig(
            int(d["board"]),
            int(d["stages"]),
            tuple(Pattern(p["name"], tuple(p["squares"])) for p in d["patterns"]),
            tuple(int(h) for h in d["hidden"]),
            tuple(int(h) for h in d.get("global_hidden", ())),
        )


def check_layout(board: int, stages: Any, patterns: Sequence[tuple[Any, Any]]) -> None:
    """Refuses what the contract refuses: a board other than 4, 6 or 8, stages outside 1 to
    60, no patterns or more than 32, a pattern of no squares or more than 10, a square off
    the board or twice in one pattern, a name used twice."""
    if board not in BOARDS:
        raise PatternError(f"board {board}: pattern networks are for boards {BOARDS}")
    if not isinstance(stages, int) or isinstance(stages, bool) or not 1 <= stages <= MAX_STAGES:
        raise PatternError(f"stages must be an integer from 1 to {MAX_STAGES}, got {stages!r}")
    if not 1 <= len(patterns) <= MAX_PATTERNS:
        raise PatternError(
            f"a pattern network has 1 to {MAX_PATTERNS} patterns, got {len(patterns)}"
        )
    names = [name for name, _ in patterns]
    for name, squares in patterns:
        if not isinstance(name, str) or not name:
            raise PatternError(f"pattern name {name!r} is not a non-empty string")
        if names.count(name) > 1:
            raise PatternError(f"pattern {name!r} is named twice")
        if isinstance(squares, str) or not 1 <= len(squares) <= MAX_SQUARES:
            raise PatternError(f"pattern {name!r}: needs a list of 1 to {MAX_SQUARES} squares")
        try:
            cells = [parse_square(s, board) for s in squares]
        except PatternError as e:
            raise PatternError(f"pattern {name!r}: {e}") from e
        if len(set(cells)) != len(cells):
            raise PatternError(f"pattern {name!r}: a square appears twice in {list(squares)}")


class PatternMlp(nn.Module):
    """One pattern's network: [own s][opponent s][stage] -> (score, value logit); with
    `width` given, the global network: the GLOBAL_FEATURES -> (score, value logit)."""

    def __init__(self, squares: int, hidden: Sequence[int], width: int | None = None) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = 2 * squares + 1 if width is None else width
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        layers.append(nn.Linear(width, 2))
        self.layers = nn.Sequential(*layers)

    def forward(self, x: Tensor) -> Tensor:
        return self.layers(x)


class PatternNet(nn.Module):
    """The pattern networks, and the whole-position evaluation that sums them over every
    instance."""

    index: list[Tensor]

    def __init__(self, config: PatternConfig) -> None:
        super().__init__()
        self.config = config
        n = config.board
        self.mlps = nn.ModuleList(
            PatternMlp(len(p.squares), config.hidden) for p in config.patterns
        )
        # Grid indices [instances, squares] per pattern: a whole batch's rows in one gather.
        self.index = [
            torch.tensor(instances(p.squares, n), dtype=torch.long) for p in config.patterns
        ]
        # The global network (docs/model-contract.md), where the config has one.
        self.global_mlp = (
            PatternMlp(0, config.global_hidden, len(GLOBAL_FEATURES))
            if config.global_hidden
            else None
        )

    def instance_counts(self) -> list[int]:
        return [int(i.shape[0]) for i in self.index]

    def pattern_inputs(self, own: Tensor, opponent: Tensor) -> list[Tensor]:
        """Every instance's input row: per pattern float32 [B, instances, 2s + 1], from the
        side to move's discs and the opponent's as 0/1 tensors [B, N, N] or [B, N*N]."""
        n, stages = self.config.board, self.config.stages
        own = own.reshape(own.shape[0], n * n).float()
        opponent = opponent.reshape(opponent.shape[0], n * n).float()
        discs = (own.sum(1) + opponent.sum(1)).round().long()
        # A real position has 4 to N*N discs; the clamp keeps made-up ones in the tables.
        s = stage_input(stage(discs, n, stages).clamp(0, stages - 1).float(), stages)
        rows = []
        for index in self.index:
            count = index.shape[0]
            rows.append(
                torch.cat(
                    [
                        own[:, index],
                        opponent[:, index],
                        s[:, None, None].expand(own.shape[0], count, 1),
                    ],
                    dim=2,
                )
            )
        return rows

    def global_inputs(self, own: Tensor, opponent: Tensor) -> Tensor:
        """The global network's input rows, float32 [B, 4] (GLOBAL_FEATURES' order)."""
        n, stages = self.config.board, self.config.stages
        own = own.reshape(own.shape[0], n, n).float()
        opponent = opponent.reshape(opponent.shape[0], n, n).float()
        with torch.no_grad():
            discs = (own.sum((1, 2)) + opponent.sum((1, 2))).round().long()
            s = stage_input(stage(discs, n, stages).clamp(0, stages - 1).float(), stages)
            parity = ((n * n - discs) % 2).float()
            return torch.stack(
                [
                    mobility(own, opponent) / MOBILITY_SCALE,
                    mobility(opponent, own) / MOBILITY_SCALE,
                    parity,
                    s,
                ],
                dim=1,
            )

    def sums(self, own: Tensor, opponent: Tensor, global_rows: Tensor | None = None) -> Tensor:
        """Σ over every instance of its outputs, plus the global network's where there is
        one: float32 [B, 2] (score, value logit). `global_rows`: the positions'
        `global_inputs` where the caller has them already (they are the same under every
        symmetry, so a fit computes them once, not every batch)."""
        total = torch.zeros(own.shape[0], 2, dtype=torch.float32)
        for mlp, rows in zip(self.mlps, self.pattern_inputs(own, opponent), strict=True):
            total = total + mlp(rows).sum(dim=1)
        if self.global_mlp is not None:
            if global_rows is None:
                global_rows = self.global_inputs(own, opponent)
            total = total + self.global_mlp(global_rows)
        return total

    def forward(self, own: Tensor, opponent: Tensor) -> tuple[Tensor, Tensor]:
        """(score, value) for the side to move: clamp(Σ out[0], -1, 1), tanh(Σ out[1])."""
        total = self.sums(own, opponent)
        return total[:, 0].clamp(-1.0, 1.0), torch.tanh(total[:, 1])


def _shift(x: Tensor, dr: int, dc: int) -> Tensor:
    """[B, N, N] grids moved by (dr rows, dc columns), zeros coming in: out[r, c] =
    x[r - dr, c - dc]."""
    n = x.shape[1]
    padded = torch.nn.functional.pad(x, (1, 1, 1, 1))
    return padded[:, 1 - dr : 1 - dr + n, 1 - dc : 1 - dc + n]


DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))


def mobility(own: Tensor, opponent: Tensor) -> Tensor:
    """The number of legal moves of `own` against `opponent` ([B, N, N] 0/1 grids):
    float32 [B]. Each direction's runs of opponent discs flanked by an own disc, filled a
    step at a time (the engine's Kogge-Stone fill, on grids)."""
    n = own.shape[1]
    empty = 1.0 - own - opponent
    moves = torch.zeros_like(own)
    for dr, dc in DIRECTIONS:
        run = _shift(own, dr, dc) * opponent
        for _ in range(n - 3):
            run = torch.maximum(run, _shift(run, dr, dc) * opponent)
        moves = torch.maximum(moves, _shift(run, dr, dc) * empty)
    return moves.sum(dim=(1, 2))


def parameter_count(net: nn.Module) -> int:
    return sum(p.numel() for p in net.parameters() if p.requires_grad)


# ---- bitboards and board text ----


def grids_from_bitboards(bits: Sequence[int] | np.ndarray, n: int) -> np.ndarray:
    """Engine bitboards (bit `row * 8 + column`) as 0/1 grids float32 [B, n, n]."""
    b = np.asarray(bits, dtype=np.uint64).reshape(-1)
    shifts = np.array([r * 8 + c for r in range(n) for c in range(n)], dtype=np.uint64)
    grid = (b[:, None] >> shifts[None, :]) & np.uint64(1)
    return grid.astype(np.float32).reshape(-1, n, n)


def board_text(black: np.ndarray, white: np.ndarray, black_to_move: bool) -> str:
    """The board text the engine reads: N*N characters from a1 row by row (`X` black,
    `O` white, `-` empty), a space, then the side to move."""
    cells = np.where(np.asarray(black, bool), "X", np.where(np.asarray(white, bool), "O", "-"))
    return "".join(cells.reshape(-1)) + (" X" if black_to_move else " O")


def parse_board_text(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Board text -> (own, opponent) 0/1 grids [N, N] for the side to move."""
    cells, _, mover = text.strip().partition(" ")
    n = round(len(cells) ** 0.5)
    if n * n != len(cells) or mover not in ("X", "O") or set(cells) - set("XO-"):
        raise PatternError(f"{text!r} is not board text ('X', 'O', '-' per square, then X or O)")
    grid = np.array(list(cells)).reshape(n, n)
    black, white = (grid == "X").astype(np.float32), (grid == "O").astype(np.float32)
    return (black, white) if mover == "X" else (white, black)


# ---- export ----


class PatternExport(nn.Module):
    """The ONNX graph: input `pattern_k` [batch_k, 2s + 1] -> output `out_k` [batch_k, 2],
    each pattern's network on its own inputs; then, where there is a global network,
    input `global` [batch_g, 4] -> output `out_global` [batch_g, 2]."""

    def __init__(self, net: PatternNet) -> None:
        super().__init__()
        self.mlps = nn.ModuleList([*net.mlps, *([net.global_mlp] if net.global_mlp else [])])

    def forward(self, *inputs: Tensor) -> tuple[Tensor, ...]:
        return tuple(mlp(x) for mlp, x in zip(self.mlps, inputs, strict=True))


def input_names(config: PatternConfig) -> list[str]:
    extra = [GLOBAL_INPUT] if config.global_hidden else []
    return [f"pattern_{k}" for k in range(len(config.patterns))] + extra


def output_names(config: PatternConfig) -> list[str]:
    extra = [GLOBAL_OUTPUT] if config.global_hidden else []
    return [f"out_{k}" for k in range(len(config.patterns))] + extra


def input_widths(config: PatternConfig) -> list[int]:
    extra = [len(GLOBAL_FEATURES)] if config.global_hidden else []
    return [2 * len(p.squares) + 1 for p in config.patterns] + extra


def export_onnx(net: PatternNet, path: Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    config = net.config
    module = PatternExport(net).eval()
    dummies = tuple(torch.zeros(1, w) for w in input_widths(config))
    ins, outs = input_names(config), output_names(config)
    axes = {name: {0: f"batch_{k}"} for k, name in enumerate(ins)}
    axes.update({name: {0: f"batch_{k}"} for k, name in enumerate(outs)})
    # The TorchScript exporter, as train/export.py: plain opset-17 graphs tract runs.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            module,
            dummies,
            str(path),
            input_names=ins,
            output_names=outs,
            dynamic_axes=axes,
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )
    model = onnx.load(str(path))
    onnx.checker.check_model(model)
    got = [i.name for i in model.graph.input]
    if got != ins or [o.name for o in model.graph.output] != outs:
        raise PatternError(f"{path}: the exported graph's inputs are {got}, expected {ins}")
    check_parity(net, model, str(path))


def check_parity(net: PatternNet, model: onnx.ModelProto, where: str, tol: float = 1e-5) -> None:
    """The ONNX graph (onnx's reference evaluator) against PyTorch on random rows, a
    different number per pattern; raises PatternError above `tol`."""
    from onnx.reference import ReferenceEvaluator

    rng = np.random.default_rng(0)
    feeds = {}
    for k, p in enumerate(net.config.patterns):
        s = len(p.squares)
        own = rng.random((k + 3, s)) < 0.4
        opp = (rng.random((k + 3, s)) < 0.5) & ~own
        stage_column = rng.integers(0, net.config.stages, (k + 3, 1)) / max(
            net.config.stages - 1, 1
        )
        feeds[f"pattern_{k}"] = np.concatenate([own, opp, stage_column], 1).astype(np.float32)
    mlps = list(net.mlps)
    if net.global_mlp is not None:
        feeds[GLOBAL_INPUT] = rng.random((5, len(GLOBAL_FEATURES))).astype(np.float32)
        mlps.append(net.global_mlp)
    got = ReferenceEvaluator(model).run(None, feeds)
    names = input_names(net.config)
    with torch.no_grad():
        for name, out_name, mlp, out in zip(
            names, output_names(net.config), mlps, got, strict=True
        ):
            want = mlp(torch.from_numpy(feeds[name])).numpy()
            diff = float(np.max(np.abs(np.asarray(out) - want)))
            if not diff <= tol:
                raise PatternError(
                    f"{where}: {out_name} differs from PyTorch by {diff:.3g} > {tol}"
                )


def model_card(
    name: str,
    net: PatternNet,
    training: Mapping[str, Any] | None = None,
    variant: str = "standard",
    strength: Any = "not yet measured",
) -> dict[str, Any]:
    c = net.config
    card: dict[str, Any] = {
        "name": name,
        "kind": KIND,
        "board_size": c.board,
        "variant": variant,
        "stages": c.stages,
        "patterns": [{"name": p.name, "squares": list(p.squares)} for p in c.patterns],
        "inputs": {
            f"pattern_{k}": [f"batch_{k}", 2 * len(p.squares) + 1] for k, p in enumerate(c.patterns)
        },
        "outputs": {f"out_{k}": [f"batch_{k}", 2] for k in range(len(c.patterns))},
        "network": {
            "kind": KIND,
            "hidden": list(c.hidden),
            "instances": net.instance_counts(),
        },
        "parameters": parameter_count(net),
        "training": dict(training or {}),
        "date": datetime.date.today().isoformat(),
        "strength": strength,
    }
    if c.global_hidden:
        card["global"] = {"features": list(GLOBAL_FEATURES), "hidden": list(c.global_hidden)}
        card["inputs"][GLOBAL_INPUT] = ["batch_global", len(GLOBAL_FEATURES)]
        card["outputs"][GLOBAL_OUTPUT] = ["batch_global", 2]
    return card


def config_from_card(card: Mapping[str, Any], where: str) -> PatternConfig:
    """The pattern layout a card declares, checked as the engine checks it; one
    PatternError naming `where` for anything amiss."""
    if not isinstance(card, Mapping):
        raise PatternError(f"{where}: a model card is a JSON object")
    if card.get("kind") != KIND:
        raise PatternError(f"{where}: kind is {card.get('kind')!r}, not {KIND!r}")
    for key in ("board_size", "stages", "patterns"):
        if key not in card:
            raise PatternError(f"{where}: a pattern card needs {key!r}")
    patterns = card["patterns"]
    if not isinstance(patterns, list) or not all(
        isinstance(p, Mapping) and "name" in p and "squares" in p for p in patterns
    ):
        raise PatternError(f"{where}: patterns must be a list of {{name, squares}} objects")
    network = card.get("network")
    hidden = network.get("hidden") if isinstance(network, Mapping) else None
    if hidden is None:
        hidden = list(DEFAULT_HIDDEN)
    if not isinstance(hidden, list) or not all(isinstance(h, int) for h in hidden):
        raise PatternError(f"{where}: network.hidden must be a list of layer sizes, got {hidden!r}")
    global_hidden = global_layout(card.get("global"), where)
    try:
        return PatternConfig(
            card["board_size"],
            card["stages"],
            tuple(Pattern(p["name"], tuple(p["squares"])) for p in patterns),
            tuple(hidden),
            global_hidden,
        )
    except PatternError as e:
        raise PatternError(f"{where}: {e}") from e


def global_layout(section: Any, where: str) -> tuple[int, ...]:
    """The hidden sizes of a card's global network (`()`: none), its features checked as
    the engine checks them: GLOBAL_FEATURES, in that order."""
    if section is None:
        return ()
    if not isinstance(section, Mapping) or list(section.get("features", [])) != list(
        GLOBAL_FEATURES
    ):
        raise PatternError(
            f"{where}: global.features must be {list(GLOBAL_FEATURES)}, got {section!r}"
        )
    hidden = section.get("hidden", list(DEFAULT_GLOBAL_HIDDEN))
    if not isinstance(hidden, list) or not hidden or not all(isinstance(h, int) for h in hidden):
        raise PatternError(f"{where}: global.hidden must be a list of layer sizes, got {hidden!r}")
    return tuple(hidden)


def read_card(path: Path) -> PatternConfig:
    path = Path(path)
    try:
        card = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise PatternError(f"{path}: cannot read the model card ({e})") from e
    return config_from_card(card, str(path))


def export_model(
    net: PatternNet,
    out: Path,
    training: Mapping[str, Any] | None = None,
    variant: str = "standard",
) -> tuple[Path, Path]:
    """Writes `<out>.onnx` and the card `<out>.json`."""
    out = Path(out)
    onnx_path, card_path = out.with_suffix(".onnx"), out.with_suffix(".json")
    net = net.cpu().eval()
    export_onnx(net, onnx_path)
    card = model_card(out.name, net, training, variant)
    card_path.write_text(card_text(card))
    return onnx_path, card_path


def card_text(card: Mapping[str, Any]) -> str:
    """The card as indented JSON with each list of plain values on one line (a pattern's
    squares, a shape), as the contract shows cards."""
    text = json.dumps(card, indent=2)
    flat = re.compile(r"\[\s*([^\[\]{}]*?)\s*\]", re.S)
    return flat.sub(lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text) + "\n"


# ---- checkpoints ----


def save_checkpoint(net: PatternNet, path: Path, extra: Mapping[str, Any] | None = None) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {"kind": KIND, "config": net.config.to_dict(), "state": net.state_dict(), **(extra or {})},
        path,
    )


HALF_KIND = "pattern-half-weights"


def save_half_weights(net: PatternNet, path: Path) -> None:
    """`net`'s weights in one flat half-precision tensor with its layout: 21 KB for the
    run's 16-pattern network where its checkpoint takes 78 KB (a tensor a record), for the
    fits a run keeps in git under the tracked files' 20 MB (docs/training.md). Half
    precision moves a weight by at most 2^-11 of itself, far below what one fit moves it
    from the next."""
    flat = torch.cat([t.detach().flatten() for t in net.state_dict().values()]).half()
    torch.save({"kind": HALF_KIND, "config": net.config.to_dict(), "flat": flat}, Path(path))


def load_half_weights(path: Path) -> PatternNet:
    """The network `save_half_weights` wrote, its weights back in single precision."""
    path = Path(path)
    data = load_record(
        path, HALF_KIND, "readable weights", "a pattern network's half-precision weights"
    )
    net = PatternNet(PatternConfig.from_dict(data["config"]))
    state, flat, at = net.state_dict(), data["flat"], 0
    if flat.numel() != sum(t.numel() for t in state.values()):
        raise PatternError(f"{path}: {flat.numel()} weights where its layout has another count")
    for name, tensor in state.items():
        state[name] = flat[at : at + tensor.numel()].view_as(tensor).float()
        at += tensor.numel()
    net.load_state_dict(state)
    return net


def mean_of_checkpoints(paths: Sequence[Path]) -> PatternNet:
    """One network whose weights are the mean of the checkpoints' (stochastic weight
    averaging, as KataGo and lc0 ship theirs, train/swa.py): at a constant learning rate
    the fits' weights wander around a minimum and their mean sits nearer its middle. A
    pattern network has no batch norm, so the mean needs nothing measured again."""
    if not paths:
        raise PatternError("no checkpoints to average")
    return mean_of_networks([load_checkpoint(p)[0] for p in paths], [str(p) for p in paths])


def mean_of_networks(nets: Sequence[PatternNet], names: Sequence[str]) -> PatternNet:
    """`mean_of_checkpoints` of networks already loaded (`names` for the error): the
    first network, its weights made the mean."""
    first = nets[0]
    for name, net in zip(names[1:], nets[1:], strict=True):
        if net.config != first.config:
            raise PatternError(f"{name}: another layout than {names[0]}; only one layout averages")
    first.load_state_dict(mean_state([n.state_dict() for n in nets]))
    return first


def with_global_network(
    net: PatternNet, hidden: Sequence[int] = DEFAULT_GLOBAL_HIDDEN, seed: int = 0
) -> PatternNet:
    """`net` with a global network added whose last layer is zero: its outputs are
    `net`'s exactly (each sum gains +0.0), while the earlier layers' random weights give
    the fit a gradient to start from (a warm start: a run switches without a fit from
    zero). A network that has one already is returned as it is."""
    if net.global_mlp is not None:
        return net
    torch.manual_seed(seed)
    wider = PatternNet(replace(net.config, global_hidden=tuple(int(h) for h in hidden)))
    missing, unexpected = wider.load_state_dict(net.state_dict(), strict=False)
    if unexpected or not all(k.startswith("global_mlp.") for k in missing):
        raise PatternError(f"cannot add a global network: {missing=}, {unexpected=}")
    assert wider.global_mlp is not None
    last = wider.global_mlp.layers[-1]
    with torch.no_grad():
        last.weight.zero_()
        last.bias.zero_()
    return wider.train(net.training)


def load_record(path: Path, kind: str, readable: str, what: str) -> dict[str, Any]:
    """The dictionary torch saved at `path`, with its `kind` and a layout (`config`), or
    one error that says which of the two it is not: `readable` or `what`."""
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # a missing, truncated or foreign file all mean the same here
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise PatternError(f"{path}: not {readable} ({first})") from e
    if not isinstance(data, dict) or data.get("kind") != kind or "config" not in data:
        raise PatternError(f"{path}: not {what}")
    return data


def load_checkpoint(path: Path) -> tuple[PatternNet, dict[str, Any]]:
    path = Path(path)
    data = load_record(path, KIND, "a readable checkpoint", "a pattern network checkpoint")
    net = PatternNet(PatternConfig.from_dict(data["config"]))
    net.load_state_dict(data["state"])
    return net, data
