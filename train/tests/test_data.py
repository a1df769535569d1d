from pathlib import Path

import numpy as np
import pytest

from train.data import (
    SYMMETRIES,
    DataError,
    augment,
    inverse,
    load_npz,
    load_window,
    transform,
    transform_grid,
    transform_policy,
)
from train.tests.positions import legal, random_positions, write_batch


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    return random_positions(8, 40, np.random.default_rng(7))


def test_a_valid_file_loads(tmp_path: Path) -> None:
    samples = load_npz(write_batch(tmp_path / "a.npz", 6, 12, seed=1), board=6)
    assert len(samples) == 12
    assert samples.planes.dtype == np.uint8
    assert samples.policy.shape == (12, 37)


def test_a_missing_array_is_named(tmp_path: Path) -> None:
    path = write_batch(tmp_path / "a.npz", 6, 4, seed=1)
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files if k != "score"}
    np.savez(path, **arrays)
    with pytest.raises(DataError, match=r"missing arrays \['score'\]"):
        load_npz(path, board=6)


def test_a_file_for_another_board_size_is_refused(tmp_path: Path) -> None:
    path = write_batch(tmp_path / "a.npz", 8, 4, seed=1)
    with pytest.raises(DataError, match="board size 8, expected 6"):
        load_npz(path, board=6)


def test_arrays_of_different_lengths_are_refused(tmp_path: Path) -> None:
    path = write_batch(tmp_path / "a.npz", 6, 4, seed=1, value=np.zeros(3, np.float32))
    with pytest.raises(DataError, match="mismatched lengths"):
        load_npz(path, board=6)


def test_a_policy_of_the_wrong_width_is_refused(tmp_path: Path) -> None:
    path = write_batch(tmp_path / "a.npz", 6, 4, seed=1, policy=np.ones((4, 36), np.float32))
    with pytest.raises(DataError, match=r"policy must be \[n, 37\]"):
        load_npz(path, board=6)


def test_visit_counts_become_a_distribution(tmp_path: Path) -> None:
    counts = np.zeros((2, 37), np.float32)
    counts[0, [3, 5]] = [30, 10]
    counts[1, 36] = 7  # a forced pass
    path = write_batch(tmp_path / "a.npz", 6, 2, seed=1, policy=counts)
    policy = load_npz(path, board=6).policy
    assert policy[0, 3] == 0.75 and policy[0, 5] == 0.25 and policy[1, 36] == 1.0


def test_a_policy_row_without_visits_is_refused(tmp_path: Path) -> None:
    path = write_batch(tmp_path / "a.npz", 6, 2, seed=1, policy=np.zeros((2, 37), np.float32))
    with pytest.raises(DataError, match="policy row 0 is all zeros"):
        load_npz(path, board=6)


def test_a_value_outside_the_outcome_range_is_refused(tmp_path: Path) -> None:
    path = write_batch(tmp_path / "a.npz", 6, 2, seed=1, value=np.array([1.0, 36.0], np.float32))
    with pytest.raises(DataError, match=r"value outside \[-1, 1\]"):
        load_npz(path, board=6)


def test_a_sidecar_naming_another_board_is_refused(tmp_path: Path) -> None:
    path = write_batch(tmp_path / "a.npz", 6, 4, seed=1)
    path.with_suffix(".json").write_text('{"board": 8}')
    with pytest.raises(DataError, match="sidecar says board 8"):
        load_npz(path, board=6)


def test_a_file_that_is_not_npz_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.npz"
    path.write_bytes(b"not a zip file")
    with pytest.raises(DataError, match=r"not a readable \.npz"):
        load_npz(path, board=6)


def test_a_missing_data_directory_is_reported(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no self-play data directory"):
        load_window(tmp_path / "nothing-here", board=6, window=2)


def test_an_empty_window_is_reported(tmp_path: Path) -> None:
    (tmp_path / "gen-0000").mkdir()
    with pytest.raises(DataError, match=r"no \.npz self-play files"):
        load_window(tmp_path, board=6, window=2)


def test_the_window_holds_only_the_last_k_generations(tmp_path: Path) -> None:
    for gen, count in enumerate([3, 5, 7, 11]):
        write_batch(tmp_path / f"gen-{gen:04d}" / "batch.npz", 6, count, seed=gen)
    assert len(load_window(tmp_path, board=6, window=2)) == 7 + 11
    assert len(load_window(tmp_path, board=6, window=10)) == 3 + 5 + 7 + 11
    assert len(load_window(tmp_path, board=6, window=2, upto=1)) == 3 + 5


def test_the_eight_symmetries_are_distinct() -> None:
    grid = np.arange(64).reshape(8, 8)
    images = {transform_grid(grid, s).tobytes() for s in range(len(SYMMETRIES))}
    assert len(SYMMETRIES) == 8
    assert len(images) == 8


@pytest.mark.parametrize("sym", range(8))
def test_the_inverse_undoes_a_symmetry(sym: int) -> None:
    grid = np.arange(2 * 36).reshape(2, 6, 6)
    assert np.array_equal(transform_grid(transform_grid(grid, sym), inverse(sym)), grid)
    policy = np.arange(37.0)
    assert np.array_equal(transform_policy(transform_policy(policy, sym), inverse(sym)), policy)


@pytest.mark.parametrize("sym", range(8))
def test_a_symmetric_image_of_a_position_has_the_image_of_its_legal_moves(
    positions: np.ndarray, sym: int
) -> None:
    for p in positions:
        t = transform_grid(p, sym)
        assert np.array_equal(t[2].astype(bool), legal(t[0].astype(bool), t[1].astype(bool)))


@pytest.mark.parametrize("sym", range(8))
def test_a_move_stays_on_a_legal_square_of_the_transformed_position(
    positions: np.ndarray, sym: int
) -> None:
    for p in positions[:10]:
        for square in np.flatnonzero(p[2].reshape(-1)):
            policy = np.zeros(65, np.float32)
            policy[square] = 1.0
            planes, moved = transform(p, policy, sym)
            assert moved.sum() == 1.0 and moved[64] == 0.0
            target = int(np.argmax(moved))
            assert planes[2].reshape(-1)[target] == 1
            # and to the same square the disc planes put it: mark it and compare
            marker = np.zeros(64)
            marker[square] = 1
            marked = transform_grid(marker.reshape(8, 8), sym).reshape(-1)
            assert int(np.argmax(marked)) == target


def test_the_pass_entry_stays_put() -> None:
    policy = np.zeros(37, np.float32)
    policy[36] = 1.0
    for sym in range(8):
        assert np.array_equal(transform_policy(policy, sym), policy)


def test_augmentation_keeps_planes_and_policy_together(positions: np.ndarray) -> None:
    rng = np.random.default_rng(3)
    n = len(positions)
    policy = np.zeros((n, 65), np.float32)
    for i, p in enumerate(positions):
        policy[i, rng.choice(np.flatnonzero(p[2].reshape(-1)))] = 1.0
    planes, moved, _ = augment(positions, policy, rng)
    changed = sum(not np.array_equal(a, b) for a, b in zip(planes, positions, strict=True))
    assert changed > n // 2  # most samples were actually transformed
    for p, pol in zip(planes, moved, strict=True):
        assert p[2].reshape(-1)[int(np.argmax(pol[:64]))] == 1
        assert np.array_equal(p[2].astype(bool), legal(p[0].astype(bool), p[1].astype(bool)))


def test_ownership_is_loaded_checked_and_moved_with_the_board(tmp_path: Path) -> None:
    # Older files have no ownership: every row says so.
    old = load_npz(write_batch(tmp_path / "old.npz", 6, 5, seed=1), board=6)
    assert old.has_ownership is not None and not old.has_ownership.any()
    rng = np.random.default_rng(2)
    owners = rng.integers(-1, 2, size=(5, 6, 6)).astype(np.int8)
    new = load_npz(write_batch(tmp_path / "new.npz", 6, 5, seed=1, ownership=owners), board=6)
    assert new.has_ownership is not None and new.has_ownership.all()
    np.testing.assert_array_equal(new.ownership, owners)
    with pytest.raises(DataError, match="ownership must be"):
        load_npz(write_batch(tmp_path / "bad.npz", 6, 5, seed=1, ownership=owners[:, :5]), 6)
    with pytest.raises(DataError, match="-1, 0 or 1"):
        load_npz(write_batch(tmp_path / "bad2.npz", 6, 5, seed=1, ownership=owners * 2), 6)


def test_augmentation_moves_the_ownership_grid_with_the_discs(positions: np.ndarray) -> None:
    rng = np.random.default_rng(4)
    n = len(positions)
    # Ownership that marks the side to move's discs: it must still mark them afterwards.
    owners = positions[:, 0].astype(np.int8) - positions[:, 1].astype(np.int8)
    policy = np.zeros((n, 65), np.float32)
    policy[:, 64] = 1.0
    planes, _, moved = augment(positions, policy, rng, owners)
    assert moved is not None
    expected = planes[:, 0].astype(np.int8) - planes[:, 1].astype(np.int8)
    np.testing.assert_array_equal(moved, expected)


def test_rows_without_an_ownership_target_are_marked(tmp_path: Path) -> None:
    ownership = np.ones((4, 6, 6), np.int8)
    known = np.array([1, 0, 1, 0], np.uint8)
    path = write_batch(tmp_path / "a.npz", 6, 4, seed=1, ownership=ownership, has_ownership=known)
    samples = load_npz(path, board=6)
    assert samples.has_ownership is not None
    assert samples.has_ownership.tolist() == [True, False, True, False]
    # Files from before the column: every row with an ownership array has a target.
    plain = write_batch(tmp_path / "b.npz", 6, 4, seed=1, ownership=ownership)
    assert load_npz(plain, board=6).has_ownership.tolist() == [True] * 4  # type: ignore[union-attr]
    bad = write_batch(
        tmp_path / "c.npz", 6, 4, seed=1, ownership=ownership, has_ownership=known[:3]
    )
    with pytest.raises(DataError, match="has_ownership must be"):
        load_npz(bad, board=6)
