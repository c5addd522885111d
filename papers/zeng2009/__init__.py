"""Zeng & Sodan 2009, *Job Scheduling with Lookahead Group Matchmaking for Time/Space
Sharing on Multi-core Parallel Machines* (JSSPP 2009): co-scheduling on multi-core nodes.

Its page is README.md beside this file; its study ``study.toml``. `analyses`: RR, the
utilization, the groups and the delays measured from the runs; `claims`: the paper's
claims scored; `figures`: Figures 6-9; `report`: `write`, the files it adds to a study's
report (``[report] paper = "zeng2009"``).
"""

from __future__ import annotations

from schedsim.papers.zeng2009.analyses import (
    BLOCK_SIZE,
    F_SLACK,
    HELD_KINDS,
    KEYS,
    N_HIGH,
    NO_SLICING,
    PAPER_JOBS,
    RR_BOUND,
    SCHEDULERS,
    SCOJO,
    TYPES,
    UNITS,
    WORKLOADS,
    aggregate,
    delay_factors,
    delay_stats,
    group_stats,
    high_load_phases,
    job_type,
    makespan,
    metrics,
    paper_setting,
    relative_response,
    rr,
    scheduler,
    study_runs,
    usage,
    utilization,
    waiting,
)
from schedsim.papers.zeng2009.claims import (
    PAPER_GROUPED,
    PAPER_RR_GAIN,
    PAPER_SSP_W2,
    PAPER_UCORE_GAIN,
    ZengClaim,
)
from schedsim.papers.zeng2009.figures import (
    COLORS,
    RR_LABEL,
    SHOWN_TYPES,
    block_figure,
    rr_figure,
    slack_figure,
    utilization_figure,
)
from schedsim.papers.zeng2009.report import write

__all__ = [
    "BLOCK_SIZE",
    "COLORS",
    "F_SLACK",
    "HELD_KINDS",
    "KEYS",
    "NO_SLICING",
    "N_HIGH",
    "PAPER_GROUPED",
    "PAPER_JOBS",
    "PAPER_RR_GAIN",
    "PAPER_SSP_W2",
    "PAPER_UCORE_GAIN",
    "RR_BOUND",
    "RR_LABEL",
    "SCHEDULERS",
    "SCOJO",
    "SHOWN_TYPES",
    "TYPES",
    "UNITS",
    "WORKLOADS",
    "ZengClaim",
    "aggregate",
    "block_figure",
    "claims",
    "delay_factors",
    "delay_stats",
    "group_stats",
    "high_load_phases",
    "job_type",
    "makespan",
    "metrics",
    "paper_setting",
    "relative_response",
    "rr",
    "rr_figure",
    "scheduler",
    "slack_figure",
    "study_runs",
    "usage",
    "utilization",
    "utilization_figure",
    "waiting",
    "write",
]
