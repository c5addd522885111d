"""Lawson & Smirni 2002, *Multiple-Queue Backfilling Scheduling with Priorities and
Reservations for Parallel Systems* (JSSPP 2002): multiple-queue backfilling.

Its page is README.md beside this file; its study ``study.toml``. `analyses`: the
slowdowns, the ratio R and the reservations; `claims`: the paper's claims scored;
`figures`: R per scenario, R over time, the reservation delays; `report`: `write`, the
files it adds to a study's report (``[report] paper = "lawson2002"``).
"""

from __future__ import annotations

from schedsim.papers import public_names
from schedsim.papers.lawson2002 import analyses, claims, figures, report
from schedsim.papers.lawson2002.report import write

__all__ = ["analyses", "claims", "figures", "report", "write"]

#: The public names of the modules, as attributes of the package (`public_names`).
__getattr__ = public_names(__name__, analyses, claims, figures, report)
