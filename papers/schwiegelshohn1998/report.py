"""Schwiegelshohn & Yahyapour 1998: the files the paper adds to a study's report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import write_claims
from schedsim.papers.schwiegelshohn1998.analyses import (
    READINGS,
    UNITS,
    _readings,
    agreement,
    consistency,
    ours,
    side_by_side,
    sums,
)
from schedsim.papers.schwiegelshohn1998.claims import claims
from schedsim.papers.schwiegelshohn1998.figures import month_figure
from schedsim.papers.schwiegelshohn1998.tables import TABLES

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = ["write"]


# -- writing -----------------------------------------------------------------------------------


def _unit(metric: str) -> Callable[[str], str]:
    """Units of a side-by-side or sums table: our FCFS value in the metric's unit,
    percents in %, errors of a Sum in percentage points."""

    def unit(column: str) -> str:
        if column == f"fcfs_{metric}":
            return UNITS[metric]
        if column.endswith("_error"):
            return "points"
        if column.startswith(("paper_", *(f"{r}_" for r in READINGS))):
            return "%"
        return ""

    return unit


def _agreement_unit(column: str) -> str:
    if column in ("month_cells", "same_sign", "within_25pct"):
        return "cells"
    return "%" if column.endswith("_sum") else ""


def _consistency_unit(column: str) -> str:
    return {"completion": "%", "flow": "%", "ratio": "ratio"}.get(column, "")


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables beside ours, the Sum rows, the agreement, the paper's
    consistency and the claims, into ``out``:

    ``schwiegelshohn1998-table<N>.csv`` for N = 4-9 (`side_by_side`),
    ``schwiegelshohn1998-sums.csv``, ``schwiegelshohn1998-agreement.csv``,
    ``schwiegelshohn1998-consistency.csv``, ``claims.csv`` (and ``claims.md``), and the figure
    ``schwiegelshohn1998-flow-by-month.png`` (`month_figure`).
    """
    from schedsim.app.report.formats import with_units
    from schedsim.app.report.plots import save_figures

    values = ours(results)
    tables: list[Path] = []

    def put(frame: pd.DataFrame, name: str, unit: Callable[[str], str]) -> None:
        path = out / name
        with_units(frame, unit).to_csv(path, index=False)
        tables.append(path)

    for table in TABLES:
        put(side_by_side(values, table), f"schwiegelshohn1998-table{table.number}.csv",
            _unit(table.metric))  # fmt: skip
    put(sums(values), "schwiegelshohn1998-sums.csv", _unit("makespan"))
    put(agreement(values), "schwiegelshohn1998-agreement.csv", _agreement_unit)
    put(consistency(), "schwiegelshohn1998-consistency.csv", _consistency_unit)
    claimed = claims(values)
    tables += write_claims(
        claimed, out, f"Schwiegelshohn & Yahyapour 1998: the paper's claims ({results.name})"
    )
    plots: list[Path] = []
    if len(values) and _readings(values):
        plots = save_figures([("schwiegelshohn1998-flow-by-month", month_figure(values))], out)
    return tables, plots, claimed
