"""Feitelson & Shmueli 2009: Figures 2 and 4 (throughput and utilization against the
users: `curves_figure`), and Figures 5 and 6 (the queue by time of day and the maps of
waiting and running jobs: `closed_loop_figures`, which ``[report] closed_loop`` adds to
any closed-loop study's report)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.model.results import Result
from schedsim.papers.feitelson2009.analyses import (
    DEFAULT_READING,
    NIGHT_TO,
    _column,
    reading_of,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from schedsim.app.report.study_results import StudyResults


__all__ = ["CURVES", "QUEUE_UNITS", "closed_loop_figures", "curves_figure", "load_scan_figure"]


#: The curves of Figures 2 and 4: run column -> (axis label, file stem, figure panel). The
#: values are drawn as the runs hold them (a utilization as a fraction, as everywhere).
CURVES: dict[str, tuple[str, str, str]] = {
    "throughput": ("daily throughput (jobs/day)", "throughput", "(a)"),
    "utilization": ("utilization (fraction)", "utilization", "(b)"),
}

#: Units of the columns of `schedsim.model.sessions.queue_by_time_of_day`.
QUEUE_UNITS: dict[str, str] = {
    "hour": "h",
    "queued": "jobs",
    "queued_std": "jobs",
    "running": "jobs",
    "busy_cores": "cores",
}


def curves_figure(runs: pd.DataFrame, column: str) -> Figure:
    """Figures 2 and 4 side by side: ``column`` against the users, one line per alpha
    (the mean over replications), a panel per daily-cycle setting (columns) and reading
    run with both settings (rows; `analyses.runs`)."""
    from matplotlib.figure import Figure

    label, _, panel = CURVES[column]
    # One row per reading run with and without the cycle (with one setting only: every
    # reading), the text's first; each point the mean over the replications.
    both = runs.groupby("reading")["cycle"].nunique()
    kinds = sorted(both[both == 2].index if (both == 2).any() else both.index,
                   key=lambda k: (k != DEFAULT_READING, k))  # fmt: skip
    runs = runs.groupby(["reading", "cycle", "alpha", "users"], as_index=False)[list(CURVES)].mean()
    fig = Figure(figsize=(10, 3.4 * max(len(kinds), 1)), layout="constrained")
    axes = fig.subplots(len(kinds), 2, squeeze=False, sharey=True)
    alphas = sorted(set(runs["alpha"]))
    colors = [f"C{i}" for i in range(len(alphas))]
    for r, kind in enumerate(kinds):
        for c, (cycle, name) in enumerate(((False, "without daily cycles (Figure 2)"),
                                           (True, "with daily cycles (Figure 4)"))):  # fmt: skip
            ax = axes[r][c]
            sub = runs[(runs["reading"] == kind) & (runs["cycle"] == cycle)]
            for alpha, color in zip(alphas, colors, strict=True):
                line = sub[sub["alpha"] == alpha].sort_values("users")
                name_ = "EASY (alpha 0)" if alpha == 0 else f"alpha {alpha:g}"
                if len(line):
                    ax.plot(line["users"], line[column], marker="o", color=color,
                            label=name_)  # fmt: skip
            ax.set_title(f"{name}\nreading: {kind}", fontsize=10)
            ax.set_xlabel("closed-loop users (users)")
            ax.grid(alpha=0.3)
        axes[r][0].set_ylabel(label)
    axes[0][1].legend(title="CREASY", loc="upper left", fontsize=8)
    what = label.split(" (")[0]
    fig.suptitle(f"CREASY against EASY: {what} (Feitelson & Shmueli 2009, Figures 2{panel} "
                 f"and 4{panel})")  # fmt: skip
    return fig


def closed_loop_figures(
    results: StudyResults,
    out_dir: str | Path,
    users: int | None = None,
    hours: Sequence[float] | None = None,
) -> tuple[list[Path], list[Path]]:
    """Feitelson & Shmueli's (2009) Figures 5 and 6 for the closed-loop runs of
    ``users`` users.

    ``users`` defaults to the largest population in the study; ``hours`` to
    10:00, 16:00 and 23:00. For each daily-cycle setting: the queue length
    by time of day averaged over the days, one line per label
    (``queue-by-time-of-day-<cycle>.png`` and ``.csv``, its columns named with
    their units: ``hour (h)``, ``queued (jobs)``...), and the size x
    run time maps of waiting and running jobs for the first and the last
    label (``job-maps-<cycle>.png``; `schedsim.model.sessions`). A study that
    runs both the users' own and accurate estimates gets each apart (``-exact-estimates``
    added to the names of the latter). Uses the first replication of each configuration.
    """
    from schedsim.app import plots as figures
    from schedsim.app.report.formats import with_units
    from schedsim.app.report.plots import save_figures
    from schedsim.model import sessions

    out = Path(out_dir)
    done = results.done
    if "users" not in done or done["users"].isna().all():
        raise ValueError(f"study {results.name!r} has no closed-loop runs (users)")
    size = int(done["users"].max() if users is None else users)
    hours = list(hours) if hours is not None else [10.0, 16.0, 23.0]
    picked = done[(done["users"] == size) & (done["replication"] == 0)]
    # The text's reading and accurate estimates only: the other readings' runs have the
    # same labels (a policy's alpha) and would overwrite theirs.
    text = [reading_of(r) in (DEFAULT_READING, "accurate estimates")
            for r in picked.to_dict("records")]  # fmt: skip
    picked = picked[text] if len(picked) else picked
    if picked.empty:
        raise ValueError(f"study {results.name!r} has no finished run with {size} users")
    # Unset is the default, a daily cycle; accurate estimates or the users' own, when the
    # study has both: figures apart.
    cycle = _column(picked, "daily_cycle", True)
    exact = _column(picked, "exact_estimates", False)
    tables: list[Path] = []
    plots: list[Path] = []
    for setting, accurate in dict.fromkeys(zip(cycle, exact, strict=True)):
        rows = picked[(cycle == setting) & (exact == accurate)]
        runs = {
            str(row.label): Result.load(results.directory / "runs" / row.id)
            for row in rows.itertuples()
        }
        name = ("cycle" if setting else "no-cycle") + ("-exact-estimates" if accurate else "")
        queues = {label: sessions.queue_by_time_of_day(r) for label, r in runs.items()}
        frames = [q.assign(label=label) for label, q in queues.items()]
        path = out / f"queue-by-time-of-day-{name}.csv"
        queue = pd.concat(frames, ignore_index=True)
        with_units(queue, lambda c: QUEUE_UNITS.get(c, "")).to_csv(path, index=False)
        tables.append(path)
        labels = list(runs)
        title = f"{results.name}, {size} users, {name}"
        ends = {k: runs[k] for k in dict.fromkeys([labels[0], labels[-1]])}
        plots += save_figures(
            [(f"queue-by-time-of-day-{name}",
              figures.plot_queue_by_time_of_day(runs, tables=queues, title=title)),
             (f"job-maps-{name}", figures.plot_job_maps(ends, hours, title))],
            out,
        )  # fmt: skip
    return tables, plots


def load_scan_figure(scan: pd.DataFrame, nights: pd.DataFrame) -> Figure:
    """The load scan (section 4.1's picture: CREASY's night busier and its queue draining
    later than EASY's): for the text's reading and accurate estimates, top row, the hour the average
    queue drains (Figure 5's, hours after midnight; a point at 8:00+ = not by 8:00) against
    the users, EASY and CREASY; bottom row, night by night for the first replication, the
    hour each night's queue empties, one panel per load."""
    from matplotlib.figure import Figure

    # The text's reading and accurate estimates (the page's two), else the first two.
    present = set(scan["reading"])
    readings = [r for r in (DEFAULT_READING, "accurate estimates") if r in present]
    readings = readings or sorted(present)[:2]
    loads = sorted(set(nights["users"])) if len(nights) else []
    cols = max(len(loads), 2)
    fig = Figure(figsize=(3.2 * cols, 3.0 * (1 + len(readings))), layout="constrained")
    grid = fig.subplots(1 + len(readings), cols, squeeze=False)
    late = NIGHT_TO + 24.0 + 0.5  # where "not by 8:00" is drawn
    styles = {"EASY": ("C0", "o"), "CREASY": ("C3", "s")}
    for k, reading in enumerate(readings):
        ax = grid[0][k]
        sub = scan[scan["reading"] == reading]
        for policy, g in sub.groupby("policy"):
            color, marker = styles["EASY" if policy == "EASY" else "CREASY"]
            g = g.sort_values("users")
            y = (g["drain_hour"].fillna(late) - 24.0).to_numpy()
            ax.plot(g["users"], y, marker=marker, color=color, label=str(policy))
        ax.axhline(NIGHT_TO, color="grey", lw=0.8, ls="--")
        ax.set_title(f"average queue drains\nreading: {reading}", fontsize=9)
        ax.set_xlabel("closed-loop users (users)")
        ax.set_ylabel("drain time (h after midnight)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for extra in range(len(readings), cols):
        grid[0][extra].axis("off")
    for r, reading in enumerate(readings, 1):
        for c in range(cols):
            ax = grid[r][c]
            if c >= len(loads):
                ax.axis("off")
                continue
            users = loads[c]
            sub = nights[(nights["reading"] == reading) & (nights["users"] == users)
                         & (nights["replication"] == 0)]  # fmt: skip
            for policy, g in sub.groupby("policy"):
                color, marker = styles["EASY" if policy == "EASY" else "CREASY"]
                y = (g["drain_hour"].fillna(late) - 24.0).to_numpy()
                ax.plot(g["night"], y, marker=marker, color=color, lw=0.8, label=str(policy))
            ax.axhline(NIGHT_TO, color="grey", lw=0.8, ls="--")
            ax.set_title(f"{users} users, {reading}", fontsize=8)
            ax.set_xlabel("night (1 = the first evening)")
            ax.set_ylabel("queue empty at (h after midnight)")
            ax.set_ylim(-6.5, late - 24.0 + 0.5)
            ax.grid(alpha=0.3)
    fig.suptitle("When the queue drains at night, EASY against CREASY (alpha 6000); "
                 "dashed: 8:00, above it: not by 8:00 (negative: before midnight)",
                 fontsize=10)  # fmt: skip
    return fig
