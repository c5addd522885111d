"""Schwiegelshohn & Yahyapour 1998: the weighted flow time by month."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from schedsim.papers.schwiegelshohn1998.analyses import METRICS, _percents, _readings
from schedsim.papers.schwiegelshohn1998.tables import MONTHS, STRATEGIES, _table

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure


__all__ = ["month_figure"]


# -- the figure ------------------------------------------------------------------------------


def month_figure(values: pd.DataFrame, metric: str = "weighted_flow_time") -> Figure:
    """The paper's percents and ours month by month for ``metric``: a row per
    machine (128, 256 nodes), a panel per strategy; ours per reading of the queue and of
    step F (`waits`, `moves` and their `-all`; the greedy's other orders and the full run
    times are in the tables only, to keep the panels readable)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 6.4), layout="constrained")
    axes = fig.subplots(2, len(STRATEGIES), squeeze=False, sharex=True)
    x = np.arange(len(MONTHS))
    styles = {"waits": ("C0", "--", "s"), "moves": ("C1", "-.", "^"),
              "waits-all": ("C2", ":", "v"), "moves-all": ("C3", ":", "D")}  # fmt: skip
    for r, nodes in enumerate((128, 256)):
        table = _table(metric, nodes)
        _, pct = _percents(values, metric, nodes)
        paper = table.frame()
        for c, s in enumerate(STRATEGIES):
            ax = axes[r][c]
            ax.axhline(0.0, color="#999999", linewidth=0.8)
            ax.plot(x, paper[s], color="black", marker="o", label=f"paper ({table.name})")
            # The four readings of the queue and of step F; the others are in the tables.
            for reading in [r for r in _readings(values) if r in styles]:
                color, line, mark = styles[reading]
                queue = reading.removesuffix("-all")
                every = ", every job preempted" if reading.endswith("-all") else ""
                ax.plot(x, pct[(reading, s)], color=color, linestyle=line, marker=mark,
                        label=f"ours, queue {queue}{every}")  # fmt: skip
            ax.set_title(f"{s}, {nodes} nodes ({table.name})", fontsize=10)
            ax.grid(alpha=0.3)
            if c == 0:
                ax.set_ylabel(f"{METRICS[metric]} against FCFS (%)")
            if r == 1:
                ax.set_xticks(x, list(MONTHS.values()), rotation=60, fontsize=8)
                ax.set_xlabel("month of the CTC log (month)")
    axes[0][0].legend(fontsize=8, loc="best")
    fig.suptitle(f"PFCFS against FCFS, {METRICS[metric]}: the paper (Schwiegelshohn & "
                 "Yahyapour 1998) and ours (negative: better than FCFS)")  # fmt: skip
    return fig
