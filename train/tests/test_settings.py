"""The loop's settings table: its defaults, its flags and its checks, and the run
directories made before it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from train import contract, loop, settings
from train.loop import Run, RunError
from train.tests.test_loop import FakeSelfPlay
from train.train import Trainer

ROOT = Path(__file__).resolve().parents[2]


def test_every_setting_has_one_default_and_one_flag() -> None:
    assert list(settings.DEFAULTS) == [s.name for s in settings.SETTINGS]
    assert loop.DEFAULTS is settings.DEFAULTS
    args = loop.parse_args(["--run", "r"])
    # Left out, every flag is None: the run keeps its saved value.
    assert {k: v for k, v in vars(args).items() if k not in loop.HOW} == dict.fromkeys(
        settings.DEFAULTS
    )
    assert settings.FIXED_KEYS == (
        "board", "variant", "blocks", "channels", "inputs", "global_pool",
    )  # fmt: skip


def test_flags_parse_to_their_settings_types() -> None:
    args = loop.parse_args(
        ["--run", "r", "--board", "6", "--lr", "0.5", "--score-head", "--search", "mcts:gumbel=8"]
    )
    assert (args.board, args.lr, args.score_head, args.search) == (6, 0.5, True, "mcts:gumbel=8")
    with pytest.raises(SystemExit):
        loop.parse_args(["--run", "r", "--board", "7"])


def test_a_new_setting_is_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = settings.Setting("komi", 2, int, "a test setting", check=settings.at_least(0))
    table = (*settings.SETTINGS, extra)
    monkeypatch.setattr(settings, "SETTINGS", table)
    args = loop.parse_args(["--run", "r", "--komi", "3"])
    assert args.komi == 3
    assert extra.problem(-1) == "--komi must be at least 0"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"games": "many"}, "--games must be int, not 'many'"),
        ({"lr": True}, "--lr must be float, not True"),
        ({"optimizer": "adam"}, "--optimizer must be one of sgd, adamw, not 'adam'"),
        ({"eval_every": 0}, "--eval-every must be at least 1"),
        ({"explored_share": 1.5}, "--explored-share must be above 0 and at most 1"),
        ({"teacher_generations": 1}, "--teacher-generations needs a --teacher network"),
        (
            {"inputs": "v3"},
            "--inputs must be v1, v2 or plane names joined by commas "
            f"({', '.join(contract.PLANE_NAMES)})",
        ),
        ({"global_pool": -1}, "--global-pool must be at least 0"),
        ({"channels": 8, "global_pool": 8}, "global pooling of 8 channels in a tower of 8"),
    ],
)
def test_a_bad_value_is_refused_with_one_message(tmp_path: Path, given: dict, message: str) -> None:
    with pytest.raises(RunError) as caught:
        Run.open(tmp_path / "r", {"board": 6, **given})
    assert str(caught.value) == message
    assert not (tmp_path / "r" / "config.json").exists()


def test_a_bad_flag_value_reaches_the_command_line_as_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert loop.main(["--run", str(tmp_path / "r"), "--eval-every", "0"]) == 1
    assert capsys.readouterr().err == "error: --eval-every must be at least 1\n"


def test_an_int_given_for_a_float_setting_is_taken(tmp_path: Path) -> None:
    assert Run.open(tmp_path / "r", {"board": 6, "lr": 1}).config["lr"] == 1


def from_history(rel: str) -> bytes:
    """A file that left the tree, as the commit before the one that removed it held it:
    how a finished run is brought back to go on (docs/training.md, "What a run keeps in
    git"). Skips the test where this checkout has no such history (a shallow clone)."""

    def git(*args: str) -> bytes:
        return subprocess.run(
            ["git", "-C", str(ROOT), *args], capture_output=True, check=True
        ).stdout

    try:
        removed = git("rev-list", "-n", "1", "HEAD", "--", rel).decode().strip()
        if not removed:
            pytest.skip(f"{rel} is not in this checkout's history")
        return git("show", f"{removed}^:{rel}")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip(f"{rel} is not in the tree and git cannot bring it back here")


def copy_run(name: str, to: Path) -> Path:
    """The committed part of a run directory, its teacher found in this checkout when the
    path it was made with is not on this machine. A finished run's network and checkpoint
    come back from git's history, as they do to resume it."""
    source = ROOT / "runs" / name
    to.mkdir(parents=True)
    for rel in ("config.json", "state.json", "metrics.csv", "best.onnx", "best.json",
                "checkpoints/latest.pt"):  # fmt: skip
        (to / rel).parent.mkdir(parents=True, exist_ok=True)
        if (source / rel).is_file():
            shutil.copyfile(source / rel, to / rel)
        else:
            (to / rel).write_bytes(from_history(f"runs/{name}/{rel}"))
    config = json.loads((to / "config.json").read_text())
    teacher = config.get("teacher")
    if teacher and not Path(teacher).is_file():
        config["teacher"] = str(ROOT / "models" / "archive" / Path(teacher).name)
        (to / "config.json").write_text(json.dumps(config))
    return to


def test_the_8x8_b_run_loads_and_resumes(tmp_path: Path) -> None:
    saved = json.loads((ROOT / "runs/8x8-b/config.json").read_text())
    root = copy_run("8x8-b", tmp_path / "8x8-b")
    run = Run.open(root, {})
    assert {k: v for k, v in run.config.items() if k in saved and k != "teacher"} == {
        k: v for k, v in saved.items() if k != "teacher"
    }
    # Settings added since the run began take their defaults.
    assert all(run.config[k] == settings.DEFAULTS[k] for k in run.config.keys() - saved.keys())
    state = run.state()
    # The run trains on between commits: the generation is whatever its state file says.
    committed = json.loads((root / "state.json").read_text())["generation"]
    assert state["generation"] == committed > 0
    # One more generation, made cheap: the committed checkpoint trains on.
    run = Run.open(root, {"generations": committed + 1, "steps": 1, "games": 1, "batch_size": 8})
    # Training resumes from the checkpoint's step (a run training beside the tests may have
    # saved its checkpoint a generation ahead of its state file).
    resumed_from = Trainer.load(root / "checkpoints" / "latest.pt").step
    selfplay = FakeSelfPlay()
    run.run(selfplay)
    assert [j.model for j in selfplay.jobs] == [root / "best.onnx"]  # models/ is not committed
    after = json.loads((root / "state.json").read_text())
    assert after["generation"] == committed + 1 and after["step"] == resumed_from + 1
    assert Trainer.load(root / "checkpoints" / "latest.pt").net_config == run.net_config()


def test_every_committed_loop_run_config_is_valid() -> None:
    checked = 0
    for path in sorted(ROOT.glob("runs/**/config.json")):
        config = json.loads(path.read_text())
        if "learner" in config:  # train/rl.py's runs, with their own settings
            continue
        merged = {**settings.DEFAULTS, **config}
        if merged["teacher"] and not Path(merged["teacher"]).is_file():
            merged["teacher"] = str(ROOT / "models" / "archive" / Path(merged["teacher"]).name)
        settings.validate(merged)
        checked += 1
    assert checked >= 10
