"""The share of the book side's moves that came from the book, in an arena.json (or its
gzipped arena.json.gz, as git keeps them).

A move came from the book when, in the position it was played from, the book's best move
is one the book has followed (`othello book show` marks it "book"): that is exactly when
`Book::choose` answers instead of the search (crates/engine/src/book/mod.rs).

    python runs/book-8x8/book_share.py ARENA_JSON[.gz] BOOK [OTHELLO]
"""

import gzip
import json
import re
import subprocess
import sys
from functools import cache

MOVE = re.compile(r"[a-h][1-8]|pass")


def main() -> None:
    arena_path, book = sys.argv[1], sys.argv[2]
    othello = sys.argv[3] if len(sys.argv) > 3 else "target/release/othello"
    opener = gzip.open if arena_path.endswith(".gz") else open
    with opener(arena_path, "rt") as f:
        arena = json.load(f)
    book_player = 0  # the first player of the pairing is the side with the book
    # No position deeper than the book's deepest is in it: those need no look.
    stats = subprocess.run(
        [othello, "book", "stats", book], capture_output=True, text=True, check=True
    ).stdout
    deepest = int(re.search(r"deepest: (\d+) moves", stats).group(1))

    @cache
    def from_book(prefix: str) -> bool:
        shown = subprocess.run(
            [othello, "book", "show", book, prefix],
            capture_output=True,
            text=True,
        )
        lines = [line.split() for line in shown.stdout.splitlines()[1:] if line.strip()]
        return bool(lines) and lines[0][-1] == "book"

    moves = from_book_moves = 0
    per_game = []
    for game in arena["games"]:
        side = 0 if game["black"] == book_player else 1
        played = MOVE.findall(game["transcript"])
        in_game = 0
        for ply, _ in enumerate(played):
            if ply % 2 != side or played[ply] == "pass":
                continue
            moves += 1
            if ply <= deepest and from_book("".join(played[:ply])):
                from_book_moves += 1
                in_game += 1
        per_game.append(in_game)
    print(
        f"{from_book_moves} of {moves} book-side moves from the book "
        f"({100 * from_book_moves / moves:.1f}%), "
        f"{from_book_moves / len(per_game):.1f} a game"
    )


if __name__ == "__main__":
    main()
