"""The learners' games, many at once (train/env.py), against the same rules played one
position at a time on grids (tests/positions.py): the batch's bookkeeping of turns,
passes, the end and the outcome. The rules themselves are held to perft counts in
test_rules.py."""

from __future__ import annotations

import numpy as np
import pytest

from train import env, rules
from train.tests import positions


def grids(games: env.Games, i: int) -> tuple[np.ndarray, np.ndarray]:
    n = games.n
    bits = rules.geometry(n).bits

    def grid(x: np.uint64) -> np.ndarray:
        return np.array([(int(x) >> int(b)) & 1 for b in bits], dtype=bool).reshape(n, n)

    return grid(games.own[i]), grid(games.opp[i])


@pytest.mark.parametrize("n", [4, 6, 8])
def test_random_games_follow_the_one_position_rules_move_by_move(n: int) -> None:
    rng = np.random.default_rng(n)
    games = env.Games(n, 24)
    ref = [positions.start(n) for _ in range(len(games))]
    for _ in range(n * n + 8):
        legal = games.legal_mask()
        moves = np.empty(len(games), dtype=np.int64)
        for i, (own, opp) in enumerate(ref):
            got_own, got_opp = grids(games, i)
            assert (got_own == own).all() and (got_opp == opp).all()
            want = positions.legal(own, opp).reshape(-1)
            if games.done[i]:
                assert legal[i, -1] and not legal[i, :-1].any()
                moves[i] = n * n
                continue
            assert (legal[i, :-1] == want).all()
            assert legal[i, -1] == (not want.any())
            choices = np.flatnonzero(legal[i])
            moves[i] = rng.choice(choices)
            mv = int(moves[i])
            if mv < n * n:
                r, c = divmod(mv, n)
                for y, x in positions.flips(own, opp, r, c):
                    own[y, x], opp[y, x] = True, False
                own[r, c] = True
            ref[i] = (opp, own)
        games.play(moves)
    # A game of N*N - 4 placements and at most a few passes is over by now.
    assert games.done.all()
    for i, (own, opp) in enumerate(ref):
        both_stuck = not positions.legal(own, opp).any() and not positions.legal(opp, own).any()
        assert both_stuck
        diff = int(own.sum()) - int(opp.sum())
        assert games.outcome()[i] == np.sign(diff)


def test_an_illegal_move_is_refused_and_the_games_stay_as_they_were() -> None:
    games = env.Games(8, 2)
    before = games.own.copy(), games.opp.copy()
    a1 = 0
    with pytest.raises(ValueError, match="illegal move 0 in game 0"):
        games.play(np.array([a1, 19]))
    assert (games.own == before[0]).all() and (games.opp == before[1]).all()
    with pytest.raises(ValueError, match="illegal"):
        games.play(np.array([64, 19]))  # a pass while a placement exists


def test_planes_follow_the_model_contract() -> None:
    games = env.Games(6, 1)
    own, opp = positions.start(6)
    want = positions.planes(own, opp).astype(np.float32)
    assert games.planes().shape == (1, 4, 6, 6)
    assert (games.planes()[0] == want).all()


def test_reversed_rules_flip_the_outcome() -> None:
    games = env.Games(4, 1, reversed_rules=True)
    while not games.done.all():
        games.play(np.array([int(np.flatnonzero(games.legal_mask()[0])[0])]))
    own, opp = games.discs()
    assert games.outcome()[0] == np.sign(opp[0] - own[0])
