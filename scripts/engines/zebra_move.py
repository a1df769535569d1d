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
opponent, so the position is replayed here and handed over as a board.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
Board = list[list[str]]


def fail(message: str) -> None:
    sys.stderr.write(f"zebra_move: {message}\n")
    sys.exit(1)


def flips(board: Board, row: int, col: int, me: str) -> list[tuple[int, int]]:
    if board[row][col] != ".":
        return []
    them = "O" if me == "X" else "X"
    flipped = []
    for dr, dc in DIRECTIONS:
        r, c, line = row + dr, col + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r][c] == them:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r][c] == me:
            flipped.extend(line)
    return flipped


def legal(board: Board, me: str) -> list[tuple[int, int]]:
    return [(r, c) for r in range(8) for c in range(8) if flips(board, r, c, me)]


def name(row: int, col: int) -> str:
    return "abcdefgh"[col] + str(row + 1)


def replay(moves: str) -> tuple[Board, str]:
    """The position after MOVES and the side to move (X black, O white)."""
    text = re.sub(r"[\s,;\-]+", "", moves.lower())
    tokens = re.findall(r"pass|[a-h][1-8]", text)
    if "".join(tokens) != text:
        fail(f"cannot read the moves {moves!r}")
    board = [["."] * 8 for _ in range(8)]
    board[3][3] = board[4][4] = "O"
    board[3][4] = board[4][3] = "X"
    me = "X"
    for number, token in enumerate(tokens, 1):
        if token == "pass":
            if legal(board, me):
                fail(f"move {number}: a pass while the side to move has moves")
            me = "O" if me == "X" else "X"
            continue
        if not legal(board, me):  # a pass left out
            me = "O" if me == "X" else "X"
        row, col = int(token[1]) - 1, ord(token[0]) - ord("a")
        flipped = flips(board, row, col, me)
        if not flipped:
            fail(f"move {number}: {token} is illegal")
        board[row][col] = me
        for r, c in flipped:
            board[r][c] = me
        me = "O" if me == "X" else "X"
    return board, me


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
    squares = "".join("".join(row) for row in board).replace(".", "-")
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
