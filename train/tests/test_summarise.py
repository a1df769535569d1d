"""A finished run's summary (train.summarise) from a small made-up run folder."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from train import summarise


def arena(players: list[str], wins: int, draws: int, losses: int) -> dict:
    games = wins + draws + losses
    half = {"games": games // 2, "wins": wins // 2, "draws": draws // 2, "losses": losses // 2}
    total = {"games": games, "wins": wins, "draws": draws, "losses": losses}
    score = (wins + draws / 2) / games
    return {
        "players": players,
        "ratings": [
            {"player": players[0], "elo": 0.0, "low": 0.0, "high": 0.0},
            {"player": players[1], "elo": -70.4, "low": -119.0, "high": -21.2},
        ],
        "pairings": [
            {"player": 0, "opponent": 1, "total": total | {"score": score, "mean_margin": 3.9},
             "as_black": half | {"score": score}, "as_white": half | {"score": score}},
            {"player": 1, "opponent": 0, "total": total | {"score": 1 - score}},
        ],
        "games": [],
    }  # fmt: skip


def make_run(root: Path) -> Path:
    run = root / "8x8-z"
    (run / "ship" / "gen-2").mkdir(parents=True)
    (run / "state.json").write_text(
        json.dumps({"generation": 3, "best_generation": 2, "step": 900, "cpu_hours": 1.234})
    )
    (run / "config.json").write_text(
        json.dumps({"board": 8, "blocks": 4, "channels": 32, "gate_games": 40,
                    "gate_threshold": 0.55,
                    "eval_players": "mcts:model=/home/someone/othello/models/x.onnx,sims=200"})
    )  # fmt: skip
    (run / "metrics.csv").write_text(
        "generation,step,positions,loss,gate_score,promoted,elo,elo_low,elo_high,cpu_hours\n"
        "0,300,1000,2.5,,1,-100,-200,-0.2,0.4\n"
        "1,600,2000,2.4,0.45,0,,,,0.8\n"
        "2,900,3000,2.3,0.6,1,50.4,-10,110,1.234\n"
    )
    (run / "best.json").write_text(
        json.dumps({"name": "gen-0002", "board_size": 8, "planes": 4,
                    "outputs": {"policy": [], "value": []},
                    "network": {"kind": "residual tower", "blocks": 4, "channels": 32},
                    "parameters": 88168, "training": {"run": "8x8-z", "generation": 2},
                    "date": "2026-11-28", "strength": "not yet measured"})
    )  # fmt: skip
    (run / "log.txt").write_text("2026-11-26 10:00:00 gen 0\n2026-11-28 09:00:00 gen 2\n")
    players = ["mcts:model=runs/8x8-z/models/gen-0002.onnx,sims=800", "heuristic"]
    (run / "ship" / "gen-2" / "arena.json").write_text(json.dumps(arena(players, 115, 10, 75)))
    with gzip.open(run / "ship" / "gen-2" / "xot.json.gz", "wt") as f:
        json.dump(arena(players, 60, 0, 40), f)
    moves = [
        {"position": "a", "empties": 20, "played": "c4", "played_margin": 4, "best_margin": 4},
        {"position": "b", "empties": 22, "played": "d3", "played_margin": 2, "best_margin": 6},
        {"position": "c", "empties": 24, "played": "e6", "played_margin": -2, "best_margin": 2},
        {"position": "d", "empties": 24, "played": "f5", "played_margin": 0, "best_margin": 0},
    ]
    (run / "accuracy.json").write_text(json.dumps({"player": "mcts:x", "moves": moves}))
    return run


def test_summary_holds_the_run_its_card_and_its_records(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    assert summarise.main([str(run)]) == 0
    text = (run / summarise.NAME).read_text()
    assert "- generations played: 3 (0 to 2)" in text
    assert "- best network: generation 2" in text
    assert "- CPU-hours: 1.23" in text
    assert "- gate: 40 games against the best network, promoted at 0.55" in text
    assert "- log: 2026-11-26 to 2026-11-28" in text
    # The gating table: one row a generation, an Elo interval's -0 written as 0.
    assert "| 0 | 300 | 1000 | 2.500 |  | yes | -100 [-200, 0] | 0.40 |" in text
    assert "| 1 | 600 | 2000 | 2.400 | 0.450 | no |  | 0.80 |" in text
    assert "| 2 | 900 | 3000 | 2.300 | 0.600 | yes | 50 [-10, 110] | 1.23 |" in text
    # The card.
    assert "- name `gen-0002`, board 8, variant standard, 4 input planes" in text
    assert "88168 parameters" in text and "trained: run 8x8-z, generation 2" in text
    # Arena records, gzipped or not, each pairing once.
    assert (
        "| ship/gen-2/arena.json | `mcts:model=runs/8x8-z/models/gen-0002.onnx,sims=800` "
        "| `heuristic` | 200 | 115-10-75, 60.0% |"
    ) in text
    assert "| ship/gen-2/xot.json.gz |" in text and "60-0-40, 60.0%" in text
    assert "-70 [-119, -21] |" in text
    assert text.count("| `heuristic` | `mcts:") == 0
    # The accuracy report: 2 of 4 optimal, 3 keep the result, (0+4+4+0)/4 discs lost.
    assert "| accuracy.json | `mcts:x` | 4 | 2 (50.0%) | 3 (75.0%) | 2.00 |" in text
    # No path of the machine the run was on.
    assert "/home/someone" not in text
    assert "`mcts:model=models/x.onnx,sims=200`" in text


def test_a_folder_of_runs_has_a_section_for_each(tmp_path: Path) -> None:
    make_run(tmp_path / "ablation")
    second = make_run(tmp_path / "ablation" / "more")
    (second / "state.json").write_text(json.dumps({"iteration": 31, "games": 1984}))
    (second / "metrics.csv").write_text(
        "iteration,games,positions,loss,win_rate,elo,elo_low,elo_high,cpu_hours,seconds\n"
        "1,64,2712,0.93824,0.2778,141.3,58.7,223.9,0.00111,7.9\n"
    )
    text = summarise.summarise(tmp_path / "ablation")
    assert "## Run `8x8-z`" in text and "## Run `more/8x8-z`" in text
    assert "- iterations: 31, games: 1984" in text
    assert "| 1 | 64 | 0.938 | 0.278 | 141 [59, 224] | 0.001 |" in text


def test_an_empty_folder_says_so_and_a_missing_one_fails(tmp_path: Path) -> None:
    assert "No run, arena record or accuracy report" in summarise.summarise(tmp_path)
    assert summarise.main([str(tmp_path / "nothing"), "--stdout"]) == 2
