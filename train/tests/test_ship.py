import json
from pathlib import Path

import pytest

from train.ship import main, ship


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


def model_files(tmp_path: Path) -> Path:
    run = tmp_path / "run" / "models"
    run.mkdir(parents=True)
    (run / "gen-0007.onnx").write_bytes(b"onnx bytes")
    write(run / "gen-0007.json", {"name": "gen-0007", "board_size": 6, "variant": "standard",
                                  "training": {"run": "r", "generation": 7}})  # fmt: skip
    return run / "gen-0007.onnx"


def arena_report(model: Path) -> dict:
    theirs = {"games": 20, "wins": 15, "draws": 1, "losses": 4, "score": 0.775, "mean_margin": 6.5}
    ours = {"games": 20, "wins": 4, "draws": 1, "losses": 15, "score": 0.225, "mean_margin": -6.5}
    return {
        "board": "6x6",
        "anchor": "random",
        "openings": ["d3c5", "c4e3"],
        "players": ["heuristic", f"mcts:model={model},sims=800", "random"],
        "ratings": [{"player": f"mcts:model={model},sims=800", "elo": 900.04}],
        # every pairing from both sides, as othello arena writes them
        "pairings": [
            {"player": 0, "opponent": 1, "total": theirs},
            {"player": 1, "opponent": 0, "total": ours},
            {"player": 0, "opponent": 2, "total": theirs},
        ],
    }


def test_a_shipped_model_carries_what_it_was_measured_against(tmp_path: Path) -> None:
    model = model_files(tmp_path)
    arena = write(tmp_path / "arena.json", arena_report(model))
    moves = [
        {"played_margin": 4, "best_margin": 4},
        {"played_margin": 2, "best_margin": 4},
        {"played_margin": -2, "best_margin": 0},
        {"played_margin": -6, "best_margin": -2},
    ]
    accuracy = write(tmp_path / "acc.json", {"player": "p", "sparring": "s", "max_empties": 26,
                                              "moves": moves})  # fmt: skip
    out = tmp_path / "models"
    target = ship(model, "az-6x6", out, [arena], accuracy)
    assert target.read_bytes() == b"onnx bytes"
    card = json.loads((out / "az-6x6.json").read_text())
    assert card["name"] == "az-6x6"
    assert card["board_size"] == 6 and card["training"]["generation"] == 7
    [result] = card["strength"]["arena"][0]["results"]
    assert result["opponent"] == "heuristic"
    assert (result["wins"], result["draws"], result["losses"]) == (4, 1, 15)
    assert result["score"] == 0.225 and result["mean_margin"] == -6.5
    assert card["strength"]["arena"][0]["elo"] == 900.0
    assert card["strength"]["arena"][0]["openings"] == "random 4-8 ply openings"
    assert card["strength"]["accuracy"]["optimal"] == 0.25
    assert card["strength"]["accuracy"]["keeps_result"] == 0.75
    assert "exact_positions" not in card["strength"]["accuracy"]


def test_win_loss_draw_labels_count_toward_the_result_kept_only(tmp_path: Path) -> None:
    model = model_files(tmp_path)
    arena = write(tmp_path / "arena.json", arena_report(model))
    moves = [
        {"played_margin": 4, "best_margin": 4},
        {"played_margin": 2, "best_margin": 4},
        {"played_margin": -1, "best_margin": 1, "exact": False},
        {"played_margin": 1, "best_margin": 1, "exact": False},
        {"played_margin": -1, "best_margin": -1, "exact": False},
    ]
    accuracy = write(tmp_path / "acc.json", {"player": "p", "sparring": "s", "min_empties": 24,
                                              "max_empties": 30, "moves": moves})  # fmt: skip
    ship(model, "az-6x6", tmp_path / "models", [arena], accuracy)
    card = json.loads((tmp_path / "models" / "az-6x6.json").read_text())
    assert card["strength"]["accuracy"]["optimal"] == 0.5
    assert card["strength"]["accuracy"]["exact_positions"] == 2
    assert card["strength"]["accuracy"]["keeps_result"] == 0.8
    results = {"player": "p", "sparring": "s", "max_empties": 30, "moves": moves[2:]}
    only_results = write(tmp_path / "wld.json", results)
    ship(model, "az-6x6", tmp_path / "models", [arena], only_results)
    card = json.loads((tmp_path / "models" / "az-6x6.json").read_text())
    assert "optimal" not in card["strength"]["accuracy"]
    assert card["strength"]["accuracy"]["keeps_result"] == round(2 / 3, 4)


def test_an_arena_report_without_the_model_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = model_files(tmp_path)
    arena = write(tmp_path / "arena.json", arena_report(tmp_path / "other.onnx"))
    args = ["--model", str(model), "--name", "x", "--out", str(tmp_path / "m")]
    assert main([*args, "--arena", str(arena)]) == 1
    assert "0 players using" in capsys.readouterr().err
    assert not (tmp_path / "m" / "x.json").exists()
    (tmp_path / "bad.json").write_text("{")
    assert main([*args, "--accuracy", str(tmp_path / "bad.json")]) == 1
    assert "cannot read accuracy report" in capsys.readouterr().err


def test_shipping_a_shipped_model_again_only_replaces_its_strength(tmp_path: Path) -> None:
    out = tmp_path / "models"
    shipped = ship(model_files(tmp_path), "az-6x6", out, [], None)
    card_before = json.loads((out / "az-6x6.json").read_text())
    arena = write(tmp_path / "arena.json", arena_report(shipped))
    assert ship(shipped, "az-6x6", out, [arena], None) == shipped
    assert shipped.read_bytes() == b"onnx bytes"
    card = json.loads((out / "az-6x6.json").read_text())
    assert card["training"] == card_before["training"]
    assert card["training"]["source"].endswith("run/models/gen-0007.onnx")
    assert card["strength"]["arena"][0]["results"][0]["wins"] == 4


def test_the_card_says_which_openings_the_arena_started_from() -> None:
    from train.ship import openings_label

    path = Path(__file__).resolve().parents[2] / "crates" / "othello" / "data" / "xot-8x8.txt"
    xot = [line.split("#")[0].strip() for line in path.read_text().splitlines()]
    xot = [line for line in xot if line]
    assert openings_label(["", ""], 8) == "the initial position"
    assert openings_label(xot[:3], 8) == "XOT openings"
    assert openings_label([*xot[:3], "f5d6c3"], 8) == "random 4-8 ply openings"
