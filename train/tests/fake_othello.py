"""A stand-in for the `othello` binary in the Ray and loop tests, run as a program:
`selfplay` and `arena` with the real ones' arguments and output files (deterministic to
the byte, like the real ones), a `model check` that passes, and `elo`: the real binary's
fit when `install` found one (train.tests.engine.real_othello), else a placeholder
(`placeholder_ratings`) with the same shape, so that the plumbing tests run without it.
`install` writes it with a shebang and CONTROL and REAL_OTHELLO set; CONTROL is the folder
through which the test and it talk:

    CONTROL/log            one line per run: "<command> <seed> <pid> <parent pid>"
    CONTROL/hold-<seed>    if present, the first run with this seed waits (up to a minute)
                           for CONTROL/release-<seed>, so a test can kill something mid-shard

`book todo|search|merge|build|stats` grow a toy book the real ones' way, in files of JSON
lines (one position each, with its value and simulations). Its positions are the nodes of
a tree of BRANCH moves a position, numbered breadth first (the start 0, the children of n
BRANCH*n+1 .. BRANCH*n+BRANCH), each with a board text of hyphens and a space like the
real ones' (`board_text`); `todo` lists, in order, the start when the book lacks it and
else the children of book positions that it lacks, down to --depth. A search logs as
"book-search <first position> ..." and holds like a seed; each position it finishes adds
"<position> <the model path it read>" to CONTROL/searched, which is how tests count the
searches of every position.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

CONTROL = ""  # set by `install`
# The real binary that answers `elo`, when one is built ("": the placeholder answers).
REAL_OTHELLO = ""  # set by `install`


def install(folder: Path) -> tuple[Path, Path]:
    """Writes the fake as an executable `folder/othello`; returns it and its CONTROL."""
    from train.tests.engine import real_othello

    control = folder / "control"
    control.mkdir(parents=True)
    real = real_othello()
    text = Path(__file__).read_text()
    # The first occurrences: the assignments above, not these lines.
    text = text.replace('CONTROL = ""  # set by `install`', f"CONTROL = {str(control)!r}", 1)
    text = text.replace(
        'REAL_OTHELLO = ""  # set by `install`', f"REAL_OTHELLO = {str(real or '')!r}", 1
    )
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
        # Released by the test, or killed with its worker; the deadline only ends a stray
        # one, and lies beyond the test's own waits (test_cluster.PATIENCE).
        deadline = time.monotonic() + 600
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


def placeholder_ratings(request: dict[str, Any]) -> list[dict[str, Any]]:
    """NOT the Elo fit: a deterministic stand-in for `othello elo` when no real binary is
    built. Each player's Elo is the logit of its points share (the prior draws against
    the anchor included) on the Elo scale, less the anchor's, with a binomial interval.
    It has the fit's shape (the anchor at 0, more points more Elo), not its numbers: tests
    that check numbers use the real binary."""
    names = request["players"]
    anchor = names.index(request["anchor"])
    prior = request.get("prior_draws", 1.0)
    score, games = [0.0] * len(names), [0.0] * len(names)
    for g in request["games"]:
        margin = g["black_margin"]
        p = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        for player, points in ((g["black"], p), (g["white"], 1 - p)):
            score[player] += points
            games[player] += 1
    for i in range(len(names)):
        if i != anchor:
            for player in (i, anchor):
                score[player] += prior / 2
                games[player] += prior
    per_nat = 400 / math.log(10)
    ratings = []
    for i, name in enumerate(names):
        share = [min(max(score[j] / max(games[j], 1), 1e-3), 1 - 1e-3) for j in (i, anchor)]
        elo = per_nat * (math.log(share[0] / (1 - share[0])) - math.log(share[1] / (1 - share[1])))
        stderr = per_nat / math.sqrt(max(games[i], 1) * share[0] * (1 - share[0]))
        stderr = 0.0 if i == anchor else stderr
        low, high = elo - 1.96 * stderr, elo + 1.96 * stderr
        ratings.append({"player": name, "elo": elo, "stderr": stderr, "low": low, "high": high})
    return ratings


def elo() -> None:
    """`othello elo -`: the real binary's answer when there is one, else the placeholder."""
    if REAL_OTHELLO:
        os.execv(REAL_OTHELLO, [REAL_OTHELLO, *sys.argv[1:]])
    text = sys.stdin.read() if sys.argv[2:3] == ["-"] else Path(sys.argv[2]).read_text()
    request = json.loads(text)
    if request["anchor"] not in request["players"]:
        print(f"error: the anchor '{request['anchor']}' is not one of the players", file=sys.stderr)
        sys.exit(2)
    answer = {"anchor": request["anchor"], "ratings": placeholder_ratings(request)}
    print(json.dumps(answer, indent=2))


# ---- the toy book ----

BRANCH = 3


def board_text(position: int) -> str:
    """Leading hyphens and a space, as a real board text has: the driver must pass it
    as one argument that is not an option."""
    return f"--{position}-- X"


def position_of(text: str) -> int:
    return int(text.split()[0].strip("-"))


def depth(position: int) -> int:
    moves = 0
    while position > 0:
        position, moves = (position - 1) // BRANCH, moves + 1
    return moves


def searched(control: Path) -> list[tuple[int, str]]:
    """Every search a `book search` finished: (position, the model path it read)."""
    path = control / "searched"
    lines = path.read_text().splitlines() if path.exists() else []
    return [(int(p), model) for p, model in (line.split(" ", 1) for line in lines)]


def read_book(path: Path) -> dict[int, dict[str, Any]]:
    if not path.exists():
        print(f"error: book {path}: cannot be read: No such file or directory", file=sys.stderr)
        sys.exit(1)
    entries = [json.loads(line) for line in path.read_text().splitlines() if line]
    return {position_of(e["position"]): e for e in entries}


def write_book(path: Path, book: dict[int, dict[str, Any]]) -> None:
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text("".join(json.dumps(book[p]) + "\n" for p in sorted(book)))
    os.replace(tmp, path)


def book_options(args: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Positional arguments, and each --option's values: every option takes one value,
    whatever it starts with (as the real binary's --position does)."""
    positional: list[str] = []
    options: dict[str, list[str]] = {}
    i = 0
    while i < len(args):
        if args[i].startswith("--"):
            options.setdefault(args[i], []).append(args[i + 1])
            i += 2
        else:
            positional.append(args[i])
            i += 1
    return positional, options


def book_todo(book_path: Path, options: dict[str, list[str]]) -> None:
    book = read_book(book_path)
    count = int(options.get("--count", ["16"])[0])
    deepest = int(options.get("--depth", ["20"])[0])
    if 0 not in book:
        frontier = [0]
    else:
        children = (BRANCH * p + i for p in book for i in range(1, BRANCH + 1))
        frontier = sorted({c for c in children if c not in book and depth(c) <= deepest})
    for position in frontier[:count]:
        print(board_text(position))


def book_search(options: dict[str, list[str]]) -> None:
    positions = [position_of(text) for text in options["--position"]]
    hold(positions[0], log("book-search", positions[0]))
    model = dict(
        kv.split("=", 1) for kv in options["--player"][0].split(":", 1)[-1].split(",") if "=" in kv
    ).get("model", "-")
    if model != "-" and not Path(model).is_file():
        print(f"error: cannot read the model {model}", file=sys.stderr)
        sys.exit(1)
    sims = int(options["--sims"][0])
    book = {p: {"position": board_text(p), "value": p % 7 - 3, "sims": sims} for p in positions}
    line = "".join(f"{p} {model}\n" for p in positions)
    fd = os.open(Path(CONTROL) / "searched", os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, line.encode())
    os.close(fd)
    write_book(Path(options["--out"][0]), book)


def book_merge(paths: list[Path]) -> None:
    into, others = paths[0], paths[1:]
    book = read_book(into) if into.exists() else {}
    for other in others:
        entries = read_book(other)
        new = [p for p in entries if p not in book]
        for p, entry in entries.items():  # the deeper search wins
            if p not in book or entry["sims"] > book[p]["sims"]:
                book[p] = entry
        print(f"{other}: {len(new)} new positions")
    write_book(into, book)
    print(f"{into}: {len(book)} positions")


def book(args: list[str]) -> None:
    command, rest = args[0], args[1:]
    positional, options = book_options(rest)
    if command == "todo":
        book_todo(Path(positional[0]), options)
    elif command == "search":
        book_search(options)
    elif command == "merge":
        book_merge([Path(p) for p in positional])
    elif command == "build" and options["--positions"] == ["0"]:
        if Path(positional[0]).exists():
            print(f"error: {positional[0]} exists", file=sys.stderr)
            sys.exit(1)
        write_book(Path(positional[0]), {})
    elif command == "stats":
        print(f"{len(read_book(Path(positional[0])))} positions")
    else:
        print(f"error: the stand-in has no `book {' '.join(args)}`", file=sys.stderr)
        sys.exit(2)


def main() -> None:
    if sys.argv[1:3] == ["model", "check"]:
        return
    if sys.argv[1:2] == ["elo"]:
        return elo()
    if sys.argv[1:2] == ["book"]:
        return book(sys.argv[2:])
    if sys.argv[1:2] not in (["selfplay"], ["arena"]):
        # As the real binary (clap) answers a subcommand it does not know.
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
