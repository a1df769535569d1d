import pytest
import torch

from train.net import GlobalPoolingBlock, NetConfig, OthelloNet, ResidualBlock, parameter_count


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


def test_the_input_set_gives_the_stem_its_planes() -> None:
    v2 = NetConfig(board=8, blocks=1, channels=8, inputs="v2")
    assert v2.planes == 10 and v2.plane_names[:4] == ("own", "opponent", "legal", "ones")
    net = OthelloNet(v2).eval()
    assert net.stem[0].in_channels == 10
    assert net(torch.rand(2, 10, 8, 8)).policy.shape == (2, 65)
    # Saved configs from before input sets had names: four planes, v1.
    old = NetConfig.from_dict({"board": 6, "blocks": 1, "channels": 8, "planes": 4})
    assert old.inputs == "v1" and old == NetConfig(board=6, blocks=1, channels=8)
    assert NetConfig(board=6, inputs="own,opponent,legal,ones").inputs == "v1"
    with pytest.raises(ValueError, match="'mobility' is not known"):
        NetConfig(board=6, inputs="own,mobility")
    with pytest.raises(ValueError, match="4 input planes, but input set v2 has 10"):
        NetConfig(board=6, inputs="v2", planes=4)


def test_global_pooling_sits_in_every_second_block() -> None:
    net = OthelloNet(NetConfig(board=6, blocks=4, channels=8, global_pool=4))
    kinds = [type(block) for block in net.tower]
    assert kinds == [ResidualBlock, GlobalPoolingBlock, ResidualBlock, GlobalPoolingBlock]
    with pytest.raises(ValueError, match="global pooling of 8 channels"):
        NetConfig(board=6, channels=8, global_pool=8)


def test_a_global_pooling_block_adds_a_bias_from_the_mean_and_max_of_its_branch() -> None:
    """The block against its definition written out: the pooled branch's mean and max over
    the board, mapped to one bias per channel and added to the first convolution."""
    torch.manual_seed(0)
    block = GlobalPoolingBlock(channels=6, pooled=3).eval()
    x = torch.randn(2, 6, 5, 5)
    with torch.no_grad():
        g = torch.relu(block.g(x))
        mean = g.sum(dim=(2, 3)) / 25
        peak = g.flatten(2).max(dim=2).values
        bias = torch.cat([mean, peak], dim=1) @ block.bias.weight.T
        a = torch.relu(block.a(x) + bias[:, :, None, None])
        want = torch.relu(x + block.b(a))
        torch.testing.assert_close(block(x), want)
        # A square far from a change still hears of it: not so without the pooling.
        y = x.clone()
        y[:, :, 0, 0] += 5.0
        assert not torch.allclose(block(x)[:, :, 4, 4], block(y)[:, :, 4, 4])
