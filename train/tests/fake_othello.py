"""A stand-in for the `othello` binary in the Ray tests, run as a program: `selfplay` and
`arena` with the real ones' arguments and output files (deterministic to the byte, like
the real ones), and a `model check` that passes. `install` writes it with a shebang and
CONTROL set, the folder through which the test and it talk:

    CONTROL/log            one line per run: "<command> <seed> <pid> <parent pid>"
    CONTROL/hold-<seed>    if present, the first run with this seed waits (up to a minute)
                           for CONTROL/release-<seed>, so a test can kill something mid-shard
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CONTROL = ""  # set by `install`


def install(folder: Path) -> tuple[Path, Path]:
    """Writes the fake as an executable `folder/othello`; returns it and its CONTROL."""
    control = folder / "control"
    control.mkdir(parents=True)
    text = Path(__file__).read_text()
    # The first occurrence: the assignment above, not this line.
    text = text.replace('CONTROL = ""  # set by `install`', f"CONTROL = {str(control)!r}", 1)
    binary = folder / "othello"
    binary.write_text(f"#!{sys.executable}\n{text}")
    binary.chmod(0o755)
    return binary, control


@dataclass(frozen=True)
class Run:
    command: str
    seed: int
    pid: int
    parent: int


def runs(control: Path) -> list[Run]:
    """The fake's runs so far, in the order they started."""
    path = control / "log"
    lines = path.read_text().split("\n") if path.exists() else []
    return [Run(c, int(s), int(p), int(pp)) for c, s, p, pp in (x.split() for x in lines if x)]


def log(command: str, seed: int) -> int:
    """Logs this run; how many runs with this seed came before it."""
    path = Path(CONTROL) / "log"
    before = path.read_text().split("\n") if path.exists() else []
    attempt = sum(1 for line in before if line.split(" ")[:2] == [command, str(seed)])
    line = f"{command} {seed} {os.getpid()} {os.getppid()}\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, line.encode())
    os.close(fd)
    return attempt


def hold(seed: int, attempt: int) -> None:
    if attempt == 0 and (Path(CONTROL) / f"hold-{seed}").exists():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (Path(CONTROL) / f"release-{seed}").exists():
            time.sleep(0.05)


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """np.savez with a fixed timestamp, so the same games give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        for name, array in arrays.items():
            data = io.BytesIO()
            np.lib.format.write_array(data, array)
            z.writestr(zipfile.ZipInfo(f"{name}.npy", (2026, 1, 1, 0, 0, 0)), data.getvalue())
    path.write_bytes(buffer.getvalue())


def selfplay(a: argparse.Namespace) -> None:
    hold(a.seed, log("selfplay", a.seed))
    n, per_game = a.board, 2
    seeds = np.repeat(np.arange(a.seed, a.seed + a.games, dtype=np.int64), per_game)
    planes = np.zeros((len(seeds), 4, n, n), np.uint8)
    planes[:, 3] = 1
    policy = np.full((len(seeds), n * n + 1), 1.0 / (n * n + 1), np.float32)
    value = np.where(seeds % 2 == 0, 1.0, -1.0).astype(np.float32)
    arrays = {"planes": planes, "policy": policy, "value": value, "score": 4 * value}
    write_npz(a.out / f"{a.name}.npz", {**arrays, "game_seed": seeds})
    sidecar = {
        "model": a.model,
        "opponent": a.opponent,
        "board": n,
        "seed": a.seed,
        "games": a.games,
        "game_seeds": list(range(a.seed, a.seed + a.games)),
    }
    (a.out / f"{a.name}.json").write_text(json.dumps(sidecar, indent=2))


def arena(a: argparse.Namespace) -> None:
    hold(a.seed, log("arena", a.seed))
    players: list[str] = []
    for piece in a.players.split(","):  # an option=value piece belongs to the spec before it
        if players and "=" in piece and ":" not in piece:
            players[-1] += "," + piece
        else:
            players.append(piece)
    games = []
    for x in range(len(players)):
        for y in range(x + 1, len(players)):
            for opening in range(a.games // 2):
                for black, white in ((x, y), (y, x)):
                    margin = (a.seed * 7 + black * 5 + white * 3 + opening) % 13 - 6
                    games.append({"black": black, "white": white, "black_margin": margin})
    anchor = "random" if "random" in players else players[0]
    report = {"players": players, "anchor": anchor, "seed": a.seed, "games": games}
    (a.out / "arena.json").write_text(json.dumps(report, indent=2))


def main() -> None:
    if sys.argv[1:3] == ["model", "check"]:
        return
    if sys.argv[1:2] not in (["selfplay"], ["arena"]):
        # As the real binary (clap) answers a subcommand it lacks, `othello elo` say.
        print(f"error: unrecognized subcommand '{sys.argv[1]}'", file=sys.stderr)
        sys.exit(2)
    p = argparse.ArgumentParser()
    p.add_argument("command", choices=["selfplay", "arena"])
    for flag in ("--board", "--games", "--seed", "--sims", "--threads"):
        p.add_argument(flag, type=int)
    for flag in ("--model", "--opponent", "--name", "--players", "--variant"):
        p.add_argument(flag)
    p.add_argument("--out", type=Path)
    a, _ = p.parse_known_args()
    (selfplay if a.command == "selfplay" else arena)(a)


if __name__ == "__main__":
    main()
