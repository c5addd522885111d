"""Lawson & Smirni 2002, *Multiple-Queue Backfilling Scheduling with Priorities and
Reservations for Parallel Systems* (JSSPP 2002): multiple-queue backfilling.

Its page is README.md beside this file; its study ``study.toml``. `analyses`: the
slowdowns, the ratio R and the reservations; `claims`: the paper's claims scored;
`figures`: R per scenario, R over time, the reservation delays; `report`: `write`, the
files it adds to a study's report (``[report] paper = "lawson2002"``).
"""

from __future__ import annotations

from schedsim.papers.lawson2002 import claims
from schedsim.papers.lawson2002.analyses import (
    CLASSES,
    MULTI,
    PAPER_TABLE_2,
    SINGLE,
    TRACE_NAMES,
    aggregate,
    estimate_class,
    pairs,
    ratio,
    reservations,
    scenario,
    slowdown,
    transient,
)
from schedsim.papers.lawson2002.figures import delay_figure, ratio_figure, transient_figure
from schedsim.papers.lawson2002.report import write

__all__ = [
    "CLASSES",
    "MULTI",
    "PAPER_TABLE_2",
    "SINGLE",
    "TRACE_NAMES",
    "aggregate",
    "claims",
    "delay_figure",
    "estimate_class",
    "pairs",
    "ratio",
    "ratio_figure",
    "reservations",
    "scenario",
    "slowdown",
    "transient",
    "transient_figure",
    "write",
]
