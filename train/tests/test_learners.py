"""The learners of issue 14: their opponents, their bookkeeping, their targets against
slow references, their export, and a run that resumes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from train import env, rl, rules
from train.dqn import DEFAULTS as DQN_DEFAULTS
from train.dqn import DQN, QContract
from train.export import run_onnx
from train.othello_cli import EvalJob
from train.pg import DEFAULTS as PG_DEFAULTS
from train.pg import PolicyGradient
from train.tests import positions
from train.tests.engine import real_othello

SMALL = {"board": 6, "blocks": 1, "channels": 8, "games": 8, "batch_size": 32}


def dqn(**over: object) -> DQN:
    return DQN({**DQN_DEFAULTS, **SMALL, "learner": "dqn", "replay": 2000, **over})


def pg(learner: str, **over: object) -> PolicyGradient:
    return PolicyGradient({**PG_DEFAULTS, **SMALL, "learner": learner, **over})


def random_midgames(n: int, count: int, seed: int) -> env.Games:
    rng = np.random.default_rng(seed)
    games = env.Games(n, count)
    for _ in range(10):
        legal = games.legal_mask()
        games.play(np.argmax(np.where(legal, rng.random(legal.shape), -1), axis=1))
    return games


def to_grid(x: np.uint64, n: int) -> np.ndarray:
    return np.array([(int(x) >> int(b)) & 1 for b in rules.geometry(n).bits], bool).reshape(n, n)


@pytest.mark.parametrize("kind", ["greedy", "heuristic"])
def test_the_classic_players_pick_what_their_rule_rates_best(kind: str) -> None:
    n = 8
    games = random_midgames(n, 40, seed=3)
    rows = np.flatnonzero(~games.done & ~games.legal_mask()[:, -1])
    moves = rl.classic_moves(kind, games, rows, np.random.default_rng(0))
    table = rl.square_table(n).reshape(n, n)
    for g, mv in zip(rows, moves, strict=True):
        own, opp = to_grid(games.own[g], n), to_grid(games.opp[g], n)

        def rate(r: int, c: int, own: np.ndarray = own, opp: np.ndarray = opp) -> int:
            turned = positions.flips(own, opp, r, c)
            if kind == "greedy":
                return len(turned)
            after_own, after_opp = own.copy(), opp.copy()
            for y, x in turned:
                after_own[y, x], after_opp[y, x] = True, False
            after_own[r, c] = True
            return int(table[after_own].sum() - table[after_opp].sum())

        ratings = {(r, c): rate(r, c) for r, c in np.argwhere(positions.legal(own, opp))}
        assert rate(*divmod(int(mv), n)) == max(ratings.values())


def test_every_decision_links_to_the_same_players_next_one() -> None:
    learner = dqn()
    pool = rl.parse_pool("self=1,random=1,heuristic=1")
    e = rl.play_games(learner, 12, 6, pool, np.random.default_rng(1))
    assert len(e) > 12 * 5
    for i, j in enumerate(e.next_index):
        assert e.legal[i, e.action[i]], "the learner played an illegal move"
        if j < 0:
            continue
        assert j > i and e.game[j] == e.game[i]
        assert e.outcome[j] == e.outcome[i]  # the same player's result
        # The same player: it has at least as many discs and empties fewer.
        empties_i = 36 - e.planes[i, :2].sum()
        empties_j = 36 - e.planes[j, :2].sum()
        assert empties_j < empties_i
    # Every chain ends once per player and game: twice in self-play, else once.
    ends = np.bincount(e.game[e.next_index < 0], minlength=12)
    assert list(ends) == [2 if o == "self" else 1 for o in e.opponent]
    assert set(np.unique(e.outcome)) <= {-1.0, 0.0, 1.0}


def test_the_pool_refuses_unknown_opponents() -> None:
    with pytest.raises(rl.LearnerError, match="unknown opponent 'edax'"):
        rl.parse_pool("self=1,edax=2")
    assert rl.parse_pool("self=3,random=1") == {"self": 0.75, "random": 0.25}


def test_double_q_targets_match_a_sample_by_sample_reference() -> None:
    learner = dqn()
    e = rl.play_games(learner, 8, 6, {"self": 1.0}, np.random.default_rng(2))
    learner.replay.add(e)
    learner.target.load_state_dict(dqn(seed=9).net.state_dict())  # a different target net
    rows = np.arange(learner.replay.size)
    got = learner.targets(rows).numpy()
    for i in rows:
        j = e.next_index[i]
        if j < 0:
            assert got[i] == e.outcome[i]
            continue
        planes = torch.from_numpy(e.planes[j : j + 1].astype(np.float32))
        with torch.no_grad():
            online = torch.tanh(learner.net.eval()(planes).policy)[0].numpy()
            target = torch.tanh(learner.target.eval()(planes).policy)[0].numpy()
        best = int(np.argmax(np.where(e.legal[j], online, -np.inf)))
        assert got[i] == pytest.approx(target[best], abs=1e-6)


def test_lambda_returns_match_the_recursive_definition() -> None:
    learner = pg("a2c", lam=0.7)
    e = rl.play_games(learner, 6, 6, {"self": 1.0}, np.random.default_rng(4))
    got = learner.returns(e)
    value = learner.values(e.planes)

    def slow(i: int) -> float:
        j = e.next_index[i]
        if j < 0:
            return float(e.outcome[i])
        return 0.3 * float(value[j]) + 0.7 * slow(j)

    for i in range(len(e)):
        assert got[i] == pytest.approx(slow(i), abs=1e-5)
    assert (pg("reinforce").returns(e) == e.outcome).all()


@pytest.mark.parametrize("learner", ["reinforce", "a2c"])
def test_a_rewarded_move_becomes_more_likely(learner: str) -> None:
    agent = pg(learner, entropy_weight=0.0, lr=0.01)
    games = random_midgames(6, 1, seed=7)
    assert games.legal_mask()[0].sum() > 1
    planes = np.repeat(games.planes().astype(np.uint8), 64, axis=0)
    legal = np.repeat(games.legal_mask(), 64, axis=0)
    move = int(np.flatnonzero(legal[0])[0])

    def prob() -> float:
        with torch.no_grad():
            agent.net.eval()
            logits = rl.masked_logits(
                agent.net(torch.from_numpy(planes[:1].astype(np.float32))).policy,
                torch.from_numpy(legal[:1]),
            )
            return float(torch.softmax(logits, 1)[0, move])

    episodes = rl.Episodes(
        planes=planes, legal=legal, action=np.full(64, move), outcome=np.ones(64, np.float32),
        next_index=np.full(64, -1), game=np.arange(64), opponent=["self"] * 64,
        learner_outcome=np.ones(64, np.float32),
    )  # fmt: skip
    before = prob()
    for _ in range(5):
        agent.learn(episodes)
    assert prob() > before + 0.02


def test_the_q_network_exports_to_the_contract(tmp_path: Path) -> None:
    learner = dqn()
    path = learner.export(tmp_path / "q", "test", 0)
    card = json.loads(path.with_suffix(".json").read_text())
    assert "deep Q-network" in card["network"]["kind"]
    games = random_midgames(6, 16, seed=5)
    planes = games.planes()
    got = run_onnx(path, planes)
    with torch.no_grad():
        q = torch.tanh(learner.net.eval()(torch.from_numpy(planes)).policy).numpy()
    legal = games.legal_mask()
    want_value = np.where(legal, q, -np.inf).max(axis=1)
    assert np.allclose(got["value"][:, 0], want_value, atol=1e-5)
    assert np.allclose(got["policy"], q * 10, atol=1e-4)
    with torch.no_grad():
        _policy, value = QContract(learner.net)(torch.from_numpy(planes))
    assert np.allclose(value.numpy()[:, 0], want_value, atol=1e-6)


OTHELLO = real_othello()


@pytest.mark.skipif(OTHELLO is None, reason="needs the othello binary: cargo build -p cli")
@pytest.mark.parametrize("learner", ["dqn", "a2c"])
def test_the_engine_runs_the_exported_learners_like_pytorch(tmp_path: Path, learner: str) -> None:
    agent = dqn() if learner == "dqn" else pg("a2c")
    path = agent.export(tmp_path / learner, "test", 0)
    samples = path.with_name(path.stem + ".samples.npz")
    result = subprocess.run(
        [str(OTHELLO), "model", "check", str(path), "--compare", str(samples)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


class CpuClock:
    """CPU seconds as `rl.train` reads them, advanced only by `Metered`: the budget's
    verdict is then the same on any machine, however slow."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> float:
        return self.seconds


class Metered(PolicyGradient):
    """A learner whose every iteration costs 0.01 CPU-hours on `clock`."""

    def __init__(self, config: dict[str, Any], clock: CpuClock) -> None:
        super().__init__(config)
        self.clock = clock

    def learn(self, e: rl.Episodes) -> float:
        self.clock.seconds += 36.0
        return super().learn(e)


def test_a_run_evaluates_on_its_budget_and_resumes(tmp_path: Path) -> None:
    calls: list[EvalJob] = []

    def evaluate(job: EvalJob) -> tuple[float, float, float]:
        assert job.model.exists() and job.model.with_suffix(".json").exists()
        calls.append(job)
        return 100.0 + len(calls), 50.0, 150.0

    clock = CpuClock()
    defaults = {**PG_DEFAULTS, **SMALL, "learner": "reinforce"}
    # At 0.01 CPU-hours an iteration, evaluations are due at once, then from 0.023, 0.046
    # and 0.069 CPU-hours, and the budget ends after the sixth iteration, which is
    # evaluated too (none of these falls on an iteration's end).
    given = {"max_cpu_hours": 0.055, "eval_every": 0.023}
    run = rl.LearnerRun.open(tmp_path / "run", defaults, given)
    state = rl.train(run, Metered(run.config, clock), evaluate, cpu_clock=clock)
    assert state["iteration"] == 6 and state["cpu_hours"] == pytest.approx(0.06)
    rows = run.metrics()
    assert [r["iteration"] for r in rows] == ["1", "3", "5", "6"]
    assert len(calls) == 4
    assert [float(r["elo"]) for r in rows] == [101.0 + i for i in range(len(rows))]
    assert [float(r["cpu_hours"]) for r in rows] == pytest.approx([0.01, 0.03, 0.05, 0.06])
    assert (run.root / "best.onnx").exists() and run.checkpoint.exists()
    # Given more budget, it goes on from where it stopped: the next evaluation would be
    # due at 0.092 CPU-hours, and the end of the budget comes first.
    again = rl.LearnerRun.open(tmp_path / "run", defaults, {"max_cpu_hours": 0.085})
    more = rl.train(again, Metered(again.config, clock), evaluate, cpu_clock=clock)
    assert more["iteration"] == 9 and more["cpu_hours"] == pytest.approx(0.09)
    assert [r["iteration"] for r in again.metrics()] == ["1", "3", "5", "6", "9"]
    assert "resuming at iteration 6" in (run.root / "log.txt").read_text()
    with pytest.raises(rl.LearnerError, match="created with channels=8"):
        rl.LearnerRun.open(tmp_path / "run", defaults, {"channels": 16})


def test_the_comparison_table_rates_every_player_and_scores_it_against_heuristic() -> None:
    from train.compare import table

    players = ["random", "heuristic", "policy:model=runs/x/best.onnx"]
    # The network beats heuristic 3-1 with a draw, heuristic beats random twice.
    games = [
        {"black": 2, "white": 1, "black_margin": 10},
        {"black": 1, "white": 2, "black_margin": -4},
        {"black": 2, "white": 1, "black_margin": 0},
        {"black": 1, "white": 2, "black_margin": 6},
        {"black": 2, "white": 1, "black_margin": 2},
        {"black": 0, "white": 1, "black_margin": -8},
    ]
    ratings = [
        {"player": "policy:model=runs/x/best.onnx", "elo": 250.0, "low": 100.0, "high": 400.0},
        {"player": "heuristic", "elo": 120.0, "low": 10.0, "high": 230.0},
        {"player": "random", "elo": 0.0, "low": 0.0, "high": 0.0},
    ]
    report = {"players": players, "ratings": ratings, "games": games}
    labels = {"policy:model=runs/x/best.onnx": "DQN, network alone"}
    text = table(report, labels, {"policy:model=runs/x/best.onnx": 0.25})
    lines = text.splitlines()
    assert lines[2].startswith("| DQN, network alone | 0.25 | +250 [+100, +400] | 70.0%")
    assert "(3-1-1)" in lines[2]
    assert lines[3].startswith("| heuristic |  | +120 [+10, +230] |  |")
    assert lines[4].startswith("| random |  | +0 [+0, +0] | 0.0%")


def test_the_comparison_refuses_a_folder_that_is_not_a_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from train.compare import main

    code = main(["--board", "6", "--run", str(tmp_path), "--out", str(tmp_path / "out")])
    assert code == 1
    assert "is not a run directory" in capsys.readouterr().err


def good_and_bad_move(seed: int = 7) -> tuple[rl.Episodes, int, int]:
    """64 decisions in one position: half of them one move, which won, half another,
    which lost."""
    games = random_midgames(6, 1, seed=seed)
    assert games.legal_mask()[0].sum() > 1
    planes = np.repeat(games.planes().astype(np.uint8), 64, axis=0)
    legal = np.repeat(games.legal_mask(), 64, axis=0)
    good, bad = (int(m) for m in np.flatnonzero(legal[0])[:2])
    action = np.where(np.arange(64) % 2 == 0, good, bad)
    outcome = np.where(action == good, 1.0, -1.0).astype(np.float32)
    episodes = rl.Episodes(
        planes=planes, legal=legal, action=action, outcome=outcome,
        next_index=np.full(64, -1), game=np.arange(64), opponent=["self"] * 64,
        learner_outcome=outcome,
    )  # fmt: skip
    return episodes, good, bad


def move_probability(agent: PolicyGradient, e: rl.Episodes, move: int) -> float:
    with torch.no_grad():
        agent.net.eval()
        logits = rl.masked_logits(
            agent.net(torch.from_numpy(e.planes[:1].astype(np.float32))).policy,
            torch.from_numpy(e.legal[:1]),
        )
        return float(torch.softmax(logits, 1)[0, move])


@pytest.mark.parametrize("learner", ["reinforce", "a2c"])
@pytest.mark.parametrize("normalize", [0, 1])
def test_a_rewarded_move_gains_on_a_punished_one(learner: str, normalize: int) -> None:
    agent = pg(learner, entropy_weight=0.0, lr=0.01, normalize_advantage=normalize)
    episodes, good, bad = good_and_bad_move()
    good_before, bad_before = (move_probability(agent, episodes, m) for m in (good, bad))
    for _ in range(5):
        agent.learn(episodes)
    assert move_probability(agent, episodes, good) > good_before + 0.02
    assert move_probability(agent, episodes, bad) < bad_before


def test_normalised_advantages_are_centred_scaled_and_keep_their_order() -> None:
    target = torch.tensor([1.0, -1.0, 1.0, 0.0, -1.0])
    value = torch.tensor([0.5, 0.0, -0.2, 0.1, -0.9])
    raw = pg("reinforce").advantages(target, value)
    assert torch.allclose(raw, target - value)
    got = pg("reinforce", normalize_advantage=1).advantages(target, value)
    assert abs(float(got.mean())) < 1e-6
    assert float(got.std()) == pytest.approx(1.0, abs=1e-5)
    assert (torch.argsort(got) == torch.argsort(raw)).all()
    # One decision alone has no spread to scale by: it is left as it is.
    one = pg("reinforce", normalize_advantage=1).advantages(target[:1], value[:1])
    assert torch.allclose(one, target[:1] - value[:1])


def test_the_score_against_heuristic_tells_a_strong_player_from_a_random_one() -> None:
    class Classic:
        def __init__(self, kind: str) -> None:
            self.kind, self.rng = kind, np.random.default_rng(11)

        def act(self, planes: np.ndarray, legal: np.ndarray, explore: bool) -> np.ndarray:
            if self.kind == "random":
                return np.argmax(np.where(legal, self.rng.random(legal.shape), -1), axis=1)
            return np.array([int(np.flatnonzero(row)[0]) for row in legal])

    score, low, high = rl.score_against_heuristic(Classic("random"), 200, 6, seed=5)
    assert low <= score <= high and low >= 0.0 and high <= 1.0
    assert high < 0.5, "a random player should lose to the heuristic player"
    # Wilson's interval on 200 games is about +-7 points at these scores.
    assert 0.08 < high - low < 0.16
    # The same seed replays the same games for the same player.
    first = rl.score_against_heuristic(Classic("first"), 200, 6, seed=5)
    assert rl.score_against_heuristic(Classic("first"), 200, 6, seed=5) == first


def test_a_run_stopped_by_the_clock_saves_and_scores_without_the_engine(tmp_path: Path) -> None:
    defaults = {**PG_DEFAULTS, **SMALL, "learner": "reinforce"}
    given = {"max_cpu_hours": 10.0, "eval_every": 10.0, "eval_heuristic_games": 24}
    run = rl.LearnerRun.open(tmp_path / "run", defaults, given)
    calls = iter([False, False, False, True])
    state = rl.train(run, PolicyGradient(run.config), None, stop=lambda: next(calls, True))
    # The first evaluation is due at once; the clock's stop forces a second.
    assert state["iteration"] == 2 and state["evaluations"] == 2
    rows = run.metrics()
    assert [r["iteration"] for r in rows] == ["1", "2"]
    for r in rows:
        assert 0.0 <= float(r["heuristic_low"]) <= float(r["heuristic_score"])
        assert float(r["heuristic_score"]) <= float(r["heuristic_high"]) <= 1.0
        assert r["elo"] == ""
    assert (run.root / "best.onnx").exists() and run.checkpoint.exists()
    assert "against heuristic" in (run.root / "log.txt").read_text()


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has a GPU")
def test_asking_for_a_gpu_where_there_is_none_is_one_clear_error() -> None:
    with pytest.raises(rl.LearnerError, match="no GPU"):
        pg("reinforce", device="cuda")


def test_a_resume_given_another_learning_rate_runs_at_it() -> None:
    first = pg("reinforce", lr=0.001)
    saved = first.state_dict()
    again = pg("reinforce", lr=0.0001)
    again.load_state_dict(saved)
    assert [g["lr"] for g in again.optimizer.param_groups] == [0.0001]
    for name, tensor in first.net.state_dict().items():
        assert torch.equal(tensor, again.net.state_dict()[name])


def test_the_heuristic_curve_is_drawn_from_runs_that_have_one(tmp_path: Path) -> None:
    from train.plots import main as plots_main

    scored = tmp_path / "scored"
    scored.mkdir()
    header = ",".join(rl.METRICS)
    row = {k: "" for k in rl.METRICS}
    row.update(games="512", cpu_hours="0.01", heuristic_score="0.4")
    row.update(heuristic_low="0.35", heuristic_high="0.45")
    (scored / "metrics.csv").write_text(header + "\n" + ",".join(row.values()) + "\n")
    unscored = tmp_path / "unscored"
    unscored.mkdir()
    (unscored / "metrics.csv").write_text(header + "\n")
    out = tmp_path / "h.png"
    assert plots_main(["--out", str(out), str(unscored)]) == 1 and not out.exists()
    assert plots_main(["--out", str(out), str(scored), str(unscored)]) == 0
    assert out.stat().st_size > 1000
    assert plots_main(["--out", str(out), str(tmp_path / "missing")]) == 1


def test_the_clipped_objective_matches_its_definition_and_stops_at_the_clip() -> None:
    from train.pg import clipped_surrogate

    old = torch.log(torch.tensor([0.5, 0.5, 0.5, 0.5, 0.2]))
    new = torch.log(torch.tensor([0.55, 0.9, 0.3, 0.9, 0.1])).requires_grad_()
    advantage = torch.tensor([1.0, 1.0, -1.0, -1.0, 2.0])
    got = clipped_surrogate(new, old, advantage, 0.2)
    for i in range(5):
        ratio = float(torch.exp(new[i].detach() - old[i]))
        clipped = min(max(ratio, 0.8), 1.2)
        a = float(advantage[i])
        assert float(got[i].detach()) == pytest.approx(min(ratio * a, clipped * a), rel=1e-5)
    got.sum().backward()
    assert new.grad is not None
    grad = new.grad.tolist()
    assert grad[0] != 0.0  # inside the clip: still learning
    assert grad[1] == 0.0  # a good move already 1.8 times likelier: no further push
    assert grad[2] == 0.0  # a bad move already at 0.6 of its probability: likewise
    assert grad[3] != 0.0  # a bad move made likelier: the unclipped term pulls it back
    assert grad[4] != 0.0  # a good move made less likely: the unclipped term pushes back


def test_several_clipped_passes_move_a_rewarded_move_further_than_one() -> None:
    def gain(epochs: int) -> float:
        agent = pg("reinforce", entropy_weight=0.0, lr=0.003, epochs=epochs, seed=4)
        episodes, good, _ = good_and_bad_move()
        before = move_probability(agent, episodes, good)
        agent.learn(episodes)
        return move_probability(agent, episodes, good) - before

    one, four = gain(1), gain(4)
    assert one > 0 and four > one


def test_a_bad_move_grown_likely_is_bounded_and_nothing_overflows() -> None:
    from train.pg import DUAL_CLIP, clipped_surrogate

    old = torch.tensor([-80.0, -80.0, -1.0])
    new = torch.tensor([-1.0, -70.0, -1.0], requires_grad=True)  # ratios e^79, e^10, 1
    advantage = torch.tensor([-1.0, -0.5, -1.0])
    got = clipped_surrogate(new, old, advantage, 0.2)
    assert torch.isfinite(got).all()
    assert got[0].item() == pytest.approx(DUAL_CLIP * -1.0)
    assert got[1].item() == pytest.approx(DUAL_CLIP * -0.5)
    assert got[2].item() == pytest.approx(-1.0)
    got.sum().backward()
    assert new.grad is not None
    assert new.grad.tolist()[:2] == [0.0, 0.0] and new.grad.tolist()[2] != 0.0


@pytest.mark.parametrize("augment", [0, 1])
def test_the_learner_learns_in_the_orientation_it_played_unless_told_to_augment(
    augment: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = pg("reinforce", augment=augment)
    episodes, _, _ = good_and_bad_move()
    seen: list[np.ndarray] = []
    forward = agent.net.forward

    def spy(x: torch.Tensor) -> object:
        if agent.net.training:
            seen.append(x.numpy().copy())
        return forward(x)

    monkeypatch.setattr(agent.net, "forward", spy)
    agent.learn(episodes)
    played = episodes.planes.astype(np.float32)
    same = all(np.array_equal(x, played[: len(x)]) for x in seen)
    assert seen and same == (augment == 0)


def test_a_shipped_file_is_measured_against_heuristic_with_colours_swapped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from train.against_heuristic import main as against

    path = pg("reinforce").export(tmp_path / "r", "test", 0)
    out = tmp_path / "result.json"
    assert against([str(path), "--games", "40", "--seed", "3", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["games"] == 40 and result["moves"] == "sampling"
    assert 0 <= result["low"] <= result["score"] <= result["high"] <= 1
    assert "colours swapped" in capsys.readouterr().out
    # The same seed, the same games; argmax is another measure.
    assert against([str(path), "--games", "40", "--seed", "3", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["score"] == result["score"]
    assert against([str(path), "--games", "3"]) == 1
    assert against([str(tmp_path / "missing.onnx")]) == 1
    assert "cannot load" in capsys.readouterr().err


def test_the_measure_plays_each_colour_in_half_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[np.ndarray] = []
    original = rl.play_games

    def spy(*args: Any, **kwargs: Any) -> rl.Episodes:
        seen.append(kwargs["learner_black"])
        return original(*args, **kwargs)

    monkeypatch.setattr(rl, "play_games", spy)
    rl.score_against_heuristic(pg("reinforce"), 10, 6, seed=1)
    assert len(seen) == 1 and list(seen[0]) == [True, False] * 5
