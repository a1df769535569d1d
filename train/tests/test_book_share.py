"""train.book_share: which of the book side's moves count, and the whole command against a
stand-in binary that answers `book stats` and `book show` as the real one prints them."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

from train import book_share

# Games of the book side (player 0) as Black, then as White, with a pass written.
ARENA = {
    "players": ["mcts:book=x.book", "mcts"],
    "games": [
        {"black": 0, "white": 1, "transcript": "f5d6c3d3c4"},
        {"black": 1, "white": 0, "transcript": "f5f6e6passf4"},
    ],
}

# The book chooses at the start and after f5d6 (its best move marked "book"); after f5 its
# best move is one it has searched but not followed; elsewhere it has nothing. Its
# deepest position is 3 moves in. Every position it is asked about goes to BOOK.asked.
STAND_IN = f"""#!{sys.executable}
import sys
args = sys.argv[1:]
if args[:2] == ["book", "stats"]:
    print("3 positions (8x8 standard): 3 searched\\ndeepest: 3 moves after the start")
elif args[:2] == ["book", "show"]:
    with open(args[2] + ".asked", "a") as f:
        f.write(args[3] + "\\n")
    if args[3] in ("", "f5d6"):
        print("value 0.1 (backed up, 100 simulations), 0 games")
        print("  d6      0.10  book")
        print("  f6      0.05")
    elif args[3] == "f5":
        print("value 0.1 (searched, 100 simulations), 0 games")
        print("  f6      0.10")
        print("  d6      0.05  book")
    else:
        print("not in the book")
else:
    sys.exit(2)
"""


def test_only_the_book_side_s_placements_within_the_book_s_depth_count() -> None:
    asked: list[str] = []

    def in_book(moves: str) -> bool:
        asked.append(moves)
        return moves in ("", "f5d6")

    share = book_share.count(ARENA, 3, in_book)
    # As Black: f5, c3 and c4, the last too deep to look up; as White: f6, and a pass,
    # which is no move.
    assert (share.moves, share.from_book, share.games) == (4, 2, 2)
    assert asked == ["", "f5d6", "f5"]
    assert share.line() == "2 of 4 book-side moves from the book (50.0%), 1.0 a game"
    with pytest.raises(book_share.RunError, match="player 3 made no move"):
        book_share.count(ARENA, 3, in_book, player=3)


def test_the_command_reads_a_gzipped_arena_and_asks_the_book(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "othello"
    binary.write_text(STAND_IN)
    binary.chmod(0o755)
    arena = tmp_path / "arena.json.gz"
    with gzip.open(arena, "wt") as f:
        json.dump(ARENA, f)
    book = tmp_path / "x.book"
    args = [str(arena), str(book), "--othello", str(binary)]
    assert book_share.main(args) == 0
    out = capsys.readouterr().out.strip()
    assert out == "2 of 4 book-side moves from the book (50.0%), 1.0 a game"
    assert (tmp_path / "x.book.asked").read_text().splitlines() == ["", "f5d6", "f5"]
    # The other side: d6 and d3 as White, f5, e6 and f4 as Black; of the four positions
    # within the depth only the start is the book's.
    assert book_share.main([*args, "--player", "1"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == "1 of 5 book-side moves from the book (20.0%), 0.5 a game"
    assert book_share.main([str(tmp_path / "none.json"), str(book)]) == 1
    assert "error:" in capsys.readouterr().err
