"""Feitelson & Shmueli 2009: Figures 2 and 4 (throughput and utilization against the users)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from matplotlib.figure import Figure


__all__ = ["CURVES", "curves_figure"]


#: The curves of Figures 2 and 4: run column -> (axis label, file stem, figure panel). The
#: values are drawn as the runs hold them (a utilization as a fraction, as everywhere).
CURVES: dict[str, tuple[str, str, str]] = {
    "throughput": ("daily throughput (jobs/day)", "throughput", "(a)"),
    "utilization": ("utilization (fraction)", "utilization", "(b)"),
}


def curves_figure(runs: pd.DataFrame, column: str) -> Figure:
    """Figures 2 and 4 side by side: ``column`` against the users, one line per alpha,
    a panel per daily-cycle setting (columns) and kind of estimate (rows)."""
    from matplotlib.figure import Figure

    label, _, panel = CURVES[column]
    kinds = sorted(set(runs["estimates"]), reverse=True)  # the users' own first
    fig = Figure(figsize=(10, 3.4 * len(kinds)), layout="constrained")
    axes = fig.subplots(len(kinds), 2, squeeze=False, sharey=True)
    alphas = sorted(set(runs["alpha"]))
    colors = [f"C{i}" for i in range(len(alphas))]
    for r, kind in enumerate(kinds):
        for c, (cycle, name) in enumerate(((False, "without daily cycles (Figure 2)"),
                                           (True, "with daily cycles (Figure 4)"))):  # fmt: skip
            ax = axes[r][c]
            sub = runs[(runs["estimates"] == kind) & (runs["cycle"] == cycle)]
            for alpha, color in zip(alphas, colors, strict=True):
                line = sub[sub["alpha"] == alpha].sort_values("users")
                name_ = "EASY (alpha 0)" if alpha == 0 else f"alpha {alpha:g}"
                if len(line):
                    ax.plot(line["users"], line[column], marker="o", color=color,
                            label=name_)  # fmt: skip
            ax.set_title(f"{name}, {kind} estimates", fontsize=10)
            ax.set_xlabel("closed-loop users (users)")
            ax.grid(alpha=0.3)
        axes[r][0].set_ylabel(label)
    axes[0][1].legend(title="CREASY", loc="upper left", fontsize=8)
    what = label.split(" (")[0]
    fig.suptitle(f"CREASY against EASY: {what} (Feitelson & Shmueli 2009, Figures 2{panel} "
                 f"and 4{panel})")  # fmt: skip
    return fig
