import pytest
import torch

from train.net import NetConfig, OthelloNet, parameter_count


@pytest.mark.parametrize("board", [6, 8])
@pytest.mark.parametrize("score_head", [False, True])
def test_outputs_follow_the_model_contract(board: int, score_head: bool) -> None:
    net = OthelloNet(NetConfig(board=board, blocks=2, channels=8, score_head=score_head)).eval()
    out = net(torch.rand(3, 4, board, board))
    assert out.policy.shape == (3, board * board + 1)
    assert out.value.shape == (3, 1)
    assert (out.score is not None) == score_head
    if out.score is not None:
        assert out.score.shape == (3, 1)


def test_value_lies_in_minus_one_to_one() -> None:
    net = OthelloNet(NetConfig(board=6, blocks=1, channels=8)).eval()
    with torch.no_grad():
        for p in net.value_fc2.parameters():
            p.fill_(50.0)  # drive tanh into saturation
        value = net(torch.rand(16, 4, 6, 6)).value
    assert value.abs().max() <= 1.0


def test_tower_size_follows_blocks_and_channels() -> None:
    small = parameter_count(OthelloNet(NetConfig(board=8, blocks=1, channels=8)))
    deeper = parameter_count(OthelloNet(NetConfig(board=8, blocks=2, channels=8)))
    wider = parameter_count(OthelloNet(NetConfig(board=8, blocks=1, channels=16)))
    # One more block is two 3x3 convs and two batch norms.
    assert deeper - small == 2 * (8 * 8 * 9 + 2 * 8)
    assert wider > deeper


@pytest.mark.parametrize("board", [4, 7, 10])
def test_only_6_and_8_boards_are_supported(board: int) -> None:
    with pytest.raises(ValueError, match=f"board size {board}"):
        NetConfig(board=board)
