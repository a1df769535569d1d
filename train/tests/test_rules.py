"""train/rules.py, the one statement of the rules in Python, against counts it did not make:
perft, the number of move sequences of each length from the start (a pass counts as a
ply, a game that ends early as one leaf), in both of its forms (one position as Python
ints, many as a numpy array)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from train import rules

ROOT = Path(__file__).resolve().parents[2]

# Published by Aart Bik, reproduced by Edax and Egaroucid and by the engine's own test
# (crates/othello/tests/perft.rs).
PERFT_8X8 = (4, 12, 56, 244, 1396, 8200, 55092)
# The engine's counts (`othello perft --board 6 --plain D`): a second implementation, in
# Rust, that its tests hold to Bik's counts and to a plain reference board on every size.
PERFT_6X6 = (4, 12, 56, 244, 1364, 7604, 47740, 308716)
# Likewise `othello perft --board 4 --plain D`; every 4x4 game is over by ply 15, so the
# count stops at the number of games.
PERFT_4X4 = (4, 12, 44, 128, 424, 1256, 3624, 9116, 20044, 36540, 50704, 57436, 59564,
             59980, 60060, 60060)  # fmt: skip


def perft_one_at_a_time(own: int, opp: int, depth: int, geo: rules.Geometry) -> int:
    """Perft by the one-position form: Python ints, a move at a time."""
    if depth == 0:
        return 1
    moves = rules.squares_of(rules.legal_moves(own, opp, geo), geo)
    if not moves:
        if rules.game_over(own, opp, geo):
            return 1
        moves = [geo.pass_move]
    return sum(perft_one_at_a_time(*rules.play(own, opp, m, geo), depth - 1, geo) for m in moves)


def perft_batched(n: int, depth: int) -> list[int]:
    """Perft to each depth by the batched form: every position of a ply in one uint64
    array, every legal placement of them all at once per square."""
    geo = rules.geometry(n)
    black, white = rules.start(n)
    own, opp = np.array([black], np.uint64), np.array([white], np.uint64)
    counts = []
    for _ in range(depth):
        legal = rules.legal_moves(own, opp, geo)
        stuck = legal == 0
        over = stuck & (rules.legal_moves(opp, own, geo) == 0)
        # A finished game stays one leaf; a pass has one child, the other side to move.
        next_own = [np.where(over, own, opp)[stuck]]
        next_opp = [np.where(over, opp, own)[stuck]]
        for b in geo.bits:
            bit = np.uint64(1 << b)
            at = (legal & bit) != 0
            o, p = own[at], opp[at]
            placed = np.full(o.shape, bit)
            turned = rules.flips(o, p, placed, geo)
            next_own.append(p & ~turned)
            next_opp.append(o | turned | placed)
        own, opp = np.concatenate(next_own), np.concatenate(next_opp)
        counts.append(len(own))
    return counts


@pytest.mark.parametrize(
    ("n", "counts"), [(8, PERFT_8X8), (6, PERFT_6X6), (4, PERFT_4X4)], ids=["8x8", "6x6", "4x4"]
)
def test_the_batched_form_counts_the_published_perft(n: int, counts: tuple[int, ...]) -> None:
    assert perft_batched(n, len(counts)) == list(counts)


@pytest.mark.parametrize(("n", "depth"), [(8, 5), (6, 6), (4, 9)], ids=["8x8", "6x6", "4x4"])
def test_one_position_at_a_time_counts_the_published_perft(n: int, depth: int) -> None:
    counts = {8: PERFT_8X8, 6: PERFT_6X6, 4: PERFT_4X4}[n]
    geo = rules.geometry(n)
    assert perft_one_at_a_time(*rules.start(n), depth, geo) == counts[depth - 1]


def test_the_start_and_the_move_names_are_othellos() -> None:
    geo = rules.geometry(8)
    black, white = rules.start(8)
    assert [rules.move_name(s, 8) for s in rules.squares_of(black, geo)] == ["e4", "d5"]
    assert [rules.move_name(s, 8) for s in rules.squares_of(white, geo)] == ["d4", "e5"]
    legal = rules.squares_of(rules.legal_moves(black, white, geo), geo)
    assert sorted(rules.move_name(s, 8) for s in legal) == ["c4", "d3", "e6", "f5"]
    for n in rules.SIZES:
        for move in range(n * n + 1):
            assert rules.parse_move(rules.move_name(move, n), n) == move
    assert rules.move_name(35, 6) == "f6" and rules.parse_move("pass", 6) == 36
    for bad in ("g1", "a7", "a0", "x", "f55"):
        with pytest.raises(ValueError, match="no square"):
            rules.parse_move(bad, 6)


def test_move_names_use_othello_notation() -> None:
    assert rules.move_name(0, 8) == "a1"
    assert rules.move_name(37, 8) == "f5"
    assert rules.move_name(64, 8) == "pass"
    assert rules.move_name(35, 6) == "f6"


def test_an_illegal_move_or_pass_is_refused() -> None:
    geo = rules.geometry(8)
    black, white = rules.start(8)
    with pytest.raises(ValueError, match="a1 is not a legal move"):
        rules.play(black, white, rules.parse_move("a1", 8), geo)
    with pytest.raises(ValueError, match="a pass while"):
        rules.play(black, white, geo.pass_move, geo)
    # f5 turns e5 over: White to move, with four discs to Black's one.
    own, opp = rules.play(black, white, rules.parse_move("f5", 8), geo)
    assert (own.bit_count(), opp.bit_count()) == (1, 4)
    with pytest.raises(ValueError, match="not supported"):
        rules.geometry(5)


def test_the_module_needs_nothing_beyond_the_standard_library() -> None:
    """The Zebra adapter (scripts/engines/zebra_move.py) imports it under a bare python3."""
    blocked = "import sys; sys.modules['numpy'] = None; import train.rules"
    subprocess.run([sys.executable, "-c", blocked], cwd=ROOT, check=True)


def test_the_published_perfect_6x6_line_ends_in_white_s_20_16() -> None:
    """J. Feinstein's perfect line of 6x6 (docs/rules.md, "6x6 is solved"): every move
    legal, Black's one pass where the rules force it, and White's 20-16 at the end."""
    line = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1"
    geo = rules.geometry(6)
    (own, opp), black_to_move, passes = rules.start(6), True, 0
    for k in range(0, len(line), 2):
        if not rules.legal_moves(own, opp, geo):  # the transcript leaves passes out
            own, opp = rules.play(own, opp, geo.pass_move, geo)
            black_to_move, passes = not black_to_move, passes + 1
        own, opp = rules.play(own, opp, rules.parse_move(line[k : k + 2], 6), geo)
        black_to_move = not black_to_move
    assert rules.game_over(own, opp, geo) and passes == 1
    black, white = (own, opp) if black_to_move else (opp, own)
    assert (black.bit_count(), white.bit_count()) == (16, 20)
