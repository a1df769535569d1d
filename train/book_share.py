"""`python -m train.book_share ARENA_JSON[.gz] BOOK`: the share of the book side's moves
that came from its book in an arena (docs/book.md, "Measured again"), from the games'
transcripts in the arena's `arena.json` (or its gzipped `arena.json.gz`, as git keeps
them).

    python -m train.book_share runs/book-8x8/club-start/arena.json.gz \\
        runs/book-8x8/book-794.book [--othello target/release/othello] [--player 0]

A move came from the book when, in the position it was played from, the book's best move
is one the book has followed (`othello book show` marks it "book"): that is exactly when
`Book::choose` answers instead of the search (crates/engine/src/book/mod.rs). The book
side is the arena's first player unless `--player` names another; a position deeper than
the book's deepest (`othello book stats`) is not looked up.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from train.book import othello
from train.othello_cli import RunError

MOVE = re.compile(r"[a-h][1-8]|pass")


@dataclass(frozen=True)
class Share:
    moves: int  # the book side's placements
    from_book: int
    games: int

    def line(self) -> str:
        return (
            f"{self.from_book} of {self.moves} book-side moves from the book "
            f"({100 * self.from_book / self.moves:.1f}%), "
            f"{self.from_book / self.games:.1f} a game"
        )


def read_arena(path: Path) -> dict[str, Any]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return json.load(f)


def count(
    arena: dict[str, Any], deepest: int, in_book: Callable[[str], bool], player: int = 0
) -> Share:
    """The book side's moves and those of them that came from the book. `in_book(moves)`
    says whether the book chooses in the position after `moves` (a transcript)."""
    moves = from_book = games = 0
    for game in arena["games"]:
        if player not in (game["black"], game["white"]):
            continue
        games += 1
        side = 0 if game["black"] == player else 1
        played = MOVE.findall(game["transcript"])
        for ply, move in enumerate(played):
            if ply % 2 != side or move == "pass":
                continue
            moves += 1
            if ply <= deepest and in_book("".join(played[:ply])):
                from_book += 1
    if moves == 0:
        raise RunError(f"player {player} made no move in the arena's games")
    return Share(moves, from_book, games)


def deepest(binary: str, book: Path) -> int:
    """The book's deepest position, in moves after the start."""
    stats = othello(binary, "book", "stats", str(book))
    found = re.search(r"deepest: (\d+) moves", stats)
    if found is None:
        raise RunError(f"`{binary} book stats {book}` says no depth")
    return int(found.group(1))


def book_chooses(binary: str, book: Path) -> Callable[[str], bool]:
    """Whether the book's best move after a transcript is one it has followed, as `othello
    book show` lists it (best first, the last word "book"); each position asked once."""

    @cache
    def chooses(moves: str) -> bool:
        shown = othello(binary, "book", "show", str(book), moves)
        lines = [line.split() for line in shown.splitlines()[1:] if line.strip()]
        return bool(lines) and lines[0][-1] == "book"

    return chooses


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m train.book_share", description=__doc__)
    p.add_argument("arena", type=Path, help="an arena.json or arena.json.gz")
    p.add_argument("book", type=Path, help="the book the book side played with")
    p.add_argument("--othello", default="target/release/othello")
    p.add_argument("--player", type=int, default=0, help="the book side, by its arena index")
    args = p.parse_args(argv)
    try:
        arena = read_arena(args.arena)
        depth = deepest(args.othello, args.book)
        share = count(arena, depth, book_chooses(args.othello, args.book), args.player)
    except (RunError, OSError, KeyError, json.JSONDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(share.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
