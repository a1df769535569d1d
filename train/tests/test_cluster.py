"""Self-play, arenas and book shards on a Ray cluster: a local one (2 CPUs) that this module
starts and stops, with the `othello` stand-in of fake_othello.py playing the shards on its
workers.
Every process killed here is one this test started: a Ray worker running one of its
shards (whose parent the stand-in reports), or a driver it launched."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from train import book, loop
from train.cluster import RayPool
from train.othello_cli import SelfPlayJob, othello_selfplay
from train.tests import fake_othello
from train.tests.fake_othello import board_text

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
# How long a wait for an event (the cluster up, a shard written, a process gone) may last
# before it counts as a hang: far beyond what a slow or loaded machine needs, since each
# wait ends as soon as its event comes.
PATIENCE = 300.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A private cluster of 2 CPUs on 127.0.0.1, as `ray start --head` makes for a real
    one; its address. `--block` keeps the command in the foreground, and ending it (this
    process's own child) takes down every process it started."""
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # short: Ray's sockets live there
    Path(temp, "tmp").mkdir()
    port = free_port()
    # It authenticates with the token conftest.py made for this session, as do the drivers.
    ray_cli = Path(sys.executable).parent / "ray"  # the venv's, else the one on PATH
    ray_cli = ray_cli if ray_cli.exists() else Path(shutil.which("ray") or "ray")
    log = Path(temp, "head.log")
    with log.open("w") as out:
        head = subprocess.Popen(
            [
                str(ray_cli), "start", "--head", "--block", "--node-ip-address", "127.0.0.1",
                "--port", str(port), "--num-cpus", "2", "--include-dashboard", "false",
                "--temp-dir", temp, "--disable-usage-stats",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            # The workers' temporary files (those of the ones killed mid-shard included) go
            # where the teardown removes them.
            env={**os.environ, "TMPDIR": str(Path(temp, "tmp"))},
        )  # fmt: skip
    try:
        address = f"127.0.0.1:{port}"
        wait_for(lambda: Path(temp, "ray_current_cluster").exists() or head.poll() is not None)
        assert head.poll() is None, f"ray start --head failed:\n{log.read_text()[-2000:]}"
        yield address
    finally:
        head.terminate()
        head.wait(timeout=PATIENCE)
        shutil.rmtree(temp, ignore_errors=True)


def wait_for(what: Callable[[], T], seconds: float = PATIENCE) -> T:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"waited {seconds} s in vain")


def dead(pid: int) -> bool:
    """Gone, or a zombie (killed, not yet reaped by whoever inherited it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def killed_mid_shard(
    cluster: str,
    binary: Path,
    work: Callable[[RayPool], object],
    held_runs: Callable[[], list[fake_othello.Run]],
    timeout: float,
) -> None:
    """Runs `work` as a driver on `cluster` in a thread, kills the Ray worker running the
    held shard (the first of `held_runs`) mid-shard, and checks that the driver ends without
    error after Ray ran the shard again on another worker, and that the first attempt's
    `othello` died with its worker rather than play on."""
    errors: list[BaseException] = []
    pool = RayPool(str(binary), cluster)

    def driver() -> None:
        try:
            work(pool)
        except BaseException as e:
            errors.append(e)
        finally:
            pool.close()

    thread = threading.Thread(target=driver)
    thread.start()
    first = wait_for(held_runs)[0]
    # The shard's parent is the Ray worker running its task: kill it mid-shard.
    assert Path(f"/proc/{first.parent}/cmdline").read_bytes().startswith(b"ray::")
    os.kill(first.parent, signal.SIGKILL)
    thread.join(timeout=timeout)
    assert not thread.is_alive() and not errors, errors
    attempts = held_runs()
    assert len(attempts) == 2 and attempts[1].parent != first.parent
    assert wait_for(lambda: dead(first.pid))


def game_seeds(folder: Path) -> list[int]:
    """The games of every self-play shard in `folder`, by seed."""
    return [
        s for f in sorted(folder.glob("*.json")) for s in json.loads(f.read_text())["game_seeds"]
    ]


def test_a_worker_killed_mid_shard_is_retried_and_every_game_is_written_once(
    cluster: str, tmp_path: Path
) -> None:
    binary, control = fake_othello.install(tmp_path)
    out = tmp_path / "data"
    job = SelfPlayJob(6, None, 8, 4, out, seed=5, threads=1)
    held = 5_000_004  # the third of four shards of 2 games
    (control / f"hold-{held}").touch()
    killed_mid_shard(
        cluster,
        binary,
        lambda pool: othello_selfplay(str(binary), pool, shard_games=2)([job]),
        lambda: [r for r in fake_othello.runs(control) if r.seed == held],
        timeout=PATIENCE,
    )
    # Every game of the generation, exactly once, in four shards named by their seeds.
    assert game_seeds(out) == list(range(5_000_000, 5_000_008))
    assert sorted(p.name for p in out.iterdir()) == [
        f"selfplay-{a}-{a + 1}.{ext}"
        for a in range(5_000_000, 5_000_008, 2)
        for ext in ("json", "npz")
    ]
    assert sorted(r.seed for r in fake_othello.runs(control)) == [
        5_000_000, 5_000_002, 5_000_004, 5_000_004, 5_000_006,
    ]  # fmt: skip


TINY = [
    "--board", "6", "--blocks", "1", "--channels", "4", "--steps", "2", "--sims", "4",
    "--threads", "1", "--shard-games", "2",
]  # fmt: skip


def test_a_driver_killed_with_sigkill_resumes_with_the_shards_it_has(
    cluster: str, tmp_path: Path
) -> None:
    binary, control = fake_othello.install(tmp_path)
    run_dir = tmp_path / "r"
    args = ["--run", str(run_dir), "--othello", str(binary), "--generations", "1", "--games", "8"]
    args += [*TINY, "--ray", cluster]
    first = 1_000_003 * 1_000_000  # generation 0's seed times the seeds a job owns
    shards = [f"selfplay-{first + a}-{first + a + 1}" for a in range(0, 8, 2)]
    held = first + 6  # the last shard waits until the driver is dead
    (control / f"hold-{held}").touch()
    data = run_dir / "data" / "gen-0000"
    with open(tmp_path / "driver.log", "w") as log:
        # Its temporary files (the folder it uploads to the cluster) in tmp_path: killed, it
        # cannot remove them.
        env = {**os.environ, "TMPDIR": str(tmp_path)}
        driver = subprocess.Popen(
            [sys.executable, "-m", "train.loop", *args], cwd=ROOT, stdout=log, stderr=log, env=env
        )
    try:
        wait_for(lambda: all((data / f"{s}.json").exists() for s in shards[:3]))
        playing = wait_for(lambda: [r for r in fake_othello.runs(control) if r.seed == held])[0]
    finally:
        driver.kill()  # SIGKILL
        driver.wait()
    # The cluster ends a dead driver's tasks: the held shard's othello goes with its worker.
    assert wait_for(lambda: dead(playing.pid))
    assert not (data / "DONE").exists()
    complete = sorted(p.name for p in data.iterdir() if not p.name.startswith("."))
    assert complete == sorted(f"{s}.{ext}" for s in shards[:3] for ext in ("json", "npz"))

    assert loop.main(args) == 0  # the same command resumes the run
    # The three shards the killed driver finished were kept, not played again; the fourth
    # was played once more; the generation has each of its games once.
    assert sorted(r.seed for r in fake_othello.runs(control)) == sorted(
        [*range(first, first + 8, 2), held]
    )
    assert game_seeds(data) == list(range(first, first + 8))
    assert (data / "DONE").exists()
    assert loop.Run.open(run_dir, {}).state()["generation"] == 1


def files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_a_run_on_ray_writes_the_run_directory_of_a_local_run(cluster: str, tmp_path: Path) -> None:
    binary, control = fake_othello.install(tmp_path)
    args = ["--othello", str(binary), "--generations", "2", "--games", "4", *TINY]
    args += ["--gate-games", "2", "--gate-threshold", "0", "--eval-games", "2"]
    args += ["--eval-players", "random,greedy"]
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    assert loop.main(["--run", str(local), *args]) == 0
    played_here = len(fake_othello.runs(control))
    assert loop.main(["--run", str(on_ray), *args, "--ray", cluster]) == 0
    # The same shards ran, the second time on Ray's workers, not as this process's children.
    runs = fake_othello.runs(control)
    shards = sorted((r.command, r.seed) for r in runs[:played_here])
    assert shards == sorted((r.command, r.seed) for r in runs[played_here:])
    assert all(r.parent == os.getpid() for r in runs[:played_here])
    assert all(r.parent != os.getpid() for r in runs[played_here:])
    # The same files; the shards' to the byte (a network the workers got from the object
    # store is named by its path in the run, as locally).
    here, there = files(local), files(on_ray)
    assert sorted(here) == sorted(there)
    played = [k for k in here if k.split("/")[0] in ("data", "gating", "eval") and "DONE" not in k]
    assert any(k.startswith("gating/gen-0001/arena-") for k in played)
    assert any(k.startswith("eval/gen-0001/arena-") for k in played)
    for name in played:
        assert there[name].replace(bytes(on_ray), bytes(local)) == here[name], name
    metrics = [loop.Run(r, {}).metrics() for r in (local, on_ray)]
    for key in ("positions", "loss", "gate_score", "elo", "elo_low", "elo_high"):
        assert [m[key] for m in metrics[0]] == [m[key] for m in metrics[1]], key


# ---- the book driver (train.book): rounds of `othello book search` shards ----

BOOK_TREE = list(range(13))  # the stand-in's toy book to depth 2 (test_book.py)


def book_args(binary: Path, folder: Path) -> list[str]:
    model = folder / "net.onnx"
    model.write_bytes(b"onnx")
    model.with_suffix(".json").write_text("{}")
    return [
        "--book", str(folder / "6x6.book"), "--player", f"mcts:model={model}", "--sims", "50",
        "--othello", str(binary), "--board", "6", "--depth", "2", "--round-positions", "6",
        "--shard-positions", "2",
    ]  # fmt: skip


def test_a_book_shard_whose_worker_is_killed_is_retried_and_each_position_searched_once(
    cluster: str, tmp_path: Path
) -> None:
    binary, control = fake_othello.install(tmp_path)
    args = book.parse_args(book_args(binary, tmp_path))
    job = book.BookJob(args.book, args.player, args.sims, board=6, depth=2)
    held = 3  # round 2's second shard: [3] (its first is [1, 2])
    (control / f"hold-{held}").touch()

    def searches() -> list[fake_othello.Run]:
        return [r for r in fake_othello.runs(control) if r.command == "book-search"]

    killed_mid_shard(
        cluster,
        binary,
        lambda pool: book.grow(str(binary), pool, job, round_positions=6, shard_positions=2),
        lambda: [r for r in searches() if r.seed == held],
        timeout=PATIENCE,
    )
    # Every position in the book, each searched once, by the worker's copy of the network.
    assert sorted(fake_othello.read_book(job.book)) == BOOK_TREE
    seen = fake_othello.searched(control)
    assert sorted(p for p, _ in seen) == BOOK_TREE
    model = args.player.split("model=")[1]
    assert all(m != model and Path(m).name == "net.onnx" for _, m in seen), seen
    assert sorted(r.seed for r in searches()) == [0, 1, 3, 3, 4, 6, 8, 10, 12]
    assert not job.shards.exists()


def test_a_book_driver_killed_with_sigkill_resumes_and_searches_nothing_twice(
    cluster: str, tmp_path: Path
) -> None:
    binary, control = fake_othello.install(tmp_path)
    args = book_args(binary, tmp_path)
    book_path = tmp_path / "6x6.book"
    shards = book.shard_folder(book_path)
    done = shards / f"{book.shard_name([board_text(1), board_text(2)])}.book"
    held = 3  # round 2: [1, 2] is written, [3] is being searched when the driver dies
    (control / f"hold-{held}").touch()
    with open(tmp_path / "driver.log", "w") as log:
        env = {**os.environ, "TMPDIR": str(tmp_path)}
        driver = subprocess.Popen(
            [sys.executable, "-m", "train.book", *args, "--ray", cluster],
            cwd=ROOT, stdout=log, stderr=log, env=env,
        )  # fmt: skip
    try:
        wait_for(done.exists)
        playing = wait_for(lambda: [r for r in fake_othello.runs(control) if r.seed == held])[0]
    finally:
        driver.kill()  # SIGKILL
        driver.wait()
    assert wait_for(lambda: dead(playing.pid))
    assert sorted(fake_othello.read_book(book_path)) == [0]
    assert [p.name for p in shards.iterdir() if not p.name.startswith(".")] == [done.name]

    assert book.main([*args, "--ray", cluster]) == 0  # the same command resumes
    # The killed run's shard book was merged, not searched again; its held shard's
    # position was searched once, by the new run, in a shard of the new round 2.
    assert sorted(fake_othello.read_book(book_path)) == BOOK_TREE
    assert sorted(p for p, _ in fake_othello.searched(control)) == BOOK_TREE
    runs = [r.seed for r in fake_othello.runs(control) if r.command == "book-search"]
    assert sorted(runs) == [0, 1, 3, 3, 5, 7, 9, 11]
    assert not shards.exists()
