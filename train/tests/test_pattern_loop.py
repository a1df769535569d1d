"""The pattern network's loop with stand-ins for `othello`: generations made, fitted on
the window of the newest positions, gated, kept and resumed."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import onnx
import pytest
import torch

from train import pattern_fit, pattern_loop
from train.othello_cli import SelfPlayJob
from train.pattern import (
    PatternConfig,
    PatternError,
    PatternNet,
    check_parity,
    load_checkpoint,
    load_half_weights,
    save_checkpoint,
)
from train.pattern_loop import PatternRun, Tools
from train.shards import RunError
from train.tests.positions import write_batch

POSITIONS = 30  # a stand-in self-play shard's positions


def fake_selfplay(calls: list[SelfPlayJob]):
    def play(jobs: Sequence[SelfPlayJob]) -> None:
        for job in jobs:
            calls.append(job)
            path = write_batch(job.out / "selfplay-0-1.npz", 6, POSITIONS, seed=job.seed)
            sidecar = json.loads(path.with_suffix(".json").read_text())
            path.with_suffix(".json").write_text(json.dumps({**sidecar, "positions": POSITIONS}))

    return play


def tools(calls: list[SelfPlayJob], fits: list[list[str]], verdicts: dict[int, str]) -> Tools:
    def fit(argv: Sequence[str]) -> int:
        fits.append(list(argv))
        return pattern_fit.main([*argv, "--batch", "16", "--threads", "1"])

    return Tools(fake_selfplay(calls), fit, lambda _run, gen: verdicts.get(gen, "none"))


def files_fitted(argv: list[str]) -> list[str]:
    start = argv.index("--data") + 1
    end = argv.index("--init")
    return [Path(f).parent.name for f in argv[start:end]]


def test_generations_fit_the_window_of_newest_positions_and_only_a_passed_gate_plays(
    tmp_path: Path,
) -> None:
    calls: list[SelfPlayJob] = []
    fits: list[list[str]] = []
    given = {
        "board": 6, "games": 4, "window_positions": 2 * POSITIONS, "gate_games": 10,
        "search": "mcts:leaf_depth=2", "search_weight": 0.5, "threads": 2, "fit_threads": 1,
    }  # fmt: skip
    run = PatternRun.open(tmp_path / "run", given)
    # Generation 1 passes its gate, generation 2 does not, generation 3 does.
    verdicts = {1: "H1", 2: "H0", 3: "H1"}
    state = pattern_loop.run_generations(run, 3, tools(calls, fits, verdicts))
    assert state["generation"] == 3 and state["best"] == 3
    assert state["cpu_hours"] > 0
    # Each self-play used the network that played: generation 0, then 1, then 1 again.
    assert [c.seed for c in calls] == [1000, 1001, 1002]
    assert all(c.search == "mcts:leaf_depth=2" for c in calls)
    assert all(c.model == run.root / "best.onnx" for c in calls)
    # The window: the newest two generations' positions at most.
    assert [files_fitted(a) for a in fits] == [
        ["gen-0000"],
        ["gen-0000", "gen-0001"],
        ["gen-0001", "gen-0002"],
    ]
    assert all(a[a.index("--search-weight") + 1] == "0.5" for a in fits)
    # Self-play plays games on both threads; the fit runs PyTorch on one.
    assert all(c.threads == 2 for c in calls)
    assert all(a[a.index("--threads") + 1] == "1" for a in fits)
    rows = run.metrics()
    assert [r["gate"] for r in rows] == ["H1", "H0", "H1"]
    assert [r["model"] for r in rows] == [f"models/gen-000{g}.onnx" for g in (1, 1, 3)]
    assert [int(r["window"]) for r in rows] == [30, 60, 60]
    # best.onnx is generation 3's network; latest.pt its checkpoint.
    best = (run.root / "best.onnx").read_bytes()
    assert best == run.stem(3).with_suffix(".onnx").read_bytes()
    saved = json.loads((run.root / "config.json").read_text())
    assert saved["search_weight"] == 0.5 and "othello" not in saved


def test_the_openings_reach_self_play_and_xot_is_for_8x8_only(tmp_path: Path) -> None:
    run = PatternRun.open(tmp_path / "run", {"board": 8, "games": 4, "openings": "xot"})
    calls: list[SelfPlayJob] = []
    pattern_loop.self_play(run, 0, fake_selfplay(calls))
    assert [c.openings for c in calls] == ["xot"]
    assert json.loads((run.root / "config.json").read_text())["openings"] == "xot"
    with pytest.raises(RunError, match="XOT list is for 8x8 only"):
        PatternRun.open(tmp_path / "six", {"board": 6, "openings": "xot"})


def test_a_run_whose_network_changed_averages_the_new_layout_alone(tmp_path: Path) -> None:
    """Another network put at latest.pt (a wider one here; on 8x8 another pattern set) is
    fitted on, its generations the mean of its own fits only, and it plays once its gate
    passes."""
    calls: list[SelfPlayJob] = []
    fits: list[list[str]] = []
    run = PatternRun.open(tmp_path / "run", {"board": 6, "games": 4, "average_last": 3})
    pattern_loop.run_generations(run, 2, tools(calls, fits, {}))
    wider = PatternNet(PatternConfig.default(6, hidden=(8, 4)))
    save_checkpoint(wider, run.root / "latest.pt")
    pattern_loop.run_generations(run, 2, tools(calls, fits, {4: "H1"}))
    cards = [json.loads(run.stem(g).with_suffix(".json").read_text()) for g in (3, 4)]
    assert [c["training"]["averaged_generations"] for c in cards] == [[3, 3], [3, 4]]
    assert [c["network"]["hidden"] for c in cards] == [[8, 4], [8, 4]]
    fitted = [load_checkpoint(run.stem(g).with_suffix(".pt"))[0] for g in (3, 4)]
    assert all(n.config.hidden == (8, 4) for n in fitted)
    # Generation 4 passed its gate and plays now.
    assert (run.root / "best.onnx").read_bytes() == run.stem(4).with_suffix(".onnx").read_bytes()


def test_a_run_resumes_with_its_saved_settings_and_refuses_a_new_board(tmp_path: Path) -> None:
    calls: list[SelfPlayJob] = []
    fits: list[list[str]] = []
    root = tmp_path / "run"
    run = PatternRun.open(root, {"board": 6, "games": 4, "epochs": 1})
    pattern_loop.run_generations(run, 1, tools(calls, fits, {}))
    hours = run.state()["cpu_hours"]
    again = PatternRun.open(root, {"board": None, "games": None, "epochs": 2})
    assert again.config["games"] == 4 and again.config["epochs"] == 2
    state = pattern_loop.run_generations(again, 1, tools(calls, fits, {}))
    assert state["generation"] == 2 and state["cpu_hours"] >= hours
    assert [c.seed for c in calls] == [1000, 1001]
    with pytest.raises(RunError, match="created with board=6"):
        PatternRun.open(root, {"board": 8})
    with pytest.raises(RunError, match="search-weight must lie in"):
        PatternRun.open(tmp_path / "other", {"board": 6, "search_weight": 2.0})


def test_the_window_stops_where_older_data_is_gone(tmp_path: Path) -> None:
    run = PatternRun.open(tmp_path / "run", {"board": 6, "window_positions": 1000})
    # Generations 0-1 from before the shards (one file each), 3-4 in shard folders; the
    # data of generation 2 is gone (another machine), so the window starts after it.
    for gen in (0, 1):
        write_batch(run.data(gen).with_suffix(".npz"), 6, 10, seed=gen)
    for gen in (3, 4):
        write_batch(run.data(gen) / "selfplay-0-1.npz", 6, 10, seed=gen)
    files, _ = pattern_loop.window(run, 4)
    assert [f.parent.name for f in files] == ["gen-0003", "gen-0004"]
    files, _ = pattern_loop.window(run, 1)
    assert [f.name for f in files] == ["gen-0000.npz", "gen-0001.npz"]
    assert np.load(files[0])["planes"].shape[0] == 10


def test_a_generation_s_network_is_the_mean_of_the_last_fits_weights(tmp_path: Path) -> None:
    calls: list[SelfPlayJob] = []
    fits: list[list[str]] = []
    run = PatternRun.open(tmp_path / "run", {"board": 6, "games": 4, "average_last": 2})
    pattern_loop.run_generations(run, 3, tools(calls, fits, {}))
    fitted = [load_checkpoint(run.stem(g).with_suffix(".pt"))[0] for g in (2, 3)]
    states = [n.state_dict() for n in fitted]
    mean = PatternNet(fitted[0].config)
    mean.load_state_dict({k: (states[0][k] + states[1][k]) / 2 for k in states[0]})
    exported = onnx.load(str(run.stem(3).with_suffix(".onnx")))
    check_parity(mean, exported, "the mean of generations 2 and 3")
    with pytest.raises(PatternError, match="differs from PyTorch"):
        check_parity(fitted[1], exported, "generation 3's own fit")
    card = json.loads(run.stem(3).with_suffix(".json").read_text())
    assert card["training"]["averaged_generations"] == [2, 3]
    assert card["training"]["generation"] == 3
    # The next fit continues from the fit's own weights; self-play plays the mean.
    assert (run.root / "latest.pt").read_bytes() == run.stem(3).with_suffix(".pt").read_bytes()
    assert (run.root / "best.onnx").read_bytes() == run.stem(3).with_suffix(".onnx").read_bytes()
    first = json.loads(run.stem(1).with_suffix(".json").read_text())
    assert first["training"]["averaged_generations"] == [0, 1]


def test_a_run_on_a_new_machine_averages_the_fits_git_kept(tmp_path: Path) -> None:
    """models/ and data/ are not in git: a run resumed on another machine reads the fits
    its next means need from fits/, which keeps only those."""
    calls: list[SelfPlayJob] = []
    fits: list[list[str]] = []
    run = PatternRun.open(tmp_path / "run", {"board": 6, "games": 4, "average_last": 3})
    pattern_loop.run_generations(run, 4, tools(calls, fits, {}))
    # Generation 4's mean read fits 2-4, the next will read 3-5.
    assert sorted(p.name for p in (run.root / "fits").iterdir()) == [
        "gen-0002.pt",
        "gen-0003.pt",
        "gen-0004.pt",
    ]
    kept = {g: run.kept_fit(g).read_bytes() for g in (3, 4)}
    # Kept in half precision: the fit's weights within half precision's rounding.
    own = load_checkpoint(run.stem(4).with_suffix(".pt"))[0].state_dict()
    half = load_half_weights(run.kept_fit(4)).state_dict()
    for name, weights in own.items():
        assert torch.allclose(half[name], weights, rtol=2**-10, atol=1e-7), name
    # The new machine: only what git keeps.
    for folder in ("models", "data"):
        shutil.rmtree(run.root / folder)
    again = PatternRun.open(run.root, {})
    pattern_loop.run_generations(again, 1, tools(calls, fits, {}))
    card = json.loads(again.stem(5).with_suffix(".json").read_text())
    assert card["training"]["averaged_generations"] == [3, 5]
    states = [load_half_weights(again.kept_fit(g)).state_dict() for g in (3, 4)]
    assert [again.kept_fit(g).read_bytes() for g in (3, 4)] == [kept[3], kept[4]]
    fifth = load_checkpoint(again.stem(5).with_suffix(".pt"))[0]
    states.append(fifth.state_dict())
    mean = PatternNet(fifth.config)
    mean.load_state_dict({k: sum(s[k] for s in states) / 3 for k in states[0]})
    check_parity(mean, onnx.load(str(again.stem(5).with_suffix(".onnx"))), "the mean of 3-5")
    assert sorted(p.name for p in (run.root / "fits").iterdir()) == [
        "gen-0003.pt",
        "gen-0004.pt",
        "gen-0005.pt",
    ]
