"""A run's plots, from its metrics.csv: the loss curves, and the network's Elo against the
fixed evaluation opponents over generations and over the CPU-hours the run has spent.
"""

from __future__ import annotations

from pathlib import Path


def plot_run(root: Path, rows: list[dict[str, str]], eval_players: str) -> None:
    if not rows:
        return
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on a training box
    import matplotlib.pyplot as plt

    gens = [int(r["generation"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4))
    for key in ("loss", "policy_loss", "value_loss", "score_loss"):
        values = [float(r[key]) for r in rows if r.get(key, "") != ""]
        if any(values) and len(values) == len(gens):
            ax.plot(gens, values, marker="o", label=key.replace("_", " "))
    ax.set_xlabel("generation")
    ax.set_ylabel("training loss (last tenth of the generation's steps)")
    ax.set_title(root.name)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(root / "plots" / "loss.png", dpi=100)
    plt.close(fig)

    rated = [r for r in rows if r.get("elo", "") != ""]
    if not rated:
        return
    axes = [("generation", "generation", "elo.png")]
    if all(r.get("cpu_hours", "") != "" for r in rated):
        axes.append(("cpu_hours", "CPU-hours (self-play, training, evaluation)", "elo-cpu.png"))
    for key, label, name in axes:
        fig, ax = plt.subplots(figsize=(7, 4))
        xs = [float(r[key]) for r in rated]
        elo = [float(r["elo"]) for r in rated]
        low = [float(r["elo_low"]) for r in rated]
        high = [float(r["elo_high"]) for r in rated]
        ax.fill_between(xs, low, high, alpha=0.2, label="95% interval")
        ax.plot(xs, elo, marker="o", label="network")
        ax.set_xlabel(label)
        ax.set_ylabel(f"Elo vs {eval_players}")
        ax.set_title(root.name)
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(root / "plots" / name, dpi=100)
        plt.close(fig)


def plot_elo_cpu(path: Path, runs: dict[str, list[dict[str, str]]], title: str = "") -> None:
    """Elo (random = 0) against CPU-hours for one or several runs on one axis, each with
    its 95% band: one learner's curve, or the learners' comparison (docs/learners.md)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    drawn = False
    for label, rows in runs.items():
        rated = [r for r in rows if r.get("elo", "") != "" and r.get("cpu_hours", "") != ""]
        if not rated:
            continue
        xs = [float(r["cpu_hours"]) for r in rated]
        ax.fill_between(
            xs, [float(r["elo_low"]) for r in rated], [float(r["elo_high"]) for r in rated],
            alpha=0.15,
        )  # fmt: skip
        ax.plot(xs, [float(r["elo"]) for r in rated], marker="o", markersize=3, label=label)
        drawn = True
    if not drawn:
        plt.close(fig)
        return
    ax.set_xlabel("CPU-hours (play, training, evaluation)")
    ax.set_ylabel("Elo (random = 0), 95% band")
    ax.set_title(title or path.parent.parent.name)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)
    plt.close(fig)


# The seeds' REINFORCE player (issue 37): over 75% against the heuristic player after
# about 1.5 million games of training against fixed opponents.
SEED_GAMES, SEED_SCORE = 1_500_000, 0.75


def plot_against_heuristic(
    path: Path, runs: dict[str, list[dict[str, str]]], title: str = ""
) -> bool:
    """Score against the heuristic player (the learner sampling its moves, 95% band)
    against games played and against CPU-hours, one line a run, with the seeds' result
    marked; False when no run has such a score."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (by_games, by_hours) = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    drawn = False
    for label, rows in runs.items():
        scored = [r for r in rows if r.get("heuristic_score", "") not in ("", None)]
        if not scored:
            continue
        low = [float(r["heuristic_low"]) for r in scored]
        high = [float(r["heuristic_high"]) for r in scored]
        score = [float(r["heuristic_score"]) for r in scored]
        for ax, key in ((by_games, "games"), (by_hours, "cpu_hours")):
            xs = [float(r[key]) for r in scored]
            ax.fill_between(xs, low, high, alpha=0.12)
            ax.plot(xs, score, marker="o", markersize=2, label=label)
        drawn = True
    if not drawn:
        plt.close(fig)
        return False
    by_games.plot([SEED_GAMES], [SEED_SCORE], marker="*", markersize=12, color="black",
                  linestyle="none", label="the seed's REINFORCE (1.5 M games)")  # fmt: skip
    for ax in (by_games, by_hours):
        ax.axhline(SEED_SCORE, color="black", linestyle="--", linewidth=0.8)
        ax.axhline(0.5, color="grey", linewidth=0.6)
        ax.grid(alpha=0.3)
    by_games.set_xscale("log")
    by_games.set_xlabel("games played")
    by_hours.set_xlabel("CPU-hours (one core each; the network on a GPU where lent)")
    by_games.set_ylabel("score against heuristic, sampling (95% band)")
    by_games.legend(fontsize=7, loc="upper left")
    fig.suptitle(title or "Policy-gradient learners against the heuristic player")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    """`python -m train.plots --out F.png RUN...`: the learners' scores against the
    heuristic player (`eval_heuristic_games`), each run labelled by its folder name."""
    import argparse
    import csv
    import sys

    p = argparse.ArgumentParser(prog="python -m train.plots", description=main.__doc__)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--title", default="")
    p.add_argument("runs", type=Path, nargs="+")
    args = p.parse_args(argv)
    runs: dict[str, list[dict[str, str]]] = {}
    for root in args.runs:
        metrics = root / "metrics.csv"
        if not metrics.exists():
            print(f"error: {root} has no metrics.csv (not a learner's run)", file=sys.stderr)
            return 1
        with open(metrics, newline="") as f:
            runs[root.name] = list(csv.DictReader(f))
    if not plot_against_heuristic(args.out, runs, args.title):
        print("error: no run has a score against heuristic (eval_heuristic_games)", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
