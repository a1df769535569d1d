"""The Elo fit is the engine's (`othello elo`, crates/tools/src/arena/elo.rs), the only one
in the project: `fit_elo` asks the binary. Its answers are checked here against what
defines them, computed in a few lines of numpy: the anchor at 0, a zero gradient of the
Bradley-Terry log-likelihood (the prior draws included) at the returned ratings, and
intervals of +-1.96 standard errors from the observed information there; and against the
ratings `othello arena` writes for its own games."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from train.othello_cli import RunError, fit_elo, points
from train.tests.engine import BINARY_VARIABLE, real_othello

OTHELLO = real_othello()
needs_othello = pytest.mark.skipif(
    OTHELLO is None,
    reason=f"needs the othello binary: cargo build -p cli, or set ${BINARY_VARIABLE}",
)

ELO_PER_NAT = 400 / math.log(10)
Z95 = 1.959963984540054

GAMES = [(0, 1, 1.0), (1, 0, 0.0), (0, 1, 0.5), (1, 0, 1.0), (0, 2, 1.0), (2, 0, 0.5), (1, 2, 0.0)]


def tournament(n: int, games: int, seed: int) -> list[tuple[int, int, float]]:
    """Random games between n players of different strengths, draws included."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 1, n)
    out = []
    for _ in range(games):
        black, white = rng.choice(n, 2, replace=False)
        win = 1 / (1 + math.exp(strength[white] - strength[black]))
        p = rng.choice([1.0, 0.5, 0.0], p=[0.9 * win, 0.1, 0.9 * (1 - win)])
        out.append((int(black), int(white), float(p)))
    return out


def tables(n: int, games: list[tuple[int, int, float]], anchor: int, prior_draws: float):
    """Points of i against j and games between them, the prior draws against the anchor
    included."""
    score, count = np.zeros((n, n)), np.zeros((n, n))
    for black, white, p in games:
        score[black, white] += p
        score[white, black] += 1 - p
        count[black, white] += 1
        count[white, black] += 1
    for i in range(n):
        if i != anchor:
            score[i, anchor] += prior_draws / 2
            score[anchor, i] += prior_draws / 2
            count[i, anchor] += prior_draws
            count[anchor, i] += prior_draws
    return score, count


def gradient_and_information(score: np.ndarray, count: np.ndarray, elo: np.ndarray):
    """Of log L = sum_ij score_ij log sigmoid(theta_i - theta_j), theta in natural log-odds:
    d log L / d theta_i = sum_j score_ij - count_ij sigmoid(theta_i - theta_j), and the
    negated Hessian."""
    theta = elo / ELO_PER_NAT
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    gradient = (score - count * p).sum(axis=1)
    w = count * p * (1 - p)
    np.fill_diagonal(w, 0)
    return gradient, np.diag(w.sum(axis=1)) - w


def check_mle(n: int, games: list[tuple[int, int, float]], anchor: int, prior: float) -> None:
    assert OTHELLO is not None
    fitted = np.array(fit_elo(str(OTHELLO), n, games, anchor, prior))
    elo, low, high = fitted.T
    assert (elo[anchor], low[anchor], high[anchor]) == (0.0, 0.0, 0.0)
    score, count = tables(n, games, anchor, prior)
    gradient, information = gradient_and_information(score, count, elo)
    others = [i for i in range(n) if i != anchor]
    # At the maximum the likelihood is flat in every free rating: against a gradient of
    # order `games` away from it, ~0 here.
    np.testing.assert_allclose(gradient[others], 0, atol=1e-6)
    stderr = np.sqrt(np.diag(np.linalg.inv(information[np.ix_(others, others)]))) * ELO_PER_NAT
    np.testing.assert_allclose(high[others] - elo[others], Z95 * stderr, rtol=1e-6)
    np.testing.assert_allclose(elo[others] - low[others], Z95 * stderr, rtol=1e-6)


@needs_othello
@pytest.mark.parametrize(
    ("n", "games", "anchor", "prior"),
    [
        (3, GAMES, 1, 1.0),
        (4, tournament(4, 60, seed=1), 0, 1.0),
        (5, tournament(5, 200, seed=2), 3, 2.5),
        (4, tournament(4, 400, seed=3), 2, 0.0),
    ],
)
def test_the_fit_is_the_maximum_of_the_likelihood(
    n: int, games: list[tuple[int, int, float]], anchor: int, prior: float
) -> None:
    check_mle(n, games, anchor, prior)


@needs_othello
def test_two_players_get_the_logit_of_the_score() -> None:
    """One pairing has a closed form: the score share with the prior draws, on the Elo
    scale, and a binomial standard error."""
    assert OTHELLO is not None
    games = [(1, 0, 1.0)] * 7 + [(0, 1, 1.0)] * 2 + [(0, 1, 0.5)] * 3
    share = (7 + 1.5 + 0.5) / (12 + 1)
    (a, _, _), (b, low, high) = fit_elo(str(OTHELLO), 2, games, 0)
    assert a == 0.0
    assert b == pytest.approx(400 * math.log10(share / (1 - share)), abs=1e-6)
    stderr = ELO_PER_NAT / math.sqrt(13 * share * (1 - share))
    assert (low, high) == pytest.approx((b - Z95 * stderr, b + Z95 * stderr), abs=1e-6)


@needs_othello
def test_the_fit_gives_the_arenas_own_ratings(tmp_path: Path) -> None:
    """The games of an `othello arena` run, fitted again: its arena.json's ratings."""
    assert OTHELLO is not None
    cmd = [
        str(OTHELLO), "arena", "--board", "6", "--players", "random,greedy,heuristic",
        "--games", "10", "--threads", "1", "--seed", "3", "--out", str(tmp_path),
    ]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True)
    report = json.loads((tmp_path / "arena.json").read_text())
    players = report["players"]
    games = [(g["black"], g["white"], points(g["black_margin"])) for g in report["games"]]
    fitted = fit_elo(str(OTHELLO), len(players), games, players.index(report["anchor"]))
    want = [(r["elo"], r["low"], r["high"]) for r in report["ratings"]]
    np.testing.assert_allclose(np.array(fitted), np.array(want), atol=1e-6)
    check_mle(len(players), games, players.index(report["anchor"]), 1.0)


@needs_othello
def test_results_without_a_finite_fit_are_one_clear_error() -> None:
    assert OTHELLO is not None
    with pytest.raises(RunError) as e:
        fit_elo(str(OTHELLO), 2, [(0, 1, 1.0)] * 3, 1, prior_draws=0.0)
    message = str(e.value)
    assert message.startswith(f"`{OTHELLO} elo` failed: the results have no finite best fit")
    assert message.count("no finite best fit") == 1 and "error:" not in message


# An `othello` that keeps the request and answers fixed ratings in reverse order, or fails.
ENGINE = """#!{python}
import json, sys
request = json.load(sys.stdin)
open({log!r}, "w").write(json.dumps({{"argv": sys.argv[1:], **request}}))
if {fail}:
    print("error: the results have no finite best fit", file=sys.stderr)
    sys.exit(2)
ratings = [
    {{"player": p, "elo": 10.0 * i, "stderr": 1.0, "low": 10.0 * i - 1, "high": 10.0 * i + 1}}
    for i, p in enumerate(request["players"])
]
print(json.dumps({{"anchor": request["anchor"], "ratings": ratings[::-1]}}))
"""


def engine(tmp_path: Path, fail: bool = False) -> tuple[Path, Path]:
    binary, log = tmp_path / "othello", tmp_path / "request.json"
    binary.write_text(ENGINE.format(python=sys.executable, log=str(log), fail=fail))
    binary.chmod(0o755)
    return binary, log


def test_the_games_go_to_the_binary_in_arena_json_s_shape(tmp_path: Path) -> None:
    binary, log = engine(tmp_path)
    got = fit_elo(str(binary), 3, GAMES, anchor=1, prior_draws=2.0)
    # Matched by name, not by order.
    assert got == [(0.0, -1.0, 1.0), (10.0, 9.0, 11.0), (20.0, 19.0, 21.0)]
    request = json.loads(log.read_text())
    assert request["argv"] == ["elo", "-"]
    assert request["players"] == ["p0", "p1", "p2"] and request["anchor"] == "p1"
    assert request["prior_draws"] == 2.0
    assert request["games"][:3] == [
        {"black": 0, "white": 1, "black_margin": 1},
        {"black": 1, "white": 0, "black_margin": -1},
        {"black": 0, "white": 1, "black_margin": 0},
    ]


def test_a_failing_binary_is_one_error_that_says_why(tmp_path: Path) -> None:
    binary, _ = engine(tmp_path, fail=True)
    with pytest.raises(RunError) as e:
        fit_elo(str(binary), 3, GAMES, anchor=1)
    assert str(e.value) == f"`{binary} elo` failed: the results have no finite best fit"


def test_without_the_binary_there_is_no_fit(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="othello binary not found"):
        fit_elo(str(tmp_path / "missing"), 3, GAMES, anchor=1)
    # A binary from before `othello elo`: clap's answer is the cause.
    old = tmp_path / "old"
    clap = "print(\"error: unrecognized subcommand 'elo'\", file=sys.stderr); sys.exit(2)"
    old.write_text(f"#!{sys.executable}\nimport sys\n{clap}\n")
    old.chmod(0o755)
    with pytest.raises(RunError, match="elo` failed: unrecognized subcommand 'elo'"):
        fit_elo(str(old), 3, GAMES, anchor=1)
    printed = tmp_path / "printer"
    printed.write_text(f"#!{sys.executable}\nprint('hello')\n")
    printed.chmod(0o755)
    with pytest.raises(RunError, match="printed no ratings"):
        fit_elo(str(printed), 3, GAMES, anchor=1)
