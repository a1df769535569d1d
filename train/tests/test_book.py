"""The book driver (train.book) on this machine, with the `othello` stand-in's toy book: a
tree of 3 moves a position, so 13 positions to depth 2. Its Ray side is tested in
test_cluster.py, beside the cluster it shares."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from train import book
from train.book import BookJob, book_shards, shard_name
from train.shards import OUT, LocalPool, Shard, ShardResult
from train.tests import fake_othello
from train.tests.fake_othello import board_text

TREE = list(range(13))  # every toy position within depth 2


def network(folder: Path) -> Path:
    """A network file and its card, as a shard's input must have."""
    model = folder / "net.onnx"
    model.write_bytes(b"onnx")
    model.with_suffix(".json").write_text("{}")
    return model


def args(binary: Path, book_path: Path, model: Path, *more: str) -> list[str]:
    return [
        "--book", str(book_path), "--player", f"mcts:model={model},cpuct=1.5", "--sims", "50",
        "--othello", str(binary), "--board", "6", "--depth", "2", "--round-positions", "6",
        "--shard-positions", "2", *more,
    ]  # fmt: skip


def positions_in(book_path: Path) -> list[int]:
    return sorted(fake_othello.read_book(book_path))


def test_a_round_s_positions_are_cut_into_shards_named_by_their_board_texts(
    tmp_path: Path,
) -> None:
    model = network(tmp_path)
    job = BookJob(tmp_path / "6x6.book", f"mcts:model={model}", 100, board=6)
    texts = [board_text(p) for p in (4, 5, 6, 7, 8)]
    shards = book_shards(job, texts, 2)
    assert [len([a for a in s.args if a == "--position"]) for s in shards] == [2, 2, 1]
    first = shards[0]
    assert first.name == shard_name(texts[:2]) == book_shards(job, texts[:2], 5)[0].name
    assert len({s.name for s in shards}) == 3 and shard_name(texts[1:3]) != first.name
    assert first.args[-2:] == ("--out", f"{OUT}/{first.name}.book")
    assert list(first.args[:2]) == ["book", "search"]
    # Each board text is one argument right after its --position, hyphens and all.
    assert first.args[first.args.index("--position") + 1] == "--4-- X"
    # The network goes along as the shard's input (with Ray: through the object store).
    assert first.inputs == (str(model),)
    assert (first.dest, first.marker) == (tmp_path / "6x6.book.shards", f"{first.name}.book")


def test_a_book_grows_in_rounds_until_todo_lists_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary, control = fake_othello.install(tmp_path)
    model = network(tmp_path)
    book_path = tmp_path / "6x6.book"
    assert book.main(args(binary, book_path, model)) == 0
    assert positions_in(book_path) == TREE
    # Each position searched once, by the player's network where the driver has it.
    assert sorted(fake_othello.searched(control)) == [(p, str(model)) for p in TREE]
    # Rounds of at most 6 in todo's order, shards of 2: [0]; [1,2] [3]; [4,5] [6,7] [8,9];
    # [10,11] [12].
    searches = [r.seed for r in fake_othello.runs(control) if r.command == "book-search"]
    assert searches == [0, 1, 3, 4, 6, 8, 10, 12]
    assert not (tmp_path / "6x6.book.shards").exists()
    out = capsys.readouterr().out
    assert "round 4: 3 positions in 2 shards" in out and "13 positions searched" in out
    # Grown to its depth, it stays as it is.
    assert book.main(args(binary, book_path, model)) == 0
    assert len(fake_othello.searched(control)) == len(TREE)


def test_rounds_stop_where_asked_and_the_next_run_goes_on(tmp_path: Path) -> None:
    binary, control = fake_othello.install(tmp_path)
    model = network(tmp_path)
    book_path = tmp_path / "6x6.book"
    assert book.main(args(binary, book_path, model, "--rounds", "2")) == 0
    assert positions_in(book_path) == [0, 1, 2, 3]
    assert book.main(args(binary, book_path, model, "--rounds", "1")) == 0
    assert positions_in(book_path) == list(range(10))
    assert Counter(p for p, _ in fake_othello.searched(control)) == Counter(range(10))


class Killed(BaseException):
    """What ends the driver here, as a SIGKILL would between two shards."""


class DyingPool:
    """Plays `lives` shards, then the driver dies."""

    def __init__(self, binary: str, lives: int) -> None:
        self.pool = LocalPool(binary)
        self.lives = lives

    def play(self, shards: Sequence[Shard]) -> Iterator[tuple[Shard, ShardResult]]:
        for shard, result in self.pool.play(shards):
            if self.lives == 0:
                raise Killed
            self.lives -= 1
            yield shard, result

    def remote_cpu_seconds(self) -> float:
        return 0.0


def test_a_killed_driver_s_shard_books_are_merged_first_and_not_searched_again(
    tmp_path: Path,
) -> None:
    binary, control = fake_othello.install(tmp_path)
    model = network(tmp_path)
    book_path = tmp_path / "6x6.book"
    job = BookJob(book_path, f"mcts:model={model}", 50, board=6, depth=2)
    # Round 3 searches 4..9 in three shards: the driver dies with the first one written.
    assert book.grow(str(binary), LocalPool(str(binary)), job, rounds=2, round_positions=6) == 4
    with pytest.raises(Killed):
        book.grow(str(binary), DyingPool(str(binary), 1), job, round_positions=6,
                  shard_positions=2)  # fmt: skip
    shards = tmp_path / "6x6.book.shards"
    written = shard_name([board_text(4), board_text(5)])
    assert sorted(p.name for p in shards.iterdir()) == [f"{written}.book"]
    assert positions_in(book_path) == [0, 1, 2, 3]
    # What a kill in the middle of writing a shard leaves.
    (shards / f".{shard_name([board_text(6)])}.book.partial").write_text("half")

    assert book.main(args(binary, book_path, model)) == 0
    assert positions_in(book_path) == TREE
    # 4 and 5 came from the killed run's shard book; 6 and 7, searched then but never
    # written, were searched again; nothing was searched twice that reached the disk.
    counts = Counter(p for p, _ in fake_othello.searched(control))
    assert counts == Counter([*TREE, 6, 7])
    assert not shards.exists()
