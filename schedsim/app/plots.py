"""Figures of single runs: what a notebook draws from one or a few `Result` objects.

Every function returns a bare matplotlib ``Figure`` (nothing to close in
pyplot; ``fig.savefig(path)`` writes it) with units on its axes:

* `gantt`, `utilization`, `queue` and `schedule_figure` (the three stacked):
  the schedule itself, from the piece log (`schedsim.app.gantt`; an
  interactive version is `schedsim.app.gantt_interactive.gantt_interactive`);
  past ``max_pieces`` pieces in the window (5,000: a whole log) the chart is
  `heatmap`, the busy share per node and time bin;
* `plot_queue_by_time_of_day`: Feitelson & Shmueli (2009) Figure 5, the
  average queue length against the time of day, one line per run
  (closed-loop runs with a daily cycle show where the work goes);
* `plot_job_maps`: Feitelson & Shmueli (2009) Figure 6, colour maps of the
  jobs running and waiting at given hours, size x run time, with a colour
  bar in jobs.

The numbers come from `schedsim.model.sessions`; the figures are drawn here,
in the application layer, so that the core packages need no plotting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from schedsim.app.gantt import gantt, heatmap, queue, schedule_figure, utilization
from schedsim.app.report.quantities import DAILY_CYCLES
from schedsim.model.results import Result
from schedsim.model.sessions import (
    RUN_EDGES,
    SIZE_EDGES,
    job_maps,
    jobs_at_times,
    queue_by_time_of_day,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = [
    "gantt",
    "heatmap",
    "plot_job_maps",
    "plot_queue_by_time_of_day",
    "queue",
    "schedule_figure",
    "utilization",
]


def plot_job_maps(
    results: Mapping[str, Result], hours: Sequence[float] = (10, 16, 23), title: str = ""
) -> Figure:
    """Feitelson & Shmueli (2009) Figure 6: colour maps of running and waiting jobs,
    size x run time.

    One pair of rows (running, waiting) per result, one column per hour; one
    colour bar, in jobs, for every map. ``title`` (e.g. the study and its
    population) goes before the figure's own. A bare Figure: nothing to close
    in pyplot.
    """
    from matplotlib.figure import Figure

    rows = [(label, state) for label in results for state in ("running", "waiting")]
    fig = Figure(figsize=(3.2 * len(hours) + 0.8, 2.6 * len(rows)), layout="constrained")
    axes = fig.subplots(len(rows), len(hours), squeeze=False)
    maps = {label: job_maps(jobs_at_times(r, hours)) for label, r in results.items()}
    top = max((m.max() for per in maps.values() for m in per.values()), default=1.0) or 1.0
    for i, (label, state) in enumerate(rows):
        for k, hour in enumerate(hours):
            ax = axes[i][k]
            grid = maps[label].get((float(hour), state))
            if grid is None:
                grid = np.zeros((len(RUN_EDGES) - 1, len(SIZE_EDGES) - 1))
            image = ax.imshow(grid, origin="lower", cmap="Greys", vmin=0, vmax=top, aspect="auto")
            ax.set_title(f"{label}: {state} at {hour:g}:00", fontsize=8)
            ax.set_xticks(
                range(len(SIZE_EDGES) - 1), [f"{e:g}" for e in SIZE_EDGES[:-1]], fontsize=6
            )
            ax.set_yticks(range(len(RUN_EDGES) - 1), [f"{e:g}" for e in RUN_EDGES[:-1]], fontsize=6)
            # Every map names its axes: a reader may look at one map alone.
            ax.set_ylabel("run time (s)", fontsize=7)
            ax.set_xlabel("size (processors)", fontsize=7)
    # The shade is a count: without a scale a map says where, not how many.
    fig.colorbar(image, ax=axes, label="jobs in the cell, mean over the days (jobs)", shrink=0.6)
    what = f"jobs running and waiting by hour ({DAILY_CYCLES}, Figure 6)"
    fig.suptitle(f"{title}: {what}" if title else what.capitalize(), fontsize=9)
    return fig


def plot_queue_by_time_of_day(
    results: Mapping[str, Result],
    step: float = 600.0,
    tables: Mapping[str, pd.DataFrame] | None = None,
    title: str = "",
) -> Figure:
    """Feitelson & Shmueli (2009) Figure 5: average queue length against time of day,
    one line per result.

    ``tables`` (label -> `queue_by_time_of_day`), when the caller has them
    already, are drawn instead of being computed again; ``title`` goes before
    the figure's own. A bare Figure.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3.5), layout="constrained")
    ax = fig.subplots()
    for label, result in results.items():
        q = tables[label] if tables is not None else queue_by_time_of_day(result, step)
        ax.plot(q["hour"], q["queued"], label=label)
    ax.set_xlabel("time of day (h)")
    ax.set_ylabel("average queue length (jobs)")
    ax.set_xlim(0, 24)
    ax.set_ylim(bottom=0)  # a length: a flat zero line would otherwise centre on 0
    ax.set_xticks(range(0, 25, 4))
    what = f"queue by time of day ({DAILY_CYCLES}, Figure 5)"
    ax.set_title(f"{title}\n{what}" if title else what.capitalize(), fontsize=9)
    ax.legend(fontsize=8)
    return fig
