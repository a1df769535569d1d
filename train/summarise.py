"""A finished run's summary: what git keeps of it once its checkpoints, networks and game
records leave the tree (docs/training.md, "What a run keeps in git").

    python -m train.summarise runs/NAME [runs/OTHER ...] [--stdout]

Writes `runs/NAME/SUMMARY.md`, built only from the files the folder holds: for every run
in it (a folder with `state.json`: the folder itself, or runs under it, as in
`runs/ablation/`) its generations (or a learner's iterations), CPU-hours, best
generation, the gating table from `metrics.csv` (one row a generation: steps, positions,
loss, gate score, promoted, Elo with its 95% interval, CPU-hours so far) and the final
network's card (`best.json`, which stays beside the summary); then every arena record in
the folder (`arena*.json`, `.json.gz`, `matches/*.json`): its players, games, the first
player's wins, draws and losses by colour and the arena's Elo; and every accuracy report
(`othello accuracy --json`: a `moves` list): optimal moves, kept results, discs lost a
move. Run it before the records are removed: the summary is what stays of them (their
games stay in git's history). Paths in the summary are relative to the folder.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import re
import sys
from pathlib import Path
from typing import Any

NAME = "SUMMARY.md"
# An absolute path before the project's own folders (a config's or a record's player spec
# written on some machine): the summary keeps the path from the project's root.
LOCAL_PREFIX = re.compile(r"(?<![\w.])/[^\s,=`'\"]*?/(?=(?:models|runs|target|books|openings)/)")


class SummaryError(ValueError):
    pass


def read_json(path: Path) -> Any:
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError, EOFError) as e:
        raise SummaryError(f"{path}: not readable as JSON: {e}") from e


def read_metrics(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def number(text: str | None, digits: int = 2) -> str:
    if text is None or text == "":
        return ""
    x = float(text)
    if math.isnan(x):
        return ""
    text = f"{x:.{digits}f}"
    return text[1:] if text.lstrip("-0.") == "" else text  # no "-0"


def elo_text(row: dict[str, str], key: str = "elo") -> str:
    elo = row.get(key, "")
    if elo == "":
        return ""
    low, high = row.get(f"{key}_low", ""), row.get(f"{key}_high", "")
    interval = f" [{number(low, 0)}, {number(high, 0)}]" if low != "" and high != "" else ""
    return f"{number(elo, 0)}{interval}"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return out


def log_span(path: Path) -> str:
    """The dates of the log's first and last timestamped lines."""
    if not path.is_file():
        return ""
    dates = [
        line[:10]
        for line in path.read_text(errors="replace").splitlines()
        if len(line) >= 10 and line[:4].isdigit() and line[4] == "-" and line[7] == "-"
    ]
    if not dates:
        return ""
    return dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"


def loop_rows(rows: list[dict[str, str]]) -> tuple[list[str], list[list[str]]]:
    """The gating table of an AlphaZero loop's run (`train.loop`): one row a generation."""
    has_cpu = any(r.get("cpu_hours", "") != "" for r in rows)
    has_gate = any(r.get("gate_score", "") != "" for r in rows)
    header = ["generation", "steps", "positions", "loss"]
    header += ["gate score", "promoted"] if has_gate else ["promoted"]
    header += ["Elo [95%]"] + (["CPU-hours"] if has_cpu else [])
    out = []
    for r in rows:
        cells = [
            r["generation"],
            r.get("step", ""),
            r.get("positions", ""),
            number(r.get("loss"), 3),
        ]
        if has_gate:
            cells.append(number(r.get("gate_score"), 3))
        cells.append({"1": "yes", "0": "no"}.get(r.get("promoted", ""), ""))
        cells.append(elo_text(r))
        if has_cpu:
            cells.append(number(r.get("cpu_hours"), 2))
        out.append(cells)
    return header, out


def learner_rows(rows: list[dict[str, str]]) -> tuple[list[str], list[list[str]]]:
    """A learner's evaluations (`train.rl`: DQN, REINFORCE, A2C): one row each."""
    heuristic = any(r.get("heuristic_score", "") != "" for r in rows)
    header = ["iteration", "games", "loss", "win rate", "Elo [95%]"]
    header += ["score against heuristic [95%]"] if heuristic else []
    header += ["CPU-hours"]
    out = []
    for r in rows:
        cells = [r["iteration"], r.get("games", ""), number(r.get("loss"), 3)]
        cells += [number(r.get("win_rate"), 3), elo_text(r)]
        if heuristic:
            h = r.get("heuristic_score", "")
            low, high = r.get("heuristic_low", ""), r.get("heuristic_high", "")
            cells.append(f"{number(h, 3)} [{number(low, 3)}, {number(high, 3)}]" if h else "")
        cells.append(number(r.get("cpu_hours"), 3))
        out.append(cells)
    return header, out


def card_lines(card: dict[str, Any]) -> list[str]:
    net = card.get("network", {})
    shape = f"{net.get('blocks', '?')}x{net.get('channels', '?')}" if net else "?"
    training = card.get("training", {})
    trained = ", ".join(f"{k} {v}" for k, v in training.items()) if training else ""
    strength = card.get("strength", "")
    if not isinstance(strength, str):
        strength = json.dumps(strength)[:300]
    return [
        f"- name `{card.get('name', '?')}`, board {card.get('board_size', '?')}, "
        f"variant {card.get('variant', 'standard')}, {card.get('planes', '?')} input planes",
        f"- network: {shape} ({net.get('kind', '?')}), {card.get('parameters', '?')} parameters",
        f"- outputs: {', '.join(card.get('outputs', {}))}",
        f"- trained: {trained}; dated {card.get('date', '?')}",
        f"- strength: {strength}",
    ]


def run_section(run: Path, folder: Path) -> list[str]:
    state = read_json(run / "state.json")
    config = read_json(run / "config.json") if (run / "config.json").is_file() else {}
    rows = read_metrics(run / "metrics.csv")
    name = run.relative_to(folder).as_posix() if run != folder else run.name
    out = [f"## Run `{name}`", ""]
    facts = []
    if "generation" in state:
        facts.append(f"generations played: {state['generation']} (0 to {state['generation'] - 1})")
        if "best_generation" in state:
            facts.append(f"best network: generation {state['best_generation']}")
        elif "best" in state:
            facts.append(f"best network: {state['best']}")
        if state.get("step") is not None:
            facts.append(f"training steps: {state['step']}")
    elif "iteration" in state:
        facts.append(f"iterations: {state['iteration']}, games: {state.get('games', '?')}")
        if "positions" in state:
            facts.append(f"positions: {state['positions']}")
    if "cpu_hours" in state:
        facts.append(f"CPU-hours: {state['cpu_hours']:.2f}")
    else:
        seconds = sum(
            float(r.get(k) or 0) for r in rows for k in ("selfplay_seconds", "train_seconds")
        )
        facts.append(
            "CPU-hours: not recorded (the run predates the count; its self-play and "
            f"training took {seconds / 3600:.2f} hours of wall time)"
        )
    if config:
        shape = [f"board {config['board']}"] if "board" in config else []
        if "blocks" in config:
            shape.append(f"{config['blocks']}x{config.get('channels', '?')} tower")
        facts.append(", ".join(shape) if shape else "")
    if config.get("gate_games"):
        facts.append(
            f"gate: {config['gate_games']} games against the best network, promoted at "
            f"{config.get('gate_threshold', '?')}"
        )
    if config.get("eval_players"):
        facts.append(f"Elo measured against: `{config['eval_players']}`")
    span = log_span(run / "log.txt")
    if span:
        facts.append(f"log: {span}")
    out += [f"- {f}" for f in facts if f] + [""]
    if rows:
        header, body = learner_rows(rows) if "iteration" in rows[0] else loop_rows(rows)
        title = "Evaluations" if "iteration" in rows[0] else "Gating table"
        out += [f"### {title} (metrics.csv)", "", *table(header, body), ""]
    if (run / "best.json").is_file():
        out += [
            "### Final network's card (best.json)",
            "",
            *card_lines(read_json(run / "best.json")),
        ]
        out.append("")
    return out


def is_arena(report: Any) -> bool:
    return isinstance(report, dict) and "players" in report and "pairings" in report


def arena_rows(path: Path, folder: Path, report: dict[str, Any]) -> list[list[str]]:
    players: list[str] = report["players"]
    ratings = {r["player"]: r for r in report.get("ratings", [])}
    out = []
    for p in report["pairings"]:
        if p["player"] > p["opponent"]:
            continue  # each pairing once, from its first player's side

        def wdl(part: dict[str, Any]) -> str:
            return f"{part['wins']}-{part['draws']}-{part['losses']}, {100 * part['score']:.1f}%"

        me, them = players[p["player"]], players[p["opponent"]]
        r = ratings.get(them)
        elo = "" if r is None else f"{r['elo']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]"
        out.append([
            path.relative_to(folder).as_posix(),
            f"`{me}`",
            f"`{them}`",
            str(p["total"]["games"]),
            wdl(p["total"]),
            wdl(p["as_black"]) if "as_black" in p else "",
            wdl(p["as_white"]) if "as_white" in p else "",
            f"{p['total'].get('mean_margin', 0):+.2f}",
            elo,
        ])  # fmt: skip
    return out


def is_accuracy(report: dict[str, Any]) -> bool:
    moves = report.get("moves")
    if not isinstance(moves, list):
        return False
    return all(isinstance(m, dict) and "best_margin" in m for m in moves)


def accuracy_row(path: Path, folder: Path, report: dict[str, Any]) -> list[str]:
    moves = report["moves"]
    n = len(moves)

    def sign(x: int) -> int:
        return (x > 0) - (x < 0)

    optimal = sum(m["played_margin"] == m["best_margin"] for m in moves)
    kept = sum(sign(m["played_margin"]) == sign(m["best_margin"]) for m in moves)
    lost = sum(m["best_margin"] - m["played_margin"] for m in moves) / n if n else 0.0
    return [
        path.relative_to(folder).as_posix(),
        f"`{report.get('player', '?')}`",
        str(n),
        f"{optimal} ({100 * optimal / n:.1f}%)" if n else "0",
        f"{kept} ({100 * kept / n:.1f}%)" if n else "0",
        f"{lost:.2f}",
    ]


def records(folder: Path) -> tuple[list[list[str]], list[list[str]]]:
    arenas, accuracy = [], []
    for path in sorted(folder.rglob("*.json")) + sorted(folder.rglob("*.json.gz")):
        if path.name in ("state.json", "config.json", "best.json") or path.name.startswith("."):
            continue
        try:
            report = read_json(path)
        except SummaryError:
            continue
        if is_arena(report):
            arenas += arena_rows(path, folder, report)
        elif isinstance(report, dict) and is_accuracy(report):
            accuracy.append(accuracy_row(path, folder, report))
    arenas.sort(key=lambda r: r[0])
    accuracy.sort(key=lambda r: r[0])
    return arenas, accuracy


def summarise(folder: Path) -> str:
    folder = Path(folder)
    if not folder.is_dir():
        raise SummaryError(f"{folder} is not a folder")
    runs = sorted(p.parent for p in folder.rglob("state.json"))
    out = [
        f"# `{folder.name}`: summary",
        "",
        "Written by `python -m train.summarise` from the files this folder held. What git",
        'keeps of a finished run and how to bring back the rest: docs/training.md, "What a',
        'run keeps in git".',
        "",
    ]
    for run in runs:
        out += run_section(run, folder)
    arenas, accuracy = records(folder)
    if arenas:
        out += [
            "## Arena records",
            "",
            "Each pairing from its first player's side: wins-draws-losses and score, in all",
            "and by colour, the mean final disc margin, and the opponent's Elo in the arena's",
            "own fit (its 95% interval; the anchor is the record's first player unless it names",
            "another).",
            "",
        ]
        out += table(
            ["record", "player", "opponent", "games", "player's score", "as Black",
             "as White", "mean margin", "opponent's Elo"],
            arenas,
        )  # fmt: skip
        out.append("")
    if accuracy:
        out += [
            "## Accuracy reports",
            "",
            "`othello accuracy --json`: of the positions, the moves with the largest final",
            "margin (optimal), those that keep the position's result, and the discs lost a move.",
            "",
        ]
        out += table(
            ["report", "player", "positions", "optimal", "keeps the result", "discs lost a move"],
            accuracy,
        )
        out.append("")
    if not runs and not arenas and not accuracy:
        out += ["No run, arena record or accuracy report in this folder.", ""]
    return LOCAL_PREFIX.sub("", "\n".join(out))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m train.summarise", description=__doc__.split("\n")[0]
    )
    p.add_argument("folders", type=Path, nargs="+", help="run folders, e.g. runs/8x8-b")
    p.add_argument("--stdout", action="store_true", help="print the summary, write nothing")
    a = p.parse_args(argv)
    for folder in a.folders:
        try:
            text = summarise(folder)
        except (SummaryError, KeyError, TypeError, ValueError) as e:
            print(f"{folder}: {e}", file=sys.stderr)
            return 2
        if a.stdout:
            print(text)
        else:
            (folder / NAME).write_text(text)
            print(f"wrote {folder / NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
