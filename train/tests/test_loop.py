import csv
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from train import contract, loop, othello_cli, shards
from train.loop import GateJob, Run, RunError, SelfPlayJob
from train.tests.engine import real_othello
from train.tests.fake_othello import install as install_fake_othello
from train.tests.positions import write_batch
from train.train import Trainer

TINY = {
    "board": 6, "blocks": 1, "channels": 4, "generations": 3, "games": 2, "sims": 4,
    "steps": 3, "batch_size": 8, "window": 2,
}  # fmt: skip


class FakeSelfPlay:
    """Stands in for `othello selfplay`: writes random-but-valid batches, and can be told
    to die at a given generation, part way through its output."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.jobs: list[SelfPlayJob] = []
        self.fail_at = fail_at

    def __call__(self, jobs: list[SelfPlayJob]) -> None:
        for job in jobs:
            self.jobs.append(job)
            gen = int(job.out.name.split("-")[1])
            prefix = "vs-" if job.opponent else ""
            write_batch(job.out / f"{prefix}batch-0.npz", job.board, 10, seed=job.seed)
            if gen == self.fail_at:
                raise KeyboardInterrupt  # killed after the first file
            write_batch(job.out / f"{prefix}batch-1.npz", job.board, 6, seed=job.seed + 1)


def fake_othello(calls: list[list[str]], arena: dict[str, Any] | None = None) -> Any:
    """A stand-in for subprocess.run of the binary: records the command and writes what
    `othello selfplay` (a batch named by --name) or `othello arena` (`arena` as
    arena.json) would."""

    def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(cmd)
        out = Path(cmd[cmd.index("--out") + 1])
        if cmd[1] == "selfplay":
            write_batch(out / f"{cmd[cmd.index('--name') + 1]}.npz", int(cmd[3]), 4, seed=1)
        else:
            (out / "arena.json").write_text(json.dumps(arena))
        return subprocess.CompletedProcess(cmd, 0)

    return run


def arena_report(players: list[str], anchor: str, results: list[tuple[int, int, int]]) -> Any:
    """An arena.json with games (black, white, black_margin)."""
    games = [{"black": b, "white": w, "black_margin": m} for b, w, m in results]
    return {"players": players, "anchor": anchor, "games": games}


def rows(run_dir: Path) -> list[dict[str, str]]:
    with open(run_dir / "metrics.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_a_run_writes_its_directory(tmp_path: Path) -> None:
    run = Run.open(tmp_path / "r", TINY)
    selfplay = FakeSelfPlay()
    run.run(selfplay)
    root = tmp_path / "r"
    assert json.loads((root / "config.json").read_text())["board"] == 6
    for gen in range(3):
        assert (root / "data" / f"gen-{gen:04d}" / "DONE").exists()
        assert (root / "checkpoints" / f"gen-{gen:04d}.pt").exists()
        assert (root / "models" / f"gen-{gen:04d}.onnx").exists()
        assert (root / "models" / f"gen-{gen:04d}.json").exists()
    assert (root / "checkpoints" / "latest.pt").exists()
    assert (root / "plots" / "loss.png").stat().st_size > 1000
    metrics = rows(root)
    assert [r["generation"] for r in metrics] == ["0", "1", "2"]
    assert [r["step"] for r in metrics] == ["3", "6", "9"]
    assert [r["positions"] for r in metrics] == ["16", "32", "32"]  # window of 2
    assert all(float(r["loss"]) > 0 for r in metrics)
    # the first generation plays without a network, later ones with the newest model
    assert selfplay.jobs[0].model is None
    assert selfplay.jobs[2].model == root / "models" / "gen-0001.onnx"
    assert len({j.seed for j in selfplay.jobs}) == 3
    assert json.loads((root / "state.json").read_text())["generation"] == 3


def test_a_killed_run_resumes_without_losing_or_redoing_work(tmp_path: Path) -> None:
    root = tmp_path / "r"
    with pytest.raises(KeyboardInterrupt):
        Run.open(root, TINY).run(FakeSelfPlay(fail_at=1))
    assert [r["generation"] for r in rows(root)] == ["0"]
    trained_at = (root / "checkpoints" / "gen-0000.pt").stat().st_mtime_ns

    selfplay = FakeSelfPlay()
    Run.open(root, {}).run(selfplay)  # nothing given: the saved config is used
    assert [j.out.name for j in selfplay.jobs] == ["gen-0001", "gen-0002"]
    assert [r["generation"] for r in rows(root)] == ["0", "1", "2"]
    assert [r["step"] for r in rows(root)] == ["3", "6", "9"]
    # the half-written generation was replayed whole, not mixed with its first attempt
    assert sorted(p.name for p in (root / "data" / "gen-0001").glob("*.npz")) == [
        "batch-0.npz",
        "batch-1.npz",
    ]
    assert (root / "checkpoints" / "gen-0000.pt").stat().st_mtime_ns == trained_at


def test_an_interrupted_run_matches_an_uninterrupted_one(tmp_path: Path) -> None:
    Run.open(tmp_path / "a", TINY).run(FakeSelfPlay())
    with pytest.raises(KeyboardInterrupt):
        Run.open(tmp_path / "b", TINY).run(FakeSelfPlay(fail_at=2))
    Run.open(tmp_path / "b", {}).run(FakeSelfPlay())
    a = Trainer.load(tmp_path / "a" / "checkpoints" / "latest.pt")
    b = Trainer.load(tmp_path / "b" / "checkpoints" / "latest.pt")
    assert a.step == b.step == 9
    sa, sb = a.net.state_dict(), b.net.state_dict()
    assert all((sa[k] == sb[k]).all() for k in sa)


def test_more_generations_can_be_asked_of_a_finished_run(tmp_path: Path) -> None:
    Run.open(tmp_path / "r", TINY).run(FakeSelfPlay())
    selfplay = FakeSelfPlay()
    Run.open(tmp_path / "r", {"generations": 4}).run(selfplay)
    assert [j.out.name for j in selfplay.jobs] == ["gen-0003"]
    assert len(rows(tmp_path / "r")) == 4


def test_a_resume_with_another_board_size_is_refused(tmp_path: Path) -> None:
    Run.open(tmp_path / "r", TINY)
    with pytest.raises(RunError, match="created with board=6, not 8"):
        Run.open(tmp_path / "r", {"board": 8})


def test_a_losing_candidate_does_not_replace_the_best(tmp_path: Path) -> None:
    scores = iter([0.3, 0.7])
    gates: list[GateJob] = []

    def gate(job: GateJob) -> float:
        gates.append(job)
        return next(scores)

    Run.open(tmp_path / "r", {**TINY, "gate_games": 4}).run(FakeSelfPlay(), gate)
    root = tmp_path / "r"
    # gen 0 has nothing to meet; gen 1 loses to gen 0; gen 2 beats gen 0
    assert [(j.candidate.name, j.best.name) for j in gates] == [
        ("gen-0001.onnx", "gen-0000.onnx"),
        ("gen-0002.onnx", "gen-0000.onnx"),
    ]
    assert [r["promoted"] for r in rows(root)] == ["1", "0", "1"]
    assert [r["gate_score"] for r in rows(root)] == ["", "0.3", "0.7"]
    assert json.loads((root / "state.json").read_text())["best"] == "models/gen-0002.onnx"


def test_selfplay_calls_the_othello_binary_shard_by_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    monkeypatch.setattr(shards.subprocess, "run", fake_othello(calls))
    binary = tmp_path / "othello"
    binary.write_text("")
    job = SelfPlayJob(6, None, 10, 50, tmp_path / "out", seed=7, threads=2)
    loop.othello_selfplay(str(binary), shard_games=6)([job])
    # The job owns seeds 7000000..7000009: a shard of 6 games and one of 4, each named by
    # its seed range and played into a temporary folder, then moved into `out`.
    assert [c[:11] + c[12:] for c in calls] == [
        [
            str(binary), "selfplay", "--board", "6", "--model", "none", "--games", "6",
            "--sims", "50", "--out", "--name", "selfplay-7000000-7000005",
            "--seed", "7000000", "--threads", "2",
        ],
        [
            str(binary), "selfplay", "--board", "6", "--model", "none", "--games", "4",
            "--sims", "50", "--out", "--name", "selfplay-7000006-7000009",
            "--seed", "7000006", "--threads", "2",
        ],
    ]  # fmt: skip
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "selfplay-7000000-7000005.json",
        "selfplay-7000000-7000005.npz",
        "selfplay-7000006-7000009.json",
        "selfplay-7000006-7000009.npz",
    ]
    # Played again, the complete shards are kept and nothing runs.
    loop.othello_selfplay(str(binary), shard_games=6)([job])
    assert len(calls) == 2


def test_a_missing_othello_binary_is_reported(tmp_path: Path) -> None:
    job = SelfPlayJob(6, None, 1, 1, tmp_path, seed=1, threads=1)
    with pytest.raises(RunError, match="othello binary not found"):
        loop.othello_selfplay(str(tmp_path / "no-such-othello"))([job])


def test_the_cli_reports_errors_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--run", str(tmp_path / "r"), "--board", "6", "--blocks", "1", "--channels", "4"]
    code = loop.main([*args, "--othello", str(tmp_path / "missing"), "--generations", "1"])
    assert code == 1
    assert "othello binary not found" in capsys.readouterr().err


FAKE_OTHELLO = """#!{python}
# A stand-in for the Rust binary: `othello selfplay` per the interface, and a
# `model check` that passes.
import argparse, sys
sys.path.insert(0, {root!r})
from pathlib import Path
from train.tests.engine import real_othello
from train.tests.positions import write_batch
if sys.argv[1:3] == ["model", "check"]:
    sys.exit({parity_exit})
p = argparse.ArgumentParser()
p.add_argument("command")
for flag in ("--board", "--games", "--sims", "--seed", "--threads"):
    p.add_argument(flag, type=int)
p.add_argument("--model")
p.add_argument("--out", type=Path)
p.add_argument("--name")
a = p.parse_args()
assert a.command == "selfplay"
write_batch(a.out / "{{}}.npz".format(a.name), a.board, 4 * a.games, a.seed)
"""


def test_the_cli_runs_generations_through_the_othello_binary(tmp_path: Path) -> None:
    binary = tmp_path / "othello"
    root = Path(__file__).resolve().parents[2]
    binary.write_text(FAKE_OTHELLO.format(python=sys.executable, root=str(root), parity_exit=0))
    binary.chmod(0o755)
    run_dir = tmp_path / "r"
    args = ["--run", str(run_dir), "--othello", str(binary), "--generations", "2"]
    tiny = ["--board", "6", "--blocks", "1", "--channels", "4", "--steps", "2", "--games", "3"]
    assert loop.main([*args, *tiny]) == 0
    assert [r["positions"] for r in rows(run_dir)] == ["12", "24"]
    card = json.loads((run_dir / "models" / "gen-0001.json").read_text())
    assert card["training"] == {"run": "r", "generation": 1}


def test_the_gate_scores_the_candidate_over_the_games_of_every_shard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    # Each shard: the candidate (0) wins and loses a game as Black, draws one and wins one
    # as White.
    report = arena_report(["new", "old"], "new", [(0, 1, 4), (1, 0, 0), (0, 1, -2), (1, 0, -6)])
    monkeypatch.setattr(shards.subprocess, "run", fake_othello(calls, report))
    binary = tmp_path / "othello"
    binary.write_text("")
    gate = loop.othello_gate(str(binary), loop.DEFAULTS["gate_player"], shard_games=4)
    out = tmp_path / "gate"
    job = GateJob(8, Path("new.onnx"), Path("old.onnx"), 8, 100, out, seed=3, threads=2)
    assert gate(job) == 0.625
    assert [c[1:5] for c in calls] == [["arena", "--board", "8", "--players"]] * 2
    assert calls[0][5] == "mcts:model=new.onnx,sims=100,mcts:model=old.onnx,sims=100"
    assert [c[c.index("--seed") + 1] for c in calls] == ["3000000", "3000004"]
    assert sorted(p.name for p in out.iterdir()) == [
        "arena-3000000-3000003",
        "arena-3000004-3000007",
    ]


def test_the_evaluation_rates_the_network_and_the_run_records_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    players = ["net", "random", "greedy"]
    # The network beats random three times out of four and greedy half the time.
    results = [(0, 1, 10), (1, 0, -4), (0, 1, 2), (1, 0, 6), (0, 2, 3), (2, 0, 5), (1, 2, -8)]
    report = arena_report(players, "random", results)
    monkeypatch.setattr(shards.subprocess, "run", fake_othello(calls, report))
    # The shards are played by the subprocess.run above; the fit is asked of this
    # binary's `elo` (the real one's, or fake_othello's placeholder without it).
    binary, _ = install_fake_othello(tmp_path)
    evaluate = loop.othello_evaluate(str(binary), loop.DEFAULTS["gate_player"])
    run = Run.open(tmp_path / "r", {**TINY, "generations": 2, "eval_games": 4})
    run.run(FakeSelfPlay(), evaluate=evaluate)
    assert len(calls) == 2
    players_arg = calls[0][calls[0].index("--players") + 1]
    model = tmp_path / "r" / "models" / "gen-0000.onnx"
    assert players_arg == f"mcts:model={model},sims=4,random,greedy,heuristic,alphabeta:depth=2"
    points = [(b, w, 1.0 if m > 0 else 0.5 if m == 0 else 0.0) for b, w, m in results]
    elo, low, high = othello_cli.fit_elo(str(binary), 3, points, anchor=1)[0]
    assert low < elo < high and elo > 0
    metrics = rows(tmp_path / "r")
    assert [float(r["elo"]) for r in metrics] == [round(elo, 1)] * 2
    assert [float(r["elo_low"]) for r in metrics] == [round(low, 1)] * 2
    assert (tmp_path / "r" / "plots" / "elo.png").stat().st_size > 1000


def test_a_model_that_fails_the_engines_parity_check_is_not_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "othello"
    root = Path(__file__).resolve().parents[2]
    binary.write_text(FAKE_OTHELLO.format(python=sys.executable, root=str(root), parity_exit=1))
    binary.chmod(0o755)
    run_dir = tmp_path / "r"
    args = ["--run", str(run_dir), "--othello", str(binary), "--generations", "1"]
    tiny = ["--board", "6", "--blocks", "1", "--channels", "4", "--steps", "2", "--games", "3"]
    assert loop.main([*args, *tiny]) == 1
    assert "model check" in capsys.readouterr().err
    assert not list((run_dir / "models").glob("gen-0000.*"))
    assert Run.open(run_dir, {}).state()["generation"] == 0


@pytest.mark.skipif(real_othello() is None, reason="needs the othello binary: cargo build -p cli")
def test_two_generations_run_end_to_end_through_the_real_engine(tmp_path: Path) -> None:
    """Self-play, training, export, Rust parity check, gating and evaluation, for real."""
    run_dir = tmp_path / "r"
    args = [
        "--run", str(run_dir), "--othello", str(real_othello()), "--generations", "2",
        "--board", "6", "--blocks", "1", "--channels", "8", "--steps", "4", "--games", "4",
        "--sims", "8", "--threads", "2", "--gate-games", "2", "--gate-threshold", "0",
        "--eval-games", "2", "--eval-players", "random,greedy",
    ]  # fmt: skip
    assert loop.main(args) == 0
    metrics = rows(run_dir)
    assert [r["generation"] for r in metrics] == ["0", "1"]
    assert metrics[0]["gate_score"] == ""  # nothing to gate against yet
    assert 0 <= float(metrics[1]["gate_score"]) <= 1
    assert [r["promoted"] for r in metrics] == ["1", "1"]
    assert all(r["elo"] != "" for r in metrics)
    state = json.loads((run_dir / "state.json").read_text())
    assert state["best"] == "models/gen-0001.onnx"
    [arena_json] = (run_dir / "gating" / "gen-0001").glob("arena-*/arena.json")
    assert len(json.loads(arena_json.read_text())["games"]) == 2
    assert (run_dir / "plots" / "elo.png").exists()
    # Self-play of generation 1 used the network of generation 0.
    sidecars = list((run_dir / "data" / "gen-0001").glob("*.json"))
    assert sidecars and "gen-0000" in sidecars[0].read_text()


@pytest.mark.skipif(real_othello() is None, reason="needs the othello binary: cargo build -p cli")
def test_a_run_on_v2_planes_with_global_pooling_goes_end_to_end_through_the_real_engine(
    tmp_path: Path,
) -> None:
    """Generation 0's playout games store v1 planes, generation 1's network takes v2: the
    trainer encodes both from their base planes, the export passes the engine's parity
    check, and the network's own games store its planes, named in their sidecars."""
    run_dir = tmp_path / "r"
    args = [
        "--run", str(run_dir), "--othello", str(real_othello()), "--generations", "2",
        "--board", "6", "--blocks", "2", "--channels", "8", "--inputs", "v2",
        "--global-pool", "4", "--steps", "3", "--games", "2", "--sims", "8",
    ]  # fmt: skip
    assert loop.main(args) == 0
    v2 = list(contract.INPUT_SETS["v2"])
    for gen, names in ((0, list(contract.PLANE_ORDER)), (1, v2)):
        [sidecar] = (run_dir / "data" / f"gen-{gen:04d}").glob("*.json")
        assert json.loads(sidecar.read_text())["plane_names"] == names
    card = json.loads((run_dir / "models" / "gen-0001.json").read_text())
    assert card["plane_names"] == v2 and card["network"]["global_pool"] == 4
    assert Run.open(run_dir, {}).net_config().planes == 10
    with pytest.raises(RunError, match="created with inputs=v2, not v1"):
        Run.open(run_dir, {"inputs": "v1"})


def test_playout_caps_reach_the_othello_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    monkeypatch.setattr(shards.subprocess, "run", fake_othello(calls))
    binary = tmp_path / "othello"
    binary.write_text("")
    job = SelfPlayJob(8, None, 4, 400, tmp_path, seed=1, threads=1, fast_sims=80, full_share=0.3)
    loop.othello_selfplay(str(binary))([job])
    assert calls[0][-4:] == ["--fast-sims", "80", "--full-share", "0.3"]


def test_a_run_made_before_a_setting_existed_resumes_with_its_default(tmp_path: Path) -> None:
    run_dir = tmp_path / "old"
    Run.open(run_dir, {"board": 6})
    config = json.loads((run_dir / "config.json").read_text())
    del config["fast_sims"]
    (run_dir / "config.json").write_text(json.dumps(config))
    assert Run.open(run_dir, {}).config["fast_sims"] == 0


def test_milestones_are_kept_and_played_against(tmp_path: Path) -> None:
    selfplay = FakeSelfPlay()
    config = {**TINY, "generations": 4, "games": 10, "milestone_every": 2, "opponent_share": 0.3}
    Run.open(tmp_path / "r", config).run(selfplay)
    root = tmp_path / "r"
    state = json.loads((root / "state.json").read_text())
    assert state["milestones"] == ["models/gen-0000.onnx", "models/gen-0002.onnx"]
    by_gen = [[j for j in selfplay.jobs if j.out.name == f"gen-{g:04d}"] for g in range(4)]
    # No milestone before generation 0 is trained: generation 0 plays itself only.
    assert [(j.games, j.opponent) for j in by_gen[0]] == [(10, None)]
    for gen in (1, 2, 3):
        main, against = by_gen[gen]
        assert (main.games, against.games) == (7, 3)
        assert main.model == against.model == root / f"models/gen-{gen - 1:04d}.onnx"
        assert against.opponent is not None
        assert against.opponent.relative_to(root).as_posix() in state["milestones"]
        assert against.seed != main.seed


def test_a_warm_start_plays_and_trains_on_from_another_run_s_checkpoint(tmp_path: Path) -> None:
    Run.open(tmp_path / "a", {**TINY, "generations": 1}).run(FakeSelfPlay())
    source = tmp_path / "a" / "checkpoints" / "gen-0000.pt"
    selfplay = FakeSelfPlay()
    Run.open(tmp_path / "b", {**TINY, "generations": 1, "init": str(source)}).run(selfplay)
    root = tmp_path / "b"
    assert selfplay.jobs[0].model == root / "models" / "init.onnx"
    assert (root / "models" / "init.json").exists()
    # Training went on from the source's weights and step count.
    assert Trainer.load(root / "checkpoints" / "gen-0000.pt").step == 2 * TINY["steps"]
    with pytest.raises(RunError, match="this run trains"):
        Run.open(tmp_path / "c", {**TINY, "channels": 16, "init": str(source)}).run(FakeSelfPlay())


def test_a_missing_init_checkpoint_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--run", str(tmp_path / "r"), "--board", "6", "--init", str(tmp_path / "none.pt")]
    assert loop.main(args) == 1
    assert "no such checkpoint" in capsys.readouterr().err


def test_a_run_resumes_on_a_fresh_machine_from_what_is_committed(tmp_path: Path) -> None:
    root = tmp_path / "r"
    Run.open(root, TINY).run(FakeSelfPlay())
    best = json.loads((root / "state.json").read_text())["best"]
    assert (root / "best.onnx").read_bytes() == (root / best).read_bytes()
    assert (root / "best.json").exists()
    trained = Trainer.load(root / "checkpoints" / "latest.pt")
    # What a clone has: config, state, metrics, best.onnx and checkpoints/latest.pt.
    for sub in ("data", "models"):
        shutil.rmtree(root / sub)
    for old in (root / "checkpoints").glob("gen-*"):
        old.unlink()
    selfplay = FakeSelfPlay()
    Run.open(root, {"generations": 4}).run(selfplay)
    assert selfplay.jobs[0].model == root / "best.onnx"
    resumed = Trainer.load(root / "checkpoints" / "latest.pt")
    # Generation 3 finds one of its window's two generations: half the steps, rounded up.
    assert resumed.step == trained.step + math.ceil(TINY["steps"] / 2)
    assert "1 of the window's 2 generations are on this machine" in (root / "log.txt").read_text()
    assert [r["generation"] for r in rows(root)] == ["0", "1", "2", "3"]


def test_a_teacher_plays_the_first_generations_and_cpu_hours_add_up(tmp_path: Path) -> None:
    Run.open(tmp_path / "a", {**TINY, "generations": 1}).run(FakeSelfPlay())
    teacher = tmp_path / "a" / "models" / "gen-0000.onnx"
    selfplay = FakeSelfPlay()
    config = {**TINY, "generations": 3, "teacher": str(teacher), "teacher_generations": 2}
    Run.open(tmp_path / "b", config).run(selfplay)
    root = tmp_path / "b"
    assert [j.model for j in selfplay.jobs] == [teacher, teacher, root / "models/gen-0001.onnx"]
    metrics = rows(root)
    hours = [float(r["cpu_hours"]) for r in metrics]
    # Each generation's CPU time is recorded to the millisecond (a generation here costs
    # tens of them: training, export, a plot), and the run's CPU-hours are their sum, kept
    # to 9 decimals at each generation: three roundings can drift by up to 1.5e-9.
    assert all(float(r["cpu_seconds"]) > 0 for r in metrics)
    seconds = [float(r["cpu_seconds"]) for r in metrics]
    assert hours == pytest.approx([sum(seconds[: g + 1]) / 3600 for g in range(3)], abs=2e-9)
    state = json.loads((root / "state.json").read_text())
    assert state["cpu_hours"] == pytest.approx(hours[-1], abs=1e-9)
    assert state["best_generation"] == 2
    with pytest.raises(RunError, match="needs a --teacher"):
        Run.open(tmp_path / "c", {**TINY, "teacher_generations": 2})


def test_evaluation_runs_every_n_th_generation_and_at_the_end(tmp_path: Path) -> None:
    seen: list[int] = []

    def evaluate(job: loop.EvalJob) -> tuple[float, float, float]:
        seen.append(int(job.out.name.split("-")[1]))
        return 100.0, 50.0, 150.0

    config = {**TINY, "generations": 5, "eval_games": 2, "eval_every": 3}
    Run.open(tmp_path / "r", config).run(FakeSelfPlay(), evaluate=evaluate)
    assert seen == [0, 3, 4]
    assert [r["elo"] != "" for r in rows(tmp_path / "r")] == [True, False, False, True, True]
    assert (tmp_path / "r" / "plots" / "elo-cpu.png").stat().st_size > 1000


def test_without_random_the_evaluation_is_the_score_against_the_first_opponent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 30 wins and 10 losses against the reference, in two shards of 20 games.
    results = [(0, 1, 2)] * 8 + [(1, 0, -2)] * 7 + [(0, 1, -2)] * 2 + [(1, 0, 2)] * 3
    report = arena_report(["net", "mcts:model=ref"], "net", results)
    calls: list[list[str]] = []
    monkeypatch.setattr(shards.subprocess, "run", fake_othello(calls, report))
    binary = tmp_path / "othello"
    binary.write_text("")
    evaluate = loop.othello_evaluate(str(binary), loop.DEFAULTS["gate_player"], shard_games=20)
    job = loop.EvalJob(8, Path("net.onnx"), "mcts:model=ref", 40, 100, tmp_path, 1, 1)
    elo, low, high = evaluate(job)
    assert len(calls) == 2
    # 30.5 of 41 with the virtual draw: +185 Elo, the interval well above even.
    assert 180 < elo < 190
    assert 60 < low < elo < high < 350
    assert othello_cli.elo_from_score(0, 4, 0)[0] == 0.0


def test_the_variant_search_and_exact_labels_reach_the_othello_binary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    monkeypatch.setattr(shards.subprocess, "run", fake_othello(calls))
    binary = tmp_path / "othello"
    binary.write_text("")
    job = SelfPlayJob(
        6, None, 4, 32, tmp_path, seed=1, threads=1, variant="reversed",
        search="mcts:gumbel=8", exact_empties=14, label_empties=20, explored_share=0.2,
        random_moves=0.1, random_moves_above=24, openings="xot",
    )  # fmt: skip
    loop.othello_selfplay(str(binary))([job])
    assert calls[0][-16:] == [
        "--variant", "reversed", "--player", "mcts:gumbel=8", "--exact-empties", "14",
        "--label-empties", "20", "--explored-share", "0.2", "--random-moves", "0.1",
        "--random-moves-above", "24", "--openings", "xot",
    ]  # fmt: skip


@pytest.mark.parametrize("key", ["explored_share", "random_moves"])
def test_a_share_outside_0_to_1_is_refused(tmp_path: Path, key: str) -> None:
    flag = "--" + key.replace("_", "-")
    for share in (0.0, 1.5):
        with pytest.raises(RunError, match=flag):
            Run.open(tmp_path / "r", {**TINY, key: share})


def test_a_random_move_floor_needs_random_moves_and_no_negative_count(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="--random-moves-above needs --random-moves"):
        Run.open(tmp_path / "r", {**TINY, "random_moves_above": 24})
    with pytest.raises(RunError, match="--random-moves-above must be at least 0"):
        Run.open(tmp_path / "r", {**TINY, "random_moves": 0.5, "random_moves_above": -1})
    Run.open(tmp_path / "ok", {**TINY, "random_moves": 0.5, "random_moves_above": 24})


def test_label_empties_where_the_solver_already_plays_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="--label-empties"):
        Run.open(tmp_path / "r", {**TINY, "exact_empties": 18, "label_empties": 18})
    Run.open(tmp_path / "ok", {**TINY, "exact_empties": 18, "label_empties": 22})


def test_a_run_grows_heads_mid_way_and_cards_name_its_variant(tmp_path: Path) -> None:
    root = tmp_path / "r"
    Run.open(root, {**TINY, "generations": 1, "variant": "reversed"}).run(FakeSelfPlay())
    config = {"generations": 2, "ownership_head": True, "ownership_weight": 1.0}
    Run.open(root, config).run(FakeSelfPlay())
    grown = Trainer.load(root / "checkpoints" / "latest.pt")
    assert grown.net_config.ownership_head and grown.step == 2 * TINY["steps"]
    card = json.loads((root / "models" / "gen-0001.json").read_text())
    assert card["variant"] == "reversed"
    with pytest.raises(RunError, match="created with variant=reversed"):
        Run.open(root, {"variant": "standard"})


def test_a_run_stops_once_it_has_spent_its_cpu_hours(tmp_path: Path) -> None:
    root = tmp_path / "r"
    Run.open(root, {**TINY, "generations": 2}).run(FakeSelfPlay())
    spent = json.loads((root / "state.json").read_text())["cpu_hours"]
    selfplay = FakeSelfPlay()
    Run.open(root, {"generations": 10, "max_cpu_hours": spent / 2}).run(selfplay)
    assert selfplay.jobs == []
    assert "CPU-hours spent" in (root / "log.txt").read_text()
