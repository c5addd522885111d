"""Feitelson & Shmueli 2009: the files the paper adds to a study's report.

The claims are scored per reading (`analyses.READINGS`: each run's reading named from
the keys it sets) at the study's largest population, the paper's 250 users, and, for the
text's reading and accurate estimates, at `LOADS` users too (the load the paper's
picture needs on KTH's 100 nodes: the paper does not give its machine, so its 250 users
need not be our 250). ``claims.csv``/``claims.md`` are the text's reading's;
``claims-readings.md`` the readings x claims table (`schedsim.app.claims.readings_table`)
and every reading's claims. ``feitelson2009-night-bound.csv`` is the night claim's bound
(`schedsim.papers.feitelson2009.bound`) per reading and load. Runs with longer jobs than
the paper's hour (``max_runtime``, ``study-longer.toml``) count for the claim on 2- and
4-hour jobs alone: the gains, the nights, the load scan and the figures are the 1-hour
runs'.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import (
    RULE,
    ClaimResult,
    claims_table,
    markdown,
    readings_markdown,
    readings_table,
)
from schedsim.papers.feitelson2009.analyses import (
    DEFAULT_READING,
    MAX_RUNTIME,
    gains,
    load_scan,
    night_table,
    queues,
    runs,
)
from schedsim.papers.feitelson2009.bound import BOUND_COLUMNS, night_bound
from schedsim.papers.feitelson2009.claims import NIGHT_LEAST, claim_results
from schedsim.papers.feitelson2009.figures import CURVES, curves_figure, load_scan_figure

if TYPE_CHECKING:
    from schedsim.app.report.study_results import StudyResults

__all__ = ["LOADS", "UNITS", "reading_results", "write"]

#: Populations besides the largest at which the text's reading and accurate estimates
#: are also scored (as readings of the paper's load).
LOADS: tuple[int, ...] = (200,)

#: The units of the tables' columns.
UNITS: dict[str, str] = {
    "easy_jobs_per_day": "jobs/day", "creasy_jobs_per_day": "jobs/day", "gain_pct": "%",
    "easy_utilization": "fraction", "creasy_utilization": "fraction",
    "utilization_gain_pct": "%", "users": "users", "queue_min_jobs": "jobs",
    "queue_max_jobs": "jobs", "spread": "ratio", "drain_hour": "h", "queue_10h_jobs": "jobs",
    "queue_18h_jobs": "jobs", "night_busy_cores": "cores", "day_busy_cores": "cores",
    "nights": "nights", "nights_drained": "nights", "night_drain_median_h": "h",
    "alpha": "min^2", "night": "night", "replications": "runs", "max_runtime": "s",
    "night_min_jobs": "jobs", "night_ceiling_cores": "cores",
    **{k: v for k, v in BOUND_COLUMNS.items() if v},
}  # fmt: skip

_INTRO = (
    "Ours is the mean over the study's replications with its 95% interval in brackets "
    "(each replication's CREASY against EASY of the same replication: the same seed). "
    "Hours are from the evening's midnight: 30.5 is 6:30 the next morning.\n\n"
    f"**The verdict rule.** {RULE}\n"
)


def reading_results(run_table: pd.DataFrame, gain: pd.DataFrame, queue: pd.DataFrame
                    ) -> dict[str, list[ClaimResult]]:  # fmt: skip
    """Every reading's claim results, the text's first: each reading at the largest
    population, the text's and accurate estimates' also at `LOADS` (named "... at N
    users")."""
    top = int(run_table["users"].max())
    names = sorted(set(run_table["reading"]), key=lambda k: (k != DEFAULT_READING, k))
    out: dict[str, list[ClaimResult]] = {}
    for name in names:
        picks = [(name, top)]
        if name in (DEFAULT_READING, "accurate estimates"):
            picks += [(f"{name} at {u} users", u) for u in LOADS
                      if u != top and (run_table["users"] == u).any()]  # fmt: skip
        mine = run_table[run_table["reading"] == name]
        g = gain[gain["reading"] == name] if len(gain) else gain
        q = queue[queue["reading"] == name] if len(queue) else queue
        for label, users in picks:
            out[label] = claim_results(g, q, users, mine)
    return out


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The gains, the queue tables, the night's bound and the claims
    (``feitelson2009-gains.csv``, ``feitelson2009-queues.csv``, ``feitelson2009-nights.csv``,
    ``feitelson2009-load-scan.csv``, ``feitelson2009-night-bound.csv``, ``claims.csv``,
    ``claims.md`` and
    ``claims-readings.md``), and Figures 2 and 4 (``feitelson2009-throughput.png``,
    ``-utilization.png``) and the load scan (``feitelson2009-load-scan.png``)."""
    from schedsim.app.report.formats import with_units
    from schedsim.app.report.plots import save_figures

    table = runs(results)
    hour = table[table["max_runtime"] == MAX_RUNTIME]  # the paper's 1-hour jobs
    gain = gains(hour)
    queue = queues(results, table) if len(table) else pd.DataFrame()
    queue_hour = queue[queue["max_runtime"] == MAX_RUNTIME] if len(queue) else queue
    nights = night_table(queue_hour) if len(queue_hour) else pd.DataFrame()
    scan = load_scan(queue_hour) if len(queue_hour) else pd.DataFrame()
    bound = night_bound(queue_hour, NIGHT_LEAST)
    by_reading = reading_results(table, gain, queue) if len(table) else {}
    first = next(iter(by_reading.values()), [])
    claimed = claims_table(first, rule=True, form="{name}: {shown}", sep="; ")
    tables: list[Path] = []
    queue_out = queue.drop(columns=["night_drains"], errors="ignore")
    frames = ((gain, "feitelson2009-gains.csv"), (queue_out, "feitelson2009-queues.csv"),
              (nights, "feitelson2009-nights.csv"),
              (scan, "feitelson2009-load-scan.csv"),
              (bound, "feitelson2009-night-bound.csv"))  # fmt: skip
    for frame, name in frames:
        path = out / name
        with_units(frame, lambda c: UNITS.get(c, "")).to_csv(path, index=False)
        tables.append(path)
    claimed.to_csv(out / "claims.csv", index=False)
    title = f"Feitelson & Shmueli 2009: the paper's claims ({results.name})"
    name = next(iter(by_reading), DEFAULT_READING)
    (out / "claims.md").write_text(
        f"# {title}\n\nReading: **{name}**. {_INTRO}\n" + _markdown(claimed)
    )
    parts = [f"# {title}: the readings\n", _INTRO]
    if by_reading:
        parts.append(readings_markdown(readings_table(by_reading)))
        for reading, found in by_reading.items():
            parts.append(f"\n## Reading: {reading}\n")
            found_table = claims_table(found, rule=True, form="{name}: {shown}", sep="; ")
            parts.append(_markdown(found_table))
    (out / "claims-readings.md").write_text("\n".join(parts))
    tables += [out / "claims.csv", out / "claims.md", out / "claims-readings.md"]
    figures = []
    if len(hour) and hour["users"].nunique() > 1:
        figures += [(f"feitelson2009-{CURVES[c][1]}", curves_figure(hour, c)) for c in CURVES]
    if len(scan):
        figures.append(("feitelson2009-load-scan", load_scan_figure(scan, nights)))
    return tables, save_figures(figures, out), claimed


def _markdown(table: pd.DataFrame) -> str:
    """A claims table as Markdown with its reading (the ``rule`` column) after the paper's
    value."""
    shown = table.assign(paper=[f"{p} (reading: {r})" for p, r in
                                zip(table["paper"], table["rule"], strict=True)])  # fmt: skip
    return markdown(shown)
