#!/usr/bin/env python3
"""Zebra as a player of `othello arena`, run once a move (docs/arena.md, "Other engines").

    zebra_move.py DEPTH MOVES [EXACT WLD]

Asks Zebra (github.com/lk16/zebra, built from its own repository) for one move and
prints it: the move in lower case, or `pass` when the side to move has none. MOVES is
the game so far from the standard 8x8 start, such as `f5d6c3d3`, passes written (`pass`,
as the arena's `{moves}` writes them) or left out. DEPTH is Zebra's midgame depth; EXACT
and WLD are the empties from which its endgame solver plays exactly and for the result
(default 16 and 18, the midgame depth plus 8 and 10, as Zebra's README pairs them).
Exits 1 with one line on stderr on any failure.

The environment names the build: ZEBRA_DIR, the folder of the `zebra` binary and its
evaluation `coeffs2.bin` (required); ZEBRA_TIMEOUT, seconds (default 600).

Why a script: Zebra speaks no protocol on stdin. It is run non-interactively on a board
file (`-g FILE -test`: one turn, then it writes the move to `current.mov`), with its book
off (`-b 0`), no randomness (`-r 0`) and the same depths for both colours (`-l`), in a
private temporary folder, because it reads `coeffs2.bin` from and writes `zebra.log`,
`current.gam` and `current.mov` into its current folder. Its `-seq` mode would replay
MOVES itself, but it passes silently for a side that must pass and then searches for the
opponent, so the position is replayed here, by the trainer's rules (train/rules.py), and
handed over as a board.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# The rules are the trainer's one statement of them, which needs only the standard
# library, so the arena's bare python3 runs this.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from train import rules

GEO = rules.geometry(8)
Board = tuple[int, int]  # (Black's discs, White's): bitboards of train/rules.py


def fail(message: str) -> None:
    sys.stderr.write(f"zebra_move: {message}\n")
    sys.exit(1)


def other(me: str) -> str:
    return "O" if me == "X" else "X"


def sides(board: Board, me: str) -> tuple[int, int]:
    """(the discs of `me`, the other side's)."""
    return board if me == "X" else (board[1], board[0])


def legal(board: Board, me: str) -> list[tuple[int, int]]:
    """The placements of `me` as (row, column), in square order."""
    own, opp = sides(board, me)
    return [
        divmod(s, 8) for s in rules.squares_of(rules.legal_moves(own, opp, GEO), GEO)
    ]


def name(row: int, col: int) -> str:
    return rules.move_name(row * 8 + col, 8)


def replay(moves: str) -> tuple[Board, str]:
    """The position after MOVES and the side to move (X black, O white)."""
    text = re.sub(r"[\s,;\-]+", "", moves.lower())
    tokens = re.findall(r"pass|[a-h][1-8]", text)
    if "".join(tokens) != text:
        fail(f"cannot read the moves {moves!r}")
    board, me = rules.start(8), "X"
    for number, token in enumerate(tokens, 1):
        if token == "pass":
            if legal(board, me):
                fail(f"move {number}: a pass while the side to move has moves")
            me = other(me)
            continue
        if not legal(board, me):  # a pass left out
            me = other(me)
        try:
            # The next mover's discs, then the other side's.
            after = rules.play(*sides(board, me), rules.parse_move(token, 8), GEO)
        except ValueError:
            fail(f"move {number}: {token} is illegal")
        me = other(me)
        board = sides(after, me)  # sides() is its own inverse
    return board, me


def board_squares(board: Board) -> str:
    """The 64 squares from a1 row by row as Zebra's board file writes them (X, O, -)."""
    black, white = board
    return "".join(
        "X" if black >> b & 1 else "O" if white >> b & 1 else "-" for b in GEO.bits
    )


def ask_zebra(board: Board, me: str, depths: tuple[int, int, int]) -> str:
    folder = os.environ.get("ZEBRA_DIR")
    if not folder:
        fail("set ZEBRA_DIR to the folder of the zebra binary and coeffs2.bin")
    binary, coeffs = os.path.join(folder, "zebra"), os.path.join(folder, "coeffs2.bin")
    if not (os.access(binary, os.X_OK) and os.path.isfile(coeffs)):
        fail(f"{folder} lacks an executable zebra or coeffs2.bin")
    try:
        timeout = float(os.environ.get("ZEBRA_TIMEOUT", "600"))
    except ValueError:
        fail("ZEBRA_TIMEOUT must be a number of seconds")
    squares = board_squares(board)
    work = tempfile.mkdtemp(prefix="zebra-move.")
    try:
        os.symlink(os.path.abspath(coeffs), os.path.join(work, "coeffs2.bin"))
        with open(os.path.join(work, "pos.gam"), "w") as board_file:
            board_file.write(
                squares + "\n" + ("Black" if me == "X" else "White") + " to move\n"
            )
        levels = [str(d) for d in depths] * 2  # Black's, then White's
        command = [binary, "-quiet", "-r", "0", "-b", "0", "-l", *levels]
        command += ["-p", "0", "-w", "0", "-g", "pos.gam", "-test"]
        try:
            run = subprocess.run(
                command,
                check=False,
                cwd=work,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            fail(f"zebra gave no move within {timeout:g} s")
        if run.returncode != 0:
            fail(f"zebra exited with {run.returncode}: {run.stderr.strip()[-300:]}")
        try:
            with open(os.path.join(work, "current.gam")) as f:
                loaded = f.read().split("\n")
            with open(os.path.join(work, "current.mov")) as f:
                played = re.findall(r"[a-h][1-8]", f.read())
        except OSError as error:
            fail(f"zebra wrote no move: {error}")
        if loaded[0] != squares:
            fail("zebra read another position than the one it was given")
        if len(played) != 1:
            fail(f"cannot read zebra's move from {played!r}")
        return played[0]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(args: list[str]) -> None:
    if len(args) not in (1, 2, 4):
        fail("usage: zebra_move.py DEPTH MOVES [EXACT WLD]")
    try:
        numbers = [int(a) for a in [args[0], *args[2:]]]
    except ValueError:
        fail("DEPTH, EXACT and WLD must be whole numbers")
    depth = numbers[0]
    exact, wld = numbers[1:] if len(numbers) == 3 else (16, 18)
    if not 1 <= depth < 60:  # 60 and above switch Zebra to a timed search
        fail("DEPTH must be from 1 to 59")
    board, me = replay(args[1] if len(args) > 1 else "")
    moves = legal(board, me)
    if not moves:
        print("pass")
        return
    if len(moves) == 1:  # no choice: Zebra is not asked
        print(name(*moves[0]))
        return
    move = ask_zebra(board, me, (depth, exact, wld))
    row, col = int(move[1]) - 1, ord(move[0]) - ord("a")
    if (row, col) not in moves:
        fail(f"zebra chose the illegal move {move}")
    print(move)


if __name__ == "__main__":
    main(sys.argv[1:])
