"""Schwiegelshohn & Yahyapour 1998, *Analysis of First-Come-First-Serve Parallel Job
Scheduling* (SODA 1998): preemptive FCFS (PFCFS) against FCFS.

Its page is README.md beside this file; its study ``study.toml``. `tables`: the paper's
Tables 2-9; `analyses`: ours beside them, sums, agreement, consistency; `bound`: the most
any schedule of a month can gain on FCFS in makespan, and the months' job counts; `labels`:
the evidence that the paper's PFCFS2 column is our PFCFS3; `claims`: the paper's claims
scored under each reading; `figures`: the weighted flow time by month; `report`: `write`,
the files it adds to a study's report (``[report] paper = "schwiegelshohn1998"``).
"""

from __future__ import annotations

from schedsim.papers import public_names
from schedsim.papers.schwiegelshohn1998 import (
    analyses,
    bound,
    claims,
    figures,
    labels,
    report,
    tables,
)
from schedsim.papers.schwiegelshohn1998.report import write

__all__ = ["analyses", "bound", "claims", "figures", "labels", "report", "tables", "write"]

#: The public names of the modules, as attributes of the package (`public_names`).
__getattr__ = public_names(__name__, analyses, bound, claims, figures, labels, report, tables)
