"""Schwiegelshohn & Yahyapour 1998: the files the paper adds to a study's report."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from schedsim.app.claims import RULE, ClaimResult, readings_markdown
from schedsim.papers.schwiegelshohn1998.analyses import (
    NOKILL,
    READINGS,
    UNITS,
    _readings,
    agreement,
    consistency,
    ours,
    side_by_side,
    sums,
)
from schedsim.papers.schwiegelshohn1998.bound import (
    FACTS,
    bound_table,
    for_runs,
    month_facts,
    weighted_bound_table,
)
from schedsim.papers.schwiegelshohn1998.claims import DEFAULT, claims, readings
from schedsim.papers.schwiegelshohn1998.claims import results as results_of
from schedsim.papers.schwiegelshohn1998.figures import month_figure
from schedsim.papers.schwiegelshohn1998.labels import queue_order, swap_summary
from schedsim.papers.schwiegelshohn1998.tables import TABLES

if TYPE_CHECKING:  # pragma: no cover
    from schedsim.app.report.study_results import StudyResults

__all__ = ["write"]


# -- writing -----------------------------------------------------------------------------------


def _unit(metric: str) -> Callable[[str], str]:
    """Units of a side-by-side or sums table: our FCFS value in the metric's unit,
    percents in %, errors of a Sum in percentage points."""

    def unit(column: str) -> str:
        if column in (f"fcfs_{metric}", f"fcfs{NOKILL}_{metric}"):
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


def _facts_unit(column: str) -> str:
    return FACTS.get(column, "")


def _bound_units(values: tuple[str, ...], unit: str) -> Callable[[str], str]:
    """The units of a bound table's columns: ``unit`` for its ``values`` (our FCFS and the
    bound), nodes, and percent for the largest change and the paper's cells."""

    def unit_of(column: str) -> str:
        if column in values:
            return unit
        if column == "nodes":
            return "nodes"
        return "%" if column == "largest_change" or column.startswith("paper_") else ""

    return unit_of


_bound_unit = _bound_units(("fcfs_makespan", "makespan_bound"), "s")
_weighted_bound_unit = _bound_units(("fcfs", "bound"), "core s^2")


def _swap_unit(column: str) -> str:
    if column in ("months", "signs_as_named", "signs_swapped"):
        return "months"
    return "nodes" if column == "nodes" else ""


def _queue_unit(column: str) -> str:
    if column in ("wide_jobs", "wide_within_quantum"):
        return "jobs"
    if column == "nodes":
        return "nodes"
    return "%" if column.startswith(("paper_", "waits_")) else ""


#: What the claims page says before its tables.
INTRO = (
    f"{RULE}\n\nNo interval: one deterministic run per month and machine (a trace replay). "
    "Each reading is a column group: the queue during a wide job's cycle (`waits`, Table 1 "
    "as written, the default; `moves`), which running jobs a wide job preempts (`-all`: "
    "every one, Table 1's step F; `-narrowest`, `-newest`: the greedy's other orders), "
    "when a wide job's wait starts (`-submit`: at its submission, not when it heads the "
    "queue), jobs run to their full run time (`-nokill`, against FCFS with the same run times), "
    "and each with the paper's PFCFS2 and PFCFS3 labels swapped (a hypothesis the paper "
    "does not state: its PFCFS2 claims scored against our PFCFS3 and the reverse).\n"
)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def claims_markdown(title: str, scored: dict[str, list[ClaimResult]]) -> str:
    """``claims.md``: the title, the rule (`INTRO`), the readings x claims table
    (`readings_markdown`), then each reading's claims: the claim (where), the paper, the
    claim's numeric reading (``rule``), ours, the cases that hold and the verdict."""
    parts = [f"# {title}\n", INTRO]
    if scored:
        parts += ["## Readings x claims\n", readings_markdown(readings(scored))]
    head = "| the paper says | paper | read as | here | holds | |\n|---|---|---|---|---|---|"
    for name, res in scored.items():
        parts += [f"## Reading: {name}{' (the default)' if name == DEFAULT else ''}\n", head]
        for r in res:
            row = r.row()
            parts.append(f"| {_cell(row['claim'])} ({_cell(row['where'])}) | {_cell(row['paper'])} "
                         f"| {_cell(row.get('rule', ''))} | {_cell(row['schedsim'])} "
                         f"| {row['holds']} | {row['status']} |")  # fmt: skip
        parts.append("")
    return "\n".join(parts) + "\n"


def write(results: StudyResults, out: Path) -> tuple[list[Path], list[Path], pd.DataFrame]:
    """The paper's tables beside ours, the Sum rows, the agreement, the paper's
    consistency, the label-swap evidence, the makespan bound and the claims, into ``out``:

    ``schwiegelshohn1998-table<N>.csv`` for N = 4-9 (`side_by_side`),
    ``schwiegelshohn1998-sums.csv``, ``schwiegelshohn1998-agreement.csv``,
    ``schwiegelshohn1998-consistency.csv``, ``schwiegelshohn1998-label-swap.csv``
    (`swap_summary`), and from the FCFS runs' jobs ``schwiegelshohn1998-months.csv``
    (`month_facts`, a row per FCFS run), and from the default run times'
    ``schwiegelshohn1998-makespan-bound.csv`` (`bound_table`),
    ``schwiegelshohn1998-weighted-bound.csv`` (`weighted_bound_table`) and
    ``schwiegelshohn1998-queue-order.csv`` (`queue_order`); ``claims.csv`` (the default
    reading's columns, then a column group per other reading) and ``claims.md`` (the
    rule, the readings x claims table, then each reading's claims), ``readings.csv``; and
    the figure ``schwiegelshohn1998-flow-by-month.png`` (`month_figure`).
    """
    from schedsim.app.report.formats import with_units
    from schedsim.app.report.plots import save_figures

    values = ours(results)
    facts = month_facts(results)
    tables: list[Path] = []

    def put(frame: pd.DataFrame, name: str, unit: Callable[[str], str]) -> None:
        path = out / name
        with_units(frame, unit).to_csv(path, index=False)
        tables.append(path)

    for table in TABLES:
        put(side_by_side(values, table), f"schwiegelshohn1998-table{table.number}.csv",
            _unit(table.metric))  # fmt: skip
    put(sums(values), "schwiegelshohn1998-sums.csv", _unit("makespan"))
    agreed = agreement(values)
    put(agreed, "schwiegelshohn1998-agreement.csv", _agreement_unit)
    put(consistency(), "schwiegelshohn1998-consistency.csv", _consistency_unit)
    put(swap_summary(agreed), "schwiegelshohn1998-label-swap.csv", _swap_unit)
    if not facts.empty:
        put(facts, "schwiegelshohn1998-months.csv", _facts_unit)
        default = for_runs(facts)
        put(bound_table(default), "schwiegelshohn1998-makespan-bound.csv", _bound_unit)
        put(weighted_bound_table(default), "schwiegelshohn1998-weighted-bound.csv",
            _weighted_bound_unit)  # fmt: skip
        put(queue_order(values, default), "schwiegelshohn1998-queue-order.csv", _queue_unit)
    scored = results_of(values, facts)
    claimed = claims(values, facts, scored)
    title = f"Schwiegelshohn & Yahyapour 1998: the paper's claims ({results.name})"
    csv, md = out / "claims.csv", out / "claims.md"
    claimed.to_csv(csv, index=False)
    md.write_text(claims_markdown(title, scored))
    tables += [csv, md]
    if scored:
        path = out / "readings.csv"
        readings(scored).to_csv(path, index=False)
        tables.append(path)
    plots: list[Path] = []
    if len(values) and _readings(values):
        plots = save_figures([("schwiegelshohn1998-flow-by-month", month_figure(values))], out)
    return tables, plots, claimed
