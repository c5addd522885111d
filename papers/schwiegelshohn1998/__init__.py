"""Schwiegelshohn & Yahyapour 1998, *Analysis of First-Come-First-Serve Parallel Job
Scheduling* (SODA 1998): preemptive FCFS (PFCFS) against FCFS.

Its page is README.md beside this file; its study ``study.toml``. `tables`: the paper's
Tables 4-9; `analyses`: ours beside them, sums, agreement, consistency; `claims`: the
paper's claims scored; `figures`: the weighted flow time by month; `report`: `write`, the
files it adds to a study's report (``[report] paper = "schwiegelshohn1998"``).
"""

from __future__ import annotations

from schedsim.papers.schwiegelshohn1998 import claims
from schedsim.papers.schwiegelshohn1998.analyses import (
    FACTOR,
    METRICS,
    POLICIES,
    READINGS,
    SENSITIVE,
    SIGNIFICANT,
    SWAPPED,
    UNITS,
    WITHIN,
    agreement,
    consistency,
    ours,
    side_by_side,
    sums,
    total_change,
    weighted_mean,
)
from schedsim.papers.schwiegelshohn1998.figures import month_figure
from schedsim.papers.schwiegelshohn1998.report import write
from schedsim.papers.schwiegelshohn1998.tables import MONTHS, STRATEGIES, TABLES, PaperTable

__all__ = [
    "FACTOR",
    "METRICS",
    "MONTHS",
    "POLICIES",
    "READINGS",
    "SENSITIVE",
    "SIGNIFICANT",
    "STRATEGIES",
    "SWAPPED",
    "TABLES",
    "UNITS",
    "WITHIN",
    "PaperTable",
    "agreement",
    "claims",
    "consistency",
    "month_figure",
    "ours",
    "side_by_side",
    "sums",
    "total_change",
    "weighted_mean",
    "write",
]
