"""Feitelson & Shmueli 2009: the files the paper adds to a study's report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import write_claims
from schedsim.papers.feitelson2009.analyses import _runs, gains, queues
from schedsim.papers.feitelson2009.claims import claims
from schedsim.papers.feitelson2009.figures import CURVES, curves_figure

if TYPE_CHECKING:
    from schedsim.app.report.study_results import StudyResults

__all__ = ["write"]


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The gains, the queue table and the claims (``feitelson2009-gains.csv``,
    ``feitelson2009-queues.csv``, ``claims.csv`` and ``claims.md``) for the study's
    largest population, and Figures 2 and 4 (``feitelson2009-throughput.png``,
    ``-utilization.png``)."""
    from schedsim.app.report.formats import with_units
    from schedsim.app.report.plots import save_figures

    runs = _runs(results)
    users = int(runs["users"].max()) if len(runs) else 0
    gain = gains(runs)
    queue = queues(results, runs, users) if len(runs) else pd.DataFrame()
    claimed = claims(gain, queue, users)
    units = {"easy_jobs_per_day": "jobs/day", "creasy_jobs_per_day": "jobs/day",
             "gain_pct": "%", "easy_utilization": "fraction", "creasy_utilization": "fraction",
             "utilization_gain_pct": "%", "users": "users", "queue_min_jobs": "jobs",
             "queue_max_jobs": "jobs", "spread": "ratio", "drain_hour": "h"}  # fmt: skip
    tables: list[Path] = []
    for frame, name in ((gain, "feitelson2009-gains.csv"), (queue, "feitelson2009-queues.csv")):
        path = out / name
        with_units(frame, lambda c: units.get(c, "")).to_csv(path, index=False)
        tables.append(path)
    tables += write_claims(
        claimed, out, f"Feitelson & Shmueli 2009: the paper's claims ({results.name})"
    )
    figures = (
        [(f"feitelson2009-{CURVES[c][1]}", curves_figure(runs, c)) for c in CURVES]
        if len(runs) and runs["users"].nunique() > 1
        else []
    )
    return tables, save_figures(figures, out), claimed
