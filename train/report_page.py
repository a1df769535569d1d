"""The model report's page: the CLI summary, the PNG plots (matplotlib, Agg) and the
self-contained HTML (no scripts, no external assets), from a `train.report_stats.Analysis`."""

from __future__ import annotations

import html
import math
from pathlib import Path

import numpy as np

from train.report_stats import PHASES, Analysis, CornerStats, Tally, wilson

DPI = 80
SYMMETRY_NAMES = (
    "identity", "rotate 90", "rotate 180", "rotate 270",
    "mirror", "mirror, rotate 90", "mirror, rotate 180", "mirror, rotate 270",
)  # fmt: skip


def pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.1f}%"


def num(x: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(x) else f"{x:.{digits}f}"


def score_text(t: Tally) -> str:
    low, high = wilson(t.score, t.games)
    return f"{t.wins}-{t.draws}-{t.losses}, {pct(t.score)} [{pct(low)}, {pct(high)}]"


def total(a: Analysis, colours: tuple[int, ...] = (0, 1)) -> Tally:
    """All the model's games, or those with one colour (0 Black, 1 White)."""
    t = Tally()
    for pair in a.wins.values():
        for x in (pair[c] for c in colours):
            t.wins, t.draws, t.losses = t.wins + x.wins, t.draws + x.draws, t.losses + x.losses
    return t


def wait_text(c: CornerStats) -> str:
    return (
        f"{c.games_with_chance} games with a chance; took one in {c.games_taken} of them "
        f"after {num(c.mean_wait)} own turns on average"
        + (f"; never in {len(c.censored)}" if c.censored else "")
    )


def summary(a: Analysis) -> str:
    m, c, t = a.model, a.corners["all"], total(a)
    lines = [
        f"{m.name} ({m.board}x{m.board} {m.variant}) as {a.player}: {len(a.games)} games",
        f"  score {score_text(t)}; "
        + ", ".join(
            f"{name} {pct(Tally(b.wins + w.wins, b.draws + w.draws, b.losses + w.losses).score)}"
            for name, (b, w) in a.wins.items()
        ),
        f"  corners: took {pct(c.rate)} of {c.chances} chances; {wait_text(c)}",
        f"  symmetry R^2 (7 transforms, {a.symmetry.positions} positions): "
        f"policy {num(a.symmetry.policy_pooled, 3)}, value {num(a.symmetry.value_pooled, 3)}",
        "  policy entropy (nats): "
        + ", ".join(f"{p} {num(h)}" for p, h in zip(PHASES, a.entropy.mean, strict=True)),
    ]
    return "\n".join(lines)


def write_plots(a: Analysis, out: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")  # files only
    import matplotlib.pyplot as plt

    names = []
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    for ax, what in zip(axes, ("discs", "mobility"), strict=True):
        for side, style in (("model", "-"), ("opponent", "--")):
            plies, mean = a.curves[f"{side} {what}"]
            ax.plot(plies, mean, style, label=side)
        ax.set_xlabel("ply")
        ax.set_ylabel("discs" if what == "discs" else "legal moves")
        ax.set_title(f"{what}, mean over games")
        ax.grid(alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(out / "game.png", dpi=DPI)
    plt.close(fig)
    names.append("game.png")

    fig, ax = plt.subplots(figsize=(5, 3.2))
    x = np.arange(len(PHASES))
    ax.bar(x - 0.2, a.entropy.mean, 0.4, label="network policy")
    ax.bar(x + 0.2, a.entropy.uniform, 0.4, label="uniform over legal moves")
    ax.set_xticks(
        x, [f"{p}\n({k} positions)" for p, k in zip(PHASES, a.entropy.positions, strict=True)]
    )
    ax.set_ylabel("entropy (nats)")
    ax.set_ylim(0, 1.3 * np.nanmax([*a.entropy.uniform, *a.entropy.mean, 0.1]))
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "entropy.png", dpi=DPI)
    plt.close(fig)
    names.append("entropy.png")

    fig, ax = plt.subplots(figsize=(4.5, 0.6 + 0.5 * len(a.wins)))
    grid = np.array([[b.score, w.score] for b, w in a.wins.values()])
    ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    for i, (b, w) in enumerate(a.wins.values()):
        for k, t in enumerate((b, w)):
            ax.text(
                k,
                i,
                f"{t.wins}-{t.draws}-{t.losses}\n{pct(t.score)}",
                ha="center",
                va="center",
                fontsize=8,
            )
    ax.set_xticks([0, 1], ["model as Black", "model as White"])
    ax.set_yticks(range(len(a.wins)), list(a.wins))
    fig.tight_layout()
    fig.savefig(out / "wins.png", dpi=DPI)
    plt.close(fig)
    names.append("wins.png")
    return names


def table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def write_html(a: Analysis, out: Path, command: str) -> None:
    m, s, e = a.model, a.symmetry, a.entropy
    wins = table(
        ["opponent", "model as Black", "model as White"],
        [[name, score_text(b), score_text(w)] for name, (b, w) in a.wins.items()]
        + [["all", score_text(total(a, (0,))), score_text(total(a, (1,)))]],
    )
    corners = table(
        ["opponent", "turns", "corner chances", "taken", "rate", "games with a chance",
         "took one", "mean wait (own turns)", "never took one (turns left)"],
        [
            [name, str(c.turns), str(c.chances), str(c.taken), pct(c.rate),
             str(c.games_with_chance), str(c.games_taken), num(c.mean_wait),
             f"{len(c.censored)} ({num(c.mean_censored, 1)})"]
            for name, c in a.corners.items()
        ],
    )  # fmt: skip
    sym = table(
        ["transform", "policy R^2", "value R^2", "same favourite move"],
        [
            [SYMMETRY_NAMES[i], num(p, 4), num(v, 4), pct(same)]
            for i, (p, v, same) in enumerate(zip(s.policy, s.value, s.same_move, strict=True))
        ]
        + [
            [
                "pooled over the 7 non-identity", num(s.policy_pooled, 4),
                num(s.value_pooled, 4), pct(float(np.mean(s.same_move[1:]))),
            ]
        ],
    )  # fmt: skip
    ent = table(
        ["phase", "positions", "mean entropy (nats)", "uniform: mean ln(legal moves)"],
        [
            [p, str(k), num(h), num(u)]
            for p, k, h, u in zip(PHASES, e.positions, e.mean, e.uniform, strict=True)
        ],
    )
    fill = m.board * m.board - 4
    reversed_note = (
        " In the reversed game a corner is a liability (a disc there stays for good), so"
        " a low rate and long waits are what a good player shows."
        if m.variant == "reversed"
        else ""
    )
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Model report: {html.escape(m.name)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}}
table{{border-collapse:collapse;margin:0.5em 0}}
td,th{{border:1px solid #bbb;padding:2px 8px;text-align:left}}
pre{{background:#f4f4f4;padding:0.5em;white-space:pre-wrap}}</style></head><body>
<h1>Model report: {html.escape(m.name)}</h1>
<p>{m.board}x{m.board}, {m.variant} rules; {m.card.get("parameters", "?")} parameters,
run {html.escape(str(m.card.get("training", {}).get("run")))} generation
{html.escape(str(m.card.get("training", {}).get("generation")))}. Played as
<code>{html.escape(a.player)}</code>: {len(a.games)} games against the classic players,
from the arena's random 4-8 ply openings, each played with both colours.</p>
<pre>{html.escape(summary(a))}</pre>
<p>The policy head's favourite move (ONNX Runtime here) is the move the arena's player
made in {a.agreement[0]} of the model's {a.agreement[1]} turns.</p>
<h2>Results by colour</h2>
<p>Wins-draws-losses, score (draws half) and its 95% Wilson interval. In all:
{html.escape(score_text(total(a)))}.</p>
{wins}<img src="wins.png" alt="score by opponent and colour">
<h2>Corners</h2>
<p>The model's turns with a move to choose, after the opening. A chance is a turn with a
corner among its legal moves; the wait counts its own turns from the first chance of a
game until it took a corner (0: at once); games where it never took one are counted
apart, with the turns it had left.{reversed_note}</p>
{corners}
<h2>Discs and mobility</h2>
<p>Mean over the games still under way at each ply (plies fewer than a tenth of the games
reach are left out); mobility is each side's number of legal placements in the position,
whoever is to move.</p>
<img src="game.png" alt="discs and mobility by ply">
<h2>Policy entropy by phase</h2>
<p>Entropy of the policy head's distribution over the legal moves (masked and softmaxed as
the engine does), in nats, on the positions the model faced. Phases are thirds of the
{fill} squares a game fills: opening while fewer than {math.ceil(fill / 3)} are
played, endgame from {math.ceil(2 * fill / 3)} on.</p>
{ent}<img src="entropy.png" alt="policy entropy by phase">
<h2>Symmetry consistency</h2>
<p>{s.positions} positions drawn from the model's games, each also given to the network
turned and mirrored in the 8 ways of the square; the policy is mapped back. R^2 of the
transformed outputs against the untransformed ones (policy: probabilities of the legal
moves; value), and how often the favourite move is the same square. 1 (100%) is a
perfectly symmetric network; the training augments every sample with a random symmetry,
which teaches the symmetry without enforcing it.</p>
{sym}
<h2>How this was made</h2>
<pre>{html.escape(command)}</pre>
<p>The arena's games, transcripts included: <a href="arena.json">arena.json</a>.</p>
</body></html>
"""
    (out / "index.html").write_text(page)
