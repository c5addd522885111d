"""Lawson & Smirni 2002: the files the paper adds to a study's report."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import write_claims
from schedsim.app.report.plots import save_figures
from schedsim.papers.lawson2002.analyses import aggregate, pairs, reservations, transient
from schedsim.papers.lawson2002.claims import claims
from schedsim.papers.lawson2002.figures import delay_figure, ratio_figure, transient_figure

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = ["write"]


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables, figures and claims (``claims.csv``, ``claims.md``) for a study,
    into ``out``."""
    from schedsim.app.report.formats import with_units

    found = pairs(results)
    table = aggregate(found)
    batches = transient(found)
    res, delays = reservations(found)
    claimed = claims(table, batches, res)
    tables: list[Path] = []
    plots: list[Path] = []
    units = {"s1": "ratio", "sm": "ratio", "R": "ratio", "jobs": "jobs", "day": "days",
             "share": "fraction", "delay": "s", "single missed share": "fraction",
             "multiple missed share": "fraction",
             "paper single missed share": "fraction"}  # fmt: skip
    for frame, name in (
        (table, "lawson2002-slowdown-ratios.csv"),
        (batches, "lawson2002-transient.csv"),
        (res, "lawson2002-missed-reservations.csv"),
    ):
        path = out / name
        with_units(frame, lambda c: units.get(c, "")).to_csv(path, index=False)
        tables.append(path)
    tables += write_claims(
        claimed, out, f"Lawson & Smirni 2002: the paper's claims ({results.name})"
    )
    figures = []
    if len(table):
        loads = [
            s for s in ("trace load", "load x1.25", "load x1.5") if (table["scenario"] == s).any()
        ]  # (none in a study of other scenarios only: then no figure)
        if loads:
            figures.append(
                ("lawson2002-R-by-class", ratio_figure(
                    table, loads,
                    "Slowdown ratio R, multiple against single queue (Figures 3 and 5)"))
            )  # fmt: skip
        prio = [
            s for s in ("75% high priority", "95% high priority") if (table["scenario"] == s).any()
        ]
        if prio:
            figures.append(("lawson2002-R-priorities", ratio_figure(
                table, prio, "R with job priorities (Figures 6 and 8)")))  # fmt: skip
        res_s = [s for s in ("1% reservations", "5% reservations", "25% reservations")
                 if (table["scenario"] == s).any()]  # fmt: skip
        if res_s:
            figures.append(("lawson2002-R-reservations", ratio_figure(
                table, res_s, "R with reservations (Figure 10)")))  # fmt: skip
    if len(batches):
        if (batches["scenario"] == "trace load").any():
            figures.append(("lawson2002-transient", transient_figure(
                batches, "trace load", "R per 1000 submissions (Figure 4)")))  # fmt: skip
        if (batches["scenario"] == "75% high priority").any():
            figures.append(("lawson2002-transient-priorities", transient_figure(
                batches, "75% high priority",
                "R per 1000 submissions, 75% high priority (Figure 7)")))  # fmt: skip
    if len(delays):
        figures.append(("lawson2002-reservation-delays", delay_figure(delays)))
    plots += save_figures(figures, out)
    return tables, plots, claimed
