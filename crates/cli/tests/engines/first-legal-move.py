"""A test engine run once a move: reads the position as board text on stdin
(`<64 squares> <X|O>`), prints the first legal move in square order (a1, b1, ...)."""

import sys

text = sys.stdin.readline().split()
squares, side = text[0], text[1]
me, them = side, "O" if side == "X" else "X"
board = [squares[i * 8 : i * 8 + 8] for i in range(8)]


def flips(row: int, col: int) -> bool:
    if board[row][col] != "-":
        return False
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c, seen = row + dr, col + dc, 0
            while (dr or dc) and 0 <= r < 8 and 0 <= c < 8 and board[r][c] == them:
                r, c, seen = r + dr, c + dc, seen + 1
            if seen and 0 <= r < 8 and 0 <= c < 8 and board[r][c] == me:
                return True
    return False


moves = [f"{'abcdefgh'[c]}{r + 1}" for r in range(8) for c in range(8) if flips(r, c)]
print(moves[0] if moves else "pass")
