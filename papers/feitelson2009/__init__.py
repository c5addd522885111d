"""Feitelson & Shmueli 2009, *A Case for Conservative Workload Modeling: Parallel Job
Scheduling with Daily Cycles of Activity* (MASCOTS 2009): CREASY against EASY.

Its page is README.md beside this file; its studies ``study.toml`` (14 days) and
``study-full.toml`` (the paper's 180 days). `analyses`: the gains and the queue by time
of day; `claims`: the paper's claims scored; `figures`: Figures 2, 4, 5 and 6; `report`:
`write`, the files it adds to a study's report (``[report] paper = "feitelson2009"``).
"""

from __future__ import annotations

from schedsim.papers.feitelson2009 import claims
from schedsim.papers.feitelson2009.analyses import (
    DRAINED,
    NIGHT_FROM,
    NIGHT_TO,
    drain_hour,
    gains,
    queues,
)
from schedsim.papers.feitelson2009.figures import CURVES, closed_loop_figures, curves_figure
from schedsim.papers.feitelson2009.report import write

__all__ = [
    "CURVES",
    "DRAINED",
    "NIGHT_FROM",
    "NIGHT_TO",
    "claims",
    "closed_loop_figures",
    "curves_figure",
    "drain_hour",
    "gains",
    "queues",
    "write",
]
