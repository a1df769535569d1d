import json
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

from train import swa
from train.data import Samples
from train.net import NetConfig, OthelloNet
from train.tests.positions import random_batch
from train.train import CheckpointError, TrainConfig, Trainer

NET = NetConfig(board=6, blocks=1, channels=8, score_head=True)


def samples(count: int, seed: int) -> Samples:
    return Samples(**random_batch(6, count, np.random.default_rng(seed)))


def make_run(run: Path, generations: int, net: NetConfig = NET) -> list[Trainer]:
    """A run directory with one checkpoint and one self-play file a generation, the
    network trained on between them, as the loop leaves it."""
    trainer = Trainer(net, TrainConfig(batch_size=16, lr=0.05, seed=1))
    kept = []
    for generation in range(1, generations + 1):
        data = samples(48, seed=generation)
        folder = run / "data" / f"gen-{generation:04d}"
        folder.mkdir(parents=True)
        np.savez(folder / "games.npz", **data.columns())
        trainer.train(data, 3)
        trainer.save(run / "checkpoints" / f"gen-{generation:04d}.pt")
        kept.append(Trainer.load(run / "checkpoints" / f"gen-{generation:04d}.pt"))
    return kept


def test_the_average_is_the_mean_of_the_last_generations_weights(tmp_path: Path) -> None:
    trainers = make_run(tmp_path, 4)
    taken = swa.checkpoint_paths(tmp_path, 3, upto=None)
    assert [g for g, _ in taken] == [2, 3, 4]
    config, mean = swa.average_weights([p for _, p in taken])
    assert config == NET
    for name, tensor in mean.items():
        if not tensor.is_floating_point():
            continue
        by_hand = sum(t.net.state_dict()[name] for t in trainers[1:]) / 3
        assert torch.allclose(tensor, by_hand, atol=1e-6), name
    # The weights really differ between generations, so the mean is none of them.
    weight = "stem.0.weight"
    assert not torch.allclose(mean[weight], trainers[-1].net.state_dict()[weight])


def test_upto_stops_at_an_earlier_generation(tmp_path: Path) -> None:
    make_run(tmp_path, 4)
    assert [g for g, _ in swa.checkpoint_paths(tmp_path, 2, upto=3)] == [2, 3]


def test_asking_for_more_generations_than_there_are_is_refused(tmp_path: Path) -> None:
    make_run(tmp_path, 2)
    with pytest.raises(CheckpointError, match="2 generation checkpoints, 3 wanted"):
        swa.checkpoint_paths(tmp_path, 3, upto=None)


def test_checkpoints_of_different_networks_are_not_averaged(tmp_path: Path) -> None:
    make_run(tmp_path / "a", 1)
    make_run(tmp_path / "b", 1, NetConfig(board=6, blocks=1, channels=4, score_head=True))
    paths = [tmp_path / r / "checkpoints" / "gen-0001.pt" for r in "ab"]
    with pytest.raises(CheckpointError, match="networks differ"):
        swa.average_weights(paths)


def test_batch_norm_is_measured_afresh_on_the_data(tmp_path: Path) -> None:
    net = OthelloNet(NET)
    planes = samples(100, seed=9).planes
    swa.refresh_batch_norm(net, planes, batch=32, seed=0)
    first = next(m for m in net.modules() if isinstance(m, nn.BatchNorm2d))
    conv = next(m for m in net.modules() if isinstance(m, nn.Conv2d))
    with torch.no_grad():
        out = conv(torch.from_numpy(planes).float())
    # The cumulative mean over batches of 32, 32, 32 and 4 weighs each batch by one, not
    # by its size (update_bn's procedure), so the check is loose: about the data's mean.
    assert torch.allclose(first.running_mean, out.mean(dim=(0, 2, 3)), atol=0.05)
    assert not net.training


@pytest.mark.filterwarnings("ignore:.*no sidecar")
def test_the_command_writes_a_checked_network_and_a_card_naming_its_generations(
    tmp_path: Path,
) -> None:
    make_run(tmp_path / "run", 3)
    out = tmp_path / "out" / "swa"
    assert swa.main(["--run", str(tmp_path / "run"), "--last", "2", "--out", str(out)]) == 0
    card = json.loads(out.with_suffix(".json").read_text())
    assert card["training"]["averaged_generations"] == [2, 3]
    assert out.with_suffix(".onnx").is_file()


def test_the_command_reports_a_missing_run_once(tmp_path: Path, capsys) -> None:
    assert swa.main(["--run", str(tmp_path / "none"), "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and "checkpoints" in err
