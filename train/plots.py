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
