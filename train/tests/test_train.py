from pathlib import Path

import numpy as np
import pytest
import torch

from train.data import Samples
from train.net import NetConfig
from train.tests.positions import random_batch
from train.train import CheckpointError, TrainConfig, Trainer

NET = NetConfig(board=6, blocks=1, channels=8, score_head=True)


def samples(count: int, seed: int) -> Samples:
    return Samples(**random_batch(6, count, np.random.default_rng(seed)))


@pytest.mark.parametrize(
    "config",
    [
        TrainConfig(optimizer="sgd", lr=0.05, augment=False, score_weight=0.5),
        TrainConfig(optimizer="adamw", lr=0.01, augment=False, score_weight=0.5),
    ],
    ids=["sgd", "adamw"],
)
def test_a_few_steps_reduce_the_loss_on_a_fixed_batch(config: TrainConfig) -> None:
    trainer = Trainer(NET, config)
    batch = samples(32, seed=1)
    before = trainer.evaluate(batch)
    for _ in range(30):
        trainer.train_step(batch)
    after = trainer.evaluate(batch)
    assert after.total < 0.8 * before.total
    assert after.policy < before.policy
    assert after.value < before.value
    assert after.score < before.score
    assert trainer.step == 30


def test_the_score_loss_counts_only_when_weighted() -> None:
    batch = samples(16, seed=2)
    weighted = Trainer(NET, TrainConfig(score_weight=1.0)).evaluate(batch)
    unweighted = Trainer(NET, TrainConfig(score_weight=0.0)).evaluate(batch)
    assert weighted.score > 0
    assert weighted.total == pytest.approx(weighted.policy + weighted.value + weighted.score)
    assert unweighted.total == pytest.approx(unweighted.policy + unweighted.value)


def test_the_margin_weight_mixes_the_disc_difference_into_the_value_target() -> None:
    batch = samples(16, seed=3)
    plain = Trainer(NET, TrainConfig()).value_target(batch)
    np.testing.assert_array_equal(plain, batch.value)
    mixed = Trainer(NET, TrainConfig(margin_weight=0.25)).value_target(batch)
    np.testing.assert_allclose(mixed, 0.75 * batch.value + 0.25 * batch.score / 36, rtol=1e-6)
    # A bigger win is worth more, and every target stays a value in [-1, 1].
    assert np.all(np.abs(mixed) <= 1.0)
    with pytest.raises(ValueError, match="margin_weight"):
        TrainConfig(margin_weight=1.5)


def test_weight_decay_skips_biases_and_batch_norm() -> None:
    trainer = Trainer(NET, TrainConfig(weight_decay=0.1))
    decayed, plain = trainer.optimizer.param_groups
    assert decayed["weight_decay"] == 0.1 and plain["weight_decay"] == 0.0
    assert all(p.ndim > 1 for p in decayed["params"])
    assert all(p.ndim == 1 for p in plain["params"])


def test_resuming_after_an_interruption_loses_nothing(tmp_path: Path) -> None:
    data = samples(64, seed=3)
    config = TrainConfig(batch_size=16, lr=0.05, seed=5)  # random batches and symmetries

    straight = Trainer(NET, config)
    straight.train(data, 6)

    first = Trainer(NET, config)
    first.train(data, 3)
    first.save(tmp_path / "ckpt.pt")
    del first  # the "killed" run
    resumed = Trainer.load(tmp_path / "ckpt.pt")
    assert resumed.step == 3
    resumed.train(data, 3)

    assert resumed.step == straight.step == 6
    a, b = straight.net.state_dict(), resumed.net.state_dict()
    assert a.keys() == b.keys()
    for key in a:
        assert torch.equal(a[key], b[key]), key


def test_a_resumed_run_can_change_its_learning_rate(tmp_path: Path) -> None:
    trainer = Trainer(NET, TrainConfig(lr=0.05))
    trainer.train(samples(16, seed=4), 1)
    trainer.save(tmp_path / "ckpt.pt")
    resumed = Trainer.load(tmp_path / "ckpt.pt", config=TrainConfig(lr=0.001))
    assert all(g["lr"] == 0.001 for g in resumed.optimizer.param_groups)
    assert len(resumed.optimizer.state) > 0  # momentum kept


def test_a_corrupt_checkpoint_gives_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "ckpt.pt"
    Trainer(NET, TrainConfig()).save(path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])  # cut short
    with pytest.raises(CheckpointError, match="corrupt or not a checkpoint"):
        Trainer.load(path)
    path.write_bytes(b"\x00garbage" * 100)
    with pytest.raises(CheckpointError, match="corrupt or not a checkpoint"):
        Trainer.load(path)


def test_a_file_that_is_not_our_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(3)}, path)
    with pytest.raises(CheckpointError, match="not an Othello Zero checkpoint"):
        Trainer.load(path)


def test_a_missing_checkpoint_is_reported(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="no such checkpoint"):
        Trainer.load(tmp_path / "nope.pt")


def test_an_unknown_optimizer_is_refused() -> None:
    with pytest.raises(ValueError, match="optimizer must be"):
        TrainConfig(optimizer="adam")


OWNED = NetConfig(board=6, blocks=1, channels=8, score_head=True, ownership_head=True)


def owned_samples(count: int, seed: int) -> Samples:
    data = random_batch(6, count, np.random.default_rng(seed))
    # The side to move's discs now, as a stand-in for who owns them at the end.
    owners = data["planes"][:, 0].astype(np.int8) - data["planes"][:, 1].astype(np.int8)
    return Samples(**data, ownership=owners)


def test_the_ownership_head_learns_its_target_and_counts_only_when_weighted() -> None:
    batch = owned_samples(32, seed=5)
    trainer = Trainer(OWNED, TrainConfig(lr=0.05, augment=False, ownership_weight=1.0))
    before = trainer.evaluate(batch)
    for _ in range(40):
        trainer.train_step(batch)
    after = trainer.evaluate(batch)
    assert after.ownership < 0.7 * before.ownership
    unweighted = Trainer(OWNED, TrainConfig()).evaluate(batch)
    assert unweighted.ownership > 0
    assert unweighted.total == pytest.approx(unweighted.policy + unweighted.value)
    # Files without ownership add nothing to the loss.
    plain = Trainer(OWNED, TrainConfig(ownership_weight=1.0)).evaluate(samples(16, seed=6))
    assert plain.ownership == 0.0


def test_heads_can_be_added_to_a_trained_tower_on_resume(tmp_path: Path) -> None:
    bare = NetConfig(board=6, blocks=1, channels=8)
    trainer = Trainer(bare, TrainConfig(lr=0.05))
    trainer.train(samples(32, seed=7), 3)
    trainer.save(tmp_path / "bare.pt")
    grown = Trainer.load(tmp_path / "bare.pt", heads=OWNED)
    assert grown.net_config.score_head and grown.net_config.ownership_head
    assert grown.step == 3
    old, new = trainer.net.state_dict(), grown.net.state_dict()
    assert all(torch.equal(old[k], new[k]) for k in old)
    grown.train(owned_samples(32, seed=8), 2)
    # A head is never taken away, and the tower must fit.
    kept = Trainer.load(tmp_path / "bare.pt", heads=NetConfig(board=6, blocks=1, channels=8))
    assert not kept.net_config.ownership_head
    with pytest.raises(CheckpointError, match="tower differs"):
        Trainer.load(tmp_path / "bare.pt", heads=NetConfig(board=6, blocks=2, channels=8))
