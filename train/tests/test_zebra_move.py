"""scripts/engines/zebra_move.py, the arena's adapter for Zebra, without Zebra: the moves
it answers itself (a forced pass, a single legal move), its errors, and the whole round
trip through a stand-in `zebra` that plays back what the adapter expects of the real one
(the board file in, current.gam and current.mov out)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = ROOT / "scripts" / "engines" / "zebra_move.py"
sys.path.insert(0, str(ADAPTER.parent))
import zebra_move  # noqa: E402


def run(*args: str, zebra_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ZEBRA_DIR"}
    if zebra_dir is not None:
        env["ZEBRA_DIR"] = str(zebra_dir)
    return subprocess.run(
        [sys.executable, str(ADAPTER), *args], capture_output=True, text=True, env=env
    )


def random_game_until(wanted: Callable[[zebra_move.Board, str], bool], seed: int = 1) -> str:
    """Moves of random games (passes written) up to the first position `wanted` accepts."""
    rng = random.Random(seed)
    for _ in range(500):
        moves: list[str] = []
        while True:
            board, me = zebra_move.replay("".join(moves))
            if wanted(board, me):
                return "".join(moves)
            legal = zebra_move.legal(board, me)
            other = zebra_move.legal(board, "O" if me == "X" else "X")
            if not legal and not other:
                break
            moves.append(zebra_move.name(*rng.choice(legal)) if legal else "pass")
    raise AssertionError("no such position in 500 random games")


def test_a_forced_pass_and_a_single_move_need_no_zebra() -> None:
    def must_pass(board: zebra_move.Board, me: str) -> bool:
        other = "O" if me == "X" else "X"
        return not zebra_move.legal(board, me) and bool(zebra_move.legal(board, other))

    moves = random_game_until(must_pass)
    answer = run("10", moves)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.strip() == "pass"

    moves = random_game_until(lambda board, me: len(zebra_move.legal(board, me)) == 1)
    board, me = zebra_move.replay(moves)
    answer = run("10", moves)
    assert answer.stdout.strip() == zebra_move.name(*zebra_move.legal(board, me)[0])


def test_a_pass_may_be_written_or_left_out() -> None:
    def after_a_pass(board: zebra_move.Board, me: str) -> bool:
        other = "O" if me == "X" else "X"
        return not zebra_move.legal(board, me) and bool(zebra_move.legal(board, other))

    moves = random_game_until(after_a_pass, seed=2)
    board, me = zebra_move.replay(moves + "pass")
    # The other side's move, with the pass before it written and left out, reaches the
    # same position.
    first = zebra_move.name(*zebra_move.legal(board, me)[0])
    assert zebra_move.replay(moves + "pass" + first) == zebra_move.replay(moves + first)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("8", "f5f5"), "move 2: f5 is illegal"),
        (("8", "f5pass"), "a pass while the side to move has moves"),
        (("8", "f5x9"), "cannot read the moves"),
        (("0", ""), "DEPTH must be from 1 to 59"),
        (("8", "", "x", "18"), "whole numbers"),
        (("8", ""), "set ZEBRA_DIR"),
    ],
)
def test_bad_input_gets_one_line_and_exit_1(args: tuple[str, ...], message: str) -> None:
    answer = run(*args)
    assert answer.returncode == 1
    assert message in answer.stderr
    assert len(answer.stderr.strip().splitlines()) == 1


STAND_IN = """#!/bin/sh
# Plays what the real zebra does with -g FILE -test: current.gam holds the board it read,
# current.mov the move it played ($MOVE), in the current folder.
test -f coeffs2.bin || exit 9
head -2 pos.gam > current.gam
echo "$MOVE" > current.mov
"""


def stand_in(tmp_path: Path) -> Path:
    zebra = tmp_path / "zebra"
    zebra.write_text(STAND_IN)
    zebra.chmod(0o755)
    (tmp_path / "coeffs2.bin").write_bytes(b"")
    return tmp_path


def test_zebras_move_comes_back_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = stand_in(tmp_path)
    monkeypatch.setenv("MOVE", "d3")
    answer = run("8", "", zebra_dir=folder)
    assert (answer.returncode, answer.stdout.strip()) == (0, "d3"), answer.stderr
    # An illegal answer from Zebra is refused rather than passed on.
    monkeypatch.setenv("MOVE", "a1")
    answer = run("8", "", zebra_dir=folder)
    assert answer.returncode == 1
    assert "zebra chose the illegal move a1" in answer.stderr
    # Nothing is left behind in the folder it runs from.
    assert sorted(p.name for p in folder.iterdir()) == ["coeffs2.bin", "zebra"]
