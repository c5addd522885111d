"""Kettimuthu 2003, *Selective Preemption Strategies for Parallel Job Scheduling* (M.S.
thesis, The Ohio State University): selective suspension (SS, TSS, IS) against no
suspension (NS).

Its page is README.md beside this file; its studies ``study.toml`` (the thesis's
schemes, 43 runs) and ``subset.toml`` (the search for the CTC subset the thesis ran).
`thesis`: the thesis's own numbers; `values`: what the claims read from a study;
`readings`: the other readings of SS and TSS a study may hold; `words`: the thesis's
words made numbers; `scorers`: what the runs give for each claim; `claims`: the thesis's
claims (data) scored; `report`: the claims' tables and `write`, the files the thesis adds to a
study's report (``[report] paper = "kettimuthu2003"``); `subset`: the subset search,
a report of its own (``[report] paper = "kettimuthu2003-subset"``).
"""

from __future__ import annotations

from schedsim.papers.kettimuthu2003 import readings
from schedsim.papers.kettimuthu2003.claims import (
    COLUMNS,
    COMPARABLE,
    SIGNIFICANT,
    STATUSES,
    TSS_BETTER,
    Claim,
    better,
    comparable,
    much_better,
    much_worse,
    not_significant,
    not_worse,
    slightly_better,
    slightly_worse,
    status,
)
from schedsim.papers.kettimuthu2003.readings import DEFAULT, Reading
from schedsim.papers.kettimuthu2003.report import (
    markdown,
    reading_names,
    summary,
    summary_markdown,
    write,
)
from schedsim.papers.kettimuthu2003.thesis import (
    MIX_TOLERANCE,
    SLOWDOWN_FACTOR,
    THESIS_MIX,
    THESIS_MIX4,
    THESIS_MIX_AS_PRINTED,
    THESIS_OVERALL_SLOWDOWN,
    THESIS_SLOWDOWN,
    THESIS_UTILIZATION,
    UTILIZATION_TOLERANCE,
)
from schedsim.papers.kettimuthu2003.values import category_values, overall_values

__all__ = [
    "COLUMNS",
    "COMPARABLE",
    "DEFAULT",
    "MIX_TOLERANCE",
    "SIGNIFICANT",
    "SLOWDOWN_FACTOR",
    "STATUSES",
    "THESIS_MIX",
    "THESIS_MIX4",
    "THESIS_MIX_AS_PRINTED",
    "THESIS_OVERALL_SLOWDOWN",
    "THESIS_SLOWDOWN",
    "THESIS_UTILIZATION",
    "TSS_BETTER",
    "UTILIZATION_TOLERANCE",
    "Claim",
    "Reading",
    "better",
    "category_values",
    "claims",
    "comparable",
    "markdown",
    "much_better",
    "much_worse",
    "not_significant",
    "not_worse",
    "overall_values",
    "reading_names",
    "readings",
    "slightly_better",
    "slightly_worse",
    "status",
    "summary",
    "summary_markdown",
    "write",
]
